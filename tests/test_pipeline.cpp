// The staged router pipeline (router.pipeline): its zero-load formula exactly on the cycle model,
// the separate VC allocator, ejection through the router, credits under load, and its config
// errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

namespace {

struct StagedCase {
  std::string topology, switching;
  int rc, va, sa, st, lt, credit_delay;
  bool speculative;
  int alpha, tau, flits;
};

std::ostream& operator<<(std::ostream& o, const StagedCase& c) {
  return o << c.topology << " " << c.switching << " rc" << c.rc << " va" << c.va << " sa" << c.sa
           << " st" << c.st << " lt" << c.lt << " cd" << c.credit_delay
           << (c.speculative ? " spec" : "") << " a" << c.alpha << " t" << c.tau << " L" << c.flits;
}

std::string pipeline_yaml(const StagedCase& c) {
  std::ostringstream y;
  y << "{rc: " << c.rc << ", va: " << c.va << ", sa: " << c.sa << ", st: " << c.st
    << ", lt: " << c.lt << ", credit_delay: " << c.credit_delay
    << ", speculative: " << (c.speculative ? "true" : "false") << "}";
  return y.str();
}

}  // namespace

class StagedZeroLoad : public ::testing::TestWithParam<StagedCase> {};

// Every isolated message, from node 0 and from the last node to every node (itself included,
// through the router), takes alpha + (h+2) lt + (h+1) R + L tau (+ h L tau store-and-forward)
// when the VCs hold a header's credit round trip.
TEST_P(StagedZeroLoad, EveryIsolatedMessageTakesTheFormulaExactly) {
  const StagedCase& c = GetParam();
  const int hop = c.rc + c.va + c.sa + c.st + c.lt;
  const int depth = std::max(c.flits, (hop + c.credit_delay) / c.tau + 2);
  std::ostringstream y;
  y << "topology: " << c.topology << "\n"
    << "router: {buffering: input_vc, switching: " << c.switching << ", vcs: 2, vc_depth: " << depth
    << ", pipeline: " << pipeline_yaml(c) << "}\n"
    << "timing: {alpha: " << c.alpha << ", tau: " << c.tau << "}\n"
    << "traffic:\n  type: trace\n  messages:\n";
  const Config probe = test::cfg(y.str() + "    - {time: 0, src: 0, dst: 0, flits: 1}\n");
  const Topology topo = probe.topology.make();
  const long long gap =
      4 * (c.alpha + (topo.diameter() + 2) * (hop + c.flits * c.tau + c.credit_delay)) + 16;
  test::expect_isolated_messages_exact(y.str(), topo.num_nodes(), gap, c.flits, [&](int s, int d) {
    return zero_load_latency(probe, topo.distance(s, d), c.flits);
  });
}

namespace {
std::vector<StagedCase> staged_cases() {
  std::vector<StagedCase> v;
  const char* topos[] = {"{type: torus, dims: [6, 5]}", "{type: mesh, dims: [4, 3, 2]}",
                         "{type: hypercube, dim: 4}"};
  // rc va sa st lt cd spec alpha tau L
  const StagedCase pipes[] = {
      {"", "", 1, 1, 1, 1, 1, 1, false, 0, 1, 8},  // BookSim2's iq_router defaults
      {"", "", 1, 1, 1, 1, 1, 1, true, 3, 1, 5},   // speculative VA + SA
      {"", "", 2, 1, 1, 0, 3, 2, false, 0, 2, 4},  // long link, slow channel
      {"", "", 0, 0, 1, 0, 0, 1, false, 1, 1, 1},  // the shortest staged hop
      {"", "", 1, 3, 1, 2, 1, 4, true, 0, 3, 3},   // speculation that cannot hide all of VA
  };
  for (const char* t : topos)
    for (const char* sw : {"wormhole", "virtual_cut_through", "store_and_forward"})
      for (StagedCase p : pipes) {
        p.topology = t;
        p.switching = sw;
        v.push_back(p);
      }
  return v;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(Formula, StagedZeroLoad, ::testing::ValuesIn(staged_cases()));

namespace {
const char* kLoaded = R"(
topology: {type: torus, dims: [6, 6]}
router: {buffering: input_vc, vcs: 4, vc_depth: 4,
         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2, ejection_ports: 2}}
timing: {tau: 1}
traffic: {rate: 0.3, packet_flits: 6, pattern: uniform}
simulation: {warmup: 500, measure: 4000, seed: 5}
)";
}

