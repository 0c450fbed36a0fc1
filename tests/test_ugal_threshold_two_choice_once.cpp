// BookSim2's choices beside Switchyard's own (issue 32): the dragonfly's ugal_threshold
// (ugal_dragonflynew: an intermediate router, minimal when its queue <= 2 x the other's +
// routing.ugal_threshold; 4 VC classes) and the fat tree's nca_two_choice_once (anca: two
// independent random up ports, the router keeping the less loaded one once per hop).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "helpers.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/dragonfly.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

namespace {
Topology dragonfly(int p, int a, int h, int g) {
  return Topology::indirect(Topology::Kind::Dragonfly, std::make_shared<Dragonfly>(p, a, h, g));
}
const Dragonfly& df_of(const Topology& t) {
  return static_cast<const Dragonfly&>(*t.indirect_network());
}
std::unique_ptr<RoutingAlgorithm> ugal_threshold(const Topology& t, int threshold) {
  auto a = make_routing("ugal_threshold", t, 4, TieBreak::Positive);
  RoutingConfig rc;
  rc.ugal_threshold = threshold;
  a->configure(rc);
  return a;
}

// From terminal 0 (router 0, group 0) to terminal 30 (router 15, group 3) through the first
// intermediate terminal whose router is in neither group and whose first hop differs from the
// minimal one.
struct Case {
  Topology t = dragonfly(2, 4, 2, 9);
  int src = 0, dst = 30, mid = -1, min_port = -1, val_port = -1;
  Case() {
    const Dragonfly& d = df_of(t);
    for (int m = 0; m < t.num_nodes() && mid < 0; ++m)
      if (d.group_of_terminal(m) != 0 && d.group_of_terminal(m) != 3 &&
          d.route(0, m) != d.route(0, dst))
        mid = m;
    min_port = d.route(0, dst);
    val_port = d.route(0, mid);
  }
  // At the source router with these downstream queues: does the packet go minimal?
  bool minimal(const RoutingAlgorithm& a, long qmin, long qval) const {
    Packet pk;
    pk.src = src;
    pk.dst = dst;
    pk.mid = mid;
    a.at_source(0, pk, [&](int port) { return port == min_port ? qmin : qval; });
    return pk.mid < 0;
  }
};

struct Walk {
  std::vector<int> routers, classes;
  int globals = 0;
  bool reached = false;
};
// The packet's route from its source router, one candidate a hop, the class of each hop's VC
// range (4 classes of one VC each).
Walk walk(const Topology& t, const RoutingAlgorithm& a, Packet pk) {
  Walk w;
  int r = t.injection_router(pk.src), in = -1, vc = 0;
  for (int step = 0; step < 8; ++step) {
    w.routers.push_back(r);
    if (r == t.ejection_router(pk.dst) && pk.mid < 0) {
      w.reached = true;
      return w;
    }
    Candidate c[2];
    EXPECT_EQ(a.candidates(r, in, vc, pk, c), 1);
    EXPECT_EQ(c[0].vc_hi - c[0].vc_lo, 1);
    w.classes.push_back(c[0].vc_lo);
    w.globals += df_of(t).is_global(c[0].port);
    vc = c[0].vc_lo;
    in = t.in_port(r, c[0].port);
    r = t.neighbor(r, c[0].port);
  }
  return w;
}
}  // namespace

// BookSim2's rule: minimal while queue_min x 1 <= queue_nonmin x 2 + threshold (30 by default).
TEST(DragonflyUgalThreshold, MinimalUntilItsQueueExceedsTwiceTheOtherPlusTheThreshold) {
  const Case k;
  ASSERT_GE(k.mid, 0);
  const auto a = ugal_threshold(k.t, 30);
  EXPECT_FALSE(a->minimal());
  EXPECT_TRUE(a->decides_at_source());
  EXPECT_TRUE(k.minimal(*a, 0, 0));
  EXPECT_TRUE(k.minimal(*a, 30, 0));
  EXPECT_FALSE(k.minimal(*a, 31, 0));
  EXPECT_TRUE(k.minimal(*a, 50, 10));
  EXPECT_FALSE(k.minimal(*a, 51, 10));
  EXPECT_TRUE(k.minimal(*a, 200, 1000));  // the other's queue longer: minimal
  const auto zero = ugal_threshold(k.t, 0);
  EXPECT_TRUE(k.minimal(*zero, 0, 0));
  EXPECT_FALSE(k.minimal(*zero, 1, 0));
  EXPECT_TRUE(k.minimal(*zero, 8, 4));
  EXPECT_FALSE(k.minimal(*zero, 9, 4));
  const auto neg = ugal_threshold(k.t, -5);  // negative: toward the non-minimal route
  EXPECT_FALSE(k.minimal(*neg, 0, 0));
  EXPECT_TRUE(k.minimal(*neg, 5, 5));
}

