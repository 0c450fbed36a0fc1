#include <gtest/gtest.h>

#include <queue>

#include "helpers.hpp"
#include "switchyard/traffic/arrival_calendar.hpp"
#include "switchyard/traffic/traffic.hpp"

using namespace sy;

TEST(Traffic, PermutationPatterns) {
  const Config t =
      test::cfg("topology: {type: torus, dims: [4, 4, 4]}\ntraffic: {pattern: transpose}\n");
  const Topology topo = t.topology.make();
  Traffic tr("tr", t, topo);
  Rng rng(1);
  const int src = topo.node_at({1, 2, 3});
  EXPECT_EQ(tr.destination(src, rng), topo.node_at({3, 2, 1}));
  const Config b =
      test::cfg("topology: {type: mesh, dims: [4, 3]}\ntraffic: {pattern: bit_complement}\n");
  const Topology mb = b.topology.make();
  Traffic tb("tb", b, mb);
  EXPECT_EQ(tb.destination(mb.node_at({1, 0}), rng), mb.node_at({2, 2}));
  EXPECT_EQ(tb.destination(mb.node_at({0, 2}), rng), mb.node_at({3, 0}));
}

TEST(Traffic, UniformExcludesSelfAndCoversEveryOtherNode) {
  const Config c = test::cfg("topology: {type: torus, dims: [3, 3]}\n");
  const Topology topo = c.topology.make();
  Traffic tr("tr", c, topo);
  Rng rng(2);
  std::vector<int> hits(9, 0);
  for (int i = 0; i < 8000; ++i) ++hits[tr.destination(4, rng)];
  EXPECT_EQ(hits[4], 0);
  for (int n = 0; n < 9; ++n) {
    if (n != 4) {
      EXPECT_NEAR(hits[n], 1000, 150) << n;
    }
  }
}

// The patterns BookSim2 users expect, each mapping nodes as its definition says.
TEST(TrafficPatterns, TornadoAndNeighborMoveAlongEachRing) {
  const Config t =
      test::cfg("topology: {type: torus, dims: [8, 5]}\ntraffic: {pattern: tornado}\n");
  const Topology topo = t.topology.make();
  Traffic tr("tr", t, topo);
  Rng rng(1);
  // Tornado: + ceil(n/2) - 1 per dimension: +3 of 8, +2 of 5.
  EXPECT_EQ(tr.destination(topo.node_at({6, 4}), rng), topo.node_at({1, 1}));
  const Config n =
      test::cfg("topology: {type: mesh, dims: [4, 4]}\ntraffic: {pattern: neighbor}\n");
  const Topology tn = n.topology.make();
  Traffic tb("tb", n, tn);
  EXPECT_EQ(tb.destination(tn.node_at({3, 1}), rng), tn.node_at({0, 2}));
}

TEST(TrafficPatterns, BitPermutationsOfTheNodeId) {
  auto make = [](const char* p) {
    return test::cfg(std::string("topology: {type: hypercube, dim: 5}\ntraffic: {pattern: ") + p +
                     "}\n");
  };
  const Config s = make("shuffle"), r = make("bit_reverse"), o = make("bit_rotation");
  const Topology topo = s.topology.make();
  Traffic ts("ts", s, topo), tr("tr", r, topo), to("to", o, topo);
  Rng rng(1);
  EXPECT_EQ(ts.destination(0b10110, rng), 0b01101);  // rotate left
  EXPECT_EQ(tr.destination(0b10110, rng), 0b01101);  // reverse
  EXPECT_EQ(tr.destination(0b10000, rng), 0b00001);
  EXPECT_EQ(to.destination(0b10110, rng), 0b01011);  // rotate right
  EXPECT_EQ(to.destination(0b00001, rng), 0b10000);
  EXPECT_THROW(test::cfg("topology: {type: torus, dims: [6, 6]}\ntraffic: {pattern: shuffle}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: butterfly, k: 2, n: 3}\ntraffic: {pattern: tornado}\n"),
               ConfigError);
}

