// Bad input: each class of error names the file, line and key, and exits with code 2.
#include <gtest/gtest.h>

#include "helpers.hpp"

using namespace sy;

namespace {
std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  return test::config_error(yaml, sets);
}
}  // namespace

TEST(ConfigErrors, UnknownKeyNamesLineAndPath) {
  const std::string e =
      error_of("topology: {type: torus, dims: [4, 4]}\nrouter:\n  vcs: 2\n  vc_dpeth: 4\n");
  EXPECT_NE(e.find("cfg.yaml:4:"), std::string::npos) << e;
  EXPECT_NE(e.find("router.vc_dpeth"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key"), std::string::npos) << e;
}

TEST(ConfigErrors, WrongType) {
  const std::string e = error_of("router:\n  vcs: two\n");
  EXPECT_NE(e.find("cfg.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("router.vcs: expected an integer"), std::string::npos) << e;
}

TEST(ConfigErrors, OutOfRange) {
  const std::string e = error_of("timing: {tau: 0}\n");
  EXPECT_NE(e.find("timing.tau: value 0 out of range"), std::string::npos) << e;
}

TEST(ConfigErrors, BadEnumListsChoices) {
  const std::string e = error_of("router: {switching: cut_through}\n");
  EXPECT_NE(e.find("expected one of: wormhole, virtual_cut_through, store_and_forward"),
            std::string::npos)
      << e;
}

TEST(ConfigErrors, YamlSyntax) {
  const std::string e = error_of("router: {vcs: 2\n");
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
}

TEST(ConfigErrors, SetOverrideUnknownKey) {
  const std::string e = error_of("{}", {"router.colour=blue"});
  EXPECT_NE(e.find("--set: router.colour: unknown key"), std::string::npos) << e;
}

TEST(ConfigErrors, CrossKeyChecks) {
  EXPECT_NE(
      error_of(
          "router: {switching: virtual_cut_through, vc_depth: 4}\ntraffic: {packet_flits: 8}\n")
          .find("vc_depth >= the largest packet"),
      std::string::npos);
  EXPECT_NE(error_of("topology: {type: torus, dims: [4, 4]}\ntraffic: {pattern: bit_flip}\n")
                .find("needs a hypercube"),
            std::string::npos);
  EXPECT_NE(error_of("traffic: {rate: 9}\n").find("at most one packet per cycle"),
            std::string::npos);
  EXPECT_NE(error_of("traffic: {type: trace, messages: [{time: 0, src: 0, dst: 99, flits: 1}]}\n")
                .find("traffic.messages[0].dst: value 99 out of range"),
            std::string::npos);
}

TEST(Config, OverridesApplyAndDefaultsResolve) {
  const Config c = parse_config("topology: {type: hypercube, dim: 4}\n", "x",
                                {"router.vcs=4", "traffic.rate=0.25", "timing.delta=3"});
  EXPECT_EQ(c.router.vcs, 4);
  EXPECT_DOUBLE_EQ(c.traffic.rate, 0.25);
  EXPECT_EQ(c.timing.delta, 3);
  EXPECT_EQ(c.topology.dims.size(), 4u);
  EXPECT_NE(config_to_json(c, 0).find("\"vcs\":4"), std::string::npos);
}

TEST(Cli, ExitCodes) {
  const std::string bad = test::write_temp("bad.yaml", "router:\n  vcs: 2\n  buffers: 3\n");
  auto r = test::cli("check " + bad);
  EXPECT_EQ(r.rc, 2) << r.output;
  EXPECT_NE(r.output.find(bad + ":3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("router.buffers"), std::string::npos) << r.output;
  r = test::cli("run /nonexistent.yaml");  // a file that cannot be read: an I/O error
  EXPECT_EQ(r.rc, 1) << r.output;
  r = test::cli("frobnicate");
  EXPECT_EQ(r.rc, 1) << r.output;
  r = test::cli("--help");
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.output.find("switchyard sweep"), std::string::npos);
  const std::string sat =
      test::write_temp("sat.yaml",
                       "topology: {type: mesh, dims: [4, 4]}\nrouter: {buffering: output_queued}\n"
                       "traffic: {process: poisson, rate: 2.0, packet_flits: 4}\n"
                       "simulation: {warmup: 100, measure: 2000, drain_limit: 2000}\n");
  r = test::cli("run " + sat + " --quiet --out /tmp/switchyard-test-sat");
  EXPECT_EQ(r.rc, 3) << r.output;
}

TEST(ConfigErrors, BadValueGivenWithSetNamesSet) {
  const std::string e =
      error_of("topology: {type: torus, dims: [4, 4]}\n", {"waves.routers=[0, 99]"});
  EXPECT_EQ(e.rfind("--set: waves.routers[1]", 0), 0u) << e;
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
}

TEST(ConfigErrors, WavesAndInterfaceKeys) {
  EXPECT_NE(error_of("waves: {to_cycle: 5, from_cycle: 9}\n")
                .find("waves.to_cycle: is before from_cycle"),
            std::string::npos);
  EXPECT_NE(error_of("waves: {routers: some}\n").find("waves.routers"), std::string::npos);
  EXPECT_NE(error_of("network_interface: {flit_bytes: 0}\n").find("network_interface.flit_bytes"),
            std::string::npos);
  EXPECT_NE(error_of("waves: {enabled: true}\n").find("unknown key"), std::string::npos);
  EXPECT_NE(error_of("traffic: {type: none, rate: 0.2}\n").find("traffic.rate: unknown key"),
            std::string::npos);
}
