// Circuit-switched broadcast schedules (Peters & Syska): every construction passes the checker,
// has the paper's number of phases, and its phase-synchronous time equals the paper's closed
// form; broken schedules and unsupported sizes are rejected with a helpful message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "switchyard/schemes/circuit/circuit_schedule.hpp"
#include "switchyard/schemes/circuit/closed_forms.hpp"

using namespace sy;

namespace {

const CircuitCost kCosts[] = {
    {1.0, 0.0, 1.0},    // delta = 0
    {100.0, 3.0, 2.0},  // tau > 1
    {7.0, 1.0, 5.0},
    {65.0, 10.0, 0.425},  // the iPSC/860 figures quoted in §2 (microseconds, bytes)
};

void expect_valid(const Schedule& s) {
  const ScheduleCheck r = check(s);
  ASSERT_TRUE(r.ok) << describe(s) << "\n" << (r.errors.empty() ? "" : r.errors.front());
  EXPECT_EQ(r.phases, s.phases);
  EXPECT_LE(r.max_receptions, 4);
  EXPECT_LE(r.max_sends, 4);
}

// The phase sum equals the closed form, as coefficients and evaluated for several costs.
void expect_time(const Schedule& s, const TimeTerms& f) {
  const CircuitTerms t = phase_sum_terms(s);
  EXPECT_DOUBLE_EQ(static_cast<double>(t.alpha_terms), f.alpha_terms) << describe(s);
  EXPECT_DOUBLE_EQ(static_cast<double>(t.delta_terms), f.delta_terms) << describe(s);
  EXPECT_DOUBLE_EQ(static_cast<double>(t.tau_flits), f.tau_flits) << describe(s);
  for (const CircuitCost& c : kCosts)
    EXPECT_NEAR(phase_sum_time(s, c), f.eval(c), 1e-9 * f.eval(c)) << describe(s);
}

int node(const std::vector<int>& dims, int x, int y) {
  return x + dims[0] * y;
}

}  // namespace

// ---- tiling ---------------------------------------------------------------------------------

TEST(CircuitTiling, PowersOfFiveMatchTheorem2) {
  for (int k = 1; k <= 3; ++k) {
    const int n = k == 1 ? 5 : k == 2 ? 25 : 125;
    const std::vector<int> dims{n, n};
    for (int root : {0, node(dims, n / 2, 1), n * n - 1}) {
      if (k == 3 && root != node(dims, n / 2, 1)) continue;  // 125x125: one root keeps it fast
      for (int L : {1, 8}) {
        const Schedule s = tiling(dims, root, L);
        expect_valid(s);
        EXPECT_EQ(s.phases, 2 * k);  // log_5 N: the lower bound on phases
        EXPECT_EQ(s.phases, min_phases(dims));
        expect_time(s, paper_tiling_5k(k, L));
        expect_time(s, tiling_terms(dims, TilingVariant::Slanting, L));
      }
    }
  }
}

TEST(CircuitTiling, FiveByFiveIsFigureTwo) {
  // Phase 1: knight's moves from the root; phase 2: every informed node to its 4 neighbours.
  const Schedule s = tiling({5, 5}, 0, 1);
  ASSERT_EQ(s.transmissions.size(), 4u + 20u);
  EXPECT_EQ(check(s).phase_max_hops, (std::vector<int>{3, 1}));
  EXPECT_DOUBLE_EQ(phase_sum_time(s, {1, 1, 1}), 2 + 4 + 2);  // 2a + 4d + 2Lt
}

TEST(CircuitTiling, TenByTenBlockVariants) {
  const std::vector<int> dims{10, 10};
  for (TilingVariant v :
       {TilingVariant::Slanting, TilingVariant::BossBlocks, TilingVariant::BlocksFirst})
    for (int root : {0, 37, 99}) {
      const Schedule s = tiling(dims, root, 4, v);
      expect_valid(s);
      EXPECT_EQ(s.phases, 3);
      expect_time(s, paper_tiling(dims, v, 4));  // 3a + {10, 11, 14}d + 3Lt
      expect_time(s, tiling_terms(dims, v, 4));
    }
  EXPECT_EQ(paper_tiling(dims, TilingVariant::Slanting, 1).delta_terms, torus_diameter(dims));
}

