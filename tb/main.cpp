// switchyard: the command-line program. sc_main parses the command and runs one simulation per
// process (SystemC elaborates once); sweep and bench fork one child per point.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "switchyard/config/config.hpp"
#include "switchyard/sim/csv.hpp"
#include "switchyard/sim/estimate.hpp"
#include "switchyard/sim/simulation.hpp"

#ifndef SWITCHYARD_VERSION
#define SWITCHYARD_VERSION "0.1.0"
#endif

namespace {

using sy::csv_fields;
using sy::csv_quote;

const char* kUsage = R"(switchyard — cycle-level SystemC model of interconnection-network routers

usage:
  switchyard run CONFIG [--set key.path=value]... [--seed N] [--out DIR] [--quiet]
                 [--max-wall SECONDS]
      Runs one experiment; writes DIR/results.json (default out/<name>) and prints a summary.
      --max-wall (simulation.max_wall_seconds): stop after SECONDS of wall time with a partial
      result ("partial": true in results.json, exit 3).
  switchyard check CONFIG [--set key.path=value]...
      Validates a config and prints it fully resolved.
  switchyard sweep CONFIG (--param key.path --values v1,v2,... | --grid FILE.yaml)...
                   [--seeds N] [--jobs N] [--out DIR] [--set key.path=value]... [--seed N]
                   [--emit FILE | --emit-slurm SCRIPT]
      Runs every point of the grid (the product of the --values; a list value such as '[4,4]'
      is one argument, several may follow --values), each with N seeds (from --seed or the
      config's), in parallel, and writes DIR/sweep.csv, one row per point (means over the
      seeds with their 95% interval). --grid FILE.yaml reads the grid from
      sweep: {key.path: [v1, v2], other.key: [[4,4], [8,8]]}. --emit FILE writes one `switchyard run` command per run
      instead (for GNU parallel: parallel < FILE); --emit-slurm SCRIPT writes SCRIPT.jobs and
      a Slurm array script (sbatch SCRIPT); then collect.
  switchyard collect DIR
      Merges the runs of a sweep (DIR/manifest.tsv) into DIR/sweep.csv, listing missing ones.
  switchyard bench
      Runs fixed configs and prints simulated cycles per second and flit-hops per second.
  switchyard --help | --version

exit codes: 0 ok, 1 usage or I/O error, 2 bad config, 3 run not stable (saturated/deadlocked)
            or stopped early by a limit (a partial result)
)";

struct Args {
  std::string cmd, config, out;
  std::vector<std::string> sets;
  std::vector<std::pair<std::string, std::vector<std::string>>> params;  // sweep grid
  std::string emit, emit_slurm, row, self;
  long long seed = -1;
  int jobs = 0, seeds = 1;
  bool quiet = false;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "switchyard: %s\n(see switchyard --help)\n", msg.c_str());
  std::exit(1);
}

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, c);)
    if (!x.empty()) v.push_back(x);
  return v;
}

