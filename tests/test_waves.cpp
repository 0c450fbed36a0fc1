// VCD waveforms: a one-message run is found at each router of its path at the cycles the
// zero-load model predicts, with its id, source and destination on the inputs and outputs it
// crosses; packet ids are unique over a run that reuses pool slots; the GTKWave save file names
// only signals the VCD has, opens on the recorded window with collapsed groups and hexadecimal
// masks; time is in cycles; the window and the router list are obeyed; waves off writes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
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
    << "waves: {enable: true, file: run.vcd}\n";
  const Config cfg = test::cfg(y.str());
  const Results r = test::run(y.str(), true, dir);
  ASSERT_TRUE(r.stable);
  ASSERT_EQ(r.packets.size(), 1u);
  const Topology topo = cfg.topology.make();
  const int h = topo.distance(src, dst);
  ASSERT_EQ(h, 3);
  EXPECT_EQ(static_cast<long long>(r.packets[0].delivered - t0),
            zero_load_latency(cfg, h, c.flits));

  test::Vcd vcd(dir + "/run.vcd");
  ASSERT_TRUE(vcd.ok);
  EXPECT_EQ(vcd.timescale, "1 ns");  // one time unit per cycle (clock_ns 1)
  const RoutingUnit ru(topo, cfg.routing.tie_break, cfg.router.vcs);
  const std::uint64_t id = vcd.at("r" + std::to_string(src) + ".in_inj.pkt", t0 + c.alpha);
  EXPECT_EQ(id, 1u);  // the run's first packet
  // A flit shows on a link for tau cycles; a packet-level router's packet for flits * tau.
  const Cycle busy = static_cast<Cycle>(c.flits * c.tau);
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
    EXPECT_EQ(vcd.at(s + "pkt", head), id) << s;
    EXPECT_EQ(vcd.at(s + "src", head), static_cast<std::uint64_t>(src)) << s;
    EXPECT_EQ(vcd.at(s + "dst", head), static_cast<std::uint64_t>(dst)) << s;
    EXPECT_EQ(vcd.at(s + "pkt", head + busy - 1), id) << s;
    EXPECT_EQ(vcd.at(s + "pkt", head - 1), test::Vcd::kZ) << s;  // no packet before it
    EXPECT_EQ(vcd.at(s + "pkt", head + busy), test::Vcd::kZ) << s;
    if (k < h) {
      // The output shows the packet from the cycle its head crosses (delta later) for as long
      // as its flits are on the link, and the router's summary marks that output busy.
      const int out = ru.out_port(node, dst);
      const std::string r = "r" + std::to_string(node) + ".";
      const std::string o = r + "out_" + port_label(topo, out) + ".";
      const Cycle cross = head + c.delta;
      EXPECT_EQ(vcd.at(o + "pkt", cross - 1), test::Vcd::kZ) << o;
      for (Cycle x = cross; x < cross + busy; ++x) {
        EXPECT_EQ(vcd.at(o + "pkt", x), id) << o << " cycle " << x;
        EXPECT_EQ(vcd.at(r + "out_busy", x), 1u << out) << o << " cycle " << x;
      }
      EXPECT_EQ(vcd.at(o + "src", cross), static_cast<std::uint64_t>(src)) << o;
      EXPECT_EQ(vcd.at(o + "dst", cross), static_cast<std::uint64_t>(dst)) << o;
      EXPECT_EQ(vcd.at(o + "pkt", cross + busy), test::Vcd::kZ) << o;
      EXPECT_EQ(vcd.at(r + "out_busy", cross + busy), 0u) << o;
    }
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

