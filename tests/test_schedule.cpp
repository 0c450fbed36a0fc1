// Schedules on every router kind and topology: source routes with a not-before per hop, slot
// schedules on output-queued store-and-forward networks (d-dimensional tori and hypercubes), the
// checker naming the link and slot of a conflict, phases on packet routers.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/traffic/schedule.hpp"

using namespace sy;

namespace {

struct Tx {
  int packet, from;
  std::vector<std::string> route;
  std::vector<int> slots;
};

std::string explicit_yaml(const std::string& head, const std::vector<std::pair<int, int>>& packets,
                          const std::vector<Tx>& txs, const std::string& extra = "") {
  std::ostringstream y;
  y << head << "traffic: {type: none}\nschedule:\n  algorithm: explicit\n"
    << extra << "  packets:\n";
  for (auto [s, d] : packets)
    y << "    - {source: " << s
      << ", destination: " << (d < 0 ? std::string("all") : std::to_string(d)) << "}\n";
  y << "  transmissions:\n";
  for (const Tx& t : txs) {
    y << "    - {packet: " << t.packet << ", from: " << t.from << ", route: [";
    for (std::size_t k = 0; k < t.route.size(); ++k) y << (k ? ", " : "") << t.route[k];
    y << "], slots: [";
    for (std::size_t k = 0; k < t.slots.size(); ++k) y << (k ? ", " : "") << t.slots[k];
    y << "]}\n";
  }
  return y.str();
}

// Runs the config and returns the network (kept alive by the simulation) for its links.
Results run_keep(const std::string& yaml, Network** net) {
  RunOptions o;
  o.attach = [net](Network& n) { *net = &n; };
  return run_simulation(test::cfg(yaml), o);
}

// Flits each directed link (node, port name) carried.
std::map<std::pair<int, std::string>, std::uint64_t> link_flits(const Network& n) {
  std::map<std::pair<int, std::string>, std::uint64_t> m;
  for (const OutputUnit& ou : n.links())
    if (ou.flits) m[{ou.link.src_node, n.topology().port_name(ou.link.src_port)}] = ou.flits;
  return m;
}

const char* kTorus333 =
    "topology: {type: torus, dims: [3, 3, 3]}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "timing: {alpha: 0, delta: 1, tau: 2}\n";

}  // namespace

TEST(SlotSchedule, TorusPacketsFollowTheirRoutesAndSlotsExactly) {
  // Slot = delta + L tau = 1 + 2 = 3 cycles. Routes in any dimension order, with waits.
  // Node ids: x + 3y + 9z.
  const std::vector<Tx> txs = {
      {0, 0, {"d0+", "d1+", "d2-"}, {0, 3, 4}},  // 0 -> 1 -> 4 -> 22, waits 2 slots at node 1
      {1, 13, {"d2+", "d2+"}, {1, 2}},           // 13 -> 22 -> 4: twice round the z ring's half
      {2, 5, {"d1-"}, {0}},                      // 5 -> 2
      {3, 0, {"d0+"}, {1}},                      // 0 -> 1: a relay...
      {3, 1, {"d0+"}, {3}},                      // ...that sends it on two slots later: 1 -> 2
  };
  Network* net = nullptr;
  const Results r =
      run_keep(explicit_yaml(kTorus333, {{0, 22}, {13, 4}, {5, 2}, {0, 2}}, txs), &net);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_TRUE(r.find<SchedulePlugin>());
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  EXPECT_TRUE(s.slots);
  EXPECT_EQ(s.slot_cycles, 3u);
  ASSERT_EQ(s.item_delivered.size(), 4u);
  // Each hop leaves delta into its slot and is in when the slot ends: (last slot + 1) x 3.
  EXPECT_EQ(s.item_delivered[0], 5u * 3);
  EXPECT_EQ(s.item_delivered[1], 3u * 3);
  EXPECT_EQ(s.item_delivered[2], 1u * 3);
  EXPECT_EQ(s.item_delivered[3], 4u * 3);
  EXPECT_EQ(s.completion, 15u);
  EXPECT_EQ(static_cast<double>(s.completion), s.planned);
  EXPECT_EQ(s.nodes_informed, s.nodes_expected);
  const auto used = link_flits(*net);
  const std::map<std::pair<int, std::string>, std::uint64_t> want = {
      {{0, "d0+"}, 2},  {{1, "d1+"}, 1}, {{4, "d2-"}, 1}, {{13, "d2+"}, 1},
      {{22, "d2+"}, 1}, {{5, "d1-"}, 1}, {{1, "d0+"}, 1}};
  EXPECT_EQ(used, want);
}