Args parse_args(int argc, char** argv) {
  Args a;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto need = [&](const char* what) -> std::string {
      if (i + 1 >= argc) usage_error(std::string(what) + " needs a value");
      return argv[++i];
    };
    if (s == "--help" || s == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (s == "--version") {
      std::printf("switchyard %s (SystemC %s)\n", SWITCHYARD_VERSION, sc_core::sc_release());
      std::exit(0);
    } else if (s == "--set") {
      a.sets.push_back(need("--set"));
    } else if (s == "--seed") {
      const std::string v = need("--seed");
      char* end = nullptr;
      a.seed = std::strtoll(v.c_str(), &end, 10);
      if (*end || a.seed < 0) usage_error("--seed needs a non-negative integer");
    } else if (s == "--max-wall") {
      const std::string v = need("--max-wall");
      char* end = nullptr;
      const double secs = std::strtod(v.c_str(), &end);
      if (*end || !(secs > 0)) usage_error("--max-wall needs a positive number of seconds");
      a.sets.push_back("simulation.max_wall_seconds=" + v);
    } else if (s == "--out") {
      a.out = need("--out");
    } else if (s == "--param") {
      a.params.push_back({need("--param"), {}});
    } else if (s == "--values") {
      if (a.params.empty()) usage_error("--values follows its --param");
      if (!a.params.back().second.empty())
        usage_error("--param " + a.params.back().first + " has --values already");
      // Comma-separated, or several arguments (a list value such as '[4,4]' is one).
      auto& vals = a.params.back().second;
      const std::string first = need("--values");
      if (first.find('[') != std::string::npos)
        vals.push_back(first);
      else
        for (const auto& v : split(first, ',')) vals.push_back(v);
      while (i + 1 < argc && argv[i + 1][0] != '-' &&
             std::string(argv[i + 1]).find('[') != std::string::npos)
        vals.push_back(argv[++i]);
      if (vals.empty()) usage_error("--values needs at least one value");
    } else if (s == "--grid") {
      // A YAML file: sweep: {key.path: [values...], ...}; each key a --param, in file order.
      const std::string file = need("--grid");
      YAML::Node root;
      try {
        root = YAML::LoadFile(file);
      } catch (const std::exception& e) {
        usage_error("--grid " + file + ": " + e.what());
      }
      const YAML::Node sw = root["sweep"];
      if (!sw || !sw.IsMap() || sw.size() == 0)
        usage_error("--grid " + file + ": expected a mapping sweep: {key.path: [values], ...}");
      for (const auto& kv : sw) {
        const std::string key = kv.first.as<std::string>();
        if (!kv.second.IsSequence() || kv.second.size() == 0)
          usage_error("--grid " + file + ": sweep." + key + " (line " +
                      std::to_string(kv.second.Mark().line + 1) + ") needs a list of values");
        a.params.push_back({key, {}});
        for (const auto& v : kv.second) {
          YAML::Emitter e;
          e << YAML::Flow << v;
          a.params.back().second.push_back(e.c_str());
        }
      }
    } else if (s == "--seeds") {
      a.seeds = std::atoi(need("--seeds").c_str());
      if (a.seeds < 1) usage_error("--seeds needs a positive integer");
    } else if (s == "--emit") {
      a.emit = need("--emit");
    } else if (s == "--emit-slurm") {
      a.emit_slurm = need("--emit-slurm");
    } else if (s == "--row") {
      a.row = need("--row");
    } else if (s == "--jobs") {
      a.jobs = std::atoi(need("--jobs").c_str());
      if (a.jobs < 1) usage_error("--jobs needs a positive integer");
    } else if (s == "--quiet") {
      a.quiet = true;
    } else if (!s.empty() && s[0] == '-') {
      usage_error("unknown option " + s);
    } else {
      pos.push_back(s);
    }
  }
  if (pos.empty()) usage_error("missing command");
  a.cmd = pos[0];
  if (pos.size() > 1) a.config = pos[1];
  if (pos.size() > 2) usage_error("unexpected argument " + pos[2]);
  return a;
}

