// Circuit switching on the cycle model: the broadcast schedules of Peters & Syska executed by the
// nodes take exactly their closed-form times; router contention; direct connect vs wormhole
// circuits; source routes through the TLM extension.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/schemes/circuit/closed_forms.hpp"
#include "switchyard/sim/analysis.hpp"
#include "tlm_initiator.hpp"

using namespace sy;

struct SchedCase {
  std::string name;
  int n0, n1;
  std::string algorithm, variant;
  int alpha, delta, tau, L, B, root;
};
std::ostream& operator<<(std::ostream& o, const SchedCase& c) {
  return o << c.name;
}

class Schedules : public ::testing::TestWithParam<SchedCase> {};

TEST_P(Schedules, ModelTimeIsTheClosedFormAndEveryNodeIsInformedOnce) {
  const SchedCase& c = GetParam();
  std::ostringstream y;
  y << "topology: {type: torus, dims: [" << c.n0 << ", " << c.n1 << "]}\n"
    << "router: {switching: direct_connect}\n"
    << "timing: {alpha: " << c.alpha << ", delta: " << c.delta << ", tau: " << c.tau << "}\n"
    << "traffic: {type: none}\n"
    << "schedule: {algorithm: " << c.algorithm << ", message_flits: " << c.L
    << ", packet_flits: " << c.B << ", root: " << c.root;
  if (c.algorithm == "tiling" || c.variant != "slanting")
    y << ", variant: " << c.variant;  // (only the tiling and h_trees have variants)
  y << "}\n";
  const Results r = test::run(y.str());
  ASSERT_TRUE(r.find<SchedulePlugin>());
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const ScheduleResult& s = r.find<SchedulePlugin>()->result;
  EXPECT_EQ(s.nodes_informed, c.n0 * c.n1 - 1);
  EXPECT_EQ(s.duplicates, 0u);
  EXPECT_EQ(s.receptions_per_node_max, s.parts);
  // The model's time against the paper's closed form.
  EXPECT_EQ(static_cast<double>(s.completion), s.formula) << s.formula_text;
  EXPECT_GE(static_cast<double>(s.completion), s.lower_bound);
}

