// BookSim2's VC allocation behaviour and knobs on the staged pipeline (issue 32):
// router.vc_request (lowest | all_free), router.vc_busy_when_full, router.vc_prioritize_empty
// (each on the VC allocator alone: which output VC a header gets), the cycle a header queued
// behind a tail is routed with wait_for_tail_credit: false (a whole network, exact cycles), and
// the keys refused where they do not apply.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/router/vc_allocator.hpp"

using namespace sy;

namespace {

// One input (2 VCs of 4 flits) whose VC 0 holds a routed header for output 0, VCs [0, vcs); a
// second input's VC 0 the same when two.
struct Bench {
  PacketPool pool;
  std::vector<InputUnit> in;
  std::vector<OutputUnit> out;
  VcAllocator va;
  VcGrant g[8];
  Bench(int inputs, int vcs)
      : out(1, OutputUnit(vcs, 4)), va(inputs, 1, vcs, ArbPolicy::RoundRobin) {
    const std::uint32_t pk = pool.allocate();
    for (int p = 0; p < inputs; ++p) {
      in.emplace_back(vcs, 4, 1, ArbPolicy::RoundRobin);
      VirtualChannel& vc = in[p].vcs[0];
      Flit f;
      f.packet = pk;
      f.head = true;
      vc.fifo.push(f);
      in[p].nonempty |= 1;
      vc.state = VirtualChannel::State::Routed;
      vc.out_port = 0;
      vc.vc_lo = 0;
      vc.vc_hi = vcs;
      va.routed(p, 0);
    }
  }
  // This cycle's grant to input 0's header (its output VC, -1: none), not taken: the header
  // stays routed and requests again next cycle.
  int grant(Cycle t) {
    const int n = va.allocate(in, out, pool, t, g);
    for (int k = 0; k < n; ++k)
      if (g[k].in_port == 0) return g[k].out_vc;
    return -1;
  }
};

}  // namespace

// lowest (the default): a header always asks for the lowest free VC; all_free (BookSim2): its
// input arbiter goes round robin over the free VCs, its pointer one past the VC it was granted.
TEST(VcRequest, AllFreeRoundRobinsOverTheFreeVcsLowestTakesTheLowest) {
  Bench lowest(1, 4), all(1, 4);
  all.va.knobs(true, false, false);
  lowest.out[0].take(2);  // VC 2 owned: skipped by both
  all.out[0].take(2);
  std::vector<int> gl, ga;
  for (Cycle t = 0; t < 5; ++t) {
    gl.push_back(lowest.grant(t));
    ga.push_back(all.grant(t));
  }
  EXPECT_EQ(gl, (std::vector<int>{0, 0, 0, 0, 0}));
  EXPECT_EQ(ga, (std::vector<int>{0, 1, 3, 0, 1}));
}

// all_free: the input arbiter's pointer moves only when the output VC's arbiter grants it too
// (BookSim2 updates both arbiters of a matched pair only). Two headers, both pointers at VC 0:
// both ask for VC 0, input 0 wins; input 1's pointer stays, so it asks for VC 0 again.
TEST(VcRequest, AllFreeMovesTheInputPointerOnlyOnAGrant) {
  Bench b(2, 2);
  b.va.knobs(true, false, false);
  ASSERT_EQ(b.va.allocate(b.in, b.out, b.pool, 0, b.g), 1);
  EXPECT_EQ(b.g[0].in_port, 0);
  EXPECT_EQ(b.g[0].out_vc, 0);
  // Cycle 1: input 0 (pointer at VC 1) asks for VC 1, input 1 (pointer at 0) for VC 0: both win.
  ASSERT_EQ(b.va.allocate(b.in, b.out, b.pool, 1, b.g), 2);
  for (int k = 0; k < 2; ++k) EXPECT_EQ(b.g[k].out_vc, b.g[k].in_port == 0 ? 1 : 0);
}

// vc_busy_when_full: a free VC without a credit (its last packet's flits fill the downstream
// buffer: wait_for_tail_credit false) is not requested; with none other the header waits.
TEST(VcBusyWhenFull, AFullFreeVcIsNotRequested) {
  for (bool all_free : {false, true}) {
    Bench off(1, 2), on(1, 2);
    on.va.knobs(all_free, true, false);
    off.va.knobs(all_free, false, false);
    for (Bench* b : {&off, &on}) b->out[0].vc(0).credits = 0;  // VC 0 free but full
    EXPECT_EQ(off.grant(0), 0) << all_free;
    EXPECT_EQ(on.grant(0), 1) << all_free;
    for (Bench* b : {&off, &on}) b->out[0].vc(1).credits = 0;  // both full
    EXPECT_GE(off.grant(1), 0) << all_free;
    EXPECT_EQ(on.grant(1), -1) << all_free;
    on.out[0].vc(1).credits = 1;  // a credit back on VC 1
    EXPECT_EQ(on.grant(2), 1) << all_free;
  }
}