void mkdirs(const std::string& path) {
  std::string cur;
  for (const auto& part : split(path, '/')) {
    cur += (cur.empty() && path[0] != '/' ? "" : "/") + part;
    if (mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
      throw std::runtime_error("cannot create directory " + cur + ": " + std::strerror(errno));
  }
}

sy::Config load(const Args& a) {
  if (a.config.empty()) usage_error(a.cmd + " needs a CONFIG file");
  std::vector<std::string> sets = a.sets;
  if (a.seed >= 0) sets.push_back("simulation.seed=" + std::to_string(a.seed));
  return sy::load_config(a.config, sets);
}

const char* kCsvHeader =
    "value,stable,offered,accepted,rho,latency_mean,latency_ci95,latency_p50,latency_p99,"
    "latency_max,network_latency_mean,link_util_mean,link_util_max,cycles,packets_measured,"
    "packet_time,reception_delay_mean,reception_delay_ci95,broadcast_delay_mean,"
    "broadcast_delay_ci95,greedy_lower,greedy_upper,greedy_exact";

std::string csv_row(const std::string& value, const sy::Results& r) {
  char b[1024];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const sy::GreedyBounds& g = r.greedy;
  std::snprintf(b, sizeof b,
                "%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%llu,%llu,%.6g,%.6g,"
                "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g",
                csv_quote(value).c_str(), r.stable ? "true" : "false", r.offered, r.accepted, r.rho,
                r.latency.mean, r.latency.ci95, r.latency.p50, r.latency.p99, r.latency.max,
                r.network_latency.mean, r.link_util_mean, r.link_util_max,
                (unsigned long long)r.cycles, (unsigned long long)r.packets_measured, r.packet_time,
                r.reception_delay.mean, r.reception_delay.ci95, r.broadcast_delay.mean,
                r.broadcast_delay.ci95, r.has_greedy ? g.lower : nan, r.has_greedy ? g.upper : nan,
                r.has_greedy && g.exact_known ? g.exact : nan);
  return b;
}

int cmd_run(const Args& a, const std::string& sweep_value = "") {
  sy::Config cfg = load(a);
  for (const auto& w : cfg.warnings) std::fprintf(stderr, "switchyard: warning: %s\n", w.c_str());
  const std::string out = a.out.empty() ? "out/" + cfg.name : a.out;
  mkdirs(out);
  sy::RunOptions opt;
  opt.progress = !a.quiet;
  if (!a.quiet)
    std::fprintf(stderr, "switchyard: estimate: %s\n", sy::estimate_run(cfg).line().c_str());
  const sy::Results r = sy::run_simulation(cfg, opt);
  {
    std::ofstream f(out + "/results.json");
    f << r.to_json();
    if (!f) throw std::runtime_error("cannot write " + out + "/results.json");
  }
  if (r.has_flows) {  // simulation.flows_csv
    std::ofstream f(out + "/flows.csv");
    r.write_flows_csv(f);
    if (!f) throw std::runtime_error("cannot write " + out + "/flows.csv");
  }
  if (!sweep_value.empty()) {
    std::ofstream f(out + "/row.csv");
    f << csv_row(sweep_value, r) << "\n";
  }
  if (!a.quiet) {
    std::printf("switchyard run %s (%s, seed %llu) -> %s/results.json\n", a.config.c_str(),
                cfg.name.c_str(), (unsigned long long)cfg.simulation.seed, out.c_str());
    if (r.has_flows) std::printf("per-flow latency -> %s/flows.csv\n", out.c_str());
    std::fputs(r.summary().c_str(), stdout);
  }
  return r.stable ? 0 : 3;
}

int cmd_check(const Args& a) {
  sy::Config cfg = load(a);
  for (const auto& w : cfg.warnings) std::fprintf(stderr, "switchyard: warning: %s\n", w.c_str());
  std::printf("%s: ok\n%s\n", a.config.c_str(), sy::config_to_json(cfg, 2).c_str());
  std::printf("estimate: %s\n", sy::estimate_run(cfg).line().c_str());
  return 0;
}

// A sweep is a grid: the cartesian product of every --param's --values, each point run with
// `seeds` consecutive seeds. Its directory holds manifest.tsv (one line per run: directory,
// seed, the point's values), each run's results.json and row.csv, and sweep.csv (one row per
// point; with several seeds the numbers are means over the seeds, with the 95% interval of the
// mean latency and accepted load across seeds). `--emit FILE` writes the runs as shell commands
// instead (for GNU parallel or a job array) and `switchyard collect DIR` merges what they wrote.
struct SweepRun {
  std::string dir, label;
  std::vector<std::string> sets;
  long long seed;
  std::size_t point;
};

std::string shell_quote(const std::string& v) {
  std::string q = "'";
  for (char c : v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int collect(const std::string& out, const std::string& param_names, bool print) {
  std::ifstream man(out + "/manifest.tsv");
  if (!man) throw std::runtime_error("no sweep in " + out + " (manifest.tsv missing)");
  std::string line;
  std::getline(man, line);  // header
  struct Row {
    std::string label;
    std::vector<std::vector<std::string>> runs;  // fields of each seed's row
  };
  std::vector<Row> rows;
  std::vector<std::string> missing;
  std::size_t last_point = static_cast<std::size_t>(-1);
  while (std::getline(man, line)) {
    const auto f = split(line, '\t');
    if (f.size() < 4) continue;
    const std::size_t point = std::stoul(f[2]);
    if (point != last_point) {
      rows.push_back({f[3], {}});
      last_point = point;
    }
    std::ifstream r(out + "/" + f[0] + "/row.csv");
    std::string rl;
    if (!std::getline(r, rl)) {
      missing.push_back(f[0]);
      continue;
    }
    rows.back().runs.push_back(csv_fields(rl));
  }
  std::ofstream csv(out + "/sweep.csv");
  const bool multi =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.runs.size() > 1; });
  csv << "param," << kCsvHeader
      << (multi ? ",seeds,latency_mean_seeds_ci95,accepted_seeds_ci95" : "") << "\n";
  if (print)
    std::printf("%-24s %-7s %9s %9s %7s %10s %10s\n", param_names.c_str(), "stable", "offered",
                "accepted", "rho", "latency", "p99");
  for (const Row& row : rows) {
    if (row.runs.empty()) continue;
    std::vector<std::string> f = row.runs.front();
    f[0] = csv_quote(row.label);
    const std::size_t n = row.runs.size();
    double lat_ci = 0, acc_ci = 0;
    if (n > 1) {
      // Means over the seeds of every numeric column; stable only if every seed was.
      for (std::size_t k = 2; k < f.size(); ++k) {
        double sum = 0;
        for (const auto& r : row.runs) sum += std::strtod(r[k].c_str(), nullptr);
        char b[64];
        std::snprintf(b, sizeof b, "%.6g", sum / n);
        f[k] = b;
      }
      for (const auto& r : row.runs)
        if (r[1] != "true") f[1] = "false";
      auto ci = [&](std::size_t k) {
        double m = 0, v = 0;
        for (const auto& r : row.runs) m += std::strtod(r[k].c_str(), nullptr);
        m /= n;
        for (const auto& r : row.runs) {
          const double x = std::strtod(r[k].c_str(), nullptr) - m;
          v += x * x;
        }
        return sy::student_t975(static_cast<int>(n - 1)) * std::sqrt(v / (n - 1) / n);
      };
      lat_ci = ci(5);
      acc_ci = ci(3);
    }
    csv << csv_quote(param_names);
    for (const auto& x : f) csv << "," << x;
    if (multi) csv << "," << n << "," << lat_ci << "," << acc_ci;
    csv << "\n";
    if (print)
      std::printf("%-24s %-7s %9s %9s %7s %10s %10s\n", row.label.c_str(), f[1].c_str(),
                  f[2].c_str(), f[3].c_str(), f[4].c_str(), f[5].c_str(), f[8].c_str());
  }
  for (const auto& m : missing)
    std::fprintf(stderr, "switchyard: %s/%s produced no result (skipped)\n", out.c_str(),
                 m.c_str());
  if (print) std::printf("-> %s/sweep.csv\n", out.c_str());
  return missing.empty() ? 0 : 1;
}

int cmd_sweep(Args a) {
  if (a.params.empty()) usage_error("sweep needs --param and --values");
  for (const auto& p : a.params)
    if (p.second.empty()) usage_error("--param " + p.first + " needs --values");
  // The grid's points, first parameter slowest.
  std::vector<std::vector<std::string>> points = {{}};
  for (const auto& p : a.params) {
    std::vector<std::vector<std::string>> next;
    for (const auto& pt : points)
      for (const auto& v : p.second) {
        next.push_back(pt);
        next.back().push_back(v);
      }
    points.swap(next);
  }
  std::string names;
  for (const auto& p : a.params) names += (names.empty() ? "" : "|") + p.first;
  sy::Config base = load(a);
  const long long seed0 = a.seed >= 0 ? a.seed : static_cast<long long>(base.simulation.seed);
  std::vector<SweepRun> runs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::string label;
    std::vector<std::string> sets;
    for (std::size_t k = 0; k < a.params.size(); ++k) {
      label += (k ? "|" : "") + points[i][k];
      sets.push_back(a.params[k].first + "=" + points[i][k]);
    }
    for (int s = 0; s < a.seeds; ++s) {
      SweepRun r;
      r.dir = "point-" + std::to_string(i) + (a.seeds > 1 ? "-seed-" + std::to_string(s) : "");
      r.label = label;
      r.sets = sets;
      r.seed = seed0 + s;
      r.point = i;
      runs.push_back(r);
    }
  }
  // Validate every point before running any.
  for (const auto& r : runs) {
    Args p = a;
    p.sets.insert(p.sets.end(), r.sets.begin(), r.sets.end());
    p.seed = r.seed;
    load(p);
  }
  const std::string out = a.out.empty() ? "out/" + base.name + "-sweep" : a.out;
  mkdirs(out);
  {
    std::ofstream man(out + "/manifest.tsv");
    man << "dir\tseed\tpoint\t" << names << "\n";
    for (const auto& r : runs)
      man << r.dir << "\t" << r.seed << "\t" << r.point << "\t" << r.label << "\n";
    if (!man) throw std::runtime_error("cannot write " + out + "/manifest.tsv");
  }
  if (!a.emit_slurm.empty() && a.emit.empty()) a.emit = a.emit_slurm + ".jobs";
  if (!a.emit.empty()) {
    // One command per run, from the current directory: `parallel < FILE`, or a job array.
    std::ofstream em(a.emit);
    const std::string self = a.self.empty() ? "switchyard" : a.self;
    for (const auto& r : runs) {
      em << shell_quote(self) << " run " << shell_quote(a.config);
      for (const auto& s : a.sets) em << " --set " << shell_quote(s);
      for (const auto& s : r.sets) em << " --set " << shell_quote(s);
      em << " --seed " << r.seed << " --quiet --row " << shell_quote(r.label) << " --out "
         << shell_quote(out + "/" + r.dir) << "\n";
    }
    if (!em) throw std::runtime_error("cannot write " + a.emit);
    if (!a.emit_slurm.empty()) {
      // A Slurm job array: task i runs line i + 1 of the jobs file (sbatch SCRIPT). The jobs
      // file holds paths relative to this directory, so every task starts here (--chdir) and
      // writes its log beside its results, wherever sbatch is called from.
      char cwd[4096];
      if (!getcwd(cwd, sizeof cwd)) throw std::runtime_error("getcwd failed");
      const std::string log_dir = out[0] == '/' ? out : std::string(cwd) + "/" + out;
      std::ofstream sl(a.emit_slurm);
      sl << "#!/bin/bash\n"
         << "#SBATCH --job-name=switchyard-sweep\n"
         << "#SBATCH --array=0-" << runs.size() - 1 << "\n"
         << "#SBATCH --ntasks=1\n"
         << "#SBATCH --chdir=" << cwd << "\n"
         << "#SBATCH --output=" << log_dir << "/slurm-%A_%a.out\n"
         << "# " << runs.size() << " runs of a switchyard sweep; then: switchyard collect " << out
         << "\n"
         << "set -euo pipefail\n"
         << "cd " << shell_quote(cwd) << "\n"
         << "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << shell_quote(a.emit) << ")\n"
         << "# exit 3: the run wrote its result and found the network unstable (as sweep does,\n"
         << "# a result, not a failed task)\n"
         << "eval \"$line\" || { rc=$?; [ \"$rc\" -eq 3 ] || exit \"$rc\"; }\n";
      if (!sl) throw std::runtime_error("cannot write " + a.emit_slurm);
      std::printf("-> %s: a Slurm array of %zu tasks (sbatch %s)\n", a.emit_slurm.c_str(),
                  runs.size(), a.emit_slurm.c_str());
    }
    std::printf("-> %s: %zu runs; then: switchyard collect %s\n", a.emit.c_str(), runs.size(),
                out.c_str());
    return 0;
  }
  const int jobs = a.jobs > 0 ? a.jobs : std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  std::fflush(nullptr);
  std::vector<pid_t> running;
  int worst = 0;
  auto reap = [&]() {
    int status = 0;
    pid_t pid = wait(&status);
    if (pid <= 0) return;
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (rc != 0 && rc != 3) worst = 1;
    for (auto it = running.begin(); it != running.end(); ++it)
      if (*it == pid) {
        running.erase(it);
        break;
      }
  };
  for (const auto& r : runs) {
    while (static_cast<int>(running.size()) >= jobs) reap();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      Args p = a;
      p.sets.insert(p.sets.end(), r.sets.begin(), r.sets.end());
      p.seed = r.seed;
      p.out = out + "/" + r.dir;
      p.quiet = true;
      int rc = 1;
      try {
        rc = cmd_run(p, r.label);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "switchyard: point %s: %s\n", r.label.c_str(), e.what());
      }
      std::fflush(nullptr);
      _exit(rc);
    }
    running.push_back(pid);
  }
  while (!running.empty()) reap();
  return std::max(worst, collect(out, names, true));
}

