// BookSim2's iq_router switch knobs on the staged pipeline: router.hold_switch_for_packet,
// router.input_speedup / output_speedup (with the output buffer), and router.pipeline.ni_lt
// (the NI's channels apart from the network links), each on a scenario small enough to follow
// cycle by cycle; and the configs they are refused in.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "helpers.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

namespace {

// A line of three routers (0 - 1 - 2), 2 VCs of 16 flits (deeper than any credit round trip
// here, so no flit waits for a credit), BookSim2's 1-cycle stages; `router` adds keys.
std::string line_yaml(const std::string& router, const std::string& messages) {
  return "topology: {type: mesh, dims: [3]}\n"
         "router: {buffering: input_vc, vcs: 2, vc_depth: 16, " +
         router +
         "pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2}}\n"
         "traffic:\n  type: trace\n  messages:\n" +
         messages;
}

// Nodes 0 and 2 each send an 8-flit packet to node 1 in the same cycle: both heads reach router
// 1 together, take an ejection VC each, and meet at its ejection output.
const char* kTwoIntoOne =
    "    - {time: 5, src: 0, dst: 1, flits: 8}\n"
    "    - {time: 5, src: 2, dst: 1, flits: 8}\n";

std::vector<long long> latencies(const Results& r) {
  std::vector<long long> v;
  for (const auto& p : r.packets) v.push_back(static_cast<long long>(p.delivered - p.created));
  std::sort(v.begin(), v.end());
  return v;
}

// One hop, 8 flits, alone: 1 (injection) + 1 (link) + 1 (ejection) + 2 routers x 4 + 8 = 19.
constexpr long long kT0 = 19;

}  // namespace

TEST(SwitchKnobs, ZeroLoadOfTheLineIsTheFormula) {
  const Config c = test::cfg(line_yaml("", kTwoIntoOne));
  EXPECT_EQ(zero_load_latency(c, 1, 8), kT0);
}

// Without the hold the ejection output alternates between the two inputs flit by flit (the
// second head is a cycle late: both asked the VC allocator for the same ejection VC): the tails
// leave 2L - 2 and 2L - 1 cycles after the first head, the packets L - 1 and L late.
TEST(SwitchKnobs, WithoutHoldTwoPacketsInterleave) {
  const Results r = test::run(line_yaml("", kTwoIntoOne), true);
  ASSERT_TRUE(r.stable);
  EXPECT_EQ(latencies(r), (std::vector<long long>{kT0 + 7, kT0 + 8}));
}

// With the hold the first head to win the ejection output keeps it for its whole packet (its
// flits are in, one a cycle, with credits): it takes the zero-load latency, and the other
// packet's flits wait the first packet's length, L = 8 cycles, then stream.
TEST(SwitchKnobs, HeldConnectionBlocksTheOtherInputForThePacketsLength) {
  const Results r = test::run(line_yaml("hold_switch_for_packet: true, ", kTwoIntoOne), true);
  ASSERT_TRUE(r.stable);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(latencies(r), (std::vector<long long>{kT0, kT0 + 8}));
}

// A VC whose next flit is not in yet releases the connection: 1-flit packets never hold, and
// the hold's allocator then grants exactly what the plain one does (uniform load, every
// packet's latency the same).
TEST(SwitchKnobs, HoldWithOneFlitPacketsChangesNothing) {
  const std::string base =
      "topology: {type: mesh, dims: [4, 4]}\n"
      "router: {buffering: input_vc, vcs: 2, vc_depth: 4, %HOLD%pipeline: {credit_delay: 2}}\n"
      "traffic: {pattern: uniform, rate: 0.15, packet_flits: 1}\n"
      "simulation: {warmup: 200, measure: 1500, seed: 7}\n";
  std::string off = base, on = base;
  off.replace(off.find("%HOLD%"), 6, "");
  on.replace(on.find("%HOLD%"), 6, "hold_switch_for_packet: true, ");
  const std::string a = test::cli_results("knobs-hold-off", off);
  const std::string b = test::cli_results("knobs-hold-on", on);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(test::json_number(a, "latency", "mean"), test::json_number(b, "latency", "mean"));
  EXPECT_EQ(test::json_number(a, "packets", "delivered"),
            test::json_number(b, "packets", "delivered"));
  EXPECT_GT(test::json_number(a, "packets", "delivered"), 1000);
}

namespace {
// Router 1's west input carries X (node 0 -> node 2, east) and then Z (node 0 -> node 1, to
// its ejection output) on its two VCs; Y (node 1 -> node 2) competes with X for the east output
// flit by flit. With input speedup 1 the west input's one crossbar input bids with X in some
// cycles in which X loses the east output to Y: Z loses those cycles.
const char* kSpeedup =
    "    - {time: 5, src: 0, dst: 2, flits: 8}\n"
    "    - {time: 5, src: 0, dst: 1, flits: 8}\n"
    "    - {time: 10, src: 1, dst: 2, flits: 8}\n";
long long z_latency(const Results& r) {
  for (const auto& p : r.packets)
    if (p.src == 0 && p.dst == 1) return static_cast<long long>(p.delivered - p.created);
  return -1;
}
}  // namespace

TEST(SwitchKnobs, WithoutInputSpeedupTheSecondVcLosesCycles) {
  const Results r = test::run(line_yaml("", kSpeedup), true);
  ASSERT_EQ(r.packets.size(), 3u);
  // Z waits 8 cycles at the source behind X (one injection channel), then loses cycles.
  EXPECT_GT(z_latency(r), kT0 + 8);
}