// Far above saturation every flit still arrives in order, no credit is lost or invented, the
// ejection outputs keep delivering, and the run says it saturated.
TEST(StagedPipeline, HeavyLoadKeepsCreditsAndOrder) {
  std::string y = kLoaded;
  y.replace(y.find("rate: 0.3"), 9, "rate: 0.9");
  const Results r = test::run(y);
  EXPECT_FALSE(r.stable);
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_GT(r.packets_delivered, 1000u);
  EXPECT_EQ(r.forbidden_turns, 0u);
}

TEST(StagedPipeline, SameSeedSameResults) {
  std::string out1, out2;
  const std::string a = test::cli_results("staged_a", kLoaded, &out1);
  const std::string b = test::cli_results("staged_b", kLoaded, &out2);
  ASSERT_FALSE(a.empty()) << out1;
  auto strip = [](const std::string& js) {  // the wall time is the only field that may differ
    std::istringstream in(js);
    std::string line, out;
    while (std::getline(in, line))
      if (line.find("wall_seconds") == std::string::npos) out += line + "\n";
    return out;
  };
  EXPECT_EQ(strip(a), strip(b));
}

namespace {

// Runs a three-message trace with SWITCHYARD_HOP_LOG on ("arrival router out_port out_vc serial
// seq" per hop) and counts router `router`'s departures by arrival cycle, leaving out the packet
// with serial `skip` (-1: none). Both outputs of the routers below have the same lag, so one
// input's flits never share an arrival cycle.
std::map<long, int> departures_by_cycle(const std::string& name, const std::string& yaml,
                                        long router, long skip) {
  const std::string log = "/tmp/switchyard-test-" + name + "-" + std::to_string(getpid()) + ".log";
  std::remove(log.c_str());
  int code = -1;
  const std::string js =
      test::cli_results_any(name, yaml, &code, "SWITCHYARD_HOP_LOG=" + log + " ");
  EXPECT_EQ(code, 0) << js;
  EXPECT_EQ(test::json_number(js, "packets", "delivered"), 3) << js;
  std::ifstream in(log);
  std::map<long, int> leaving;
  long arrival = 0, from = 0, port = 0, vc = 0, serial = 0;
  std::string rest;
  while (in >> arrival >> from >> port >> vc >> serial && std::getline(in, rest))
    if (from == router && serial != skip) ++leaving[arrival];
  std::remove(log.c_str());
  return leaving;
}

int total(const std::map<long, int>& m) {
  int n = 0;
  for (const auto& [c, k] : m) n += k;
  return n;
}

}  // namespace

// A router evaluates once a cycle in the staged pipeline, rc 0 included (it had run a second
// time in every cycle it received a flit, as the ideal pipeline does with delta 0, and an input
// holding ready flits on two VCs for two free outputs then sent both in that cycle). Router 1 of
// the line 0-1-2-3 has one busy input (from 0: a packet on to 2 and one for 1, injected side by
// side; the one to 2 waits for node 3's packet at 2's ejection), so at most one flit a cycle
// leaves it: its hops never share an arrival cycle.
TEST(StagedPipeline, OneFlitAnInputACycleWithZeroRouteComputation) {
  for (int rc : {0, 1}) {
    const std::map<long, int> leaving =
        departures_by_cycle("rc-hops-" + std::to_string(rc),
                            "topology: {type: mesh, dims: [4]}\n"
                            "router: {buffering: input_vc, vcs: 2, vc_depth: 4, pipeline: {rc: " +
                                std::to_string(rc) +
                                ", va: 1, sa: 1, st: 1, lt: 1}}\n"
                                "network_interface: {injection_channels: 2}\n"
                                "traffic:\n  type: trace\n  messages:\n"
                                "    - {time: 0, src: 0, dst: 2, flits: 40}\n"
                                "    - {time: 0, src: 0, dst: 1, flits: 40}\n"
                                "    - {time: 0, src: 3, dst: 2, flits: 40}\n",
                            1, -1);
    EXPECT_EQ(total(leaving), 80) << "rc " << rc;  // (40 flits on to 2, 40 ejected)
    for (const auto& [c, n] : leaving) EXPECT_LE(n, 1) << "rc " << rc << ", arrival " << c;
  }
}

