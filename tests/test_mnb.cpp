// The optimal MNB (the PMNB paper's reference [3]) at ceil((N-1)/d) slots, and
// the new MNB of the PMNB paper (algorithm III with M = N) as a slot schedule: valid (no link
// twice in a slot, every node every packet, returns to the source and the packing relays
// counted apart), equal to the paper's exact phase sum and under its bound; on the model the
// completion is that sum to the cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "helpers.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"

using namespace sy;

namespace {
std::vector<int> random_set(Rng& rng, int d, int M) {
  std::vector<int> all(static_cast<std::size_t>(1) << d);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  for (int i = 0; i < M; ++i)
    std::swap(all[static_cast<std::size_t>(i)],
              all[static_cast<std::size_t>(i) + rng.below(all.size() - i)]);
  all.resize(static_cast<std::size_t>(M));
  return all;
}
}  // namespace

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

// The optimal MNB's tree: every node of the k-cube once, from a node reached in an earlier slot,
// each dimension at most once per slot, depth ceil((2^k - 1)/k) (k = 14..16 in the long suite).
TEST(OptimalMnbTree, SpanningOneDimensionPerSlotDepthAtTheLowerBound) {
  for (int k = 1; k <= 13; ++k) EXPECT_EQ(test::optimal_mnb_tree_error(k), "") << k;
  EXPECT_EQ(optimal_mnb_slots(10), 103);
  EXPECT_EQ(optimal_mnb_slots(16), 4096);  // the paper's "a full MNB would take 4096 steps"
  EXPECT_THROW(optimal_mnb_tree(0), UnsupportedSchedule);
}

// The optimal MNB as a schedule: valid, no returns, ceil((N-1)/d) slots, d = 2..10.
TEST(MnbOptimalSchedule, ValidAtTheLowerBound) {
  for (int d = 2; d <= 10; ++d) {
    const Schedule s = mnb_optimal_schedule(d, 1);
    const ScheduleCheck r = check(s);
    ASSERT_TRUE(r.ok) << "d = " << d << ": " << r.errors.front();
    EXPECT_EQ(s.phases, mnb_lower_bound(d)) << d;
    EXPECT_EQ(r.returns, 0LL) << d;
    EXPECT_EQ(s.transmissions.size(), static_cast<std::size_t>((1 << d) - 1) << d) << d;
  }
}

namespace {
// The d-cube of ideal store-and-forward all-port nodes (delta = 1, tau as given) running
// `schedule`.
std::string slot_model(int d, int tau, const std::string& schedule) {
  return "topology: {type: hypercube, dim: " + std::to_string(d) +
         "}\n"
         "router: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 1, tau: " +
         std::to_string(tau) +
         "}\n"
         "traffic: {type: none}\n"
         "schedule: " +
         schedule + "\n";
}
}  // namespace

class MnbOptimalOnTheModel : public ::testing::TestWithParam<int> {};