TEST(CircuitTiling, FiveByTenAndOtherBlockExpansions) {
  for (const std::vector<int>& dims : std::vector<std::vector<int>>{{10, 5}, {5, 10}}) {
    for (int root : {0, 23}) {
      const Schedule s = tiling(dims, root, 3);
      expect_valid(s);
      EXPECT_EQ(s.phases, 3);
      expect_time(s, paper_tiling(dims, TilingVariant::Slanting, 3));  // 3a + 8d + 3Lt
    }
  }
  // Sizes the paper mentions without pricing: our per-level forms.
  for (const std::vector<int>& dims :
       std::vector<std::vector<int>>{{20, 20}, {4, 4}, {8, 8}, {16, 16}, {4, 8}, {20, 10}}) {
    const Schedule s = tiling(dims, 1, 2);
    expect_valid(s);
    expect_time(s, tiling_terms(dims, TilingVariant::Slanting, 2));
  }
  EXPECT_EQ(tiling({16, 16}, 0).phases, 4);  // log_4 N, as the paper says for 2^k x 2^k
}

// Any size, the pinwheel partition (not the paper's construction): a valid schedule on every
// size, at least ceil(log5 N) phases (Proposition 1) and at most one more, about D hops on the
// critical chain when start-ups are dear, the self-timed time
// its critical chain's terms at each cost and no later than the phase sum.
TEST(CircuitPinwheel, EverySizeValidWithinOnePhaseOfTheBound) {
  auto log5_ceil = [](long long n) {
    int k = 0;
    for (long long p = 1; p < n; p *= 5) ++k;
    return k;
  };
  std::vector<std::vector<int>> sizes;
  for (int n = 3; n <= 40; ++n) sizes.push_back({n, n});
  for (const auto& d : std::vector<std::vector<int>>{{3, 4},
                                                     {4, 3},
                                                     {3, 17},
                                                     {17, 3},
                                                     {5, 9},
                                                     {9, 5},
                                                     {6, 10},
                                                     {7, 13},
                                                     {13, 7},
                                                     {8, 27},
                                                     {31, 12},
                                                     {64, 64},
                                                     {3, 128},
                                                     {100, 60}})
    sizes.push_back(d);
  int over = 0;
  for (const std::vector<int>& dims : sizes) {
    const int N = dims[0] * dims[1];
    for (int root : {0, N / 2 + 1}) {
      const Schedule s = tiling(dims, root, 5, TilingVariant::Pinwheel);
      expect_valid(s);
      EXPECT_EQ(s.variant, "pinwheel partition");
      EXPECT_GE(s.phases, log5_ceil(N)) << describe(s);
      // (Every a x b with 3 <= a <= b <= 30: 191 at the bound, 215 one over.)
      EXPECT_LE(s.phases, log5_ceil(N) + 1) << describe(s);
      // Start-ups dear: the critical chain's hops about the diameter D (the bound's D delta).
      const int D = dims[0] / 2 + dims[1] / 2;
      EXPECT_LE(self_timed_terms(s, {1000.0, 1.0, 0.0}).delta_terms, D + 2) << describe(s);
      if (root == 0) over += s.phases > log5_ceil(N);
      for (const CircuitCost& c : kCosts) {
        const double t = self_timed_time(s, c);
        const CircuitTerms k = self_timed_terms(s, c);
        EXPECT_DOUBLE_EQ(t, c.alpha * static_cast<double>(k.alpha_terms) +
                                c.delta * static_cast<double>(k.delta_terms) +
                                c.tau * static_cast<double>(k.tau_flits))
            << describe(s);
        EXPECT_LE(t, phase_sum_time(s, c) * (1 + 1e-12)) << describe(s);
      }
    }
  }
  EXPECT_LT(over, static_cast<int>(sizes.size()));  // (the bound itself on many sizes)
  // The same construction whatever the root (translated): the same phase sum.
  EXPECT_EQ(phase_sum_terms(tiling({11, 7}, 0, 1, TilingVariant::Pinwheel)).delta_terms,
            phase_sum_terms(tiling({11, 7}, 40, 1, TilingVariant::Pinwheel)).delta_terms);
}

// ---- divide and conquer ---------------------------------------------------------------------

TEST(CircuitDivideConquer, PipelinedMatchesTB) {
  for (int k = 2; k <= 5; ++k) {
    const int n = 1 << k;
    const std::vector<int> dims{n, n};
    for (int root : {0, node(dims, 3, n - 1)}) {
      for (int P : {1, 3, 8}) {
        const int B = 4, L = P * B;
        const Schedule s = divide_and_conquer(dims, root, P, L);
        expect_valid(s);
        EXPECT_EQ(s.phases, k + P - 1);
        EXPECT_EQ(s.packet_flits, B);
        expect_time(s, dc_terms(k, L, B));
      }
    }
  }
}

TEST(CircuitDivideConquer, ShortMessageIsKAlphaPlusNDelta) {
  const Schedule s = divide_and_conquer({8, 8}, 0, 1, 1);
  const CircuitTerms t = phase_sum_terms(s);
  EXPECT_EQ(t.alpha_terms, 3);
  EXPECT_EQ(t.delta_terms, 8);  // 2^k: paths of 4 + 2 + (1 or 2) arcs
  EXPECT_EQ(check(s).phase_max_hops, (std::vector<int>{4, 2, 2}));
}

