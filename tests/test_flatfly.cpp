// The flattened butterfly (BookSim2's flatfly): structure, dimension-order routes (one hop per
// differing dimension), zero-load cycle counts per hop count, Valiant and UGAL hop counts,
// deadlock freedom above saturation, the adversarial destination, config errors.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/topology/flatfly.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

namespace {

Topology flatfly(int k, int n, int c) {
  return Topology::indirect(Topology::Kind::FlatFly, std::make_shared<FlatFly>(k, n, c));
}
const FlatFly& ff_of(const Topology& t) {
  return static_cast<const FlatFly&>(*t.indirect_network());
}

}  // namespace

TEST(FlatFlyTopology, RoutersPortsAndLinks) {
  const Topology t = flatfly(4, 2, 3);
  EXPECT_EQ(t.num_routers(), 16);
  EXPECT_EQ(t.num_nodes(), 48);
  EXPECT_EQ(t.num_ports(), 8);  // k per dimension, the own coordinate's unconnected
  EXPECT_EQ(t.concentration(), 3);
  EXPECT_EQ(t.num_links(), 16 * 2 * 3);
  // Router 6 = (2, 1): port d0:3 goes to (3, 1) = 7, arriving on its port d0:2; d1:0 to (2, 0).
  EXPECT_EQ(t.neighbor(6, 3), 7);
  EXPECT_EQ(t.in_port(6, 3), 2);
  EXPECT_EQ(t.neighbor(6, 4 + 0), 2);
  EXPECT_EQ(t.in_port(6, 4 + 0), 4 + 1);
  EXPECT_EQ(t.neighbor(6, 2), -1);      // its own coordinate in dimension 0
  EXPECT_EQ(t.neighbor(6, 4 + 1), -1);  // and in dimension 1
  EXPECT_EQ(t.port_name(4 + 3), "d1:3");
  EXPECT_EQ(t.router_name(6), "(2,1)");
  EXPECT_EQ(t.link_class_name(t.link_class(6, 4 + 3)), "d1");
  EXPECT_EQ(t.ejection_terminal(6), 18);
  EXPECT_EQ(t.ejection_count(6), 3);
  EXPECT_EQ(t.injection_router(20), 6);
  EXPECT_EQ(t.injection_index(20), 2);
  EXPECT_EQ(t.diameter(), 2);
  std::set<std::pair<int, int>> inputs;
  for (int r = 0; r < t.num_routers(); ++r)
    for (int p = 0; p < t.num_ports(); ++p) {
      const int m = t.neighbor(r, p);
      if (m < 0) continue;
      EXPECT_EQ(t.neighbor(m, t.in_port(r, p)), r) << "links come in pairs";
      EXPECT_TRUE(inputs.insert({m, t.in_port(r, p)}).second);
    }
  EXPECT_EQ(static_cast<int>(inputs.size()), t.num_links());
}

// Routes: one hop per differing dimension, lowest dimension first, never longer than n; the
// mean distance and the busiest link's uniform share match a count over every pair.
TEST(FlatFlyTopology, DimensionOrderRoutesAreMinimalAndTheSharesAdd) {
  for (const auto& knc : {std::array<int, 3>{4, 2, 4}, {3, 3, 2}, {2, 3, 1}, {5, 1, 2}}) {
    const Topology t = flatfly(knc[0], knc[1], knc[2]);
    const FlatFly& f = ff_of(t);
    std::map<std::pair<int, int>, double> load;
    double sum = 0;
    const int N = t.num_nodes();
    for (int s = 0; s < N; ++s)
      for (int d = 0; d < N; ++d) {
        int r = t.injection_router(s), hops = 0, last_dim = -1;
        for (int p; (p = f.route(r, d)) >= 0; ++hops) {
          EXPECT_GT(p / f.k(), last_dim) << "dimension order";
          last_dim = p / f.k();
          const int m = t.neighbor(r, p);
          ASSERT_GE(m, 0);
          EXPECT_EQ(f.router_distance(r, m), 1);
          load[{r, p}] += 1.0 / N;
          r = m;
        }
        EXPECT_EQ(r, t.ejection_router(d));
        EXPECT_EQ(hops, t.distance(s, d));
        EXPECT_LE(hops, f.n());
        sum += hops;
      }
    EXPECT_NEAR(t.average_distance(true), sum / (double(N) * N), 1e-12);
    EXPECT_NEAR(t.average_distance(false), sum / (double(N) * (N - 1)), 1e-12);
    double busiest = 0;
    for (const auto& [link, l] : load) busiest = std::max(busiest, l);
    EXPECT_NEAR(f.uniform_link_share(false), busiest, 1e-12);
  }
}