TEST_P(MnbOptimalOnTheModel, CompletionIsCeilNMinusOneOverDSlotsToTheCycle) {
  const int d = GetParam();
  // 3-flit packets, delta = 1, tau = 1: a slot is 4 cycles.
  const Results r = test::run(slot_model(d, 1, "{algorithm: mnb_optimal, message_flits: 3}"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const auto& res = r.find<SchedulePlugin>()->result;
  EXPECT_EQ(static_cast<double>(res.completion), mnb_lower_bound(d) * 4);
  EXPECT_EQ(static_cast<double>(res.completion), res.formula);
  EXPECT_EQ(res.nodes_informed, 1 << d);
  EXPECT_EQ(res.duplicates, 0u);
}

INSTANTIATE_TEST_SUITE_P(MnbOptimal, MnbOptimalOnTheModel, ::testing::Values(2, 3, 5, 6, 8));

class MnbOnTheModel : public ::testing::TestWithParam<int> {};

TEST_P(MnbOnTheModel, CompletionIsTheExactPhaseSumToTheCycle) {
  const int d = GetParam();
  // 2-flit packets, delta = 1, tau = 2: a slot is 5 cycles.
  const Results r = test::run(slot_model(d, 2, "{algorithm: mnb, message_flits: 2}"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(static_cast<double>(r.find<SchedulePlugin>()->result.completion), mnb_exact(d) * 5);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.nodes_informed, 1 << d);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.duplicates, 0u);
}

INSTANTIATE_TEST_SUITE_P(Mnb, MnbOnTheModel, ::testing::Values(3, 4, 5, 6, 7, 8));

// PMNB by algorithm III: random packet sets, with and without the scans (t_p = 1, 0).
TEST(PmnbIiiSchedule, RandomSetsValidAndEqualToTheExactSum) {
  Rng rng(7);
  for (int d = 3; d <= 8; ++d)
    for (int M : {1, 3, (1 << d) / 3, (1 << d) / 2, (1 << d) - 1})
      for (int tp : {0, 1}) {
        const Schedule s = pmnb_iii_schedule(d, random_set(rng, d, M), tp, 1);
        const ScheduleCheck r = check(s);
        ASSERT_TRUE(r.ok) << "d " << d << " M " << M << " tp " << tp << ": " << r.errors.front();
        EXPECT_EQ(s.phases, pmnb_iii_exact(d, M, tp));
        EXPECT_LE(s.phases, pmnb_iii_bound(d, M, tp));
        EXPECT_GE(s.phases, std::max(d, (M - 1 + d - 1) / d));  // unsplit lower bound
      }
}

TEST(PmnbIiiSchedule, PackingTakesExactlyDSlotsWithNoLinkTwice) {
  // The packing hops (after the scans) all fall in slots [4 d t_p, 4 d t_p + d), and the
  // checker has already refused any link used twice in one slot.
  const int d = 6;
  std::vector<int> src = {1, 5, 9, 12, 33, 40, 41, 47, 63};
  const Schedule s = pmnb_iii_schedule(d, src, 1, 1);
  ASSERT_TRUE(check(s).ok);
  const int M = static_cast<int>(src.size());
  for (const Transmission& t : s.transmissions) {
    if (t.item >= M) continue;  // scans
    EXPECT_GE(t.slots[0], 4 * d);
  }
}

TEST(PmnbOnTheModel, CompletionIsTheExactSumWithScansAsRealMessages) {
  const Results r = test::run(
      "topology: {type: hypercube, dim: 6}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {type: none}\n"
      "schedule: {algorithm: pmnb, packets: 20, scan_slots: 1, message_flits: 4}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(static_cast<double>(r.find<SchedulePlugin>()->result.completion),
            pmnb_iii_exact(6, 20, 1) * 4);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.duplicates, 0u);
}

TEST(PmnbExample, ThePapersTableFromItsFormulas) {
  // N = 2^16, M = 2^10. The paper: full MNB 4096, I 157/125, II 98/66, III 160/96, bound 64.
  // III's bound as the paper states it, ceil(M/d) + 2d + 4d t_p - 1, gives 159/95: the table is
  // one above its own formula (a misprint of one of the two).
  const auto rows = pmnb_example(16, 1024);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].tp1, 4096);
  EXPECT_EQ(rows[1].tp1, 157);
  EXPECT_EQ(rows[1].tp0, 125);
  EXPECT_EQ(rows[2].tp1, 98);
  EXPECT_EQ(rows[2].tp0, 66);
  EXPECT_EQ(rows[3].tp1, 159);
  EXPECT_EQ(rows[3].tp0, 95);
  EXPECT_EQ(rows[4].tp1, 153);  // the exact phase sum: within the bound
  EXPECT_EQ(rows[4].tp0, 89);
  EXPECT_EQ(rows[5].tp1, 64);
}

// Algorithm II: d mini-packets per packet, class c runs A_c over all M packets. The schedule's
// slots are mini-slots; its length is the exact sum, under the paper's bound (whole slots).
TEST(PmnbIiSchedule, RandomSetsValidAndEqualToTheExactSum) {
  Rng rng(11);
  for (int d = 3; d <= 7; ++d)
    for (int M : {1, 2, 5, (1 << d) / 3, (1 << d) - 1, 1 << d})
      for (int tp : {0, 1}) {
        const Schedule s = pmnb_ii_schedule(d, random_set(rng, d, M), tp, d);
        const ScheduleCheck r = check(s);
        ASSERT_TRUE(r.ok) << "d " << d << " M " << M << " tp " << tp << ": " << r.errors.front();
        EXPECT_EQ(s.phases, pmnb_ii_exact_minislots(d, M, tp)) << d << " " << M;
        EXPECT_LE(s.phases / static_cast<double>(d), pmnb_ii_bound(d, M, tp)) << d << " " << M;
        EXPECT_GE(s.phases / static_cast<double>(d), (M - 1.0) / d);
      }
  EXPECT_THROW(pmnb_ii_schedule(4, {1, 2}, 1, 6), UnsupportedSchedule);  // 6 flits, d = 4
}