TEST(SlotSchedule, HypercubePacketsFollowTheirRoutesAndSlotsExactly) {
  // 2^4, unit packets, slot = 1 cycle. Routes against e-cube order, and a broadcast item.
  const std::string head =
      "topology: {type: hypercube, dim: 4}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n";
  const std::vector<Tx> txs = {
      {0, 0, {"d3", "d2", "d1", "d0"}, {0, 1, 5, 6}},  // 0 -> 8 -> 12 -> 14 -> 15
      {1, 15, {"d0", "d3"}, {2, 3}},                   // 15 -> 14 -> 6
      {2, 3, {"d1"}, {0}},                             // 3 -> 1, then 1 forwards it
      {2, 1, {"d2"}, {4}},                             // 1 -> 5
  };
  Network* net = nullptr;
  const Results r = run_keep(explicit_yaml(head, {{0, 15}, {15, 6}, {3, 5}}, txs), &net);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  ASSERT_EQ(s.item_delivered.size(), 3u);
  EXPECT_EQ(s.item_delivered[0], 7u);
  EXPECT_EQ(s.item_delivered[1], 4u);
  EXPECT_EQ(s.item_delivered[2], 5u);
  const auto used = link_flits(*net);
  const std::map<std::pair<int, std::string>, std::uint64_t> want = {
      {{0, "d3"}, 1},  {{8, "d2"}, 1},  {{12, "d1"}, 1}, {{14, "d0"}, 1},
      {{15, "d0"}, 1}, {{14, "d3"}, 1}, {{3, "d1"}, 1},  {{1, "d2"}, 1}};
  EXPECT_EQ(used, want);
}

TEST(SlotSchedule, TwoPacketsOnOneLinkInOneSlotAreRefusedNamingLinkAndSlot) {
  const std::vector<Tx> txs = {{0, 0, {"d0+", "d1+"}, {0, 2}}, {1, 1, {"d1+"}, {2}}};
  try {
    test::cfg(explicit_yaml(kTorus333, {{0, 4}, {1, 4}}, txs));
    FAIL() << "a conflicting schedule was accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("schedule.transmissions"), std::string::npos) << m;
    EXPECT_NE(m.find("node 1 (1,0,0) port d1+ in slot 2, by transmissions from 0 and 1"),
              std::string::npos)
        << m;
  }
}

TEST(SlotSchedule, UnheldPacketsAndMissingDestinationsAreRefused) {
  // Node 1 forwards packet 0 in slot 0, but it arrives only at the end of slot 0.
  const std::vector<Tx> txs = {{0, 0, {"d0+"}, {0}}, {0, 1, {"d0+"}, {0}}};
  try {
    test::cfg(explicit_yaml(kTorus333, {{0, 2}}, txs));
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("sends packet 0 in slot 0 but receives it only in slot 0"),
              std::string::npos)
        << e.what();
  }
  try {
    test::cfg(explicit_yaml(kTorus333, {{0, 5}}, {{0, 0, {"d0+"}, {0}}}));
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("node 5 (2,1,0) never receives packet 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(SlotSchedule, ShortestPathsAndLinkLimitsAreChecked) {
  const std::vector<Tx> detour = {{0, 0, {"d0-", "d0-"}, {0, 1}}};  // 0 -> 2 -> 1: 2 hops for 1
  EXPECT_NO_THROW(test::cfg(explicit_yaml(kTorus333, {{0, 1}}, detour)));
  EXPECT_THROW(test::cfg(explicit_yaml(kTorus333, {{0, 1}}, detour, "  shortest_paths: true\n")),
               ConfigError);
  const std::vector<Tx> two = {{0, 0, {"d0+"}, {0}}, {1, 0, {"d1+"}, {0}}};
  EXPECT_NO_THROW(test::cfg(explicit_yaml(kTorus333, {{0, 1}, {0, 3}}, two)));
  EXPECT_THROW(test::cfg(explicit_yaml(kTorus333, {{0, 1}, {0, 3}}, two, "  links_per_slot: 1\n")),
               ConfigError);
}

TEST(SlotSchedule, BroadcastItemReachesEveryNodeAlongATree) {
  // A 2^3 hypercube broadcast from node 0 by recursive doubling, one dimension per slot.
  const std::string head =
      "topology: {type: hypercube, dim: 3}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n";
  std::vector<Tx> txs;
  for (int d = 0; d < 3; ++d)
    for (int n = 0; n < (1 << d); ++n) txs.push_back({0, n, {"d" + std::to_string(d)}, {d}});
  const Results r = test::run(explicit_yaml(head, {{0, -1}}, txs, "  message_flits: 4\n"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.find<SchedulePlugin>()->result.nodes_informed, 7);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.slot_cycles, 4u);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.completion, 12u);  // 3 slots of 4 cycles
  EXPECT_EQ(r.find<SchedulePlugin>()->result.receptions_per_node_max, 1);
}

