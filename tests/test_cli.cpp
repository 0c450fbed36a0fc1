// The command line end to end: determinism, sweeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "helpers.hpp"

namespace {
std::string read_without_wall(const std::string& path) {
  std::ifstream f(path);
  std::string line, out;
  while (std::getline(f, line))
    if (line.find("wall_seconds") == std::string::npos) out += line + "\n";
  return out;
}
const std::string kQuick = std::string(sy::test::kSourceDir) + "/configs/quickstart.yaml";
}  // namespace

TEST(Determinism, SameSeedSameResultsDifferentSeedDifferent) {
  const std::string sets = " --set simulation.measure=5000 --quiet";
  ASSERT_EQ(sy::test::cli("run " + kQuick + sets + " --seed 7 --out /tmp/sy-det-a").rc, 0);
  ASSERT_EQ(sy::test::cli("run " + kQuick + sets + " --seed 7 --out /tmp/sy-det-b").rc, 0);
  ASSERT_EQ(sy::test::cli("run " + kQuick + sets + " --seed 8 --out /tmp/sy-det-c").rc, 0);
  const std::string a = read_without_wall("/tmp/sy-det-a/results.json");
  EXPECT_GT(a.size(), 500u);
  EXPECT_EQ(a, read_without_wall("/tmp/sy-det-b/results.json"));
  EXPECT_NE(a, read_without_wall("/tmp/sy-det-c/results.json"));
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A CSV file as a data-frame reader takes it: the header's names, then one map per row (the
// values have no commas or quotes here except quoted list values, unquoted on reading).
struct Table {
  std::vector<std::string> names;
  std::vector<std::map<std::string, std::string>> rows;
};
std::vector<std::string> csv_line(const std::string& line) {
  std::vector<std::string> f(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      f.emplace_back();
    else
      f.back() += c;
  }
  return f;
}
Table read_table(const std::string& path) {
  Table t;
  std::ifstream f(path);
  std::string line;
  if (!std::getline(f, line)) return t;
  t.names = csv_line(line);
  while (std::getline(f, line)) {
    const auto v = csv_line(line);
    EXPECT_EQ(v.size(), t.names.size()) << path << ": " << line;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < v.size() && i < t.names.size(); ++i) row[t.names[i]] = v[i];
    t.rows.push_back(row);
  }
  return t;
}
}  // namespace

// Tidy data: one column per parameter, one row per point (sweep.csv) and per run (runs.csv),
// no column empty in every row, run folders named by their seed, a saturation estimate.
TEST(Sweep, WritesOneRowPerPoint) {
  const auto r = sy::test::cli("sweep " + kQuick +
                               " --param traffic.rate --values 0.03,0.06,0.1,0.6 --jobs 2"
                               " --set simulation.measure=3000 --out /tmp/sy-sweep");
  ASSERT_EQ(r.rc, 0) << r.output;
  const Table t = read_table("/tmp/sy-sweep/sweep.csv");
  ASSERT_EQ(t.rows.size(), 4u);
  ASSERT_GE(t.names.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(t.names.begin(), t.names.begin() + 5),
            (std::vector<std::string>{"traffic.rate", "seeds", "stable", "offered", "accepted"}));
  EXPECT_EQ(t.rows[0].at("traffic.rate"), "0.03");
  EXPECT_EQ(t.rows[0].at("stable"), "true");
  EXPECT_EQ(t.rows[2].at("traffic.rate"), "0.1");
  EXPECT_EQ(t.rows[2].at("stable"), "true");
  EXPECT_EQ(t.rows[3].at("stable"), "false");
  for (const std::string& n : t.names) {
    bool any = false;
    for (const auto& row : t.rows) any = any || !row.at(n).empty();
    EXPECT_TRUE(any) << "dead column " << n;
  }
  // (A unicast run has no broadcast or greedy columns; one seed, no seeds' interval.)
  for (const char* n : {"reception_delay_mean", "greedy_exact", "latency_mean_seeds_ci95"})
    EXPECT_EQ(std::count(t.names.begin(), t.names.end(), n), 0) << n;
  const Table runs = read_table("/tmp/sy-sweep/runs.csv");
  ASSERT_EQ(runs.rows.size(), 4u);
  EXPECT_EQ(runs.names[1], "seed");
  EXPECT_EQ(runs.rows[1].at("seed"), "1");
  EXPECT_TRUE(std::ifstream("/tmp/sy-sweep/point-1-seed-1/results.json").good());
  // Saturation: past the lowest unstable point nothing counts as stable.
  const Table sat = read_table("/tmp/sy-sweep/saturation.csv");
  ASSERT_EQ(sat.rows.size(), 1u);
  EXPECT_EQ(sat.rows[0].at("points"), "4");
  const double last = std::stod(sat.rows[0].at("offered_last_stable"));
  EXPECT_NEAR(last, std::stod(t.rows[2].at("offered")), 1e-9);
  EXPECT_GE(std::stod(sat.rows[0].at("accepted_max")), std::stod(t.rows[2].at("accepted")));
}