// With input speedup 2, VC 0 (X) and VC 1 (Z) have a crossbar input each: in the cycles both
// are granted, the west input sends two flits, one east and one to the ejection output, and Z
// streams behind X's 8 flits at the source as if alone.
TEST(SwitchKnobs, InputSpeedupSendsTwoFlitsOfOneInputInACycle) {
  const Results r = test::run(line_yaml("input_speedup: 2, ", kSpeedup), true);
  ASSERT_EQ(r.packets.size(), 3u);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(z_latency(r), kT0 + 8);
}

// Output speedup 2: router 1's west and east inputs (ports of different parity) reach the
// ejection output on crossbar outputs of their own. The first packet A's head crosses alone at
// s, then A's flit i and B's flit i - 1 cross together at s + i, into the output buffer, A's
// first; the channel to the NI takes one flit a cycle: A0, A1, B0, A2, B1, ..., A7, B6, B7. A's
// tail leaves at s + 13, a cycle before it does without the speedup (L - 2 late), B's at
// s + 15 as without it: the link, not the switch, sets the pace.
TEST(SwitchKnobs, OutputSpeedupBuffersFlitsTheLinkTakesOneACycle) {
  const Results r = test::run(line_yaml("output_speedup: 2, ", kTwoIntoOne), true);
  ASSERT_TRUE(r.stable);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(latencies(r), (std::vector<long long>{kT0 + 6, kT0 + 8}));
}

// A one-flit output buffer: a crossbar output takes a flit only when the buffer is empty, so
// after A's head the pairs cross every other cycle (s + 1, s + 3, ...) and the link still takes
// one flit a cycle, in the same order: the same latencies (and no deadlock on the bound).
TEST(SwitchKnobs, OutputBufferSizeBoundsTheBuffer) {
  const Results r =
      test::run(line_yaml("output_speedup: 2, output_buffer_size: 1, ", kTwoIntoOne), true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(latencies(r), (std::vector<long long>{kT0 + 6, kT0 + 8}));
}

// ni_lt apart from lt: a 4x4 mesh with 2-cycle links and 1-cycle NI channels, R = 4: every
// isolated 4-flit packet over h hops takes h lt + 2 ni_lt + (h + 1) R + L = 6h + 10 cycles
// (with ni_lt = lt it would be 6h + 12: the difference is only in the two NI channels).
TEST(SwitchKnobs, NiChannelLatencyApartFromTheLinks) {
  const std::string head =
      "topology: {type: mesh, dims: [4, 4]}\n"
      "router: {buffering: input_vc, vcs: 2, vc_depth: 12,\n"
      "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 2, ni_lt: 1, credit_delay: 3}}\n"
      "traffic:\n  type: trace\n  messages:\n";
  const Config c = test::cfg(head + "    - {time: 0, src: 0, dst: 0, flits: 1}\n");
  EXPECT_EQ(c.router.pipeline.ni_credit_delay(), 2);
  const Topology topo = c.topology.make();
  test::expect_isolated_messages_exact(head, 16, 80, 4, [&](int s, int d) {
    const long long h = topo.distance(s, d);
    EXPECT_EQ(zero_load_latency(c, static_cast<int>(h), 4), 6 * h + 10);
    return 6 * h + 10;
  });
}

TEST(SwitchKnobs, NiLtDefaultsToLt) {
  const Config c = test::cfg(
      "topology: {type: mesh, dims: [3]}\n"
      "router: {buffering: input_vc, pipeline: {lt: 3}}\n");
  EXPECT_EQ(c.router.pipeline.ni_lt, 3);
  EXPECT_EQ(c.router.pipeline.ni_credit_delay(), c.router.pipeline.credit_delay);
}

TEST(SwitchKnobs, RefusedWhereTheyDoNotApply) {
  const std::string mesh = "topology: {type: mesh, dims: [3]}\n";
  // The ideal pipeline (no router.pipeline) and other routers.
  for (const char* k : {"hold_switch_for_packet: true", "input_speedup: 2", "output_speedup: 2"}) {
    std::string e = test::config_error(mesh + "router: {buffering: input_vc, " + k + "}\n");
    EXPECT_NE(e.find("staged pipeline"), std::string::npos) << k << ": " << e;
    EXPECT_NE(e.find("cfg.yaml:2"), std::string::npos) << e;
    e = test::config_error(mesh + "router: {buffering: output_queued, " + k + "}\n");
    EXPECT_NE(e.find("staged pipeline"), std::string::npos) << k << ": " << e;
    e = test::config_error(mesh + "router: {buffering: input_vc, switch_allocator: islip, " + k +
                           ", pipeline: {lt: 1}}\n");
    EXPECT_NE(e.find("separable_input_first"), std::string::npos) << k << ": " << e;
  }
  std::string e = test::config_error(
      mesh + "router: {buffering: input_vc, output_buffer_size: 4, pipeline: {lt: 1}}\n");
  EXPECT_NE(e.find("output_speedup"), std::string::npos) << e;
  e = test::config_error(mesh + "router: {buffering: input_vc, input_speedup: 0, pipeline: {}}\n");
  EXPECT_NE(e.find("input_speedup"), std::string::npos) << e;
  e = test::config_error(mesh +
                         "router: {buffering: input_vc, output_speedup: 2, pipeline: {lt: 1}}\n"
                         "timing: {tau: 2}\n");
  EXPECT_NE(e.find("tau"), std::string::npos) << e;
  e = test::config_error(mesh + "router: {buffering: input_vc, pipeline: {ni_lt: 9}}\n");
  EXPECT_NE(e.find("ni_lt"), std::string::npos) << e;
  // ni_lt is a key of the staged pipeline, which only input_vc routers have.
  e = test::config_error(mesh + "router: {buffering: output_queued, pipeline: {ni_lt: 1}}\n");
  EXPECT_NE(e.find("input_vc"), std::string::npos) << e;
}
