// The fat tree (k-ary n-tree): structure, nearest-common-ancestor routes (D-mod-k up ports),
// every router kind delivering every pair in zero-load time, deadlock freedom on one VC.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/topology/fat_tree.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

TEST(FatTreeTopology, LevelsPortsAndLinks) {
  const Topology t = Topology::fat_tree(3, 3);
  EXPECT_EQ(t.num_routers(), 3 * 9);
  EXPECT_EQ(t.num_nodes(), 27);
  EXPECT_EQ(t.num_ports(), 6);
  EXPECT_EQ(t.concentration(), 3);
  // Links: between each pair of adjacent levels k^(n-1) x k up and as many down.
  EXPECT_EQ(t.num_links(), 2 * 2 * 9 * 3);
  // Router (w = 5 = digits (2, 1), level 0) = id 5: up port k + j sets digit 0 to j.
  EXPECT_EQ(t.neighbor(5, 3 + 0), 9 + 3);  // (3, 1)
  EXPECT_EQ(t.in_port(5, 3 + 0), 2);       // arrives at the parent's down port = digit 0 of w
  EXPECT_EQ(t.neighbor(9 + 3, 2), 5);      // and back down
  EXPECT_EQ(t.in_port(9 + 3, 2), 3 + 0);
  EXPECT_EQ(t.neighbor(5, 0), -1);       // a leaf's down ports are its terminals'
  EXPECT_EQ(t.neighbor(18 + 4, 3), -1);  // a root's up ports are unconnected
  EXPECT_EQ(t.ejection_terminal(5), 15);
  EXPECT_EQ(t.ejection_count(5), 3);
  EXPECT_EQ(t.ejection_terminal(9), -1);
  EXPECT_EQ(t.ejection_count(9), 0);
  EXPECT_EQ(t.injection_index(16), 1);
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(t.link_class_name(t.link_class(9 + 3, 2)), "level0.down");
  EXPECT_EQ(t.link_class_name(t.link_class(5, 4)), "level0.up");
}

TEST(FatTreeTopology, EveryInputPortIsFedByOneLink) {
  for (const auto& kn : {std::pair<int, int>{2, 4}, {3, 3}, {4, 2}, {2, 1}}) {
    const Topology t = Topology::fat_tree(kn.first, kn.second);
    std::set<std::pair<int, int>> inputs;
    for (int r = 0; r < t.num_routers(); ++r)
      for (int p = 0; p < t.num_ports(); ++p) {
        const int m = t.neighbor(r, p);
        if (m < 0) continue;
        const int in = t.in_port(r, p);
        EXPECT_EQ(t.neighbor(m, in), r) << "links come in pairs";
        EXPECT_TRUE(inputs.insert({m, in}).second) << "two links into " << m << " port " << in;
      }
    EXPECT_EQ(static_cast<int>(inputs.size()), t.num_links());
  }
}

// Routes go up then down, are shortest (2 x the level where the leaves meet) and end at the
// destination's leaf; every down link into a leaf carries the traffic of one terminal (D-mod-k).
TEST(FatTreeTopology, NearestCommonAncestorRoutesAreShortestAndBalanced) {
  for (const auto& kn : {std::pair<int, int>{2, 4}, {3, 3}, {4, 2}}) {
    const Topology t = Topology::fat_tree(kn.first, kn.second);
    const auto& f = static_cast<const FatTree&>(*t.indirect_network());
    std::map<std::pair<int, int>, std::set<int>> into_leaf;  // (leaf, in port) -> destinations
    double sum = 0;
    for (int s = 0; s < t.num_nodes(); ++s)
      for (int d = 0; d < t.num_nodes(); ++d) {
        int r = t.injection_router(s), hops = 0, peak = 0;
        bool down = false;
        for (int p; (p = f.route(r, d)) >= 0; ++hops) {
          if (p < f.k()) down = true;
          EXPECT_FALSE(down && p >= f.k()) << "up after down";
          const int m = t.neighbor(r, p);
          ASSERT_GE(m, 0);
          if (f.level(m) == 0) into_leaf[{m, t.in_port(r, p)}].insert(d);
          r = m;
          peak = std::max(peak, f.level(r));
        }
        EXPECT_EQ(r, t.ejection_router(d));
        EXPECT_EQ(hops, 2 * peak);
        EXPECT_EQ(hops, t.distance(s, d));
        sum += hops;
      }
    for (const auto& [link, dsts] : into_leaf) EXPECT_EQ(dsts.size(), 1u) << "leaf " << link.first;
    const double N = t.num_nodes();
    EXPECT_NEAR(t.average_distance(true), sum / (N * N), 1e-12);
  }
}

