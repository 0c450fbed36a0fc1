// Per-link utilization (results.json links.utilization), per-flow latency (flows.csv,
// simulation.flows_csv) and the heatmaps of tb/plot_links.py: one entry per link whose source,
// dimension, direction and destination are the topology's; entries that average to
// utilization_mean and peak at utilization_max; an isolated message lights exactly the links of
// its path for exactly L*tau cycles each; flows whose packet counts sum to the measured packets,
// whose weighted mean is the overall mean, and whose isolated message takes the zero-load formula.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "helpers.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/csv.hpp"
#include "switchyard/sim/estimate.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;
using nlohmann::json;

namespace {

std::string out_dir(const std::string& name) {
  return "/tmp/switchyard-test-" + name + "-" + std::to_string(getpid());
}

// Runs the YAML through the CLI into out_dir(name); results.json parsed (null when it failed).
json run_cli(const std::string& name, const std::string& yaml, std::string* output = nullptr) {
  const std::string text = test::cli_results(name, yaml, output);
  if (text.empty()) return json();
  return json::parse(text);
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(f, line)) rows.push_back(csv_fields(line));
  return rows;
}

// What every links.utilization must be: one entry per link of the topology, each (src, dim,
// dir) once with the topology's neighbour as dst, averaging to utilization_mean (to the 10
// digits results.json keeps) with utilization_max as its largest.
void expect_links_match_topology(const json& js, const Topology& topo) {
  const json& l = js["links"]["utilization"];
  ASSERT_TRUE(l.is_array());
  EXPECT_EQ(static_cast<int>(l.size()), topo.num_links());
  std::set<std::tuple<int, int, int>> seen;
  double sum = 0, mx = 0;
  for (const json& e : l) {
    const int src = e["src"], dim = e["dim"], dir = e["dir"], dst = e["dst"];
    const int p = topo.port_of(dim, dir);
    ASSERT_GE(p, 0) << e.dump();
    EXPECT_EQ(topo.port(p).dir, dir) << e.dump();
    EXPECT_EQ(topo.neighbor(src, p), dst) << e.dump();
    EXPECT_TRUE(seen.insert({src, dim, dir}).second) << "twice: " << e.dump();
    const double u = e["utilization"];
    EXPECT_GE(u, 0);
    sum += u;
    mx = std::max(mx, u);
  }
  const double mean = js["links"]["utilization_mean"];
  EXPECT_NEAR(sum / static_cast<double>(l.size()), mean, 1e-9 * std::max(1.0, mean));
  EXPECT_EQ(mx, js["links"]["utilization_max"].get<double>());
}

const char* kLoaded = R"(topology: {type: mesh, dims: [5, 4]}
router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}
timing: {alpha: 1, delta: 1, tau: 1}
traffic: {process: bernoulli, rate: 0.2, packet_flits: 4, pattern: uniform}
simulation: {warmup: 500, measure: 8000, seed: 7, flows_csv: true}
)";

}  // namespace

TEST(Links, UtilizationHasOneEntryPerLinkAveragingToTheMeanOnAMesh) {
  std::string out;
  const json js = run_cli("links_mesh", std::string("name: links_mesh\n") + kLoaded, &out);
  ASSERT_FALSE(js.is_null()) << out;
  // A 5x4 mesh: 2*(4*4) links in x, 2*(5*3) in y.
  EXPECT_EQ(js["links"]["utilization"].size(), 2u * 4 * 4 + 2u * 5 * 3);
  expect_links_match_topology(js, Topology(Topology::Kind::Mesh, {5, 4}));
  EXPECT_GT(js["links"]["utilization_max"].get<double>(), 0);
  // The by-dimension means are the entries' means too.
  for (int d = 0; d < 2; ++d) {
    double s = 0;
    int n = 0;
    for (const json& e : js["links"]["utilization"])
      if (e["dim"] == d) s += e["utilization"].get<double>(), ++n;
    EXPECT_NEAR(s / n, js["links"]["utilization_by_dimension"][d].get<double>(), 1e-9);
  }
}