TEST(CircuitDivideConquer, OptimalPacketSize) {
  const CircuitCost c{100, 3, 2};
  const double L = 4096;
  for (int k = 3; k <= 5; ++k) {
    const double B = dc_optimal_packet(k, c, L);
    EXPECT_NEAR(dc_optimal_time(k, c, L), dc_time(k, c, L, B), 1e-6 * dc_time(k, c, L, B));
    EXPECT_LT(dc_time(k, c, L, B), dc_time(k, c, L, B * 1.1));
    EXPECT_LT(dc_time(k, c, L, B), dc_time(k, c, L, B / 1.1));
  }
}

// ---- H-trees ---------------------------------------------------------------------------------

// The fill keeps every reception on the paper's schedule, but its early circuits may be longer
// than the tree paths of their phase, so the phase-synchronous sum exceeds T(B); the time that
// counts is the self-timed one (the driver's rule, no barrier). That time is a max-plus
// combination of alpha, delta and tau, hence convex in (alpha, delta, tau), and T(B) is linear:
// equal at the three unit costs means <= T(B) for every cost, and no schedule beats the tree's
// own critical path, so model = T(B) for all alpha, delta, tau >= 0.
TEST(CircuitHTrees, SelfTimedIsTBForEveryCost) {
  for (int k = 2; k <= 6; ++k) {
    const int n = (1 << k) - 1;
    const std::vector<int> dims{n, n};
    for (int root : {0, node(dims, n - 1, 2)}) {
      for (int P : {1, 2, 3, 5, 8}) {                               // packets per half
        if (k == 6 && (root != 0 || (P != 1 && P != 8))) continue;  // 63x63: fewer, fast
        const int B = 3, L = 2 * P * B;
        const Schedule s = h_trees(dims, root, 2 * P, L);
        expect_valid(s);
        EXPECT_EQ(s.phases, 2 * k + P - 2);  // (2k - 1) for the first X and Y, 1 per further pair
        const TimeTerms f = htrees_terms(k, L, B);
        for (const CircuitCost& c : {CircuitCost{1, 0, 0}, CircuitCost{0, 1, 0},
                                     CircuitCost{0, 0, 1}, CircuitCost{20, 3, 2}})
          EXPECT_DOUBLE_EQ(self_timed_time(s, c), f.eval(c))
              << "k=" << k << " root=" << root << " P=" << P << " cost " << c.alpha << ","
              << c.delta << "," << c.tau;
      }
    }
  }
}

// Every circuit of the fill on an arc no tree and no other circuit uses (the checker only
// separates the circuits of one phase; without a barrier, arcs shared across phases could meet).
TEST(CircuitHTrees, EveryArcCarriesOneStream) {
  for (int k = 2; k <= 6; ++k) {
    const int n = (1 << k) - 1;
    const std::vector<int> dims{n, n};
    const Schedule s = h_trees(dims, 0, 2, 2);  // one packet per half: one circuit per stream
    EXPECT_LE(sy::test::max_arc_uses(s, n), 1) << n << "x" << n;
    EXPECT_TRUE(check(s).ok) << n << "x" << n;  // every node gets X and Y exactly once
  }
}

// 127x127 (k = 7): the fill is seeded with the 63x63 one in the four quadrants (a few seconds).
// One schedule, another root and three packets per half: valid, every arc of packet 0's circuits
// carries one stream, and the self-timed time is T(B) at the unit costs (so for every cost).
TEST(CircuitHTrees, K7SeededFillIsTB) {
  const int k = 7, n = 127, P = 3, B = 3, L = 2 * P * B;
  const std::vector<int> dims{n, n};
  const Schedule s = h_trees(dims, node(dims, n - 1, 2), 2 * P, L);
  expect_valid(s);
  EXPECT_EQ(s.variant, "k=7");
  EXPECT_EQ(s.phases, 2 * k + P - 2);
  // (X_0 and Y_0: every circuit of the pattern once)
  EXPECT_LE(sy::test::max_arc_uses(s, n, 2), 1);
  const TimeTerms f = htrees_terms(k, L, B);
  for (const CircuitCost& c :
       {CircuitCost{1, 0, 0}, CircuitCost{0, 1, 0}, CircuitCost{0, 0, 1}, CircuitCost{20, 3, 2}})
    EXPECT_DOUBLE_EQ(self_timed_time(s, c), f.eval(c))
        << "cost " << c.alpha << "," << c.delta << "," << c.tau;
}