TEST(SlotSchedule, InputVcRoutersTakeDimensionOrderedRoutesWithTheirSlots) {
  const std::string head =
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {buffering: input_vc, switching: store_and_forward, vcs: 2, vc_depth: 4}\n"
      "timing: {alpha: 0, delta: 1, tau: 1}\n";
  // Slot = 1 + 4 = 5 cycles; the packet waits at node 1 until slot 3, in when it ends.
  const Results r = test::run(
      explicit_yaml(head, {{0, 5}}, {{0, 0, {"d0+", "d1+"}, {0, 3}}}, "  message_flits: 4\n"));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.find<SchedulePlugin>()->result.item_delivered[0], 4u * 5);
  EXPECT_EQ(r.credit_violations, 0u);
  // Dimension 1 before dimension 0: the dateline classes cannot keep it deadlock free.
  EXPECT_THROW(test::cfg(explicit_yaml(head, {{0, 5}}, {{0, 0, {"d1+", "d0+"}, {0, 1}}})),
               ConfigError);
}

TEST(PhaseSchedule, RelayOnPacketRoutersTakesOnePhaseEach) {
  // Phases on an output-queued wormhole network: 0 -> 2 (2 hops), then 2 -> 3, then 3 -> 7.
  const std::string head =
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {buffering: output_queued, switching: wormhole}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 3, delta: 1, tau: 1}\n";
  const std::string y =
      head +
      "traffic: {type: none}\nschedule:\n  algorithm: explicit\n  timing: phases\n"
      "  message_flits: 8\n  packets: [{source: 0, destination: 7}]\n"
      "  transmissions:\n"
      "    - {packet: 0, from: 0, route: [d0+, d0+], phase: 0}\n"
      "    - {packet: 0, from: 2, route: [d0+], phase: 1}\n"
      "    - {packet: 0, from: 3, route: [d1+], phase: 2}\n";
  const Results r = test::run(y);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  // alpha + h delta + L tau per phase: (3 + 2 + 8) + (3 + 1 + 8) + (3 + 1 + 8).
  EXPECT_EQ(r.find<SchedulePlugin>()->result.completion, 37u);
  EXPECT_EQ(r.find<SchedulePlugin>()->result.planned, 37.0);
}

TEST(ScheduleConfig, ExplicitKeysAreValidated) {
  const std::string base = std::string(kTorus333) + "traffic: {type: none}\n";
  EXPECT_THROW(test::cfg(base + "schedule: {algorithm: explicit}\n"), ConfigError);
  EXPECT_THROW(
      test::cfg(base + "schedule: {algorithm: explicit, packets: [{source: 0, destination: 1}],"
                       " transmissions: [{packet: 0, from: 0, route: [d5+], slots: [0]}]}\n"),
      ConfigError);
  EXPECT_THROW(
      test::cfg(base + "schedule: {algorithm: explicit, packets: [{source: 0, destination: 1}],"
                       " transmissions: [{packet: 0, from: 0, route: [d0+], slots: [0, 1]}]}\n"),
      ConfigError);
  EXPECT_THROW(test::cfg(base + "schedule: {algorithm: explicit, variant: slanting}\n"),
               ConfigError);
  // alpha > 0 has no place in slots.
  std::string alpha = base;
  alpha.replace(alpha.find("alpha: 0"), 8, "alpha: 1");
  EXPECT_THROW(
      test::cfg(alpha + "schedule: {algorithm: explicit, packets: [{source: 0, destination: 1}],"
                        " transmissions: [{packet: 0, from: 0, route: [d0+], slots: [0]}]}\n"),
      ConfigError);
}