INSTANTIATE_TEST_SUITE_P(
    Circuit, Schedules,
    ::testing::Values(
        SchedCase{"tiling_5x5", 5, 5, "tiling", "slanting", 20, 3, 1, 16, 0, 0},
        SchedCase{"tiling_5x5_delta0_tau2_root7", 5, 5, "tiling", "slanting", 5, 0, 2, 7, 0, 7},
        SchedCase{"tiling_25x25", 25, 25, "tiling", "slanting", 10, 1, 1, 8, 0, 100},
        SchedCase{"tiling_10x10_slanting", 10, 10, "tiling", "slanting", 30, 2, 1, 5, 0, 0},
        SchedCase{"tiling_10x10_boss", 10, 10, "tiling", "boss_blocks", 30, 2, 3, 5, 0, 11},
        SchedCase{"tiling_10x10_blocks_first", 10, 10, "tiling", "blocks_first", 30, 2, 1, 5, 0, 0},
        SchedCase{"tiling_5x10", 5, 10, "tiling", "slanting", 7, 4, 2, 9, 0, 3},
        // Any size (the pinwheel partition, not the paper's): its own self-timed chain.
        SchedCase{"tiling_pinwheel_7x9", 7, 9, "tiling", "pinwheel", 20, 3, 1, 16, 0, 0},
        SchedCase{"tiling_pinwheel_12x12_delta_heavy", 12, 12, "tiling", "pinwheel", 1, 40, 1, 3, 0,
                  77},
        SchedCase{"tiling_pinwheel_3x16_delta0", 3, 16, "tiling", "pinwheel", 5, 0, 2, 7, 0, 10},
        SchedCase{"tiling_pinwheel_25x25", 25, 25, "tiling", "pinwheel", 10, 1, 1, 8, 0, 100},
        // The fill's first negotiation only, what it leaves served after the pipeline: the
        // schedule's own self-timed chain (T(B) beside).
        SchedCase{"htrees_63x63_deferred_fill", 63, 63, "h_trees", "deferred_fill", 20, 3, 1, 16, 4,
                  0},
        SchedCase{"htrees_63x63_deferred_fill_delta_heavy_root", 63, 63, "h_trees", "deferred_fill",
                  1, 40, 1, 12, 3, 1000},
        SchedCase{"dc_8x8", 8, 8, "divide_and_conquer", "slanting", 20, 3, 1, 16, 4, 0},
        SchedCase{"dc_16x16_delta0_tau3", 16, 16, "divide_and_conquer", "slanting", 9, 0, 3, 24, 8,
                  37},
        SchedCase{"dc_32x32", 32, 32, "divide_and_conquer", "slanting", 50, 2, 1, 64, 16, 0},
        SchedCase{"htrees_7x7", 7, 7, "h_trees", "slanting", 20, 3, 1, 16, 4, 0},
        SchedCase{"htrees_15x15", 15, 15, "h_trees", "slanting", 20, 3, 2, 16, 4, 20},
        SchedCase{"htrees_15x15_P8", 15, 15, "h_trees", "slanting", 20, 3, 2, 64, 4, 5},
        SchedCase{"htrees_15x15_slow_start", 15, 15, "h_trees", "slanting", 100, 7, 1, 48, 8, 0},
        SchedCase{"htrees_15x15_delta0", 15, 15, "h_trees", "slanting", 9, 0, 3, 24, 3, 17},
        SchedCase{"htrees_31x31", 31, 31, "h_trees", "slanting", 20, 3, 1, 16, 4, 0},
        SchedCase{"htrees_31x31_P6_root", 31, 31, "h_trees", "slanting", 100, 7, 2, 96, 8, 500},
        SchedCase{"htrees_31x31_delta0", 31, 31, "h_trees", "slanting", 9, 0, 3, 24, 3, 31},
        SchedCase{"saf_trees_8x8", 8, 8, "store_and_forward_trees", "slanting", 10, 2, 1, 16, 4, 0},
        SchedCase{"saf_trees_7x7_delta0", 7, 7, "store_and_forward_trees", "slanting", 10, 0, 2, 8,
                  2, 5},
        // B not dividing L: packets of B flits, the last of each stream shorter; the formula is
        // T(B) with the shorter last packet (closed_forms.hpp pipeline_last_terms).
        SchedCase{"dc_8x8_last_shorter", 8, 8, "divide_and_conquer", "slanting", 20, 3, 1, 16, 5,
                  0},
        SchedCase{"dc_8x8_last_waits_late", 8, 8, "divide_and_conquer", "slanting", 2600, 400, 17,
                  1024, 356, 9},
        SchedCase{"dc_16x16_last_one_flit", 16, 16, "divide_and_conquer", "slanting", 9, 1, 3, 25,
                  8, 37},
        SchedCase{"dc_32x32_last_shorter", 32, 32, "divide_and_conquer", "slanting", 50, 2, 1, 60,
                  23, 0},
        SchedCase{"htrees_7x7_last_shorter", 7, 7, "h_trees", "slanting", 20, 3, 1, 16, 3, 0},
        SchedCase{"htrees_15x15_odd_L", 15, 15, "h_trees", "slanting", 20, 3, 2, 17, 5, 20},
        SchedCase{"htrees_31x31_last_shorter", 31, 31, "h_trees", "slanting", 100, 7, 2, 30, 4, 0},
        SchedCase{"saf_trees_8x8_last_shorter", 8, 8, "store_and_forward_trees", "slanting", 10, 2,
                  1, 18, 3, 0},
        SchedCase{"saf_trees_7x7_last_shorter", 7, 7, "store_and_forward_trees", "slanting", 10, 0,
                  2, 13, 2, 5}),
    [](const ::testing::TestParamInfo<SchedCase>& i) { return i.param.name; });

TEST(Circuit, UnsupportedSizeIsAConfigErrorNamingTheSizes) {
  try {
    test::cfg(
        "topology: {type: torus, dims: [7, 7]}\nrouter: {switching: direct_connect}\n"
        "traffic: {type: none}\nschedule: {algorithm: tiling}\n");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("schedule.algorithm"), std::string::npos) << m;
    EXPECT_NE(m.find("7x7"), std::string::npos) << m;
    EXPECT_NE(m.find("5x5"), std::string::npos) << m;
  }
}

// schedule.variant belongs to the tiling and h_trees, each its own: any other pairing is a
// config error at the key (it was once ignored).
TEST(Circuit, AVariantOfAnotherScheduleIsAConfigError) {
  struct Case {
    const char *dims, *sched, *why;
  };
  const Case cases[] = {
      {"[7, 7]", "{algorithm: h_trees, message_flits: 4, packet_flits: 2, variant: pinwheel}",
       "h_trees"},
      {"[5, 5]", "{algorithm: tiling, variant: deferred_fill}", "h_trees' variant"},
      {"[8, 8]",
       "{algorithm: divide_and_conquer, message_flits: 4, packet_flits: 2, variant: slanting}",
       "only tiling and h_trees"}};
  for (const auto& [dims, sched, why] : cases) {
    try {
      test::cfg(std::string("topology: {type: torus, dims: ") + dims +
                "}\nrouter: {switching: direct_connect}\ntraffic: {type: none}\nschedule: " +
                sched + "\n");
      ADD_FAILURE() << "no error: " << sched;
    } catch (const ConfigError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("schedule.variant"), std::string::npos) << m;
      EXPECT_NE(m.find(why), std::string::npos) << m;
    }
  }
}

