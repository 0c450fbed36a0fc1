// Greedy routing on hypercubes and butterflies (Stamoulis & Tsitsiklis) on the model: exact
// cases within the confidence interval, the bounds, per-arc loads, and the first arcs as M/D/1
// queues. The paper's ideal model: output-queued store-and-forward, all-port injection, unit
// packets (one packet time = S cycles), Poisson arrivals, bit_flip destinations.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <tuple>

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

TEST(GreedyBounds, PropositionsTwoThreeElevenFourteenClosedForms) {
  // Hypercube d = 6, p = 1/2, lambda = 0.9 (rho = 0.45): both lower bounds are dp = 3, since
  // p (1 + rho/(2^7 * 0.55)) = 0.5032 and p (1 + 0.45/1.1) = 0.7045; N <= 6 * 64 * 0.45/0.55.
  const GreedyBounds h = greedy_bounds(false, 6, 0.5, 0.9, 1.0);
  EXPECT_NEAR(h.prop2_lower_any, 3.0, 1e-12);
  EXPECT_NEAR(h.prop3_lower_oblivious, 3.0, 1e-12);
  EXPECT_NEAR(h.packets_bound, 314.181818181818, 1e-9);
  EXPECT_NEAR(h.packets_slotted_bound, 314.181818181818 + 0.9 * 64, 1e-9);
  EXPECT_EQ(h.prop14_lower_any, 0.0);  // a butterfly bound
  // d = 2, p = 1/4, lambda = 3.6 (rho = 0.9): the queueing terms win. Prop. 2:
  // 0.25 (1 + 0.9/(8 * 0.1)) = 0.53125 > dp = 0.5; Prop. 3: 0.25 (1 + 0.9/0.2) = 1.375; both
  // below Prop. 13's 0.5 + 0.25 * 4.5 = 1.625. N <= 2 * 4 * 9 = 72, slotted (S = 4) + 3.6.
  const GreedyBounds q = greedy_bounds(false, 2, 0.25, 3.6, 0.25);
  EXPECT_NEAR(q.prop2_lower_any, 0.53125, 1e-12);
  EXPECT_NEAR(q.prop3_lower_oblivious, 1.375, 1e-12);
  EXPECT_NEAR(q.lower, 1.625, 1e-12);
  EXPECT_NEAR(q.packets_bound, 72, 1e-9);
  EXPECT_NEAR(q.packets_slotted_bound, 75.6, 1e-9);
  // Butterfly d = 5, p = 1/4, lambda = 0.8: arcs at 0.2 (vertical) and 0.6 (straight).
  // Prop. 14: 5 + 0.25 * 0.2/1.6 + 0.75 * 0.6/0.8 = 5.59375; N <= 5 * 32 (0.25 + 1.5) = 280.
  const GreedyBounds b = greedy_bounds(true, 5, 0.25, 0.8, 1.0);
  EXPECT_NEAR(b.prop14_lower_any, 5.59375, 1e-12);
  EXPECT_NEAR(b.packets_bound, 280, 1e-9);
  EXPECT_NEAR(b.packets_slotted_bound, 280 + 0.8 * 32, 1e-9);
  EXPECT_EQ(b.prop2_lower_any, 0.0);
  EXPECT_EQ(b.prop3_lower_oblivious, 0.0);
  // p = 0 on the butterfly: the vertical arcs carry nothing, N <= d 2^d lambda/(1 - lambda).
  EXPECT_NEAR(greedy_bounds(true, 3, 0.0, 0.5, 1.0).packets_bound, 24, 1e-12);
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

// The model's T against every lower bound that applies to it (greedy routing is oblivious:
// Props. 2, 3 and 13 on the hypercube, 14 on the butterfly) and its mean number of packets in
// the network against the PS network's mean (Props. 11-12; butterfly: Prop. 17, eqs. 20-21). The
// lower bounds are exact numbers, the model's T an estimate: T + 2 CI (about 4 standard errors of
// the 20 batch means) must reach them. The model's arrivals are floored to the cycle, the paper's
// slotted variant (section 3.4), so N is held to the slotted bound (one slot's arrivals more);
// N has no CI of its own, so it gets the CI of T scaled by Little's law, lambda 2^d 2 CI. The
// arcs' time average and Little's law on the whole network estimate the same N: they must agree
// within that tolerance plus 1% (packets in an arc across the window's edges).
class GreedyPropositions
    : public ::testing::TestWithParam<std::tuple<std::string, double, double, int>> {};

TEST_P(GreedyPropositions, TAboveTheLowerBoundsAndPacketsBelowThePSNetwork) {
  const auto [topology, p, rho, measure] = GetParam();
  const Results r = test::run(greedy(topology, p, rho, 1, measure));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const GreedyPlugin* g = r.find<GreedyPlugin>();
  ASSERT_TRUE(g);
  ASSERT_TRUE(g->ideal);
  const GreedyBounds& b = g->bounds;
  const double reach = T(r) + 2 * ci(r);
  if (b.butterfly) {
    EXPECT_GT(reach, b.prop14_lower_any);
  } else {
    EXPECT_GT(reach, b.prop2_lower_any);
    EXPECT_GT(reach, b.prop3_lower_oblivious);
    EXPECT_GE(b.prop3_lower_oblivious, b.prop2_lower_any);  // oblivious schemes: never below
    EXPECT_GE(b.lower, b.prop3_lower_oblivious);  // Prop. 13 "sharper by a factor of at most 2"
    EXPECT_LE(b.lower, 2 * b.prop3_lower_oblivious);
  }
  const double scale = b.lambda * std::ldexp(1.0, b.d);  // packets per packet time, all sources
  const double tol = scale * 2 * ci(r);
  ASSERT_GE(g->N_arcs, 0);
  EXPECT_NEAR(g->N_little, scale * T(r), 1e-9 * g->N_little);
  EXPECT_NEAR(g->N_arcs, g->N_little, tol + 0.01 * g->N_little);
  EXPECT_LT(g->N_arcs - tol, b.packets_slotted_bound);
  EXPECT_LT(g->N_little - tol, b.packets_slotted_bound);
}

INSTANTIATE_TEST_SUITE_P(
    Greedy, GreedyPropositions,
    ::testing::Values(std::make_tuple("{type: hypercube, dim: 4}", 0.5, 0.7, 20000),
                      // Prop. 3's queueing term above dp: p (1 + rho/(2(1 - rho))) > dp.
                      std::make_tuple("{type: hypercube, dim: 2}", 0.25, 0.9, 40000),
                      std::make_tuple("{type: butterfly, k: 2, n: 4}", 0.3, 0.8, 20000)),
    [](const auto& info) {
      const std::string& t = std::get<0>(info.param);
      const std::string net = t.find("hypercube") != std::string::npos ? "hypercube" : "butterfly";
      return net + std::string(1, t[t.size() - 2]) + "_p" +
             std::to_string(static_cast<int>(std::get<1>(info.param) * 100)) + "_rho" +
             std::to_string(static_cast<int>(std::get<2>(info.param) * 100));
    });
