// Hostile inputs (issue 34), one test per class found: the sweep tools, memory limits that
// follow the process's real limit, allocation failures, unbounded inputs, overflow, verdicts
// that scale with the timing, files that are no files, failed writes and emitted scripts.
// Each runs the program as a user would and checks the exit code and the message.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "helpers.hpp"

using namespace sy;

namespace {

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const std::string kQuick = std::string(sy::test::kSourceDir) + "/configs/quickstart.yaml";

// (AddressSanitizer reserves terabytes of address space at start: under ulimit -v an
// instrumented program cannot start at all.)
#define SKIP_UNDER_SANITIZERS() \
  if (SWITCHYARD_SANITIZED) GTEST_SKIP() << "ulimit -v and AddressSanitizer's shadow memory"

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

// A value with a line break or a tab would split a manifest row or an emitted command: refused
// before anything runs (it used to run every point and then crash in collect).
TEST(Hostile, SweepValuesWithControlCharactersAreRefused) {
  for (const char* v : {"$'0.1\\n0.2'", "$'0.1\\t0.2'"}) {
    const auto r =
        test::shell("bash -c \"" + std::string(sy::test::kBin) + " sweep " + kQuick +
                    " --param traffic.rate --values " + v + " --out /tmp/switchyard-hostile-cc\"");
    EXPECT_EQ(r.rc, 1) << r.output;
    EXPECT_TRUE(has(r.output, "contains a control character")) << r.output;
  }
  // An --out with a line break cannot add a line to an emitted Slurm script.
  const auto r = test::shell("bash -c \"" + std::string(sy::test::kBin) + " sweep " + kQuick +
                             " --param traffic.rate --values 0.1 --out $'/tmp/a\\nrm -rf /x'" +
                             " --emit-slurm /tmp/switchyard-hostile.sbatch\"");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "a line break")) << r.output;
}

// A key given twice (two --param, or a grid file's duplicate key) and a grid too large to run are
// usage errors, not a silently dropped parameter or hours of forks.
TEST(Hostile, SweepKeysOnceAndGridsOfARunnableSize) {
  auto r = test::cli("sweep " + kQuick +
                     " --param traffic.rate --values 0.1 --param traffic.rate --values 0.2"
                     " --out /tmp/switchyard-hostile-dup");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "traffic.rate is given twice")) << r.output;
  const std::string grid = test::write_temp(
      "hostile-grid.yaml", "sweep:\n  traffic.rate: [0.1, 0.2]\n  traffic.rate: [0.3]\n");
  r = test::cli("sweep " + kQuick + " --grid " + grid + " --out /tmp/switchyard-hostile-dup");
  EXPECT_NE(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "twice") || has(r.output, "duplicate")) << r.output;
  std::string many = "sweep " + kQuick;
  for (int i = 0; i < 40; ++i) many += " --param simulation.seed --values 1 2";
  r = test::cli(many + " --out /tmp/switchyard-hostile-big");
  EXPECT_EQ(r.rc, 1) << r.output;
  // (Six parameters of ten values: a million runs, refused before any is validated or run.)
  std::string grid6 = "sweep " + kQuick;
  for (const char* k : {"traffic.rate", "router.vc_depth", "simulation.seed", "simulation.measure",
                        "simulation.warmup", "traffic.packet_flits"})
    grid6 += std::string(" --param ") + k + " --values 1 2 3 4 5 6 7 8 9 10";
  r = test::cli(grid6 + " --out /tmp/switchyard-hostile-big");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "1000000 runs")) << r.output;
}

