// OADD (Varvarigos & Bertsekas §6, §8.5): total exchange with optimal completion and optimal
// average delay. On the model, the completion is the paper's closed form to the cycle and the
// average delay (mean over the n(n-1) packets of their arrival slot) equals §6.2's D_TE on
// hypercubes with d prime, §8.5's on rings, and the SPT lower bound (optimal, Theorem 6) on
// 2-D tori with p odd. Sizes with no construction are refused with the sizes there are.
#include <gtest/gtest.h>

#include <cmath>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/closed_forms.hpp"
#include "switchyard/schemes/exchange/oadd.hpp"
#include "switchyard/schemes/exchange/octr.hpp"
#include "switchyard/schemes/exchange/task.hpp"

using namespace sy;

namespace {

struct Case {
  std::string name, topology;
  Topology::Kind kind;
  std::vector<int> dims;
};
std::ostream& operator<<(std::ostream& o, const Case& c) {
  return o << c.name;
}

std::string yaml(const Case& c, const std::string& algorithm) {
  return "topology: " + c.topology +
         "\nrouter: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 1, tau: 2}\ntraffic: {type: none}\n"
         "schedule: {algorithm: " +
         algorithm + ", message_flits: 2}\n";
}

// The paper's optimum D for the size: its closed form, or the SPT bound where OADD is optimal
// by Theorem 6 with no closed form (2-D tori, p odd).
double optimal_delay(const Case& c) {
  const double f = te_delay_formula(c.kind, c.dims);
  if (f >= 0) return f;
  const TaskMatrix t = total_exchange_task(c.kind, c.dims);
  return spt_delay_bound(t, t.cols);
}

}  // namespace

TEST(OaddFormulas, TheSumAndThePrintedClosedFormAgreeForDPrime) {
  for (int d : {2, 3, 5, 7, 11})
    EXPECT_NEAR(hypercube_te_delay(d), hypercube_te_delay_printed(d), 1e-9) << "d = " << d;
  EXPECT_NEAR(hypercube_te_delay(3), 18.0 / 7, 1e-12);  // 3 x 1 + 3 x 3 + 4 = 18 over 7
}

TEST(OaddFormulas, TheFormulaIsTheSptLowerBound) {
  // Theorem 6: shortest paths, every link busy and OADD: D is the auxiliary problem's optimum.
  for (int d : {2, 3, 5, 7}) {
    const TaskMatrix t = total_exchange_task(Topology::Kind::Hypercube, std::vector<int>(d, 2));
    EXPECT_NEAR(spt_delay_bound(t, d), hypercube_te_delay(d), 1e-9) << "d = " << d;
  }
  for (int n : {5, 9, 10, 16}) {
    const TaskMatrix t = total_exchange_task(Topology::Kind::Torus, {n});
    EXPECT_NEAR(spt_delay_bound(t, 2), ring_te_delay(n), 1e-9) << "ring " << n;
  }
}

