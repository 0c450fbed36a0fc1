// Reliability (issue 16): hostile configs, traces and sizes end with a run or a clear error
// (file:line, key path, exit 2), within bounded time and memory; nothing wraps silently.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "sim/estimate.hpp"

using namespace sy;

namespace {
std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    parse_config(yaml, "cfg.yaml", sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
}  // namespace

// Finding 1: the product of the sizes is multiplied with a check; it never wraps to a small or
// zero node count.
TEST(Reliability, NodeCountOverflowIsRefused) {
  std::string e = error_of("topology: {type: torus, dims: [6373, 21007, 46247, 60471, 5355]}\n");
  EXPECT_TRUE(has(e, "cfg.yaml:1:")) << e;
  EXPECT_TRUE(has(e, "topology.dims")) << e;
  EXPECT_TRUE(has(e, "more than 2^20")) << e;
  e = error_of("topology: {type: torus, dims: [65536, 65536, 65536, 65536]}\n");
  EXPECT_TRUE(has(e, "cfg.yaml:1:")) << e;
  EXPECT_TRUE(has(e, "topology.dims")) << e;
  e = error_of("topology: {type: butterfly, k: 16, n: 20}\n");
  EXPECT_TRUE(has(e, "cfg.yaml:1:")) << e;
  EXPECT_TRUE(has(e, "topology.n")) << e;
  EXPECT_TRUE(has(e, "more than 2^22")) << e;
  EXPECT_THROW(Topology(Topology::Kind::Torus, {65536, 65536, 65536, 65536}),
               std::invalid_argument);
}

TEST(Reliability, NodeCountOverflowExitsTwo) {
  const std::string f = test::write_temp(
      "wrap.yaml", "topology: {type: torus, dims: [65536, 65536, 65536, 65536]}\n");
  const auto r = test::cli("run " + f + " --quiet --out /tmp/switchyard-test-wrap");
  EXPECT_EQ(r.rc, 2) << r.output;
  EXPECT_TRUE(has(r.output, "topology.dims")) << r.output;
}

// Finding 2: the memory a config needs is estimated before anything is built; above
// simulation.max_memory_gb the config is refused with what it would need.
TEST(Reliability, MemoryEstimateRefusesWhatTheLimitCannotHold) {
  std::string e =
      error_of("topology: {type: torus, dims: [1024, 1024]}\nsimulation: {max_memory_gb: 1}\n");
  EXPECT_TRUE(has(e, "cfg.yaml:1:")) << e;
  EXPECT_TRUE(has(e, "topology")) << e;
  EXPECT_TRUE(has(e, "would need about")) << e;
  EXPECT_TRUE(has(e, "GB of memory")) << e;
  EXPECT_TRUE(has(e, "simulation.max_memory_gb = 1")) << e;
  e = error_of("topology: {type: hypercube, dim: 20}\nsimulation: {max_memory_gb: 2}\n");
  EXPECT_TRUE(has(e, "would need about")) << e;
  // A long window at a high rate: the latency samples are what costs, and the error names them.
  e = error_of(
      "topology: {type: torus, dims: [8, 8]}\ntraffic: {rate: 0.4, packet_flits: 1}\n"
      "simulation: {measure: 1000000000, max_memory_gb: 4}\n");
  EXPECT_TRUE(has(e, "cfg.yaml:3:")) << e;
  EXPECT_TRUE(has(e, "simulation.measure")) << e;
  // The same sizes under a larger limit are accepted.
  EXPECT_EQ(error_of("topology: {type: torus, dims: [64, 64]}\nsimulation: {max_memory_gb: 1}\n"),
            "");
}

TEST(Reliability, MemoryEstimateTracksTheNetwork) {
  const Estimate small = estimate_run(test::cfg("topology: {type: torus, dims: [8, 8]}\n"));
  const Estimate big = estimate_run(test::cfg("topology: {type: torus, dims: [64, 64]}\n"));
  EXPECT_GT(small.bytes, 1e6);
  EXPECT_LT(small.bytes, 100e6);
  EXPECT_GT(big.bytes, small.bytes + 4032 * 5000.0);  // at least 5 KB per router more
  EXPECT_GT(big.wall_seconds, small.wall_seconds);
  EXPECT_GT(machine_memory_bytes(), 0);
  EXPECT_DOUBLE_EQ(memory_limit_bytes(SimulationConfig{}), 0.8 * machine_memory_bytes());
}

TEST(Reliability, CheckPrintsTheEstimate) {
  const std::string f = test::write_temp("est.yaml",
                                         "topology: {type: torus, dims: [1024, 1024]}\n"
                                         "simulation: {max_memory_gb: 0.5}\n");
  auto r = test::cli("check " + f);
  EXPECT_EQ(r.rc, 2) << r.output;
  EXPECT_TRUE(has(r.output, "would need about")) << r.output;
  r = test::cli("check " + std::string(SWITCHYARD_SOURCE_DIR) + "/configs/quickstart.yaml");
  EXPECT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "estimate: memory about")) << r.output;
  EXPECT_TRUE(has(r.output, "wall time about")) << r.output;
}
