// The command line itself (CLI11): each command's --help, typed and validated options, the order
// of --set and of sweep's --param/--values pairs, list values kept whole, missing files as I/O
// errors (exit 1), and what a run says about the files it writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "helpers.hpp"

namespace {

using sy::test::cli;
using sy::test::CliResult;

const std::string kQuick = std::string(sy::test::kSourceDir) + "/configs/quickstart.yaml";

bool has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A command run from directory `dir` (the default output directory is relative to it).
CliResult cli_in(const std::string& dir, const std::string& args) {
  return sy::test::shell("cd " + dir + " && " + sy::test::kBin + " " + args);
}

std::string fresh_dir(const std::string& name) {
  const std::string d = "/tmp/switchyard-test-" + name + "-" + std::to_string(getpid());
  std::system(("rm -rf " + d + " && mkdir -p " + d).c_str());
  return d;
}

// A small run: a 4x4 torus for a few thousand cycles.
const char* kSmall =
    "topology: {type: torus, dims: [4, 4]}\n"
    "traffic: {rate: 0.05, packet_flits: 4}\n"
    "simulation: {warmup: 200, measure: 1000}\n";

// The lines of a sweep's manifest.tsv after its header: each run's point label.
std::vector<std::string> manifest_labels(const std::string& dir, std::string* header = nullptr) {
  std::ifstream f(dir + "/manifest.tsv");
  std::vector<std::string> labels;
  std::string line;
  std::getline(f, line);
  if (header) *header = line;
  // (The values after dir, seed and point: one column per parameter, joined here with '|'.)
  while (std::getline(f, line)) {
    std::string v;
    int field = 0;
    for (char c : line) {
      if (c == '\t') {
        if (++field > 3) v += '|';
      } else if (field >= 3) {
        v += c;
      }
    }
    labels.push_back(v);
  }
  return labels;
}

}  // namespace

TEST(CliArgs, EveryCommandHasItsOwnHelp) {
  const std::pair<const char*, std::vector<const char*>> cmds[] = {
      {"run", {"CONFIG", "--set", "--seed", "--out", "--quiet", "--max-wall", "replaced"}},
      {"check", {"CONFIG", "--set", "--seed"}},
      {"sweep", {"--param", "--values", "--grid", "--seeds", "--jobs", "--emit", "--emit-slurm"}},
      {"collect", {"DIR", "manifest.tsv"}},
      {"bench", {"cycles/s"}},
      {"keys", {"PREFIX", "--json"}},
  };
  for (const auto& [cmd, words] : cmds) {
    const CliResult r = cli(std::string(cmd) + " --help");
    EXPECT_EQ(r.rc, 0) << cmd << ": " << r.output;
    EXPECT_TRUE(has(r.output, std::string("Usage: switchyard ") + cmd)) << r.output;
    for (const char* w : words) EXPECT_TRUE(has(r.output, w)) << cmd << " lacks " << w;
    EXPECT_TRUE(has(r.output, "exit codes")) << r.output;
  }
  // sweep's options are not run's: a run option a sweep does not take is refused, and back.
  EXPECT_FALSE(has(cli("run --help").output, "--param"));
  EXPECT_FALSE(has(cli("check --help").output, "--out"));
  const CliResult top = cli("--help");
  EXPECT_EQ(top.rc, 0);
  for (const char* c : {"run", "check", "sweep", "collect", "bench", "keys"})
    EXPECT_TRUE(has(top.output, c)) << top.output;
  const CliResult v = cli("--version");
  EXPECT_EQ(v.rc, 0);
  EXPECT_TRUE(has(v.output, "switchyard 0.")) << v.output;
}

