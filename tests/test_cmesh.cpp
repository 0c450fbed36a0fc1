// The concentrated mesh (cmesh: c terminals per router) and concentration in the routers: each
// terminal injects on its own ports and is delivered to its own NI (its own ejection outputs in
// the staged pipeline), XY routes on the router mesh, every router kind.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/topology/cmesh.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

TEST(CMeshTopology, RoutersTerminalsPortsAndLinks) {
  const Topology t = Topology::cmesh({4, 3}, 4);
  EXPECT_EQ(t.num_routers(), 12);
  EXPECT_EQ(t.num_nodes(), 48);  // terminals
  EXPECT_EQ(t.num_ports(), 4);
  EXPECT_EQ(t.concentration(), 4);
  // A 4 x 3 mesh: 2 x (3 x 3 + 4 x 2) directed links.
  EXPECT_EQ(t.num_links(), 2 * (3 * 3 + 4 * 2));
  // Router 5 = (1, 1): terminals 20..23, injection groups 0..3.
  EXPECT_EQ(t.router_name(5), "(1,1)");
  EXPECT_EQ(t.ejection_terminal(5), 20);
  EXPECT_EQ(t.ejection_count(5), 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(t.injection_router(20 + k), 5);
    EXPECT_EQ(t.ejection_router(20 + k), 5);
    EXPECT_EQ(t.injection_index(20 + k), k);
  }
  EXPECT_EQ(t.neighbor(5, 0), 6);  // d0+
  EXPECT_EQ(t.neighbor(5, 1), 4);  // d0-
  EXPECT_EQ(t.neighbor(5, 2), 9);  // d1+
  EXPECT_EQ(t.neighbor(5, 3), 1);  // d1-
  EXPECT_EQ(t.neighbor(0, 1), -1);
  EXPECT_EQ(t.neighbor(11, 2), -1);
  EXPECT_EQ(t.port_name(3), "d1-");
  EXPECT_EQ(t.in_port(5, 0), 1);  // the link d0+ enters the neighbour's d0- port
  EXPECT_EQ(t.link_class(5, 2), 1);
  EXPECT_EQ(t.diameter(), 3 + 2);
}

TEST(CMeshTopology, XyRoutesAreShortestAndEndAtTheDestinationsRouter) {
  const Topology t = Topology::cmesh({4, 4}, 2);
  const IndirectNetwork& m = *t.indirect_network();
  double sum = 0;
  for (int s = 0; s < t.num_nodes(); ++s)
    for (int d = 0; d < t.num_nodes(); ++d) {
      int r = t.injection_router(s), hops = 0;
      bool turned = false;
      for (int p; (p = m.route(r, d)) >= 0; ++hops) {
        if (m.link_class(r, p) == 1) turned = true;
        EXPECT_FALSE(turned && m.link_class(r, p) == 0) << "a y hop before an x hop";
        r = t.neighbor(r, p);
        ASSERT_GE(r, 0);
      }
      EXPECT_EQ(r, t.ejection_router(d));
      EXPECT_EQ(hops, t.distance(s, d));
      sum += hops;
    }
  const double N = t.num_nodes();
  EXPECT_NEAR(t.average_distance(true), sum / (N * N), 1e-12);
  EXPECT_NEAR(t.average_distance(false), sum / (N * (N - 1)), 1e-12);
}

class CMeshRun : public ::testing::TestWithParam<const char*> {};

