// Random broadcasting with router-level replication along STAR trees (output_queued routers):
// every broadcast reaches every other node exactly once with N-1 transmissions; light-load
// delays against the average distance and the diameter; the balance equalizes the measured
// per-dimension link utilization; priority STAR beats FCFS at high load.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/network/network.hpp"
#include "tlm_initiator.hpp"

using namespace sy;

namespace {

// `count` broadcasts of 16 bytes, `gap` ns apart, tagged 0, 1, ...
std::function<void(test::Initiator&)> broadcasts(int count, int gap) {
  return [count, gap](test::Initiator& i) {
    for (int k = 0; k < count; ++k) {
      NocExtension ext;
      ext.broadcast = true;
      ext.tag = static_cast<std::uint64_t>(k);
      EXPECT_EQ(i.send(0, 16, nullptr, &ext), tlm::TLM_OK_RESPONSE);
      wait(gap, sc_core::SC_NS);
    }
  };
}

std::string star_yaml(const std::string& topo, const std::string& scheme, double rho,
                      std::uint64_t measure = 20000) {
  std::ostringstream y;
  y << "topology: " << topo << "\n"
    << "router: {buffering: output_queued, switching: store_and_forward, priority_classes: 3}\n"
    << "timing: {alpha: 0, delta: 0, tau: 1}\n"
    << "traffic:\n  process: poisson\n  packet_flits: 1\n"
    << "  broadcast: {scheme: " << scheme << "}\n"
    << "  load: {rho: " << rho << ", broadcast_share: 1.0}\n"
    << "simulation: {warmup: 2000, measure: " << measure << ", seed: 3}\n";
  return y.str();
}

}  // namespace

struct OnceCase {
  std::string topo, router;
};
std::ostream& operator<<(std::ostream& o, const OnceCase& c) {
  return o << c.topo << " " << c.router;
}
class EveryNodeOnce : public ::testing::TestWithParam<OnceCase> {};

TEST_P(EveryNodeOnce, EachBroadcastReachesEveryOtherNodeExactlyOnce) {
  // Broadcasts from several sources at once, through the TLM socket, contending in the network.
  const std::string y = "topology: " + GetParam().topo + "\nrouter: " + GetParam().router +
                        "\ntiming: {alpha: 1, delta: 1, tau: 2}\n"
                        "network_interface: {flit_bytes: 8}\n"
                        "traffic: {type: none, broadcast: {scheme: priority_star}}\n";
  const Config cfg = test::cfg(y);
  const int N = cfg.topology.make().num_nodes();
  std::map<std::pair<int, std::uint64_t>, std::vector<int>> got;  // (src, tag) -> receivers
  std::vector<std::unique_ptr<test::Initiator>> senders;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    for (int s : {0, N / 2, N - 1}) {
      senders.emplace_back(
          new test::Initiator(("s" + std::to_string(s)).c_str(), broadcasts(20, 3)));
      senders.back()->out.bind(net.ni(s).target);
    }
    for (int n = 0; n < N; ++n)
      net.ni(n).on_receive([&](const Delivery& d) { got[{d.src, d.tag}].push_back(d.dst); });
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.find<BroadcastSection>()->broadcasts, 60u);
  EXPECT_EQ(r.find<BroadcastSection>()->broadcasts_done, 60u);
  EXPECT_DOUBLE_EQ(r.find<BroadcastSection>()->transmissions_per_broadcast, N - 1.0);
  ASSERT_EQ(got.size(), 60u);
  for (auto& [key, rec] : got) {
    std::vector<int> count(N, 0);
    for (int d : rec) ++count[d];
    for (int n = 0; n < N; ++n) EXPECT_EQ(count[n], n == key.first ? 0 : 1) << "node " << n;
  }
}