// Many packets through a 4x4 mesh, every router traced: far more packets than are ever alive at
// once, so pool slots are reused, yet each packet has its own id, 1..N in creation order; each
// shows its trace message's source and destination at every input it reaches, reaches its
// destination's router, and every output shows exactly what the input at the link's other end
// shows, cycle for cycle.
TEST(Waves, PacketIdsUniqueOverARunThatReusesPoolSlots) {
  const std::string dir = fresh_dir("ids");
  const int N = 16, M = 600;
  std::ostringstream y;
  y << "topology: {type: mesh, dims: [4, 4]}\nrouter: {vcs: 2, vc_depth: 4}\n"
    << "timing: {alpha: 1, delta: 1, tau: 2}\ntraffic:\n  type: trace\n  messages:\n";
  std::multiset<std::pair<int, int>> pairs;
  for (int i = 0; i < M; ++i) {
    const int s = (i * 5) % N, d = (s + 1 + (i * 7) % (N - 1)) % N;
    pairs.insert({s, d});
    y << "    - {time: " << i * 2 << ", src: " << s << ", dst: " << d << ", flits: 3}\n";
  }
  y << "waves: {enable: true, file: ids.vcd}\n";
  const Config cfg = test::cfg(y.str());
  const Results r = test::run(y.str(), true, dir);
  ASSERT_TRUE(r.stable);
  ASSERT_EQ(r.packets.size(), static_cast<std::size_t>(M));
  // The most packets alive at once bounds the pool's slots.
  std::vector<std::pair<Cycle, int>> ev;
  for (const auto& p : r.packets) {
    ev.push_back({p.created, 1});
    ev.push_back({p.delivered + 1, -1});
  }
  std::sort(ev.begin(), ev.end());
  int live = 0, peak = 0;
  for (const auto& e : ev) peak = std::max(peak, live += e.second);
  EXPECT_LT(peak * 4, M) << "pool slots must be reused for this test to mean anything";

  test::Vcd vcd(dir + "/ids.vcd");
  ASSERT_TRUE(vcd.ok);
  const Topology topo = cfg.topology.make();
  const int P = topo.num_ports();
  std::map<std::uint64_t, std::pair<int, int>> seen;  // id -> (src, dst) at injection
  std::map<std::uint64_t, std::set<int>> heads_at;    // id -> routers its head reached
  // Injection ports first (every packet enters the network at one), then the network inputs.
  for (int pass = 0; pass < 2; ++pass)
    for (int n = 0; n < N; ++n)
      for (int p = pass ? 0 : P; p < (pass ? P : P + 1); ++p) {
        const std::string s = "r" + std::to_string(n) + ".in_" + port_label(topo, p) + ".";
        ASSERT_TRUE(vcd.has(s + "head")) << s;  // (a port at a mesh edge reads idle)
        for (const auto& ch : vcd.signals.at(s + "head")) {
          if (ch.value != 1) continue;
          const std::uint64_t id = vcd.at(s + "pkt", ch.time);
          const int src = static_cast<int>(vcd.at(s + "src", ch.time));
          const int dst = static_cast<int>(vcd.at(s + "dst", ch.time));
          heads_at[id].insert(n);
          if (p == P) {
            EXPECT_EQ(src, n) << s;
            EXPECT_TRUE(seen.insert({id, {src, dst}}).second) << "id " << id << " injected twice";
          } else {
            ASSERT_TRUE(seen.count(id)) << s << " id " << id << " never injected";
            EXPECT_EQ(seen[id], std::make_pair(src, dst)) << s << " id " << id;
          }
        }
      }
  // Each output shows what the input at the other end of its link shows, change for change.
  std::uint64_t out_changes = 0;
  for (int n = 0; n < N; ++n)
    for (int p = 0; p < P; ++p) {
      const int m = topo.neighbor(n, p);
      if (m < 0) continue;
      const std::string o = "r" + std::to_string(n) + ".out_" + port_label(topo, p) + ".";
      const std::string i =
          "r" + std::to_string(m) + ".in_" + port_label(topo, topo.in_port(n, p)) + ".";
      for (const char* f : {"pkt", "src", "dst"}) {
        ASSERT_TRUE(vcd.has(o + f) && vcd.has(i + f)) << o << f;
        const auto &a = vcd.signals.at(o + f), &b = vcd.signals.at(i + f);
        ASSERT_EQ(a.size(), b.size()) << o << f;
        for (std::size_t k = 0; k < a.size(); ++k) {
          EXPECT_EQ(a[k].time, b[k].time) << o << f << " change " << k;
          EXPECT_EQ(a[k].value, b[k].value) << o << f << " change " << k;
        }
      }
      out_changes += vcd.signals.at(o + "pkt").size();
    }
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(M));
  EXPECT_EQ(seen.begin()->first, 1u);
  EXPECT_EQ(seen.rbegin()->first, static_cast<std::uint64_t>(M));  // so: exactly 1..M
  std::multiset<std::pair<int, int>> got;
  for (const auto& [id, sd] : seen) {
    got.insert(sd);
    EXPECT_TRUE(heads_at[id].count(sd.second))
        << "id " << id << " never reached router " << sd.second;
  }
  EXPECT_EQ(got, pairs);
  EXPECT_GT(out_changes, static_cast<std::uint64_t>(M));
  // The summary's buffered count is the input VCs' occupancy.
  for (int n : {0, 5, 10}) {
    const std::string rn = "r" + std::to_string(n) + ".";
    for (Cycle t = 0; t < 250; t += 7) {
      std::uint64_t sum = 0;
      for (int p = 0; p <= P; ++p)
        for (int v = 0; v < 2; ++v) {
          const std::string s = rn + "in_" + port_label(topo, p) + ".occ" + std::to_string(v);
          if (vcd.has(s)) sum += vcd.at(s, t);
        }
      EXPECT_EQ(vcd.at(rn + "buffered", t), sum) << rn << " cycle " << t;
    }
  }
}