TEST(TrafficPatterns, RandomPermutationIsADerangementFixedBySeed) {
  const Config c =
      test::cfg("topology: {type: torus, dims: [6, 6]}\ntraffic: {pattern: random_permutation}\n");
  const Topology topo = c.topology.make();
  Traffic a("a", c, topo), b("b", c, topo);
  Config other = c;
  other.simulation.seed = 2;
  Traffic x("x", other, topo);
  Rng rng(1);
  std::vector<int> seen(36, 0);
  bool differs = false;
  for (int s = 0; s < 36; ++s) {
    const int d = a.destination(s, rng);
    EXPECT_NE(d, s);
    EXPECT_EQ(d, a.destination(s, rng));  // fixed for the run
    EXPECT_EQ(d, b.destination(s, rng));  // same seed, same permutation
    differs = differs || d != x.destination(s, rng);
    ++seen[d];
  }
  for (int n : seen) EXPECT_EQ(n, 1);
  EXPECT_TRUE(differs);
}

TEST(TrafficPatterns, MatrixGivesEachPairItsRate) {
  const std::string csv = test::write_temp("matrix.csv",
                                           "# 4 nodes, packets per cycle\n"
                                           "0, 0.1, 0, 0.3\n0,0,0,0\n0.2,0,0,0\n0,0,0,0.05\n");
  const Config c = test::cfg(
      "topology: {type: torus, dims: [4]}\n"
      "traffic: {pattern: matrix, matrix: " +
      csv + ", rate_unit: packets}\n");
  const Topology topo = c.topology.make();
  Traffic tr("tr", c, topo);
  Rng rng(3);
  int to1 = 0;
  for (int i = 0; i < 4000; ++i) {
    const int d = tr.destination(0, rng);
    ASSERT_TRUE(d == 1 || d == 3);
    to1 += d == 1;
  }
  EXPECT_NEAR(to1, 1000, 100);  // 0.1 of 0.4
  EXPECT_EQ(tr.destination(2, rng), 0);
  EXPECT_EQ(c.traffic.rate, 0.4);  // the largest row sum
  const std::string bad = test::write_temp("bad.csv", "0,1\n1,0\n");
  EXPECT_THROW(test::cfg("topology: {type: torus, dims: [4]}\n"
                         "traffic: {pattern: matrix, matrix: " +
                         bad + "}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("traffic: {pattern: matrix}\n"), ConfigError);
}

// The calendar gives the arrivals in the order of a min-heap on (cycle, stream), whatever their
// spread: gaps of 0 (same-cycle batches), short ones, ones past the wheel, and calls that skip
// cycles with arrivals due.
TEST(Traffic, ArrivalCalendarTakesArrivalsInHeapOrder) {
  for (const std::uint64_t span : {3ull, 40ull, 5000ull, 20000ull}) {
    const int streams = 37;
    Rng rng(span);
    ArrivalCalendar cal(streams);
    using Entry = std::pair<Cycle, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ref;
    for (int s = 0; s < streams; ++s) {
      const Cycle t = rng.below(span);
      cal.add(t, s);
      ref.push({t, s});
    }
    // Each stream's next arrival: a gap drawn per firing (0 now and then: the same cycle).
    std::vector<Entry> got, want;
    Cycle now = 0;
    auto gap = [&](Cycle at) { return rng.below(4) == 0 ? at : at + 1 + rng.below(span); };
    std::vector<Cycle> next_ref;  // the gaps the calendar drew, replayed for the reference
    std::size_t replay = 0;
    for (int step = 0; step < 400 && !ref.empty(); ++step) {
      now += 1 + rng.below(span / 2 + 1);  // (skips cycles with arrivals due)
      ASSERT_EQ(cal.next(), ref.top().first);
      cal.run_until(now, [&](int s) {
        got.push_back({now, s});
        const Cycle d = gap(now);
        next_ref.push_back(d);
        return d;
      });
      while (!ref.empty() && ref.top().first <= now) {
        const Entry e = ref.top();
        ref.pop();
        want.push_back({now, e.second});
        ref.push({next_ref.at(replay++), e.second});
      }
    }
    EXPECT_EQ(got, want) << "span " << span;
    EXPECT_GT(got.size(), 100u);
  }
}