// collect on a damaged sweep: a row.csv with too few fields is skipped with a message, a manifest
// with a point that is no number or out of any range, or a run folder outside the sweep, is an
// error naming the line; never a crash.
TEST(Hostile, CollectReadsDamagedSweepsWithoutCrashing) {
  const std::string dir = "/tmp/switchyard-hostile-collect";
  test::shell("rm -rf " + dir);
  auto r = test::cli("sweep " + kQuick +
                     " --param traffic.rate --values 0.05 0.1 --set simulation.measure=500"
                     " --set simulation.warmup=100 --out " +
                     dir);
  ASSERT_EQ(r.rc, 0) << r.output;
  test::shell("printf 'a,b\\n1,2\\n' > " + dir + "/point-0-seed-1/row.csv");
  r = test::cli("collect " + dir);
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "row.csv does not have this build's columns")) << r.output;
  // A manifest line with a value missing.
  test::shell("printf 'dir\\tseed\\tpoint\\ttraffic.rate\\npoint-1-seed-1\\t1\\t0\\n' > " + dir +
              "/manifest.tsv");
  r = test::cli("collect " + dir);
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "manifest.tsv:2: expected 4 fields")) << r.output;
  for (const char* point : {"18446744073709551615", "-1", "x7", ""}) {
    test::shell("printf 'dir\\tseed\\tpoint\\ttraffic.rate\\npoint-1\\t1\\t" + std::string(point) +
                "\\t0.1\\n' > " + dir + "/manifest.tsv");
    r = test::cli("collect " + dir);
    EXPECT_EQ(r.rc, 1) << point << ": " << r.output;
    EXPECT_TRUE(has(r.output, "manifest.tsv:2: ")) << r.output;
  }
  test::shell("printf 'dir\\tseed\\tpoint\\ttraffic.rate\\n../..\\t1\\t0\\t0.1\\n' > " + dir +
              "/manifest.tsv");
  r = test::cli("collect " + dir);
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "is not a name in")) << r.output;
}

// A write that fails is an error: an emitted job list on a full device, results into a folder
// that cannot be made.
TEST(Hostile, FailedWritesAreErrors) {
  auto r = test::cli("sweep " + kQuick +
                     " --param traffic.rate --values 0.1 0.2 --emit /dev/full"
                     " --out /tmp/switchyard-hostile-full");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "cannot write /dev/full")) << r.output;
  r = test::cli("run " + kQuick + " --set simulation.measure=200 --out /dev/full/x");
  EXPECT_NE(r.rc, 0) << r.output;
  EXPECT_NE(r.rc, 3) << r.output;
}

// Under ulimit -v the run's backlog limit follows the address space left, so an overloaded run
// stops with a partial result (exit 3, results.json written), never SystemC's E549.
TEST(Hostile, AnOverloadedRunUnderUlimitStopsWithAPartialResult) {
  SKIP_UNDER_SANITIZERS();
  const std::string dir = "/tmp/switchyard-hostile-ulimit";
  test::shell("rm -rf " + dir);
  const auto r =
      test::shell("bash -c 'ulimit -v 1200000; " + std::string(sy::test::kBin) + " run " + kQuick +
                  " --set traffic.rate=0.9 --set simulation.measure=50000000"
                  " --set simulation.warmup=0 --quiet --out " +
                  dir + "'");
  EXPECT_EQ(r.rc, 3) << r.output;
  EXPECT_FALSE(has(r.output, "E549")) << r.output;
  const std::string js = read(dir + "/results.json");
  EXPECT_TRUE(has(js, "\"partial\": true")) << r.output;
  EXPECT_TRUE(has(js, "\"reason\": \"saturation\"")) << js.substr(0, 200);
}

// A network too large for the address space is refused by the estimate, or, if an allocation
// fails anyway, the program ends at once with a message (it used to spin for minutes unwinding).
TEST(Hostile, AnAllocationFailureEndsTheProgramPromptly) {
  SKIP_UNDER_SANITIZERS();
  const auto t0 = std::chrono::steady_clock::now();
  const auto r =
      test::shell("bash -c 'ulimit -v 600000; " + std::string(sy::test::kBin) + " run " + kQuick +
                  " --set topology.dims=[1024,1024] --set simulation.max_memory_gb=100"
                  " --quiet --out /tmp/switchyard-hostile-oom'");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.rc == 1 || r.rc == 2) << r.output;
  EXPECT_TRUE(has(r.output, "out of memory") || has(r.output, "memory")) << r.output;
  EXPECT_LT(s, 60) << r.output;
}

// Unbounded inputs: a config that is a device is refused, not read until memory runs out.
TEST(Hostile, AConfigThatIsADeviceIsRefused) {
  const auto r = test::cli("check /dev/zero");
  EXPECT_NE(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "device")) << r.output;
}

