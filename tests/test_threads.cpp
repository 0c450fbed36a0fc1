// simulation.threads: the routers of a cycle evaluated on several threads give results.json byte
// for byte as one thread does (but for its wall time), on every kind of config the key applies
// to, below and far above saturation; where it does not apply, one thread and a warning.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "helpers.hpp"

namespace sy {
namespace {

std::string without_wall_time(const std::string& js) {
  return std::regex_replace(js, std::regex("\"wall_seconds\": [-+0-9.eE]+"), "");
}

struct Case {
  const char* name;
  const char* yaml;
};

const Case kCases[] = {
    {"dor_torus_loaded",
     "topology: {type: torus, dims: [8, 8]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
     "traffic: {rate: 0.35, packet_flits: 8}\nsimulation: {warmup: 300, measure: 1500}\n"},
    {"adaptive_random_vct",
     "topology: {type: torus, dims: [6, 6]}\n"
     "router: {buffering: input_vc, switching: virtual_cut_through, vcs: 3, vc_depth: 8}\n"
     "routing: {algorithm: minimal_adaptive, selection: random}\n"
     "traffic: {rate: 0.6, packet_flits: 4, pattern: transpose}\n"
     "simulation: {warmup: 200, measure: 1500, max_backlog_packets: 3000}\n"},
    {"valiant_saf_oldest_first",
     "topology: {type: torus, dims: [4, 4, 4]}\n"
     "router: {buffering: input_vc, switching: store_and_forward, vcs: 4, vc_depth: 4,\n"
     "         arbitration: oldest_first}\n"
     "routing: {algorithm: valiant}\n"
     "traffic: {rate: 0.15, packet_flits: 3}\nsimulation: {warmup: 200, measure: 1500}\n"},
    {"west_first_mesh_tail_free",
     "topology: {type: mesh, dims: [7, 5]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 3, wait_for_tail_credit: false}\n"
     "routing: {algorithm: west_first}\n"
     "traffic: {rate: 0.5, packet_flits: 6, pattern: uniform}\n"
     "simulation: {warmup: 200, measure: 1500, max_backlog_packets: 2000}\n"},
    {"priority_classes_delta3",
     "topology: {type: torus, dims: [5, 7]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4, priority_classes: 2}\n"
     "timing: {alpha: 2, delta: 3, tau: 2}\n"
     "traffic: {rate: 0.1, packet_flits: 5, priority: 1}\n"
     "simulation: {warmup: 200, measure: 1500}\n"},
    {"butterfly_input_vc",
     "topology: {type: butterfly, k: 2, n: 6}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
     "traffic: {rate: 0.4, packet_flits: 4}\nsimulation: {warmup: 200, measure: 1500}\n"},
    // (Several 64-router blocks: lanes of one, two and three blocks, and lanes with none.)
    {"torus_16x16_near_saturation",
     "topology: {type: torus, dims: [16, 16]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
     "traffic: {rate: 0.3, packet_flits: 8}\nsimulation: {warmup: 200, measure: 800}\n"},
    {"mesh_10x10x6_two_channels_single_flits",
     "topology: {type: mesh, dims: [10, 10, 6]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 2}\n"
     "network_interface: {injection_channels: 2}\n"
     "traffic: {rate: 0.2, packet_flits: 1, pattern: uniform, self: through_router}\n"
     "simulation: {warmup: 100, measure: 400}\n"},
    {"torus_8x8x4_saturated_stops_early",
     "topology: {type: torus, dims: [8, 8, 4]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
     "traffic: {rate: 0.9, packet_flits: 8}\n"
     "simulation: {warmup: 100, measure: 1000, max_backlog_packets: 4000}\n"},
    {"torus_16x8_poisson_batches_delivered_locally",
     "topology: {type: torus, dims: [16, 8]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4}\n"
     "traffic: {process: poisson, rate: 0.15, packet_flits: 2, self: deliver_locally}\n"
     "simulation: {warmup: 100, measure: 600, seed: 5}\n"},
    {"torus_16x8_two_traffic_classes_two_priorities",
     "topology: {type: torus, dims: [16, 8]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4, priority_classes: 2}\n"
     "traffic:\n  rate: 0.3\n  classes:\n"
     "    - {name: ctl, share: 0.25, packet_flits: 1, priority: 0}\n"
     "    - {name: data, share: 0.75, packet_flits: 6, priority: 1}\n"
     "simulation: {warmup: 100, measure: 800, seed: 3}\n"},
    // The staged pipeline (several 64-router blocks): credits later than the next cycle
    // through the lanes' wheels, ejection through the routers' outputs, the VC allocator, the
    // switch knobs, links of their own latency; rc 0 included (a router evaluates once a cycle).
    {"staged_torus_16x16_rc0_lt0_credit_delay3",
     "topology: {type: torus, dims: [16, 16]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4,\n"
     "  pipeline: {rc: 0, va: 1, sa: 1, st: 1, lt: 0, credit_delay: 3}}\n"
     "traffic: {rate: 0.04, packet_flits: 6}\nsimulation: {warmup: 200, measure: 800, seed: 2}\n"},
    {"staged_mesh_16x12_knobs_output_first_saturated",
     "topology: {type: mesh, dims: [16, 12]}\n"
     "router: {buffering: input_vc, vcs: 3, vc_depth: 4, vc_allocator: separable_output_first,\n"
     "  input_speedup: 2, output_speedup: 2, output_buffer_size: 3, hold_switch_for_packet: "
     "true,\n"
     "  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, ni_lt: 0}}\n"
     "traffic: {rate: 0.7, packet_flits: 4}\n"
     "simulation: {warmup: 100, measure: 600, max_backlog_packets: 3000, seed: 4}\n"},
    {"staged_torus_8x8x4_saf_adaptive_speculative_two_ejection_ports",
     "topology: {type: torus, dims: [8, 8, 4]}\n"
     "router: {buffering: input_vc, switching: store_and_forward, vcs: 3, vc_depth: 5,\n"
     "  pipeline: {rc: 2, va: 2, sa: 1, st: 0, lt: 2, speculative: true, ejection_ports: 2}}\n"
     "routing: {algorithm: minimal_adaptive, selection: random}\n"
     "traffic: {rate: 0.06, packet_flits: 4, pattern: bit_complement}\n"
     "simulation: {warmup: 100, measure: 600, seed: 6}\n"},
    {"staged_torus_16x8_no_tail_wait_oldest_first",
     "topology: {type: torus, dims: [16, 8]}\n"
     "router: {buffering: input_vc, vcs: 4, vc_depth: 3, wait_for_tail_credit: false,\n"
     "  arbitration: oldest_first, pipeline: {rc: 1, va: 2, sa: 2, st: 1, lt: 1, credit_delay: "
     "5}}\n"
     "traffic: {rate: 0.45, packet_flits: 5}\n"
     "simulation: {warmup: 100, measure: 600, max_backlog_packets: 3000, seed: 8}\n"},
    {"staged_dragonfly_link_latencies_ugal",
     "topology: {type: dragonfly, p: 2, a: 8, h: 4, local_latency: 3, global_latency: 9}\n"
     "router: {buffering: input_vc, vcs: 4, vc_depth: 8, pipeline: {}}\n"
     "routing: {algorithm: ugal}\n"
     "traffic: {rate: 0.12, packet_flits: 4}\nsimulation: {warmup: 100, measure: 600, seed: 10}\n"},
    {"torus_12x12_trace_to_self_and_idle_gaps",
     "topology: {type: torus, dims: [12, 12]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 2}\n"
     "traffic:\n  type: trace\n  messages:\n"
     "    - {time: 3, src: 0, dst: 143, flits: 4}\n"
     "    - {time: 3, src: 70, dst: 70, flits: 6}\n"
     "    - {time: 3, src: 130, dst: 5, flits: 12}\n"
     "    - {time: 900, src: 64, dst: 63, flits: 3}\n"
     "    - {time: 901, src: 63, dst: 64, flits: 9}\n"
     "simulation: {}\n"},
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class Threads : public ::testing::TestWithParam<Case> {};

TEST_P(Threads, ResultsAreByteIdenticalToOneThread) {
  const Case& c = GetParam();
  int rc1 = -1;
  const std::string one = test::cli_results_any(std::string("thr1-") + c.name, c.yaml, &rc1);
  ASSERT_FALSE(one.empty()) << c.name;
  EXPECT_GT(test::json_number(one, "flits", "hops"), 50) << c.name;
  for (int k : {2, 3, 4, 7}) {
    int rc = -1;
    const std::string yaml =
        std::regex_replace(std::string(c.yaml), std::regex("simulation: \\{"),
                           "simulation: {threads: " + std::to_string(k) + ", ");
    const std::string many =
        test::cli_results_any("thr" + std::to_string(k) + "-" + c.name, yaml, &rc);
    EXPECT_EQ(rc, rc1) << c.name << " threads " << k;
    EXPECT_EQ(without_wall_time(many), without_wall_time(one)) << c.name << " threads " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, Threads, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// A case run as it is and with env set (a switch to the code the default stands for): the same
// exit code and results.json byte for byte.
void expect_same_with_env(const Case& c, const std::string& as_is, const std::string& with_env,
                          const char* env) {
  int rc1 = -1, rc2 = -1;
  const std::string a = test::cli_results_any(as_is + "-" + c.name, c.yaml, &rc1);
  ASSERT_FALSE(a.empty()) << c.name;
  const std::string b = test::cli_results_any(with_env + "-" + c.name, c.yaml, &rc2, env);
  EXPECT_EQ(rc2, rc1) << c.name;
  EXPECT_EQ(without_wall_time(b), without_wall_time(a)) << c.name;
}

// The input-VC router's fast paths (switch allocation for one class and round-robin,
// SwitchAllocator::allocate_plain) against the general code they stand for, which
// SWITCHYARD_GENERAL_PATH=1 forces: results.json byte for byte.
class FastPath : public ::testing::TestWithParam<Case> {};

TEST_P(FastPath, ResultsAreByteIdenticalToTheGeneralPath) {
  expect_same_with_env(GetParam(), "fast", "general", "SWITCHYARD_GENERAL_PATH=1 ");
}

INSTANTIATE_TEST_SUITE_P(Configs, FastPath, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// The network's clock alone in the simulation runs its cycles on in one activation (Network::clock)
// instead of one activation per cycle, which SWITCHYARD_CYCLE_PER_ACTIVATION=1 forces:
// results.json byte for byte.
class RunAhead : public ::testing::TestWithParam<Case> {};

TEST_P(RunAhead, ResultsAreByteIdenticalToOneActivationPerCycle) {
  expect_same_with_env(GetParam(), "ahead", "stepped", "SWITCHYARD_CYCLE_PER_ACTIVATION=1 ");
}

// (With a trace whose messages leave the network idle between them: the clock jumps ahead.)
const Case kRunAheadCases[] = {
    kCases[0],
    kCases[1],
    kCases[4],
    kCases[5],
    {"trace_with_idle_gaps",
     "topology: {type: torus, dims: [4, 4]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 2}\n"
     "traffic:\n  type: trace\n  messages:\n"
     "    - {time: 3, src: 0, dst: 5, flits: 4}\n"
     "    - {time: 3, src: 1, dst: 5, flits: 6}\n"
     "    - {time: 400, src: 7, dst: 2, flits: 3}\n"
     "    - {time: 5000, src: 9, dst: 9, flits: 2}\n"
     "    - {time: 5001, src: 15, dst: 0, flits: 9}\n"},
};

INSTANTIATE_TEST_SUITE_P(Configs, RunAhead, ::testing::ValuesIn(kRunAheadCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Threads, WhereTheyDoNotApplyOneThreadAndAWarning) {
  const test::CliResult r =
      test::cli("check " + test::write_temp("thr-oq.yaml",
                                            "topology: {type: hypercube, dim: 4}\n"
                                            "router: {buffering: output_queued}\n"
                                            "simulation: {threads: 2}\n"));
  EXPECT_EQ(r.rc, 0) << r.output;
  EXPECT_NE(r.output.find("simulation.threads = 2 runs on one thread: the routers are not "
                          "input_vc"),
            std::string::npos)
      << r.output;
  const test::CliResult d =
      test::cli("check " + test::write_temp("thr-d0.yaml",
                                            "topology: {type: torus, dims: [4, 4]}\n"
                                            "timing: {alpha: 0, delta: 0, tau: 1}\n"
                                            "simulation: {threads: 4}\n"));
  EXPECT_NE(d.output.find("timing.delta is 0"), std::string::npos) << d.output;
  EXPECT_NE(test::config_error("simulation: {threads: 0}\n").find("simulation.threads"),
            std::string::npos);
  EXPECT_NE(test::config_error("simulation: {threads: 65}\n").find("simulation.threads"),
            std::string::npos);
}

// The staged pipeline's plain path (VC allocation over the headers waiting for one, then
// SwitchAllocator::allocate_plain<true>, InputVcRouter::evaluate_words_plain_staged) against the
// general code, which SWITCHYARD_GENERAL_PATH=1 forces: results.json byte for byte, over the
// staged pipeline's knobs, from light load to past saturation.
const Case kStagedCases[] = {
    {"staged_5stage_mesh",
     "topology: {type: mesh, dims: [8, 8]}\n"
     "router: {buffering: input_vc, vcs: 2, vc_depth: 4,\n"
     "  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2}}\n"
     "traffic: {rate: 0.12, packet_flits: 5}\n"
     "simulation: {warmup: 200, measure: 800, seed: 5}\n"},
    {"staged_torus_saturated_no_tail_wait",
     "topology: {type: torus, dims: [6, 6]}\n"
     "router: {buffering: input_vc, vcs: 4, vc_depth: 3, wait_for_tail_credit: false,\n"
     "  pipeline: {rc: 2, va: 2, sa: 1, st: 1, lt: 2, credit_delay: 3}}\n"
     "traffic: {rate: 0.5, packet_flits: 6}\n"
     "simulation: {warmup: 200, measure: 600, seed: 7}\n"},
    {"staged_speculative_vct_output_first_va_two_ejection_ports",
     "topology: {type: torus, dims: [4, 4, 4]}\n"
     "router: {buffering: input_vc, switching: virtual_cut_through, vcs: 2, vc_depth: 8,\n"
     "  vc_allocator: separable_output_first,\n"
     "  pipeline: {rc: 1, va: 2, sa: 1, st: 0, lt: 1, speculative: true, ejection_ports: 2}}\n"
     "traffic: {rate: 0.2, packet_flits: 4}\n"
     "simulation: {warmup: 200, measure: 600, seed: 9}\n"},
    {"staged_adaptive_random_selection",
     "topology: {type: torus, dims: [6, 6]}\n"
     "router: {buffering: input_vc, vcs: 3, vc_depth: 4, pipeline: {rc: 1, va: 1, sa: 2, st: 1, "
     "lt: 1}}\n"
     "routing: {algorithm: minimal_adaptive, selection: random}\n"
     "traffic: {rate: 0.25, packet_flits: 3, pattern: transpose}\n"
     "simulation: {warmup: 200, measure: 600, seed: 11}\n"},
};

class StagedPlain : public ::testing::TestWithParam<Case> {};

TEST_P(StagedPlain, ResultsAreByteIdenticalToTheGeneralPath) {
  expect_same_with_env(GetParam(), "plain", "general", "SWITCHYARD_GENERAL_PATH=1 ");
}

INSTANTIATE_TEST_SUITE_P(Configs, StagedPlain, ::testing::ValuesIn(kStagedCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Waves turn the plain paths off (a router's probe needs the general path: set_probe), and the
// ideal pipeline's credits applied at once (credit_now: waves sample the credits at the end of
// a cycle), so a run with waves keeps the results of the same run without them: results.json
// byte for byte but for its waves keys. (The staged cases: a credit delay of two cycles and of
// one.)
TEST(WavesOn, IdealAndStagedRunsKeepTheirResults) {
  const auto strip = [](const std::string& js) {
    return std::regex_replace(without_wall_time(js), std::regex("\"(enable|to_cycle)\": [a-z0-9]+"),
                              "");
  };
  for (const Case& c : {kCases[0], kStagedCases[0], kStagedCases[3]}) {
    int rc1 = -1, rc2 = -1;
    const std::string a = test::cli_results_any(std::string("nowaves-") + c.name, c.yaml, &rc1);
    ASSERT_FALSE(a.empty()) << c.name;
    const std::string b =
        test::cli_results_any(std::string("waves-") + c.name,
                              std::string(c.yaml) + "waves: {enable: true, to_cycle: 300}\n", &rc2);
    EXPECT_EQ(rc2, rc1) << c.name;
    EXPECT_EQ(strip(b), strip(a)) << c.name;
    EXPECT_NE(b, a) << c.name;  // (the waves keys do differ: the run had them)
  }
}

}  // namespace
}  // namespace sy
