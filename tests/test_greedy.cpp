// Greedy routing on hypercubes and butterflies (Stamoulis & Tsitsiklis) on the model: exact
// cases within the confidence interval, the bounds, per-arc loads, and the first arcs as M/D/1
// queues. The paper's ideal model: output-queued store-and-forward, all-port injection, unit
// packets (one packet time = S cycles), Poisson arrivals, bit_flip destinations.
#include <gtest/gtest.h>

#include <sstream>

#include "helpers.hpp"
#include "switchyard/schemes/greedy/greedy.hpp"

using namespace sy;

namespace {

std::string greedy(const std::string& topology, double p, double rho, int S = 1,
                   int measure = 40000) {
  std::ostringstream y;
  y << "topology: " << topology << "\n"
    << "router: {buffering: output_queued, switching: store_and_forward}\n"
    << "network_interface: {injection: all_port}\n"
    << "timing: {alpha: 0, delta: 0, tau: " << S << "}\n"
    << "traffic: {process: poisson, packet_flits: 1, pattern: bit_flip, bit_flip_probability: " << p
    << ",\n          load: {rho: " << rho << "}"
    << (topology.find("hypercube") != std::string::npos ? ", self: deliver_locally" : "") << "}\n"
    << "simulation: {warmup: " << measure / 8 * S << ", measure: " << measure * S
    << ", seed: 11}\n";
  return y.str();
}

double T(const Results& r) {
  return r.latency.mean / r.packet_time;
}
double ci(const Results& r) {
  return r.latency.ci95 / r.packet_time;
}

}  // namespace

TEST(GreedyBounds, ClosedForms) {
  const GreedyBounds h = greedy_bounds(false, 6, 0.5, 0.9, 1.0);  // rho = 0.45
  EXPECT_NEAR(h.rho, 0.45, 1e-12);
  EXPECT_NEAR(h.lower, 3 + 0.5 * 0.45 / 1.1, 1e-12);
  EXPECT_NEAR(h.upper, 3 / 0.55, 1e-12);
  EXPECT_FALSE(h.exact_known);
  const GreedyBounds one = greedy_bounds(false, 4, 1.0, 0.5, 0.25);
  EXPECT_TRUE(one.exact_known);
  EXPECT_NEAR(one.exact, 4.5, 1e-12);
  EXPECT_NEAR(one.lower, one.exact, 1e-12);  // the lower bound is exact at p = 1
  EXPECT_NEAR(one.slotted_upper, one.upper + 0.25, 1e-12);
  const GreedyBounds b = greedy_bounds(true, 5, 0.25, 0.8, 1.0);
  EXPECT_NEAR(b.rho, 0.6, 1e-12);
  EXPECT_NEAR(b.lower, 5 + 0.25 * 0.2 / 1.6 + 0.75 * 0.6 / 0.8, 1e-12);
  EXPECT_NEAR(b.upper, 5 * 0.25 / 0.8 + 5 * 0.75 / 0.4, 1e-12);
  EXPECT_NEAR(md1_sojourn(0.5), 1.5, 1e-12);
}

TEST(GreedyHypercube, ExactAtPOneWithinTheConfidenceInterval) {
  const Results r = test::run(greedy("{type: hypercube, dim: 4}", 1.0, 0.6));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_TRUE(r.find<GreedyPlugin>());
  EXPECT_TRUE(r.find<GreedyPlugin>()->ideal);
  EXPECT_NEAR(T(r), 4 + 0.6 / (2 * 0.4), 2 * ci(r) + 0.01);
}

class GreedyBoundsHold : public ::testing::TestWithParam<std::tuple<int, double, double>> {};

TEST_P(GreedyBoundsHold, HypercubeMeanDelayBetweenThePapersBounds) {
  const auto [d, p, rho] = GetParam();
  const Results r = test::run(greedy("{type: hypercube, dim: " + std::to_string(d) + "}", p, rho, 1,
                                     d >= 8 ? 4000 : 40000));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_GT(T(r) + ci(r), r.find<GreedyPlugin>()->bounds.lower);
  EXPECT_LT(T(r) - ci(r), r.find<GreedyPlugin>()->bounds.slotted_upper);
  // Every arc carries rho (Prop. 5), dimension by dimension.
  for (double u : r.link_util_by_dim) EXPECT_NEAR(u, rho, 0.02);
}