TEST(CliArgs, BadOptionValuesAreUsageErrorsNamingTheOption) {
  const std::pair<std::string, std::string> bad[] = {
      {"run " + kQuick + " --seed -1", "--seed: needs a whole number from 0"},
      {"run " + kQuick + " --seed 1.5", "--seed: needs a whole number"},
      {"run " + kQuick + " --seed abc", "not 'abc'"},
      {"check " + kQuick + " --seed 99999999999999999999", "--seed: needs a whole number"},
      {"sweep " + kQuick + " --param traffic.rate --values 0.1 --jobs 0", "--jobs: needs a whole"},
      {"sweep " + kQuick + " --param traffic.rate --values 0.1 --jobs two", "not 'two'"},
      {"sweep " + kQuick + " --param traffic.rate --values 0.1 --seeds 0", "--seeds: needs"},
      {"run " + kQuick + " --max-wall 0", "--max-wall: needs a number of seconds"},
      {"run " + kQuick + " --max-wall -3", "not '-3'"},
      {"run " + kQuick + " --max-wall soon", "not 'soon'"},
      {"run " + kQuick + " --bogus", "unknown option --bogus"},
      {"run " + kQuick + " " + kQuick, "unexpected argument " + kQuick},
      {"run --quiet", "CONFIG is required"},
      {"run " + kQuick + " --seed", "--seed"},
      {"sweep " + kQuick + " --values 0.1", "--values: follows its --param"},
      {"sweep " + kQuick + " --param traffic.rate", "--param traffic.rate needs --values"},
      {"sweep " + kQuick + " --param a --values 1 --values 2", "--param a has --values already"},
      {"sweep " + kQuick, "sweep needs --param"},
      {"sweep --param traffic.rate --values 0.1 0.2 " + kQuick + " --jobs 1",
       "'" + kQuick + "' was read as a value of --param traffic.rate"},
      {"collect", "DIR is required"},
      {"bench now", "unexpected argument now"},
      {"bench --repeat 0", "--repeat: needs a whole number from 1"},
      {"bench --only no-such-config", "no config's name contains 'no-such-config'"},
      {"frobnicate", "unknown command 'frobnicate'"},
      {"", "subcommand is required"},
  };
  for (const auto& [args, msg] : bad) {
    const CliResult r = cli(args);
    EXPECT_EQ(r.rc, 1) << args << ": " << r.output;
    EXPECT_TRUE(has(r.output, msg)) << args << ": " << r.output;
  }
}

TEST(CliArgs, SetsApplyInCommandLineOrderAndListValuesStayWhole) {
  auto checked = [](const std::string& args) {
    const CliResult r = cli("check " + kQuick + " " + args);
    EXPECT_EQ(r.rc, 0) << args << ": " << r.output;
    return r.output;
  };
  EXPECT_TRUE(has(checked("--set router.vcs=3 --set router.vcs=4"), "\"vcs\": 4"));
  EXPECT_TRUE(has(checked("--set router.vcs=4 --set router.vcs=3"), "\"vcs\": 3"));
  // --max-wall is a --set of simulation.max_wall_seconds, in its place among them.
  EXPECT_TRUE(has(checked("--max-wall 2.5 --set simulation.max_wall_seconds=7"),
                  "\"max_wall_seconds\": 7"));
  EXPECT_TRUE(has(checked("--set simulation.max_wall_seconds=7 --max-wall 2.5"),
                  "\"max_wall_seconds\": 2.5"));
  // --seed comes after every --set.
  EXPECT_TRUE(has(checked("--seed 5 --set simulation.seed=9"), "\"seed\": 5"));
  // A list value is one value, never split at its commas.
  EXPECT_TRUE(has(checked("--set 'topology.dims=[3,5]' --set=router.vcs=2"),
                  "\"dims\": [\n      3,\n      5\n    ]"));
}

TEST(CliArgs, SweepPairsKeepTheirOrderAndListValuesStayWhole) {
  const std::string d = fresh_dir("cli-pairs");
  auto grid = [&](const std::string& name, const std::string& args, std::string* header) {
    const std::string out = d + "/" + name;
    const CliResult r =
        cli("sweep " + kQuick + " " + args + " --out " + out + " --emit " + out + ".jobs");
    EXPECT_EQ(r.rc, 0) << args << ": " << r.output;
    return manifest_labels(out, header);
  };
  std::string h;
  const std::vector<std::string> want = {"[4,4]|0.1", "[4,4]|0.2", "[6,6]|0.1", "[6,6]|0.2"};
  EXPECT_EQ(grid("a",
                 "--param topology.dims --values '[4,4]' '[6,6]' --param traffic.rate "
                 "--values 0.1,0.2",
                 &h),
            want);
  EXPECT_EQ(h, "dir\tseed\tpoint\ttopology.dims\ttraffic.rate");
  // The same grid: list values in one argument, values as separate arguments, `--` ending them.
  EXPECT_EQ(grid("b",
                 "--param topology.dims --values '[4,4],[6,6]' --param traffic.rate "
                 "--values 0.1 0.2",
                 &h),
            want);
  EXPECT_EQ(grid("c",
                 "--param topology.dims --values='[4,4]' '[6,6]' --param traffic.rate "
                 "--values 0.1 0.2 --",
                 &h),
            want);
  // Swapped pairs swap the grid's order.
  EXPECT_EQ(grid("d",
                 "--param traffic.rate --values 0.1,0.2 --param topology.dims "
                 "--values '[4,4]' '[6,6]'",
                 &h),
            (std::vector<std::string>{"0.1|[4,4]", "0.1|[6,6]", "0.2|[4,4]", "0.2|[6,6]"}));
  EXPECT_EQ(h, "dir\tseed\tpoint\ttraffic.rate\ttopology.dims");
  // A --grid file's keys take its place among the --param pairs.
  const std::string file = sy::test::write_temp("cli-grid.yaml", "sweep:\n  router.vcs: [2, 3]\n");
  EXPECT_EQ(grid("e",
                 "--param traffic.rate --values 0.1 --grid " + file +
                     " --param topology.dims --values '[4,4]'",
                 &h),
            (std::vector<std::string>{"0.1|2|[4,4]", "0.1|3|[4,4]"}));
  EXPECT_EQ(h, "dir\tseed\tpoint\ttraffic.rate\trouter.vcs\ttopology.dims");
  // The emitted commands carry each point's values whole and the --set's in order.
  grid("f",
       "--set router.vcs=3 --param topology.dims --values '[4,4]' --set simulation.measure=900",
       &h);
  const std::string jobs = slurp(d + "/f.jobs");
  EXPECT_TRUE(has(jobs,
                  "--set 'router.vcs=3' --set 'simulation.measure=900' --set "
                  "'topology.dims=[4,4]'"))
      << jobs;
}

