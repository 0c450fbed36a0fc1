// Lemma 1 and the transient storage claims of Varvarigos & Bertsekas (§1, §6.2, §6.3).
//  - Lemma 1: the optimal average delay of total exchange on the d-cube is Theta(n): its proof
//    gives D_TE >= n/16; algorithm M (complementary tags in pairs, d pairs per d slots) shows
//    D_TE <= d^2 k (k+1)/n + (n - 2kd + 2d)/2 = n/4 + O(d) (k = floor(n / 2d)); algorithm V
//    (every class cleared to one entry per line first) follows OCTR yet has D >= n/2 - (n-2)/d.
//  - Storage (§1): "if packets require one memory space from the time they are generated to the
//    time they are delivered ... by minimizing the average packet delay we simultaneously
//    minimize the memory requirements", and the minimum-delay algorithms "maintain a small number
//    of transient packets in the network at all times": a node's packet-slots of storage are
//    sum W_i = (n - 1) D, and OADD keeps at every slot no more undelivered packets than OCTR.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/closed_forms.hpp"
#include "switchyard/schemes/exchange/oadd.hpp"
#include "switchyard/schemes/exchange/octr.hpp"
#include "switchyard/schemes/exchange/task.hpp"

using namespace sy;

namespace {

TaskMatrix cube(int d) {
  return total_exchange_task(Topology::Kind::Hypercube, std::vector<int>(d, 2));
}

// The rows `rows` of t, with entries `left` (a residual), cleared by OCTR (König) from `slot`.
int octr_rows(const TaskMatrix& t, const std::vector<int>& rows,
              const std::vector<std::vector<int>>& left, int slot, TaskPlan& plan) {
  TaskMatrix sub = t;
  sub.rows.clear();
  sub.tag.clear();
  for (int r : rows) {
    sub.rows.push_back(left[static_cast<std::size_t>(r)]);
    sub.tag.push_back(t.tag[static_cast<std::size_t>(r)]);
  }
  const TaskPlan p = octr_plan(sub);
  int end = slot;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (const auto& [s, c] : p[i]) {
      plan[static_cast<std::size_t>(rows[i])].push_back({slot + s, c});
      end = std::max(end, slot + s + 1);
    }
  return end;
}

// Algorithm M (§6.3): tag x with its complement (11...1 alone: its pair is 00...0); the first
// k - 1 phases clear d pairs each in d slots (every column sums to d), the last the rest.
TaskPlan algorithm_m(const TaskMatrix& t, int d) {
  const int n = t.nodes(), k = n / (2 * d);
  std::vector<std::vector<int>> pairs;
  for (int x = 1; x < n / 2; ++x) pairs.push_back({x - 1, (n - 1 - x) - 1});
  pairs.push_back({n - 2});  // 11...1
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  int slot = 0;
  std::size_t next = 0;
  for (int phase = 0; phase + 1 < k; ++phase) {
    std::vector<int> rows;
    for (int j = 0; j < d; ++j, ++next)
      rows.insert(rows.end(), pairs[next].begin(), pairs[next].end());
    const int end = octr_rows(t, rows, t.rows, slot, plan);
    EXPECT_EQ(end, slot + d);
    slot = end;
  }
  std::vector<int> rows;
  for (; next < pairs.size(); ++next)
    rows.insert(rows.end(), pairs[next].begin(), pairs[next].end());
  EXPECT_EQ(octr_rows(t, rows, t.rows, slot, plan), n / 2);
  return plan;
}

// Algorithm V (§6.3, d prime): every class of weight i < d runs its first i - 1 slots of the
// rotation clearing (one class after another); then the rest (one entry per row of each class,
// and 11...1) by OCTR. No packet arrives before slot n/2 - (n-2)/d - 1 ends.
TaskPlan algorithm_v(const TaskMatrix& t, int d) {
  const int n = t.nodes(), mask = n - 1;
  auto rot = [&](int x) { return ((x << 1) | (x >> (d - 1))) & mask; };
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  std::vector<std::vector<int>> left = t.rows;
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  int slot = 0;
  for (int w = 1; w < d; ++w)
    for (int r = 1; r < mask; ++r) {
      if (__builtin_popcount(static_cast<unsigned>(r)) != w || seen[static_cast<std::size_t>(r)])
        continue;
      std::vector<int> b;
      for (int j = 0; j < d; ++j)
        if (r >> j & 1) b.push_back(j);
      int m = r;
      for (int k = 0; k < d; ++k, m = rot(m)) {
        seen[static_cast<std::size_t>(m)] = 1;
        for (int s = 0; s + 1 < w; ++s) {
          const int c = (b[static_cast<std::size_t>(s)] + k) % d;
          plan[static_cast<std::size_t>(m - 1)].push_back({slot + s, c});
          --left[static_cast<std::size_t>(m - 1)][static_cast<std::size_t>(c)];
        }
      }
      slot += w - 1;
    }
  EXPECT_EQ(slot, n / 2 - (n - 2) / d - 1);
  std::vector<int> rows(static_cast<std::size_t>(t.num_rows()));
  for (int r = 0; r < t.num_rows(); ++r) rows[static_cast<std::size_t>(r)] = r;
  EXPECT_EQ(octr_rows(t, rows, left, slot, plan), n / 2);
  return plan;
}

// Per slot, the packets of one node not yet delivered at its start (the same at every node).
std::vector<int> undelivered(const TaskPlan& plan, int slots) {
  std::vector<int> u(static_cast<std::size_t>(slots), 0);
  for (const auto& row : plan)
    for (int s = 0; s <= row.back().first; ++s) ++u[static_cast<std::size_t>(s)];
  return u;
}

}  // namespace

