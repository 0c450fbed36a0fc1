// router.model: rtl: the Verilated rtl/router/sy_vc_router in the place of the C++ staged router
// at every node (rtl/adapter/), or at some (router.rtl_nodes: a mixed network), against the C++
// router on the same config: every flit's arrival at every router and at its NI
// (SWITCHYARD_HOP_LOG, sorted) and results.json (less the wall time, the model keys and
// flits.max_wait, null under rtl) must be identical. Skipped in builds without SWITCHYARD_COSIM;
// the config errors are checked in every build.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "switchyard/router/rtl_registry.hpp"

namespace {

using sy::test::cli_results_any;
using sy::test::config_error;

struct Point {
  std::string type = "mesh";
  std::string dims = "[4, 4]";
  double rate = 0.05;
  int flits = 4;
  bool wait_for_tail_credit = true;
  int credit_delay = 1;
  std::string pattern = "uniform";
  int measure = 3000;
  std::string rtl_nodes;  // router.rtl_nodes under rtl ("": all, the default)
};

std::string yaml(const Point& p, bool rtl) {
  std::ostringstream y;
  y << "name: rtl_cmp\n"
    << "topology: {type: " << p.type << ", dims: " << p.dims << "}\n"
    << "router:\n  buffering: input_vc\n  vcs: 2\n  vc_depth: 4\n"
    << (p.wait_for_tail_credit ? "" : "  wait_for_tail_credit: false\n")
    << "  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: " << p.credit_delay << "}\n"
    << (rtl ? "  model: rtl\n" : "")
    << (rtl && !p.rtl_nodes.empty() ? "  rtl_nodes: " + p.rtl_nodes + "\n" : "")
    << "timing: {tau: 1}\n"
    << "traffic: {process: bernoulli, rate: " << p.rate << ", packet_flits: " << p.flits
    << ", pattern: " << p.pattern << "}\n"
    << "simulation: {warmup: 500, measure: " << p.measure << ", seed: 3}\n";
  return y.str();
}

std::vector<std::string> lines(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> v;
  for (std::string l; std::getline(f, l);) v.push_back(l);
  return v;
}

// results.json without what differs by design: the wall time, the config's model keys, and
// flits.max_wait (a header's wait starts when it wins VC allocation, which the RTL does not show
// at its ports: null under rtl, all-RTL or mixed).
std::string comparable(const std::string& js) {
  std::istringstream in(js);
  std::string out;
  for (std::string l; std::getline(in, l);) {
    if (l.find("\"wall_seconds\"") != std::string::npos ||
        l.find("\"max_wait\"") != std::string::npos ||
        l.find("\"model\": \"rtl\"") != std::string::npos ||
        l.find("\"rtl\": \"") != std::string::npos ||
        l.find("\"rtl_nodes\": \"") != std::string::npos)
      continue;
    out += l + "\n";
  }
  return out;
}

// Runs the point on both routers; every hop and the results must match.
void expect_identical(const Point& p, const std::string& name) {
  const std::string dir = "/tmp/switchyard-test-" + name + "-" + std::to_string(getpid());
  const std::string log_cpp = dir + "-cpp.hops", log_rtl = dir + "-rtl.hops";
  int rc_cpp = -1, rc_rtl = -1;
  const std::string cpp = cli_results_any(name + "-cpp", yaml(p, false), &rc_cpp,
                                          "SWITCHYARD_HOP_LOG=" + log_cpp + " ");
  const std::string rtl =
      cli_results_any(name + "-rtl", yaml(p, true), &rc_rtl, "SWITCHYARD_HOP_LOG=" + log_rtl + " ");
  ASSERT_TRUE(rc_cpp == 0 || rc_cpp == 3) << rc_cpp;  // (3: unstable, saturated: still compared)
  ASSERT_EQ(rc_rtl, rc_cpp);
  std::vector<std::string> a = lines(log_cpp), b = lines(log_rtl);
  ASSERT_GT(a.size(), 1000u) << "too few flits to compare";
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  ASSERT_EQ(a.size(), b.size()) << "flit hops: cpp " << a.size() << ", rtl " << b.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(a[i], b[i]) << "first differing hop (arrival router out_port out_vc packet seq), "
                          << i << " of " << a.size();
  EXPECT_EQ(comparable(cpp), comparable(rtl));
  EXPECT_NE(rtl.find("\"max_wait\": null"), std::string::npos) << "flits.max_wait under rtl";
  EXPECT_EQ(cpp.find("\"max_wait\": null"), std::string::npos) << "flits.max_wait under cpp";
}

bool have_rtl() {
  return !sy::rtl_router_builds().empty();
}

}  // namespace