// The non-minimal route goes through the intermediate ROUTER (not only its group), then
// minimally on; classes 0 (to the first global hop), 1 (after it), 2 (from the intermediate
// router), 3 (after the second global hop); the minimal route: 2, 2, 3.
TEST(DragonflyUgalThreshold, RoutesThroughTheIntermediateRouterOnFourClasses) {
  const Case k;
  const auto a = ugal_threshold(k.t, 30);
  const int mid_router = k.mid / 2;
  Packet pk;
  pk.src = k.src;
  pk.dst = k.dst;
  pk.mid = k.mid;
  a->at_source(0, pk, [&](int port) { return port == k.min_port ? 100L : 0L; });
  ASSERT_EQ(pk.mid, k.mid);  // non-minimal
  const Walk w = walk(k.t, *a, pk);
  ASSERT_TRUE(w.reached);
  EXPECT_NE(std::find(w.routers.begin(), w.routers.end(), mid_router), w.routers.end());
  EXPECT_EQ(w.globals, 2);
  EXPECT_LE(w.classes.size(), 6u);
  EXPECT_EQ(w.classes.front(), 0);
  EXPECT_EQ(w.classes.back(), 3);
  for (std::size_t i = 1; i < w.classes.size(); ++i) EXPECT_GE(w.classes[i], w.classes[i - 1]);
  // Exactly: class c + 1 after each global hop, 2 from the intermediate router on.
  const auto& d = df_of(k.t);
  int r = 0, c = 0;
  for (std::size_t i = 0; i < w.classes.size(); ++i) {
    if (w.routers[i] == mid_router) c = 2;
    EXPECT_EQ(w.classes[i], c) << "hop " << i;
    const int next = w.routers[i + 1];
    if (d.group(next) != d.group(w.routers[i])) ++c;
    r = next;
  }
  EXPECT_EQ(r, k.t.ejection_router(k.dst));

  Packet q;
  q.src = k.src;
  q.dst = k.dst;
  q.mid = k.mid;
  a->at_source(0, q, [](int) { return 0L; });
  ASSERT_EQ(q.mid, -1);
  const Walk m = walk(k.t, *a, q);
  ASSERT_TRUE(m.reached);
  EXPECT_EQ(static_cast<int>(m.classes.size()), k.t.distance(k.src, k.dst));
  EXPECT_EQ(m.classes, (std::vector<int>{2, 2, 3}));
}

// At injection: a destination or intermediate in the source's group, or an intermediate at the
// destination's router, go minimal (and a destination in the group on class 3, BookSim2's VC
// 2); every other draw keeps its terminal. Every walk reaches its destination in at most 6
// hops, 2 global, the classes never falling.
TEST(DragonflyUgalThreshold, InjectionDrawsAndEveryWalkArrives) {
  const Topology t = dragonfly(2, 4, 2, 9);
  const auto& d = df_of(t);
  const auto a = ugal_threshold(t, -(1 << 20));  // every packet that may go non-minimal does
  Rng rng(5);
  int nonminimal = 0, walks = 0;
  for (int s = 0; s < t.num_nodes(); s += 3)
    for (int x = 0; x < t.num_nodes(); x += 5, ++walks) {
      Packet pk;
      pk.src = s;
      pk.dst = x;
      a->on_inject(pk, rng);
      if (d.group_of_terminal(s) == d.group_of_terminal(x)) {
        EXPECT_EQ(pk.mid, -1);
      }
      if (pk.mid >= 0) {
        EXPECT_NE(d.group_of_terminal(pk.mid), d.group_of_terminal(s));
        EXPECT_NE(pk.mid / 2, x / 2);
      }
      const int r0 = t.injection_router(s);
      a->at_source(r0, pk, [](int) { return 0L; });
      nonminimal += pk.mid >= 0;
      const Walk w = walk(t, *a, pk);
      ASSERT_TRUE(w.reached) << s << " -> " << x;
      EXPECT_LE(w.classes.size(), 6u);
      EXPECT_LE(w.globals, 2);
      for (std::size_t i = 1; i < w.classes.size(); ++i) EXPECT_GE(w.classes[i], w.classes[i - 1]);
      if (!w.classes.empty() && d.group_of_terminal(s) == d.group_of_terminal(x)) {
        EXPECT_EQ(w.classes, std::vector<int>{3});
      }
    }
  // 8 of 9 groups are another's: about 8/9 of the other-group pairs go non-minimal.
  EXPECT_GT(nonminimal, walks * 7 / 10);
}