namespace {
const char* kOq = "{buffering: output_queued, switching: store_and_forward, priority_classes: 2}";
const char* kWormhole =
    "{buffering: input_vc, switching: wormhole, vcs: 6, vc_depth: 2, priority_classes: 2}";
const char* kVct =
    "{buffering: input_vc, switching: virtual_cut_through, vcs: 4, vc_depth: 2, priority_classes: "
    "2}";
const char* kSaf =
    "{buffering: input_vc, switching: store_and_forward, vcs: 3, vc_depth: 2, priority_classes: 2}";
}  // namespace

INSTANTIATE_TEST_SUITE_P(Tori, EveryNodeOnce,
                         ::testing::Values(OnceCase{"{type: torus, dims: [5, 3]}", kOq},
                                           OnceCase{"{type: torus, dims: [4, 4]}", kOq},
                                           OnceCase{"{type: torus, dims: [4, 3, 2]}", kOq},
                                           OnceCase{"{type: hypercube, dim: 4}", kOq},
                                           OnceCase{"{type: torus, dims: [6, 1, 5]}", kOq},
                                           OnceCase{"{type: torus, dims: [5, 3]}", kWormhole},
                                           OnceCase{"{type: torus, dims: [4, 4]}", kVct},
                                           OnceCase{"{type: hypercube, dim: 4}", kSaf},
                                           OnceCase{"{type: torus, dims: [4, 3, 2]}", kWormhole}));

TEST(Broadcast, LightLoadDelaysAreTheAverageDistanceAndTheDiameter) {
  const Config cfg =
      test::cfg(star_yaml("{type: torus, dims: [8, 8]}", "priority_star", 0.02, 100000));
  const Results r = run_simulation(cfg);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const Topology topo = cfg.topology.make();
  ASSERT_GT(r.find<BroadcastSection>()->reception_delay.count, 10000u);
  // One packet time per hop at zero load: reception = distance, broadcast = diameter.
  const double D = topo.average_distance(false);
  EXPECT_NEAR(r.find<BroadcastSection>()->reception_delay.mean / r.packet_time, D, 0.03 * D);
  EXPECT_NEAR(r.find<BroadcastSection>()->broadcast_delay.mean / r.packet_time, topo.diameter(),
              0.03 * topo.diameter());
  EXPECT_GE(r.find<BroadcastSection>()->reception_delay.mean,
            D);  // never below the zero-load value
}

