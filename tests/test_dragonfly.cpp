// The dragonfly: structure and global wiring (BookSim2's dragonflynew for g = a*h + 1), minimal
// routes and their VC classes, link latencies in the staged pipeline (zero-load cycle counts),
// Valiant and UGAL (hops, classes, the source choice), deadlock freedom above saturation,
// adversarial traffic, and the config errors.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/topology/dragonfly.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

namespace {
Topology dragonfly(int p, int a, int h, int g, int ll = 0, int gl = 0) {
  return Topology::indirect(Topology::Kind::Dragonfly,
                            std::make_shared<Dragonfly>(p, a, h, g, ll, gl));
}
const Dragonfly& df_of(const Topology& t) {
  return static_cast<const Dragonfly&>(*t.indirect_network());
}
}  // namespace

TEST(DragonflyTopology, SizesPortsNamesAndBookSimWiring) {
  const Topology t = dragonfly(2, 4, 2, 9);  // BookSim2's dragonflynew, k = 2
  EXPECT_STREQ(t.kind_name(), "dragonfly");
  EXPECT_EQ(t.num_routers(), 36);
  EXPECT_EQ(t.num_nodes(), 72);
  EXPECT_EQ(t.num_ports(), 5);  // l0 l1 l2 g0 g1
  EXPECT_EQ(t.port_name(2), "l2");
  EXPECT_EQ(t.port_name(4), "g1");
  EXPECT_EQ(t.router_name(13), "g3r1");
  EXPECT_EQ(t.concentration(), 2);
  EXPECT_EQ(t.injection_router(27), 13);
  // Local: router 1 of group 0, l0 -> router 0, l1 -> router 2.
  EXPECT_EQ(t.neighbor(1, 0), 0);
  EXPECT_EQ(t.neighbor(1, 1), 2);
  EXPECT_EQ(t.in_port(1, 1), 1);  // router 2's port to router 1: l1
  // Global (BookSim2): group port j = i h + c goes to group j (j < G) or j + 1.
  EXPECT_EQ(t.neighbor(0, 3), 4);  // g0 r0, j = 0 -> group 1, its port 0 (router 0, g0)
  EXPECT_EQ(t.in_port(0, 3), 3);
  EXPECT_EQ(t.neighbor(13, 4), 17);  // g3 r1 g1: j = 3 -> group 4, its port 3 (router 1, g1)
  EXPECT_EQ(t.in_port(13, 4), 4);
  EXPECT_EQ(t.neighbor(4 * 8 + 3, 4), 7 * 4 + 3);  // g8 r3 g1: j = 7 -> group 7, its port 7
  EXPECT_EQ(t.link_class_name(t.link_class(0, 1)), "local");
  EXPECT_EQ(t.link_class_name(t.link_class(0, 3)), "global");
  EXPECT_EQ(t.diameter(), 3);
  // Links: every router a - 1 local and h global.
  EXPECT_EQ(t.num_links(), 36 * 5);
}

TEST(DragonflyTopology, LinksPairUpAndGroupsAreConnected) {
  for (const auto& s : {std::array<int, 4>{2, 4, 2, 9},
                        {1, 4, 2, 5},
                        {1, 3, 2, 6},
                        {2, 2, 1, 2},
                        {1, 1, 3, 4},
                        {1, 5, 3, 16}}) {
    const Topology t = dragonfly(s[0], s[1], s[2], s[3]);
    const auto& d = df_of(t);
    std::set<std::pair<int, int>> inputs;
    std::map<std::pair<int, int>, int> between;  // (G, D) -> links
    for (int r = 0; r < t.num_routers(); ++r)
      for (int p = 0; p < t.num_ports(); ++p) {
        const int m = t.neighbor(r, p);
        if (m < 0) continue;
        const int in = t.in_port(r, p);
        EXPECT_EQ(t.neighbor(m, in), r) << "links come in pairs";
        EXPECT_EQ(t.in_port(m, in), p);
        EXPECT_EQ(d.is_global(p), d.is_global(in));
        EXPECT_TRUE(inputs.insert({m, in}).second);
        if (d.is_global(p)) {
          ++between[{d.group(r), d.group(m)}];
        } else {
          EXPECT_EQ(d.group(r), d.group(m));
        }
      }
    for (int G = 0; G < s[3]; ++G)
      for (int D = 0; D < s[3]; ++D)
        if (G != D) {
          EXPECT_GE((between[{G, D}]), 1) << G << " -> " << D;
        }
  }
}