INSTANTIATE_TEST_SUITE_P(Greedy, GreedyBoundsHold,
                         ::testing::Values(std::make_tuple(4, 0.25, 0.5),
                                           std::make_tuple(6, 0.5, 0.8),
                                           std::make_tuple(6, 0.75, 0.3),
                                           std::make_tuple(8, 0.1, 0.5)));

TEST(GreedyHypercube, FirstDimensionArcsAreMD1Queues) {
  // The dimension-0 arcs see only external Poisson arrivals: sojourn 1 + rho/(2(1 - rho)).
  // With S = 4 cycles per packet time the arrivals are floored to the cycle (the paper's
  // slotted variant with slot 1/4), whose first-level mean equals M/D/1's (notes §4).
  const Results r = test::run(greedy("{type: hypercube, dim: 5}", 0.5, 0.7, 4, 30000));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_FALSE(r.link_classes.empty());
  EXPECT_NEAR(r.link_classes[0].sojourn / r.packet_time, md1_sojourn(0.7), 0.03);
  // Little: time-averaged packets at an arc = arrival rate x sojourn.
  EXPECT_NEAR(r.link_classes[0].queue, 0.7 * md1_sojourn(0.7), 0.04);
}

class GreedyButterflyExact : public ::testing::TestWithParam<double> {};

TEST_P(GreedyButterflyExact, PZeroAndPOneTakeTheLowerBound) {
  // p in {0, 1}: every packet goes straight (or always vertical); only the first arc queues.
  const Results r = test::run(greedy("{type: butterfly, k: 2, n: 5}", GetParam(), 0.7));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_TRUE(r.find<GreedyPlugin>()->bounds.exact_known);
  EXPECT_NEAR(r.find<GreedyPlugin>()->bounds.exact, 5 + 0.7 / 0.6, 1e-12);
  EXPECT_NEAR(T(r), r.find<GreedyPlugin>()->bounds.exact, 2 * ci(r) + 0.01);
  // Every packet makes n hops (those still in flight at the end: fewer so far).
  EXPECT_GE(r.flit_hops, 5 * r.packets_delivered);
  EXPECT_LE(r.flit_hops, 5 * r.packets_injected);
}

INSTANTIATE_TEST_SUITE_P(Greedy, GreedyButterflyExact, ::testing::Values(0.0, 1.0));

TEST(GreedyButterfly, BoundsHoldAndLevelZeroArcsAreMD1) {
  const Results r = test::run(greedy("{type: butterfly, k: 2, n: 6}", 0.3, 0.8));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_GT(T(r) + ci(r), r.find<GreedyPlugin>()->bounds.lower);
  EXPECT_LT(T(r) - ci(r), r.find<GreedyPlugin>()->bounds.upper);
  ASSERT_GE(r.link_classes.size(), 2u);
  EXPECT_NEAR(r.link_classes[0].sojourn, r.find<GreedyPlugin>()->bounds.md1_first_straight, 0.03);
  EXPECT_NEAR(r.link_classes[1].sojourn, r.find<GreedyPlugin>()->bounds.md1_first_vertical, 0.03);
  // Straight arcs carry lambda (1 - p) = 0.8, vertical ones lambda p = 0.8 * 0.3 / 0.7.
  EXPECT_NEAR(r.link_classes[0].utilization, 0.8, 0.01);
  EXPECT_NEAR(r.link_classes[1].utilization, 0.8 * 0.3 / 0.7, 0.01);
}

TEST(GreedyStability, RhoAtOneIsFlaggedUnstable) {
  const Results r = test::run(greedy("{type: hypercube, dim: 5}", 0.5, 1.05, 1, 20000));
  EXPECT_FALSE(r.stable);
}