TEST(CliRun, MissingFilesAreIoErrorsNotConfigErrors) {
  const std::string missing = "/tmp/switchyard-test-no-such-file.yaml";
  for (const std::string& args :
       {"run " + missing, "run " + missing + " --quiet --out /tmp/switchyard-test-never",
        "check " + missing, "sweep " + missing + " --param traffic.rate --values 0.1"}) {
    const CliResult r = cli(args);
    EXPECT_EQ(r.rc, 1) << args << ": " << r.output;
    EXPECT_TRUE(has(r.output, "cannot open config file '" + missing + "': No such file"))
        << r.output;
    EXPECT_FALSE(has(r.output, "config error")) << r.output;
  }
  CliResult r = cli("check /tmp");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "'/tmp': it is a directory")) << r.output;
  r = cli("sweep " + kQuick + " --grid " + missing);
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "cannot open --grid file '" + missing + "'")) << r.output;
  // A file named inside the config is the config's error, at its key (exit 2).
  const std::string trace = sy::test::write_temp(
      "cli-trace.yaml",
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {type: trace, file: /tmp/switchyard-test-no-such-trace.yaml}\n");
  r = cli("run " + trace + " --quiet --out /tmp/switchyard-test-never");
  EXPECT_EQ(r.rc, 2) << r.output;
  EXPECT_TRUE(has(r.output, "config error: " + trace + ":2:")) << r.output;
  EXPECT_TRUE(has(r.output, "traffic.file")) << r.output;
}

TEST(CliRun, PrintsWhereItWroteResultsAndWaves) {
  const std::string d = fresh_dir("cli-paths");
  const std::string cfg = sy::test::write_temp(
      "cli-paths.yaml",
      std::string(kSmall) + "waves: {enable: true, to_cycle: 100, file: w/run.vcd}\n");
  CliResult r = cli("run " + cfg + " --set simulation.flows_csv=true --out " + d + "/a");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "results          " + d + "/a/results.json\n")) << r.output;
  // (The VCD goes inside the run's folder: --out, then waves.file.)
  EXPECT_TRUE(
      has(r.output, "waves            " + d + "/a/w/run.vcd  layout " + d + "/a/w/run.gtkw"))
      << r.output;
  EXPECT_TRUE(has(r.output, "per-flow latency " + d + "/a/flows.csv\n")) << r.output;
  EXPECT_FALSE(slurp(d + "/a/results.json").empty());
  EXPECT_FALSE(slurp(d + "/a/flows.csv").empty());
  EXPECT_FALSE(slurp(d + "/a/w/run.vcd").empty());
  EXPECT_FALSE(slurp(d + "/a/w/run.gtkw").empty());
  // Without waves no waves line; with --quiet nothing at all.
  r = cli("run " + sy::test::write_temp("cli-paths2.yaml", kSmall) + " --out " + d + "/b");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "results          " + d + "/b/results.json\n")) << r.output;
  EXPECT_FALSE(has(r.output, "waves ")) << r.output;
  EXPECT_FALSE(has(r.output, "per-flow")) << r.output;
  r = cli("run " + cfg + " --quiet --out " + d + "/c");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_EQ(r.output, "");
  EXPECT_FALSE(slurp(d + "/c/results.json").empty());
}