// route(): at most local, global, local; ends at the destination's router; as long as
// distance(); the averages and the busiest link's share from the walks.
TEST(DragonflyTopology, MinimalRoutesAverageDistanceAndLinkShare) {
  for (const auto& s : {std::array<int, 4>{2, 4, 2, 9}, {1, 4, 2, 5}, {1, 3, 2, 6}, {3, 2, 2, 3}}) {
    const Topology t = dragonfly(s[0], s[1], s[2], s[3]);
    const auto& d = df_of(t);
    const int N = t.num_nodes();
    std::map<std::pair<int, int>, double> load;
    double sum = 0;
    for (int a = 0; a < N; ++a)
      for (int b = 0; b < N; ++b) {
        int r = t.injection_router(a), hops = 0, globals = 0;
        bool after_global_local = false;
        for (int p; (p = d.route(r, b)) >= 0; ++hops) {
          ASSERT_LT(hops, 3);
          if (d.is_global(p)) {
            ++globals;
            EXPECT_FALSE(after_global_local);
          } else if (globals) {
            after_global_local = true;
          }
          if (a != b) load[{r, p}] += 1.0;
          r = t.neighbor(r, p);
          ASSERT_GE(r, 0);
        }
        EXPECT_LE(globals, 1);
        EXPECT_EQ(r, t.ejection_router(b));
        EXPECT_EQ(hops, t.distance(a, b));
        sum += hops;
      }
    EXPECT_NEAR(t.average_distance(true), sum / (double(N) * N), 1e-12);
    EXPECT_NEAR(t.average_distance(false), sum / (double(N) * (N - 1)), 1e-12);
    double busiest = 0;
    for (const auto& [link, l] : load) busiest = std::max(busiest, l);
    EXPECT_NEAR(d.uniform_link_share(true), busiest / (N - 1), 1e-12);
  }
  // BookSim2's k = 2: a global link carries a group's 8 terminals x one group's 8 (64 of 71);
  // a local link i -> j more: 2 x 2 in the group, 2 x 16 to the groups j links to, 16 x 2
  // arriving at i for j's terminals (68 of 71).
  EXPECT_NEAR(df_of(dragonfly(2, 4, 2, 9)).uniform_link_share(true), 68.0 / 71.0, 1e-12);
}

// Minimal: class 0 until the global hop, class 1 after it (the routing unit's slices).
TEST(DragonflyTopology, MinimalVcClasses) {
  const Topology t = dragonfly(2, 4, 2, 9);
  const auto& d = df_of(t);
  EXPECT_EQ(d.vc_classes(), 2);
  EXPECT_EQ(d.vc_class(0, -1, 0, 3), 0);  // injection, global hop
  EXPECT_EQ(d.vc_class(4, 3, 0, 0), 1);   // arrived on a global port: class 1
  EXPECT_EQ(d.vc_class(4, 0, 0, 3), 0);   // arrived on a local port in class 0
  EXPECT_EQ(d.vc_class(4, 0, 1, 1), 1);
}

namespace {
struct Walk {
  int hops = 0, globals = 0;
  std::vector<int> classes;
  bool reached = false;
};
// A packet's path under a routing algorithm on an idle network (at_source with empty queues).
Walk walk(const Topology& t, const RoutingAlgorithm& a, int src, int dst, Rng& rng, int vcs) {
  const auto& d = df_of(t);
  Packet pk;
  pk.src = src;
  pk.dst = dst;
  a.on_inject(pk, rng);
  Walk w;
  int r = t.injection_router(src), in = -1, vc = 0;
  if (a.decides_at_source()) a.at_source(r, pk, [](int) { return 0L; });
  for (int step = 0; step < 10; ++step) {
    if (pk.mid == t.ejection_terminal(r)) pk.mid = -1, pk.phase = 1;
    if (r == t.ejection_router(dst) && pk.mid < 0) {
      w.reached = true;
      return w;
    }
    Candidate c[4];
    EXPECT_EQ(a.candidates(r, in, vc, pk, c), 1);
    EXPECT_EQ(c[0].vc_hi - c[0].vc_lo, vcs / 3);
    w.classes.push_back(c[0].vc_lo / (vcs / 3));
    EXPECT_EQ(w.classes.back(), w.globals) << "the class: global hops taken";
    ++w.hops;
    w.globals += d.is_global(c[0].port);
    vc = c[0].vc_lo;
    in = t.in_port(r, c[0].port);
    r = t.neighbor(r, c[0].port);
  }
  return w;
}
}  // namespace