TEST(Links, UtilizationIsTheSameForTheSameSeed) {
  const std::string y = std::string("name: links_seed\n") + kLoaded;
  const json a = run_cli("links_seed_a", y), b = run_cli("links_seed_b", y);
  ASSERT_FALSE(a.is_null());
  ASSERT_FALSE(b.is_null());
  EXPECT_EQ(a["links"]["utilization"].dump(), b["links"]["utilization"].dump());
  // And the flows file byte for byte.
  std::ifstream fa(out_dir("links_seed_a") + "/flows.csv"),
      fb(out_dir("links_seed_b") + "/flows.csv");
  std::stringstream sa, sb;
  sa << fa.rdbuf();
  sb << fb.rdbuf();
  EXPECT_FALSE(sa.str().empty());
  EXPECT_EQ(sa.str(), sb.str());
}

// One isolated message: exactly the links of its dimension-order path carry it, each busy L*tau
// cycles of the run (a trace's window is the whole run); its flow's latency is the zero-load
// formula. On a 5x5 torus node 0 = (0,0) -> 17 = (2,3): x+ twice, then y- through the wrap
// (0 -> 4 is shorter going down), i.e. (0,0)->(1,0)->(2,0)->(2,4)->(2,3).
class LinksSingleMessage : public ::testing::TestWithParam<const char*> {};

TEST_P(LinksSingleMessage, ExactlyTheLinksOnItsPathAreBusy) {
  const std::string buffering = GetParam();
  const std::string name = "links_one_" + buffering;
  std::ostringstream y;
  y << "name: " << name << "\ntopology: {type: torus, dims: [5, 5]}\n"
    << "router: {buffering: " << buffering << ", switching: wormhole, vcs: 2, vc_depth: 8}\n"
    << "timing: {alpha: 3, delta: 2, tau: 2}\n"
    << "routing: {algorithm: dimension_order}\n"
    << "traffic:\n  type: trace\n  messages:\n    - {time: 10, src: 0, dst: 17, flits: 5}\n"
    << "simulation: {flows_csv: true}\n";
  std::string out;
  const json js = run_cli(name, y.str(), &out);
  ASSERT_FALSE(js.is_null()) << out;
  const Topology topo(Topology::Kind::Torus, {5, 5});
  expect_links_match_topology(js, topo);
  // (src, dim, dir) -> dst of the path.
  const std::map<std::tuple<int, int, int>, int> path = {
      {{0, 0, +1}, 1}, {{1, 0, +1}, 2}, {{2, 1, -1}, 22}, {{22, 1, -1}, 17}};
  const double cycles = js["cycles"];
  int busy = 0;
  for (const json& e : js["links"]["utilization"]) {
    const auto it = path.find({e["src"], e["dim"], e["dir"]});
    const double u = e["utilization"];
    if (it == path.end()) {
      EXPECT_EQ(u, 0) << e.dump();
      continue;
    }
    ++busy;
    EXPECT_EQ(e["dst"].get<int>(), it->second);
    if (buffering == "circuit")
      EXPECT_GE(u * cycles, 5 * 2 - 1e-6) << e.dump();  // held from setup until released
    else
      EXPECT_NEAR(u * cycles, 5 * 2, 1e-6) << e.dump();  // L*tau cycles of flits
  }
  EXPECT_EQ(busy, 4);
  // The flow: one packet, at the zero-load latency of its 4 hops.
  const auto rows = read_csv(out_dir(name) + "/flows.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"src", "dst", "hops", "packets", "latency_mean",
                                      "latency_min", "latency_max", "network_latency_mean"}));
  const Config c = test::cfg(y.str());
  const std::string zl = std::to_string(zero_load_latency(c, 4, 5));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"0", "17", "4", "1", zl, zl, zl, rows[1][7]}));
  EXPECT_EQ(js["latency"]["mean"].get<double>(), std::stod(zl));
}

