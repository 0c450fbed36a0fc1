// A torus whose size-2 dimensions have two links each way (topology.size2_links: 2): the p = 2
// torus of Varvarigos & Bertsekas §8.2, a hypercube with every link doubled. The topology gives
// such a dimension a '+' and a '-' port, both to the other node (a ring of 2); routing, link
// statistics, the config and the schedules use both. The total exchange then completes in
// n/4 slots on the model (d >= 4; max(n/4, d) in general), half the n/2 of one link.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/schemes/exchange/greedy.hpp"
#include "switchyard/schemes/exchange/oadd.hpp"
#include "switchyard/schemes/exchange/octr.hpp"
#include "switchyard/schemes/exchange/task.hpp"
#include "topology_oracle.hpp"

using namespace sy;

namespace {

constexpr Topology::Kind kTorus = Topology::Kind::Torus;

std::vector<int> twos(int d) {
  return std::vector<int>(static_cast<std::size_t>(d), 2);
}

std::string dims_text(const std::vector<int>& dims) {
  std::string s;
  for (int p : dims) s += (s.empty() ? "" : ", ") + std::to_string(p);
  return "[" + s + "]";
}

// The total exchange on ideal store-and-forward nodes: one slot = delta + L tau = 1 cycle.
std::string exchange_yaml(const std::vector<int>& dims, int links2,
                          const std::string& algorithm = "total_exchange") {
  return "topology: {type: torus, dims: " + dims_text(dims) +
         ", size2_links: " + std::to_string(links2) +
         "}\n"
         "router: {buffering: output_queued, switching: store_and_forward}\n"
         "network_interface: {injection: all_port}\n"
         "timing: {alpha: 0, delta: 0, tau: 1}\n"
         "traffic: {type: none}\n"
         "schedule: {algorithm: " +
         algorithm + ", message_flits: 1}\n";
}

// Busy fraction of the links leaving each node in (dim, dir), summed over the nodes.
std::map<std::pair<int, int>, double> busy_by_port(const Results& r) {
  std::map<std::pair<int, int>, double> m;
  for (const LinkUtilization& e : r.link_utilization) m[{e.dim, e.dir}] += e.utilization;
  return m;
}

}  // namespace

// ---- topology --------------------------------------------------------------------------------

TEST(Size2Links, TwoByTwoHasFourPortsEachToTheOtherNode) {
  const Topology one(kTorus, {2, 2});
  const Topology two(kTorus, {2, 2}, 2);
  EXPECT_EQ(one.num_ports(), 2);
  EXPECT_EQ(one.num_links(), 4 * 2);
  EXPECT_EQ(one.port(one.port_of(0, 0)).dir, 0);
  EXPECT_FALSE(one.wraps(0));
  EXPECT_TRUE(one.single_link(0));
  ASSERT_EQ(two.num_ports(), 4);
  EXPECT_EQ(two.num_links(), 4 * 4);
  EXPECT_EQ(two.size2_links(), 2);
  EXPECT_EQ(two.port_of(0, 0), -1);  // no single link any more
  for (int d = 0; d < 2; ++d) {
    EXPECT_TRUE(two.wraps(d));
    EXPECT_FALSE(two.single_link(d));
    const int plus = two.port_of(d, +1), minus = two.port_of(d, -1);
    ASSERT_GE(plus, 0);
    ASSERT_GE(minus, 0);
    EXPECT_NE(plus, minus);
    EXPECT_EQ(two.port_name(plus), "d" + std::to_string(d) + "+");
    EXPECT_EQ(two.port_name(minus), "d" + std::to_string(d) + "-");
    EXPECT_EQ(two.reverse_port(plus), minus);
    EXPECT_EQ(two.reverse_port(minus), plus);
    for (int v = 0; v < 4; ++v) {
      const int other = two.with_coord(v, d, 1 - two.coord(v, d));
      EXPECT_EQ(two.neighbor(v, plus), other);
      EXPECT_EQ(two.neighbor(v, minus), other);
      // The link from v's + port enters the other node's - port, which leads back to v.
      EXPECT_EQ(two.neighbor(other, two.in_port(v, plus)), v);
      // Wraparound hops: + from coordinate 1, - from 0 (a ring of 2).
      EXPECT_EQ(two.is_wrap_hop(v, plus), two.coord(v, d) == 1);
      EXPECT_EQ(two.is_wrap_hop(v, minus), two.coord(v, d) == 0);
    }
  }
  EXPECT_EQ(two.diameter(), 2);
  EXPECT_EQ(two.distance(0, 3), 2);
  EXPECT_DOUBLE_EQ(two.average_distance(false), one.average_distance(false));
}