TEST(Broadcast, BalanceEqualizesMeasuredLinkUtilizationOnA4x8Torus) {
  const Results r =
      test::run(star_yaml("{type: torus, dims: [4, 8]}", "priority_star", 0.6, 60000));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(r.link_util_by_dim.size(), 2u);
  const double u0 = r.link_util_by_dim[0], u1 = r.link_util_by_dim[1];
  EXPECT_NEAR(u0, u1, 0.03 * (u0 + u1) / 2) << u0 << " vs " << u1;
  EXPECT_NEAR((u0 + u1) / 2, 0.6, 0.03);
  double sum = 0;
  for (double x : r.find<StarPlugin>()->x()) sum += x;
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(Broadcast, UniformEndingDimensionsLeaveA4x8TorusUnbalanced) {
  std::string y = star_yaml("{type: torus, dims: [4, 8]}", "priority_star", 0.6, 30000);
  y.replace(y.find("scheme: priority_star}"), 22, "scheme: priority_star, ending: uniform}");
  const Results r = test::run(y);
  ASSERT_EQ(r.link_util_by_dim.size(), 2u);
  EXPECT_GT(std::abs(r.link_util_by_dim[0] - r.link_util_by_dim[1]), 0.05);
}

TEST(Broadcast, PriorityStarBelowFcfsAtHighLoad) {
  const std::string topo = "{type: torus, dims: [8, 8]}";
  const Results p = test::run(star_yaml(topo, "priority_star", 0.85, 20000));
  ASSERT_TRUE(p.stable) << p.unstable_reason;
  // FCFS in the same process is not possible (one elaboration per process): run it by the CLI.
  std::string log;
  const std::string js =
      test::cli_results("fcfs", star_yaml(topo, "fcfs_direct", 0.85, 20000), &log);
  ASSERT_FALSE(js.empty()) << log;
  const double fcfs = test::json_number(js, "reception_delay", "mean");
  const double star = p.find<BroadcastSection>()->reception_delay.mean;
  EXPECT_LT(star, 0.9 * fcfs) << star << " vs " << fcfs;
}

TEST(Broadcast, InputVcRoutersReplicateWithoutLossUnderMixedLoad) {
  // Finite VCs, credits, asynchronous replication: broadcasts and unicasts together, 6 VCs
  // (four for broadcast copies, two for unicast), at a load this router sustains.
  const Results r = test::run(
      "topology: {type: torus, dims: [6, 6]}\n"
      "router: {buffering: input_vc, switching: virtual_cut_through, vcs: 6, vc_depth: 4, "
      "priority_classes: 3}\ntiming: {alpha: 0, delta: 1, tau: 1}\n"
      "traffic:\n  process: poisson\n  packet_flits: 4\n"
      "  broadcast: {scheme: priority_star, classes: 3}\n"
      "  load: {rho: 0.25, broadcast_share: 0.5}\n"
      "simulation: {warmup: 1000, measure: 10000, seed: 5}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_DOUBLE_EQ(r.find<BroadcastSection>()->transmissions_per_broadcast, 35.0);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_GE(r.find<BroadcastSection>()->broadcasts_done + 50,
            r.find<BroadcastSection>()->broadcasts);  // only those created near the end still fly
  EXPECT_GT(r.find<BroadcastSection>()->reception_delay.count, 1000u);
}

TEST(Broadcast, MixedTrafficNoPriorityInversionAndNoLoss) {
  std::string y = star_yaml("{type: torus, dims: [4, 4, 4]}", "priority_star", 0.8, 20000);
  y.replace(y.find("broadcast_share: 1.0"), 20, "broadcast_share: 0.5");
  y.replace(y.find("scheme: priority_star}"), 22, "scheme: priority_star, classes: 3}");
  const Results r = test::run(y);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.priority_inversions, 0u);
  EXPECT_GT(r.latency.count, 1000u);  // unicast packets measured
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_NEAR(r.rho, 0.8, 1e-9);
}

TEST(IndirectBroadcast, EveryNodeOnceViaTheRootsTreesWithReturnsToTheSource) {
  // The indirect scheme on a 2^4 hypercube: to the root of one of 4 trees (nodes 3..6), then
  // down it; the source's own copy comes back (a return, not a reception).
  const std::string y =
      "topology: {type: hypercube, dim: 4}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "network_interface: {injection: all_port, flit_bytes: 8}\n"
      "traffic: {type: none, broadcast: {scheme: indirect, root: 3}}\n";
  const Config cfg = test::cfg(y);
  std::map<std::pair<int, std::uint64_t>, std::vector<int>> got;
  std::vector<std::unique_ptr<test::Initiator>> senders;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    for (int s : {0, 3, 9, 15}) {
      senders.emplace_back(
          new test::Initiator(("s" + std::to_string(s)).c_str(), broadcasts(25, 2)));
      senders.back()->out.bind(net.ni(s).target);
    }
    for (int n = 0; n < 16; ++n)
      net.ni(n).on_receive([&](const Delivery& d) { got[{d.src, d.tag}].push_back(d.dst); });
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.find<BroadcastSection>()->broadcasts_done, 100u);
  // N - 1 tree transmissions plus the way to the root (a tree's root is 3 + l).
  EXPECT_GT(r.find<BroadcastSection>()->transmissions_per_broadcast, 15.0);
  ASSERT_EQ(got.size(), 100u);
  for (auto& [key, rec] : got) {
    std::vector<int> count(16, 0);
    for (int d : rec) ++count[d];
    for (int n = 0; n < 16; ++n) EXPECT_EQ(count[n], n == key.first ? 0 : 1) << "node " << n;
  }
}

TEST(IndirectBroadcast, OutputQueuedRoutersOnly) {
  EXPECT_THROW(
      test::cfg("router: {buffering: input_vc}\ntraffic: {broadcast: {scheme: indirect}}\n"),
      ConfigError);
}