// schedule.variant deferred_fill (and k = 10, where the search does not settle): what the fill's
// first negotiation leaves failing is served after the pipeline, one hop at a time from a node
// that holds the half by then. On 63x63 the first start leaves some demands (it settles at the
// 15th): every node still gets X and Y once; before the tail the schedule is the paper's pipeline
// (its phases, every arc of packet 0's circuits carrying one stream); the tail's circuits are one
// hop each, P per deferred half; and the time is over T(B) by at most 2 (P + depth) phases of
// one hop.
TEST(CircuitHTrees, DeferredFillServesWhatTheSearchLeavesAfterThePipeline) {
  const int k = 6, n = 63, P = 2, B = 3, L = 2 * P * B;
  const std::vector<int> dims{n, n};
  const Schedule s = h_trees(dims, 0, 2 * P, L, /*deferred_fill=*/true);
  expect_valid(s);
  EXPECT_TRUE(check(s).ok);
  ASSERT_NE(s.variant.find(" halves deferred after the pipeline"), std::string::npos) << s.variant;
  const int halves = h_trees_deferred(s);
  const int depth = std::stoi(s.variant.substr(s.variant.find("depth ") + 6));
  EXPECT_GT(halves, 0);
  EXPECT_GE(depth, 1);
  const int pipeline = 2 * k + P - 2;
  Schedule pipe = s;
  pipe.transmissions.clear();
  int tail = 0;
  for (const Transmission& t : s.transmissions) {
    if (t.phase < pipeline) {
      pipe.transmissions.push_back(t);
      continue;
    }
    ++tail;
    EXPECT_EQ(t.path.size(), 1u) << "phase " << t.phase << " sender " << t.sender;
  }
  EXPECT_EQ(tail, halves * P);
  EXPECT_LE(sy::test::max_arc_uses(pipe, n, 2), 1);
  const TimeTerms f = htrees_terms(k, L, B);
  for (const CircuitCost& c :
       {CircuitCost{1, 0, 0}, CircuitCost{0, 1, 0}, CircuitCost{0, 0, 1}, CircuitCost{20, 3, 2}}) {
    const double t = self_timed_time(s, c), tb = f.eval(c);
    EXPECT_GT(t, tb) << "cost " << c.alpha << "," << c.delta << "," << c.tau;
    EXPECT_LE(t, tb + 2 * (P + depth) * (c.alpha + c.delta + B * c.tau))
        << "cost " << c.alpha << "," << c.delta << "," << c.tau;
  }
  // Where the first start settles (31x31) the variant is the default schedule.
  const Schedule d = h_trees({31, 31}, 0, 2 * P, L, true), e = h_trees({31, 31}, 0, 2 * P, L);
  EXPECT_EQ(d.variant, e.variant);
  EXPECT_EQ(h_trees_deferred(d), 0);
  EXPECT_EQ(d.transmissions.size(), e.transmissions.size());
}

// When each node holds item `item` in the self-timed schedule at cost c (the rule of
// self_timed_time: a node's phase starts when its items are in and its earlier circuits are
// released, phases in order): -1 where it never does.
std::vector<double> held_times(const Schedule& s, const CircuitCost& c, int item) {
  const int N = s.num_nodes(), I = s.items(), n0 = s.dims[0], n1 = s.dims[1];
  std::vector<const Transmission*> order;
  for (const Transmission& t : s.transmissions) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Transmission* a, const Transmission* b) {
    return a->phase != b->phase ? a->phase < b->phase : a->sender < b->sender;
  });
  std::vector<double> held(static_cast<std::size_t>(N) * I, -1.0), released(N, 0.0);
  for (int i = 0; i < I; ++i) held[static_cast<std::size_t>(s.source(i)) * I + i] = 0.0;
  for (std::size_t b = 0; b < order.size();) {
    const int phase = order[b]->phase;
    std::vector<std::pair<std::size_t, double>> in;
    while (b < order.size() && order[b]->phase == phase) {
      const int u = order[b]->sender;
      std::size_t e = b;
      double start = released[u];
      for (; e < order.size() && order[e]->phase == phase && order[e]->sender == u; ++e)
        start = std::max(start, held[static_cast<std::size_t>(u) * I + order[e]->item]);
      for (; b < e; ++b) {
        const Transmission& t = *order[b];
        const double end = start + c.alpha + c.delta * static_cast<double>(t.path.size()) +
                           c.tau * s.item_flits.at(t.item);
        int x = u % n0, y = u / n0;
        for (const ScheduleHop& h : t.path)
          (h.dim == 0 ? x : y) =
              ((h.dim == 0 ? x : y) + h.dir + (h.dim == 0 ? n0 : n1)) % (h.dim == 0 ? n0 : n1);
        in.push_back({static_cast<std::size_t>(x + n0 * y) * I + t.item, end});
        released[u] = std::max(released[u], end);
      }
    }
    for (const auto& [key, time] : in)
      if (held[key] < 0 || time < held[key]) held[key] = time;
  }
  std::vector<double> out(N);
  for (int v = 0; v < N; ++v) out[v] = held[static_cast<std::size_t>(v) * I + item];
  return out;
}