// A circuit holds its output from the cycle its header takes it until the circuit is released;
// the output shows the packet that long.
TEST(Waves, CircuitOutputShowsItsPacketWhileTheCircuitHolds) {
  const std::string dir = fresh_dir("circuit");
  const std::string y =
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {buffering: circuit, switching: direct_connect}\n"
      "timing: {alpha: 1, delta: 2, tau: 1}\n"
      "traffic: {type: trace, messages: [{time: 3, src: 0, dst: 2, flits: 6}]}\n"
      "waves: {enable: true, file: c.vcd}\n";
  const Results r = test::run(y, false, dir);
  ASSERT_TRUE(r.stable);
  test::Vcd vcd(dir + "/c.vcd");
  ASSERT_TRUE(vcd.ok);
  // 0 -> 1 -> 2 on d0p: the header crosses r0 and r1, each holds its output until the data is in.
  for (const char* o : {"r0.out_d0p.", "r1.out_d0p."}) {
    const auto& xb = vcd.signals.at(std::string(o) + "xbar");
    std::vector<Cycle> held;
    for (Cycle t = 0; t < 60; ++t)
      if (vcd.at(std::string(o) + "xbar", t) != 0) held.push_back(t);
    ASSERT_FALSE(held.empty()) << o << xb.size();
    for (Cycle t = 0; t < 60; ++t) {
      const bool on = t >= held.front() && t <= held.back();
      EXPECT_EQ(vcd.at(std::string(o) + "pkt", t), on ? 1u : test::Vcd::kZ) << o << t;
    }
    EXPECT_GE(held.size(), 6u) << o;  // at least the message's 6 flits
  }
}

TEST(Waves, GtkwNamesOnlySignalsOfTheVcdOpensCollapsedOnTheWindowInHex) {
  const std::string dir = fresh_dir("gtkw");
  const std::string y =
      "topology: {type: mesh, dims: [3, 2]}\nrouter: {vcs: 3, vc_depth: 5}\n"
      "traffic:\n  type: trace\n  messages:\n    - {time: 0, src: 0, dst: 5, flits: 2}\n"
      "    - {time: 30, src: 4, dst: 0, flits: 2}\n"
      "waves: {enable: true, file: m.vcd, routers: [0, 4], from_cycle: 2, to_cycle: 33}\n";
  const Results r = test::run(y, false, dir);
  ASSERT_TRUE(r.stable);
  test::Vcd vcd(dir + "/m.vcd");
  ASSERT_TRUE(vcd.ok);
  std::ifstream g(dir + "/m.gtkw");
  ASSERT_TRUE(g.good());
  int names = 0, open_groups = 0, closed_groups = 0, ends = 0, depth = 0;
  double zoom = 0, width = 0, names_px = 0;
  long long start = -1, marker = -1;
  std::string flags, legend;
  std::vector<std::string> expanded;  // the expanded groups, in order, and what they hold
  bool closed_seen = false;
  const std::vector<std::string> masks = {"vc_req", "vc_gnt",   "sw_req", "sw_gnt",
                                          "xbar",   "out_busy", "in_busy"};
  for (std::string line; std::getline(g, line);) {
    if (line.rfind("[timestart] ", 0) == 0) start = std::stoll(line.substr(12));
    if (line.rfind("[size] ", 0) == 0) width = std::stod(line.substr(7));
    if (line.rfind("[signals_width] ", 0) == 0) names_px = std::stod(line.substr(16));
    if (line[0] == '*') {
      std::istringstream z(line.substr(1));
      z >> zoom >> marker;
    }
    if (line[0] == '@') flags = line;
    if (line[0] == '-') {
      if (flags == "@200") {  // a comment row: the legend
        legend += line.substr(1) + "\n";
      } else if (flags == "@800200") {
        ++open_groups;
        EXPECT_FALSE(closed_seen) << "the summaries come first: " << line;
        expanded.push_back(line.substr(1));
        ++depth;
      } else if (flags == "@c00200") {
        ++closed_groups;
        closed_seen = true;
        ++depth;
      } else if (flags == "@1000200" || flags == "@1401200") {
        ++ends;
        --depth;
      } else {
        ADD_FAILURE() << "unknown group flags " << flags;
      }
    }
    if (line.rfind("switchyard.", 0) == 0) {
      std::string n = line.substr(11);
      n = n.substr(0, n.find('['));
      EXPECT_TRUE(vcd.has(n)) << n;
      ++names;
      EXPECT_GT(depth, 0) << n << " outside any group";
      const std::string leaf = n.substr(n.rfind('.') + 1);
      if (std::find(masks.begin(), masks.end(), leaf) != masks.end()) {
        EXPECT_EQ(flags, "@22") << n << " (masks in hexadecimal)";
      } else if (leaf == "pkt" || leaf == "buffered" || leaf.rfind("occ", 0) == 0) {
        EXPECT_EQ(flags, "@24") << n;
      }
      if (!closed_seen) {  // inside a summary group: one bit per port, the NI's queue
        EXPECT_TRUE(leaf.rfind("busy_", 0) == 0 || leaf == "buffered" || leaf == "queued" ||
                    leaf == "queued_flits" || leaf == "head_pkt" || leaf == "rx_pkt")
            << n;
        if (leaf.rfind("busy_", 0) == 0) {
          EXPECT_EQ(flags, "@28") << n;
        }
      }
    }
  }
  EXPECT_EQ(names, static_cast<int>(vcd.signals.size()));
  EXPECT_NE(legend.find("1 ns = 1 cycle"), std::string::npos) << legend;
  EXPECT_NE(legend.find("bits 0..3: d0p d0m d1 inj"), std::string::npos) << legend;
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(ends, open_groups + closed_groups);
  EXPECT_EQ(expanded, (std::vector<std::string>{"ni0", "r0", "ni4", "r4"}));
  // Per traced router: its ports group and one group per port (d0p, d0m, d1 and inj in, the
  // three network ports out; a size-2 dimension has one link, d1).
  EXPECT_EQ(closed_groups, 2 * (1 + 4 + 3));
  // The view opens two cycles before the first flit recorded (the window [2, 33] is shorter
  // than the default view's 100 cycles: to its end), 2^-zoom units per 200 pixels over the wave
  // pane, so those cycles fill it; the VCD lasts that long (or GTKWave starts at 0).
  std::uint64_t first = ~std::uint64_t{0};
  for (const auto& [name, changes] : vcd.signals)
    if (name.size() > 6 && name.compare(name.size() - 6, 6, ".valid") == 0)
      for (const auto& ch : changes)
        if (ch.value == 1) first = std::min(first, ch.time);
  ASSERT_GE(first, 2u);
  const long long t0 = std::max<long long>(2, static_cast<long long>(first) - 2);
  EXPECT_EQ(start, t0);
  EXPECT_EQ(marker, static_cast<long long>(first));  // the primary marker on that flit
  ASSERT_GT(width, names_px);
  const double shown = std::pow(2.0, -zoom) / 200.0 * (width - names_px - 60);
  const double want = static_cast<double>(33 - t0 + 1);
  EXPECT_GE(shown, want * 1.05);  // with room for GTKWave's rounding
  EXPECT_LE(shown, want * 1.15);
  EXPECT_GE(vcd.end, static_cast<std::uint64_t>(t0) + static_cast<std::uint64_t>(shown));
  EXPECT_TRUE(vcd.has("r0.out_d0p.credit2"));
  EXPECT_FALSE(vcd.has("r1.in_inj.valid"));  // not in the list
  EXPECT_TRUE(vcd.has("ni4.queued"));
  EXPECT_FALSE(vcd.has("ni1.queued"));
  EXPECT_EQ(vcd.at("r0.out_d0p.credit2", 2), 5u);
}

