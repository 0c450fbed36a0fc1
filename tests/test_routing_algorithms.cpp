// Routing algorithms beside dimension order (routing.algorithm, router/routing/): each delivers
// every flit in order without deadlock above saturation on the smallest VC count it declares;
// the turn models never take a turn their model forbids (checked per hop by a function apart
// from the routing functions); Valiant and ROMM packets visit their intermediate node; the
// minimal algorithms take shortest paths only; at low load the minimal ones meet the zero-load
// formula; too few VCs is a config error that says how many.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"

using namespace sy;

namespace {

struct Case {
  std::string algorithm;
  std::string topology;
  int vcs;  // the smallest the algorithm declares on that topology
};
std::ostream& operator<<(std::ostream& o, const Case& c) {
  return o << c.algorithm << " on " << c.topology << " with " << c.vcs << " VCs";
}

std::string yaml(const Case& c, double rate, int measure) {
  return "topology: " + c.topology +
         "\n"
         "router: {buffering: input_vc, switching: wormhole, vcs: " +
         std::to_string(c.vcs) +
         ", vc_depth: 4}\n"
         "timing: {alpha: 0, delta: 1, tau: 1}\n"
         "routing: {algorithm: " +
         c.algorithm +
         "}\n"
         "traffic: {pattern: uniform, rate: " +
         std::to_string(rate) +
         ", packet_flits: 6}\n"
         "simulation: {warmup: 1000, measure: " +
         std::to_string(measure) + ", drain_limit: 20000, seed: 5}\n";
}

const char* kTorus = "{type: torus, dims: [6, 6]}";
const char* kMesh = "{type: mesh, dims: [6, 6]}";
const char* kCube = "{type: hypercube, dim: 5}";

}  // namespace

class Routing : public ::testing::TestWithParam<Case> {};

TEST_P(Routing, AboveSaturationNoDeadlockInOrderChecksHold) {
  const Case& c = GetParam();
  const Results r = test::run(yaml(c, 0.9, 15000));
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.forbidden_turns, 0u);
  EXPECT_EQ(r.nonminimal_packets, 0u);
  EXPECT_EQ(r.intermediate_missed, 0u);
  EXPECT_GT(r.packets_delivered, 1000u);
}

TEST_P(Routing, LowLoadStableAndChecksHold) {
  const Case& c = GetParam();
  const Results r = test::run(yaml(c, 0.02, 20000));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.forbidden_turns, 0u);
  EXPECT_EQ(r.nonminimal_packets, 0u);
  EXPECT_EQ(r.intermediate_missed, 0u);
  const bool minimal = c.algorithm != "valiant" && c.algorithm != "romm" && c.algorithm != "ugal";
  if (minimal) {
    // Shortest paths at a load this light: the zero-load formula within a few percent.
    EXPECT_NEAR(r.latency.mean, r.zero_load_formula, 0.05 * r.zero_load_formula);
  } else if (c.algorithm == "valiant") {
    // Two legs through a random node: longer than the formula's shortest-path mean.
    EXPECT_GT(r.latency.mean, r.zero_load_formula + 1.0);
  } else if (c.algorithm == "ugal") {
    // Empty queues: UGAL goes minimal, so the zero-load formula holds.
    EXPECT_NEAR(r.latency.mean, r.zero_load_formula, 0.05 * r.zero_load_formula);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Algorithms, Routing,
    ::testing::Values(Case{"minimal_adaptive", kTorus, 3}, Case{"minimal_adaptive", kMesh, 2},
                      Case{"minimal_adaptive", kCube, 2}, Case{"valiant", kTorus, 4},
                      Case{"valiant", kMesh, 2}, Case{"romm", kTorus, 4}, Case{"romm", kMesh, 2},
                      Case{"ugal", kTorus, 4}, Case{"ugal", kCube, 2}, Case{"west_first", kMesh, 1},
                      Case{"north_last", kMesh, 1}, Case{"negative_first", kMesh, 1},
                      Case{"odd_even", kMesh, 1}),
    [](const ::testing::TestParamInfo<Case>& i) {
      std::string t = i.param.topology.find("torus") != std::string::npos  ? "torus"
                      : i.param.topology.find("mesh") != std::string::npos ? "mesh"
                                                                           : "hypercube";
      return i.param.algorithm + "_" + t;
    });

TEST(RoutingTurns, TheCheckerForbidsWhatEachModelForbids) {
  // 4x4 mesh, node (1,1) (odd column) and (2,1) (even column). Ports: x- x+ y- y+ by
  // Topology::port_of. A packet arriving on port p travels away from that port's neighbour.
  const Topology t(Topology::Kind::Mesh, {4, 4});
  const int odd = t.node_at({1, 1}), even = t.node_at({2, 1});
  const int xm = t.port_of(0, -1), xp = t.port_of(0, +1), ym = t.port_of(1, -1),
            yp = t.port_of(1, +1);
  // Travelling east = arrived on x-; north = arrived on y-; south = arrived on y+.
  EXPECT_FALSE(turn_allowed(turn_model("west_first"), t, odd, ym, xm));  // north -> west
  EXPECT_TRUE(turn_allowed(turn_model("west_first"), t, odd, xp, ym));   // west -> south... allowed
  EXPECT_FALSE(turn_allowed(turn_model("north_last"), t, odd, ym, xp));  // north -> east
  EXPECT_TRUE(turn_allowed(turn_model("north_last"), t, odd, xm, yp));   // east -> north
  EXPECT_FALSE(
      turn_allowed(turn_model("negative_first"), t, odd, xm, ym));          // east (+) -> south (-)
  EXPECT_TRUE(turn_allowed(turn_model("negative_first"), t, odd, yp, xp));  // south (-) -> east (+)
  EXPECT_FALSE(
      turn_allowed(turn_model("odd_even"), t, even, xm, yp));          // east -> north, even column
  EXPECT_TRUE(turn_allowed(turn_model("odd_even"), t, odd, xm, yp));   // east -> north, odd column
  EXPECT_FALSE(turn_allowed(turn_model("odd_even"), t, odd, ym, xm));  // north -> west, odd column
  EXPECT_TRUE(turn_allowed(turn_model("odd_even"), t, even, ym, xm));  // north -> west, even column
}

TEST(RoutingConfig, TooFewVcsSaysHowMany) {
  const std::string y = yaml({"minimal_adaptive", kTorus, 2}, 0.1, 1000);
  try {
    parse_config(y, "cfg.yaml", {});
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("routing.algorithm"), std::string::npos) << m;
    EXPECT_NE(m.find("router.vcs >= 3"), std::string::npos) << m;
  }
  const Config c = parse_config(y + "", "cfg.yaml", {"routing.allow_deadlock=true"});
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.back().find("may deadlock"), std::string::npos);
  try {
    parse_config(yaml({"odd_even", kTorus, 2}, 0.1, 1000), "cfg.yaml", {});
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("2-D meshes"), std::string::npos) << e.what();
  }
}

TEST(RoutingSelection, RandomSelectionMinimalNoDeadlock) {
  Case c{"minimal_adaptive", kTorus, 3};
  std::string y = yaml(c, 0.9, 15000);
  y.replace(y.find("algorithm: minimal_adaptive"), 27,
            "algorithm: minimal_adaptive, selection: random");
  const Results r = test::run(y);
  EXPECT_EQ(r.unstable_reason.find("deadlock"), std::string::npos) << r.unstable_reason;
  EXPECT_EQ(r.order_errors, 0u);
  EXPECT_EQ(r.nonminimal_packets, 0u);
  EXPECT_GT(r.packets_delivered, 1000u);
}
