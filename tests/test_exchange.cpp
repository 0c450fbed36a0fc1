// Total exchange (Varvarigos & Bertsekas) by the slot-optimal OCTR schedule: the schedule is
// valid (checker) and takes the paper's closed form; on the model the completion equals it to
// the cycle, every packet delivered once, for hypercubes, odd and even tori and rings.
#include <gtest/gtest.h>

#include <sstream>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/octr.hpp"

using namespace sy;

namespace {

struct Case {
  Topology::Kind kind;
  std::vector<int> dims;
};
std::ostream& operator<<(std::ostream& o, const Case& c) {
  return o << (c.kind == Topology::Kind::Hypercube ? "hypercube " : "torus ") << size_name(c.dims);
}

std::string yaml(const Case& c, int L, int tau) {
  std::ostringstream y;
  if (c.kind == Topology::Kind::Hypercube)
    y << "topology: {type: hypercube, dim: " << c.dims.size() << "}\n";
  else
    y << "topology: {type: torus, dims: [" << size_name(c.dims).replace(0, 0, "") << "]}\n";
  std::string s = y.str();
  for (char& ch : s)
    if (ch == 'x') ch = ',';
  return s +
         "router: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 1, tau: " +
         std::to_string(tau) +
         "}\ntraffic: {type: none}\n"
         "schedule: {algorithm: total_exchange, message_flits: " +
         std::to_string(L) + "}\n";
}

}  // namespace

class ExchangeSchedule : public ::testing::TestWithParam<Case> {};

TEST_P(ExchangeSchedule, ValidAndTakesThePapersSlots) {
  const Case& c = GetParam();
  const Schedule s = total_exchange_octr(c.kind, c.dims, 1);
  const ScheduleCheck r = check(s);
  ASSERT_TRUE(r.ok) << r.errors.front();
  EXPECT_EQ(s.phases, total_exchange_formula(c.kind, c.dims));
  long long n = 1;
  for (int p : c.dims) n *= p;
  EXPECT_EQ(static_cast<long long>(s.items()), n * (n - 1));
}

TEST_P(ExchangeSchedule, OnTheModelCompletionIsTheFormulaToTheCycle) {
  // 2-flit packets, delta = 1, tau = 2: a slot is 1 + 2 * 2 = 5 cycles.
  const Case& c = GetParam();
  const Results r = test::run(yaml(c, 2, 2));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  EXPECT_EQ(s.slot_cycles, 5u);
  EXPECT_EQ(static_cast<double>(s.completion), total_exchange_formula(c.kind, c.dims) * 5);
  EXPECT_EQ(static_cast<double>(s.completion), s.formula);
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
  EXPECT_EQ(s.duplicates, 0u);
  EXPECT_EQ(r.order_errors, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    TotalExchange, ExchangeSchedule,
    ::testing::Values(Case{Topology::Kind::Hypercube, {2, 2, 2}},
                      Case{Topology::Kind::Hypercube, {2, 2, 2, 2}},
                      Case{Topology::Kind::Hypercube, {2, 2, 2, 2, 2}},
                      Case{Topology::Kind::Hypercube, {2, 2, 2, 2, 2, 2}},
                      Case{Topology::Kind::Hypercube, {2, 2, 2, 2, 2, 2, 2}},
                      Case{Topology::Kind::Torus, {3, 3}}, Case{Topology::Kind::Torus, {5, 5}},
                      Case{Topology::Kind::Torus, {7, 7}}, Case{Topology::Kind::Torus, {3, 3, 3}},
                      Case{Topology::Kind::Torus, {5, 5, 5}}, Case{Topology::Kind::Torus, {4, 4}},
                      Case{Topology::Kind::Torus, {6, 6}}, Case{Topology::Kind::Torus, {8, 8}},
                      Case{Topology::Kind::Torus, {4, 4, 4}}, Case{Topology::Kind::Torus, {9}},
                      Case{Topology::Kind::Torus, {10}}));

TEST(ExchangeConfig, SlotScheduleOnStoreAndForwardNodesOnly) {
  const std::string base = "topology: {type: hypercube, dim: 3}\ntraffic: {type: none}\n";
  EXPECT_THROW(
      test::cfg(base + "router: {buffering: input_vc}\nschedule: {algorithm: total_exchange}\n"),
      ConfigError);
  EXPECT_THROW(test::cfg(base + "router: {switching: direct_connect}\n"
                                "schedule: {algorithm: total_exchange}\n"),
               ConfigError);
  EXPECT_THROW(test::cfg("topology: {type: mesh, dims: [3, 3]}\ntraffic: {type: none}\n"
                         "router: {buffering: output_queued}\n"
                         "schedule: {algorithm: total_exchange}\n"),
               ConfigError);
}