TEST(Lemma1, OptimalDelayIsBetweenNOver16AndNOver4PlusOrderD) {
  // D_TE (OADD: exact for d prime, the SPT bound below it for every d) between the proof's
  // n/16 and algorithm M's n/4 + O(d), and so Theta(n): D_TE / n 0.4167 (d 2) ... 0.2131 (d 7).
  for (int d = 2; d <= 10; ++d) {
    const TaskMatrix t = cube(d);
    const double n = t.nodes();
    const double spt = spt_delay_bound(t, d), oadd = plan_mean_delay(oadd_plan(t));
    EXPECT_GE(spt, n / 16) << "d = " << d;
    if (is_prime(d)) {
      EXPECT_NEAR(oadd, hypercube_te_delay(d), 1e-9) << "d = " << d;
    }
    EXPECT_GE(oadd, spt - 1e-9) << "d = " << d;
    const TaskPlan m = algorithm_m(t, d);
    const int k = static_cast<int>(n) / (2 * d);
    const double bound_m =
        (static_cast<double>(d) * d * k * (k + 1) + (n - 2 * k * d + 2 * d) * n / 2) / n;
    EXPECT_LE(plan_mean_delay(m), bound_m) << "d = " << d;
    EXPECT_LE(oadd, plan_mean_delay(m) + 1e-9) << "d = " << d;  // OADD no worse than M
    EXPECT_LE(oadd, n / 4 + 2 * d) << "d = " << d;              // n/4 + O(d)
    std::printf("d = %d: D %.4f (D/n %.4f), SPT %.4f, n/16 %.2f, D^M %.4f, M's bound %.4f\n", d,
                oadd, oadd / n, spt, n / 16, plan_mean_delay(m), bound_m);
  }
}

TEST(Lemma1, OctrAloneCanBeFarFromTheOptimumAlgorithmV) {
  // Algorithm V follows OCTR at every slot (completion n/2) and has D >= n/2 - (n-2)/d.
  for (int d : {3, 5, 7}) {
    const TaskMatrix t = cube(d);
    const double n = t.nodes();
    const TaskPlan v = algorithm_v(t, d);
    EXPECT_NO_THROW(task_schedule(t, v, 1, "v", ""));
    EXPECT_GE(plan_mean_delay(v), n / 2 - (n - 2) / d) << "d = " << d;
    EXPECT_GT(plan_mean_delay(v), hypercube_te_delay(d)) << "d = " << d;
    std::printf("d = %d: D^V %.4f, n/2 - (n-2)/d %.4f, D_TE %.4f\n", d, plan_mean_delay(v),
                n / 2 - (n - 2) / d, hypercube_te_delay(d));
  }
}

TEST(TransientStorage, OaddHoldsTheFewestPacketSlotsAndNoMorePacketsAtAnySlot) {
  // Per node, packet-slots of storage = sum of W over its n - 1 packets = (n - 1) D: OADD's is
  // the minimum (the SPT bound times n - 1) where its D is optimal; and slot by slot, OADD's
  // undelivered count is never above OCTR's, M's or V's.
  for (int d : {3, 5, 7}) {
    const TaskMatrix t = cube(d);
    const int n = t.nodes();
    const TaskPlan oadd = oadd_plan(t);
    const std::vector<int> u = undelivered(oadd, n / 2);
    long long stored = 0;
    for (int x : u) stored += x;
    EXPECT_NEAR(static_cast<double>(stored), (n - 1) * spt_delay_bound(t, d), 1e-6);
    for (const TaskPlan& other : {octr_plan(t), algorithm_m(t, d), algorithm_v(t, d)}) {
      const std::vector<int> o = undelivered(other, n / 2);
      for (int s = 0; s < n / 2; ++s)
        EXPECT_LE(u[static_cast<std::size_t>(s)], o[static_cast<std::size_t>(s)])
            << "d = " << d << ", slot " << s;
    }
  }
}

TEST(TransientStorage, TheModelHoldsWhatThePlanSays) {
  // On the model (Q5, OADD): per node, packets still undelivered at the start of each slot,
  // from the model's delivery cycles; their sum is 31 D = 235 packet-slots (D = 235/31).
  const Results r = test::run(
      "topology: {type: hypercube, dim: 5}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\ntiming: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {type: none}\nschedule: {algorithm: oadd, message_flits: 1}\n");
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  ASSERT_EQ(s.item_delivered.size(), 32u * 31u);
  ASSERT_EQ(s.slot_cycles, 1u);
  // Items are source-major (task_schedule): item = source x 31 + row; in at the end of slot w:
  // cycle w + 1, its W.
  std::vector<long long> stored(32, 0);
  for (std::size_t i = 0; i < s.item_delivered.size(); ++i)
    stored[i / 31] += static_cast<long long>(s.item_delivered[i]);
  for (int v = 0; v < 32; ++v) EXPECT_EQ(stored[static_cast<std::size_t>(v)], 235) << v;
  const std::vector<int> u = undelivered(oadd_plan(cube(5)), 16);
  EXPECT_EQ(u[1], 26);  // after slot 0 the five one-hop packets are in
  EXPECT_EQ(u[15], 5);  // the last slot: four of R_41 and 11111 still out
}