TEST(RtlRouter, EveryHopMatchesTheCppRouterOnA4x4MeshAtLowLoad) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  expect_identical(Point{}, "rtl-low");
}

TEST(RtlRouter, EveryHopMatchesNearSaturationWithLongerPackets) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.rate = 0.3;
  p.flits = 8;
  p.measure = 2000;
  expect_identical(p, "rtl-high");
}

TEST(RtlRouter, EveryHopMatchesWithoutWaitForTailCreditAndWithACreditDelay) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.rate = 0.25;
  p.wait_for_tail_credit = false;
  p.credit_delay = 3;
  p.pattern = "transpose";
  p.dims = "[5, 5]";
  expect_identical(p, "rtl-wtc");
}

TEST(RtlRouter, ConfigErrorsSayFileLineAndKey) {
  Point p;
  const std::string ok = yaml(p, true);
  if (!have_rtl()) {
    EXPECT_NE(config_error(ok).find("configure with -DSWITCHYARD_COSIM=ON"), std::string::npos)
        << config_error(ok);
    return;
  }
  EXPECT_EQ(config_error(ok), "");
  // A parameter the RTL was not built for: the file, the line of the key, the key.
  std::string bad = ok;
  bad.replace(bad.find("vcs: 2"), 6, "vcs: 3");
  std::string e = config_error(bad);
  EXPECT_NE(e.find("cfg.yaml:5:"), std::string::npos) << e;
  EXPECT_NE(e.find("router.vcs"), std::string::npos) << e;
  EXPECT_NE(e.find("built for vcs 3"), std::string::npos) << e;
  // A topology it does not implement.
  e = config_error(ok, {"topology.type=cmesh"});
  EXPECT_NE(e.find("topology.type"), std::string::npos) << e;
  // A router kind it does not implement.
  e = config_error(ok, {"router.switching=virtual_cut_through"});
  EXPECT_NE(e.find("router.model"), std::string::npos) << e;
  // Stages other than one cycle each.
  e = config_error(ok, {"router.pipeline.st=2"});
  EXPECT_NE(e.find("one-cycle stages"), std::string::npos) << e;
  // A credit delay beyond its shift register.
  e = config_error(ok, {"router.pipeline.credit_delay=9"});
  EXPECT_NE(e.find("router.pipeline.credit_delay"), std::string::npos) << e;
  // router.rtl without router.model: rtl.
  e = config_error(yaml(p, false), {"router.rtl=sy_vc_router"});
  EXPECT_NE(e.find("router.rtl"), std::string::npos) << e;
}

// 2-D tori: dimension order with dateline VC classes (rtl/router/sy_route_dor_torus.sv), the
// wraparound links crossed both ways, ties on the even rings broken balanced (the default).
TEST(RtlRouter, EveryHopMatchesOnA4x4TorusWithDatelines) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.type = "torus";
  p.rate = 0.35;
  p.measure = 2000;
  expect_identical(p, "rtl-torus");
}