// vc_prioritize_empty: a header prefers a free VC whose downstream buffer is empty (every credit
// back) to a free one still holding flits, whatever the order or the pointer says; among VCs
// alike, lowest or round robin as before.
TEST(VcPrioritizeEmpty, AnEmptyFreeVcWinsOverANonEmptyOne) {
  for (bool all_free : {false, true}) {
    Bench off(1, 3), on(1, 3);
    on.va.knobs(all_free, false, true);
    off.va.knobs(all_free, false, false);
    for (Bench* b : {&off, &on}) {
      b->out[0].vc(0).credits = 2;  // 2 flits of the last packet still downstream
      b->out[0].vc(1).credits = 3;
    }
    EXPECT_EQ(off.grant(0), 0) << all_free;
    EXPECT_EQ(on.grant(0), 2) << all_free;  // the only empty one
    on.out[0].vc(2).credits = 1;            // now none is empty: as without the knob
    EXPECT_EQ(on.grant(1), 0) << all_free;  // (all_free: the pointer is past VC 2)
  }
}

// Separable output-first: vc_busy_when_full keeps the full VC out of the requests, and
// vc_prioritize_empty makes the header accept the empty VC's grant.
TEST(VcKnobs, OutputFirstFiltersAndPrefersToo) {
  Bench full(1, 2), empty(1, 2), plain(1, 2);
  for (Bench* b : {&full, &empty, &plain}) {
    b->va.output_first(true);
    b->out[0].vc(0).credits = b == &full ? 0 : 1;
  }
  full.va.knobs(false, true, false);
  empty.va.knobs(false, false, true);
  EXPECT_EQ(plain.grant(0), 0);  // both VCs grant; the accept pointer (0) takes VC 0
  EXPECT_EQ(full.grant(0), 1);
  EXPECT_EQ(empty.grant(0), 1);
}

// wait_for_tail_credit: false on the staged pipeline: a header queued behind a tail starts its
// route computation the cycle after the tail wins the switch (its VC goes idle in that cycle),
// as in BookSim2's iq_router, not in the same cycle. Two 3-flit packets from node 0 to node 1
// back to back on one VC: the first's header wins the switch at router 0 at s, its tail at
// s + 2; the second's header is routed at s + 3, allocated its VC at s + 4 (rc 1) and wins the
// switch at s + 5 (va 1). Both then find router 1 idle, so they are delivered 5 cycles apart
// (L + rc + va; the switch-allocation cycle of the tail also routing the header gave 4).
TEST(WaitForTailCredit, StagedRoutesTheHeaderBehindATailTheCycleAfter) {
  const Results r = test::run(
      "topology: {type: mesh, dims: [2]}\n"
      "router: {vcs: 1, vc_depth: 16, wait_for_tail_credit: false,\n"
      "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 2, src: 0, dst: 1, flits: 3}\n"
      "    - {time: 2, src: 0, dst: 1, flits: 3}\n",
      /*records=*/true);
  ASSERT_EQ(r.packets.size(), 2u);
  std::vector<Cycle> d{r.packets[0].delivered, r.packets[1].delivered};
  std::sort(d.begin(), d.end());
  EXPECT_EQ(d[1] - d[0], 5u);
}

// The same with rc 2 and va 2: L + rc + va = 3 + 2 + 2 = 7 cycles apart.
TEST(WaitForTailCredit, StagedHeaderBehindATailTakesRcAndVaAfterTheTail) {
  const Results r = test::run(
      "topology: {type: mesh, dims: [2]}\n"
      "router: {vcs: 1, vc_depth: 16, wait_for_tail_credit: false,\n"
      "         pipeline: {rc: 2, va: 2, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 2, src: 0, dst: 1, flits: 3}\n"
      "    - {time: 2, src: 0, dst: 1, flits: 3}\n",
      /*records=*/true);
  ASSERT_EQ(r.packets.size(), 2u);
  std::vector<Cycle> d{r.packets[0].delivered, r.packets[1].delivered};
  std::sort(d.begin(), d.end());
  EXPECT_EQ(d[1] - d[0], 7u);
}

namespace {
// Two 3-flit packets from node 0 to node 1 back to back, 2 VCs, wait_for_tail_credit false:
// how many cycles apart they are delivered.
Cycle two_packets_apart(const std::string& vc_request) {
  const Results r = test::run(
      "topology: {type: mesh, dims: [2]}\n"
      "router: {vcs: 2, vc_depth: 16, wait_for_tail_credit: false, vc_request: " +
          vc_request +
          ",\n"
          "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
          "traffic:\n  type: trace\n  messages:\n"
          "    - {time: 2, src: 0, dst: 1, flits: 3}\n"
          "    - {time: 2, src: 0, dst: 1, flits: 3}\n",
      /*records=*/true);
  EXPECT_EQ(r.packets.size(), 2u);
  if (r.packets.size() != 2) return 0;
  const Cycle a = r.packets[0].delivered, b = r.packets[1].delivered;
  return a > b ? a - b : b - a;
}
}  // namespace

