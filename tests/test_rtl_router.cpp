// router.model: rtl: the Verilated rtl/router/sy_vc_router in the place of the C++ staged router
// at every node (rtl/adapter/), against the C++ router on the same config: every flit's arrival
// at every router and at its NI (SWITCHYARD_HOP_LOG, sorted) and results.json (less the wall
// time, the model keys and flits.max_wait) must be identical. Skipped in builds without
// SWITCHYARD_COSIM; the config errors are checked in every build.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "switchyard/router/rtl_registry.hpp"

namespace {

using sy::test::cli_results_any;
using sy::test::config_error;

struct Point {
  std::string dims = "[4, 4]";
  double rate = 0.05;
  int flits = 4;
  bool wait_for_tail_credit = true;
  int credit_delay = 1;
  std::string pattern = "uniform";
  int measure = 3000;
};

std::string yaml(const Point& p, bool rtl) {
  std::ostringstream y;
  y << "name: rtl_cmp\n"
    << "topology: {type: mesh, dims: " << p.dims << "}\n"
    << "router:\n  buffering: input_vc\n  vcs: 2\n  vc_depth: 4\n"
    << (p.wait_for_tail_credit ? "" : "  wait_for_tail_credit: false\n")
    << "  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: " << p.credit_delay << "}\n"
    << (rtl ? "  model: rtl\n" : "") << "timing: {tau: 1}\n"
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
// flits.max_wait (the RTL does not say when a flit became ready: 0 under rtl).
std::string comparable(const std::string& js) {
  std::istringstream in(js);
  std::string out;
  for (std::string l; std::getline(in, l);) {
    if (l.find("\"wall_seconds\"") != std::string::npos ||
        l.find("\"max_wait\"") != std::string::npos ||
        l.find("\"model\": \"rtl\"") != std::string::npos ||
        l.find("\"rtl\": \"") != std::string::npos)
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
  e = config_error(ok, {"topology.type=torus"});
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