// Algorithm I: pack to node r, single-node broadcast over the high dimensions, the optimal MNB in
// each m-subcube: the paper's bound (M replaced by 2^m, its rule), met exactly.
TEST(PmnbISchedule, RandomSetsValidAndEqualToThePapersBound) {
  Rng rng(13);
  for (int d = 3; d <= 8; ++d)
    for (int M : {1, 2, 3, 5, 8, (1 << d) / 3, (1 << d) - 1, 1 << d})
      for (int tp : {0, 1}) {
        const Schedule s = pmnb_i_schedule(d, random_set(rng, d, M), tp, 1);
        const ScheduleCheck r = check(s);
        ASSERT_TRUE(r.ok) << "d " << d << " M " << M << " tp " << tp << ": " << r.errors.front();
        EXPECT_EQ(s.phases, pmnb_i_exact(d, M, tp)) << d << " " << M;
        EXPECT_EQ(s.phases, pmnb_i_bound(d, M, tp)) << d << " " << M;
        EXPECT_GE(s.phases, std::max(d, (M - 1 + d - 1) / d));
      }
}

TEST(PmnbISchedule, TheIssuesCasesMeetThePapersBound) {
  // d = 7, M = 100, t_p = 1: m = 7, ceil(127/7) + 14 + 14 - 7 = 40 (with the new MNB in the
  // subcubes it took 46); d = 8, M = 32: ceil(31/5) + 16 + 16 - 5 = 34 (was 41).
  Rng rng(5);
  EXPECT_EQ(pmnb_i_schedule(7, random_set(rng, 7, 100), 1, 1).phases, 40);
  EXPECT_EQ(pmnb_i_bound(7, 100, 1), 40);
  EXPECT_EQ(pmnb_i_schedule(8, random_set(rng, 8, 32), 1, 1).phases, 34);
  EXPECT_EQ(pmnb_i_bound(8, 32, 1), 34);
  EXPECT_EQ(pmnb_i_bound(16, 1024, 1), 157);  // the paper's Example
  EXPECT_EQ(pmnb_i_bound(16, 1024, 0), 125);
}

namespace {
const std::string base5 =
    "topology: {type: hypercube, dim: 5}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "timing: {alpha: 0, delta: 0, tau: 1}\n"
    "traffic: {type: none}\n";
// The schedule's completion on the model (the 2^5 network of base5) against its exact sum.
void expect_exact(const std::string& schedule, double exact_cycles) {
  const Results r = test::run(base5 + "schedule: " + schedule + "\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(static_cast<double>(r.find<SchedulePlugin>()->result.completion), exact_cycles);
  EXPECT_EQ(static_cast<double>(r.find<SchedulePlugin>()->result.completion),
            r.find<SchedulePlugin>()->result.formula);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.nodes_informed, 32);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.duplicates, 0u);
}

}  // namespace

TEST(PmnbOnTheModel, AlgorithmIiEqualsItsExactSumToTheCycle) {
  // II: 10-flit packets, mini-packets of 2 flits (a mini-slot is 2 cycles).
  expect_exact("{algorithm: pmnb_ii, packets: 12, scan_slots: 1, message_flits: 10}",
               pmnb_ii_exact_minislots(5, 12, 1) * 2);
}

