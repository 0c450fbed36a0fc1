// The node's injection side: all-port injection (the papers' ideal node), serial injection over
// k channels, and zero-hop packets delivered by the NI (traffic.self).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "helpers.hpp"

using namespace sy;

namespace {

// Node 0 of a 2^6 hypercube sends one L-flit packet to each of its 6 neighbours at cycle 0.
std::string six_neighbours(const std::string& interface, int L) {
  std::ostringstream y;
  y << "topology: {type: hypercube, dim: 6}\n"
       "router: {buffering: output_queued, switching: store_and_forward}\n"
       "timing: {alpha: 0, delta: 0, tau: 1}\n"
       "network_interface: "
    << interface << "\ntraffic:\n  type: trace\n  messages:\n";
  for (int d = 0; d < 6; ++d)
    y << "    - {time: 0, src: 0, dst: " << (1 << d) << ", flits: " << L << "}\n";
  return y.str();
}

std::vector<Cycle> delivery_times(const Results& r) {
  std::vector<Cycle> t;
  for (const auto& p : r.packets) t.push_back(p.delivered);
  std::sort(t.begin(), t.end());
  return t;
}

// 2^d hypercube, output-queued store-and-forward, unit packets (one packet time = 1 cycle),
// Poisson arrivals of rho / p packets per node per cycle, bit_flip destinations with p.
std::string greedy(int d, double p, double rho, const std::string& more, int measure = 40000) {
  std::ostringstream y;
  y << "topology: {type: hypercube, dim: " << d << "}\n"
    << "router: {buffering: output_queued, switching: store_and_forward}\n"
    << "timing: {alpha: 0, delta: 0, tau: 1}\n"
    << "traffic: {process: poisson, rate_unit: packets, packet_flits: 1, pattern: bit_flip,\n"
    << "          bit_flip_probability: " << p << ", rate: " << rho / p << more << "}\n"
    << "simulation: {warmup: " << measure / 8 << ", measure: " << measure << ", seed: 3}\n";
  return y.str();
}

}  // namespace

TEST(AllPortInjection, SixPacketsToSixNeighboursArriveOnePacketTimeLater) {
  const Results r = test::run(six_neighbours("{injection: all_port}", 4), true);
  ASSERT_EQ(r.packets.size(), 6u);
  for (Cycle t : delivery_times(r)) EXPECT_EQ(t, 4u);  // L * tau: all six links at once
}

TEST(SerialInjection, SixPacketsToSixNeighboursLeaveOnePacketTimeApart) {
  const Results r = test::run(six_neighbours("{injection: serial}", 4), true);
  ASSERT_EQ(r.packets.size(), 6u);
  const std::vector<Cycle> t = delivery_times(r);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(t[k], 4u * (k + 1));
}

TEST(SerialInjection, ThreeChannelsSendThreePacketsAtOnce) {
  const Results r =
      test::run(six_neighbours("{injection: serial, injection_channels: 3}", 4), true);
  const std::vector<Cycle> t = delivery_times(r);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(std::count(t.begin(), t.end(), 4u), 3);
  EXPECT_EQ(std::count(t.begin(), t.end(), 8u), 3);
}

TEST(SerialInjection, InputVcRouterWithTwoChannelsInjectsTwoPacketsInParallel) {
  // Two 8-flit packets to two different neighbours: one channel serializes them (the second
  // starts 8 cycles later), two channels send both at once: alpha + delta + L tau each.
  const std::string head =
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
      "timing: {alpha: 2, delta: 1, tau: 1}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 0, src: 0, dst: 1, flits: 8}\n"
      "    - {time: 0, src: 0, dst: 4, flits: 8}\n";
  const Results two = test::run(head + "network_interface: {injection_channels: 2}\n", true);
  for (Cycle t : delivery_times(two)) EXPECT_EQ(t, 2u + 1u + 8u);
  EXPECT_EQ(two.credit_violations, 0u);
}

TEST(AllPortInjection, GreedyHypercubeLiesBetweenThePapersBounds) {
  // Stamoulis & Tsitsiklis: dp + p rho / (2 (1 - rho)) <= T <= dp / (1 - rho), d = 6, p = 1/2.
  const double d = 6, p = 0.5, rho = 0.45;
  const Results r = test::run(greedy(6, p, rho, ", self: deliver_locally") +
                              "network_interface: {injection: all_port}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_GT(r.latency.mean - r.latency.ci95, d * p + p * rho / (2 * (1 - rho)));
  EXPECT_LT(r.latency.mean + r.latency.ci95, d * p / (1 - rho));
  EXPECT_NEAR(r.link_util_mean, rho, 0.01);
}

TEST(AllPortInjection, GreedyHypercubeIsStableAtRhoSixTenths) {
  const Results r =
      test::run(greedy(6, 0.5, 0.6, "") + "network_interface: {injection: all_port}\n");
  EXPECT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_NEAR(r.link_util_mean, 0.6, 0.01);
}

TEST(SerialInjection, GreedyHypercubeQueuesAtTheSourceAboveThePapersUpperBound) {
  // The serial NI is an extra M/D/1 queue of rate rho / p per node: the mean leaves the bound.
  const Results r = test::run(greedy(6, 0.5, 0.45, ""));
  EXPECT_GT(r.latency.mean, 6 * 0.5 / (1 - 0.45));
}

TEST(ZeroHop, DeliveredLocallyWithDelayZeroAndCounted) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "timing: {alpha: 5, delta: 1, tau: 1}\n"
      "traffic:\n  type: trace\n  self: deliver_locally\n  messages:\n"
      "    - {time: 7, src: 3, dst: 3, flits: 4}\n",
      true);
  ASSERT_EQ(r.packets.size(), 1u);
  EXPECT_EQ(r.packets[0].delivered, 7u);
  EXPECT_EQ(r.latency.count, 1u);
  EXPECT_EQ(r.latency.mean, 0.0);
  EXPECT_EQ(r.packets_zero_hop, 1u);
  EXPECT_EQ(r.flits_delivered, 4u);
}

