// The greedy paper's §3.3 servers (Lemmas 7 and 8) on the model's links: a trace run with waves,
// every link's transmissions read from the VCD (an output port's `pkt` changing to a new packet
// starts a transmission of one packet time), each packet's arrival at a link (its creation at its
// first link, the end of its previous transmission after). The model's link must be the lemma's
// FIFO server (the recursion on its own arrivals), depart no later than a PS server fed the same
// arrivals (Lemma 7), and, where its arrivals are delayed, depart no earlier (Lemma 8). The
// checkers themselves are shown to fail on streams that break the properties.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <tuple>

#include "fifo_servers.hpp"
#include "helpers.hpp"
#include "vcd.hpp"

using namespace sy;
using namespace sy::greedy;

namespace {

constexpr std::int64_t S = 4;  // cycles per packet time

struct Msg {
  std::int64_t t;
  int src, dst;
};

// Poisson arrivals (rho / p per node per packet time, p = 1/2), bit_flip destinations, self
// left out, over `horizon` packet times, floored to the cycle; time order.
std::vector<Msg> trace(int dim, double rho, int horizon, unsigned seed) {
  std::mt19937_64 g(seed);
  std::exponential_distribution<double> gap(2 * rho);
  std::bernoulli_distribution flip(0.5);
  std::vector<Msg> m;
  for (int s = 0; s < (1 << dim); ++s)
    for (double t = gap(g); t < horizon; t += gap(g)) {
      int d = s;
      for (int b = 0; b < dim; ++b)
        if (flip(g)) d ^= 1 << b;
      if (d != s) m.push_back({static_cast<std::int64_t>(t * S), s, d});
    }
  std::stable_sort(m.begin(), m.end(), [](const Msg& a, const Msg& b) { return a.t < b.t; });
  return m;
}

struct LinkStreams {
  std::vector<std::int64_t> arrivals, departures;
};

// The model's run of the trace: per link (router.port), its arrival and departure times.
std::map<std::string, LinkStreams> run_model(const std::string& name, int dim,
                                             const std::vector<Msg>& msgs) {
  std::ostringstream csv;
  csv << "time,src,dst,flits\n";
  for (const Msg& m : msgs) csv << m.t << "," << m.src << "," << m.dst << ",1\n";
  const std::string out = "/tmp/switchyard-test-" + name + "-" + std::to_string(getpid());
  const std::string file = test::write_temp(name + ".csv", csv.str());
  std::ostringstream y;
  y << "topology: {type: hypercube, dim: " << dim << "}\n"
    << "router: {buffering: output_queued, switching: store_and_forward}\n"
    << "network_interface: {injection: all_port}\n"
    << "timing: {alpha: 0, delta: 0, tau: " << S << "}\n"
    << "traffic: {type: trace, file: " << file << "}\n"
    << "waves: {enable: true}\n";
  const test::CliResult c =
      test::cli("run " + test::write_temp(name + ".yaml", y.str()) + " --quiet --out " + out);
  EXPECT_EQ(c.rc, 0) << c.output;
  const test::Vcd v(out + "/run.vcd");
  EXPECT_TRUE(v.ok);
  // Every transmission: (start, link) per packet (trace messages are packets 1, 2, ... in time
  // order).
  std::map<std::uint64_t, std::vector<std::pair<std::int64_t, std::string>>> path;
  std::map<std::string, LinkStreams> links;
  for (const auto& [sig, changes] : v.signals) {
    if (sig.find(".out_") == std::string::npos || sig.size() < 4 ||
        sig.compare(sig.size() - 4, 4, ".pkt") != 0)
      continue;
    const std::string link = sig.substr(0, sig.size() - 4);
    std::uint64_t prev = test::Vcd::kZ;
    for (const auto& ch : changes) {
      if (ch.value != test::Vcd::kZ && ch.value != prev) {
        path[ch.value].push_back({static_cast<std::int64_t>(ch.time), link});
        links[link].departures.push_back(static_cast<std::int64_t>(ch.time) + S);
      }
      prev = ch.value;
    }
  }
  EXPECT_EQ(path.size(), msgs.size());
  for (auto& [pkt, hops] : path) {
    std::sort(hops.begin(), hops.end());
    EXPECT_EQ(hops[0].second.substr(0, hops[0].second.find('.')),
              "r" + std::to_string(msgs[pkt - 1].src))
        << "packet " << pkt << " does not start at its source";
    for (std::size_t i = 0; i < hops.size(); ++i)
      links[hops[i].second].arrivals.push_back(i ? hops[i - 1].first + S : msgs[pkt - 1].t);
  }
  return links;
}

// A server whose departures are not monotone in its arrivals: a customer arriving at an even
// cycle is served in one packet time, at an odd one in three, each alone.
std::vector<std::int64_t> odd_server(std::vector<std::int64_t> t) {
  for (auto& x : t) x += (x % 2 ? 3 : 1) * S;
  std::sort(t.begin(), t.end());
  return t;
}

}  // namespace

