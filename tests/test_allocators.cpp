// Allocators chosen by name (router.switch_allocator, router.vc_allocator): each matching is a
// matching (at most one grant per input and per output, only requested pairs), the ones that
// promise it are maximal, iSLIP's extra rounds fill what one round leaves, and every allocator
// carries a loaded network with credits and flit order intact.
#include <gtest/gtest.h>

#include <sstream>

#include "helpers.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/router/allocators/matcher.hpp"
#include "switchyard/router/vc_allocator.hpp"

using namespace sy;

namespace {

// Checks grant[] against req[]; returns whether the matching is maximal (no requested pair with
// both ends free).
bool check_matching(const std::vector<std::uint64_t>& req, const std::vector<int>& grant,
                    int outputs) {
  std::uint64_t used = 0, free_in_req = 0;
  for (std::size_t i = 0; i < req.size(); ++i) {
    const int o = grant[i];
    if (o < 0) {
      free_in_req |= req[i];
      continue;
    }
    EXPECT_LT(o, outputs);
    EXPECT_TRUE(req[i] >> o & 1) << "input " << i << " granted output " << o
                                 << " it did not request";
    EXPECT_FALSE(used >> o & 1) << "output " << o << " granted twice";
    used |= std::uint64_t{1} << o;
  }
  return (free_in_req & ~used) == 0;
}

}  // namespace

TEST(Matchers, EveryMatchingIsValidAndTheMaximalOnesAreMaximal) {
  Rng rng(7);
  for (const char* name : {"separable_output_first", "islip", "wavefront"}) {
    for (int trial = 0; trial < 300; ++trial) {
      const int P = 1 + static_cast<int>(rng.below(12)), O = 1 + static_cast<int>(rng.below(12));
      auto m = make_matcher(name, P, O, std::max(P, O));
      ASSERT_TRUE(m);
      for (int cycle = 0; cycle < 4; ++cycle) {
        std::vector<std::uint64_t> req(P);
        for (auto& r : req)
          for (int o = 0; o < O; ++o)
            if (rng.below(3) == 0) r |= std::uint64_t{1} << o;
        std::vector<int> grant(P);
        m->match(req.data(), grant.data());
        const bool maximal = check_matching(req, grant, O);
        // iSLIP with max(P, O) rounds and wavefront always reach a maximal matching.
        if (std::string(name) != "separable_output_first") {
          EXPECT_TRUE(maximal) << name;
        }
      }
    }
  }
  EXPECT_FALSE(make_matcher("separable_input_first", 2, 2, 1));
}

TEST(Matchers, IslipSecondRoundFillsWhatTheFirstLeaves) {
  // Inputs 0 and 1 request outputs {0, 1}; input 2 requests {0}. Round 1: outputs 0 and 1 both
  // grant input 0 (pointers at 0); input 0 accepts output 0. Round 2: output 1 grants input 1.
  const std::vector<std::uint64_t> req = {0b11, 0b11, 0b01};
  std::vector<int> g1(3), g2(3);
  make_matcher("islip", 3, 2, 1)->match(req.data(), g1.data());
  make_matcher("islip", 3, 2, 2)->match(req.data(), g2.data());
  EXPECT_EQ(g1, (std::vector<int>{0, -1, -1}));
  EXPECT_EQ(g2, (std::vector<int>{0, 1, -1}));
}

namespace {
// Two inputs (2 VCs of 4 flits) whose VC v holds a routed header for output 0, VCs [0, 2).
std::vector<InputUnit> routed_headers(int v, PacketPool& pool) {
  std::vector<InputUnit> in;
  const std::uint32_t pk = pool.allocate();
  for (int p = 0; p < 2; ++p) {
    in.emplace_back(2, 4, 1, ArbPolicy::RoundRobin);
    VirtualChannel& vc = in[p].vcs[v];
    Flit f;
    f.packet = pk;
    f.head = true;
    vc.fifo.push(f);
    in[p].nonempty |= std::uint64_t{1} << v;
    vc.state = VirtualChannel::State::Routed;
    vc.out_port = 0;
    vc.vc_lo = 0;
    vc.vc_hi = 2;
  }
  return in;
}
}  // namespace