// The VCD counts cycles whatever the clock period: a 2.5 ns clock still has one time unit per
// cycle.
TEST(Waves, TimeIsInCyclesWhateverTheClock) {
  const std::string dir = fresh_dir("clock");
  const std::string y =
      "topology: {type: torus, dims: [4, 4]}\nnetwork_interface: {clock_ns: 2.5}\n"
      "timing: {alpha: 2, delta: 1, tau: 1}\n"
      "traffic: {type: trace, messages: [{time: 10, src: 0, dst: 1, flits: 1}]}\n"
      "waves: {enable: true, file: k.vcd}\n";
  ASSERT_TRUE(test::run(y, false, dir).stable);
  test::Vcd vcd(dir + "/k.vcd");
  ASSERT_TRUE(vcd.ok);
  EXPECT_EQ(vcd.timescale, "1 ns");
  EXPECT_EQ(vcd.high_cycles("r0.in_inj.valid", 100), std::vector<std::uint64_t>{12});
  EXPECT_EQ(vcd.high_cycles("r1.in_d0m.valid", 100), std::vector<std::uint64_t>{13});
}

// Under concentration each terminal's injection port has its own name (inj_t<t>, _c<k> with
// several channels), and an indirect network's routers are named from their coordinates.
TEST(Waves, ConcentratedTerminalsInjectOnTheirOwnNamedPorts) {
  const sy::Topology cm = sy::Topology::cmesh({2, 2}, 2);
  const int P = cm.num_ports();
  EXPECT_EQ(sy::port_label(cm, P), "inj_t0");
  EXPECT_EQ(sy::port_label(cm, P + 1), "inj_t1");
  EXPECT_EQ(sy::port_label(cm, P + 3, 2), "inj_t1_c1");
  EXPECT_EQ(sy::router_label(cm, 1), "r1_0");
  const sy::Topology torus(sy::Topology::Kind::Torus, {4, 4});
  EXPECT_EQ(sy::port_label(torus, torus.num_ports()), "inj");
  EXPECT_EQ(sy::port_label(torus, torus.num_ports() + 1, 2), "inj1");
  const std::string dir = fresh_dir("conc");
  // Terminal 3 is router 1's second terminal; it sends one flit to terminal 0 (router 0).
  const std::string y =
      "topology: {type: cmesh, dims: [2, 2], concentration: 2}\n"
      "timing: {alpha: 2, delta: 1, tau: 1}\n"
      "traffic: {type: trace, messages: [{time: 10, src: 3, dst: 0, flits: 1}]}\n"
      "waves: {enable: true, file: c.vcd}\n";
  ASSERT_TRUE(test::run(y, false, dir).stable);
  test::Vcd vcd(dir + "/c.vcd");
  ASSERT_TRUE(vcd.ok);
  EXPECT_EQ(vcd.high_cycles("r1_0.in_inj_t1.valid", 100), std::vector<std::uint64_t>{12});
  EXPECT_TRUE(vcd.high_cycles("r1_0.in_inj_t0.valid", 100).empty());
}