// Why k >= 8 (255x255) needs the relaxed fill (docs/validation.md C23). h_trees_fill_bound is a
// lower bound on when a node off a tree can hold that tree's half other than by the paper's last
// phase (which gives exactly 2^k - 1 delta terms): every built fill, 3x3 to 63x63, keeps to it
// (X_0's arrival at delta = 1, alpha = tau = 0 is at least min(bound, 2^k - 1) at every node off
// the X tree). On 255x255 the nodes (64, 43..53) of the quadrant's centre column, whose two column
// arcs in are tree arcs, cannot hold X before 244..249 delta terms even on an empty network:
// 6 to 11 hops of slack to the deadline 255 for a run of 11 nodes (on 127x127 the least slack on
// that column is 18), where the negotiated fill leaves them with no circuit. 511x511's own column
// has 70, but the run recurs in its quadrants (the 255x255 pattern around (128, 128)).
TEST(CircuitHTrees, FillLowerBound) {
  for (int k = 2; k <= 6; ++k) {
    const int n = (1 << k) - 1, top = n;
    const Schedule s = h_trees({n, n}, 0, 2, 2);  // X_0 is item 0
    const std::vector<double> held = held_times(s, CircuitCost{0, 1, 0}, 0);
    const std::vector<int> bound = h_trees_fill_bound(k, 0);
    int off_tree = 0;
    for (int v = 0; v < n * n; ++v) {
      ASSERT_GE(held[v], 0.0) << "k=" << k << " node " << v;
      if (bound[v] < 0) continue;
      ++off_tree;
      EXPECT_GE(held[v], std::min(bound[v], top)) << "k=" << k << " node " << v;
      EXPECT_LE(held[v], top) << "k=" << k << " node " << v;
    }
    EXPECT_GT(off_tree, 0);
  }
  // The column x = s = 2^(k-2) from s/2 to s (relative to the root), nodes off the X tree.
  auto column = [](int k) {
    const int n = (1 << k) - 1, s = 1 << (k - 2);
    const std::vector<int> bound = h_trees_fill_bound(k, 0);
    std::vector<int> out;
    for (int y = s / 2 + 1; y < s; ++y)
      if (bound[s + n * y] >= 0) out.push_back(bound[s + n * y]);
    return out;
  };
  const std::vector<int> c8 = column(8);
  const std::vector<int> middle(c8.begin() + 10, c8.begin() + 21);  // y = 43..53
  EXPECT_EQ(middle, (std::vector<int>{249, 248, 249, 246, 245, 244, 245, 246, 249, 248, 249}));
  EXPECT_EQ(255 - *std::max_element(c8.begin(), c8.end()), 6);
  const std::vector<int> c7 = column(7), c9 = column(9);
  EXPECT_EQ(127 - *std::max_element(c7.begin(), c7.end()), 18);
  EXPECT_EQ(511 - *std::max_element(c9.begin(), c9.end()), 70);
  const std::vector<int> b9 = h_trees_fill_bound(9, 0);
  for (int y = 43; y <= 53; ++y) EXPECT_EQ(511 - b9[192 + 511 * (128 + y)], 255 - middle[y - 43]);
  // The other tree: the same by symmetry (the column turned by 90 degrees).
  const std::vector<int> b0 = h_trees_fill_bound(8, 0), b1 = h_trees_fill_bound(8, 1);
  EXPECT_EQ(b1[48 + 255 * 64], b0[64 + 255 * (255 - 48)]);
}

TEST(CircuitHTrees, OptimalPacketSize) {
  const CircuitCost c{100, 3, 2};
  const double L = 8192;
  for (int k = 3; k <= 5; ++k) {
    const double B = htrees_optimal_packet(k, c, L);
    EXPECT_NEAR(htrees_optimal_time(k, c, L), htrees_time(k, c, L, B),
                1e-6 * htrees_time(k, c, L, B));
    EXPECT_LT(htrees_time(k, c, L, B), htrees_time(k, c, L, B * 1.1));
    EXPECT_LT(htrees_time(k, c, L, B), htrees_time(k, c, L, B / 1.1));
  }
}

// ---- store-and-forward trees ----------------------------------------------------------------