// The adversarial destination: a terminal of the router one step on in dimension 0, any of its
// c terminals; all of a router's traffic on its one link there under minimal routing.
TEST(FlatFlyTopology, AdversarialDestinationLoadsOneLink) {
  const Topology t = flatfly(4, 2, 4);
  const FlatFly& f = ff_of(t);
  for (int s = 0; s < t.num_nodes(); ++s) {
    std::set<int> dsts;
    for (std::uint64_t draw = 0; draw < 64; ++draw) {
      const int d = f.adversarial_destination(s, draw * 0x9e3779b97f4a7c15ull + draw);
      ASSERT_GE(d, 0);
      ASSERT_LT(d, t.num_nodes());
      dsts.insert(d);
      const int r = s / 4, q = d / 4;
      EXPECT_EQ(f.coord(q, 0), (f.coord(r, 0) + 1) % 4);
      EXPECT_EQ(f.coord(q, 1), f.coord(r, 1));
      EXPECT_EQ(f.route(r, d), f.coord(q, 0)) << "the dimension-0 link to the next router";
    }
    EXPECT_EQ(dsts.size(), 4u) << "every terminal of that router";
  }
}

namespace {

// One 4-flit packet at a time (100 cycles apart) from every terminal to every terminal of a
// 3-ary 2-flat with 2 terminals per router, ideal pipeline (alpha 2, delta 1, tau 1): a packet
// over h hops takes 2 + h + 4 cycles.
std::string trace_yaml(const std::string& router, const std::string& routing) {
  std::ostringstream y;
  y << "topology: {type: flatfly, k: 3, n: 2, concentration: 2}\nrouter: " << router
    << "\nrouting: {algorithm: " << routing
    << "}\ntiming: {alpha: 2, delta: 1, tau: 1}\ntraffic:\n  type: trace\n  messages:\n";
  int time = 0;
  for (int s = 0; s < 18; ++s)
    for (int d = 0; d < 18; ++d, time += 100)
      y << "    - {time: " << time << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
  return y.str();
}

}  // namespace

class FlatFlyRun : public ::testing::TestWithParam<const char*> {};

TEST_P(FlatFlyRun, EveryPairDeliveredInZeroLoadTime) {
  const Topology t = flatfly(3, 2, 2);
  const Results r = test::run(trace_yaml(GetParam(), "dimension_order"), true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 18u * 18u);
  EXPECT_EQ(r.order_errors, 0u);
  std::uint64_t hop_flits = 0;
  std::map<int, int> per_hops;
  for (const auto& m : r.packets) {
    const int h = t.distance(m.src, m.dst);
    EXPECT_EQ(m.delivered - m.created, 2 + h + 4) << m.src << " -> " << m.dst;
    hop_flits += 4u * static_cast<std::uint64_t>(h);
    ++per_hops[h];
  }
  EXPECT_EQ(r.flit_hops, hop_flits);
  // 0, 1 and 2 hops: 2 + 2 + 0 same-router pairs... per source: 2 at 0 hops, 8 at 1, 8 at 2.
  EXPECT_EQ(per_hops[0], 18 * 2);
  EXPECT_EQ(per_hops[1], 18 * 8);
  EXPECT_EQ(per_hops[2], 18 * 8);
}

INSTANTIATE_TEST_SUITE_P(
    Routers, FlatFlyRun,
    ::testing::Values("{buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}",
                      "{buffering: output_queued, switching: wormhole}"));

// Valiant: through a random router, each leg in dimension order: h = d(s, m) + d(m, t) hops, up
// to 2n, unless the way to m passes t (it leaves there); most pairs take a detour somewhere.
TEST(FlatFlyRouting, ValiantHopCounts) {
  const Topology t = flatfly(3, 2, 2);
  const Results r = test::run(
      trace_yaml("{buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 2}", "valiant"),
      true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 18u * 18u);
  EXPECT_EQ(r.intermediate_missed, 0u);
  int longer = 0;
  std::set<int> seen;
  for (const auto& m : r.packets) {
    const int h = static_cast<int>(m.delivered - m.created) - 2 - 4;
    const int d = t.distance(m.src, m.dst);
    EXPECT_GE(h, d);
    EXPECT_LE(h, 4);
    if (m.src / 2 == m.dst / 2) {
      EXPECT_EQ(h, 0) << "leaves at once";
    }
    longer += h > d;
    seen.insert(h);
  }
  EXPECT_GT(longer, 100);  // of 324 pairs: the detour is taken by most
  EXPECT_TRUE(seen.count(4)) << "some go two hops out and two back";
  EXPECT_EQ(r.flit_hops % 4, 0u);
}