TEST(Waves, NothingRecordedOutsideTheWindow) {
  const std::string dir = fresh_dir("window");
  const std::string y =
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 0, src: 0, dst: 1, flits: 1}\n"
      "    - {time: 50, src: 0, dst: 1, flits: 1}\n"
      "    - {time: 100, src: 0, dst: 1, flits: 1}\n"
      "waves: {enable: true, file: w.vcd, routers: [1], from_cycle: 40, to_cycle: 60}\n";
  ASSERT_TRUE(test::run(y, false, dir).stable);
  test::Vcd vcd(dir + "/w.vcd");
  ASSERT_TRUE(vcd.ok);
  EXPECT_EQ(vcd.high_cycles("r1.in_d0m.valid", 200), std::vector<std::uint64_t>{51});
}

TEST(Waves, OffWritesNoFile) {
  const std::string dir = fresh_dir("off");
  const std::string y =
      "topology: {type: torus, dims: [3, 3]}\n"
      "traffic: {type: trace, messages: [{time: 0, src: 0, dst: 4}]}\n"
      "waves: {enable: false, file: x.vcd}\n";
  ASSERT_TRUE(test::run(y, false, dir).stable);
  EXPECT_FALSE(std::filesystem::exists(dir));
}

// Each router's one-bit busy signals agree with its busy masks (bit p = port p) at every cycle
// of a loaded run.
TEST(Waves, BusyBitsPerPortAgreeWithTheMasks) {
  const std::string dir = fresh_dir("busy");
  std::ostringstream y;
  y << "topology: {type: torus, dims: [3, 3]}\nrouter: {vcs: 2, vc_depth: 4}\n"
    << "traffic:\n  type: trace\n  messages:\n";
  for (int i = 0; i < 60; ++i)
    y << "    - {time: " << i << ", src: " << (i * 4) % 9 << ", dst: " << (i * 4 + 1 + i % 7) % 9
      << ", flits: 3}\n";
  y << "waves: {enable: true, file: b.vcd}\n";
  const Config cfg = test::cfg(y.str());
  ASSERT_TRUE(test::run(y.str(), false, dir).stable);
  test::Vcd vcd(dir + "/b.vcd");
  ASSERT_TRUE(vcd.ok);
  const Topology topo = cfg.topology.make();
  const int P = topo.num_ports(), I = P + 1;
  std::uint64_t ones = 0;
  for (int n = 0; n < 9; ++n) {
    const std::string rn = "r" + std::to_string(n) + ".";
    for (std::uint64_t t = 0; t <= vcd.end; ++t) {
      const std::uint64_t out = vcd.at(rn + "out_busy", t), in = vcd.at(rn + "in_busy", t);
      for (int p = 0; p < I; ++p) {
        const std::string l = port_label(topo, p);
        if (p < P) {
          ASSERT_TRUE(vcd.has(rn + "busy_out_" + l)) << rn << l;
          EXPECT_EQ(vcd.at(rn + "busy_out_" + l, t), (out >> p) & 1) << rn << l << " at " << t;
          ones += (out >> p) & 1;
        }
        ASSERT_TRUE(vcd.has(rn + "busy_in_" + l)) << rn << l;
        EXPECT_EQ(vcd.at(rn + "busy_in_" + l, t), (in >> p) & 1) << rn << l << " at " << t;
      }
    }
  }
  EXPECT_GT(ones, 100u);  // (the run keeps the links busy)
}

