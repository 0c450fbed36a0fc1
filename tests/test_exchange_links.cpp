// The k-link-limited node (Varvarigos & Bertsekas §7): at most k links per node per slot. The
// OCTR colouring with max(ceil(sigma/k), h) colours, classes evened out to at most k edges,
// takes exactly that many slots on the model (Theorem 7; total exchange: ceil(n d / (2k)) on the
// hypercube); the checker refuses a schedule that uses more links than allowed, naming it.
#include <gtest/gtest.h>

#include <cmath>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/octr.hpp"
#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/schemes/schedules.hpp"

using namespace sy;

namespace {

std::vector<int> cube(int d) {
  return std::vector<int>(static_cast<std::size_t>(d), 2);
}

int theorem7(const TaskMatrix& t, int k) {
  return std::max<int>(t.critical_sum(), static_cast<int>((t.total() + k - 1) / k));
}

}  // namespace

TEST(KLinks, ColouringTakesTheoremSevenSlotsWithAtMostKLinks) {
  for (const TaskMatrix& t :
       {total_exchange_task(Topology::Kind::Hypercube, cube(5)),
        total_exchange_task(Topology::Kind::Torus, {5, 5}),
        total_exchange_task(Topology::Kind::Torus, {4, 4, 4}),
        neighbourhood_task(Topology::Kind::Hypercube, cube(6), 1, 2),
        tags_task(Topology::Kind::Torus, {7, 7}, {{3, 2}, {-1, 2}, {2, 0}, {0, -3}})}) {
    for (int k = 1; k < t.cols; ++k) {
      const Schedule s = octr_schedule(t, 1, k);
      const ScheduleCheck r = check(s);
      ASSERT_TRUE(r.ok) << t.name << " k " << k << ": " << r.errors.front();
      EXPECT_EQ(s.phases, theorem7(t, k)) << t.name << " k " << k;
      EXPECT_LE(r.max_sends, k);
    }
  }
  // Total exchange on the d-cube: ceil(n d / (2k)).
  const TaskMatrix q5 = total_exchange_task(Topology::Kind::Hypercube, cube(5));
  EXPECT_EQ(octr_schedule(q5, 1, 1).phases, 80);
  EXPECT_EQ(octr_schedule(q5, 1, 3).phases, 27);
  EXPECT_EQ(octr_schedule(q5, 1, 4).phases, 20);
}

TEST(KLinks, TheCheckerRefusesMoreLinksThanAllowedNamingThem) {
  const TaskMatrix q4 = total_exchange_task(Topology::Kind::Hypercube, cube(4));
  Schedule s = octr_schedule(q4, 1, 3);
  s.links_per_slot = 2;
  const ScheduleCheck r = check(s);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors.back().find("sends on 3 links in one slot (limit: 2)"), std::string::npos)
      << r.errors.back();
  // And a conflict is named by its link and slot: two rows on one column in one slot.
  Schedule bad = octr_schedule(q4, 1);
  bad.transmissions[1].slots[0] = bad.transmissions[0].slots[0];
  bad.transmissions[1].path[0] = bad.transmissions[0].path[0];
  const ScheduleCheck b = check(bad);
  ASSERT_FALSE(b.ok);
  bool named = false;
  for (const std::string& e : b.errors)
    named = named || (e.find("node 0 (") != std::string::npos &&
                      e.find("in slot " + std::to_string(bad.transmissions[0].slots[0])) !=
                          std::string::npos);
  EXPECT_TRUE(named) << b.errors.front();
}

namespace {

struct Case {
  std::string name, topology;
  int k, slots;  // the paper's max(ceil(sigma/k), h)
};
std::ostream& operator<<(std::ostream& o, const Case& c) {
  return o << c.name << "_k" << c.k;
}
}  // namespace

class KLinksOnTheModel : public ::testing::TestWithParam<Case> {};

TEST_P(KLinksOnTheModel, CompletionIsTheoremSeven) {
  const Case& c = GetParam();
  const Results r = test::run("topology: " + c.topology +
                              "\nrouter: {buffering: output_queued, switching: store_and_forward}\n"
                              "network_interface: {injection: all_port}\n"
                              "timing: {alpha: 0, delta: 1, tau: 2}\ntraffic: {type: none}\n"
                              "schedule: {algorithm: total_exchange, links: " +
                              std::to_string(c.k) + ", message_flits: 2}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  EXPECT_EQ(static_cast<double>(s.completion), c.slots * 5.0);
  EXPECT_EQ(s.formula, c.slots * 5.0) << s.formula_text;
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
}

INSTANTIATE_TEST_SUITE_P(
    TotalExchange, KLinksOnTheModel,
    ::testing::Values(Case{"Q5", "{type: hypercube, dim: 5}", 1, 80},
                      Case{"Q5", "{type: hypercube, dim: 5}", 2, 40},
                      Case{"Q5", "{type: hypercube, dim: 5}", 3, 27},
                      Case{"Q5", "{type: hypercube, dim: 5}", 4, 20},
                      Case{"Q6", "{type: hypercube, dim: 6}", 5, 39},  // 192 / 5
                      // 5x5: sigma = 4 c, c = 15: 60 hops; k = 3: 20, k = 2: 30, k = 1: 60.
                      Case{"T5x5", "{type: torus, dims: [5, 5]}", 1, 60},
                      Case{"T5x5", "{type: torus, dims: [5, 5]}", 3, 20},
                      // 9-ring: sigma = 2 x 10 = 20: k = 1 gives 20 (h = 10).
                      Case{"ring9", "{type: torus, dims: [9]}", 1, 20}));