TEST(Size2Links, TwoByFourCountsAndDistancesMatchTheLinks) {
  const Topology one(kTorus, {2, 4});
  const Topology two(kTorus, {2, 4}, 2);
  EXPECT_EQ(one.num_ports(), 3);
  EXPECT_EQ(one.num_links(), 8 * 3);
  EXPECT_EQ(two.num_ports(), 4);
  EXPECT_EQ(two.num_links(), 8 * 4);
  int brute = 0;
  for (int v = 0; v < two.num_nodes(); ++v)
    for (int p = 0; p < two.num_ports(); ++p) brute += two.neighbor(v, p) >= 0;
  EXPECT_EQ(brute, two.num_links());
  double sum = 0;
  int diam = 0;
  for (int s = 0; s < two.num_nodes(); ++s) {
    const std::vector<int> d = test::bfs(two, s);
    for (int v = 0; v < two.num_nodes(); ++v) {
      EXPECT_EQ(d[static_cast<std::size_t>(v)], two.distance(s, v)) << s << "->" << v;
      sum += d[static_cast<std::size_t>(v)];
      diam = std::max(diam, d[static_cast<std::size_t>(v)]);
    }
  }
  EXPECT_EQ(diam, two.diameter());
  EXPECT_NEAR(sum / (8.0 * 7.0), two.average_distance(false), 1e-12);
  // The size-4 dimension is unchanged: its + and - ports lead to different nodes.
  EXPECT_EQ(two.neighbor(0, two.port_of(1, +1)), 2);
  EXPECT_EQ(two.neighbor(0, two.port_of(1, -1)), 6);
}

TEST(Size2Links, OnlyATorusTakesTwoAndOnlyOneOrTwo) {
  EXPECT_THROW(Topology(Topology::Kind::Mesh, {2, 2}, 2), std::invalid_argument);
  EXPECT_THROW(Topology(Topology::Kind::Hypercube, {2, 2}, 2), std::invalid_argument);
  EXPECT_THROW(Topology(kTorus, {2, 2}, 3), std::invalid_argument);
  EXPECT_THROW(Topology(kTorus, {2, 2}, 0), std::invalid_argument);
  // No size-2 dimension: the option changes nothing.
  const Topology a(kTorus, {4, 3}), b(kTorus, {4, 3}, 2);
  EXPECT_EQ(a.num_ports(), b.num_ports());
  EXPECT_EQ(a.num_links(), b.num_links());
}

// ---- config ----------------------------------------------------------------------------------