// Valiant: at most 5 hops and 2 global ones, the class the number of global hops taken; every
// intermediate group is used.
TEST(DragonflyRouting, ValiantHopsAndClasses) {
  const Topology t = dragonfly(2, 4, 2, 9);
  const auto a = make_routing("valiant", t, 3, TieBreak::Positive);
  EXPECT_FALSE(a->minimal());
  Rng rng(7);
  int longest = 0, two_globals = 0;
  for (int s = 0; s < t.num_nodes(); s += 5)
    for (int d = 0; d < t.num_nodes(); d += 3) {
      const Walk w = walk(t, *a, s, d, rng, 3);
      ASSERT_TRUE(w.reached) << s << " -> " << d;
      EXPECT_LE(w.hops, 5);
      EXPECT_LE(w.globals, 2);
      longest = std::max(longest, w.hops);
      two_globals += w.globals == 2;
      for (std::size_t i = 0; i < w.classes.size(); ++i) EXPECT_LE(w.classes[i], 2);
      for (std::size_t i = 1; i < w.classes.size(); ++i) EXPECT_GE(w.classes[i], w.classes[i - 1]);
    }
  EXPECT_EQ(longest, 5);
  EXPECT_GT(two_globals, 50);
}

// UGAL on an idle network (every queue empty): the route with fewer hops, the minimal one on a
// tie: never longer than distance(); a Valiant route only where it is shorter (2 global hops
// that land on the destination's router), so nearly every packet goes minimal.
TEST(DragonflyRouting, UgalGoesMinimalOnAnEmptyNetwork) {
  const Topology t = dragonfly(2, 4, 2, 9);
  const auto a = make_routing("ugal", t, 3, TieBreak::Positive);
  Rng rng(3);
  int minimal = 0, pairs = 0;
  for (int s = 0; s < t.num_nodes(); s += 7)
    for (int d = 0; d < t.num_nodes(); ++d, ++pairs) {
      const Walk w = walk(t, *a, s, d, rng, 3);
      ASSERT_TRUE(w.reached);
      EXPECT_LE(w.hops, t.distance(s, d)) << s << " -> " << d;
      if (w.globals == 2) {
        EXPECT_EQ(w.hops, 2) << s << " -> " << d;
      }
      minimal += w.globals <= 1 && w.hops == t.distance(s, d);
    }
  EXPECT_GT(minimal, pairs * 9 / 10);
  // With the minimal first hop's queue long, it goes through the intermediate group.
  Packet pk;
  pk.src = 0;
  pk.dst = 71;  // group 8
  int valiant = 0;
  for (int i = 0; i < 50; ++i) {
    a->on_inject(pk, rng);
    const int minport = df_of(t).route(0, 71);
    a->at_source(0, pk, [&](int port) { return port == minport ? 40L : 0L; });
    valiant += pk.mid >= 0;
  }
  EXPECT_GT(valiant, 30);
}

namespace {
// One message alone, staged pipeline rc = va = sa = st = lt = 1: its latency.
Cycle alone(int src, int dst, const std::string& routing = "dimension_order") {
  std::ostringstream y;
  y << "topology: {type: dragonfly, p: 2, a: 4, h: 2, local_latency: 3, global_latency: 7}\n"
       "router: {vcs: 3, vc_depth: 8, pipeline: {}}\n"
       "routing: {algorithm: "
    << routing
    << "}\n"
       "traffic: {type: trace, messages: [{time: 0, src: "
    << src << ", dst: " << dst << ", flits: 4}]}\n";
  const Results r = test::run(y.str(), true);
  EXPECT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets.size(), 1u);
  const Cycle t = r.packets.empty() ? 0 : r.packets[0].delivered - r.packets[0].created;
  // The results' zero-load formula adds the links' own latencies along the route.
  EXPECT_DOUBLE_EQ(r.zero_load_formula, static_cast<double>(t));
  return t;
}
}  // namespace