// A cycle count times clock_ns beyond SystemC's 64-bit time is refused at the key (a late trace
// message used to report a latency of 10^15 cycles), and so is an explicit slot schedule whose
// slots times the slot's cycles pass it.
TEST(Hostile, TimesBeyondSystemCsRangeAreRefused) {
  std::string e = test::config_error(
      "topology: {type: torus, dims: [4]}\n"
      "network_interface: {clock_ns: 100000}\n"
      "traffic: {type: trace, messages: [{time: 1000000000000, src: 0, dst: 2, flits: 4}]}\n");
  EXPECT_TRUE(has(e, "network_interface.clock_ns")) << e;
  EXPECT_TRUE(has(e, "SystemC's 64-bit time")) << e;
  e = test::config_error(
      "topology: {type: torus, dims: [4]}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 16777216, tau: 65536}\n"
      "traffic: {type: none}\n"
      "schedule:\n"
      "  algorithm: explicit\n"
      "  timing: slots\n"
      "  message_flits: 16777216\n"
      "  packets: [{source: 0, destination: 1}]\n"
      "  transmissions: [{packet: 0, from: 0, route: [d0+], slots: [16777216]}]\n");
  EXPECT_TRUE(has(e, "SystemC's 64-bit time")) << e;
}

// One message with a large delta takes long but moves: no deadlock verdict (the watchdog and the
// drain wait beyond the timing's own delays).
TEST(Hostile, ASlowButMovingRunIsNoDeadlock) {
  const Results r = test::run(
      "topology: {type: torus, dims: [8]}\n"
      "timing: {alpha: 0, delta: 100000, tau: 1}\n"
      "traffic: {type: trace, messages: [{time: 0, src: 0, dst: 4, flits: 4}]}\n");
  EXPECT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_EQ(r.latency.max, 4 * 100000.0 + 4);
}

// The documented defaults of the limits are accepted when written out.
TEST(Hostile, TheLimitsDefaultsMayBeWrittenOut) {
  EXPECT_EQ(test::config_error("topology: {type: torus, dims: [4, 4]}\n"
                               "simulation: {max_memory_gb: 0, max_wall_seconds: 0, "
                               "max_backlog_packets: 0}\n"),
            "");
  EXPECT_TRUE(has(test::config_error("topology: {type: torus, dims: [4, 4]}\n"
                                     "simulation: {max_wall_seconds: 0.0000001}\n"),
                  "simulation.max_wall_seconds"));
}

// A dynamic PMNB run at light load whose window is shorter than a period is too short to tell,
// and says so instead of "above saturation".
TEST(Hostile, AWindowTooShortToTellSaysSo) {
  const auto r = test::cli("run " + std::string(sy::test::kSourceDir) +
                           "/configs/papers/pmnb/dynamic_iii_6.yaml --set traffic.load.rho=0.05"
                           " --set simulation.measure=200 --set simulation.warmup=100"
                           " --out /tmp/switchyard-hostile-pmnb");
  EXPECT_EQ(r.rc, 3) << r.output;
  EXPECT_TRUE(has(r.output, "too short to tell")) << r.output;
  EXPECT_FALSE(has(r.output, "above saturation")) << r.output;
}

// A schedule plan is in the estimate and its memory check: an OCTR tag list of 20,000 tags is
// about 1.8 GB to plan, refused under a 1 GB limit at schedule.tags.
TEST(Hostile, AScheduleTagListIsInTheEstimate) {
  std::string tags = "[";
  for (int i = 0; i < 20000; ++i) tags += std::string(i ? "," : "") + "[1,2]";
  tags += "]";
  const std::string e = test::config_error(
      "topology: {type: torus, dims: [7, 7]}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "network_interface: {injection: all_port}\n"
      "timing: {alpha: 0, delta: 0, tau: 1}\n"
      "traffic: {type: none}\n"
      "schedule: {algorithm: octr, task: tags, tags: " +
      tags +
      "}\n"
      "simulation: {max_memory_gb: 1}\n");
  EXPECT_TRUE(has(e, "schedule.tags")) << e.substr(0, 300);
  EXPECT_TRUE(has(e, "link crossings")) << e.substr(0, 300);
}
