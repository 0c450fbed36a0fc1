// VCD waveforms: a one-message run is found at each router of its path at the cycles the
// zero-load model predicts; the GTKWave save file names only signals the VCD has; the window and
// the router list are obeyed; waves off writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/router/routing_unit.hpp"
#include "switchyard/sim/analysis.hpp"
#include "vcd.hpp"

using namespace sy;

namespace {

std::string fresh_dir(const std::string& name) {
  const std::string d = "/tmp/switchyard-test-waves-" + name + "-" + std::to_string(getpid());
  std::filesystem::remove_all(d);
  return d;
}

}  // namespace

struct WaveCase {
  std::string name, buffering;
  int alpha, delta, tau, flits;
};
std::ostream& operator<<(std::ostream& o, const WaveCase& c) {
  return o << c.name;
}
class WavePath : public ::testing::TestWithParam<WaveCase> {};

TEST_P(WavePath, MessageSeenAtEveryRouterOfItsPathWhenTheFormulaSays) {
  const WaveCase& c = GetParam();
  const std::string dir = fresh_dir(c.name);
  const int src = 1, dst = 18;  // 5x4 torus: (1,0) -> (3,3), 2 + 1 hops, one of them a wrap
  const Cycle t0 = 7;
  std::ostringstream y;
  y << "topology: {type: torus, dims: [5, 4]}\n"
    << "router: {buffering: " << c.buffering << ", vcs: 2, vc_depth: 4}\n"
    << "timing: {alpha: " << c.alpha << ", delta: " << c.delta << ", tau: " << c.tau << "}\n"
    << "traffic:\n  type: trace\n  messages:\n    - {time: " << t0 << ", src: " << src
    << ", dst: " << dst << ", flits: " << c.flits << "}\n"
    << "waves: {enable: true, file: " << dir << "/run.vcd}\n";
  const Config cfg = test::cfg(y.str());
  const Results r = test::run(y.str(), true);
  ASSERT_TRUE(r.stable);
  ASSERT_EQ(r.packets.size(), 1u);
  const Topology topo = cfg.topology.make();
  const int h = topo.distance(src, dst);
  ASSERT_EQ(h, 3);
  EXPECT_EQ(static_cast<long long>(r.packets[0].delivered - t0),
            zero_load_latency(cfg, h, c.flits));

  test::Vcd vcd(dir + "/run.vcd");
  ASSERT_TRUE(vcd.ok);
  const RoutingUnit ru(topo, cfg.routing.tie_break, cfg.router.vcs);
  int node = src, in_port = topo.num_ports();  // enters the source router from the NI
  const Cycle horizon = r.cycles + 5;
  for (int k = 0; k <= h; ++k) {
    const std::string s = "r" + std::to_string(node) + ".in_" + port_label(topo, in_port) + ".";
    ASSERT_TRUE(vcd.has(s + "valid")) << s;
    // The head reaches the k-th router of the path alpha + k*delta after the request.
    const Cycle head = t0 + c.alpha + static_cast<Cycle>(k) * c.delta;
    std::vector<std::uint64_t> expect;
    if (c.buffering == "input_vc")
      for (int f = 0; f < c.flits; ++f) expect.push_back(head + static_cast<Cycle>(f) * c.tau);
    else
      expect.push_back(head);  // output_queued models packets: one event at the head
    EXPECT_EQ(vcd.high_cycles(s + "valid", horizon), expect) << s << " hop " << k;
    EXPECT_EQ(vcd.at(s + "head", head), 1u) << s;
    EXPECT_EQ(vcd.at(s + "pkt", head),
              vcd.at("r" + std::to_string(src) + ".in_inj.pkt", t0 + c.alpha));
    if (c.buffering == "input_vc") {
      EXPECT_EQ(vcd.at(s + "tail", expect.back()), 1u) << s;
      if (k < h) {
        // The switch grant and crossbar connection follow delta cycles later.
        const int out = ru.out_port(node, dst);
        const std::string o = "r" + std::to_string(node) + ".out_" + port_label(topo, out) + ".";
        EXPECT_EQ(vcd.at(o + "sw_gnt", head + c.delta), 1u << in_port) << o;
        EXPECT_EQ(vcd.at(o + "xbar", head + c.delta), 1u << in_port) << o;
      }
    }
    if (k == h) break;
    const int out = ru.out_port(node, dst);
    in_port = topo.reverse_port(out);
    node = topo.neighbor(node, out);
  }
  EXPECT_EQ(node, dst);
}