TEST(Size2Links, BadValuesAreConfigErrorsNamingFileLineAndKey) {
  const std::string e =
      test::config_error("topology: {type: torus, dims: [2, 2], size2_links: 3}\n");
  EXPECT_NE(e.find("cfg.yaml:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("topology.size2_links"), std::string::npos) << e;
  EXPECT_NE(test::config_error("topology: {type: torus, dims: [2], size2_links: two}\n")
                .find("topology.size2_links"),
            std::string::npos);
  const std::string cube =
      test::config_error("topology: {type: hypercube, dim: 3, size2_links: 2}\n");
  EXPECT_NE(cube.find("topology.size2_links"), std::string::npos) << cube;
  EXPECT_NE(cube.find("type: torus"), std::string::npos) << cube;
  EXPECT_NE(test::config_error("topology: {type: mesh, dims: [2, 2], size2_links: 2}\n")
                .find("topology.size2_links"),
            std::string::npos);
  // Broadcast trees and the circuit schedules use one link of a size-2 dimension.
  const std::string bc = test::config_error(
      "topology: {type: torus, dims: [2, 4], size2_links: 2}\n"
      "router: {vcs: 4, priority_classes: 2}\n"
      "traffic: {broadcast: {scheme: dimension_order, rate: 0.01}}\n");
  EXPECT_NE(bc.find("traffic.broadcast.scheme"), std::string::npos) << bc;
  EXPECT_NE(bc.find("size2_links"), std::string::npos) << bc;
  const std::string circuit = test::config_error(
      "topology: {type: torus, dims: [2, 5], size2_links: 2}\n"
      "router: {buffering: circuit, switching: direct_connect}\n"
      "traffic: {type: none}\n"
      "schedule: {algorithm: tiling}\n");
  EXPECT_NE(circuit.find("schedule.algorithm"), std::string::npos) << circuit;
  EXPECT_NE(circuit.find("size2_links"), std::string::npos) << circuit;
  // Without a size-2 dimension the option is harmless.
  EXPECT_EQ(test::config_error("topology: {type: torus, dims: [4, 4], size2_links: 2}\n"), "");
}

TEST(Size2Links, AConfigMadeInCodeIsCheckedToo) {
  Config c = test::cfg("topology: {type: mesh, dims: [2, 2]}\n");
  c.topology.size2_links = 2;
  EXPECT_THROW(check_config(c), ConfigError);
  c.topology.kind = Topology::Kind::Torus;
  EXPECT_NO_THROW(check_config(c));
  c.topology.size2_links = 3;
  EXPECT_THROW(check_config(c), ConfigError);
}

TEST(Size2Links, TheResolvedConfigShowsTheKeyOnlyWhenSet) {
  const Config one = test::cfg("topology: {type: torus, dims: [2, 4]}\n");
  const Config two = test::cfg("topology: {type: torus, dims: [2, 4], size2_links: 2}\n");
  EXPECT_EQ(config_to_json(one, 2).find("size2_links"), std::string::npos);
  EXPECT_NE(config_to_json(two, 2).find("\"size2_links\": 2"), std::string::npos)
      << config_to_json(two, 2);
  EXPECT_EQ(two.topology.make().num_ports(), 4);
  EXPECT_EQ(one.topology.make().num_ports(), 3);
}

// ---- routing ---------------------------------------------------------------------------------

// One message 0 -> 3 on the 2x2 torus with two links: dimension order, d0 then d1, two hops at
// the zero-load latency; the balanced tie takes + from coordinate 0.
TEST(Size2Links, UnicastOnTwoByTwoTakesTwoHopsOnThePlusLinks) {
  const Results r = test::run(
      "topology: {type: torus, dims: [2, 2], size2_links: 2}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 8}\n"
      "timing: {alpha: 3, delta: 2, tau: 2}\n"
      "routing: {algorithm: dimension_order}\n"
      "traffic:\n  type: trace\n  messages:\n    - {time: 10, src: 0, dst: 3, flits: 5}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 1u);
  EXPECT_EQ(r.link_utilization.size(), 16u);
  EXPECT_DOUBLE_EQ(r.latency.mean, 3 + 2 * 2 + 5 * 2);  // alpha + h delta + L tau
  std::vector<std::tuple<int, int, int, int>> busy;     // src, dim, dir, dst
  for (const LinkUtilization& e : r.link_utilization)
    if (e.utilization > 0) busy.emplace_back(e.src, e.dim, e.dir, e.dst);
  EXPECT_EQ(busy, (std::vector<std::tuple<int, int, int, int>>{{0, 0, +1, 1}, {1, 1, +1, 3}}));
}

// 2x4 with two links: a message to (1, 2) goes d0 then round the ring of 4, its two-hop tie
// broken + at coordinate 0 (balanced); the reverse message takes the - links.
TEST(Size2Links, UnicastOnTwoByFourFollowsDimensionOrderBothWays) {
  const Results r = test::run(
      "topology: {type: torus, dims: [2, 4], size2_links: 2}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 8}\n"
      "timing: {alpha: 1, delta: 1, tau: 1}\n"
      "routing: {algorithm: dimension_order}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 0, src: 0, dst: 5, flits: 4}\n"
      "    - {time: 100, src: 5, dst: 0, flits: 4}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 2u);
  EXPECT_EQ(r.link_utilization.size(), 32u);
  std::vector<std::tuple<int, int, int, int>> busy;
  for (const LinkUtilization& e : r.link_utilization)
    if (e.utilization > 0) busy.emplace_back(e.src, e.dim, e.dir, e.dst);
  std::sort(busy.begin(), busy.end());
  // 0 = (0,0) -d0+-> 1 = (1,0) -d1+-> 3 = (1,1) -d1+-> 5 = (1,2) (the ring-of-4 tie at
  // coordinate 0 goes +); back: 5 -d0-> 4 = (0,2) (the size-2 tie at coordinate 1 goes -), then
  // the tie at coordinate 2 goes +: 4 -d1+-> 6 = (0,3) -d1+-> 0.
  ASSERT_EQ(busy.size(), 6u);
  EXPECT_EQ(busy[0], std::make_tuple(0, 0, +1, 1));
  EXPECT_EQ(busy[1], std::make_tuple(1, 1, +1, 3));
  EXPECT_EQ(busy[2], std::make_tuple(3, 1, +1, 5));
  EXPECT_EQ(busy[3], std::make_tuple(4, 1, +1, 6));
  EXPECT_EQ(busy[4], std::make_tuple(5, 0, -1, 4));
  EXPECT_EQ(busy[5], std::make_tuple(6, 1, +1, 0));
}

// Minimal adaptive routing sees both links of a size-2 dimension as minimal: eight 8-flit
// messages from node 0 to node 1 at once, through two injection channels, go over both d0 links
// of node 0 at once (the model: 40 and 24 flits, the last in at cycle 42) and arrive well before
// the 64 cycles the 64 flits need on one link (65 with size2_links 1). The exchange tests below
// keep both links of every node busy every slot.
TEST(Size2Links, AdaptiveRoutingSaturatesBothLinks) {
  std::string msgs;
  for (int i = 0; i < 8; ++i) msgs += "    - {time: 0, src: 0, dst: 1, flits: 8}\n";
  const Results r = test::run(
      "topology: {type: torus, dims: [2, 4], size2_links: 2}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 4, vc_depth: 8}\n"
      "network_interface: {injection_channels: 2}\n"
      "timing: {alpha: 0, delta: 1, tau: 1}\n"
      "routing: {algorithm: minimal_adaptive}\n"
      "traffic:\n  type: trace\n  messages:\n" +
      msgs);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 8u);
  EXPECT_EQ(r.nonminimal_packets, 0u);
  double plus = 0, minus = 0, other = 0;
  for (const LinkUtilization& e : r.link_utilization) {
    const double busy = e.utilization * r.window;
    if (e.src == 0 && e.dim == 0)
      (e.dir > 0 ? plus : minus) += busy;
    else
      other += busy;
  }
  EXPECT_DOUBLE_EQ(plus + minus, 64);  // every flit once, on one of the two links
  EXPECT_DOUBLE_EQ(other, 0);
  EXPECT_GE(plus, 16);
  EXPECT_GE(minus, 16);
  EXPECT_LT(r.latency.max, 48);  // one link: at least 64 cycles for the last flit
}

// ---- the total exchange ----------------------------------------------------------------------

TEST(Size2Links, TaskMatrixSplitsEachSize2DimensionOverItsTwoColumns) {
  for (int d = 2; d <= 6; ++d) {
    const TaskMatrix one = total_exchange_task(kTorus, twos(d));
    const TaskMatrix two = total_exchange_task(kTorus, twos(d), 2);
    const int n = 1 << d;
    ASSERT_EQ(two.cols, 2 * d);
    EXPECT_EQ(two.total(), one.total());
    for (int j = 0; j < d; ++j) {
      EXPECT_EQ(one.col_sum(2 * j), n / 2);
      EXPECT_EQ(one.col_sum(2 * j + 1), 0);
      EXPECT_EQ(two.col_sum(2 * j), n / 4) << "d " << d;
      EXPECT_EQ(two.col_sum(2 * j + 1), n / 4) << "d " << d;
      EXPECT_EQ(two.hop(2 * j + 1).dir, -1);
    }
    EXPECT_EQ(two.max_row(), d);
    EXPECT_EQ(two.critical_sum(), std::max(n / 4, d));
    EXPECT_EQ(total_exchange_formula(kTorus, twos(d), 2), std::max(n / 4, d));
    EXPECT_EQ(total_exchange_formula(kTorus, twos(d)), n / 2);
  }
}

TEST(Size2Links, SchedulesAreValidAndTakeTheFormula) {
  for (int d = 2; d <= 7; ++d) {
    const int n = 1 << d;
    const Schedule s = total_exchange_octr(kTorus, twos(d), 1, 2);
    const ScheduleCheck c = check(s);
    ASSERT_TRUE(c.ok) << "d " << d << ": " << c.errors.front();
    EXPECT_EQ(s.phases, std::max(n / 4, d)) << "d " << d;
    EXPECT_EQ(s.items(), n * (n - 1));
  }
  // The nearest-first OCTR (oadd) and greedy on 2^5 with two links.
  const TaskMatrix t = total_exchange_task(kTorus, twos(5), 2);
  const ScheduleCheck o = check(oadd_schedule(kTorus, twos(5), 1, 2));
  ASSERT_TRUE(o.ok) << o.errors.front();
  EXPECT_EQ(o.phases, 8);
  const Schedule g = greedy_schedule(t, 1, 1);
  const ScheduleCheck gc = check(g);
  ASSERT_TRUE(gc.ok) << gc.errors.front();
  EXPECT_LE(g.phases, t.max_row() + t.max_col() - 1);
  // Mixed tori (no closed form in the paper): the critical sum h, two links or one.
  for (const std::vector<int>& dims : {std::vector<int>{2, 3}, std::vector<int>{2, 4},
                                       std::vector<int>{2, 5}, std::vector<int>{2, 2, 3}}) {
    for (int links2 : {1, 2}) {
      const TaskMatrix m = total_exchange_task(kTorus, dims, links2);
      const Schedule ms = octr_schedule(m, 1);
      const ScheduleCheck mc = check(ms);
      ASSERT_TRUE(mc.ok) << mc.errors.front();
      EXPECT_EQ(ms.phases, m.critical_sum());
    }
  }
}

// On the model: n/4 slots (d >= 4; d for d = 2, 3), every packet once; the one-link torus of the
// same size takes n/2. Both links of every size-2 dimension carry packets, and for d >= 4 every
// link is busy every slot (utilization 1): a schedule on one link could not finish in n/4.
class Size2LinksExchange : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(Size2LinksExchange, CompletesInAQuarterOfTheNodesWithTwoLinksHalfWithOne) {
  const int d = std::get<0>(GetParam()), links2 = std::get<1>(GetParam()), n = 1 << d;
  const Results r = test::run(exchange_yaml(twos(d), links2));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const SchedulePlugin* sp = r.find<SchedulePlugin>();
  ASSERT_NE(sp, nullptr);
  ASSERT_TRUE(sp->exchange.has_value());
  const ExchangeResult& x = *sp->exchange;
  EXPECT_EQ(sp->result.nodes_informed, sp->result.nodes_expected);
  EXPECT_EQ(sp->result.duplicates, 0u);
  const int expect = links2 == 2 ? std::max(n / 4, d) : n / 2;
  EXPECT_EQ(x.completion_time, expect);
  EXPECT_EQ(x.formulas.completion, expect);
  EXPECT_EQ(static_cast<int>(r.link_utilization.size()), n * links2 * d);
  const auto busy = busy_by_port(r);
  for (int j = 0; j < d; ++j) {
    if (links2 == 1) {
      EXPECT_GT(busy.at({j, 0}), 0) << "d" << j;
      continue;
    }
    EXPECT_GT(busy.at({j, +1}), 0) << "d" << j << "+";
    EXPECT_GT(busy.at({j, -1}), 0) << "d" << j << "-";
  }
  if (d >= 4 || links2 == 1) {
    EXPECT_DOUBLE_EQ(x.utilization, 1.0);
  }
}

INSTANTIATE_TEST_SUITE_P(P2, Size2LinksExchange,
                         ::testing::Combine(::testing::Values(2, 3, 4, 5, 6),
                                            ::testing::Values(1, 2)));

TEST(Size2Links, ShippedConfigTakesFourSlots) {
  const Results r =
      run_simulation(load_config(std::string(test::kSourceDir) +
                                 "/configs/papers/exchange/torus_2x2x2x2_two_links.yaml"),
                     RunOptions{});
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ExchangeResult& x = *r.find<SchedulePlugin>()->exchange;
  EXPECT_EQ(x.completion_time, 4);
  EXPECT_EQ(x.formulas.completion, 4);
  EXPECT_DOUBLE_EQ(x.utilization, 1.0);
}

// An explicit schedule may name both links: two packets 0 -> 1 in the same slot, one on d0+ and
// one on d0-; on one link the checker refuses the same slot.
TEST(Size2Links, ExplicitScheduleSendsOnBothLinksInOneSlot) {
  const std::string base =
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {type: none}\n"
      "schedule: {algorithm: explicit, packets: [{source: 0, destination: 1}, {source: 0, "
      "destination: 1}],\n"
      "           transmissions: [{packet: 0, from: 0, route: [d0+], slots: [0]},\n"
      "                           {packet: 1, from: 0, route: [d0-], slots: [0]}]}\n";
  const Results r = test::run("topology: {type: torus, dims: [2, 2], size2_links: 2}\n" + base);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
  EXPECT_EQ(s.completion, 1u);
  const std::string e = test::config_error("topology: {type: torus, dims: [2, 2]}\n" + base);
  EXPECT_NE(e.find("d0+"), std::string::npos) << e;
}