namespace {
std::string dragonfly_yaml(double rate, int threshold) {
  return "topology: {type: dragonfly, p: 2, a: 4, h: 2}\n"
         "router: {vcs: 4, vc_depth: 8, pipeline: {}}\n"
         "routing: {algorithm: ugal_threshold, ugal_threshold: " +
         std::to_string(threshold) + "}\ntraffic: {rate: " + std::to_string(rate) +
         ", packet_flits: 4, pattern: adversarial}\n"
         "simulation: {warmup: 500, measure: 3000, deadlock_cycles: 2000}\n";
}
double hops_per_flit(const Results& r) {
  return static_cast<double>(r.flit_hops) / static_cast<double>(r.flits_delivered);
}
}  // namespace

// In the network, adversarial traffic (every route 3 hops or fewer minimally): a threshold
// above any queue (4 VCs x 8 flits = 32) keeps every packet minimal; a very negative one sends
// every packet that may go non-minimal through its intermediate router (up to 6 hops).
TEST(DragonflyUgalThresholdRun, ThresholdAboveEveryQueueIsMinimal) {
  const Results r = test::run(dragonfly_yaml(0.05, 33));
  EXPECT_EQ(r.unstable_reason, "");
  // Minimal on adversarial traffic: local (3 in 4), global, local (3 in 4): 2.5 on average,
  // 3 at most (2.489 measured).
  EXPECT_NEAR(hops_per_flit(r), 2.5, 0.03);
}

TEST(DragonflyUgalThresholdRun, VeryNegativeThresholdGoesNonMinimal) {
  const Results r = test::run(dragonfly_yaml(0.05, -(1 << 20)));
  EXPECT_EQ(r.unstable_reason, "");
  EXPECT_GT(hops_per_flit(r), 4.3) << hops_per_flit(r);  // 4.52 measured
}

namespace {
void expect_live(const Results& r) {
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.intermediate_missed, 0u);
}
}  // namespace

// Above saturation, every class in use: no deadlock. Non-minimal packets spread the adversarial
// load over the other groups (0.178 accepted; minimal routing 0.086 on these VCs); BookSim2's
// rule with threshold 0 mixes both (0.072: minimal packets get one VC a class here).
TEST(DragonflyUgalThresholdRun, NonMinimalIsDeadlockFreeAboveSaturation) {
  const Results r = test::run(dragonfly_yaml(0.95, -1000));
  expect_live(r);
  EXPECT_GT(r.accepted, 0.15) << r.accepted;
}

TEST(DragonflyUgalThresholdRun, MixedIsDeadlockFreeAboveSaturation) {
  const Results r = test::run(dragonfly_yaml(0.95, 0));
  expect_live(r);
  EXPECT_GT(r.accepted, 0.06) << r.accepted;
}

TEST(DragonflyUgalThresholdConfig, KeyErrorsEchoAndVcs) {
  const std::string base =
      "topology: {type: dragonfly, p: 2, a: 4, h: 2}\nrouter: {vcs: 4}\nrouting: {algorithm: ";
  EXPECT_EQ(test::cfg(base + "ugal_threshold}\n").routing.ugal_threshold, 30);
  EXPECT_EQ(test::cfg(base + "ugal_threshold, ugal_threshold: -7}\n").routing.ugal_threshold, -7);
  const auto has = [](const std::string& e, const char* what) {
    EXPECT_NE(e.find(what), std::string::npos) << e;
    EXPECT_EQ(e.rfind("cfg.yaml:", 0), 0u) << e;
  };
  has(test::config_error(base + "ugal, ugal_threshold: 3}\n"), "routing.ugal_threshold");
  has(test::config_error(base + "ugal_threshold, ugal_threshold: x}\n"), "routing.ugal_threshold");
  has(test::config_error(base + "ugal_threshold, ugal_threshold: 4000000}\n"),
      "routing.ugal_threshold");
  const std::string vcs = test::config_error(
      "topology: {type: dragonfly, p: 2, a: 4, h: 2}\nrouter: {vcs: 3}\n"
      "routing: {algorithm: ugal_threshold}\n");
  has(vcs, "routing.algorithm");
  EXPECT_NE(vcs.find(">= 4"), std::string::npos) << vcs;
  has(test::config_error("topology: {type: torus, dims: [4, 4]}\nrouter: {vcs: 4}\n"
                         "routing: {algorithm: ugal_threshold}\n"),
      "routing.algorithm");
  // results.json's config block echoes it with its algorithm only.
  EXPECT_NE(config_to_json(test::cfg(base + "ugal_threshold, ugal_threshold: 12}\n"), 2)
                .find("\"ugal_threshold\": 12"),
            std::string::npos);
  EXPECT_EQ(config_to_json(test::cfg(base + "ugal}\n"), 2).find("ugal_threshold"),
            std::string::npos);
}