TEST(FifoServers, PaperExampleSevenQuartersAndTwo) {
  // Arrivals at 0 and 1/4 packet time: PS departs at 7/4 and 2, FIFO at 1 and 2.
  const auto ps = ps_departures({0, 1}, S);
  ASSERT_EQ(ps.size(), 2U);
  EXPECT_NEAR(static_cast<double>(ps[0]), 7.0, 1e-12);
  EXPECT_NEAR(static_cast<double>(ps[1]), 8.0, 1e-12);
  const auto ff = fifo_departures({1, 0}, S);
  EXPECT_EQ(ff, (std::vector<std::int64_t>{4, 8}));
  EXPECT_TRUE(earlier_than(ff, ps, kPsTolerance).empty());  // Lemma 7
  EXPECT_EQ(earlier_than(ps, ff, kPsTolerance),
            (std::vector<std::size_t>{0}));  // (not the other way)
}

TEST(FifoServers, CheckersFlagStreamsThatBreakTheProperties) {
  // A hand-made stream that is not a delayed version of the reference at k = 1 only.
  EXPECT_EQ(earlier_than(std::vector<std::int64_t>{4, 8, 12}, std::vector<std::int64_t>{4, 7, 13}),
            (std::vector<std::size_t>{1}));
  // Lemma 8's test on a server that breaks it: delaying a customer from an odd to an even cycle
  // makes it leave earlier, and the test sees it; the FIFO server never does.
  std::mt19937_64 g(3);
  int odd_bad = 0, fifo_bad = 0;
  for (int rep = 0; rep < 200; ++rep) {
    std::vector<std::int64_t> t(8), late(8);
    for (auto& x : t) x = static_cast<std::int64_t>(g() % 40);
    for (std::size_t i = 0; i < t.size(); ++i) late[i] = t[i] + (g() % 3 == 0 ? g() % 3 : 0);
    odd_bad += !earlier_than(odd_server(t), odd_server(late)).empty();
    fifo_bad += !earlier_than(fifo_departures(t, S), fifo_departures(late, S)).empty();
  }
  EXPECT_GT(odd_bad, 0);
  EXPECT_EQ(fifo_bad, 0);
}

TEST(FifoServers, ModelLinksAreFifoServersNoLaterThanProcessorSharing) {
  // Lemma 7 on every link of a 2^3 hypercube under greedy routing, rho 0.8.
  const auto msgs = trace(3, 0.8, 200, 5);
  const auto links = run_model("fifo-lemma7", 3, msgs);
  std::size_t compared = 0, equal_ps = 0;
  for (const auto& [name, s] : links) {
    ASSERT_EQ(s.arrivals.size(), s.departures.size()) << name;
    auto dep = s.departures;
    std::sort(dep.begin(), dep.end());
    EXPECT_EQ(fifo_departures(s.arrivals, S), dep) << name << ": not the FIFO recursion";
    const auto ps = ps_departures(s.arrivals, S);
    EXPECT_TRUE(earlier_than(dep, ps, kPsTolerance).empty())
        << name << ": a PS departure before the model's";
    compared += dep.size();
    for (std::size_t k = 0; k < dep.size(); ++k)
      equal_ps += ps[k] < static_cast<long double>(dep[k]) + kPsTolerance;
  }
  EXPECT_EQ(links.size(), 24U);  // every arc carried packets
  EXPECT_GT(compared, 3000U);
  EXPECT_LT(equal_ps, compared);  // PS strictly later somewhere: the comparison has teeth
}

TEST(FifoServers, ModelFirstLevelLinksDepartNoEarlierWhenArrivalsAreDelayed) {
  // Lemma 8 on the model: the same trace with a random 30% of its arrivals delayed by 1 to 8
  // cycles; every first-dimension arc (external arrivals only) departs no earlier, k by k.
  const auto msgs = trace(3, 0.8, 200, 9);
  std::mt19937_64 g(17);
  auto late = msgs;
  for (auto& m : late)
    if (g() % 10 < 3) m.t += 1 + static_cast<std::int64_t>(g() % (2 * S));
  std::stable_sort(late.begin(), late.end(), [](const Msg& a, const Msg& b) { return a.t < b.t; });
  const auto a = run_model("fifo-lemma8-a", 3, msgs);
  const auto b = run_model("fifo-lemma8-b", 3, late);
  std::size_t compared = 0;
  for (const auto& [name, s] : a) {
    if (name.substr(name.find('.')) != ".out_d0") continue;  // dimension 0: level 1
    ASSERT_TRUE(b.count(name)) << name;
    EXPECT_TRUE(earlier_than(s.arrivals, b.at(name).arrivals).empty()) << name;
    EXPECT_TRUE(earlier_than(s.departures, b.at(name).departures).empty()) << name;
    compared += s.departures.size();
  }
  EXPECT_GT(compared, 1000U);
}
