// Properties of whole runs: conservation, deadlock freedom, credit bounds, saturation reporting.
#include <gtest/gtest.h>

#include <sstream>

#include "helpers.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/network/fabric.hpp"
#include "switchyard/router/output_unit.hpp"

using namespace sy;

namespace {
// A heavy trace: every node sends `per_node` messages at random times in [0, span).
std::string heavy_trace(const std::string& head, int nodes, int per_node, int span, int max_flits) {
  std::ostringstream y;
  y << head << "traffic:\n  type: trace\n  messages:\n";
  Rng rng(42);
  for (int n = 0; n < nodes; ++n)
    for (int k = 0; k < per_node; ++k)
      y << "    - {time: " << rng.below(span) << ", src: " << n << ", dst: " << rng.below(nodes)
        << ", flits: " << 1 + rng.below(max_flits) << "}\n";
  return y.str();
}
}  // namespace

class Conservation : public ::testing::TestWithParam<const char*> {};

TEST_P(Conservation, EveryFlitDeliveredOnceAndInOrderUnderHighLoad) {
  const std::string head = std::string("topology: {type: torus, dims: [8, 8]}\nrouter: ") +
                           GetParam() + "\nsimulation: {drain_limit: 200000}\n";
  // 64 nodes x 60 messages of up to 12 flits in 3000 cycles: far above saturation.
  const Results r = test::run(heavy_trace(head, 64, 60, 3000, 12));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, r.packets_injected);
  EXPECT_EQ(r.flits_delivered, r.flits_created);
  EXPECT_EQ(r.flits_injected, r.flits_created);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.credit_violations, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Routers, Conservation,
    ::testing::Values("{buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 2}",
                      "{buffering: input_vc, switching: wormhole, vcs: 4, vc_depth: 4}",
                      // (More than six VCs: some of each output unit's on the heap.)
                      "{buffering: input_vc, switching: wormhole, vcs: 10, vc_depth: 2}",
                      "{buffering: input_vc, switching: virtual_cut_through, vcs: 2, vc_depth: 12}",
                      "{buffering: input_vc, switching: store_and_forward, vcs: 2, vc_depth: 12}",
                      "{buffering: output_queued, switching: wormhole}",
                      "{buffering: output_queued, switching: store_and_forward}"));

TEST(DeadlockFreedom, TorusWormholeTwoVcsAboveSaturationKeepsDelivering) {
  // 8x8 torus, wormhole, 2 VCs (dateline classes), uniform traffic at 0.8 flits/node/cycle —
  // about twice the saturation throughput — for 200,000 cycles.
  const Results r = test::run(
      "topology: {type: torus, dims: [8, 8]}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
      "traffic: {process: bernoulli, rate: 0.8, packet_flits: 8, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 200000, drain_limit: 1, deadlock_cycles: 2000}\n");
  EXPECT_FALSE(r.stable);  // saturated: the source queues grow
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_GE(r.cycles, 200000u);
  EXPECT_GT(r.accepted, 0.2);  // still delivering near saturation throughput
  // Stated bound: no ready flit waits more than 2,000 cycles for the switch.
  EXPECT_LT(r.max_flit_wait, 2000u);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
}