TEST(ZeroHop, ThroughRouterCostsTheFlitTime) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "timing: {alpha: 5, delta: 1, tau: 1}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 7, src: 3, dst: 3, flits: 4}\n",
      true);
  ASSERT_EQ(r.packets.size(), 1u);
  EXPECT_EQ(r.packets[0].delivered, 7u + 5u + 4u);
  EXPECT_EQ(r.packets_zero_hop, 0u);
}

TEST(ZeroHop, LowFlipProbabilityStaysUnderThePapersUpperBound) {
  // d = 8, p = 0.1: (1 - p)^8 = 43% of the packets are addressed to their source. They count
  // with delay 0, as in the paper's T; through the router each would cost a packet time.
  const double d = 8, p = 0.1, rho = 0.5;
  const Results r = test::run(greedy(8, p, rho, ", self: deliver_locally", 2000) +
                              "network_interface: {injection: all_port}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_LT(r.latency.mean + r.latency.ci95, d * p / (1 - rho));
  EXPECT_NEAR(static_cast<double>(r.packets_zero_hop) / r.packets_injected,
              0.9 * 0.9 * 0.9 * 0.9 * 0.9 * 0.9 * 0.9 * 0.9, 0.01);
}

TEST(InjectionConfig, ModesThatDoNotExistAreErrors) {
  const std::string oq = "router: {buffering: output_queued}\n";
  EXPECT_THROW(test::cfg("network_interface: {injection: all_port}\n"), ConfigError);  // input_vc
  EXPECT_THROW(test::cfg("router: {switching: direct_connect}\n"
                         "network_interface: {injection: serial}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg(oq + "network_interface: {injection: all_port, injection_channels: 2}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("network_interface: {injection_channels: 0}\n"), ConfigError);
  EXPECT_THROW(test::cfg("network_interface: {injection: parallel}\n"), ConfigError);
  EXPECT_EQ(test::cfg("router: {switching: direct_connect}\n").interface.injection,
            Injection::AllPort);
  EXPECT_EQ(test::cfg(oq).interface.injection, Injection::Serial);
}

TEST(ZeroHopConfig, ExcludeOnlyWhereTheSourceCanBeLeftOut) {
  const std::string hc = "topology: {type: hypercube, dim: 4}\n";
  EXPECT_THROW(test::cfg(hc + "traffic: {pattern: bit_flip, self: exclude}\n"), ConfigError);
  EXPECT_THROW(test::cfg("traffic: {pattern: transpose, self: exclude}\n"), ConfigError);
  EXPECT_THROW(test::cfg("traffic: {exclude_self: false}\n"), ConfigError);  // renamed key
  EXPECT_EQ(test::cfg(hc + "traffic: {pattern: bit_flip}\n").traffic.self,
            SelfTraffic::ThroughRouter);
  EXPECT_EQ(test::cfg("traffic: {pattern: uniform}\n").traffic.self, SelfTraffic::Exclude);
  EXPECT_EQ(test::cfg("traffic: {self: deliver_locally}\n").traffic.self,
            SelfTraffic::DeliverLocally);
}

TEST(TotalExchangeTraffic, EveryNodeSendsToEveryOtherAtCycleZero) {
  // 2^4 hypercube, ideal node: every packet delivered once; the routers' own order is not the
  // slot-optimal schedule, so the completion is at least the optimum n/2 = 8 slots.
  const Results r = test::run(
      "topology: {type: hypercube, dim: 4}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {type: total_exchange, packet_flits: 1}\n",
      true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 16u * 15u);
  std::vector<int> pairs(256, 0);
  for (const auto& p : r.packets) ++pairs[static_cast<std::size_t>(p.src * 16 + p.dst)];
  for (int s = 0; s < 16; ++s)
    for (int d = 0; d < 16; ++d) EXPECT_EQ(pairs[static_cast<std::size_t>(s * 16 + d)], s != d);
  EXPECT_GE(r.cycles, 8u);
}

TEST(TotalExchangeTraffic, TakesNoRate) {
  EXPECT_THROW(test::cfg("traffic: {type: total_exchange, rate: 0.1}\n"), ConfigError);
}