INSTANTIATE_TEST_SUITE_P(Waves, WavePath,
                         ::testing::Values(WaveCase{"wormhole", "input_vc", 2, 1, 1, 4},
                                           WaveCase{"wormhole_slow", "input_vc", 3, 2, 2, 3},
                                           WaveCase{"output_queued", "output_queued", 1, 3, 1, 5}),
                         [](const ::testing::TestParamInfo<WaveCase>& i) { return i.param.name; });

TEST(Waves, GtkwNamesOnlySignalsOfTheVcdAndCreditsStartFull) {
  const std::string dir = fresh_dir("gtkw");
  const std::string y =
      "topology: {type: mesh, dims: [3, 2]}\nrouter: {vcs: 3, vc_depth: 5}\n"
      "traffic:\n  type: trace\n  messages:\n    - {time: 0, src: 0, dst: 5, flits: 2}\n"
      "waves: {enable: true, file: " +
      dir + "/m.vcd, routers: [0, 4]}\n";
  const Results r = test::run(y);
  ASSERT_TRUE(r.stable);
  test::Vcd vcd(dir + "/m.vcd");
  ASSERT_TRUE(vcd.ok);
  std::ifstream g(dir + "/m.gtkw");
  ASSERT_TRUE(g.good());
  int names = 0, groups = 0;
  for (std::string line; std::getline(g, line);) {
    if (line.rfind("SystemC.", 0) == 0) {
      std::string n = line.substr(8);
      n = n.substr(0, n.find('['));
      EXPECT_TRUE(vcd.has(n)) << n;
      ++names;
    }
    if (line == "@800200") ++groups;
  }
  EXPECT_EQ(names, static_cast<int>(vcd.signals.size()));
  EXPECT_GT(groups, 2);
  EXPECT_TRUE(vcd.has("r0.out_d0p.credit2"));
  EXPECT_FALSE(vcd.has("r1.in_inj.valid"));  // not in the list
  EXPECT_EQ(vcd.at("r0.out_d0p.credit2", 0), 5u);
}

TEST(Waves, NothingRecordedOutsideTheWindow) {
  const std::string dir = fresh_dir("window");
  const std::string y =
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 0, src: 0, dst: 1, flits: 1}\n"
      "    - {time: 50, src: 0, dst: 1, flits: 1}\n"
      "    - {time: 100, src: 0, dst: 1, flits: 1}\n"
      "waves: {enable: true, file: " +
      dir + "/w.vcd, routers: [1], from_cycle: 40, to_cycle: 60}\n";
  ASSERT_TRUE(test::run(y).stable);
  test::Vcd vcd(dir + "/w.vcd");
  ASSERT_TRUE(vcd.ok);
  EXPECT_EQ(vcd.high_cycles("r1.in_d0m.valid", 200), std::vector<std::uint64_t>{51});
}

TEST(Waves, OffWritesNoFile) {
  const std::string dir = fresh_dir("off");
  const std::string y =
      "topology: {type: torus, dims: [3, 3]}\n"
      "traffic: {type: trace, messages: [{time: 0, src: 0, dst: 4}]}\n"
      "waves: {enable: false, file: " +
      dir + "/x.vcd}\n";
  ASSERT_TRUE(test::run(y).stable);
  EXPECT_FALSE(std::filesystem::exists(dir));
}