TEST(CircuitStoreForward, FourArcDisjointTreesPipelined) {
  for (const std::vector<int>& dims :
       std::vector<std::vector<int>>{{5, 5}, {7, 7}, {8, 8}, {10, 5}, {16, 16}}) {
    for (int P : {1, 3}) {
      const int B = 2, L = 4 * P * B;
      const Schedule s = store_and_forward_trees(dims, 3, 4 * P, L);
      expect_valid(s);
      EXPECT_EQ(check(s).max_hops, 1);
      const int h = store_and_forward_depth(s);
      // D + 1, except 5x5: no four arc-disjoint trees of depth D + 1 exist
      // (tests/test_saf_trees.cpp).
      EXPECT_EQ(h, torus_diameter(dims) + (dims == std::vector<int>{5, 5} ? 2 : 1));
      expect_time(s, sf_terms(h, L, B));
    }
  }
  const CircuitCost c{100, 3, 2};
  EXPECT_NEAR(sf_optimal_time(9, c, 4096), sf_time(9, c, 4096, sf_optimal_packet(9, c, 4096)),
              1e-6);
  EXPECT_DOUBLE_EQ(paper_sf_time({8, 8}, c, 4096), sf_optimal_time(9, c, 4096));
}

// ---- a shorter last packet (B not dividing L) --------------------------------------------------

namespace {
// The schedule as the config builds it: packets of B flits, the last of each stream shorter.
Schedule pipelined(const std::string& alg, const std::vector<int>& dims, int root, int L, int B) {
  const int S = alg == "h_trees" ? 2 : alg == "saf" ? 4 : 1;
  const int parts = S * packets_per_stream(L, B, S);
  Schedule s = alg == "dc"        ? divide_and_conquer(dims, root, parts, L)
               : alg == "h_trees" ? h_trees(dims, root, parts, L)
                                  : store_and_forward_trees(dims, root, parts, L);
  set_packet_flits(s, L, B);
  return s;
}
int last_of_streams(const Schedule& s) {
  int last = 0;
  for (int i = s.items() - s.streams; i < s.items(); ++i) last = std::max(last, s.item_flits[i]);
  return last;
}
}  // namespace

TEST(CircuitLastPacket, PacketsOfBFlitsTheLastShorter) {
  Schedule s = divide_and_conquer({8, 8}, 0, 3, 0);
  set_packet_flits(s, 1024, 356);  // B_opt of the 8x8 iPSC setting
  EXPECT_EQ(s.item_flits, (std::vector<int>{356, 356, 312}));
  EXPECT_EQ(s.packet_flits, 356);
  s = h_trees({7, 7}, 0, 8, 0);
  set_packet_flits(s, 1025, 160);  // halves 513 (X) and 512 (Y), 4 packets each
  EXPECT_EQ(s.item_flits, (std::vector<int>{160, 160, 160, 160, 160, 160, 33, 32}));
  // Dividing B: what set_message_flits gives (the shipped configs' packets).
  Schedule a = divide_and_conquer({8, 8}, 0, 4, 1024), b = a;
  set_packet_flits(b, 1024, 256);
  EXPECT_EQ(a.item_flits, b.item_flits);
  // A stream whose last packet would be empty: refused.
  EXPECT_EQ(packets_per_stream(17, 4, 2), 3);  // X 9 flits: 4 + 4 + 1, Y 8: 4 + 4 + nothing
  Schedule e = h_trees({7, 7}, 0, 6, 0);
  EXPECT_THROW(set_packet_flits(e, 17, 4), std::invalid_argument);
}

// The self-timed time (the driver's rule; tests/test_circuit.cpp: the cycle model) equals the
// closed form with the shorter last packet, for B that do not divide L, several costs.
TEST(CircuitLastPacket, SelfTimedIsTheGeneralisedTB) {
  const CircuitCost costs[] = {{20, 3, 1}, {2600, 400, 17}, {1, 0, 5}, {0, 7, 1}, {5, 1, 30}};
  struct Case {
    std::string alg;
    int n, L, B;
  };
  const std::vector<Case> cases = {
      {"dc", 8, 1024, 356},      {"dc", 8, 100, 7},          {"dc", 16, 1024, 341},
      {"dc", 16, 50, 3},         {"dc", 32, 1024, 368},      {"dc", 4, 10, 4},
      {"h_trees", 7, 1024, 160}, {"h_trees", 7, 33, 5},      {"h_trees", 15, 1024, 145},
      {"h_trees", 15, 40, 6},    {"h_trees", 31, 1024, 148}, {"h_trees", 3, 10, 3},
      {"saf", 8, 1024, 75},      {"saf", 7, 26, 4},          {"saf", 7, 30, 4},
      {"saf", 10, 41, 3}};
  for (const Case& k : cases) {
    const std::vector<int> dims{k.n, k.n};
    for (int root : {0, k.n + 2}) {
      const Schedule s = pipelined(k.alg, dims, root, k.L, k.B);
      expect_valid(s);
      const int P = s.items() / s.streams, last = last_of_streams(s);
      // Some packet shorter than B (saf 7x7 L 30: quarters 8, 8, 7, 7, the longest last = B).
      ASSERT_LT(*std::min_element(s.item_flits.begin(), s.item_flits.end()), k.B)
          << k.alg << " " << k.n << " L " << k.L << " B " << k.B;
      const std::vector<int> levels = k.alg == "dc" ? dc_level_hops(circuit_detail::log2_ceil(k.n))
                                      : k.alg == "h_trees"
                                          ? htrees_level_hops(circuit_detail::log2_ceil(k.n + 1))
                                          : sf_level_hops(store_and_forward_depth(s));
      for (const CircuitCost& c : costs)
        EXPECT_DOUBLE_EQ(self_timed_time(s, c),
                         pipeline_last_terms(levels, P, k.B, last, c).eval(c))
            << k.alg << " " << k.n << "x" << k.n << " root " << root << " L " << k.L << " B " << k.B
            << " cost " << c.alpha << "," << c.delta << "," << c.tau;
    }
  }
}