// Zero load: 2 NI channels (lt = 1), (h + 1) routers x 4 stages, the links' own latencies, L.
struct AloneCase {
  int src, dst;
  const char* routing;
  Cycle expected;
};
class DragonflyZeroLoad : public ::testing::TestWithParam<AloneCase> {};
TEST_P(DragonflyZeroLoad, CycleCountsWithLinkLatencies) {
  const AloneCase& c = GetParam();
  EXPECT_EQ(alone(c.src, c.dst, c.routing), c.expected) << c.src << " -> " << c.dst;
}
INSTANTIATE_TEST_SUITE_P(
    Routes, DragonflyZeroLoad,
    ::testing::Values(AloneCase{0, 1, "dimension_order", 2 + 1 * 4 + 4},      // same router
                      AloneCase{0, 2, "dimension_order", 2 + 2 * 4 + 3 + 4},  // local r0 -> r1
                      AloneCase{0, 8, "dimension_order", 2 + 2 * 4 + 7 + 4},  // g0r0 -> g1r0
                      AloneCase{2, 15, "dimension_order", 2 + 4 * 4 + 3 + 7 + 3 + 4},  // l g l
                      // UGAL on an idle network: the same minimal route.
                      AloneCase{2, 15, "ugal", 2 + 4 * 4 + 3 + 7 + 3 + 4}));

// A global link's credits come back as late as its latency says, however long: two 8-flit
// packets from router 0 to group 8 share the one global link between the groups (one VC a
// class, wait_for_tail_credit); the second takes its VC when the first's tail credit is back,
// 2 L - 7 cycles after the first finished (a credit wheel of 64 cycles once returned credits of
// links longer than that 64 cycles early: 2 L - 71).
class DragonflyLongLink : public ::testing::TestWithParam<int> {};
TEST_P(DragonflyLongLink, SecondPacketWaitsForTheFirstsTailCreditOverTheGlobalLink) {
  const int L = GetParam();
  std::ostringstream y;
  y << "topology: {type: dragonfly, p: 2, a: 4, h: 2, g: 9, local_latency: 10, global_latency: "
    << L
    << "}\n"
       "router: {vcs: 2, vc_depth: 256, pipeline: {credit_delay: 2}}\n"
       "traffic:\n  type: trace\n  messages:\n"
       "    - {time: 0, src: 0, dst: 70, flits: 8}\n"
       "    - {time: 20, src: 1, dst: 71, flits: 8}\n";
  const Results r = test::run(y.str(), true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(r.packets.size(), 2u);
  const auto lat = [&](int i) {
    return static_cast<long>(r.packets[i].delivered - r.packets[i].created);
  };
  const int first = r.packets[0].src == 0 ? 0 : 1;
  // Alone: 2 NI channels, 4 routers x 4 stages, two local links, the global one, 8 flits.
  EXPECT_EQ(lat(first), 2 + 4 * 4 + 2 * 10 + L + 8);
  EXPECT_EQ(lat(1 - first) - lat(first), 2 * L - 7) << "global latency " << L;
}
INSTANTIATE_TEST_SUITE_P(Latencies, DragonflyLongLink, ::testing::Values(30, 100, 300));

TEST(DragonflyRun, AdversarialTrafficGoesToTheNextGroup) {
  const Config c = test::cfg(
      "topology: {type: dragonfly, p: 2, a: 4, h: 2}\n"
      "traffic: {pattern: adversarial}\n");
  const Topology t = c.topology.make();
  const auto& d = df_of(t);
  std::set<int> seen;
  for (std::uint64_t draw = 0; draw < 100; ++draw) {
    const int dst = d.adversarial_destination(70, draw);  // group 8 -> group 0
    EXPECT_EQ(d.group_of_terminal(dst), 0);
    seen.insert(dst);
    EXPECT_EQ(d.group_of_terminal(d.adversarial_destination(9, draw)), 2);
  }
  EXPECT_EQ(seen.size(), 8u);
  // Minimal routing: a group's a p = 8 terminals share one global link (the throughput factor
  // at rate 0.1 is 0.8); every route is local, global, local or shorter.
  const Config r = test::cfg(
      "topology: {type: dragonfly, p: 2, a: 4, h: 2}\n"
      "traffic: {pattern: adversarial, rate: 0.1, packet_flits: 4}\n");
  EXPECT_NEAR(throughput_factor(r, t, 0), 0.8, 1e-12);
}

namespace {
Results loaded(const std::string& routing, const std::string& pattern, double rate, int vcs,
               int depth = 4) {
  return test::run(
      "topology: {type: dragonfly, p: 2, a: 4, h: 2}\n"
      "router: {vcs: " +
      std::to_string(vcs) + ", vc_depth: " + std::to_string(depth) +
      ", pipeline: {}}\n"
      "routing: {algorithm: " +
      routing + "}\ntraffic: {rate: " + std::to_string(rate) +
      ", packet_flits: 4, pattern: " + pattern +
      "}\n"
      "simulation: {warmup: 500, measure: 3000, drain_limit: 1, deadlock_cycles: 2000}\n");
}
void expect_live(const Results& r) {
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.intermediate_missed, 0u);
}
}  // namespace