// A packet size that leaves a stream's last packet empty: a config error at packet_flits.
TEST(Circuit, PacketSizeLeavingAnEmptyLastPacketIsAConfigError) {
  try {
    test::cfg(
        "topology: {type: torus, dims: [7, 7]}\nrouter: {switching: direct_connect}\n"
        "traffic: {type: none}\n"
        "schedule: {algorithm: h_trees, message_flits: 17, packet_flits: 4}\n");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("schedule.packet_flits"), std::string::npos) << m;
    EXPECT_NE(m.find(":4:"), std::string::npos) << m;  // the line of the key
    EXPECT_NE(m.find("empty"), std::string::npos) << m;
  }
}

namespace {
std::string two_messages(const std::string& switching, int ack, int L0, int L1) {
  // Node 0 -> 2 (through node 1) and node 1 -> 2, requested together on a 6x1 ring: both
  // headers want the link 1 -> 2.
  std::ostringstream y;
  y << "topology: {type: torus, dims: [6, 1]}\n"
    << "router: {buffering: circuit, switching: " << switching << "}\n"
    << "timing: {alpha: 3, delta: 2, tau: 1, ack_per_hop: " << ack << "}\n"
    << "traffic:\n  type: trace\n  messages:\n"
    << "    - {time: 10, src: 0, dst: 2, flits: " << L0 << "}\n"
    << "    - {time: 10, src: 1, dst: 2, flits: " << L1 << "}\n";
  return y.str();
}
}  // namespace

TEST(Circuit, ContentionAHeaderWaitsForTheHeldLink) {
  const Results r = test::run(two_messages("direct_connect", 0, 5, 8), true);
  ASSERT_EQ(r.packets.size(), 2u);
  // The 1-hop message's header reaches node 1's switch first (t0 + alpha + delta = 15), holds
  // 1 -> 2 until its 8 flits are in (15 + 8 = 23); the other header, ready at 17, waits, takes
  // the link at 23 and its 5 flits are in at 28.
  Cycle one = 0, two = 0;
  for (const auto& p : r.packets) (p.src == 1 ? one : two) = p.delivered;
  EXPECT_EQ(one, 10u + 3 + 2 + 8);
  EXPECT_EQ(two, 23u + 5);
  EXPECT_GT(r.max_flit_wait, 0u);
}

TEST(Circuit, DirectConnectPaysTheAcknowledgmentOnLongPathsWormholeDoesNot) {
  // A 1-flit message over 8 hops and a 2000-flit message over 1 hop, ack 3 cycles per hop.
  const std::string head =
      "topology: {type: torus, dims: [17, 1]}\ntiming: {alpha: 5, delta: 1, tau: 1, "
      "ack_per_hop: 3}\ntraffic:\n  type: trace\n  messages:\n"
      "    - {time: 0, src: 0, dst: 8, flits: 1}\n"
      "    - {time: 0, src: 0, dst: 16, flits: 2000}\n";
  const Results dc = test::run(head + "router: {switching: direct_connect}\n", true);
  std::string log;
  const std::string js = test::cli_results(
      "wh_circuit", head + "router: {buffering: circuit, switching: wormhole}\n", &log);
  ASSERT_FALSE(js.empty()) << log;
  ASSERT_EQ(dc.packets.size(), 2u);
  Cycle dc_short = 0, dc_long = 0;
  for (const auto& p : dc.packets) (p.flits == 1 ? dc_short : dc_long) = p.delivered - p.created;
  EXPECT_EQ(dc_short, 5u + 8 * (1 + 3) + 1);  // alpha + h(delta + ack) + L tau
  EXPECT_EQ(dc_long, 5u + 1 * (1 + 3) + 2000);
  // Wormhole circuits: alpha + h delta + L tau, no acknowledgment: the means tell.
  const double wh_mean = test::json_number(js, "latency", "mean");
  EXPECT_DOUBLE_EQ(wh_mean, ((5 + 8 + 1) + (5 + 1 + 2000)) / 2.0);
  // Short message on a long path: direct connect 2.7x slower; long message, short path: 0.15%.
  EXPECT_GT(double(dc_short) / (5 + 8 + 1), 2.0);
  EXPECT_LT(double(dc_long) / (5 + 1 + 2000), 1.002);
}