namespace {
// A 2 x 2 grid (one parameter list-valued) emitted as commands into DIR.jobs, run by `runner`
// (a shell command reading the file), collected into DIR: the local sweep bit for bit.
const char* kGrid =
    " --param traffic.rate --values 0.1,0.2 --param topology.dims --values '[4,4]' '[6,6]'"
    " --set simulation.measure=2000";
std::string emitted_grid_equals_local(const std::string& dir, const std::string& runner) {
  std::system(("rm -rf " + dir + " " + dir + "-local " + dir + ".jobs").c_str());
  const auto e =
      sy::test::cli("sweep " + kQuick + kGrid + " --out " + dir + " --emit " + dir + ".jobs");
  EXPECT_EQ(e.rc, 0) << e.output;
  EXPECT_EQ(std::system((runner + " < " + dir + ".jobs > /dev/null").c_str()), 0) << runner;
  const auto c = sy::test::cli("collect " + dir);
  EXPECT_EQ(c.rc, 0) << c.output;
  const auto l = sy::test::cli("sweep " + kQuick + kGrid + " --jobs 2 --out " + dir + "-local");
  EXPECT_EQ(l.rc, 0) << l.output;
  const std::string a = slurp(dir + "/sweep.csv");
  EXPECT_EQ(a, slurp(dir + "-local/sweep.csv"));
  return a;
}
}  // namespace

TEST(Sweep, GridEmittedRunThroughTheShellAndCollectedEqualsTheLocalSweep) {
  const std::string a = emitted_grid_equals_local("/tmp/sy-grid-a", "sh");
  // Read back as columns: one per parameter.
  const Table t = read_table("/tmp/sy-grid-a/sweep.csv");
  ASSERT_EQ(t.rows.size(), 4u) << a;
  EXPECT_EQ(t.names[0], "traffic.rate");
  EXPECT_EQ(t.names[1], "topology.dims");
  EXPECT_EQ(t.rows[3].at("traffic.rate"), "0.2");
  EXPECT_EQ(t.rows[3].at("topology.dims"), "[6,6]");
  EXPECT_EQ(t.rows[3].at("stable"), "true");
  // A missing run is listed and skipped, exit 1.
  std::system("rm -rf /tmp/sy-grid-a/point-1-seed-1");
  const auto m = sy::test::cli("collect /tmp/sy-grid-a");
  EXPECT_EQ(m.rc, 1);
  EXPECT_NE(m.output.find("point-1-seed-1 produced no result"), std::string::npos) << m.output;
}

// The same through GNU parallel (Debian parallel, installed by tb/deps.sh), two at a time.
TEST(Sweep, GridEmittedRunThroughGnuParallelEqualsTheLocalSweep) {
  emitted_grid_equals_local("/tmp/sy-par-a", "parallel --will-cite -j 2");
}