TEST(CliRun, ASecondRunWithTheSameNameSaysItReplacesTheFirst) {
  const std::string d = fresh_dir("cli-replace");
  const std::string cfg =
      sy::test::write_temp("cli-replace.yaml", "name: replace-me\n" + std::string(kSmall));
  const std::string js = d + "/out/replace-me/results.json";
  const std::string note =
      "out/replace-me/results.json holds an earlier run's results: this run "
      "replaces them (--out DIR keeps both)";
  CliResult r = cli_in(d, "run " + cfg + " --seed 11");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_FALSE(has(r.output, "earlier run")) << r.output;
  EXPECT_TRUE(has(r.output, "results          out/replace-me/results.json\n")) << r.output;
  EXPECT_TRUE(has(slurp(js), "\"seed\": 11"));
  r = cli_in(d, "run " + cfg + " --seed 12");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, note)) << r.output;
  EXPECT_TRUE(has(r.output,
                  "results          out/replace-me/results.json (replaced the earlier "
                  "run's)\n"))
      << r.output;
  EXPECT_TRUE(has(slurp(js), "\"seed\": 12"));  // replaced, as it said
  // --quiet still says it when the directory is the default one, which nobody chose ...
  r = cli_in(d, "run " + cfg + " --seed 13 --quiet");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_EQ(r.output, "switchyard: " + note + "\n");
  EXPECT_TRUE(has(slurp(js), "\"seed\": 13"));
  // ... but not when --out names it (sweep points, emitted job lines): they stay silent.
  r = cli_in(d, "run " + cfg + " --seed 14 --quiet --out out/replace-me");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_EQ(r.output, "");
  EXPECT_TRUE(has(slurp(js), "\"seed\": 14"));
  // --out elsewhere keeps both.
  r = cli_in(d, "run " + cfg + " --seed 15 --quiet --out out/replace-me-2");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(slurp(js), "\"seed\": 14"));
  EXPECT_TRUE(has(slurp(d + "/out/replace-me-2/results.json"), "\"seed\": 15"));
}

// bench --only runs the configs whose name matches; --repeat N prints the median of N runs and
// their spread (the figures themselves are the machine's: not asserted).
TEST(CliArgs, BenchRunsTheChosenConfigsAndRepeats) {
  const CliResult r = cli("bench --only hypercube --repeat 3");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "spread")) << r.output;
  EXPECT_TRUE(has(r.output, "hypercube 2^6 output-queued")) << r.output;
  EXPECT_FALSE(has(r.output, "torus 8x8")) << r.output;
  EXPECT_FALSE(has(r.output, "failed")) << r.output;
  const CliResult once = cli("bench --only 'hypercube 2^6'");
  ASSERT_EQ(once.rc, 0) << once.output;
  EXPECT_FALSE(has(once.output, "spread")) << once.output;
}

// bench --threads: the thread counts and the choice of configs are checked before anything runs
// (the scaling table itself takes minutes: measured by hand, docs/design.md).
TEST(CliArgs, BenchThreadsChecksItsArguments) {
  for (const char* bad : {"0", "65", "1,x", "2,,-1", ","}) {
    const CliResult r = cli(std::string("bench --threads '") + bad + "'");
    EXPECT_EQ(r.rc, 1) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, "--threads")) << bad << ": " << r.output;
  }
  const CliResult none = cli("bench --threads 1,2 --only hypercube");
  EXPECT_EQ(none.rc, 1) << none.output;
  EXPECT_TRUE(has(none.output, "no scaling config")) << none.output;
}

TEST(CliArgs, PeMemoryUsesTheSameKindOfCommandLine) {
  const std::string bin =
      std::string(sy::test::kBin).substr(0, std::string(sy::test::kBin).rfind('/')) + "/pe_memory";
  auto pe = [&](const std::string& args) {
    FILE* p = popen((bin + " " + args + " 2>&1").c_str(), "r");
    CliResult r{-1, ""};
    char buf[512];
    while (p && std::fgets(buf, sizeof buf, p)) r.output += buf;
    const int st = p ? pclose(p) : -1;
    r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
  };
  const std::string cfg = std::string(sy::test::kSourceDir) + "/configs/pe_memory.yaml";
  CliResult r = pe("--help");
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(has(r.output, "--pes")) << r.output;
  r = pe(cfg + " --pes 5,x");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "--pes: needs a whole number")) << r.output;
  r = pe(cfg + " --requests -1");
  EXPECT_EQ(r.rc, 1) << r.output;
  r = pe("/tmp/switchyard-test-no-such-file.yaml");
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_TRUE(has(r.output, "cannot open config file")) << r.output;
  r = pe(cfg + " --set router.vcs=x");
  EXPECT_EQ(r.rc, 2) << r.output;
  // The PEs before CONFIG, CONFIG before the other options: a run, every reply on time.
  r = pe("--pes 5,10 " + cfg + " --requests 2");
  EXPECT_EQ(r.rc, 0) << r.output;
  EXPECT_TRUE(has(r.output, "stable true")) << r.output;
}