// b = B is the paper's T(B); the closed form is the worst level's wait, never below T(B) - (B - b)
// times the flits saved on every level.
TEST(CircuitLastPacket, EqualLastPacketIsTB) {
  const CircuitCost c{2600, 400, 17};
  for (int k = 2; k <= 5; ++k) {
    EXPECT_DOUBLE_EQ(pipeline_last_terms(dc_level_hops(k), 4, 256, 256, c).eval(c),
                     dc_time(k, c, 1024, 256));
    EXPECT_DOUBLE_EQ(pipeline_last_terms(htrees_level_hops(k), 4, 128, 128, c).eval(c),
                     htrees_time(k, c, 1024, 128));
    EXPECT_DOUBLE_EQ(pipeline_last_terms(sf_level_hops(k + 3), 4, 64, 64, c).eval(c),
                     sf_time(k + 3, c, 1024, 64));
  }
  // 8x8 at B = 356 (3 packets: 356, 356, 312; levels of 4, 2, 2 hops): the last packet waits at
  // level 3 for the one ahead of it to release its circuits there (that one's 2 x 44 extra flit
  // times beat level 1's 2 extra hops): 5 alpha, (2 x 4 + 2 + 2 + 2) delta,
  // (2 x 356 + 3 x 312 + 2 x 44) tau.
  const TimeTerms t = pipeline_last_terms(dc_level_hops(3), 3, 356, 312, c);
  EXPECT_EQ(t.alpha_terms, 5);
  EXPECT_EQ(t.delta_terms, 14);
  EXPECT_EQ(t.tau_flits, 2 * 356 + 3 * 312 + 2 * 44);
  EXPECT_DOUBLE_EQ(t.eval(c), 48112);
}

// ---- checker ---------------------------------------------------------------------------------

TEST(ScheduleCheck, DuplicatedPathNamesTheArc) {
  Schedule s = tiling({5, 5}, 0, 1);
  // Duplicate the first phase-1 transmission of node 7's predecessor: any one will do.
  Transmission dup = s.transmissions.back();
  s.transmissions.push_back(dup);
  const ScheduleCheck r = check(s);
  ASSERT_FALSE(r.ok);
  bool named = false;
  const std::string from = std::to_string(dup.sender);
  for (const std::string& e : r.errors)
    named =
        named || (e.find("port d") != std::string::npos &&
                  e.find("in phase " + std::to_string(dup.phase)) != std::string::npos &&
                  e.find("by transmissions from " + from + " and " + from) != std::string::npos);
  EXPECT_TRUE(named) << r.errors.front();
  EXPECT_THROW(require_valid(s), std::runtime_error);
}

TEST(ScheduleCheck, ConflictMessageFormat) {
  // Two senders whose paths share node 7 (2,1) port d0+ in phase 0 on a 5x5 torus.
  Schedule s;
  s.algorithm = "hand-made";
  s.dims = {5, 5};
  s.root = 6;  // (1,1)
  s.item_flits = {1};
  s.phases = 1;
  s.transmissions.push_back({0, 6, 0, {{0, +1}, {0, +1}}, {}});           // 6 -> 7 -> 8
  s.transmissions.push_back({0, 2, 0, {{1, +1}, {0, +1}, {1, +1}}, {}});  // 2 -> 7 -> 8 -> 13
  const ScheduleCheck r = check(s);
  ASSERT_FALSE(r.ok);
  bool found = false;
  for (const std::string& e : r.errors)
    found = found || e == "node 7 (2,1) port d0+ in phase 0, by transmissions from 6 and 2";
  EXPECT_TRUE(found) << r.errors.front();
}