TEST(Circuit, SourceRouteFixesThePath) {
  const Config cfg = test::cfg(
      "topology: {type: torus, dims: [4, 4]}\nrouter: {switching: direct_connect}\n"
      "timing: {alpha: 2, delta: 3, tau: 1}\ntraffic: {type: none}\n");
  std::unique_ptr<test::Initiator> init;
  std::vector<tlm::tlm_response_status> st;
  std::vector<Delivery> got;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    init.reset(new test::Initiator("init", [&](test::Initiator& i) {
      wait(4, sc_core::SC_NS);
      NocExtension ext;
      // 0 -> 1 on a 4x4 torus the long way: +y, +x, -y (3 hops instead of 1); 2 flits.
      ext.route = {{1, +1}, {0, +1}, {1, -1}};
      st.push_back(i.send(1, 32, nullptr, &ext));
      NocExtension bad;
      bad.route = {{1, +1}, {0, +1}};  // ends at 5, not 1
      st.push_back(i.send(1, 32, nullptr, &bad));
    }));
    init->out.bind(net.ni(0).target);
    net.ni(1).on_receive([&](const Delivery& d) { got.push_back(d); });
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(st[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].delivered - got[0].created, 2u + 3 * 3 + 2);  // alpha + 3 hops * delta + L tau
  EXPECT_EQ(r.flit_hops, 3u * 2);
}

TEST(Circuit, WithoutABarrierPhasesCanMeetWithOneTheySynchronize) {
  // 16x16 tiling (2x2 blocks) with a short message: a fast transmission of one phase meets a slow
  // one of the previous phase on an arc and waits, unless phases are synchronous.
  const std::string y =
      "topology: {type: torus, dims: [16, 16]}\nrouter: {switching: direct_connect}\n"
      "timing: {alpha: 20, delta: 3, tau: 1}\ntraffic: {type: none}\n"
      "schedule: {algorithm: tiling, message_flits: 16, barrier: true}\n";
  const Results r = test::run(y);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(static_cast<double>(r.find<SchedulePlugin>()->result.completion),
            r.find<SchedulePlugin>()->result.formula);
  std::string log;
  const std::string js =
      test::cli_results("nobarrier", y.substr(0, y.find(", barrier")) + "}\n", &log);
  ASSERT_FALSE(js.empty()) << log;
  // Contention without the barrier.
  EXPECT_GT(test::json_number(js, "schedule", "completion_time"),
            r.find<SchedulePlugin>()->result.formula);
}

// Circuit routers whose headers all wait for a known cycle sleep until then instead of being
// evaluated each cycle (design.md, "The kernel"); with power counted they are evaluated on every
// cycle as before. The two runs must give the same latencies (every packet's histogram bin),
// links and end, under contention (headers behind held circuits), with direct connect
// (acknowledgments) and wormhole circuits. (All-port NIs sleep through their start-up in both
// runs; the closed-form tests above, alpha + h delta + L tau to the cycle, time them.)
TEST(Circuit, SleepingRoutersTimeEveryPacketAsEvaluatingEachCycle) {
  for (const std::string sw :
       {"{switching: direct_connect}", "{buffering: circuit, switching: wormhole}"})
    for (const char* rate : {"0.04", "0.1"})
      for (const char* seed : {"7", "8"}) {
        const std::string y = "topology: {type: torus, dims: [5, 4]}\nrouter: " + sw +
                              "\ntiming: {alpha: 9, delta: 3, tau: 2, ack_per_hop: 1}\n" +
                              "traffic: {rate: " + rate + ", packet_flits: 6}\n" +
                              "simulation: {warmup: 200, measure: 3000, seed: " + seed + "}\n";
        std::string log;
        const std::string asleep_js = test::cli_results("circuit_asleep", y, &log);
        ASSERT_FALSE(asleep_js.empty()) << log;
        const std::string each_js =
            test::cli_results("circuit_each", y + "power: {enable: true}\n", &log);
        ASSERT_FALSE(each_js.empty()) << log;
        const nlohmann::json asleep = nlohmann::json::parse(asleep_js);
        const nlohmann::json each = nlohmann::json::parse(each_js);
        for (const char* k : {"cycles", "packets", "flits", "latency", "network_latency",
                              "latency_histogram", "links", "throughput"}) {
          ASSERT_TRUE(asleep.contains(k)) << y << k;
          EXPECT_EQ(asleep[k], each[k]) << y << k;
        }
        // Contention: some packet took longer than an isolated one over the longest path.
        EXPECT_GT(asleep["latency"]["max"].get<double>(), 9 + 4 * (3 + 1) + 6 * 2) << y;
        EXPECT_GT(asleep["packets"]["delivered"].get<double>(), 300) << y;
      }
}