// A 2x2 mesh, node 0 asked for three 4-flit messages at cycle 5: its injection queue holds 3
// packets (12 flits) with packet 1 at its head at the end of cycle 5, loses a flit each cycle
// it injects one, moves on to packet 2 and 3 as their predecessors' tails go, and is empty
// (head z) after the last tail; each destination NI shows its packet in rx_pkt in the cycle it
// is delivered.
TEST(Waves, NiInjectionQueueAndDeliveries) {
  const std::string dir = fresh_dir("ni");
  const std::string y =
      "topology: {type: mesh, dims: [2, 2]}\nrouter: {vcs: 2, vc_depth: 4}\n"
      "timing: {alpha: 1, delta: 1, tau: 1}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 5, src: 0, dst: 1, flits: 4}\n"
      "    - {time: 5, src: 0, dst: 2, flits: 4}\n"
      "    - {time: 5, src: 0, dst: 3, flits: 4}\n"
      "waves: {enable: true, file: n.vcd}\n";
  const Results r = test::run(y, true, dir);
  ASSERT_TRUE(r.stable);
  ASSERT_EQ(r.packets.size(), 3u);
  test::Vcd vcd(dir + "/n.vcd");
  ASSERT_TRUE(vcd.ok);
  ASSERT_TRUE(vcd.has("ni0.queued") && vcd.has("ni0.queued_flits") && vcd.has("ni0.head_pkt"));
  // Before the request: empty.
  EXPECT_EQ(vcd.at("ni0.queued", 4), 0u);
  EXPECT_EQ(vcd.at("ni0.head_pkt", 4), test::Vcd::kZ);
  // The end of cycle 5: all three wait (alpha = 1: nothing is sent yet), packet 1 first.
  EXPECT_EQ(vcd.at("ni0.queued", 5), 3u);
  EXPECT_EQ(vcd.at("ni0.queued_flits", 5), 12u);
  EXPECT_EQ(vcd.at("ni0.head_pkt", 5), 1u);
  // Then, cycle by cycle, what the injection port of r0 received so far.
  const auto sent = vcd.high_cycles("r0.in_inj.valid", vcd.end);
  ASSERT_EQ(sent.size(), 12u);
  EXPECT_EQ(sent.front(), 6u);  // the first flit alpha after the request
  for (std::uint64_t t = 5; t <= sent.back() + 2; ++t) {
    const auto n = static_cast<std::uint64_t>(std::upper_bound(sent.begin(), sent.end(), t) -
                                              sent.begin());  // flits sent by t
    EXPECT_EQ(vcd.at("ni0.queued_flits", t), 12 - n) << t;
    EXPECT_EQ(vcd.at("ni0.queued", t), 3 - n / 4) << t;
    EXPECT_EQ(vcd.at("ni0.head_pkt", t), n == 12 ? test::Vcd::kZ : 1 + n / 4) << t;
  }
  // Deliveries: packet k to node k, at its delivery cycle only.
  for (const auto& p : r.packets) {
    const std::string rx = "ni" + std::to_string(p.dst) + ".rx_pkt";
    ASSERT_TRUE(vcd.has(rx)) << rx;
    EXPECT_EQ(vcd.at(rx, p.delivered), static_cast<std::uint64_t>(p.dst)) << rx;
    EXPECT_EQ(vcd.at(rx, p.delivered - 1), test::Vcd::kZ) << rx;
    EXPECT_EQ(vcd.at(rx, p.delivered + 1), test::Vcd::kZ) << rx;
  }
}

// waves.packet: the followed packet's marker is on at its source NI from its request, then at
// each router of its dimension-order path in path order, then at its destination NI until its
// delivery, with no cycle in between where it is nowhere, and nowhere before or after; the
// .gtkw opens on its lifetime with markers A and B at its injection and delivery.
struct FollowCase {
  std::string name, buffering;
};
std::ostream& operator<<(std::ostream& o, const FollowCase& c) {
  return o << c.name;
}
class WaveFollow : public ::testing::TestWithParam<FollowCase> {};

