// AnyNet: a network read from a BookSim2 anynet file. The file's routers, terminals, ports and
// latencies; shortest-path tables (checked against a BFS of the test's own); the deadlock modes
// (VC layers, up*/down*, none) and the load-time channel dependency check; every bad file an
// error naming the config key and the file's line; zero-load cycle counts on the built network.
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "switchyard/topology/anynet.hpp"

using namespace sy;

namespace {

using D = AnyNet::Deadlock;

std::string ring_text(int n, int per_router) {
  std::ostringstream s;
  s << "# a ring\n";
  for (int r = 0; r < n; ++r) {
    s << "router " << r;
    for (int t = 0; t < per_router; ++t) s << " node " << r * per_router + t;
    s << " router " << (r + 1) % n << "  # to the next\n";
  }
  return s.str();
}

// 12 routers with cycles of several lengths; router 11 has no terminals (configs/anynet).
const char* kIrregular =
    "router 0 node 0 node 1 router 1 router 2 router 5\n"
    "router 1 node 2 node 3 router 3 router 11\n"
    "router 2 node 4 node 5 router 3 router 6\n"
    "router 3 node 6 node 7 router 4\n"
    "router 4 node 8 node 9 router 7 router 11\n"
    "router 5 node 10 node 11 router 6 router 8\n"
    "router 6 node 12 node 13 router 9\n"
    "router 7 node 14 node 15 router 10\n"
    "router 8 node 16 node 17 router 9\n"
    "router 9 node 18 node 19 router 10 router 11\n"
    "router 10 node 20 node 21\n"
    "router 11\n";

// Router-to-router hops by a BFS of the test's own.
std::vector<int> bfs(const AnyNet& a, int from) {
  std::vector<int> d(static_cast<std::size_t>(a.num_routers()), -1);
  std::queue<int> q;
  q.push(from);
  d[from] = 0;
  while (!q.empty()) {
    const int r = q.front();
    q.pop();
    for (int p = 0; p < a.num_ports(); ++p) {
      const int n = a.neighbor(r, p);
      if (n >= 0 && d[n] < 0) d[n] = d[r] + 1, q.push(n);
    }
  }
  return d;
}

// Follows route() from terminal s's router to terminal d's; the routers visited.
std::vector<int> path(const AnyNet& a, int s, int d) {
  std::vector<int> v{a.injection_router(s)};
  for (int p; (p = a.route(v.back(), d)) >= 0 && v.size() < 1000;) {
    EXPECT_EQ(a.in_port(a.neighbor(v.back(), p), a.in_port(v.back(), p)), p);
    v.push_back(a.neighbor(v.back(), p));
  }
  EXPECT_EQ(v.back(), a.ejection_router(d));
  return v;
}

std::string file_error(const std::string& text, D dl = D::Layers) {
  try {
    AnyNet a(text, "net.txt", dl);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(AnyNetTopology, ARingsRoutersTerminalsPortsAndShortestRoutes) {
  const AnyNet a(ring_text(8, 2), "ring.net", D::Layers);
  EXPECT_EQ(a.num_routers(), 8);
  EXPECT_EQ(a.num_terminals(), 16);
  EXPECT_EQ(a.num_ports(), 2);
  EXPECT_EQ(a.concentration(), 2);
  // Ports in the order of the neighbours' ids: router 0's p0 is router 1, p1 router 7.
  EXPECT_EQ(a.neighbor(0, 0), 1);
  EXPECT_EQ(a.neighbor(0, 1), 7);
  EXPECT_EQ(a.neighbor(3, 0), 2);
  EXPECT_EQ(a.neighbor(3, 1), 4);
  EXPECT_EQ(a.ejection_terminal(3), 6);
  EXPECT_EQ(a.ejection_count(3), 2);
  EXPECT_EQ(a.injection_index(7), 1);
  EXPECT_FALSE(a.has_link_latencies());
  for (int s = 0; s < 16; ++s)
    for (int d = 0; d < 16; ++d) {
      const int rs = s / 2, rd = d / 2, diff = std::abs(rs - rd);
      const int h = std::min(diff, 8 - diff);
      EXPECT_EQ(static_cast<int>(path(a, s, d).size()) - 1, h) << s << " -> " << d;
      EXPECT_EQ(a.distance(s, d), h);
    }
  EXPECT_EQ(a.diameter(), 4);
  // Ties (4 hops either way) go to the lowest port: router 0 to router 4 through router 1.
  EXPECT_EQ(a.route(0, 8), 0);
  // Mean hops over ordered router pairs of a ring of 8: (0+1+1+2+2+3+3+4) / 8 = 2.
  EXPECT_NEAR(a.average_distance(true), 2.0, 1e-12);
  // A ring needs two layers on shortest paths; up*/down* one class; one class alone has a cycle.
  EXPECT_EQ(a.vc_classes(), 2);
  EXPECT_EQ(a.dependency_cycle(), "");
  EXPECT_EQ(AnyNet(ring_text(8, 2), "ring.net", D::UpDown).vc_classes(), 1);
  const AnyNet none(ring_text(8, 2), "ring.net", D::None);
  EXPECT_EQ(none.vc_classes(), 1);
  EXPECT_EQ(none.cycle().substr(0, 10), "r1.p1/c0 -");
  EXPECT_NE(none.cycle().find("-> r0.p0/c0 -> r1.p1/c0"), std::string::npos) << none.cycle();
  // A short ring's shortest routes make one hop: no dependency, one class is enough.
  EXPECT_EQ(AnyNet(ring_text(3, 1), "r3", D::None).cycle(), "");
}

TEST(AnyNetTopology, IrregularNetworkRoutesAreShortestAndEachModeAcyclic) {
  const AnyNet a(kIrregular, "irr.net", D::Layers);
  EXPECT_EQ(a.num_routers(), 12);
  EXPECT_EQ(a.num_terminals(), 22);
  EXPECT_EQ(a.num_ports(), 4);  // router 0: routers 1, 2, 5 ... router 11: 1, 4, 9; router 9: 4
  EXPECT_EQ(a.ejection_terminal(11), -1);
  EXPECT_EQ(a.ejection_count(11), 0);
  int diameter = 0;
  for (int s = 0; s < 22; ++s) {
    const std::vector<int> d = bfs(a, a.injection_router(s));
    for (int t = 0; t < 22; ++t) {
      const int h = d[a.ejection_router(t)];
      EXPECT_EQ(static_cast<int>(path(a, s, t).size()) - 1, h) << s << " -> " << t;
      EXPECT_EQ(a.distance(s, t), h);
      diameter = std::max(diameter, h);
    }
  }
  EXPECT_EQ(a.diameter(), diameter);
  EXPECT_GE(a.vc_classes(), 2);
  EXPECT_EQ(a.dependency_cycle(), "");
  // Up*/down*: one class, acyclic, no route turns up after a down hop (BFS levels from router 0).
  const AnyNet u(kIrregular, "irr.net", D::UpDown);
  EXPECT_EQ(u.vc_classes(), 1);
  EXPECT_EQ(u.dependency_cycle(), "");
  const std::vector<int> level = bfs(u, 0);
  const auto key = [&](int r) { return level[r] * 100 + r; };
  int longer = 0;
  for (int s = 0; s < 22; ++s)
    for (int t = 0; t < 22; ++t) {
      const std::vector<int> p = path(u, s, t);
      bool down = false;
      for (std::size_t i = 1; i < p.size(); ++i) {
        const bool up = key(p[i]) < key(p[i - 1]);
        EXPECT_FALSE(down && up) << s << " -> " << t << " turns up at router " << p[i - 1];
        down |= !up;
      }
      EXPECT_EQ(u.distance(s, t), static_cast<int>(p.size()) - 1);
      longer += u.distance(s, t) > a.distance(s, t);
    }
  EXPECT_GT(longer, 0);  // up*/down* gives up some shortest paths here
  EXPECT_NE(AnyNet(kIrregular, "irr.net", D::None).cycle(), "");
}

TEST(AnyNetTopology, VcLayersClimbOnADescentAndStayOtherwise) {
  const AnyNet a(ring_text(8, 1), "ring.net", D::Layers);
  // Injection: class 0. Following every route, the class never falls and stays below 2.
  for (int s = 0; s < 8; ++s)
    for (int d = 0; d < 8; ++d) {
      int r = s, in = -1, cls = 0, p;
      while ((p = a.route(r, d)) >= 0) {
        const int c = a.vc_class(r, in, cls, p);
        EXPECT_GE(c, cls);
        EXPECT_LT(c, 2);
        cls = c;
        in = a.in_port(r, p);
        r = a.neighbor(r, p);
      }
    }
}

TEST(AnyNetTopology, LatenciesAndLinkClassesFromTheFile) {
  // BookSim2: `router 0 router 1 5`: 5 cycles 0 -> 1, the reverse 1 unless given.
  const AnyNet a(
      "router 0 node 0 router 1 5 router 2\n"
      "router 1 node 1 router 2 3\n"
      "router 2 node 2 router 1 3 router 0 2\n",
      "lat.net", D::Layers);
  EXPECT_TRUE(a.has_link_latencies());
  EXPECT_EQ(a.link_latency(0, 0), 5);   // 0 -> 1
  EXPECT_EQ(a.link_latency(1, 0), 1);   // 1 -> 0 (implied)
  EXPECT_EQ(a.link_latency(0, 1), 1);   // 0 -> 2
  EXPECT_EQ(a.link_latency(2, 0), 2);   // 2 -> 0
  EXPECT_EQ(a.input_latency(1, 0), 5);  // into router 1 from router 0
  EXPECT_EQ(a.num_link_classes(), 4);   // 1, 2, 3, 5
  EXPECT_EQ(a.link_class_name(a.link_class(0, 0)), "lat5");
  EXPECT_EQ(a.link_class_name(a.link_class(1, 1)), "lat3");
  // Routes count hops (BookSim2 weights them by latency: here the same, one hop each).
  EXPECT_EQ(a.route(0, 1), 0);
}

TEST(AnyNetTopology, EveryBadFileIsAnErrorWithItsLine) {
  const auto has = [](const std::string& e, const std::string& what) {
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  has(file_error("router 0 node 0 router 1\nrouter 1 node 1 router 7\n"),
      "net.txt:2: router 7 is linked here but never defined");
  has(file_error("router 0 node 0 router 0\n"), "net.txt:1: router 0 links to itself");
  has(file_error("router 0 node 0 router 1\nrouter 1 node 1\n\nrouter 0 router 1\n"),
      "net.txt:4: router 0 router 1: a duplicate link (given on line 1)");
  has(file_error("router 0 node 0 router 1\nrouter 1 node 1\nrouter 2 node 2\n"),
      "net.txt:3: router 2 is disconnected");
  has(file_error("router 0 node 0 router 2\nrouter 2 node 1\n"),
      "router 1 is missing (routers are numbered 0..2");
  has(file_error("router 0 node 0 node 2\n"), "node 1 is not attached to any router");
  has(file_error("router 0 node 0 node 1\nrouter 1 node 0 router 0\n"),
      "net.txt:2: node 0 is attached twice (first on line 1, to router 0)");
  has(file_error("router 0 node 0 node 2 router 1\nrouter 1 node 1\n"),
      "net.txt:1: node 2 at router 0: a router's terminals must be numbered consecutively");
  has(file_error("router 0 node 0 router 1 0\nrouter 1 node 1\n"), "net.txt:1: latency '0'");
  has(file_error("router 0 node 0\nswitch 1\n"), "net.txt:2: 'switch'");
  has(file_error("router x node 0\n"), "net.txt:1: router id 'x'");
  has(file_error("router 0 node 0 node 1 2\nrouter 1 node 2 router 0\n"),
      "net.txt:1: node 1 latency 2");
  std::ostringstream star;
  star << "router 0 node 0";
  for (int r = 1; r <= 64; ++r) star << " router " << r;
  star << "\n";
  for (int r = 1; r <= 64; ++r) star << "router " << r << " node " << r << "\n";
  has(file_error(star.str()), "net.txt:1: router 0 has 64 router links: at most 63");
  // BookSim2's own example (a triangle, 3 terminals per router) loads unchanged.
  EXPECT_EQ(file_error("router 0 node 0 node 1 node 2 router 1\n"
                       "router 1 node 3 node 4 node 5\n"
                       "router 2 node 6 node 7 node 8 router 1 router 0\n"),
            "");
}

TEST(AnyNetConfig, TheFileIsRelativeToTheConfigAndItsErrorsNameTheKey) {
  const std::string dir = "/tmp/switchyard-test-anynet";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  test::write_temp("anynet/ring.net", ring_text(5, 1));
  test::write_temp("anynet/bad.net", "router 0 node 0 router 1\nrouter 1 node 1 router 5\n");
  const auto parse = [&](const std::string& y) { return parse_config(y, dir + "/cfg.yaml"); };
  const Config c = parse("topology: {type: anynet, file: ring.net}\nrouter: {vcs: 2}\n");
  EXPECT_EQ(c.topology.make().num_nodes(), 5);
  EXPECT_STREQ(c.topology.make().kind_name(), "anynet");
  EXPECT_NE(config_to_json(c, 2).find("\"file\": \"ring.net\""), std::string::npos);
  std::string e;
  try {
    parse("topology:\n  type: anynet\n  file: bad.net\n");
  } catch (const ConfigError& x) {
    e = x.what();
  }
  EXPECT_NE(e.find(dir + "/cfg.yaml:3:9: topology.file: " + dir + "/bad.net:2: router 5"),
            std::string::npos)
      << e;
  // A ring of 5 on shortest paths needs 2 VC layers: one VC is refused with the number.
  e = test::config_error("topology: {type: anynet, file: " + dir +
                         "/ring.net}\nrouter: {vcs: 1}\n");
  EXPECT_NE(e.find("router.vcs >= 2"), std::string::npos) << e;
  EXPECT_EQ(test::config_error("topology: {type: anynet, file: " + dir +
                               "/ring.net, deadlock: up_down}\nrouter: {vcs: 1}\n"),
            "");
  // deadlock: none on a ring: a cycle, refused unless routing.allow_deadlock (then a warning).
  const std::string none = "topology: {type: anynet, file: " + dir + "/ring.net, deadlock: none}\n";
  e = test::config_error(none);
  EXPECT_NE(e.find("topology.deadlock: deadlock: none: the shortest routes on one VC class have "
                   "a channel dependency cycle (r"),
            std::string::npos)
      << e;
  const Config w = test::cfg(none + "routing: {allow_deadlock: true}\n");
  ASSERT_EQ(w.warnings.size(), 1u);
  EXPECT_NE(w.warnings[0].find("it may deadlock"), std::string::npos);
  e = test::config_error("topology: {type: anynet}\n");
  EXPECT_NE(e.find("topology.file"), std::string::npos) << e;
  e = test::config_error("topology: {type: torus, file: ring.net}\n");
  EXPECT_NE(e.find("topology.file: an anynet's"), std::string::npos) << e;
  e = test::config_error("topology: {type: anynet, file: " + dir + "/ring.net, dims: [4]}\n");
  EXPECT_NE(e.find("topology.dims"), std::string::npos) << e;
  // Latencies other than 1 need the staged pipeline; the terminals' latency is ni_lt's.
  test::write_temp("anynet/lat.net", "router 0 node 0 router 1 3\nrouter 1 node 1\n");
  e = test::config_error("topology: {type: anynet, file: " + dir + "/lat.net}\n");
  EXPECT_NE(e.find("need the staged pipeline"), std::string::npos) << e;
  test::write_temp("anynet/nlat.net", "router 0 node 0 2 router 1\nrouter 1 node 1 2\n");
  e = test::config_error("topology: {type: anynet, file: " + dir + "/nlat.net}\n");
  EXPECT_NE(e.find("router.pipeline.ni_lt: 2"), std::string::npos) << e;
  EXPECT_EQ(test::config_error("topology: {type: anynet, file: " + dir +
                               "/nlat.net}\nrouter: {pipeline: {ni_lt: 2}}\n"),
            "");
}

// Zero load: every pair of a ring of 6 (one terminal per router) in alpha + h delta + L tau, h
// the ring distance (the ideal router).
TEST(AnyNetRun, ZeroLoadCycleCountsFollowTheRoutes) {
  const std::string plain = test::write_temp("anynet-ring6.net", ring_text(6, 1));
  std::ostringstream msgs;
  msgs << "traffic:\n  type: trace\n  messages:\n";
  int time = 0;
  for (int s = 0; s < 6; ++s)
    for (int d = 0; d < 6; ++d, time += 100)
      msgs << "    - {time: " << time << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
  const Results r = test::run("topology: {type: anynet, file: " + plain +
                                  "}\nrouter: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
                                  "timing: {alpha: 2, delta: 1, tau: 1}\n" +
                                  msgs.str(),
                              true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.packets_delivered, 36u);
  for (const auto& m : r.packets) {
    const int diff = std::abs(m.src - m.dst), h = std::min(diff, 6 - diff);
    EXPECT_EQ(m.delivered - m.created, 2 + h + 4) << m.src << " -> " << m.dst;
  }
}

// The staged 5-stage pipeline on a ring of 6 whose link router 0 -> 1 takes 6 cycles: a packet
// takes (h + 2) lt + (h + 1) 4 + L cycles at zero load, and 5 more where its route takes that
// link (the reverse link, 1 -> 0, keeps 1 cycle).
TEST(AnyNetRun, ZeroLoadCycleCountsTakeTheFilesLinkLatencies) {
  std::string text = ring_text(6, 1);
  text.replace(text.find("router 0 node 0 router 1"), 24, "router 0 node 0 router 1 6");
  const std::string slow = test::write_temp("anynet-ring6slow.net", text);
  std::ostringstream msgs;
  msgs << "traffic:\n  type: trace\n  messages:\n";
  int time = 0;
  for (int s = 0; s < 6; ++s)
    for (int d = 0; d < 6; ++d, time += 100)
      if (s != d)
        msgs << "    - {time: " << time << ", src: " << s << ", dst: " << d << ", flits: 4}\n";
  const Results r = test::run(
      "topology: {type: anynet, file: " + slow +
          "}\nrouter: {buffering: input_vc, vcs: 2, vc_depth: 8, pipeline: {rc: 1, va: 1, sa: 1, "
          "st: 1, lt: 1, credit_delay: 2}}\ntiming: {alpha: 0, tau: 1}\n" +
          msgs.str(),
      true);
  ASSERT_EQ(r.packets.size(), 30u);
  const AnyNet net(text, "x", D::Layers);
  int over_slow = 0;
  for (const auto& m : r.packets) {
    const int h = net.distance(m.src, m.dst);
    bool over = false;
    for (int v = m.src, p; (p = net.route(v, m.dst)) >= 0; v = net.neighbor(v, p))
      over |= v == 0 && p == 0;
    over_slow += over;
    EXPECT_EQ(m.delivered - m.created, (h + 2) + (h + 1) * 4 + 4 + (over ? 5 : 0))
        << m.src << " -> " << m.dst;
  }
  EXPECT_GT(over_slow, 0);
}

// Above saturation on a ring: shortest paths on two VC layers, and up*/down* on one, never
// deadlock (one VC with shortest paths is refused: above).
class AnyNetDeadlock : public ::testing::TestWithParam<const char*> {};

TEST_P(AnyNetDeadlock, FreeAboveSaturation) {
  const std::string f = test::write_temp("anynet-ring8.net", ring_text(8, 2));
  const std::string m(GetParam());
  const std::string dl = m.substr(0, m.find(','));
  const std::string vcs = m.substr(m.find("vcs: ") + 5);
  const Results r =
      test::run("topology: {type: anynet, file: " + f + ", deadlock: " + dl +
                "}\nrouter: {buffering: input_vc, switching: wormhole, vcs: " + vcs +
                ", vc_depth: 2}\n"
                "traffic: {process: bernoulli, rate: 0.9, packet_flits: 8, pattern: uniform}\n"
                "simulation: {warmup: 0, measure: 10000, drain_limit: 1, deadlock_cycles: 2000}\n");
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.credit_violations, 0u);
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_GT(r.accepted, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Modes, AnyNetDeadlock,
                         ::testing::Values("layers, vcs: 2", "up_down, vcs: 1"));