INSTANTIATE_TEST_SUITE_P(Buffering, LinksSingleMessage,
                         ::testing::Values("input_vc", "output_queued", "circuit"));

// A hypercube's links have one direction (dir 0): 0 -> 7 by e-cube crosses d0, d1, d2.
TEST(Links, HypercubeLinksHaveOneDirectionAndTheMessageItsPath) {
  const json js = run_cli("links_cube", R"(name: links_cube
topology: {type: hypercube, dim: 3}
timing: {alpha: 0, delta: 1, tau: 1}
traffic:
  type: trace
  messages: [{time: 0, src: 0, dst: 7, flits: 3}]
)");
  ASSERT_FALSE(js.is_null());
  expect_links_match_topology(js, Topology::hypercube(3));
  EXPECT_EQ(js["links"]["utilization"].size(), 8u * 3);
  std::set<std::pair<int, int>> busy;
  for (const json& e : js["links"]["utilization"]) {
    EXPECT_EQ(e["dir"], 0);
    if (e["utilization"].get<double>() > 0) busy.insert({e["src"].get<int>(), e["dim"].get<int>()});
  }
  EXPECT_EQ(busy, (std::set<std::pair<int, int>>{{0, 0}, {1, 1}, {3, 2}}));
}

// A butterfly: one entry per link by level and output port, straight or cross arc; the message
// from terminal 0 to 5 takes port = digit l of 5 at level l: (0,0) -1-> (1,1) -0-> (1,2) -1->
// (5,3), router id = level * 8 + row.
TEST(Links, ButterflyEntriesGoByLevelAndPort) {
  const json js = run_cli("links_fly", R"(name: links_fly
topology: {type: butterfly, k: 2, n: 3}
router: {buffering: output_queued, switching: store_and_forward}
traffic:
  type: trace
  messages: [{time: 0, src: 0, dst: 5, flits: 2}]
)");
  ASSERT_FALSE(js.is_null());
  const json& l = js["links"]["utilization"];
  ASSERT_EQ(l.size(), 8u * 3 * 2);
  const Topology topo = Topology::butterfly(2, 3);
  std::set<std::pair<int, int>> busy;
  double sum = 0;
  for (const json& e : l) {
    const int src = e["src"], port = e["port"], level = e["level"];
    EXPECT_EQ(level, src / 8);
    EXPECT_EQ(topo.neighbor(src, port), e["dst"].get<int>());
    const bool straight = port == (src % 8 >> level) % 2;
    EXPECT_EQ(e["arc"], straight ? "straight" : "vertical");
    EXPECT_FALSE(e.contains("dim"));
    sum += e["utilization"].get<double>();
    if (e["utilization"].get<double>() > 0) busy.insert({src, port});
  }
  EXPECT_EQ(busy, (std::set<std::pair<int, int>>{{0, 1}, {9, 0}, {17, 1}}));
  EXPECT_NEAR(sum / l.size(), js["links"]["utilization_mean"].get<double>(), 1e-9);
}

// Another indirect network (a 2-ary 3-tree): one entry per link with its port and its class
// (the name of its by_class row); terminal 0 to terminal 7 goes up from leaf 0 to a root and
// down to leaf 3: one busy link in each of the four classes.
TEST(Links, FatTreeEntriesNameTheirClass) {
  const json js = run_cli("links_tree", R"(name: links_tree
topology: {type: fat_tree, k: 2, n: 3}
traffic:
  type: trace
  messages: [{time: 0, src: 0, dst: 7, flits: 2}]
)");
  ASSERT_FALSE(js.is_null());
  const Topology topo = Topology::fat_tree(2, 3);
  std::map<std::string, int> links, busy;
  for (const json& e : js["links"]["utilization"]) {
    const int src = e["src"], port = e["port"];
    EXPECT_EQ(topo.neighbor(src, port), e["dst"].get<int>());
    EXPECT_EQ(e["class"], topo.link_class_name(topo.link_class(src, port)));
    EXPECT_FALSE(e.contains("level") || e.contains("dim"));
    ++links[e["class"]];
    if (e["utilization"].get<double>() > 0) ++busy[e["class"]];
  }
  for (const json& c : js["links"]["by_class"]) EXPECT_EQ(links[c["class"]], c["links"].get<int>());
  EXPECT_EQ(busy.size(), 4u);
  for (const auto& b : busy) EXPECT_EQ(b.second, 1) << b.first;
}