TEST_P(WaveFollow, PacketMarkedFromSourceNiToDestinationNi) {
  const FollowCase& c = GetParam();
  const std::string dir = fresh_dir("follow-" + c.name);
  const int N = 16, M = 40, F = 17;  // follow the 17th packet, amid others
  std::ostringstream y;
  y << "topology: {type: mesh, dims: [4, 4]}\nrouter: {buffering: " << c.buffering
    << ", vcs: 2, vc_depth: 4}\ntiming: {alpha: 2, delta: 1, tau: 1}\n"
    << "traffic:\n  type: trace\n  messages:\n";
  int fsrc = 0, fdst = 0;
  Cycle fcreated = 0;
  for (int i = 0; i < M; ++i) {
    const int s = (i * 5) % N, d = (s + 3 + (i * 7) % (N - 3)) % N;
    if (i + 1 == F) {
      fsrc = s;
      fdst = d;
      fcreated = static_cast<Cycle>(10 + 3 * i);
    }
    y << "    - {time: " << 10 + 3 * i << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
  }
  y << "waves: {enable: true, file: f.vcd, packet: " << F << "}\n";
  const Config cfg = test::cfg(y.str());
  const Results r = test::run(y.str(), true, dir);
  ASSERT_TRUE(r.stable);
  const Stats::Record* rec = nullptr;
  for (const auto& p : r.packets)
    if (p.src == fsrc && p.dst == fdst && p.created == fcreated) rec = &p;
  ASSERT_NE(rec, nullptr);
  test::Vcd vcd(dir + "/f.vcd");
  ASSERT_TRUE(vcd.ok);
  EXPECT_EQ(vcd.at("follow.pkt", 0), static_cast<std::uint64_t>(F));
  const std::string s_ni = "ni" + std::to_string(fsrc) + ".follow";
  const std::string d_ni = "ni" + std::to_string(fdst) + ".follow";
  ASSERT_TRUE(vcd.has(s_ni) && vcd.has(d_ni));
  // At the source NI from the request; at the destination NI through the delivery cycle.
  EXPECT_EQ(vcd.at(s_ni, rec->created - 1), 0u);
  EXPECT_EQ(vcd.at(s_ni, rec->created), 1u);
  EXPECT_EQ(vcd.at(d_ni, rec->delivered), 1u);
  EXPECT_EQ(vcd.at(d_ni, rec->delivered + 1), 0u);
  // The routers of its path, in order, and no other.
  const Topology topo = cfg.topology.make();
  const RoutingUnit ru(topo, cfg.routing.tie_break, cfg.router.vcs);
  std::vector<int> path{fsrc};
  while (path.back() != fdst)
    path.push_back(topo.neighbor(path.back(), ru.out_port(path.back(), fdst)));
  std::vector<std::string> marks{s_ni};
  for (int n : path) marks.push_back("r" + std::to_string(n) + ".follow");
  marks.push_back(d_ni);
  std::uint64_t prev_first = 0;
  for (const std::string& m : marks) {
    const auto on = vcd.high_cycles(m, vcd.end);
    ASSERT_FALSE(on.empty()) << m;
    EXPECT_GE(on.front(), prev_first) << m << " before the one before it";
    prev_first = on.front();
    // One stretch: on from its first to its last cycle.
    EXPECT_EQ(on.back() - on.front() + 1, on.size()) << m;
  }
  for (int n = 0; n < N; ++n)
    if (std::find(path.begin(), path.end(), n) == path.end()) {
      EXPECT_TRUE(vcd.high_cycles("r" + std::to_string(n) + ".follow", vcd.end).empty()) << n;
      if (n != fsrc && n != fdst) {
        EXPECT_TRUE(vcd.high_cycles("ni" + std::to_string(n) + ".follow", vcd.end).empty()) << n;
      }
    }
  // Continuous hop to hop: somewhere every cycle of its life, nowhere outside it; consecutive
  // markers overlap or touch.
  for (std::uint64_t t = 0; t <= vcd.end; ++t) {
    bool any = false;
    for (const std::string& m : marks) any |= vcd.at(m, t) == 1;
    EXPECT_EQ(any, t >= rec->created && t <= rec->delivered) << "cycle " << t;
  }
  for (std::size_t k = 0; k + 1 < marks.size(); ++k)
    EXPECT_LE(vcd.high_cycles(marks[k + 1], vcd.end).front(),
              vcd.high_cycles(marks[k], vcd.end).back() + 1)
        << marks[k] << " to " << marks[k + 1];
  // follow.stage: 1 at the source NI, 2 in the network, 3 arriving, 4 delivered, in that order.
  EXPECT_EQ(vcd.at("follow.stage", rec->created - 1), 0u);
  EXPECT_EQ(vcd.at("follow.stage", rec->created), 1u);
  EXPECT_EQ(vcd.at("follow.stage", rec->injected), 2u);
  EXPECT_EQ(vcd.at("follow.stage", rec->delivered), 3u);
  EXPECT_EQ(vcd.at("follow.stage", rec->delivered + 1), 4u);
  std::uint64_t st = 0;
  for (const auto& ch : vcd.signals.at("follow.stage")) {
    EXPECT_GE(ch.value, st) << ch.time;
    st = ch.value;
  }
  // The .gtkw: opens two cycles before the request, spans to two after the delivery, primary
  // marker and A at the injection, B at the delivery; the follow group lists the markers in
  // the order the packet reached them.
  std::ifstream g(dir + "/f.gtkw");
  ASSERT_TRUE(g.good());
  long long start = -1;
  double zoom = 0;
  std::vector<long long> mk;
  std::vector<std::string> follow_rows;
  int names_px = 0;
  for (std::string line; std::getline(g, line);) {
    if (line.rfind("[timestart] ", 0) == 0) start = std::stoll(line.substr(12));
    if (line[0] == '*') {
      std::istringstream z(line.substr(1));
      z >> zoom;
      for (long long v; z >> v;) mk.push_back(v);
    }
    if (line.rfind("[signals_width] ", 0) == 0) names_px = std::stoi(line.substr(16));
    // (The follow group's rows carry an alias that names their NI or router: "+{r3_follow}
    // switchyard.r3.follow"; each NI's and router's own group has the plain name.)
    const std::size_t at = line.find("switchyard.");
    if (line.size() > 7 && line.compare(line.size() - 7, 7, ".follow") == 0 &&
        at != std::string::npos) {
      const std::string name = line.substr(at + 11, line.size() - at - 18);
      if (at > 0) {
        EXPECT_EQ(line.substr(0, at), "+{" + name + "_follow} ") << line;
      }
      follow_rows.push_back(name);
    }
  }
  EXPECT_EQ(start, static_cast<long long>(rec->created - 2));
  ASSERT_EQ(mk.size(), 27u);
  EXPECT_EQ(mk[0], static_cast<long long>(rec->injected));
  EXPECT_EQ(mk[1], static_cast<long long>(rec->injected));
  EXPECT_EQ(mk[2], static_cast<long long>(rec->delivered));
  // (The wave pane: the window less the names pane, which the legend's longest line sets.)
  EXPECT_GE(names_px, 300);
  const double shown = std::pow(2.0, -zoom) / 200.0 * (1400 - names_px - 60);
  const double want = static_cast<double>(rec->delivered + 2 - (rec->created - 2) + 1);
  EXPECT_GE(shown, want * 1.05);
  EXPECT_LE(shown, want * 1.15);
  std::vector<std::string> expect_rows{"ni" + std::to_string(fsrc)};
  for (int n : path) expect_rows.push_back("r" + std::to_string(n));
  expect_rows.push_back("ni" + std::to_string(fdst));
  // (the group's rows, then each NI's and router's own group repeats its follow bit)
  ASSERT_GE(follow_rows.size(), expect_rows.size());
  EXPECT_EQ(std::vector<std::string>(follow_rows.begin(), follow_rows.begin() + expect_rows.size()),
            expect_rows);
}