class FatTreeRun : public ::testing::TestWithParam<const char*> {};

TEST_P(FatTreeRun, EveryPairDeliveredInZeroLoadTime) {
  std::ostringstream y;
  y << "topology: {type: fat_tree, k: 2, n: 3}\nrouter: " << GetParam()
    << "\ntiming: {alpha: 2, delta: 1, tau: 1}\ntraffic:\n  type: trace\n  messages:\n";
  const Topology t = Topology::fat_tree(2, 3);
  int time = 0, hop_flits = 0;
  for (int s = 0; s < 8; ++s)
    for (int d = 0; d < 8; ++d, time += 100) {
      y << "    - {time: " << time << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
      hop_flits += 4 * t.distance(s, d);
    }
  const Results r = test::run(y.str(), true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 64u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.flit_hops, static_cast<std::uint64_t>(hop_flits));
  const bool saf = std::string(GetParam()).find("store_and_forward") != std::string::npos;
  for (const auto& m : r.packets) {
    const int h = t.distance(m.src, m.dst);
    const Cycle formula = saf ? 2 + h * (1 + 4) + (h == 0 ? 4 : 0) : 2 + h + 4;
    EXPECT_EQ(m.delivered - m.created, formula) << m.src << " -> " << m.dst;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Routers, FatTreeRun,
    ::testing::Values("{buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}",
                      "{buffering: input_vc, switching: store_and_forward, vcs: 2, vc_depth: 4}",
                      "{buffering: output_queued, switching: wormhole}"));

TEST(FatTreeRun, InputVcWormholeIsDeadlockFreeAboveSaturationWithOneVc) {
  const Results r = test::run(
      "topology: {type: fat_tree, k: 4, n: 2}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}\n"
      "traffic: {process: bernoulli, rate: 0.9, packet_flits: 8, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 20000, drain_limit: 1, deadlock_cycles: 2000}\n");
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_GT(r.accepted, 0.3);
}

TEST(FatTreeConfig, WhatAFatTreeCannotDoIsAnError) {
  const std::string ft = "topology: {type: fat_tree, k: 4, n: 2}\n";
  EXPECT_NO_THROW(test::cfg(ft));
  EXPECT_EQ(test::cfg(ft).topology.make().num_nodes(), 16);
  const std::string e = test::config_error("topology: {type: fat_tree, k: 1, n: 2}\n");
  EXPECT_NE(e.find("topology.k"), std::string::npos) << e;
  EXPECT_THROW(test::cfg("topology: {type: fat_tree, k: 4, n: 11}\n"), ConfigError);  // 4^11
  EXPECT_THROW(test::cfg("topology: {type: fat_tree, dims: [4, 4]}\n"), ConfigError);
  EXPECT_THROW(test::cfg(ft + "traffic: {pattern: transpose}\n"), ConfigError);
  EXPECT_THROW(test::cfg(ft + "routing: {algorithm: valiant}\n"), ConfigError);
  // The throughput factor: a leaf's up links carry (N - k) / (N - 1) of a terminal's load.
  const Config c = test::cfg(ft + "traffic: {rate: 0.5, packet_flits: 4}\n");
  const Topology t = c.topology.make();
  EXPECT_NEAR(throughput_factor(c, t, t.average_distance(false)), 0.5 * 12.0 / 15.0, 1e-12);
}

// nca_random / nca_two_choice (BookSim2's nca and anca): one random up port per up hop, or the
// better of two by credits; packets of one flow spread over a leaf's up links (D-mod-k puts
// them all on one), routes stay shortest, one VC is deadlock-free above saturation. The same
// for nca_adaptive (every up port, by credits), which carries at least 0.4 there.
class FatTreeRandomUp : public ::testing::TestWithParam<const char*> {};

TEST_P(FatTreeRandomUp, SpreadsOneFlowOverTheUpLinksShortestAndDeadlockFree) {
  const std::string algo = GetParam();
  if (algo == "dimension_order" || algo == "nca_random") {
    // 64 one-flit packets from terminal 0 to terminal 63, one every 8 cycles (no contention).
    std::string y =
        "topology: {type: fat_tree, k: 4, n: 3}\n"
        "router: {buffering: input_vc, vcs: 1, vc_depth: 4}\n"
        "routing: {algorithm: " +
        algo +
        "}\n"
        "traffic:\n  type: trace\n  messages:\n";
    for (int i = 0; i < 64; ++i)
      y += "    - {time: " + std::to_string(8 * i) + ", src: 0, dst: 63, flits: 1}\n";
    const Results r = test::run(y);
    ASSERT_TRUE(r.stable);
    std::set<int> up;  // leaf 0's up ports that carried a flit
    for (const LinkUtilization& e : r.link_utilization)
      if (e.src == 0 && e.utilization > 0) up.insert(e.port);
    EXPECT_EQ(up.size(), algo == "nca_random" ? 4u : 1u);
    EXPECT_EQ(r.nonminimal_packets, 0u);
    return;
  }
  const Results r = test::run(
      "topology: {type: fat_tree, k: 4, n: 3}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 4}\n"
      "routing: {algorithm: " +
      algo +
      "}\n"
      "traffic: {process: bernoulli, rate: 0.95, packet_flits: 4, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 10000, drain_limit: 1, deadlock_cycles: 2000}\n");
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.nonminimal_packets, 0u);
  EXPECT_GT(r.accepted, algo == "nca_adaptive" ? 0.4 : 0.3);
}
INSTANTIATE_TEST_SUITE_P(Algorithms, FatTreeRandomUp,
                         ::testing::Values("dimension_order", "nca_random", "nca_two_choice",
                                           "nca_adaptive"));