// The same in the ideal pipeline with delta 0, where a router that receives a flit runs again in
// that cycle (Network::step's again list) so that the flit may go on at once: an input that has
// sent in the cycle's first run does not send again in the second (it had: one flit of a backlog
// west, then the flit just come for north). On the 4 x 2 mesh, 3's packets to 0 and to 5 share
// router 1's east input (two VCs); 1's own packet to 0 holds the west link first, so the one to
// 0 backs up there while the one to 5 turns north. Router 2 runs after router 1, so its flits
// reach 1 after 1's first run. 1's departures of 3's packets never share a cycle.
TEST(IdealPipeline, OneFlitAnInputACycleWithZeroDelta) {
  for (int delta : {0, 1}) {
    const std::map<long, int> leaving =
        departures_by_cycle("delta-hops-" + std::to_string(delta),
                            "topology: {type: mesh, dims: [4, 2]}\n"
                            "router: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
                            "timing: {delta: " +
                                std::to_string(delta) +
                                "}\n"
                                "network_interface: {injection_channels: 2}\n"
                                "traffic:\n  type: trace\n  messages:\n"
                                "    - {time: 0, src: 1, dst: 0, flits: 20}\n"
                                "    - {time: 0, src: 3, dst: 0, flits: 40}\n"
                                "    - {time: 0, src: 3, dst: 5, flits: 40}\n",
                            1, 1);  // (serial 1: node 1's own packet, the first in the trace)
    EXPECT_EQ(total(leaving), 80) << "delta " << delta;
    for (const auto& [c, n] : leaving) EXPECT_LE(n, 1) << "delta " << delta << ", arrival " << c;
  }
}

// Adaptive routing and Valiant through the staged pipeline: the VC allocator selects among the
// candidates; every packet arrives, minimal ones minimally, Valiant via its intermediate node.
TEST(StagedPipeline, RoutingAlgorithmsRunThroughTheVcAllocator) {
  std::string y = kLoaded;
  y.replace(y.find("rate: 0.3"), 9, "rate: 0.08");  // below saturation (Valiant's is low)
  for (const char* algo : {"minimal_adaptive", "valiant"}) {
    std::string out;
    const std::string js = test::cli_results(std::string("staged_") + algo,
                                             y + "routing: {algorithm: " + algo + "}\n", &out);
    ASSERT_FALSE(js.empty()) << out;
    EXPECT_EQ(test::json_number(js, "routing", "forbidden_turns"), 0) << algo;
    EXPECT_EQ(test::json_number(js, "routing", "nonminimal_packets"), 0) << algo;
    EXPECT_EQ(test::json_number(js, "routing", "intermediate_missed"), 0) << algo;
    EXPECT_GT(test::json_number(js, "packets", "delivered"), 1000) << algo;
  }
}