TEST(DeadlockFreedom, WatchdogStopsADeadlockedRun) {
  // One VC on a torus: no dateline classes; at this load the rings deadlock and the watchdog
  // must end the run (bounded, stable: false), not hang.
  const Results r = test::run(
      "topology: {type: torus, dims: [8, 8]}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 1, vc_depth: 2}\n"
      "traffic: {process: bernoulli, rate: 0.9, packet_flits: 16, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 50000, deadlock_cycles: 500}\n");
  EXPECT_FALSE(r.stable);
  EXPECT_NE(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_LT(r.cycles, 51000u);
}

TEST(Credits, UnitCountsViolations) {
  OutputUnit ou(2, 3);
  ou.take(0);
  ou.consume(0);
  ou.credit(0);
  EXPECT_EQ(ou.violations, 0u);
  ou.credit(0);  // above depth
  EXPECT_EQ(ou.violations, 1u);
  for (int i = 0; i < 5; ++i) ou.consume(1);  // below zero
  EXPECT_EQ(ou.violations, 3u);
}

// A VC whose tail has gone is free again with its last credit back, not before; one whose tail
// has not gone stays owned with every credit back (the release is written without a branch).
TEST(Credits, TheLastCreditBackFreesAVcWhoseTailHasGone) {
  OutputUnit ou(2, 3);
  ou.take(0);
  ou.take(1);
  for (int i = 0; i < 3; ++i) {
    ou.consume(0);
    ou.consume(1);
  }
  ou.tail_sent(0);
  for (int i = 0; i < 2; ++i) {
    ou.credit(0);
    ou.credit(1);
    EXPECT_TRUE(ou.vc(0).owned);
    EXPECT_TRUE(ou.vc(0).tail_sent);
  }
  ou.credit(0);
  ou.credit(1);
  EXPECT_FALSE(ou.vc(0).owned);
  EXPECT_FALSE(ou.vc(0).tail_sent);
  EXPECT_TRUE(ou.vc(1).owned);  // (its tail has not gone)
  EXPECT_FALSE(ou.vc(1).tail_sent);
  EXPECT_EQ(ou.vc(0).credits, 3);
  EXPECT_EQ(ou.violations, 0u);
}

// The woken routers' list appends only what it is asked to (IdList::push_if writes the spare
// slot either way), in order, past its first storage.
TEST(WokenRouters, ListAppendsOnlyWhatItIsAskedTo) {
  IdList l;
  EXPECT_TRUE(l.empty());
  for (int i = 0; i < 1000; ++i) l.push_if(i % 3 == 0, i);
  l.push_back(1001);
  ASSERT_EQ(l.size(), 335u);
  int k = 0;
  for (const int id : l) {
    EXPECT_EQ(id, k < 334 ? 3 * k : 1001);
    ++k;
  }
  l.clear();
  l.push_if(false, 5);
  EXPECT_TRUE(l.empty());
  l.push_if(true, 6);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(*l.begin(), 6);
}

// What a grant touches is in the unit's first line, the link's record in the second; more than
// four VCs live on the heap and survive copies.
TEST(Credits, UnitKeepsItsHotStateInOneLine) {
  OutputUnit ou(4, 7);
  const auto offset = [&ou](const void* p) {
    return static_cast<const char*>(p) - reinterpret_cast<const char*>(&ou);
  };
  EXPECT_LT(offset(&ou.free_at), 64);
  EXPECT_LT(offset(&ou.vc(3)), 64);
  EXPECT_LT(offset(&ou.dst), 64);
  EXPECT_LT(offset(&ou.dst_input), 64);
  EXPECT_LT(offset(&ou.flits), 64);
  EXPECT_LT(offset(&ou.arbiter), 64);
  EXPECT_LT(offset(&ou.depth), 64);
  EXPECT_LT(offset(&ou.dst_port), 64);
  EXPECT_GE(offset(&ou.link), 64);
  EXPECT_GE(offset(&ou.violations), 64);
  for (int vcs : {1, 4, 6, 7, 32}) {
    OutputUnit u(vcs, 9);
    ASSERT_EQ(u.num_vcs(), vcs);
    u.take(vcs - 1);
    u.consume(vcs - 1);
    u.free_on_tail = true;
    const OutputUnit copy = u;  // (a copy owns its VCs)
    u.credit(vcs - 1);
    EXPECT_EQ(copy.vc(vcs - 1).credits, 8) << vcs;
    EXPECT_TRUE(copy.vc(vcs - 1).owned) << vcs;
    EXPECT_TRUE(copy.free_on_tail) << vcs;
    EXPECT_EQ(u.vc(vcs - 1).credits, 9) << vcs;
    EXPECT_EQ(copy.vc(0).credits, vcs == 1 ? 8 : 9) << vcs;
    std::vector<OutputUnit> v(3, copy);
    v[1] = u;
    EXPECT_EQ(v[0].vc(vcs - 1).credits, 8) << vcs;
    EXPECT_EQ(v[1].vc(vcs - 1).credits, 9) << vcs;
    EXPECT_EQ(v[2].num_vcs(), vcs) << vcs;
  }
}

namespace {
const char* kMeshOq =
    "topology: {type: mesh, dims: [4, 4]}\n"
    "router: {buffering: output_queued}\n"
    "simulation: {warmup: 1000, measure: 5000, drain_limit: 20000}\n"
    "traffic: {process: poisson, packet_flits: 4, pattern: uniform, rate: ";
}  // namespace

TEST(Saturation, AboveSaturationIsReportedUnstable) {
  // Rate 1.5 flits/node/cycle needs the busiest mesh links more than 100% of the time.
  const Results r = test::run(std::string(kMeshOq) + "1.5}\n");
  EXPECT_FALSE(r.stable);
  EXPECT_LT(r.accepted, 0.9 * r.offered);
}

TEST(Saturation, BelowSaturationIsStable) {
  const Results r = test::run(std::string(kMeshOq) + "0.3}\n");
  EXPECT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_NEAR(r.accepted, r.offered, 0.03 * r.offered);
}

TEST(Light, OutputQueuedLightLoadMatchesZeroLoadAndRho) {
  const Results r = test::run(
      "topology: {type: hypercube, dim: 6}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {process: poisson, rate: 0.01, rate_unit: packets, packet_flits: 1, pattern: "
      "uniform}\n"
      "simulation: {warmup: 1000, measure: 50000}\n");
  ASSERT_TRUE(r.stable);
  // Unit packets, unit link time: latency >= hops; at rho ~ 0.005 within 2% of the mean distance.
  EXPECT_NEAR(r.latency.mean, r.zero_load_formula, 0.02 * r.zero_load_formula);
  EXPECT_NEAR(r.link_util_mean, r.rho, 0.1 * r.rho);
}

TEST(Priority, HigherClassIsFasterUnderLoad) {
  // Two classes from a CSV trace: class 0 messages overtake class 1 at every arbitration.
  std::string csv = "time,src,dst,flits,priority\n";
  Rng rng(5);
  for (int k = 0; k < 3000; ++k) {
    const auto t = rng.below(2500), src = rng.below(16), dst = rng.below(16);
    csv += std::to_string(t) + "," + std::to_string(src) + "," + std::to_string(dst) + ",4," +
           std::to_string(k % 2) + "\n";
  }
  const std::string path = test::write_temp("prio.csv", csv);
  const Results r = test::run(
      "topology: {type: mesh, dims: [4, 4]}\n"
      "router: {buffering: input_vc, vcs: 4, vc_depth: 4, priority_classes: 2}\n"
      "traffic: {type: trace, file: " +
          path + "}\n",
      /*records=*/true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(r.packets.size(), 3000u);
  double lat[2] = {0, 0};
  int n[2] = {0, 0};
  for (const auto& p : r.packets) {
    lat[p.priority] += static_cast<double>(p.delivered - p.created);
    ++n[p.priority];
  }
  ASSERT_EQ(n[0] + n[1], 3000);
  // Well apart, not by chance: class 1 waits at least 20% longer on average.
  EXPECT_LT(1.2 * lat[0] / n[0], lat[1] / n[1]) << lat[0] / n[0] << " vs " << lat[1] / n[1];
  std::printf("class 0 mean latency %.2f, class 1 %.2f\n", lat[0] / n[0], lat[1] / n[1]);
}