// nca_two_choice offers two different up ports at an up hop, one down port on the way down.
TEST(FatTreeRouting, TwoChoiceOffersTwoDifferentUpPorts) {
  const Topology t = Topology::fat_tree(4, 3);
  const auto algo = make_routing("nca_two_choice", t, 1, TieBreak::Balanced);
  ASSERT_EQ(algo->candidate_capacity(), 2);
  std::set<int> firsts;
  for (int c = 0; c < 200; ++c) {
    Packet pk;
    pk.src = 0;
    pk.dst = 63;
    pk.created = static_cast<Cycle>(c);
    Candidate out[2];
    ASSERT_EQ(algo->candidates(0, -1, 0, pk, out), 2);
    EXPECT_NE(out[0].port, out[1].port);
    for (const Candidate& x : out) EXPECT_GE(x.port, 4);  // up ports are k..2k-1
    firsts.insert(out[0].port);
    // The same packet at the same router draws the same ports (reproducible).
    Candidate again[2];
    algo->candidates(0, -1, 0, pk, again);
    EXPECT_EQ(again[0].port, out[0].port);
    EXPECT_EQ(again[1].port, out[1].port);
  }
  EXPECT_EQ(firsts.size(), 4u);
  Packet down;
  down.dst = 5;  // at the root (level 2) of leaf 1's subtree: down
  Candidate out[2];
  EXPECT_EQ(algo->candidates(2 * 16, -1, 0, down, out), 1);
  EXPECT_LT(out[0].port, 4);
}

TEST(FatTreeConfig, NcaAdaptiveIsAFatTreesOnly) {
  EXPECT_NO_THROW(
      test::cfg("topology: {type: fat_tree, k: 2, n: 3}\n"
                "routing: {algorithm: nca_adaptive}\n"));
  const std::string e = test::config_error(
      "topology: {type: mesh, dims: [4, 4]}\n"
      "routing: {algorithm: nca_adaptive}\n");
  EXPECT_NE(e.find("routing.algorithm"), std::string::npos) << e;
  EXPECT_THROW(test::cfg("topology: {type: cmesh, dims: [2, 2]}\n"
                         "routing: {algorithm: nca_adaptive}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: fat_tree, k: 2, n: 3}\n"
                         "router: {buffering: output_queued}\n"
                         "routing: {algorithm: nca_adaptive}\n"),
               ConfigError);
}
