// The butterfly topology (k-ary n-fly) and runs on it: structure, destination-tag routes of
// exactly n hops, every router kind.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/topology/butterfly.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

TEST(ButterflyTopology, LevelsRowsAndArcs) {
  const Topology t = Topology::butterfly(2, 3);
  EXPECT_EQ(t.num_nodes(), 8);     // terminals: one per row
  EXPECT_EQ(t.num_routers(), 32);  // 4 levels x 8 rows
  EXPECT_EQ(t.num_ports(), 2);
  EXPECT_EQ(t.num_links(), 3 * 8 * 2);
  // Router (x = 5, level 1) = id 13. Port v sets digit (bit) 1 of the row to v: row 5 = 101b
  // has bit 1 = 0, so port 0 is straight, to (5, 2) = 21, and port 1 vertical, to (7, 2) = 23.
  EXPECT_EQ(t.router_name(13), "(5,1)");
  EXPECT_EQ(t.neighbor(13, 0), 21);
  EXPECT_EQ(t.neighbor(13, 1), 23);
  EXPECT_EQ(t.link_class(13, 0), 2);  // level 1 straight
  EXPECT_EQ(t.link_class(13, 1), 3);  // level 1 vertical
  EXPECT_EQ(t.link_class_name(3), "level1.vertical");
  EXPECT_EQ(t.neighbor(3 * 8 + 4, 0), -1);  // the last level has no outputs
  EXPECT_EQ(t.injection_router(6), 6);
  EXPECT_EQ(t.ejection_router(6), 30);
  EXPECT_EQ(t.ejection_terminal(30), 6);
  EXPECT_EQ(t.ejection_terminal(6), -1);
}

TEST(ButterflyTopology, EveryInputPortIsFedByOneLink) {
  for (const auto& kn : {std::pair<int, int>{2, 4}, {3, 3}, {4, 2}}) {
    const Topology t = Topology::butterfly(kn.first, kn.second);
    std::set<std::pair<int, int>> inputs;
    for (int r = 0; r < t.num_routers(); ++r)
      for (int p = 0; p < t.num_ports(); ++p) {
        const int m = t.neighbor(r, p);
        if (m < 0) continue;
        const int in = t.in_port(r, p);
        ASSERT_GE(in, 0);
        ASSERT_LT(in, t.num_ports());
        EXPECT_TRUE(inputs.insert({m, in}).second)
            << "two links into router " << m << " port " << in;
      }
    EXPECT_EQ(static_cast<int>(inputs.size()), t.num_links());
  }
}

TEST(ButterflyTopology, DestinationTagRoutesTakeExactlyNHopsToTheRightRow) {
  for (const auto& kn : {std::pair<int, int>{2, 5}, {3, 3}}) {
    const Topology t = Topology::butterfly(kn.first, kn.second);
    const IndirectNetwork& b = *t.indirect_network();
    for (int s = 0; s < t.num_nodes(); ++s)
      for (int d = 0; d < t.num_nodes(); ++d) {
        int r = t.injection_router(s), hops = 0;
        for (int p; (p = b.route(r, d)) >= 0; ++hops) r = t.neighbor(r, p);
        EXPECT_EQ(hops, kn.second);
        EXPECT_EQ(r, t.ejection_router(d));
        EXPECT_EQ(t.distance(s, d), kn.second);
      }
  }
}

class ButterflyRun : public ::testing::TestWithParam<const char*> {};

TEST_P(ButterflyRun, EveryPairDeliveredInZeroLoadTimeAfterNHops) {
  // A 2-ary 3-fly: one message from every row to every row, far apart in time.
  std::ostringstream y;
  y << "topology: {type: butterfly, k: 2, n: 3}\nrouter: " << GetParam()
    << "\ntiming: {alpha: 2, delta: 1, tau: 1}\ntraffic:\n  type: trace\n  messages:\n";
  int time = 0;
  for (int s = 0; s < 8; ++s)
    for (int d = 0; d < 8; ++d, time += 100)
      y << "    - {time: " << time << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
  const Results r = test::run(y.str());
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 64u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.flit_hops, 64u * 4 * 3);  // every packet: 3 router-to-router hops, 4 flits
  const bool saf = std::string(GetParam()).find("store_and_forward") != std::string::npos;
  const double formula = saf ? 2 + 3 * (1 + 4) : 2 + 3 * 1 + 4;
  EXPECT_EQ(r.latency.mean, formula);
  EXPECT_EQ(r.latency.max, formula);
}

INSTANTIATE_TEST_SUITE_P(
    Routers, ButterflyRun,
    ::testing::Values("{buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}",
                      "{buffering: input_vc, switching: store_and_forward, vcs: 2, vc_depth: 4}",
                      "{buffering: output_queued, switching: wormhole}",
                      "{buffering: output_queued, switching: store_and_forward}",
                      "{switching: direct_connect}"));

TEST(ButterflyRun, InputVcWormholeIsDeadlockFreeAboveSaturationWithOneVc) {
  const Results r = test::run(
      "topology: {type: butterfly, k: 2, n: 5}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}\n"
      "traffic: {process: bernoulli, rate: 0.9, packet_flits: 8, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 20000, drain_limit: 1, deadlock_cycles: 2000}\n");
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
}

TEST(ButterflyConfig, WhatAButterflyCannotDoIsAnError) {
  const std::string fly = "topology: {type: butterfly, k: 2, n: 3}\n";
  EXPECT_NO_THROW(test::cfg(fly));
  EXPECT_THROW(test::cfg("topology: {type: butterfly, k: 2, n: 3, dims: [2, 2]}\n"), ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: torus, dims: [4, 4], k: 2}\n"), ConfigError);
  EXPECT_THROW(test::cfg(fly + "traffic: {pattern: transpose}\n"), ConfigError);
  EXPECT_THROW(test::cfg(fly + "traffic: {self: deliver_locally}\n"), ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: butterfly, k: 3, n: 3}\ntraffic: {pattern: bit_flip}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg(fly + "router: {buffering: output_queued, priority_classes: 2}\n"
                               "traffic: {broadcast: {scheme: priority_star, rate: 0.01}}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg(fly + "waves: {routers: [32]}\n"), ConfigError);
  EXPECT_NO_THROW(test::cfg(fly + "waves: {routers: [31]}\n"));
  // load.rho on a butterfly: lambda = rho / max(p, 1 - p) per packet time.
  const Config c = test::cfg(fly +
                             "traffic: {process: poisson, packet_flits: 2, pattern: bit_flip,\n"
                             "          bit_flip_probability: 0.25, load: {rho: 0.6}}\n");
  EXPECT_NEAR(c.traffic.packets_per_cycle(), 0.6 / 0.75 / 2, 1e-12);
}
