// Dynamic broadcasting by PMNB periods (traffic.broadcast.scheme pmnb_iii / pmnb_ii) on the
// model: below the theorem's stability limit the run is stable and its mean delay (arrival to
// the end of the packet's period, measured on the model) agrees with the theorem's T within the
// run's confidence interval; above the limit the run is flagged unstable; every broadcast
// reaches every node.
#include <gtest/gtest.h>

#include <cmath>

#include "helpers.hpp"

using namespace sy;

namespace {

std::string yaml(const std::string& scheme, double rho, const std::string& period = "theorem",
                 int L = 4, const std::string& tp = "1") {
  return "topology: {type: hypercube, dim: 4}\n"
         "router: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 0, tau: 1}\n"
         "traffic:\n"
         "  process: poisson\n"
         "  packet_flits: " +
         std::to_string(L) +
         "\n"
         "  broadcast: {scheme: " +
         scheme + ", scan_slots: " + tp + ", period: " + period +
         "}\n"
         "  load: {rho: " +
         std::to_string(rho) +
         ", broadcast_share: 1.0}\n"
         "simulation: {warmup: 4000, measure: 120000, drain_limit: 100000, seed: 3}\n";
}

void expect_theorem(const Results& r) {
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_TRUE(r.find<DynamicPmnbPlugin>());
  const DynamicPmnbResult& p = r.find<DynamicPmnbPlugin>()->result;
  ASSERT_TRUE(p.theorem_stable);
  const double model = p.period_end_delay.mean / p.slot_cycles;
  const double ci = p.period_end_delay.ci95 / p.slot_cycles;
  // Within the 95% interval widened by half a slot: the model's cycles (arrivals stamped to
  // their cycle, periods rounded up to whole cycles) against the theorem's continuous time.
  EXPECT_NEAR(model, p.T, 2 * ci + 0.5) << "model " << model << " +- " << ci << ", theorem " << p.T;
  EXPECT_GT(p.periods, 100u);
  EXPECT_GT(r.find<BroadcastSection>()->broadcasts_done, 1000u);
  // Every broadcast of the window completed: N - 1 receptions each (the stable run drained).
  EXPECT_GE(r.find<BroadcastSection>()->transmissions_per_broadcast, 15.0);
}

std::string error_of(const std::string& y) {
  return test::config_error(y);
}

}  // namespace

TEST(DynamicPmnb, AlgorithmIiiBelowTheLimitAgreesWithTheTheorem) {
  // d = 4, t_p = 1: V = 2d + 4d = 24, X = 1/4, limit 1 / (1 + 24 * 4 / 16) = 0.143.
  const Results r = test::run(yaml("pmnb_iii", 0.08));
  expect_theorem(r);
  EXPECT_NEAR(r.find<DynamicPmnbPlugin>()->result.limit_rho, 1.0 / 7.0, 1e-12);
}

TEST(DynamicPmnb, AlgorithmIiBelowTheLimitAgreesWithTheTheorem) {
  // II: V = 2 d t_p + 2 = 10, X = (N-1)/(N d): limit 1 / (1 + 10 * 4 / 15) = 0.273.
  const Results r = test::run(yaml("pmnb_ii", 0.18));
  expect_theorem(r);
  EXPECT_NEAR(r.find<DynamicPmnbPlugin>()->result.limit_rho, 1.0 / (1.0 + 40.0 / 15.0), 1e-12);
}

TEST(DynamicPmnb, AboveTheLimitTheRunIsFlaggedUnstable) {
  const Results r = test::run(yaml("pmnb_iii", 0.25));
  const DynamicPmnbResult& p = r.find<DynamicPmnbPlugin>()->result;
  EXPECT_FALSE(p.theorem_stable);
  // The theorem has no finite delay there: none is printed beside the model's (not a 0).
  EXPECT_TRUE(std::isinf(p.T) && std::isinf(p.W) && std::isinf(p.T_lo) && std::isinf(p.T_hi));
  EXPECT_GT(p.period_end_delay.mean, 0);
  EXPECT_FALSE(r.stable);
  EXPECT_NE(r.unstable_reason.find("saturation"), std::string::npos) << r.unstable_reason;
}

TEST(DynamicPmnb, ExactPeriodsAreNoSlowerThanTheTheoremsPeriods) {
  // Periods of the schedule's own length f(M) <= V + M X: the delay can only be shorter.
  const Results r = test::run(yaml("pmnb_iii", 0.08, "exact"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const double model = r.find<DynamicPmnbPlugin>()->result.period_end_delay.mean /
                       r.find<DynamicPmnbPlugin>()->result.slot_cycles;
  EXPECT_LT(model, r.find<DynamicPmnbPlugin>()->result.T);
  EXPECT_LT(r.find<DynamicPmnbPlugin>()->result.mean_period_slots,
            r.find<DynamicPmnbPlugin>()->result.V +
                r.find<DynamicPmnbPlugin>()->result.mean_M * r.find<DynamicPmnbPlugin>()->result.X);
}

TEST(DynamicPmnb, HalfSlotScansAgreeWithTheTheorem) {
  // d = 4, t_p = 0.5 (scan steps of 2 flits: the schedule runs on 2-flit slots): V = 2d + 4d t_p
  // = 16, X = 1/4, limit 1 / (1 + 16 * 4 / 16) = 0.2.
  const Results r = test::run(yaml("pmnb_iii", 0.11, "theorem", 4, "0.5"));
  expect_theorem(r);
  EXPECT_EQ(r.find<DynamicPmnbPlugin>()->result.V, 16);
  EXPECT_NEAR(r.find<DynamicPmnbPlugin>()->result.limit_rho, 0.2, 1e-12);
}

TEST(DynamicPmnb, ScanSlotsOfPartFlitsAreRefused) {
  // t_p L = 0.3 * 4 = 1.2 flits.
  const std::string e = error_of(yaml("pmnb_iii", 0.1, "theorem", 4, "0.3"));
  EXPECT_NE(e.find("traffic.broadcast.scan_slots"), std::string::npos) << e;
  EXPECT_NE(e.find("whole flits"), std::string::npos) << e;
  EXPECT_NE(e.find("cfg.yaml:"), std::string::npos) << e;
  std::string delta = yaml("pmnb_iii", 0.1, "theorem", 4, "0.5");
  delta.replace(delta.find("delta: 0"), 8, "delta: 1");
  EXPECT_NE(error_of(delta).find("timing.delta = 0"), std::string::npos) << error_of(delta);
}

TEST(DynamicPmnb, ConfigErrorsNameTheKey) {
  EXPECT_NE(error_of(yaml("pmnb_ii", 0.1, "theorem", 6)).find("traffic.packet_flits"),
            std::string::npos);
  std::string torus = yaml("pmnb_iii", 0.1);
  torus.replace(torus.find("{type: hypercube, dim: 4}"), 25, "{type: torus, dims: [4, 4]}");
  EXPECT_NE(error_of(torus).find("need a hypercube"), std::string::npos) << error_of(torus);
  const std::string star = error_of(yaml("priority_star", 0.1));
  EXPECT_NE(star.find("traffic.broadcast.scan_slots"), std::string::npos) << star;
  EXPECT_NE(star.find("cfg.yaml:"), std::string::npos) << star;
}
