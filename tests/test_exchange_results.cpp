// results.json "exchange": the model's completion (slots), average delay (slots) and link
// utilization (from the links' counters) beside the paper's formulas and bounds, written only
// for the exchange algorithms.
#include <gtest/gtest.h>

#include <cmath>

#include "helpers.hpp"

using namespace sy;

namespace {

std::string yaml(const std::string& topology, const std::string& schedule,
                 const std::string& extra = "") {
  return "topology: " + topology +
         "\nrouter: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 1, tau: 2}\ntraffic: {type: none}\n" +
         extra + "schedule: " + schedule + "\n";
}

}  // namespace

TEST(ExchangeResults, EvenRingByOaddGivesTheModelsNumbersBesideThePapers) {
  std::string out;
  const std::string js = test::cli_results(
      "exchange-ring16", yaml("{type: torus, dims: [16]}", "{algorithm: oadd, message_flits: 2}"),
      &out);
  ASSERT_FALSE(js.empty()) << out;
  // The model's: 36 slots of 5 cycles, D 13.6, the last phase on one link of two: 64 / 72.
  EXPECT_EQ(test::json_number(js, "exchange", "completion_time"), 36);
  EXPECT_EQ(test::json_number(js, "schedule", "completion_time"), 180);
  EXPECT_NEAR(test::json_number(js, "exchange", "average_delay"),
              test::json_number(js, "schedule", "mean_delivery_slots"), 1e-9);
  EXPECT_NEAR(test::json_number(js, "exchange", "average_delay"), 13.6, 1e-9);
  EXPECT_NEAR(test::json_number(js, "exchange", "utilization"), 64.0 / 72.0, 1e-9);
  // The paper's, beside: n(n+2)/8 = 36 and ((n-2)(n-1)n + 6n^2)/(24(n-1)) = 13.6.
  EXPECT_EQ(test::json_number(js, "exchange", "completion_formula"), 36);
  EXPECT_NEAR(test::json_number(js, "exchange", "average_delay_formula"), 13.6, 1e-9);
  EXPECT_GT(test::json_number(js, "exchange", "average_delay_lower_bound"), 0);
}

TEST(ExchangeResults, GreedyCompletionIsMeasuredNotItsBound) {
  // A greedy schedule on Q6 (h_r + h_c - 1 = 37): the completion reported is the model's, which
  // is below the bound, and the delay has no paper formula: the SPT bound is given instead.
  std::string out;
  const std::string js =
      test::cli_results("exchange-greedy",
                        yaml("{type: hypercube, dim: 6}", "{algorithm: greedy, message_flits: 2}",
                             "simulation: {seed: 3}\n"),
                        &out);
  ASSERT_FALSE(js.empty()) << out;
  const double done = test::json_number(js, "exchange", "completion_time");
  EXPECT_EQ(test::json_number(js, "exchange", "completion_formula"), 37);
  EXPECT_GE(done, 32);
  EXPECT_LE(done, 37);
  EXPECT_EQ(done, std::ceil(test::json_number(js, "schedule", "completion_time") / 5));
  EXPECT_EQ(js.find("average_delay_formula\""), std::string::npos);
  EXPECT_GE(test::json_number(js, "exchange", "average_delay"),
            test::json_number(js, "exchange", "average_delay_lower_bound") - 1e-9);
}

TEST(ExchangeResults, OnlyForTheExchangeAlgorithms) {
  std::string out;
  const std::string js = test::cli_results(
      "exchange-none", yaml("{type: hypercube, dim: 3}", "{algorithm: mnb, message_flits: 2}"),
      &out);
  ASSERT_FALSE(js.empty()) << out;
  EXPECT_EQ(js.find("\"exchange\""), std::string::npos);
  EXPECT_NE(js.find("\"schedule\""), std::string::npos);
}