// Per-flow latency over a loaded run: the flows' packets sum to the measured packets, their
// weighted mean is the overall mean, their extremes bracket it, each flow once, source-major.
TEST(Flows, CountsSumToTheMeasuredPacketsAndTheWeightedMeanIsTheMean) {
  std::string out;
  const json js = run_cli("flows_loaded", std::string("name: flows_loaded\n") + kLoaded, &out);
  ASSERT_FALSE(js.is_null()) << out;
  const auto rows = read_csv(out_dir("flows_loaded") + "/flows.csv");
  ASSERT_GT(rows.size(), 100u);
  const Topology topo(Topology::Kind::Mesh, {5, 4});
  double packets = 0, weighted = 0, mx = 0, mn = 1e18;
  std::pair<int, int> last{-1, -1};
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ASSERT_EQ(r.size(), 8u);
    const int s = std::stoi(r[0]), d = std::stoi(r[1]);
    EXPECT_LT(last, std::make_pair(s, d)) << "flows in source-major order, each once";
    last = {s, d};
    EXPECT_NE(s, d);  // uniform excludes self traffic
    EXPECT_EQ(std::stoi(r[2]), topo.distance(s, d));
    const double n = std::stod(r[3]), mean = std::stod(r[4]), lo = std::stod(r[5]),
                 hi = std::stod(r[6]), net = std::stod(r[7]);
    EXPECT_GE(n, 1);
    EXPECT_LE(lo, mean);
    EXPECT_LE(mean, hi);
    EXPECT_LE(net, mean);
    packets += n;
    weighted += n * mean;
    mx = std::max(mx, hi);
    mn = std::min(mn, lo);
  }
  EXPECT_EQ(packets, js["packets"]["measured"].get<double>());
  EXPECT_EQ(packets, js["latency"]["count"].get<double>());
  const double mean = js["latency"]["mean"];
  EXPECT_NEAR(weighted / packets, mean, 1e-8 * mean);
  EXPECT_EQ(mx, js["latency"]["max"].get<double>());
  // 20 nodes, uniform: every one of the 380 flows had packets (about 21 each: 0.05 packets per
  // node and cycle for 8000 cycles).
  EXPECT_EQ(rows.size(), 1u + 20 * 19);
  EXPECT_GE(mn, 1 + 1 + 4);  // alpha + one hop + L tau at least
}

TEST(Flows, WithoutTheKeyNoFileAndTheConfigEchoUnchanged) {
  const json js = run_cli("flows_off", R"(name: flows_off
topology: {type: torus, dims: [3, 3]}
traffic: {rate: 0.1, packet_flits: 2}
simulation: {warmup: 100, measure: 500}
)");
  ASSERT_FALSE(js.is_null());
  EXPECT_FALSE(js["config"]["simulation"].contains("flows_csv"));
  EXPECT_FALSE(std::ifstream(out_dir("flows_off") + "/flows.csv").good());
  EXPECT_EQ(js["links"]["utilization"].size(), 9u * 4);
}