TEST(OaddConstruction, RefusesSizesWithNoConstructionNamingTheSupportedOnes) {
  for (const auto& [kind, dims] : std::vector<std::pair<Topology::Kind, std::vector<int>>>{
           {Topology::Kind::Hypercube, {2, 2, 2, 2}},
           {Topology::Kind::Torus, {4, 4}},
           {Topology::Kind::Torus, {3, 3, 3}}}) {
    try {
      oadd_schedule(kind, dims, 1);
      ADD_FAILURE() << size_name(dims) << " accepted";
    } catch (const UnsupportedSchedule& e) {
      EXPECT_NE(std::string(e.what()).find("d prime"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find(size_name(dims)), std::string::npos);
    }
  }
  EXPECT_THROW(test::cfg("topology: {type: hypercube, dim: 4}\ntraffic: {type: none}\n"
                         "router: {buffering: output_queued}\ntiming: {alpha: 0}\n"
                         "schedule: {algorithm: oadd}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: hypercube, dim: 3}\ntraffic: {type: none}\n"
                         "router: {buffering: output_queued}\ntiming: {alpha: 0}\n"
                         "schedule: {algorithm: oadd, task: neighbourhood}\n"),
               ConfigError);
}

TEST(OaddConstruction, NoPacketWaitsWhileAFartherOneIsSent) {
  // OADD, checked on the plan: in every slot (before the last d slots of the hypercube, where
  // 11...1 starts with the weight d - 1 class), the rows sent are no farther than any row still
  // waiting (by remaining distance).
  for (int d : {3, 5, 7}) {
    const TaskMatrix t = total_exchange_task(Topology::Kind::Hypercube, std::vector<int>(d, 2));
    const TaskPlan plan = oadd_plan(t);
    const int slots = (1 << d) / 2;
    for (int s = 0; s < slots - d; ++s) {
      int sent_max = 0, waiting_min = 1 << 30;
      for (int r = 0; r < t.num_rows(); ++r) {
        int left = 0;
        bool sent = false;
        for (const auto& [slot, col] : plan[static_cast<std::size_t>(r)]) {
          left += slot >= s;
          sent = sent || slot == s;
        }
        if (left == 0) continue;
        if (sent)
          sent_max = std::max(sent_max, left);
        else
          waiting_min = std::min(waiting_min, left);
      }
      EXPECT_LE(sent_max, waiting_min) << "d = " << d << ", slot " << s;
    }
  }
}

class OaddOnTheModel : public ::testing::TestWithParam<Case> {};

TEST_P(OaddOnTheModel, CompletionAndAverageDelayAreThePapersOptimum) {
  const Case& c = GetParam();
  const Results r = test::run(yaml(c, "oadd"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  ASSERT_EQ(s.slot_cycles, 5u);
  EXPECT_EQ(static_cast<double>(s.completion), total_exchange_formula(c.kind, c.dims) * 5);
  EXPECT_NEAR(s.mean_delivery_slots, optimal_delay(c), 1e-9);
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
  EXPECT_EQ(s.duplicates, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    TotalExchange, OaddOnTheModel,
    ::testing::Values(
        Case{"Q2", "{type: hypercube, dim: 2}", Topology::Kind::Hypercube, {2, 2}},
        Case{"Q3", "{type: hypercube, dim: 3}", Topology::Kind::Hypercube, {2, 2, 2}},
        Case{"Q5", "{type: hypercube, dim: 5}", Topology::Kind::Hypercube, {2, 2, 2, 2, 2}},
        Case{"Q7", "{type: hypercube, dim: 7}", Topology::Kind::Hypercube, {2, 2, 2, 2, 2, 2, 2}},
        Case{"T3x3", "{type: torus, dims: [3, 3]}", Topology::Kind::Torus, {3, 3}},
        Case{"T5x5", "{type: torus, dims: [5, 5]}", Topology::Kind::Torus, {5, 5}},
        Case{"T7x7", "{type: torus, dims: [7, 7]}", Topology::Kind::Torus, {7, 7}},
        Case{"ring9", "{type: torus, dims: [9]}", Topology::Kind::Torus, {9}},
        Case{"ring10", "{type: torus, dims: [10]}", Topology::Kind::Torus, {10}},
        Case{"ring16", "{type: torus, dims: [16]}", Topology::Kind::Torus, {16}}));

// OCTR alone is optimal in completion but not in delay: the same sizes, D above the optimum
// (or equal), never below — the SPT bound holds for any schedule.
class OctrDelayOnTheModel : public ::testing::TestWithParam<Case> {};

TEST_P(OctrDelayOnTheModel, AverageDelayIsNotBelowTheOptimum) {
  const Case& c = GetParam();
  const Results r = test::run(yaml(c, "octr"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(static_cast<double>(r.find<SchedulePlugin>()->result.completion),
            total_exchange_formula(c.kind, c.dims) * 5);
  EXPECT_GE(r.find<SchedulePlugin>()->result.mean_delivery_slots, optimal_delay(c) - 1e-9);
}

INSTANTIATE_TEST_SUITE_P(
    TotalExchange, OctrDelayOnTheModel,
    ::testing::Values(
        Case{"Q5", "{type: hypercube, dim: 5}", Topology::Kind::Hypercube, {2, 2, 2, 2, 2}},
        Case{"T7x7", "{type: torus, dims: [7, 7]}", Topology::Kind::Torus, {7, 7}}));
