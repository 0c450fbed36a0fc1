// Isotropic tasks (Varvarigos & Bertsekas): the task matrices of total exchange, of the (K, L)
// neighbourhood exchange and of a user's tags; OCTR of any of them runs on the model in exactly
// the critical sum h of its task matrix (Theorem 5), and the paper's §4.1 closed form for the
// neighbourhood exchange.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/closed_forms.hpp"
#include "switchyard/schemes/exchange/octr.hpp"
#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/schemes/schedules.hpp"

using namespace sy;

namespace {

const Topology::Kind kCube = Topology::Kind::Hypercube, kTorus = Topology::Kind::Torus;

std::vector<int> cube(int d) {
  return std::vector<int>(static_cast<std::size_t>(d), 2);
}

// An exchange run on the paper's slotted model: 2-flit packets, delta 1, tau 2 (5-cycle slots).
std::string run_yaml(const std::string& topology, const std::string& schedule) {
  return "topology: " + topology +
         "\nrouter: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 1, tau: 2}\ntraffic: {type: none}\n"
         "schedule: " +
         schedule + "\n";
}

}  // namespace

TEST(TaskMatrix, TotalExchangeOnTheThreeCubeIsFigureOne) {
  const TaskMatrix t = total_exchange_task(kCube, cube(3));
  ASSERT_EQ(t.num_rows(), 7);
  ASSERT_EQ(t.cols, 3);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(t.col_sum(c), 4);  // n/2
  EXPECT_EQ(t.max_row(), 3);
  EXPECT_EQ(t.critical_sum(), 4);
  EXPECT_EQ(t.total(), 12);  // n d / 2
}

TEST(TaskMatrix, TotalExchangeOnTheFourByFourTorusIsFigureSix) {
  // Every column of Fig. 6 sums to 8 = p n / 8; the antipodal split is balanced.
  const TaskMatrix t = total_exchange_task(kTorus, {4, 4});
  ASSERT_EQ(t.num_rows(), 15);
  ASSERT_EQ(t.cols, 4);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(t.col_sum(c), 8) << t.column_name(c);
  EXPECT_EQ(t.max_row(), 4);
}

TEST(TaskMatrix, NeighbourhoodKeepsTheDistancesAsked) {
  const TaskMatrix t = neighbourhood_task(kCube, cube(5), 2, 3);
  EXPECT_EQ(t.num_rows(), 20);  // C(5,2) + C(5,3)
  for (int r = 0; r < t.num_rows(); ++r) {
    EXPECT_GE(t.row_sum(r), 2);
    EXPECT_LE(t.row_sum(r), 3);
  }
  EXPECT_EQ(t.critical_sum(), 10);
  EXPECT_EQ(neighbourhood_formula(5, 2, 3), 10);
  EXPECT_EQ(neighbourhood_formula(5, 4, 5), 5);  // max{L, 1 + 4} : the row bound
  const TaskMatrix far = neighbourhood_task(kCube, cube(5), 5, 5);
  EXPECT_EQ(far.critical_sum(), 5);  // one row 11111: the row is critical
  const TaskMatrix ring = neighbourhood_task(kTorus, {9}, 2, 3);
  EXPECT_EQ(ring.num_rows(), 4);
  EXPECT_THROW(neighbourhood_task(kCube, cube(3), 3, 2), UnsupportedSchedule);
}

