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
