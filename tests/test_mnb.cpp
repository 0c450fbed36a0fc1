// The new MNB of the PMNB paper (algorithm III with M = N) as a slot schedule: valid (no link
// twice in a slot, every node every packet, returns to the source and the packing relays
// counted apart), equal to the paper's exact phase sum and under its bound; on the model the
// completion is that sum to the cycle.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "schemes/pmnb/mnb.hpp"

using namespace sy;

TEST(MnbSchedule, ValidExactPhaseSumUnderTheBound) {
  for (int d = 2; d <= 10; ++d) {
    const Schedule s = mnb_schedule(d, 1);
    const ScheduleCheck r = check(s);
    ASSERT_TRUE(r.ok) << "d = " << d << ": " << r.errors.front();
    EXPECT_EQ(s.phases, mnb_exact(d)) << d;
    EXPECT_LE(s.phases, mnb_bound(d)) << d;
    EXPECT_GE(s.phases, mnb_lower_bound(d)) << d;
    EXPECT_GT(r.returns, 0) << d;
    // Packing: every packing hop falls in the first d slots.
    for (const Transmission& t : s.transmissions) EXPECT_EQ(t.path.size(), 1u);
  }
  EXPECT_THROW(mnb_schedule(1, 1), UnsupportedSchedule);
}

class MnbOnTheModel : public ::testing::TestWithParam<int> {};

TEST_P(MnbOnTheModel, CompletionIsTheExactPhaseSumToTheCycle) {
  const int d = GetParam();
  // 2-flit packets, delta = 1, tau = 2: a slot is 5 cycles.
  const Results r = test::run("topology: {type: hypercube, dim: " + std::to_string(d) +
                              "}\n"
                              "router: {buffering: output_queued, switching: store_and_forward}\n"
                              "network_interface: {injection: all_port}\n"
                              "timing: {alpha: 0, delta: 1, tau: 2}\n"
                              "traffic: {type: none}\n"
                              "schedule: {algorithm: mnb, message_flits: 2}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(static_cast<double>(r.schedule.completion), mnb_exact(d) * 5);
  EXPECT_EQ(r.schedule.nodes_informed, 1 << d);
  EXPECT_EQ(r.schedule.duplicates, 0u);
}

INSTANTIATE_TEST_SUITE_P(Mnb, MnbOnTheModel, ::testing::Values(3, 4, 5, 6, 7, 8));