// Fractional scan time t_p (the paper's t_p <= 1 is real): a scan step of t_p L flits, the
// schedule on a grid of gcd(item, t_p L)-flit slots. Every algorithm's phase sum, with the real
// t_p, on the grid.
TEST(PmnbFractionalScans, SchedulesValidAndEqualToTheExactSumsOnTheGrid) {
  Rng rng(17);
  for (int d = 3; d <= 6; ++d)
    for (int M : {1, 5, (1 << d) / 2})
      for (double tp : {0.125, 0.25, 0.5, 0.75}) {
        const int L = 8;
        const std::vector<int> src = random_set(rng, d, M);
        const ScanGrid g = scan_grid(tp, L, L);
        const Schedule iii = pmnb_iii_schedule(d, src, tp, L);
        ASSERT_TRUE(check(iii).ok)
            << d << " " << M << " " << tp << ": " << check(iii).errors.front();
        EXPECT_EQ(iii.phases, pmnb_iii_exact(d, M, tp) * g.packet) << d << " " << M << " " << tp;
        const Schedule one = pmnb_i_schedule(d, src, tp, L);
        ASSERT_TRUE(check(one).ok) << d << " " << M << " " << tp;
        EXPECT_EQ(one.phases, pmnb_i_exact(d, M, tp) * g.packet) << d << " " << M << " " << tp;
        EXPECT_EQ(one.phases, pmnb_i_bound(d, M, tp) * g.packet) << d << " " << M << " " << tp;
        // II: mini-packets of L/d flits (L = 2d here), scan steps of t_p L flits.
        const int Lii = 2 * d;
        if (tp * Lii != static_cast<int>(tp * Lii)) continue;
        const ScanGrid gi = scan_grid(tp, Lii, 2);
        const Schedule ii = pmnb_ii_schedule(d, src, tp, Lii);
        ASSERT_TRUE(check(ii).ok) << d << " " << M << " " << tp;
        EXPECT_EQ(ii.phases, pmnb_ii_exact_minislots(d, M, tp) * gi.packet) << d << " " << tp;
      }
  EXPECT_EQ(scan_grid(0.5, 8, 8).unit, 4);
  EXPECT_EQ(scan_grid(0.75, 8, 8).unit, 2);
  EXPECT_EQ(scan_grid(1, 8, 8).unit, 8);  // whole t_p: the packet's own slot, as before
  EXPECT_THROW(scan_grid(0.5, 1, 1), UnsupportedSchedule);
}

// 8-flit packets, t_p = 0.5 and 0.25: a packet slot is 8 cycles (delta = 0, tau = 1).
TEST(PmnbOnTheModel, HalfSlotScansEqualTheExactSumToTheCycle) {
  expect_exact("{algorithm: pmnb, packets: 9, scan_slots: 0.5, message_flits: 8}",
               pmnb_iii_exact(5, 9, 0.5) * 8);
}

TEST(PmnbOnTheModel, QuarterSlotScansEqualTheExactSumToTheCycle) {
  expect_exact("{algorithm: pmnb_i, packets: 9, scan_slots: 0.25, message_flits: 8}",
               pmnb_i_exact(5, 9, 0.25) * 8);
}

TEST(PmnbOnTheModel, ScanSlotsErrorsNameTheKey) {
  const std::string e = test::config_error(
      base5 + "schedule: {algorithm: pmnb, packets: 9, scan_slots: 0.5, message_flits: 3}\n");
  EXPECT_NE(e.find("schedule.scan_slots"), std::string::npos) << e;
  EXPECT_NE(e.find("whole flits"), std::string::npos) << e;
}

TEST(PmnbOnTheModel, AlgorithmIEqualsItsExactSumToTheCycle) {
  expect_exact("{algorithm: pmnb_i, packets: 7, scan_slots: 1, message_flits: 3}",
               pmnb_i_exact(5, 7, 1) * 3);
}