TEST(TaskMatrix, TagsGiveTheirRowsAndTheAntipodalWayAsked) {
  const TaskMatrix c = tags_task(kCube, cube(4), {{1}, {6}, {15}, {6}});
  ASSERT_EQ(c.num_rows(), 4);
  EXPECT_EQ(c.rows[1], (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(c.col_sum(1), 3);
  const TaskMatrix t = tags_task(kTorus, {6, 5}, {{3, 0}, {-3, 1}, {1, -2}, {-5, 0}});
  EXPECT_EQ(t.rows[0], (std::vector<int>{3, 0, 0, 0}));  // +p/2 goes +
  EXPECT_EQ(t.rows[1], (std::vector<int>{0, 3, 1, 0}));  // -p/2 goes -
  EXPECT_EQ(t.rows[2], (std::vector<int>{1, 0, 0, 2}));
  EXPECT_EQ(t.rows[3], (std::vector<int>{1, 0, 0, 0}));  // -5 = +1 round a ring of 6
  EXPECT_THROW(tags_task(kCube, cube(3), {{8}}), UnsupportedSchedule);
  EXPECT_THROW(tags_task(kTorus, {5, 5}, {{5, 0}}), UnsupportedSchedule);
}

TEST(TaskMatrix, OctrClearsAnyTaskInItsCriticalSum) {
  for (const TaskMatrix& t :
       {neighbourhood_task(kCube, cube(6), 2, 4),
        tags_task(kTorus, {7, 5}, {{3, 2}, {-1, 2}, {2, 0}}),
        neighbourhood_task(kTorus, {6, 6, 6}, 2, 5), total_exchange_task(kTorus, {8, 8})}) {
    const Schedule s = octr_schedule(t, 1);
    const ScheduleCheck r = check(s);
    ASSERT_TRUE(r.ok) << t.name << ": " << r.errors.front();
    EXPECT_EQ(s.phases, t.critical_sum()) << t.name;
  }
}

TEST(TaskMatrix, PlanNotClearingItsRowIsRefused) {
  const TaskMatrix t = tags_task(kCube, cube(3), {{3}});
  EXPECT_THROW(task_schedule(t, {{{0, 0}}}, 1, "x", ""), std::logic_error);
  EXPECT_THROW(task_schedule(t, {{{1, 0}, {0, 1}}}, 1, "x", ""), std::logic_error);
}

// On the model: OCTR of a neighbourhood exchange and of a user's tags, completion = h slots.
namespace {

struct ModelCase {
  std::string name, topology, schedule;
  double slots;  // the paper's formula (independent of the construction)
};
std::ostream& operator<<(std::ostream& o, const ModelCase& c) {
  return o << c.name;
}
}  // namespace

class OctrOnTheModel : public ::testing::TestWithParam<ModelCase> {};

TEST_P(OctrOnTheModel, CompletionIsTheFormulaToTheCycle) {
  const ModelCase& c = GetParam();
  const Results r = test::run(run_yaml(c.topology, c.schedule));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  ASSERT_EQ(s.slot_cycles, 5u);
  EXPECT_EQ(static_cast<double>(s.completion), c.slots * 5);
  EXPECT_EQ(s.formula, c.slots * 5) << s.formula_text;
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
  EXPECT_EQ(s.duplicates, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Isotropic, OctrOnTheModel,
    ::testing::Values(
        // §4.1: max{L, sum C(d,i) i / d}: (2,3) on Q5 = 10, (4,5) on Q5 = 5, (1,2) on Q6 = 6.
        ModelCase{"Q5_near2_far3", "{type: hypercube, dim: 5}",
                  "{algorithm: octr, task: neighbourhood, near: 2, far: 3, message_flits: 2}", 10},
        ModelCase{"Q5_near4_far5", "{type: hypercube, dim: 5}",
                  "{algorithm: octr, task: neighbourhood, near: 4, message_flits: 2}", 5},
        ModelCase{"Q6_near1_far2", "{type: hypercube, dim: 6}",
                  "{algorithm: octr, task: neighbourhood, far: 2, message_flits: 2}", 6},
        // Tags: Q4 {1, 6, 15, 6}: column 1 carries 3 hops, row 15 has 4: h = 4.
        ModelCase{"Q4_tags", "{type: hypercube, dim: 4}",
                  "{algorithm: octr, task: tags, tags: [1, 6, 15, 6], message_flits: 2}", 4},
        // 7x5 torus tags (3,2), (-1,2), (2,0): column 1+ carries 5, 2+ carries 4: h = 5.
        ModelCase{"T7x5_tags", "{type: torus, dims: [7, 5]}",
                  "{algorithm: octr, task: tags, tags: [[3, 2], [-1, 2], [2, 0]], "
                  "message_flits: 2}",
                  5},
        // The total exchange by name, as before: 8x8 in p n / 8 = 64.
        ModelCase{"T8x8_total_exchange", "{type: torus, dims: [8, 8]}",
                  "{algorithm: octr, message_flits: 2}", 64}));

TEST(ExchangeTaskConfig, KeysAreCheckedWithTheirLine) {
  const std::string base =
      "topology: {type: hypercube, dim: 3}\ntraffic: {type: none}\n"
      "router: {buffering: output_queued}\ntiming: {alpha: 0}\n";
  auto error = [&](const std::string& sched) {
    try {
      test::cfg(base + "schedule: " + sched + "\n");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error("{algorithm: octr, task: tags, tags: [8]}").find("schedule.tags[0]"),
            std::string::npos);
  EXPECT_NE(error("{algorithm: octr, task: tags, tags: [8]}").find("<test>:5"), std::string::npos);
  EXPECT_NE(error("{algorithm: octr, near: 2}").find("belongs to task: neighbourhood"),
            std::string::npos);
  EXPECT_NE(error("{algorithm: octr, task: neighbourhood, near: 2, far: 1}").find("schedule.far"),
            std::string::npos);
  EXPECT_NE(error("{algorithm: octr, task: everything}").find("expected one of"),
            std::string::npos);
  EXPECT_NE(error("{algorithm: octr, task: tags}").find("needs a list of tags"), std::string::npos);
  EXPECT_NE(error("{algorithm: total_exchange, task: tags}").find("unknown key"),
            std::string::npos);
  EXPECT_EQ(error("{algorithm: octr, task: neighbourhood, near: 2}"), "accepted");
  EXPECT_NE(error("{algorithm: octr, tags: [1]}").find("belongs to task: tags"), std::string::npos);
  const std::string torus =
      "topology: {type: torus, dims: [5, 5]}\ntraffic: {type: none}\n"
      "router: {buffering: output_queued}\ntiming: {alpha: 0}\n";
  EXPECT_THROW(test::cfg(torus + "schedule: {algorithm: octr, task: tags, tags: [[0, 0]]}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg(torus + "schedule: {algorithm: octr, task: tags, tags: [[5, 0]]}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg(torus + "schedule: {algorithm: octr, task: tags, tags: [3]}\n"),
               ConfigError);
}