// Every terminal to every terminal of a 2 x 2 cmesh with 3 terminals a router, one message at a
// time: each is delivered at the right terminal in the zero-load time of its hops (0, 1 or 2),
// terminals of one router included.
TEST_P(CMeshRun, EveryPairDeliveredInZeroLoadTime) {
  std::ostringstream y;
  y << "topology: {type: cmesh, dims: [2, 2], concentration: 3}\nrouter: " << GetParam()
    << "\ntiming: {alpha: 2, delta: 1, tau: 1}\ntraffic:\n  type: trace\n  messages:\n";
  int time = 0, hop_flits = 0;
  const Topology t = Topology::cmesh({2, 2}, 3);
  for (int s = 0; s < 12; ++s)
    for (int d = 0; d < 12; ++d, time += 100) {
      y << "    - {time: " << time << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
      hop_flits += 4 * t.distance(s, d);
    }
  const Results r = test::run(y.str(), /*records=*/true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 144u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.flit_hops, static_cast<std::uint64_t>(hop_flits));
  const bool saf = std::string(GetParam()).find("store_and_forward") != std::string::npos;
  ASSERT_EQ(r.packets.size(), 144u);
  for (const auto& m : r.packets) {
    const int h = t.distance(m.src, m.dst);
    const long long formula = saf ? 2 + h * (1 + 4) + (h == 0 ? 4 : 0) : 2 + h * 1 + 4;
    EXPECT_EQ(static_cast<long long>((m.delivered - m.created)), formula)
        << "terminal " << m.src << " -> " << m.dst;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Routers, CMeshRun,
    ::testing::Values("{buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}",
                      "{buffering: input_vc, switching: store_and_forward, vcs: 2, vc_depth: 4}",
                      "{buffering: output_queued, switching: wormhole}",
                      "{buffering: output_queued, switching: store_and_forward}"));

// The staged pipeline: every terminal has its own injection port and ejection output, so the
// four terminals of one router, each sending to another of them at once, all take the time of
// one packet alone; with a shared injection port or ejection output they would queue.
TEST(CMeshRun, StagedTerminalsOfOneRouterInjectAndEjectInParallel) {
  std::string y =
      "topology: {type: cmesh, dims: [2, 1], concentration: 4}\n"
      "router: {buffering: input_vc, vcs: 2, vc_depth: 8,\n"
      "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
      "traffic:\n  type: trace\n  messages:\n";
  for (int k = 0; k < 4; ++k)
    y += "    - {time: 0, src: " + std::to_string(k) + ", dst: " + std::to_string((k + 1) % 4) +
         ", flits: 8}\n";
  y += "    - {time: 1000, src: 5, dst: 6, flits: 8}\n";  // alone: the one-packet time
  const Results s = test::run(y, true);
  ASSERT_TRUE(s.stable) << s.unstable_reason;
  ASSERT_EQ(s.packets.size(), 5u);
  Cycle alone = 0;
  for (const auto& m : s.packets)
    if (m.src == 5) alone = m.delivered - m.created;
  EXPECT_EQ(alone, 2 + 4 + 8);  // (h + 2) lt + (h + 1)(rc + va + sa + st) + L tau, h = 0
  for (const auto& m : s.packets) EXPECT_EQ(m.delivered - m.created, alone) << "terminal " << m.src;
}

// The four terminals of router 0 each to a terminal of router 1: they share the one link, so
// the four packets cross it one after the other (the last at least 3 packet times after the
// first).
TEST(CMeshRun, StagedTerminalsOfOneRouterShareTheRoutersLinks) {
  std::string y =
      "topology: {type: cmesh, dims: [2, 1], concentration: 4}\n"
      "router: {buffering: input_vc, vcs: 1, vc_depth: 8,\n"
      "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
      "traffic:\n  type: trace\n  messages:\n";
  for (int k = 0; k < 4; ++k)
    y += "    - {time: 0, src: " + std::to_string(k) + ", dst: " + std::to_string(4 + k) +
         ", flits: 8}\n";
  const Results r = test::run(y, true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(r.packets.size(), 4u);
  std::set<Cycle> lat;
  for (const auto& m : r.packets) lat.insert(m.delivered - m.created);
  EXPECT_EQ(*lat.begin(), 3 + 2 * 4 + 8);  // the first: one hop, alone on the link
  EXPECT_GE(*lat.rbegin() - *lat.begin(), 3 * 8);
  EXPECT_EQ(r.flit_hops, 4u * 8);
}

TEST(CMeshRun, UniformLoadIsDeliveredAndDeterministic) {
  const std::string y =
      "topology: {type: cmesh, dims: [4, 4], concentration: 4}\n"
      "router: {buffering: input_vc, vcs: 2, vc_depth: 4,\n"
      "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2}}\n"
      "traffic: {process: bernoulli, rate: 0.08, packet_flits: 8, pattern: uniform}\n"
      "simulation: {warmup: 1000, measure: 6000}\n";
  const Results a = test::run(y);
  ASSERT_TRUE(a.stable) << a.unstable_reason;
  EXPECT_NEAR(a.accepted, 0.08, 0.01);
  EXPECT_EQ(a.credit_violations, 0u);
  EXPECT_EQ(a.order_errors, 0u);
  // The throughput factor: the middle x link of a row carries 2 x 2 x 4 router pairs x 16
  // terminal pairs of the 63 x 64 ordered pairs; rho = lambda L x that share.
  EXPECT_NEAR(a.rho, 0.08 / 8 * 8 * (2 * 2 * 4 * 16) / 63.0, 1e-9);
  // The same config and seed again (another process): the same results.
  const std::string js = test::cli_results("cmesh_uniform", y);
  ASSERT_FALSE(js.empty());
  EXPECT_NEAR(test::json_number(js, "latency", "mean"), a.latency.mean, 1e-6);
  EXPECT_EQ(test::json_number(js, "packets", "delivered"),
            static_cast<double>(a.packets_delivered));
}

TEST(CMeshConfig, WhatACMeshCannotDoIsAnError) {
  const std::string cm = "topology: {type: cmesh, dims: [4, 4], concentration: 4}\n";
  EXPECT_NO_THROW(test::cfg(cm));
  EXPECT_EQ(test::cfg(cm).topology.make().num_nodes(), 64);
  EXPECT_EQ(test::cfg("topology: {type: cmesh, dims: [4, 4]}\n").topology.concentration, 4);
  EXPECT_THROW(test::cfg("topology: {type: mesh, dims: [4, 4], concentration: 4}\n"), ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: cmesh, dims: [4, 4], concentration: 0}\n"), ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: cmesh, dims: [4, 4], concentration: 65}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: cmesh, k: 4}\n"), ConfigError);
  for (const char* p : {"transpose", "tornado", "neighbor", "bit_flip"})
    EXPECT_THROW(test::cfg(cm + "traffic: {pattern: " + p + "}\n"), ConfigError) << p;
  EXPECT_NO_THROW(test::cfg(cm + "traffic: {pattern: bit_complement}\n"));
  EXPECT_THROW(test::cfg(cm + "routing: {algorithm: minimal_adaptive}\nrouter: {vcs: 4}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg(cm + "router: {buffering: output_queued, priority_classes: 2}\n"
                              "traffic: {broadcast: {scheme: priority_star, rate: 0.01}}\n"),
               ConfigError);
  const std::string e =
      test::config_error("topology: {type: mesh, dims: [4, 4], concentration: 2}\n");
  EXPECT_NE(e.find("topology.concentration"), std::string::npos) << e;
}