TEST(RtlRouter, EveryHopMatchesOnAMixed5x4TorusWithACreditDelay) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.type = "torus";
  p.dims = "[5, 4]";
  p.rate = 0.3;
  p.wait_for_tail_credit = false;
  p.credit_delay = 2;
  p.measure = 2000;
  p.rtl_nodes = "[0, 4, 7, 12, 15, 19]";  // (corners: both rings' wraparound links)
  expect_identical(p, "rtl-torus-mix");
}

// What the RTL refuses on a torus: rings of 2 (one port a dimension), routing.dateline
// ring_entry, and a router without the torus ports (the example: meshes only).
TEST(RtlRouter, TorusConfigErrorsSayFileLineAndKey) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.type = "torus";
  const std::string ok = yaml(p, true);
  EXPECT_EQ(config_error(ok), "");
  EXPECT_EQ(config_error(ok, {"topology.dims=[3, 16]", "routing.tie_break=negative"}), "");
  std::string bad = ok;
  bad.replace(bad.find("[4, 4]"), 6, "[4, 2]");
  std::string e = config_error(bad);
  EXPECT_NE(e.find("cfg.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("topology.dims"), std::string::npos) << e;
  EXPECT_NE(e.find("3 or more routers a side"), std::string::npos) << e;
  e = config_error(ok, {"topology.dims=[2, 2]"});
  EXPECT_NE(e.find("topology.dims"), std::string::npos) << e;
  e = config_error(ok, {"topology.dims=[4, 17]"});
  EXPECT_NE(e.find("topology.type"), std::string::npos) << e;
  EXPECT_NE(e.find("tori of up to 16"), std::string::npos) << e;
  e = config_error(ok + "routing: {dateline: ring_entry}\n");
  EXPECT_NE(e.find("cfg.yaml:12:"), std::string::npos) << e;
  EXPECT_NE(e.find("routing.dateline"), std::string::npos) << e;
  e = config_error(ok, {"router.rtl=sy_vc_router_inreg"});
  EXPECT_NE(e.find("topology.type"), std::string::npos) << e;
  EXPECT_NE(e.find("no torus ports"), std::string::npos) << e;
  EXPECT_EQ(config_error(yaml(Point{}, true), {"router.rtl=sy_vc_router_inreg"}), "");
}

// Mixed networks (router.rtl_nodes): the RTL router at some nodes, the C++ one at the others,
// flits and credits crossing between them both ways; every hop must still be the all-C++ one.
TEST(RtlRouter, EveryHopMatchesInAMixedMeshCheckerboard) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.rate = 0.3;
  p.flits = 8;
  p.measure = 2000;
  p.rtl_nodes = "[0, 2, 5, 7, 8, 10, 13, 15]";
  expect_identical(p, "rtl-mix-checker");
}

TEST(RtlRouter, EveryHopMatchesInAMixedMeshWithOneRtlNodeAndACreditDelay) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  Point p;
  p.rate = 0.25;
  p.wait_for_tail_credit = false;
  p.credit_delay = 3;
  p.pattern = "transpose";
  p.dims = "[5, 5]";
  p.rtl_nodes = "[12]";  // (the centre: every flit through it crosses C++ -> RTL -> C++)
  expect_identical(p, "rtl-mix-one");
}