// The VC allocator on its own: two headers that want the single free output VC conflict; one
// wins and holds it, the other gets nothing (now or while the VC is held).
TEST(VcAllocator, ConflictingHeadersGetOneGrant) {
  PacketPool pool;
  std::vector<InputUnit> in = routed_headers(1, pool);
  std::vector<OutputUnit> out(1, OutputUnit(2, 4));
  out[0].take(0);  // VC 0 is owned: VC 1 is the only free one
  VcAllocator va(2, 1, 2, ArbPolicy::RoundRobin);
  va.routed(0, 1);  // (as the router marks a header it routes)
  va.routed(1, 1);
  VcGrant g[4];
  ASSERT_EQ(va.allocate(in, out, pool, 0, g), 1);
  EXPECT_EQ(g[0].out_port, 0);
  EXPECT_EQ(g[0].out_vc, 1);
  out[0].take(1);
  EXPECT_EQ(va.allocate(in, out, pool, 1, g), 0);
}

// Headers that want different output VCs are all granted in one allocation, in the order of
// the scan, without the arbitration (VcAllocator::allocate_apart), and each output VC's arbiter
// remembers its grant as the arbitration would: the next conflict for output VC 0 goes round
// robin to input 1 (without that memory, input 0 would win it again).
TEST(VcAllocator, HeadersApartAreGrantedTogetherAndMoveTheArbiters) {
  PacketPool pool;
  std::vector<InputUnit> in = routed_headers(0, pool);
  in[0].vcs[0].vc_hi = 1;  // input 0: output VC 0; input 1: output VC 1
  in[1].vcs[0].vc_lo = 1;
  std::vector<OutputUnit> out(1, OutputUnit(2, 4));
  VcAllocator va(2, 1, 2, ArbPolicy::RoundRobin);
  va.routed(0, 0);
  va.routed(1, 0);
  VcGrant g[4];
  ASSERT_EQ(va.allocate(in, out, pool, 0, g), 2);
  EXPECT_EQ(g[0].in_port, 0);
  EXPECT_EQ(g[0].out_vc, 0);
  EXPECT_EQ(g[1].in_port, 1);
  EXPECT_EQ(g[1].out_vc, 1);
  in[1].vcs[0].vc_lo = 0;  // now both want output VC 0 (the grants were not taken)
  in[1].vcs[0].vc_hi = 1;
  ASSERT_EQ(va.allocate(in, out, pool, 1, g), 1);
  EXPECT_EQ(g[0].in_port, 1);
  EXPECT_EQ(g[0].out_vc, 0);
}

// allocate_many (the staged router's call once allocate_lone has said -1) is allocate without
// the lone try: the same grants and the same arbiter state after them, input-first and
// output-first (which grant differently once the arbiters have moved), over a few allocations.
TEST(VcAllocator, AllocateManyIsAllocateWithoutTheLoneTry) {
  for (const bool output_first : {false, true}) {
    PacketPool pool;
    std::vector<InputUnit> in = routed_headers(0, pool);
    std::vector<OutputUnit> out(1, OutputUnit(2, 4));
    VcAllocator a(2, 1, 2, ArbPolicy::RoundRobin), b(2, 1, 2, ArbPolicy::RoundRobin);
    if (output_first) {
      a.output_first(true);
      b.output_first(true);
    }
    for (VcAllocator* va : {&a, &b}) {
      va->routed(0, 0);
      va->routed(1, 0);
    }
    for (Cycle t = 0; t < 6; ++t) {
      // Apart (input 0 on VC 0, input 1 on VC 1), in conflict (both on VC 0), or both on either.
      const int mode = static_cast<int>(t % 3);
      in[0].vcs[0].vc_hi = mode == 2 ? 2 : 1;
      in[1].vcs[0].vc_lo = mode == 0 ? 1 : 0;
      in[1].vcs[0].vc_hi = mode == 1 ? 1 : 2;
      VcGrant ga[4], gb[4];
      const int na = a.allocate(in, out, pool, t, ga);
      const int nb = b.allocate_many(in, out, pool, t, gb);
      ASSERT_EQ(na, nb) << output_first << " t=" << t;
      ASSERT_GT(na, 0);
      for (int k = 0; k < na; ++k) {
        EXPECT_EQ(ga[k].in_port, gb[k].in_port) << output_first << " t=" << t;
        EXPECT_EQ(ga[k].out_vc, gb[k].out_vc) << output_first << " t=" << t;
      }
    }
  }
}