TEST(Sweep, SlurmArrayScriptRunsEveryTaskAndCollectsTheSameSweep) {
  // The array script run task by task as Slurm would (SLURM_ARRAY_TASK_ID = 0..n-1; a real
  // cluster runs: sbatch FILE), then collected: the local sweep bit for bit.
  const std::string sw = " --param traffic.rate --values 0.1,0.2,0.3 --set simulation.measure=2000";
  std::system("rm -rf /tmp/sy-slurm-a /tmp/sy-slurm-b /tmp/sy-slurm.sh*");
  const auto e = sy::test::cli("sweep " + kQuick + sw +
                               " --out /tmp/sy-slurm-a --emit-slurm /tmp/sy-slurm.sh");
  ASSERT_EQ(e.rc, 0) << e.output;
  const std::string script = slurp("/tmp/sy-slurm.sh");
  EXPECT_NE(script.find("#SBATCH --array=0-2"), std::string::npos) << script;
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(std::system(
                  ("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash /tmp/sy-slurm.sh").c_str()),
              0);
  ASSERT_EQ(sy::test::cli("collect /tmp/sy-slurm-a").rc, 0);
  ASSERT_EQ(sy::test::cli("sweep " + kQuick + sw + " --out /tmp/sy-slurm-b").rc, 0);
  EXPECT_EQ(slurp("/tmp/sy-slurm-a/sweep.csv"), slurp("/tmp/sy-slurm-b/sweep.csv"));
}

// What a real Slurm needs (tests/slurm/slurm_cluster.sh runs one: ctest -L long -R Slurm): an
// absolute log path and the emitting directory as the tasks' working directory, whatever
// directory sbatch is called from; a run past saturation ends its task with 0 (its job line says
// --accept-unstable: a result in a sweep, as under sweep and GNU parallel), and any other
// failure fails the task.
TEST(Sweep, SlurmArrayTaskPastSaturationEndsZeroAndAFailedRunFailsItsTask) {
  std::system("rm -rf /tmp/sy-slurm-sat /tmp/sy-slurm-sat.sh*");
  const auto e = sy::test::cli("sweep " + kQuick +
                               " --set 'topology.dims=[4,4]' --set simulation.warmup=500"
                               " --set simulation.measure=3000 --param traffic.rate"
                               " --values 0.1,0.8 --out /tmp/sy-slurm-sat"
                               " --emit-slurm /tmp/sy-slurm-sat.sh");
  ASSERT_EQ(e.rc, 0) << e.output;
  const std::string script = slurp("/tmp/sy-slurm-sat.sh");
  EXPECT_NE(script.find("\n#SBATCH --chdir=/"), std::string::npos) << script;
  EXPECT_NE(script.find("\n#SBATCH --output=/tmp/sy-slurm-sat/slurm-%A_%a.out\n"),
            std::string::npos)
      << script;
  auto task = [](int i) {
    const int st = std::system(("cd / && SLURM_ARRAY_TASK_ID=" + std::to_string(i) +
                                " bash /tmp/sy-slurm-sat.sh > /dev/null 2>&1")
                                   .c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  // The job line of point 1 (documented options only: --accept-unstable) ends 0, as its task
  // does, with the result written and saying it is unstable.
  const std::string line = slurp("/tmp/sy-slurm-sat.sh.jobs");
  EXPECT_NE(line.find(" --accept-unstable "), std::string::npos) << line;
  const int st =
      std::system("cd / && bash -c \"$(sed -n 2p /tmp/sy-slurm-sat.sh.jobs)\" > /dev/null");
  EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
  EXPECT_EQ(task(1), 0);
  EXPECT_NE(slurp("/tmp/sy-slurm-sat/point-1-seed-1/results.json").find("\"stable\": false"),
            std::string::npos);
  // A run that cannot read its config fails its task.
  std::system("sed -i 's|quickstart.yaml|no-such-config.yaml|' /tmp/sy-slurm-sat.sh.jobs");
  EXPECT_NE(task(0), 0);
  EXPECT_FALSE(std::ifstream("/tmp/sy-slurm-sat/point-0-seed-1/results.json").good());
}

TEST(Sweep, AYamlGridFileIsTheSameGridAsTheCommandLine) {
  const std::string file = sy::test::write_temp(
      "grid.yaml", "sweep:\n  traffic.rate: [0.1, 0.2]\n  topology.dims: [[4,4], [6,6]]\n");
  const std::string sets = " --set simulation.measure=2000 --jobs 2";
  ASSERT_EQ(sy::test::cli("sweep " + kQuick + " --grid " + file + sets + " --out /tmp/sy-gy").rc,
            0);
  ASSERT_EQ(sy::test::cli("sweep " + kQuick +
                          " --param traffic.rate --values 0.1,0.2 --param topology.dims"
                          " --values '[4,4]' '[6,6]'" +
                          sets + " --out /tmp/sy-gc")
                .rc,
            0);
  auto strip = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
  };
  const std::string a = strip(slurp("/tmp/sy-gy/sweep.csv"));
  EXPECT_GT(a.size(), 200u);
  EXPECT_EQ(a, strip(slurp("/tmp/sy-gc/sweep.csv")));
  // A grid file without a list names the key and line.
  const std::string bad = sy::test::write_temp("grid-bad.yaml", "sweep:\n  traffic.rate: 0.1\n");
  const auto r = sy::test::cli("sweep " + kQuick + " --grid " + bad);
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.output.find("sweep.traffic.rate (line 2) needs a list"), std::string::npos)
      << r.output;
}