// UGAL on an empty network: every queue is empty, so every packet goes minimal.
TEST(FlatFlyRouting, UgalIsMinimalOnAnEmptyNetwork) {
  const Topology t = flatfly(3, 2, 2);
  const Results r = test::run(
      trace_yaml("{buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 2}", "ugal"), true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 18u * 18u);
  for (const auto& m : r.packets)
    EXPECT_EQ(m.delivered - m.created, 2 + t.distance(m.src, m.dst) + 4) << m.src << "->" << m.dst;
}

namespace {

Results saturated(const std::string& algo, int vcs, const std::string& pipeline = "") {
  return test::run(
      "topology: {type: flatfly, k: 4, n: 2, concentration: 4}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: " +
      std::to_string(vcs) + ", vc_depth: 2" + pipeline +
      "}\n"
      "routing: {algorithm: " +
      algo +
      "}\n"
      "traffic: {process: bernoulli, rate: 0.95, packet_flits: 8, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 15000, drain_limit: 1, deadlock_cycles: "
      "2000}\n");
}

}  // namespace

TEST(FlatFlyRouting, DimensionOrderIsDeadlockFreeAboveSaturationWithOneVc) {
  const Results r = saturated("dimension_order", 1);
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_GT(r.accepted, 0.3);
}

class FlatFlySaturated : public ::testing::TestWithParam<const char*> {};

TEST_P(FlatFlySaturated, DeadlockFreeAboveSaturationWithTwoVcs) {
  const Results r = saturated(GetParam(), 2, ", pipeline: {}");
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.intermediate_missed, 0u);
  EXPECT_EQ(r.nonminimal_packets, 0u);  // (checked for minimal algorithms only)
  EXPECT_GT(r.accepted, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, FlatFlySaturated,
                         ::testing::Values("valiant", "ugal", "minimal_adaptive"));

TEST(FlatFlyConfig, KeysParsedEchoedAndRefused) {
  const std::string ff = "topology: {type: flatfly, k: 4, n: 2}\n";
  const Config c = test::cfg(ff);
  EXPECT_EQ(c.topology.concentration, 4) << "concentration defaults to k";
  EXPECT_EQ(c.topology.make().num_nodes(), 64);
  EXPECT_STREQ(c.topology.make().kind_name(), "flatfly");
  const std::string js = config_to_json(test::cfg(ff + "traffic: {rate: 0.1}\n"), 0);
  EXPECT_NE(js.find("\"concentration\":4"), std::string::npos) << js;
  const auto has = [](const std::string& e, const char* what) {
    EXPECT_NE(e.find(what), std::string::npos) << what << ": " << e;
  };
  has(test::config_error("topology: {type: flatfly, k: 1, n: 2}\n"), "topology.k");
  has(test::config_error("topology: {type: flatfly, k: 4, n: 0}\n"), "topology.n");
  has(test::config_error("topology: {type: flatfly, k: 4, n: 2, concentration: 0}\n"),
      "topology.concentration");
  has(test::config_error("topology: {type: flatfly, dims: [4, 4]}\n"), "topology.dims");
  has(test::config_error("topology: {type: flatfly, k: 16, n: 5}\n"), "topology.n");  // 2^20 x 16
  // Any router (output-queued too): at most 64 network ports, n x k.
  has(test::config_error("topology: {type: flatfly, k: 32, n: 3, concentration: 1}\n"
                         "router: {buffering: output_queued}\n"),
      "topology.n");
  // An input_vc router has 64 ports: 2 x 32 network ports + 4 terminals is too many.
  has(test::config_error("topology: {type: flatfly, k: 32, n: 2, concentration: 4}\n"),
      "topology.k");
  has(test::config_error("topology: {type: flatfly, k: 4, n: 2, concentration: 60}\n"),
      "topology.concentration");
  has(test::config_error(ff + "traffic: {pattern: transpose}\n"), "traffic.pattern");
  has(test::config_error(ff + "router: {vcs: 1}\nrouting: {algorithm: valiant}\n"),
      "router.vcs >= 2");
  has(test::config_error(ff + "router: {vcs: 2}\nrouting: {algorithm: romm}\n"),
      "routing.algorithm");
  EXPECT_NO_THROW(test::cfg(ff + "router: {vcs: 2}\nrouting: {algorithm: ugal}\n"));
  has(test::config_error(ff + "router: {vcs: 1}\nrouting: {algorithm: minimal_adaptive}\n"),
      "router.vcs >= 2");
  // The throughput factor: c / k of a terminal's load on a link ((N / (N - 1)) without self).
  const Config l = test::cfg(ff + "traffic: {rate: 0.5, packet_flits: 4}\n");
  const Topology t = l.topology.make();
  EXPECT_NEAR(throughput_factor(l, t, t.average_distance(false)), 0.5 * 16.0 * 4 / 63.0, 1e-12);
}