// The compact plan (schedule.compact_plan, for the N = 2^16 Example): the same generators emit
// the same transmissions, packed 4 bytes each, grouped by slot and dimension.
namespace {
std::vector<std::uint64_t> packed(const CompactSlotPlan& p) {
  std::vector<std::uint64_t> v;
  int slot = 0, dim = 0;
  p.for_each([&](const CompactSlotPlan::Hop& h) {
    // Issued by slot, then dimension.
    EXPECT_TRUE(h.slot > slot || (h.slot == slot && h.dim >= dim));
    slot = h.slot;
    dim = h.dim;
    v.push_back(CompactSlotPlan::pack(h.slot, h.sender, h.dim, h.item));
  });
  EXPECT_EQ(v.size(), p.size());
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<std::uint64_t> packed(const Schedule& s) {
  std::vector<std::uint64_t> v;
  for (const Transmission& t : s.transmissions) {
    EXPECT_EQ(t.path.size(), 1u);
    v.push_back(CompactSlotPlan::pack(t.slots[0], t.sender, t.path[0].dim, t.item));
  }
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

TEST(CompactSlotPlan, TheSameTransmissionsAsTheSchedule) {
  Rng rng(36);
  for (int d = 3; d <= 7; ++d)
    for (int M : {1, 7, (1 << d) / 2 + 3})
      for (double tp : {0.0, 0.5, 1.0}) {
        const std::vector<int> src = random_set(rng, d, M);
        const int L = 2 * d;  // II: d mini-packets; t_p = 0.5: whole flits
        const std::string at =
            std::to_string(d) + " " + std::to_string(M) + " " + std::to_string(tp);
        const CompactSlotPlan iii = compact_slot_plan("pmnb", d, src, tp, L);
        const Schedule s3 = pmnb_iii_schedule(d, src, tp, L);
        EXPECT_EQ(packed(iii), packed(s3)) << at;
        EXPECT_EQ(iii.header.phases, s3.phases) << at;
        EXPECT_EQ(iii.header.item_source, s3.item_source) << at;
        EXPECT_EQ(iii.header.item_dest, s3.item_dest) << at;
        EXPECT_TRUE(iii.header.transmissions.empty());
        EXPECT_EQ(packed(compact_slot_plan("pmnb_i", d, src, tp, L)),
                  packed(pmnb_i_schedule(d, src, tp, L)))
            << at;
        EXPECT_EQ(packed(compact_slot_plan("pmnb_ii", d, src, tp, L)),
                  packed(pmnb_ii_schedule(d, src, tp, L)))
            << at;
      }
  for (int d = 3; d <= 6; ++d) {
    EXPECT_EQ(packed(compact_slot_plan("mnb", d, {}, 0, 1)), packed(mnb_schedule(d, 1))) << d;
    // (The optimal MNB's is streamed from its tree: no hop stored.)
    const CompactSlotPlan opt = compact_slot_plan("mnb_optimal", d, {}, 0, 1);
    EXPECT_TRUE(opt.streamed() && opt.hops.empty() && opt.groups.empty()) << d;
    EXPECT_EQ(opt.size(),
              static_cast<std::size_t>(1 << d) * static_cast<std::size_t>((1 << d) - 1));
    EXPECT_EQ(packed(opt), packed(mnb_optimal_schedule(d, 1))) << d;
    EXPECT_EQ(opt.header.phases, mnb_optimal_schedule(d, 1).phases) << d;
  }
  // Items past 2^16 (II's scan messages at d = 9: 2 d^2 N = 82944 of them) in chunks of 2^16.
  {
    const std::vector<int> src = random_set(rng, 9, 20);
    const CompactSlotPlan ii = compact_slot_plan("pmnb_ii", 9, src, 1, 9);
    EXPECT_GT(ii.header.items(), 1 << 16);
    EXPECT_EQ(packed(ii), packed(pmnb_ii_schedule(9, src, 1, 9)));
  }
  // The fields: the largest values fit, one beyond is refused.
  const std::uint64_t h = CompactSlotPlan::pack((1 << 20) - 1, 65535, 15, (1 << 24) - 1);
  EXPECT_EQ(CompactSlotPlan::slot(h), (1 << 20) - 1);
  EXPECT_EQ(CompactSlotPlan::sender(h), 65535);
  EXPECT_EQ(CompactSlotPlan::dim(h), 15);
  EXPECT_EQ(CompactSlotPlan::item(h), (1 << 24) - 1);
  EXPECT_THROW(CompactSlotPlan::pack(1 << 20, 0, 0, 0), UnsupportedSchedule);
  EXPECT_THROW(compact_slot_plan("tiling", 4, {}, 0, 1), UnsupportedSchedule);
}

// On the model the compact plan's driver (slot by slot, a sender waiting for its item) gives the
// ScheduleDriver's run to the cycle: completion, mean delivery, transmissions and returns.
namespace {
void expect_compact_equals_full(const std::string& name, const std::string& schedule,
                                double exact_cycles) {
  const std::string yaml = base5 + "schedule: " + schedule + "\n";
  const std::string full = test::cli_results(name, yaml);
  ASSERT_FALSE(full.empty());
  // The same schedule with compact_plan: true (the flow map's closing brace replaced).
  const Results r = test::run(base5 + "schedule: " + schedule.substr(0, schedule.size() - 1) +
                              ", compact_plan: true}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& c = r.find<SchedulePlugin>()->result;
  EXPECT_NE(c.variant.find("compact plan"), std::string::npos) << c.variant;
  EXPECT_EQ(static_cast<double>(c.completion), exact_cycles);
  EXPECT_EQ(static_cast<double>(c.completion),
            test::json_number(full, "schedule", "completion_time"));
  EXPECT_NEAR(c.mean_delivery, test::json_number(full, "schedule", "mean_delivery"), 1e-3);
  EXPECT_EQ(static_cast<double>(c.transmissions),
            test::json_number(full, "schedule", "transmissions"));
  EXPECT_EQ(static_cast<double>(c.returns), test::json_number(full, "schedule", "returns"));
  EXPECT_GT(c.returns, 0u);
  EXPECT_EQ(c.nodes_informed, 32);
  EXPECT_EQ(c.duplicates, 0u);
  EXPECT_EQ(c.refused, 0u);
}
}  // namespace

TEST(CompactSlotPlanOnTheModel, AlgorithmIiiEqualsTheScheduleDriverToTheCycle) {
  expect_compact_equals_full("compact_iii",
                             "{algorithm: pmnb, packets: 13, scan_slots: 1, message_flits: 4}",
                             pmnb_iii_exact(5, 13, 1) * 4);
}

TEST(CompactSlotPlanOnTheModel, AlgorithmIWithHalfSlotScansEqualsTheScheduleDriver) {
  expect_compact_equals_full("compact_i",
                             "{algorithm: pmnb_i, packets: 9, scan_slots: 0.5, message_flits: 8}",
                             pmnb_i_exact(5, 9, 0.5) * 8);
}

TEST(CompactSlotPlanOnTheModel, AlgorithmIiEqualsTheScheduleDriverToTheCycle) {
  expect_compact_equals_full("compact_ii",
                             "{algorithm: pmnb_ii, packets: 12, scan_slots: 1, message_flits: 10}",
                             pmnb_ii_exact_minislots(5, 12, 1) * 2);
}

// P36's full MNB (N = 2^16: 2^32 hops): the optimal MNB's compact plan is streamed from its
// tree, slot by slot, and gives the ScheduleDriver's run to the cycle (2^5 with delta 0, 2^7
// with delta 1: every slot's hops wait for the slot's start; 3-flit packets).
namespace {
void expect_streamed_optimal_equals_full(int d, int delta) {
  const std::string net = "topology: {type: hypercube, dim: " + std::to_string(d) +
                          "}\n"
                          "router: {buffering: output_queued, switching: store_and_forward}\n"
                          "network_interface: {injection: all_port}\n"
                          "timing: {alpha: 0, delta: " +
                          std::to_string(delta) + ", tau: 1}\ntraffic: {type: none}\n";
  const std::string sched = "schedule: {algorithm: mnb_optimal, message_flits: 3";
  const std::string full = test::cli_results(
      "streamed_opt_d" + std::to_string(d) + "_delta" + std::to_string(delta), net + sched + "}\n");
  ASSERT_FALSE(full.empty());
  const Results r = test::run(net + sched + ", compact_plan: true}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& c = r.find<SchedulePlugin>()->result;
  EXPECT_NE(c.variant.find("compact plan"), std::string::npos) << c.variant;
  EXPECT_EQ(static_cast<double>(c.completion),
            test::json_number(full, "schedule", "completion_time"));
  EXPECT_NEAR(c.mean_delivery, test::json_number(full, "schedule", "mean_delivery"), 1e-3);
  EXPECT_EQ(static_cast<double>(c.transmissions),
            test::json_number(full, "schedule", "transmissions"));
  const int N = 1 << d;
  EXPECT_EQ(c.transmissions, static_cast<std::uint64_t>(N) * static_cast<std::uint64_t>(N - 1));
  EXPECT_EQ(c.nodes_informed, N);
  EXPECT_EQ(c.duplicates + c.returns + c.refused, 0u);
  // ceil((N - 1)/d) slots of S = delta + 3 tau cycles.
  EXPECT_EQ(static_cast<double>(c.completion), std::ceil((N - 1.0) / d) * (delta + 3));
}
}  // namespace

TEST(CompactSlotPlanOnTheModel, StreamedOptimalMnbEqualsTheScheduleDriverToTheCycle) {
  expect_streamed_optimal_equals_full(5, 0);
}

TEST(CompactSlotPlanOnTheModel, StreamedOptimalMnbWithDeltaEqualsTheScheduleDriver) {
  expect_streamed_optimal_equals_full(7, 1);
}

TEST(CompactSlotPlanConfig, RefusedWhereItDoesNotApplyAndNamedWhereItHelps) {
  const std::string hc16 =
      "topology: {type: hypercube, dim: 16}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {type: none}\n";
  // Over the plan cap: the message names the key.
  EXPECT_NE(test::config_error(hc16 + "schedule: {algorithm: pmnb, packets: 1024}\n")
                .find("schedule.compact_plan: true"),
            std::string::npos);
  // With it, the Example loads (the plan is built by the run, not by the check).
  EXPECT_EQ(
      test::config_error(hc16 + "schedule: {algorithm: pmnb, packets: 1024, compact_plan: true}\n"),
      "");
  // Algorithm II at N = 2^16, M = 2^10 (about 2^30 mini-packet hops, 4 bytes each) is under the
  // compact cap: refused, naming the limit, where the memory does not hold it (here 4 GB); with
  // M = 2^12 (2^32 hops) it is over the cap.
  const std::string ii16 =
      "schedule: {algorithm: pmnb_ii, packets: 1024, message_flits: 16, compact_plan: true}\n";
  const std::string small = test::config_error(hc16 + "simulation: {max_memory_gb: 4}\n" + ii16);
  EXPECT_NE(small.find("max_memory_gb"), std::string::npos) << small;
  EXPECT_EQ(small.find("2147483648"), std::string::npos) << small;
  EXPECT_NE(test::config_error(hc16 + "schedule: {algorithm: pmnb_ii, packets: 4096, "
                                      "message_flits: 16, compact_plan: true}\n")
                .find("2147483648"),
            std::string::npos);
  // The full MNB of the Example (2^32 hops): over every stored plan's cap, named; streamed,
  // the optimal MNB's plan has none.
  EXPECT_NE(test::config_error(hc16 + "schedule: {algorithm: mnb_optimal}\n")
                .find("schedule.compact_plan: true"),
            std::string::npos);
  EXPECT_EQ(test::config_error(hc16 + "schedule: {algorithm: mnb_optimal, compact_plan: true}\n"),
            "");
  EXPECT_NE(test::config_error(hc16 + "schedule: {algorithm: mnb, compact_plan: true}\n")
                .find("2147483648"),
            std::string::npos);
  EXPECT_NE(test::config_error(base5 + "schedule: {algorithm: octr, compact_plan: true}\n")
                .find("schedule.compact_plan"),
            std::string::npos);
}

// P25, the paper's Fig. 4 (algorithm I, N = 16, M = 4: 8 + 8 t_p): every one of the 1820 sets
// of four nodes (the figure's own set is drawn, not listed) takes 16 slots with t_p = 1, 8
// with t_p = 0, its schedule valid.
TEST(PmnbISchedule, FigureFourEveryFourNodeSet) {
  int sets = 0;
  for (int a = 0; a < 16; ++a)
    for (int b = a + 1; b < 16; ++b)
      for (int c = b + 1; c < 16; ++c)
        for (int e = c + 1; e < 16; ++e) {
          ++sets;
          for (int tp : {0, 1}) {
            const Schedule s = pmnb_i_schedule(4, {a, b, c, e}, tp, 1);
            ASSERT_TRUE(check(s).ok) << a << b << c << e;
            ASSERT_EQ(s.phases, 8 + 8 * tp) << a << " " << b << " " << c << " " << e;
          }
        }
  EXPECT_EQ(sets, 1820);
}

// P29, the paper's Lemma 2: A_0 alone (one class, one dimension a slot) takes 2 d t_p + d +
// sum_j ceil(M/2^j) slots, within M(N-1)/N + 2 d t_p + 2d; on the model to the cycle.
TEST(PmnbA0Schedule, RandomSetsValidExactAndWithinLemmaTwo) {
  Rng rng(29);
  for (int d = 3; d <= 8; ++d)
    for (int M : {1, 3, (1 << d) / 3, (1 << d) - 1})
      for (double tp : {0.0, 1.0}) {
        const Schedule s = pmnb_a0_schedule(d, random_set(rng, d, M), tp, 1);
        const ScheduleCheck c = check(s);
        ASSERT_TRUE(c.ok) << d << " " << M << ": " << c.errors.front();
        EXPECT_EQ(s.phases, pmnb_a0_exact(d, M, tp)) << d << " " << M << " " << tp;
        EXPECT_LE(s.phases, pmnb_a0_bound(d, M, tp)) << d << " " << M << " " << tp;
        // One class: at most one dimension busy in any slot after the scans.
        std::vector<int> dim_of(static_cast<std::size_t>(s.phases), -1);
        for (const Transmission& t : s.transmissions) {
          if (!s.broadcast(t.item)) continue;
          int& k = dim_of[static_cast<std::size_t>(t.slots[0])];
          if (k < 0) k = t.path[0].dim;
          ASSERT_EQ(t.path[0].dim, k) << d << " " << M << " slot " << t.slots[0];
        }
      }
}

TEST(PmnbOnTheModel, AlgorithmA0AloneEqualsItsExactSumToTheCycle) {
  expect_exact("{algorithm: pmnb_a0, packets: 11, scan_slots: 1, message_flits: 3}",
               pmnb_a0_exact(5, 11, 1) * 3);
}

// P26 (§IV-A): algorithm I is not of optimal order. The optimum's order for unsplit packets is
// the lower bound L = max(d, ceil((M - 1)/d)) of (13) (III stays within 3 L at t_p = 0). For
// M = d^2, between the paper's exceptions M = Theta(log N) and M = Theta(N^c), I's time over L
// grows like d / log d: on the model it rises from d = 3 to 6 to 9 and passes III's, while III's
// and II's stay bounded. I's model time is the paper's closed form, written out here. Nine runs,
// through the CLI (one simulation per process).
namespace {
// Completion in packet slots of `schedule` on the d-cube, alpha = delta = 0, tau = 1.
double order_run(int d, const std::string& schedule) {
  std::string out;
  const std::string js =
      test::cli_results("pmnb-order-" + std::to_string(d),
                        "topology: {type: hypercube, dim: " + std::to_string(d) +
                            "}\n"
                            "router: {buffering: output_queued, switching: store_and_forward}\n"
                            "network_interface: {injection: all_port}\n"
                            "timing: {alpha: 0, delta: 0, tau: 1}\n"
                            "traffic: {type: none}\n"
                            "schedule: " +
                            schedule + "\n",
                        &out);
  EXPECT_FALSE(js.empty()) << schedule << ": " << out;
  if (js.empty()) return -1;
  EXPECT_EQ(test::json_number(js, "schedule", "nodes_informed"), 1 << d) << schedule;
  return test::json_number(js, "schedule", "completion_packet_slots");
}
}  // namespace

TEST(PmnbOrderOnTheModel, AlgorithmIOverTheLowerBoundGrowsForMEqualDSquared) {
  double previous = 0;
  for (int d : {3, 6, 9}) {
    const int M = std::min(d * d, 1 << d);  // 8, 36, 81
    const std::string tail = ", packets: " + std::to_string(M) + ", scan_slots: 0, ";
    const double L = std::max(d, (M - 1 + d - 1) / d);  // d: M <= d^2
    int m = 0;
    while ((1 << m) < M) ++m;
    // ceil((M' - 1)/m) + 2d + 2d t_p - m, M' = 2^m, t_p = 0: 6, 17, 30 slots.
    const double closed = std::ceil(((1 << m) - 1.0) / m) + 2 * d - m;
    const double one =
        order_run(d, "{algorithm: pmnb_i" + tail + "message_flits: 1, compact_plan: true}");
    const double three =
        order_run(d, "{algorithm: pmnb" + tail + "message_flits: 1, compact_plan: true}");
    // II: packets of d flits, mini-packets of 1 flit.
    const double two =
        order_run(d, "{algorithm: pmnb_ii" + tail +
                         "compact_plan: true, message_flits: " + std::to_string(d) + "}");
    EXPECT_EQ(one, closed) << d;
    EXPECT_GT(one / L, previous + 0.4) << d;  // 2.00, 2.83, 3.33
    previous = one / L;
    EXPECT_LE(three / L, 3.0) << d;  // ceil(M/d) + 2d - 1 <= 3 L
    EXPECT_LE(two / L, 1.5) << d;    // about M/d + 1 over L: 1.11, 1.22, 1.19
    if (d == 3) {
      EXPECT_LT(one, three);  // 6 < 7: I ahead at small d ...
    } else if (d == 9) {
      EXPECT_GT(one, three);  // ... 30 > 25: behind once the gap opens
    }
  }
}