TEST(StagedPipeline, ConfigErrorsSayWhy) {
  const std::string base = "topology: {type: torus, dims: [4, 4]}\n";
  const std::string pipe = "pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1}";
  std::string e = test::config_error(base + "router: {buffering: output_queued, " + pipe + "}\n");
  EXPECT_NE(e.find("router.pipeline"), std::string::npos) << e;
  EXPECT_NE(e.find("input_vc"), std::string::npos) << e;
  e = test::config_error(base + "router: {" + pipe + "}\ntiming: {delta: 2}\n");
  EXPECT_NE(e.find("cfg.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("timing.delta"), std::string::npos) << e;
  e = test::config_error(base + "router: {vcs: 4, priority_classes: 2, " + pipe +
                         "}\ntraffic: {broadcast: {scheme: priority_star}}\n");
  EXPECT_NE(e.find("router.pipeline"), std::string::npos) << e;
  e = test::config_error(base + "router: {pipeline: {sa: 0}}\n");
  EXPECT_NE(e.find("router.pipeline.sa"), std::string::npos) << e;
  e = test::config_error(base + "router: {pipeline: {rc: 1, stages: 5}}\n");
  EXPECT_NE(e.find("router.pipeline.stages"), std::string::npos) << e;
  EXPECT_EQ(test::config_error(base + "router: {" + pipe + "}\n"), "");
}

// wait_for_tail_credit: false (BookSim2's default): a VC is reallocated as its tail leaves, so a
// packet follows the one before it into the same downstream VC and is routed when its header
// reaches the front. Credits and order stay intact on both pipelines and with adaptive routing,
// and it carries more than waiting for the tail's credits (the 5-stage 8x8 torus at 0.2).
TEST(WaitForTailCredit, FalseSharesVcsWithCreditsAndOrderIntact) {
  for (const char* extra : {"", ", pipeline: {credit_delay: 2}"})
    for (const char* algo : {"dimension_order", "minimal_adaptive"}) {
      std::string y = kLoaded;
      y.replace(y.find("pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2, "
                       "ejection_ports: 2}"),
                std::string("pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2, "
                            "ejection_ports: 2}")
                    .size(),
                std::string("wait_for_tail_credit: false") + extra);
      y += std::string("routing: {algorithm: ") + algo + "}\n";
      const std::string name = std::string("wtc_") + algo + (*extra ? "_staged" : "_ideal");
      int rc = 0;
      const std::string js = test::cli_results_any(name, y, &rc);
      EXPECT_TRUE(rc == 0 || rc == 3) << name;
      test::expect_flow_intact(js, 3000, name);
    }
}

namespace {
// The 5-stage 8x8 torus (configs/router_5stage.yaml) offered `rate` with one override: the
// accepted throughput (flits/node/cycle).
double accepted_on_5stage(const std::string& rate, const std::string& set, const std::string& tag) {
  const std::string cfg = std::string(sy::test::kSourceDir) + "/configs/router_5stage.yaml";
  const std::string out = "/tmp/switchyard-test-5stage-" + tag;
  const test::CliResult c =
      test::cli("run " + cfg + " --quiet --set traffic.rate=" + rate +
                " --set simulation.measure=8000 --set " + set + " --out " + out);
  EXPECT_TRUE(c.rc == 0 || c.rc == 3) << c.output;
  std::ifstream j(out + "/results.json");
  std::stringstream ss;
  ss << j.rdbuf();
  return test::json_number(ss.str(), "throughput", "accepted");
}
}  // namespace

TEST(WaitForTailCredit, FalseCarriesMoreOnTheFiveStageRouter) {
  // Waiting for the tail credit: saturated near 0.155; reallocated at the tail: carries 0.2.
  EXPECT_LT(accepted_on_5stage("0.2", "router.wait_for_tail_credit=true", "wtc1"), 0.17);
  EXPECT_GT(accepted_on_5stage("0.2", "router.wait_for_tail_credit=false", "wtc0"), 0.19);
}

TEST(WaitForTailCredit, OnlyForWormholeUnicast) {
  const std::string base = "topology: {type: torus, dims: [4, 4]}\n";
  std::string e = test::config_error(
      base +
      "router: {switching: virtual_cut_through, vc_depth: 8, wait_for_tail_credit: false}\n");
  EXPECT_NE(e.find("router.wait_for_tail_credit"), std::string::npos) << e;
  e = test::config_error(base +
                         "router: {vcs: 4, priority_classes: 2, wait_for_tail_credit: false}\n"
                         "traffic: {broadcast: {scheme: priority_star}}\n");
  EXPECT_NE(e.find("router.wait_for_tail_credit"), std::string::npos) << e;
}

// routing.dateline: ring_entry (BookSim2's dateline classes: chosen on entering a ring, the upper
// half for a traversal that crosses the wraparound link) spreads dimension-order traffic over
// both halves before the dateline: the 5-stage 8x8 torus with 2 VCs carries 0.17 with it and
// saturates below that with the classic classes; neither deadlocks at 0.5 on an odd torus.
TEST(Dateline, RingEntryClassesCarryMoreAndDoNotDeadlock) {
  EXPECT_LT(accepted_on_5stage("0.17", "routing.dateline=wraparound", "dl0"), 0.165);
  EXPECT_GT(accepted_on_5stage("0.17", "routing.dateline=ring_entry", "dl1"), 0.168);
  int rc = 0;
  const std::string js = test::cli_results_any(
      "dateline_odd",
      "topology: {type: torus, dims: [5, 5]}\nrouter: {vcs: 2, vc_depth: 2}\n"
      "routing: {dateline: ring_entry}\ntraffic: {rate: 0.5, packet_flits: 6}\n"
      "simulation: {warmup: 0, measure: 20000, deadlock_cycles: 2000}\n",
      &rc);
  EXPECT_EQ(js.find("no flit moved"), std::string::npos);
  test::expect_flow_intact(js, 1000, "5x5 ring_entry");
  EXPECT_NE(test::config_error("topology: {type: torus, dims: [4, 4]}\nrouter: {vcs: 4}\n"
                               "routing: {algorithm: valiant, dateline: ring_entry}\n")
                .find("routing.dateline"),
            std::string::npos);
}