// all_free also makes the NI inject round robin over its free injection VCs, as BookSim2's
// source does: the second packet takes injection VC 1 and is routed and allocated while the
// first is still leaving, so the two are only the injection link's L = 3 cycles apart. With
// lowest, the NI puts it on VC 0 again (free as the first's tail leaves), behind that tail:
// L + rc + va = 5 apart, as with one VC.
TEST(VcRequest, AllFreeInjectsRoundRobinOverTheInjectionVcs) {
  EXPECT_EQ(two_packets_apart("all_free"), 3u);
}
TEST(VcRequest, LowestInjectsOnTheLowestFreeInjectionVc) {
  EXPECT_EQ(two_packets_apart("lowest"), 5u);
}

// The knobs on a loaded staged network: credits and flit order intact, traffic delivered, and
// each knob echoed in results.json.
TEST(VcKnobs, LoadedNetworkStaysIntactAndEchoesTheKnobs) {
  int rc = 0;
  const std::string js = test::cli_results_any(
      "vc_knobs_loaded",
      "topology: {type: mesh, dims: [4, 4]}\n"
      "router: {vcs: 4, vc_depth: 4, wait_for_tail_credit: false, vc_request: all_free,\n"
      "         vc_busy_when_full: true, vc_prioritize_empty: true, pipeline: {credit_delay: 2}}\n"
      "traffic: {rate: 0.6, packet_flits: 5}\n"
      "simulation: {warmup: 300, measure: 2000, seed: 5}\n",
      &rc);
  EXPECT_TRUE(rc == 0 || rc == 3);
  test::expect_flow_intact(js, 1000, "all knobs");
  EXPECT_NE(js.find("\"vc_request\": \"all_free\""), std::string::npos);
  EXPECT_NE(js.find("\"vc_busy_when_full\": true"), std::string::npos);
  EXPECT_NE(js.find("\"vc_prioritize_empty\": true"), std::string::npos);
}

TEST(VcKnobs, RefusedWhereTheyDoNotApply) {
  const std::string base = "topology: {type: torus, dims: [4, 4]}\n";
  const std::string staged = "pipeline: {}, wait_for_tail_credit: false";
  // The ideal pipeline (no separate VC allocator).
  for (const char* k :
       {"vc_request: all_free", "vc_busy_when_full: true", "vc_prioritize_empty: false"}) {
    const std::string e = test::config_error(base + "router: {" + k + "}\n");
    EXPECT_NE(e.find("cfg.yaml:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("router." + std::string(k).substr(0, std::string(k).find(':'))),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("router.pipeline"), std::string::npos) << e;
  }
  // Not an input-VC router.
  std::string e =
      test::config_error(base + "router: {buffering: output_queued, vc_request: all_free}\n");
  EXPECT_NE(e.find("router.vc_request"), std::string::npos) << e;
  // vc_request with the output-first VC allocator (it requests every free VC already).
  e = test::config_error(base + "router: {" + staged +
                         ", vc_allocator: separable_output_first, vc_request: lowest}\n");
  EXPECT_NE(e.find("router.vc_request"), std::string::npos) << e;
  EXPECT_NE(e.find("separable_input_first"), std::string::npos) << e;
  // A bad value.
  e = test::config_error(base + "router: {" + staged + ", vc_request: random}\n");
  EXPECT_NE(e.find("all_free"), std::string::npos) << e;
  e = test::config_error(base + "router: {" + staged + ", vc_busy_when_full: 2}\n");
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;
  // busy_when_full and prioritize_empty do nothing while a VC waits for its tail credit.
  for (const char* k : {"vc_busy_when_full", "vc_prioritize_empty"}) {
    e = test::config_error(base + "router: {pipeline: {}, " + k + ": true}\n");
    EXPECT_NE(e.find(std::string("router.") + k), std::string::npos) << e;
    EXPECT_NE(e.find("wait_for_tail_credit"), std::string::npos) << e;
  }
  // Where they apply: accepted.
  EXPECT_EQ(test::config_error(base + "router: {" + staged +
                               ", vc_request: all_free, vc_busy_when_full: true, "
                               "vc_prioritize_empty: true}\n"),
            "");
  EXPECT_EQ(test::config_error(base + "router: {" + staged +
                               ", vc_allocator: separable_output_first, vc_busy_when_full: true, "
                               "vc_prioritize_empty: true}\n"),
            "");
  EXPECT_EQ(test::config_error(base + "router: {pipeline: {}, vc_request: all_free}\n"), "");
}