TEST(Sweep, SeedsGiveMeansAndAnIntervalAcrossSeeds) {
  const auto r = sy::test::cli("sweep " + kQuick +
                               " --param traffic.rate --values 0.1 --seeds 3 --jobs 2"
                               " --set simulation.measure=2000 --out /tmp/sy-seeds");
  ASSERT_EQ(r.rc, 0) << r.output;
  const std::string csv = slurp("/tmp/sy-seeds/sweep.csv");
  EXPECT_NE(csv.find(",latency_mean_seeds_ci95,accepted_seeds_ci95\n"), std::string::npos);
  // The mean latency is the mean of the three seeds' runs (folders named by their seeds, the
  // config's 1 and the next two).
  double sum = 0;
  for (int s = 1; s <= 3; ++s)
    sum += sy::test::json_number(
        slurp("/tmp/sy-seeds/point-0-seed-" + std::to_string(s) + "/results.json"), "latency",
        "mean");
  const Table t = read_table("/tmp/sy-seeds/sweep.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].at("seeds"), "3");
  EXPECT_NEAR(std::stod(t.rows[0].at("latency_mean")), sum / 3, 1e-3 * sum);
  EXPECT_GT(std::stod(t.rows[0].at("latency_mean_seeds_ci95")), 0);
  const Table runs = read_table("/tmp/sy-seeds/runs.csv");
  ASSERT_EQ(runs.rows.size(), 3u);
  EXPECT_EQ(runs.rows[2].at("seed"), "3");
}

TEST(Configs, EveryShippedConfigPassesCheck) {
  const auto r =
      sy::test::cli("check " + std::string(sy::test::kSourceDir) + "/configs/quickstart.yaml");
  ASSERT_EQ(r.rc, 0) << r.output;
  // Every YAML under configs/ (found by the shell) must load and validate (but the technology
  // files of configs/tech/, which are read through power.tech: tests/test_power*.cpp). A config
  // of an RTL router (router.model: rtl) validates only in a build with SWITCHYARD_COSIM; in
  // another, the error that says so is its expected answer.
  const std::string cmd = "cd " + std::string(sy::test::kSourceDir) +
                          " && for f in $(find configs -name '*.yaml' -not -path 'configs/tech/*' "
                          "| sort); do " +
                          sy::test::kBin + " check $f >/dev/null 2>&1 || { " + sy::test::kBin +
                          " check $f 2>&1 | grep -q 'configure with -DSWITCHYARD_COSIM=ON' || "
                          "echo BAD $f; }; done";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  EXPECT_EQ(out, "");
}