// Separable output-first VC allocation: a header requests every free VC in its range; two
// headers granted the same pair of VCs by their arbiters each end up with one.
TEST(VcAllocator, OutputFirstGivesEachHeaderOneVc) {
  PacketPool pool;
  std::vector<InputUnit> in = routed_headers(0, pool);
  std::vector<OutputUnit> out(1, OutputUnit(2, 4));
  VcAllocator va(2, 1, 2, ArbPolicy::RoundRobin);
  va.output_first(true);
  va.routed(0, 0);
  va.routed(1, 0);
  VcGrant g[4];
  // Both output VCs grant requester 0 (input 0): it accepts one; the other VC goes unused this
  // cycle (separable: no second round) and goes to input 1 next cycle.
  ASSERT_EQ(va.allocate(in, out, pool, 0, g), 1);
  EXPECT_EQ(g[0].in_port, 0);
  out[0].take(g[0].out_vc);
  in[0].vcs[0].state = VirtualChannel::State::Active;
  va.granted(0, 0);  // (as the router does at the grant)
  ASSERT_EQ(va.allocate(in, out, pool, 1, g), 1);
  EXPECT_EQ(g[0].in_port, 1);
  EXPECT_NE(g[0].out_vc, -1);
}

// The staged router skips VC allocation while no waiting header is ready (VcAllocator::due):
// due from the first header's ready time, not before; a header that is ready keeps it due
// (it may be blocked); a ready time that falls (store-and-forward's tail) makes it due earlier.
TEST(VcAllocator, DueOnlyOnceAWaitingHeaderIsReady) {
  PacketPool pool;
  std::vector<InputUnit> in = routed_headers(0, pool);
  in[0].vcs[0].fifo.front().ready = 5;
  in[1].vcs[0].fifo.front().ready = 8;
  std::vector<OutputUnit> out(1, OutputUnit(2, 4));
  VcAllocator va(2, 1, 2, ArbPolicy::RoundRobin);
  EXPECT_FALSE(va.due(0));  // (none waits)
  va.routed(0, 0);
  va.routed(1, 0);
  VcGrant g[4];
  EXPECT_TRUE(va.due(0));  // (just routed: the next allocation looks)
  EXPECT_EQ(va.allocate(in, out, pool, 0, g), 0);
  for (Cycle t = 1; t < 5; ++t) EXPECT_FALSE(va.due(t)) << t;
  EXPECT_TRUE(va.due(5));
  ASSERT_EQ(va.allocate(in, out, pool, 5, g), 1);
  EXPECT_EQ(g[0].in_port, 0);
  va.granted(0, 0);
  in[0].vcs[0].state = VirtualChannel::State::Active;
  EXPECT_EQ(va.allocate(in, out, pool, 6, g), 0);  // (the lone header left: not ready)
  EXPECT_FALSE(va.due(7));
  va.ready_at(7);
  in[1].vcs[0].fifo.front().ready = 7;
  EXPECT_TRUE(va.due(7));
  out[0].take(0);
  out[0].take(1);  // both output VCs held: ready, but blocked
  EXPECT_EQ(va.allocate(in, out, pool, 7, g), 0);
  EXPECT_TRUE(va.due(8));  // (still waiting and ready: looked at every evaluation)
}