INSTANTIATE_TEST_SUITE_P(Waves, WaveFollow,
                         ::testing::Values(FollowCase{"wormhole", "input_vc"},
                                           FollowCase{"output_queued", "output_queued"}),
                         [](const ::testing::TestParamInfo<FollowCase>& i) {
                           return i.param.name;
                         });

// Without waves.packet the .gtkw opens on the first kViewCycles cycles from the first flit in
// the recorded window (two cycles before it), not on the whole window.
TEST(Waves, DefaultViewOpensOnTheFirstCyclesWithTraffic) {
  const std::string dir = fresh_dir("view");
  std::ostringstream y;
  y << "topology: {type: torus, dims: [4, 4]}\ntraffic:\n  type: trace\n  messages:\n";
  for (int i = 0; i < 30; ++i)
    y << "    - {time: " << 300 + 40 * i << ", src: " << i % 16 << ", dst: " << (i + 5) % 16
      << ", flits: 2}\n";
  y << "waves: {enable: true, file: v.vcd, from_cycle: 100}\n";
  ASSERT_TRUE(test::run(y.str(), false, dir).stable);
  test::Vcd vcd(dir + "/v.vcd");
  ASSERT_TRUE(vcd.ok);
  // The first flit anywhere: the first injection.
  std::uint64_t first = ~std::uint64_t{0};
  for (int n = 0; n < 16; ++n) {
    const auto v = vcd.high_cycles("r" + std::to_string(n) + ".in_inj.valid", vcd.end);
    if (!v.empty()) first = std::min(first, v.front());
  }
  ASSERT_GE(first, 300u);
  std::ifstream g(dir + "/v.gtkw");
  long long start = -1, marker = -1;
  double zoom = 0;
  int names_px = 0;
  for (std::string line; std::getline(g, line);) {
    if (line.rfind("[timestart] ", 0) == 0) start = std::stoll(line.substr(12));
    if (line.rfind("[signals_width] ", 0) == 0) names_px = std::stoi(line.substr(16));
    if (line[0] == '*') {
      std::istringstream z(line.substr(1));
      z >> zoom >> marker;
    }
  }
  EXPECT_EQ(start, static_cast<long long>(first - 2));
  EXPECT_EQ(marker, static_cast<long long>(first));
  EXPECT_GE(names_px, 300);
  const double shown = std::pow(2.0, -zoom) / 200.0 * (1400 - names_px - 60);
  EXPECT_GE(shown, 100 * 1.05);
  EXPECT_LE(shown, 100 * 1.15);
  EXPECT_GT(vcd.end, first + 1000);  // the recording itself is much longer
}