// nca_two_choice_once: two up ports drawn independently (they may coincide, as BookSim2's), the
// router keeping one when it routes the header; nca_two_choice: two different ones, selected by
// the switch allocator every cycle.
TEST(FatTreeTwoChoiceOnce, IndependentDrawsChosenByTheRouter) {
  const Topology t = Topology::fat_tree(4, 3);
  const auto once = make_routing("nca_two_choice_once", t, 1, TieBreak::Balanced);
  const auto every = make_routing("nca_two_choice", t, 1, TieBreak::Balanced);
  const auto one = make_routing("nca_random", t, 1, TieBreak::Balanced);
  EXPECT_TRUE(once->selects_once());
  EXPECT_FALSE(every->selects_once());
  EXPECT_FALSE(one->selects_once());
  int same = 0;
  std::set<int> seconds;
  for (int c = 0; c < 400; ++c) {
    Packet pk;
    pk.src = 0;
    pk.dst = 63;
    pk.created = static_cast<Cycle>(c);
    Candidate a[2], b[2], r[2];
    ASSERT_EQ(once->candidates(0, -1, 0, pk, a), 2);
    ASSERT_EQ(every->candidates(0, -1, 0, pk, b), 2);
    ASSERT_EQ(one->candidates(0, -1, 0, pk, r), 1);
    EXPECT_EQ(a[0].port, r[0].port);  // the first draw is nca_random's
    EXPECT_EQ(a[0].port, b[0].port);
    for (const Candidate& x : a) EXPECT_TRUE(x.port >= 4 && x.port < 8);
    same += a[0].port == a[1].port;
    seconds.insert(a[1].port);
    // Down: one candidate.
    Candidate dn[2];
    EXPECT_EQ(once->candidates(t.injection_router(62), -1, 0, pk, dn), 1);
  }
  EXPECT_EQ(seconds.size(), 4u);
  EXPECT_GT(same, 400 / 4 / 2);  // 1 in 4 on average
  EXPECT_LT(same, 400 / 4 * 2);
}

// The router's choice once per hop: the fewest flits downstream, ties to the first.
TEST(FatTreeTwoChoiceOnce, LeastLoadedCandidateTiesToTheFirst) {
  const Candidate c[3] = {{5, 0, 2}, {6, 0, 2}, {7, 0, 2}};
  const auto with = [&](long q5, long q6, long q7) {
    return least_loaded(c, 3, [&](int port) { return port == 5 ? q5 : port == 6 ? q6 : q7; });
  };
  EXPECT_EQ(with(0, 0, 0), 0);
  EXPECT_EQ(with(4, 3, 3), 1);
  EXPECT_EQ(with(4, 5, 3), 2);
  EXPECT_EQ(with(1, 2, 3), 0);
  EXPECT_EQ(least_loaded(c, 2, [](int port) { return port == 5 ? 8L : 0L; }), 1);
  EXPECT_EQ(least_loaded(c, 1, [](int) { return 0L; }), 0);
}

namespace {
std::string fat_tree_yaml(const std::string& routing, double rate) {
  return "topology: {type: fat_tree, k: 4, n: 3}\n"
         "router: {vcs: 2, vc_depth: 4, pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, "
         "credit_delay: 2}}\nrouting: {algorithm: " +
         routing + "}\ntraffic: {rate: " + std::to_string(rate) +
         ", packet_flits: 8, self: through_router}\n"
         "simulation: {warmup: 1000, measure: 4000, drain_limit: 1, deadlock_cycles: 2000}\n";
}
}  // namespace

// On a nearly idle network both queues are empty: the first draw wins, nca_random's port, and
// the cycles are nca_random's exactly (the second run through the CLI).
TEST(FatTreeTwoChoiceOnce, IdleIsNcaRandomCycleForCycle) {
  const Results once = test::run(fat_tree_yaml("nca_two_choice_once", 0.002));
  const std::string js = test::cli_results_any("once_idle", fat_tree_yaml("nca_random", 0.002));
  ASSERT_FALSE(js.empty());
  EXPECT_GT(once.flits_delivered, 0u);
  EXPECT_NEAR(once.latency.mean, test::json_number(js, "latency", "mean"), 1e-7);
}

// Past saturation the choice held for the hop carries less than the one re-made every cycle
// (BookSim2 anca saturates at 0.405, nca_two_choice at 0.435: docs/figures/booksim_topologies.md).
TEST(FatTreeTwoChoiceOnce, OnceCarriesLessThanEveryCycle) {
  const Results a = test::run(fat_tree_yaml("nca_two_choice_once", 0.7));
  const std::string js = test::cli_results_any("once_sat", fat_tree_yaml("nca_two_choice", 0.7));
  ASSERT_FALSE(js.empty());
  EXPECT_EQ(a.unstable_reason.find("deadlock"), std::string::npos) << a.unstable_reason;
  // 0.430 / 0.450 measured
  EXPECT_LT(a.accepted, test::json_number(js, "throughput", "accepted") - 0.01) << a.accepted;
}