TEST(Flows, KeyIsValidatedLikeTheOthers) {
  const std::string e = test::config_error(
      "topology: {type: torus, dims: [4, 4]}\n"
      "simulation:\n  flows_csv: 3\n");
  EXPECT_NE(e.find("cfg.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("simulation.flows_csv"), std::string::npos) << e;
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;
  const std::string u = test::config_error(
      "topology: {type: torus, dims: [4, 4]}\n"
      "simulation:\n  flow_csv: true\n");
  EXPECT_NE(u.find("cfg.yaml:3"), std::string::npos) << u;
  EXPECT_NE(u.find("flow_csv"), std::string::npos) << u;
  EXPECT_TRUE(test::cfg("simulation: {flows_csv: true}\n").simulation.flows_csv);
  EXPECT_FALSE(test::cfg("simulation: {}\n").simulation.flows_csv);
}

// N^2 accumulators: a 64x64 torus (4096 nodes, 16.8 M flows, about 670 MB) is refused under a
// 0.5 GB limit, naming the key; the same run without it fits. The link entries are counted too.
TEST(Flows, MemoryEstimateRefusesTooManyFlows) {
  const std::string base =
      "topology: {type: torus, dims: [64, 64]}\ntraffic: {rate: 0.01}\n"
      "simulation: {measure: 1000, max_memory_gb: ";
  EXPECT_EQ(test::config_error(base + "0.5}\n"), "");
  const std::string e = test::config_error(base + "0.5, flows_csv: true}\n");
  EXPECT_NE(e.find("simulation.flows_csv"), std::string::npos) << e;
  EXPECT_NE(e.find("per-flow latency"), std::string::npos) << e;
  const Estimate est = estimate_run(test::cfg(base + "100, flows_csv: true}\n"));
  double flows = 0, links = 0;
  for (const auto& p : est.parts) {
    if (p.key == "simulation.flows_csv") flows = p.bytes;
    if (p.what.find("per-link") != std::string::npos) links = p.bytes;
  }
  EXPECT_GE(flows, 4096.0 * 4096 * 40);
  EXPECT_GE(links, 4096.0 * 4 * 100);
}

// tb/plot_links.py with the system python3 (skipped when it has no matplotlib): one PNG per
// dimension and direction of a 2-D mesh and of a 3-D torus with a size-2 dimension; a butterfly
// is refused with a clear message.
namespace {
bool have_matplotlib() {
  return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
}
std::string plot(const std::string& results, const std::string& dir, int* rc) {
  const auto c = test::shell("/usr/bin/python3 " + std::string(sy::test::kSourceDir) +
                             "/tb/plot_links.py " + results + " --out-dir " + dir);
  *rc = c.rc;
  return c.output;
}
}  // namespace

TEST(PlotLinks, OnePngPerDimensionAndDirection) {
  if (!have_matplotlib()) GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  const json a = run_cli("plot_mesh", std::string("name: plot_mesh\n") + kLoaded);
  const json b = run_cli("plot_3d", R"(name: plot_3d
topology: {type: torus, dims: [4, 3, 2]}
traffic: {rate: 0.1, packet_flits: 2}
simulation: {warmup: 100, measure: 1000}
)");
  ASSERT_FALSE(a.is_null());
  ASSERT_FALSE(b.is_null());
  const std::string d = out_dir("plot_png");
  int rc = 0;
  std::string o = plot(out_dir("plot_mesh") + "/results.json", d + "/mesh", &rc);
  ASSERT_EQ(rc, 0) << o;
  for (const char* f : {"links_d0_plus", "links_d0_minus", "links_d1_plus", "links_d1_minus"})
    EXPECT_TRUE(std::ifstream(d + "/mesh/" + f + ".png").good()) << f << "\n" << o;
  o = plot(out_dir("plot_3d") + "/results.json", d + "/torus", &rc);
  ASSERT_EQ(rc, 0) << o;
  for (const char* f :
       {"links_d0_plus", "links_d0_minus", "links_d1_plus", "links_d1_minus", "links_d2"})
    EXPECT_TRUE(std::ifstream(d + "/torus/" + f + ".png").good()) << f << "\n" << o;
  EXPECT_FALSE(std::ifstream(d + "/torus/links_d2_plus.png").good());
  // A butterfly: one heatmap by link class.
  const json c = run_cli("plot_fly",
                         "name: plot_fly\ntopology: {type: butterfly, k: 2, n: 2}\n"
                         "traffic: {rate: 0.1}\nsimulation: {warmup: 50, measure: 200}\n");
  ASSERT_FALSE(c.is_null());
  o = plot(out_dir("plot_fly") + "/results.json", d + "/fly", &rc);
  EXPECT_EQ(rc, 0) << o;
  EXPECT_TRUE(std::ifstream(d + "/fly/links_by_class.png").good()) << o;
  EXPECT_FALSE(std::ifstream(d + "/fly/links_d0_plus.png").good());
  // A 1-D ring: no heatmap, a message saying why, exit 1.
  const json r = run_cli("plot_ring",
                         "name: plot_ring\ntopology: {type: torus, dims: [8]}\n"
                         "traffic: {rate: 0.1}\nsimulation: {warmup: 50, measure: 200}\n");
  ASSERT_FALSE(r.is_null());
  o = plot(out_dir("plot_ring") + "/results.json", d + "/ring", &rc);
  EXPECT_EQ(rc, 1) << o;
  EXPECT_NE(o.find("2-D and 3-D tori and meshes"), std::string::npos) << o;
}

// The latency matrix from flows.csv (tb/plot_flows.py), and both plot scripts' PDF and SVG
// output: the files a paper takes, with their formats' own headers (issue 33, point 5).
TEST(PlotFlows, LatencyMatrixAndPdfSvgOutputs) {
  if (!have_matplotlib()) GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  const json a = run_cli("plot_flows", R"(name: plot_flows
topology: {type: torus, dims: [4, 4]}
traffic: {rate: 0.2, packet_flits: 2}
simulation: {warmup: 100, measure: 1000, flows_csv: true}
)");
  ASSERT_FALSE(a.is_null());
  const std::string run = out_dir("plot_flows"), d = out_dir("plot_formats");
  const std::string py = "/usr/bin/python3 " + std::string(sy::test::kSourceDir) + "/tb/";
  const auto starts_with = [](const std::string& path, const std::string& head) {
    std::ifstream f(path, std::ios::binary);
    std::string got(head.size(), '\0');
    f.read(&got[0], static_cast<std::streamsize>(head.size()));
    return f.good() && got == head;
  };
  test::shell("mkdir -p " + d);
  for (const auto& [ext, head] :
       {std::pair<std::string, std::string>{"pdf", "%PDF"}, {"svg", "<?xml"}, {"png", "\x89PNG"}}) {
    const auto c =
        test::shell(py + "plot_flows.py " + run + "/flows.csv --out " + d + "/matrix." + ext);
    EXPECT_EQ(c.rc, 0) << c.output;
    EXPECT_TRUE(starts_with(d + "/matrix." + ext, head)) << ext << "\n" << c.output;
  }
  const auto l = test::shell(py + "plot_links.py " + run + "/results.json --out-dir " + d +
                             "/links --format svg");
  EXPECT_EQ(l.rc, 0) << l.output;
  EXPECT_TRUE(starts_with(d + "/links/links_d0_plus.svg", "<?xml")) << l.output;
  // A two-parameter sweep's plot as PDF (its title from a run's results.json in the sweep).
  const std::string yaml =
      test::write_temp("plot_sweep.yaml",
                       "name: plot_sweep\ntopology: {type: torus, dims: [4, 4]}\n"
                       "traffic: {rate: 0.1, packet_flits: 2}\n"
                       "simulation: {warmup: 100, measure: 300}\n");
  const auto sw = test::shell(std::string(sy::test::kBin) + " sweep " + yaml +
                              " --param traffic.rate --values 0.1,0.2 --param "
                              "router.vcs --values 2,3 --out " +
                              d + "/sweep");
  ASSERT_EQ(sw.rc, 0) << sw.output;
  const auto ps =
      test::shell(py + "plot_sweep.py " + d + "/sweep/sweep.csv --out " + d + "/sweep.pdf");
  EXPECT_EQ(ps.rc, 0) << ps.output;
  EXPECT_TRUE(starts_with(d + "/sweep.pdf", "%PDF")) << ps.output;
  // A run without flows.csv rows: one line saying why, exit 1.
  test::shell(
      "printf 'src,dst,hops,packets,latency_mean,latency_min,latency_max,"
      "network_latency_mean\\n' > " +
      d + "/empty.csv");
  const auto e = test::shell(py + "plot_flows.py " + d + "/empty.csv");
  EXPECT_EQ(e.rc, 1) << e.output;
  EXPECT_NE(e.output.find("no measured flows"), std::string::npos) << e.output;
}

// A link's busy cycles in the window are the flits it carried in the window times tau: on a
// torus under uniform traffic the links' mean utilization is the accepted load times the mean
// hop count over the 2d links a node has (each flit crosses mean_hops links), to within the
// window's fluctuation; with warmup as long as the window, counting from the run's start would
// double it, and tau = 2 doubles it again.
TEST(Links, MeanUtilizationIsTheAcceptedFlitHopsInTheWindow) {
  for (const int tau : {1, 2}) {
    std::ostringstream y;
    y << "name: links_window_t" << tau << "\ntopology: {type: torus, dims: [4, 4]}\n"
      << "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
      << "timing: {alpha: 1, delta: 1, tau: " << tau << "}\n"
      << "traffic: {process: bernoulli, rate: " << 0.3 / tau
      << ", packet_flits: 4, pattern: uniform}\n"
      << "simulation: {warmup: 20000, measure: 20000, seed: 3}\n";
    std::string out;
    const json js = run_cli("links_window_t" + std::to_string(tau), y.str(), &out);
    ASSERT_FALSE(js.is_null()) << out;
    ASSERT_TRUE(js["stable"].get<bool>());
    const double expect =
        js["throughput"]["accepted"].get<double>() * js["mean_hops"].get<double>() * tau / 4.0;
    EXPECT_NEAR(js["links"]["utilization_mean"].get<double>(), expect, 0.01 * expect)
        << "tau " << tau;
  }
}

// A python3 without matplotlib first on PATH (a pyenv or conda one: here the system's, started
// with -S so it sees no site packages) still plots: the script runs itself again with the
// system's python3, and says so in one line (issue 33, point 5). With no interpreter that has
// matplotlib it says how to get it in one line.
TEST(PlotLinks, APython3WithoutMatplotlibFirstOnPathStillPlots) {
  if (!have_matplotlib()) GTEST_SKIP() << "/usr/bin/python3 has no matplotlib";
  const json a = run_cli("plot_path", std::string("name: plot_path\n") + kLoaded);
  const std::string fake = "/tmp/switchyard-test-nompl";
  test::shell("rm -rf " + fake + " && mkdir -p " + fake + "/bin && printf '#!/bin/sh\\nexec " +
              "/usr/bin/python3 -S \"$@\"\\n' > " + fake + "/bin/python3 && chmod +x " + fake +
              "/bin/python3");
  ASSERT_NE(test::shell("PATH=" + fake + "/bin:$PATH python3 -c 'import matplotlib'").rc, 0);
  ASSERT_FALSE(a.is_null());
  std::ofstream(fake + "/results.json") << a.dump(2);
  const auto c =
      test::shell("PATH=" + fake + "/bin:$PATH " + std::string(sy::test::kSourceDir) +
                  "/tb/plot_links.py " + fake + "/results.json --out-dir " + fake + "/png");
  EXPECT_EQ(c.rc, 0) << c.output;
  EXPECT_NE(c.output.find("has no matplotlib: running it with /usr/bin/python3"), std::string::npos)
      << c.output;
  EXPECT_FALSE(test::shell("ls " + fake + "/png/*.png").output.empty()) << c.output;
  // Nowhere to be found: one line that says how to get it.
  const auto d = test::shell("SWITCHYARD_PLOT_REEXEC=1 PATH=" + fake + "/bin:$PATH " +
                             std::string(sy::test::kSourceDir) + "/tb/plot_sweep.py x.csv");
  EXPECT_EQ(d.rc, 1) << d.output;
  EXPECT_NE(d.output.find("apt-get install python3-matplotlib"), std::string::npos) << d.output;
}