TEST(ScheduleCheck, MissingDuplicateAndUnheldParts) {
  Schedule s = divide_and_conquer({4, 4}, 0, 2, 2);
  ASSERT_TRUE(check(s).ok);
  // Move a level-2 transmission of packet 1 before its sender has packet 1.
  for (Transmission& t : s.transmissions)
    if (t.item == 1 && t.sender != 0) {
      t.phase = 0;
      break;
    }
  ScheduleCheck r = check(s);
  ASSERT_FALSE(r.ok);
  bool unheld = false;
  for (const std::string& e : r.errors)
    unheld = unheld || e.find("sends packet 1 in phase 0") != std::string::npos;
  EXPECT_TRUE(unheld);

  Schedule m = tiling({5, 5}, 0, 1);
  m.transmissions.pop_back();
  r = check(m);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors.front().find("never receives packet 0"), std::string::npos);
}

// ---- unsupported sizes ----------------------------------------------------------------------

TEST(CircuitUnsupported, MessagesNameAlgorithmSizeAndSupportedSizes) {
  auto message = [](auto fn) {
    try {
      fn();
    } catch (const UnsupportedSchedule& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  std::string m = message([] { tiling({6, 6}, 0); });
  EXPECT_NE(m.find("tiling"), std::string::npos);
  EXPECT_NE(m.find("6x6"), std::string::npos);
  EXPECT_NE(m.find("125x125"), std::string::npos) << m;
  EXPECT_NE(m.find("pinwheel"), std::string::npos) << m;  // (what runs on any size)
  m = message([] { tiling({2, 6}, 0, 1, TilingVariant::Pinwheel); });
  EXPECT_NE(m.find("2x6"), std::string::npos) << m;
  EXPECT_NE(m.find("3 <= n0, n1 <= 128"), std::string::npos) << m;
  m = message([] { tiling({129, 3}, 0, 1, TilingVariant::Pinwheel); });
  EXPECT_NE(m.find("129x3"), std::string::npos) << m;
  m = message([] { tiling({25, 10}, 0); });
  EXPECT_NE(m.find("25x10"), std::string::npos) << m;
  m = message([] { divide_and_conquer({12, 12}, 0, 1); });
  EXPECT_NE(m.find("divide-and-conquer"), std::string::npos);
  EXPECT_NE(m.find("12x12"), std::string::npos);
  EXPECT_NE(m.find("2^k x 2^k"), std::string::npos) << m;
  m = message([] { divide_and_conquer({8, 16}, 0, 1); });
  EXPECT_NE(m.find("8x16"), std::string::npos) << m;
  m = message([] { h_trees({8, 8}, 0, 2); });
  EXPECT_NE(m.find("h-trees"), std::string::npos);
  EXPECT_NE(m.find("(2^k - 1)"), std::string::npos) << m;
  m = message([] { h_trees({7, 7}, 0, 3); });
  EXPECT_NE(m.find("even"), std::string::npos) << m;
  m = message([] { h_trees({2047, 2047}, 0, 2); });  // k = 11: not built
  EXPECT_NE(m.find("2047x2047"), std::string::npos) << m;
  EXPECT_NE(m.find("1023x1023"), std::string::npos) << m;
  m = message([] { store_and_forward_trees({2, 8}, 0, 4); });
  EXPECT_NE(m.find("2x8"), std::string::npos) << m;
  m = message([] { tiling({5, 5}, 25); });
  EXPECT_NE(m.find("root 25"), std::string::npos) << m;
}

// ---- lower bounds ----------------------------------------------------------------------------

TEST(CircuitBounds, Proposition1AndCorollary1) {
  const CircuitCost c{100, 3, 2};
  const double L = 64;
  for (int n : {5, 10, 25}) {
    const std::vector<int> dims{n, n};
    const LowerBound b = proposition1(dims, c, L);
    EXPECT_DOUBLE_EQ(b.switching, 2 * (n / 2) * c.delta);
    EXPECT_DOUBLE_EQ(b.propagation, L * c.tau / 4);
    EXPECT_LE(b.value(), tiling_terms(dims, TilingVariant::Slanting, L).eval(c));
    EXPECT_DOUBLE_EQ(corollary1(n, c, L), std::max(b.startup, b.reach));
    // The tiling meets the start-up bound exactly: ceil(log_5 N) phases.
    EXPECT_DOUBLE_EQ(tiling_terms(dims, TilingVariant::Slanting, L).alpha_terms * c.alpha,
                     b.startup);
  }
  EXPECT_EQ(min_phases({10, 10}), 3);  // so 10x10's 3 alpha is optimal (not 2 ceil(log_5 10) = 4)
  EXPECT_EQ(min_phases({7, 7}), 3);
  for (int k = 3; k <= 5; ++k) {
    const int n = 1 << k;
    EXPECT_LE(corollary1(n, c, L), dc_time(k, c, L, 8));
    EXPECT_LE(corollary1(n - 1, c, L), htrees_time(k, c, L, 8));
  }
}
