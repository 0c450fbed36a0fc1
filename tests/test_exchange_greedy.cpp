// Greedy isotropic schedules (Varvarigos & Bertsekas §5, §8.3): a seeded random maximal matching
// per slot. Every slot is non-wasting (checked on the plan); on the model the completion lies
// between the optimum h and the bound h_r + h_c - 1, for several seeds and tasks; the same seed
// gives the same schedule.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/greedy.hpp"
#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/schemes/schedules.hpp"

using namespace sy;

namespace {

std::vector<int> cube(int d) {
  return std::vector<int>(static_cast<std::size_t>(d), 2);
}

}  // namespace

TEST(GreedyPlan, EverySlotIsAMaximalMatching) {
  for (const TaskMatrix& t :
       {total_exchange_task(Topology::Kind::Hypercube, cube(5)),
        total_exchange_task(Topology::Kind::Torus, {6, 6}),
        neighbourhood_task(Topology::Kind::Hypercube, cube(6), 2, 4),
        tags_task(Topology::Kind::Torus, {7, 5}, {{3, 2}, {-1, 2}, {2, 0}, {3, 2}})}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      const TaskPlan plan = greedy_plan(t, seed);
      std::vector<std::vector<int>> left = t.rows;
      int slots = 0;
      for (const auto& p : plan) slots = std::max(slots, p.back().first + 1);
      for (int s = 0; s < slots; ++s) {
        std::vector<char> row(static_cast<std::size_t>(t.num_rows())),
            col(static_cast<std::size_t>(t.cols));
        for (int r = 0; r < t.num_rows(); ++r)
          for (const auto& [slot, c] : plan[static_cast<std::size_t>(r)])
            if (slot == s) {
              EXPECT_FALSE(row[static_cast<std::size_t>(r)] || col[static_cast<std::size_t>(c)]);
              row[static_cast<std::size_t>(r)] = col[static_cast<std::size_t>(c)] = 1;
              --left[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
            }
        // Non-wasting: an entry still to clear has its row or its column used this slot.
        for (int r = 0; r < t.num_rows(); ++r)
          for (int c = 0; c < t.cols; ++c) {
            const int after = left[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
            if (after > 0) {
              EXPECT_TRUE(row[static_cast<std::size_t>(r)] || col[static_cast<std::size_t>(c)])
                  << t.name << " seed " << seed << " slot " << s << " row " << r << " col " << c;
            }
          }
      }
      EXPECT_LE(slots, t.max_row() + t.max_col() - 1) << t.name << " seed " << seed;
      EXPECT_GE(slots, t.critical_sum());
    }
  }
}

TEST(GreedyPlan, TheSeedFixesTheSchedule) {
  const TaskMatrix t = total_exchange_task(Topology::Kind::Hypercube, cube(5));
  EXPECT_EQ(greedy_plan(t, 7), greedy_plan(t, 7));
  bool differs = false;
  for (std::uint64_t seed = 2; seed < 6; ++seed)
    differs = differs || greedy_plan(t, seed) != greedy_plan(t, 1);
  EXPECT_TRUE(differs);
}

namespace {

struct Case {
  std::string name, topology, schedule;
  int seed;
};
std::ostream& operator<<(std::ostream& o, const Case& c) {
  return o << c.name << "_seed" << c.seed;
}
}  // namespace

class GreedyOnTheModel : public ::testing::TestWithParam<Case> {};

TEST_P(GreedyOnTheModel, CompletionWithinTheBound) {
  const Case& c = GetParam();
  const std::string y = "topology: " + c.topology +
                        "\nrouter: {buffering: output_queued, switching: store_and_forward}\n"
                        "network_interface: {injection: all_port}\n"
                        "timing: {alpha: 0, delta: 1, tau: 2}\ntraffic: {type: none}\n"
                        "simulation: {seed: " +
                        std::to_string(c.seed) + "}\nschedule: " + c.schedule + "\n";
  const Config cfg = test::cfg(y);
  const TaskMatrix t = exchange_task(cfg);
  const Results r = test::run(y);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  ASSERT_EQ(s.slot_cycles, 5u);
  EXPECT_LE(s.completion, static_cast<Cycle>(t.max_row() + t.max_col() - 1) * 5);
  EXPECT_GE(s.completion, static_cast<Cycle>(t.critical_sum()) * 5);
  EXPECT_EQ(s.formula, (t.max_row() + t.max_col() - 1) * 5.0) << s.formula_text;
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
  EXPECT_EQ(s.duplicates, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Isotropic, GreedyOnTheModel,
    ::testing::Values(
        Case{"Q5", "{type: hypercube, dim: 5}", "{algorithm: greedy, message_flits: 2}", 1},
        Case{"Q5", "{type: hypercube, dim: 5}", "{algorithm: greedy, message_flits: 2}", 2},
        Case{"Q5", "{type: hypercube, dim: 5}", "{algorithm: greedy, message_flits: 2}", 3},
        Case{"Q6", "{type: hypercube, dim: 6}", "{algorithm: greedy, message_flits: 2}", 4},
        Case{"T5x5", "{type: torus, dims: [5, 5]}", "{algorithm: greedy, message_flits: 2}", 1},
        Case{"T5x5", "{type: torus, dims: [5, 5]}", "{algorithm: greedy, message_flits: 2}", 2},
        Case{"T6x6", "{type: torus, dims: [6, 6]}", "{algorithm: greedy, message_flits: 2}", 3},
        Case{"ring10", "{type: torus, dims: [10]}", "{algorithm: greedy, message_flits: 2}", 5},
        Case{"Q6_near2_far4", "{type: hypercube, dim: 6}",
             "{algorithm: greedy, task: neighbourhood, near: 2, far: 4, message_flits: 2}", 6},
        Case{"T7x5_tags", "{type: torus, dims: [7, 5]}",
             "{algorithm: greedy, task: tags, tags: [[3, 2], [-1, 2], [2, 0]], message_flits: 2}",
             7}));