// (The list's own errors come before what needs a Verilated build: checked in every build.)
TEST(RtlRouter, MixedConfigErrorsSayFileLineAndKey) {
  Point p;
  p.rtl_nodes = "[1, 3]";
  const std::string ok = yaml(p, true);
  if (have_rtl()) {
    EXPECT_EQ(config_error(ok), "");
    EXPECT_EQ(config_error(ok, {"router.rtl_nodes=all"}), "");
  }
  // A router that does not exist (a 4 x 4 mesh has 0 .. 15), with the line of the element.
  std::string bad = ok;
  bad.replace(bad.find("[1, 3]"), 6, "[1, 16]");
  std::string e = config_error(bad);
  EXPECT_NE(e.find("cfg.yaml:9:"), std::string::npos) << e;
  EXPECT_NE(e.find("router.rtl_nodes[1]"), std::string::npos) << e;
  EXPECT_NE(e.find("does not exist"), std::string::npos) << e;
  e = config_error(ok, {"router.rtl_nodes=[-1]"});
  EXPECT_NE(e.find("router.rtl_nodes[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("does not exist"), std::string::npos) << e;
  // A router named twice.
  bad = ok;
  bad.replace(bad.find("[1, 3]"), 6, "[3, 1, 3]");
  e = config_error(bad);
  EXPECT_NE(e.find("cfg.yaml:9:"), std::string::npos) << e;
  EXPECT_NE(e.find("router.rtl_nodes[2]"), std::string::npos) << e;
  EXPECT_NE(e.find("named twice"), std::string::npos) << e;
  // Empty, or not a list.
  e = config_error(ok, {"router.rtl_nodes=[]"});
  EXPECT_NE(e.find("router.rtl_nodes"), std::string::npos) << e;
  EXPECT_NE(e.find("is empty"), std::string::npos) << e;
  e = config_error(ok, {"router.rtl_nodes=some"});
  EXPECT_NE(e.find("router.rtl_nodes"), std::string::npos) << e;
  // rtl_nodes without router.model: rtl (with the C++ router named, or left out).
  e = config_error(yaml(p, false), {"router.rtl_nodes=[1]"});
  EXPECT_NE(e.find("--set:"), std::string::npos) << e;
  EXPECT_NE(e.find("router.rtl_nodes"), std::string::npos) << e;
  EXPECT_NE(e.find("model: rtl"), std::string::npos) << e;
  e = config_error(ok, {"router.model=cpp"});
  EXPECT_NE(e.find("router.rtl_nodes"), std::string::npos) << e;
  // What the RTL does not implement is an error in a mixed network too.
  if (!have_rtl()) return;
  e = config_error(ok, {"topology.dims=[4, 4, 2]"});
  EXPECT_NE(e.find("topology.type"), std::string::npos) << e;
  EXPECT_NE(e.find("2-D meshes"), std::string::npos) << e;
}

// Router kinds and parameters the RTL does not implement: each a config error at its key.
TEST(RtlRouter, UnimplementedKindsAndParametersAreConfigErrors) {
  if (!have_rtl()) GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  const std::string base =
      "name: rtl_kinds\ntopology: {type: mesh, dims: [4, 4]}\nrouter:\n  model: rtl\n";
  // Output-queued and circuit routers: at router.model, line 4.
  for (const char* kind : {"buffering: output_queued", "buffering: circuit",
                           "switching: direct_connect", "switching: store_and_forward"}) {
    const std::string e = config_error(base + "  " + kind + "\n");
    EXPECT_NE(e.find("cfg.yaml:4:"), std::string::npos) << kind << ": " << e;
    EXPECT_NE(e.find("router.model"), std::string::npos) << kind << ": " << e;
    EXPECT_NE(e.find("input-VC"), std::string::npos) << kind << ": " << e;
  }
  // The ideal input-VC router (no staged pipeline).
  std::string e = config_error(base + "  buffering: input_vc\n");
  EXPECT_NE(e.find("router.model"), std::string::npos) << e;
  EXPECT_NE(e.find("staged pipeline"), std::string::npos) << e;
  Point p;
  const std::string ok = yaml(p, true);
  // A VC depth, a priority class count, an allocator, routing the Verilated build lacks.
  std::string bad = ok;
  bad.replace(bad.find("vc_depth: 4"), 11, "vc_depth: 8");
  e = config_error(bad);
  EXPECT_NE(e.find("router.vcs"), std::string::npos) << e;
  EXPECT_NE(e.find("vc_depth 8"), std::string::npos) << e;
  // More priority classes than the build's PC (sy_vc_router 2 x 4: PC 4), at the key's line;
  // oldest_first within a class is not in the RTL.
  e = config_error(ok, {"router.priority_classes=5"});
  EXPECT_NE(e.find("router.priority_classes"), std::string::npos) << e;
  EXPECT_NE(e.find("built for 4 priority classes"), std::string::npos) << e;
  bad = ok;
  bad.replace(bad.find("vc_depth: 4"), 11, "vc_depth: 4\n  priority_classes: 6");
  e = config_error(bad);
  EXPECT_NE(e.find("router.priority_classes"), std::string::npos) << e;
  EXPECT_NE(e.find(":" +
                   std::to_string(1 +
                                  [&] {
                                    int n = 0;
                                    for (std::size_t i = 0; i < bad.find("priority_classes: 6");
                                         ++i)
                                      n += bad[i] == '\n';
                                    return n;
                                  }()) +
                   ":"),
            std::string::npos)
      << e;
  e = config_error(ok, {"router.priority_classes=2", "router.arbitration=oldest_first"});
  EXPECT_NE(e.find("round-robin"), std::string::npos) << e;
  e = config_error(ok, {"router.vc_allocator=separable_output_first"});
  EXPECT_NE(e.find("router.model"), std::string::npos) << e;
  e = config_error(ok, {"routing.algorithm=west_first"});
  EXPECT_NE(e.find("dimension-order"), std::string::npos) << e;
  e = config_error(ok, {"router.rtl=no_such_router"});
  EXPECT_NE(e.find("router.rtl:"), std::string::npos) << e;
  EXPECT_NE(e.find("no RTL router no_such_router"), std::string::npos) << e;
  // A mesh larger than its coordinate width (CW 4: 16 a side) and smaller than 3 a side.
  e = config_error(ok, {"topology.dims=[17, 4]"});
  EXPECT_NE(e.find("topology.type"), std::string::npos) << e;
  e = config_error(ok, {"topology.dims=[2, 4]"});
  EXPECT_NE(e.find("topology.dims"), std::string::npos) << e;
  EXPECT_NE(e.find("3 or more routers a side"), std::string::npos) << e;
}

// The example of a designer's own router (rtl/examples/sy_vc_router_inreg.sv, built with
// switchyard_add_rtl_router): sy_vc_router with an input register stage. Isolated packets (a
// trace, one message at a time) cross the mesh; each flit reaches its NI exactly one cycle
// later per router it crossed (the hop log's lines of that flit) than with the C++ model. (The
// packets fit in a VC, 4 flits: a fifth would wait for a credit of the injection VC, whose loop
// is a cycle longer too, and arrive one more cycle later.)
TEST(RtlRouter, ExampleInputRegisterRouterTakesOneCycleMorePerRouterCrossed) {
  if (!sy::find_rtl_router("sy_vc_router_inreg", 2, 4))
    GTEST_SKIP() << "built without SWITCHYARD_COSIM";
  std::ostringstream msgs;
  const int pairs[][2] = {{0, 15}, {15, 0}, {5, 6}, {3, 12}, {9, 8}, {12, 1}, {7, 4}, {10, 2}};
  int time = 0;
  for (const auto& sd : pairs) {
    msgs << (time ? ", " : "") << "{time: " << time << ", src: " << sd[0] << ", dst: " << sd[1]
         << ", flits: 4}";
    time += 100;
  }
  const std::string base =
      "name: rtl_inreg\ntopology: {type: mesh, dims: [4, 4]}\nrouter:\n  buffering: input_vc\n"
      "  vcs: 2\n  vc_depth: 4\n  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}\n";
  const std::string traffic = "traffic: {type: trace, messages: [" + msgs.str() + "]}\n";
  const std::string dir = "/tmp/switchyard-test-inreg-" + std::to_string(getpid());
  int rc_model = -1, rc_rtl = -1;
  cli_results_any("inreg-model", base + traffic, &rc_model,
                  "SWITCHYARD_HOP_LOG=" + dir + "-model.hops ");
  cli_results_any("inreg-rtl", base + "  model: rtl\n  rtl: sy_vc_router_inreg\n" + traffic,
                  &rc_rtl, "SWITCHYARD_HOP_LOG=" + dir + "-rtl.hops ");
  ASSERT_EQ(rc_model, 0);
  ASSERT_EQ(rc_rtl, 0);
  // Per flit (packet, seq): the routers it crossed and its arrival at the NI (the ejection
  // output, port 4 of a 2-D mesh router).
  struct Seen {
    int routers = 0;
    long arrival = -1;
  };
  const auto read = [](const std::string& path) {
    std::map<std::pair<long, long>, Seen> m;
    for (const std::string& l : lines(path)) {
      std::istringstream in(l);
      long arrival, router, port, vc, packet, seq;
      in >> arrival >> router >> port >> vc >> packet >> seq;
      Seen& s = m[{packet, seq}];
      ++s.routers;
      if (port == 4) s.arrival = arrival;
    }
    return m;
  };
  const auto model = read(dir + "-model.hops"), rtl = read(dir + "-rtl.hops");
  ASSERT_EQ(model.size(), 8u * 4u);
  ASSERT_EQ(rtl.size(), model.size());
  int routers = 0;
  for (const auto& [flit, m] : model) {
    const Seen& r = rtl.at(flit);
    ASSERT_GE(m.arrival, 0);
    EXPECT_EQ(r.routers, m.routers) << "packet " << flit.first << " flit " << flit.second;
    EXPECT_EQ(r.arrival - m.arrival, m.routers)
        << "packet " << flit.first << " flit " << flit.second << ": " << m.routers
        << " routers crossed";
    routers += m.routers;
  }
  EXPECT_GT(routers, 8 * 4 * 2);  // (not vacuous: most flits cross several routers)
}

// waves.rtl_nodes: each an RTL router (with the line and index of the one that is not), a
// router of the network, under router.model rtl; and the build must have Verilated the router
// with tracing (the example router sy_vc_router_inreg is built without).
TEST(RtlRouter, WavesRtlNodesConfigErrorsSayFileLineAndKey) {
  Point p;
  p.rtl_nodes = "[1, 3]";
  const std::string ok = yaml(p, true) + "waves:\n  rtl_nodes: [3, 1]\n";
  if (have_rtl() && sy::find_rtl_router("sy_vc_router", 2, 4)->make_traced) {
    EXPECT_EQ(config_error(ok), "");
  }
  // Not an RTL router of the mixed network: line 14, element 1.
  std::string bad = ok;
  bad.replace(bad.find("[3, 1]"), 6, "[3, 2]");
  std::string e = config_error(bad);
  EXPECT_NE(e.find("cfg.yaml:14:"), std::string::npos) << e;
  EXPECT_NE(e.find("waves.rtl_nodes[1]"), std::string::npos) << e;
  EXPECT_NE(e.find("router 2 is not an RTL router"), std::string::npos) << e;
  // Not a router of the network.
  e = config_error(ok, {"waves.rtl_nodes=[16]"});
  EXPECT_NE(e.find("waves.rtl_nodes"), std::string::npos) << e;
  // Without router.model: rtl.
  e = config_error(yaml(p, false) + "waves:\n  rtl_nodes: [1]\n");
  EXPECT_NE(e.find("cfg.yaml:12:"), std::string::npos) << e;
  EXPECT_NE(e.find("waves.rtl_nodes"), std::string::npos) << e;
  EXPECT_NE(e.find("needs router.model: rtl"), std::string::npos) << e;
  // A router built without tracing.
  if (!have_rtl() || !sy::find_rtl_router("sy_vc_router_inreg", 2, 4)) return;
  e = config_error(ok, {"router.rtl=sy_vc_router_inreg"});
  EXPECT_NE(e.find("cfg.yaml:14:"), std::string::npos) << e;
  EXPECT_NE(e.find("waves.rtl_nodes"), std::string::npos) << e;
  EXPECT_NE(e.find("no tracing"), std::string::npos) << e;
}
