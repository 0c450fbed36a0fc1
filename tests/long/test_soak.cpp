// Long soak runs (CTest label "long"; not in the default suite):  ctest --test-dir build -L long
#include <gtest/gtest.h>

#include "helpers.hpp"

using namespace sy;

TEST(Soak, TorusWormholeTwoMillionCyclesAboveSaturation) {
  const Results r = test::run(
      "topology: {type: torus, dims: [8, 8]}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
      "traffic: {process: poisson, rate: 0.6, packet_flits: 8, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 2000000, deadlock_cycles: 2000}\n");
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_GE(r.cycles, 2000000u);
  EXPECT_LT(r.max_flit_wait, 2000u);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
}

TEST(Soak, HypercubeOutputQueuedNearSaturationStaysStable) {
  const Results r = test::run(
      "topology: {type: hypercube, dim: 8}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {process: poisson, rate: 0.3, rate_unit: packets, packet_flits: 1, pattern: "
      "bit_flip}\n"
      "simulation: {warmup: 20000, measure: 500000}\n");
  EXPECT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_NEAR(r.link_util_mean, r.rho, 0.02);
}

// Greedy routing near saturation: long windows, the paper's bounds (Stamoulis & Tsitsiklis).
namespace {
std::string greedy_long(const std::string& topology, double p, double rho, int measure) {
  return "topology: " + topology +
         "\nrouter: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 0, tau: 1}\n"
         "traffic: {process: poisson, packet_flits: 1, pattern: bit_flip, bit_flip_probability: " +
         std::to_string(p) + ", load: {rho: " + std::to_string(rho) + "}" +
         (topology.find("hypercube") != std::string::npos ? ", self: deliver_locally" : "") +
         "}\nsimulation: {warmup: " + std::to_string(measure / 10) +
         ", measure: " + std::to_string(measure) + ", drain_limit: 1000000, batches: 30}\n";
}
}  // namespace

TEST(Soak, GreedyHypercubeAtRhoNinetyFiveWithinTheBounds) {
  const Results r = test::run(greedy_long("{type: hypercube, dim: 7}", 0.5, 0.95, 400000));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_TRUE(r.has_greedy);
  const double T = r.latency.mean / r.packet_time, ci = r.latency.ci95 / r.packet_time;
  EXPECT_GT(T + ci, r.greedy.lower);
  EXPECT_LT(T - ci, r.greedy.upper);
  EXPECT_NEAR(r.link_classes[0].sojourn / r.packet_time, r.greedy.md1_first,
              0.1 * r.greedy.md1_first);
}

TEST(Soak, GreedyButterflyPOneExactAtRhoNinety) {
  const Results r = test::run(greedy_long("{type: butterfly, k: 2, n: 8}", 1.0, 0.9, 200000));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const double T = r.latency.mean / r.packet_time, ci = r.latency.ci95 / r.packet_time;
  EXPECT_NEAR(T, r.greedy.exact, 2 * ci + 0.02);
}