TEST(DragonflyRun, MinimalIsDeadlockFreeAboveSaturation) {
  const Results r = loaded("dimension_order", "uniform", 0.95, 2);
  expect_live(r);
  EXPECT_EQ(r.nonminimal_packets, 0u);
  EXPECT_GT(r.accepted, 0.2);
}

TEST(DragonflyRun, ValiantIsDeadlockFreeAboveSaturation) {
  const Results r = loaded("valiant", "uniform", 0.95, 3);
  expect_live(r);
  EXPECT_GT(r.accepted, 0.2);
}

TEST(DragonflyRun, UgalIsDeadlockFreeAboveSaturation) {
  const Results r = loaded("ugal", "adversarial", 0.95, 3);
  expect_live(r);
  EXPECT_GT(r.accepted, 0.06);
}

// Adversarial traffic (6 VCs of 8 flits): minimal routing puts a group's a p terminals on one
// global link, at most 1 / (a p) = 0.125 each (0.106 measured); Valiant spreads them over the
// other groups (0.308); UGAL-L, deciding by the source router's queues only, gets 0.154.
TEST(DragonflyRun, AdversarialMinimalSaturatesAtOneOverAP) {
  const Results m = loaded("dimension_order", "adversarial", 0.5, 6, 8);
  expect_live(m);
  EXPECT_LT(m.accepted, 0.125);
  EXPECT_GT(m.accepted, 0.09);
}

TEST(DragonflyRun, AdversarialUgalCarriesMoreThanMinimal) {
  const Results u = loaded("ugal", "adversarial", 0.5, 6, 8);
  expect_live(u);
  EXPECT_GT(u.accepted, 0.135);
}

TEST(DragonflyRun, AdversarialValiantCarriesMoreThanTwiceMinimal) {
  const Results v = loaded("valiant", "adversarial", 0.5, 6, 8);
  expect_live(v);
  EXPECT_GT(v.accepted, 0.25);
}

TEST(DragonflyConfig, BadInputIsAnErrorWithFileLineAndKey) {
  const std::string base = "topology: {type: dragonfly, p: 2, a: 4, h: 2";
  EXPECT_EQ(test::cfg(base + "}\n").topology.make().num_nodes(), 72);  // g = a*h + 1
  EXPECT_EQ(test::cfg(base + ", g: 3}\n").topology.make().num_nodes(), 24);
  const auto has = [](const std::string& e, const char* what) {
    EXPECT_NE(e.find(what), std::string::npos) << e;
    EXPECT_EQ(e.rfind("cfg.yaml:", 0), 0u) << e;  // file:line:col
  };
  has(test::config_error("topology: {type: dragonfly, h: 0}\n"), "topology.h");
  has(test::config_error("topology: {type: dragonfly, a: 0}\n"), "topology.a");
  has(test::config_error("topology: {type: dragonfly, p: 0}\n"), "topology.p");
  has(test::config_error(base + ", g: 10}\n"), "topology.g");
  has(test::config_error(base + ", g: 1}\n"), "topology.g");
  has(test::config_error("topology: {type: dragonfly, dims: [4]}\n"), "topology.dims");
  has(test::config_error(base + ", local_latency: 10}\n"), "topology.local_latency");
  has(test::config_error(base + ", global_latency: 10}\nrouter: {buffering: output_queued}\n"),
      "topology.global_latency");
  EXPECT_EQ(test::config_error(base + ", global_latency: 10}\nrouter: {pipeline: {}}\n"), "");
  has(test::config_error(
          "topology: {type: torus, dims: [4, 4]}\ntraffic: {pattern: adversarial}\n"),
      "traffic.pattern");
  const std::string e =
      test::config_error(base + "}\nrouter: {vcs: 2}\nrouting: {algorithm: ugal}\n");
  has(e, "routing");
  EXPECT_NE(e.find("3"), std::string::npos) << e;
  has(test::config_error(base + "}\nrouter: {vcs: 1}\n"), "router.vcs");
  has(test::config_error(base + "}\nrouting: {algorithm: nca_adaptive}\n"), "routing.algorithm");
  // The throughput factor: the busiest (local) link, 68 / 71 of a terminal's load.
  const Config c = test::cfg(base + "}\ntraffic: {rate: 0.5, packet_flits: 4}\n");
  const Topology t = c.topology.make();
  EXPECT_NEAR(throughput_factor(c, t, t.average_distance(false)), 0.5 * 68.0 / 71.0, 1e-12);
}