// The plain staged loop tells the allocator a header's ready time as it routes it
// (VcAllocator::routed_at): due from then on, not at once; and once no header waits, a header
// routed later is due from its own ready time, not from the last allocation's cycle.
TEST(VcAllocator, RoutedAtIsDueFromTheHeadersReadyTime) {
  PacketPool pool;
  std::vector<InputUnit> in = routed_headers(0, pool);
  in[0].vcs[0].fifo.front().ready = 5;
  in[1].vcs[0].fifo.front().ready = 9;
  std::vector<OutputUnit> out(1, OutputUnit(2, 4));
  VcAllocator va(2, 1, 2, ArbPolicy::RoundRobin);
  va.routed_at(0, 0, 5);
  for (Cycle t = 0; t < 5; ++t) EXPECT_FALSE(va.due(t)) << t;
  VcGrant g[4];
  EXPECT_EQ(va.allocate(in, out, pool, 4, g), 0);  // (not ready: still due from 5 on)
  EXPECT_FALSE(va.due(4));
  EXPECT_TRUE(va.due(5));
  ASSERT_EQ(va.allocate(in, out, pool, 5, g), 1);
  EXPECT_EQ(g[0].in_port, 0);
  va.granted(0, 0);
  in[0].vcs[0].state = VirtualChannel::State::Active;
  EXPECT_FALSE(va.due(6));  // (none waits)
  va.routed_at(1, 0, 9);
  for (Cycle t = 6; t < 9; ++t) EXPECT_FALSE(va.due(t)) << t;
  EXPECT_TRUE(va.due(9));
  ASSERT_EQ(va.allocate(in, out, pool, 9, g), 1);
  EXPECT_EQ(g[0].in_port, 1);
}

namespace {
std::string loaded(const std::string& router_extra, double rate) {
  std::ostringstream y;
  y << "topology: {type: torus, dims: [6, 6]}\n"
    << "router: {buffering: input_vc, vcs: 4, vc_depth: 4" << router_extra << "}\n"
    << "traffic: {rate: " << rate << ", packet_flits: 6, pattern: uniform}\n"
    << "simulation: {warmup: 500, measure: 3000, seed: 3}\n";
  return y.str();
}
}  // namespace

// Far above saturation, every switch allocator on both pipelines and both VC allocators: credits
// and flit order intact, the network keeps delivering.
TEST(Allocators, EveryAllocatorCarriesALoadedNetwork) {
  for (const char* sa : {"separable_input_first", "separable_output_first", "islip", "wavefront"})
    for (const char* pipe : {"", ", pipeline: {}", ", pipeline: {speculative: true}"})
      for (const char* va : {"separable_input_first", "separable_output_first"}) {
        if (!*pipe && std::string(va) != "separable_input_first") continue;
        std::string extra = std::string(", switch_allocator: ") + sa + pipe;
        if (*pipe) extra += std::string(", vc_allocator: ") + va;
        if (std::string(sa) == "islip") extra += ", allocator_iterations: 2";
        const std::string name = std::string("alloc_") + sa + (*pipe ? "_staged_" : "_") + va +
                                 (std::string(pipe).find("spec") != std::string::npos ? "_s" : "");
        const std::string yaml = loaded(extra, 0.8);
        const test::CliResult c = test::cli("check " + test::write_temp(name + ".yaml", yaml));
        ASSERT_EQ(c.rc, 0) << c.output;
        int rc = 0;
        const std::string js = test::cli_results_any(name, yaml, &rc);
        EXPECT_EQ(rc, 3) << name;  // saturated, and says so
        test::expect_flow_intact(js, 3000, name);
      }
}

TEST(Allocators, ConfigErrorsSayWhy) {
  const std::string base = "topology: {type: torus, dims: [4, 4]}\n";
  std::string e = test::config_error(base + "router: {switch_allocator: fifo}\n");
  EXPECT_NE(e.find("router.switch_allocator"), std::string::npos) << e;
  EXPECT_NE(e.find("islip"), std::string::npos) << e;
  e = test::config_error(base + "router: {switch_allocator: wavefront, priority_classes: 2}\n");
  EXPECT_NE(e.find("separable_input_first"), std::string::npos) << e;
  e = test::config_error(base + "router: {allocator_iterations: 2}\n");
  EXPECT_NE(e.find("router.allocator_iterations"), std::string::npos) << e;
  e = test::config_error(base + "router: {vc_allocator: separable_output_first}\n");
  EXPECT_NE(e.find("router.pipeline"), std::string::npos) << e;
  e = test::config_error(base + "router: {buffering: output_queued, switch_allocator: islip}\n");
  EXPECT_NE(e.find("input_vc"), std::string::npos) << e;
  EXPECT_EQ(test::config_error(base + "router: {switch_allocator: islip, allocator_iterations: 3, "
                                      "pipeline: {}, vc_allocator: separable_output_first}\n"),
            "");
}