struct BenchCase {
  const char* name;
  const char* yaml;
};

int cmd_bench() {
  const BenchCase cases[] = {
      {"torus 8x8 wormhole 2VCx4 L=8 uniform 0.1",
       "topology: {type: torus, dims: [8, 8]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 100000, seed: 1}\n"},
      {"torus 8x8 minimal adaptive 3VCx4 L=8 unif 0.1",
       "topology: {type: torus, dims: [8, 8]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 3, vc_depth: 4}\n"
       "routing: {algorithm: minimal_adaptive}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 100000, seed: 1}\n"},
      {"torus 16x16 wormhole 2VCx4 L=8 uniform 0.1",
       "topology: {type: torus, dims: [16, 16]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 20000, seed: 1}\n"},
      {"torus 16x16x16 wormhole 2VCx4 L=8 uniform 0.1",
       "topology: {type: torus, dims: [16, 16, 16]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 500, measure: 2000, seed: 1}\n"},
      {"hypercube 2^6 output-queued L=8 uniform 0.2",
       "topology: {type: hypercube, dim: 6}\n"
       "router: {buffering: output_queued, switching: virtual_cut_through}\n"
       "traffic: {process: poisson, rate: 0.2, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 100000, seed: 1}\n"},
      {"torus 8x8x8 priority STAR broadcast rho 0.8",
       "topology: {type: torus, dims: [8, 8, 8]}\n"
       "router: {buffering: output_queued, switching: store_and_forward, priority_classes: 2}\n"
       "timing: {alpha: 0, delta: 0, tau: 1}\n"
       "traffic: {process: poisson, packet_flits: 1, broadcast: {scheme: priority_star},\n"
       "          load: {rho: 0.8, broadcast_share: 1.0}}\n"
       "simulation: {warmup: 1000, measure: 5000, seed: 1}\n"},
      {"butterfly 2-ary 8-fly OQ bit_flip rho 0.8",
       "topology: {type: butterfly, k: 2, n: 8}\n"
       "router: {buffering: output_queued, switching: store_and_forward}\n"
       "network_interface: {injection: all_port}\n"
       "timing: {alpha: 0, delta: 0, tau: 1}\n"
       "traffic: {process: poisson, packet_flits: 1, pattern: bit_flip, load: {rho: 0.8}}\n"
       "simulation: {warmup: 1000, measure: 5000, seed: 1}\n"},
      {"butterfly 2-ary 6-fly input-VC wormhole 0.3",
       "topology: {type: butterfly, k: 2, n: 6}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.3, packet_flits: 4, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 50000, seed: 1}\n"},
      {"torus 8x8 input-VC STAR broadcast rho 0.3",
       "topology: {type: torus, dims: [8, 8]}\n"
       "router: {buffering: input_vc, switching: virtual_cut_through, vcs: 8, vc_depth: 4,\n"
       "         priority_classes: 2}\n"
       "traffic: {process: poisson, packet_flits: 4, broadcast: {scheme: priority_star},\n"
       "          load: {rho: 0.3, broadcast_share: 1.0}}\n"
       "simulation: {warmup: 2000, measure: 20000, seed: 1}\n"},
  };
  std::printf("%-46s %12s %10s %16s %16s %10s\n", "config", "cycles", "seconds", "cycles/s",
              "flit-hops/s", "peak MB");
  std::fflush(stdout);
  for (const auto& c : cases) {
    int fd[2];
    if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      const sy::Config cfg = sy::parse_config(c.yaml, "<bench>");
      const sy::Results r = sy::run_simulation(cfg);
      char b[256];
      const int n = std::snprintf(b, sizeof b, "%llu %.6f %llu", (unsigned long long)r.cycles,
                                  r.wall_seconds, (unsigned long long)r.flit_hops);
      if (write(fd[1], b, n) != n) _exit(1);
      _exit(0);
    }
    close(fd[1]);
    char b[256] = {0};
    const ssize_t n = read(fd[0], b, sizeof b - 1);
    close(fd[0]);
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);  // the child's peak resident set (KB on Linux)
    unsigned long long cycles = 0, hops = 0;
    double secs = 0;
    if (n <= 0 || std::sscanf(b, "%llu %lf %llu", &cycles, &secs, &hops) != 3) {
      std::printf("%-46s failed\n", c.name);
      continue;
    }
    std::printf("%-46s %12llu %10.3f %16.0f %16.0f %10.1f\n", c.name, cycles, secs, cycles / secs,
                hops / secs, static_cast<double>(ru.ru_maxrss) / 1024.0);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  try {
    Args a = parse_args(argc, argv);
    if (a.cmd == "run") return cmd_run(a, a.row);
    if (a.cmd == "check") return cmd_check(a);
    if (a.cmd == "sweep") {
      a.self = argv[0];
      return cmd_sweep(a);
    }
    if (a.cmd == "collect") {
      if (a.config.empty()) usage_error("collect needs the sweep's DIR");
      std::ifstream man(a.config + "/manifest.tsv");
      std::string header;
      std::getline(man, header);
      const auto h = split(header, '\t');
      return collect(a.config, h.size() > 3 ? h[3] : "param", true);
    }
    if (a.cmd == "bench") return cmd_bench();
    usage_error("unknown command '" + a.cmd + "'");
  } catch (const sy::ConfigError& e) {
    std::fprintf(stderr, "switchyard: config error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "switchyard: error: %s\n", e.what());
    return 1;
  }
}

// Our own main, so the SystemC banner can be switched off before the library prints it.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
