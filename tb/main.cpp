// switchyard: the command-line program. sc_main parses the command and runs one simulation per
// process (SystemC elaborates once); sweep and bench fork one child per point.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "config/config.hpp"
#include "sim/estimate.hpp"
#include "sim/simulation.hpp"

#ifndef SWITCHYARD_VERSION
#define SWITCHYARD_VERSION "0.1.0"
#endif

namespace {

const char* kUsage = R"(switchyard — cycle-level SystemC model of interconnection-network routers

usage:
  switchyard run CONFIG [--set key.path=value]... [--seed N] [--out DIR] [--quiet]
                 [--max-wall SECONDS]
      Runs one experiment; writes DIR/results.json (default out/<name>) and prints a summary.
      --max-wall (simulation.max_wall_seconds): stop after SECONDS of wall time with a partial
      result ("partial": true in results.json, exit 3).
  switchyard check CONFIG [--set key.path=value]...
      Validates a config and prints it fully resolved.
  switchyard sweep CONFIG --param key.path --values v1,v2,... [--jobs N] [--out DIR]
                   [--set key.path=value]... [--seed N]
      Runs one point per value (in parallel, N jobs) and writes DIR/sweep.csv, one row per point.
  switchyard bench
      Runs fixed configs and prints simulated cycles per second and flit-hops per second.
  switchyard --help | --version

exit codes: 0 ok, 1 usage or I/O error, 2 bad config, 3 run not stable (saturated/deadlocked)
            or stopped early by a limit (a partial result)
)";

struct Args {
  std::string cmd, config, out, param;
  std::vector<std::string> sets, values;
  long long seed = -1;
  int jobs = 0;
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
      a.param = need("--param");
    } else if (s == "--values") {
      a.values = split(need("--values"), ',');
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
                value.c_str(), r.stable ? "true" : "false", r.offered, r.accepted, r.rho,
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
  if (!sweep_value.empty()) {
    std::ofstream f(out + "/row.csv");
    f << csv_row(sweep_value, r) << "\n";
  }
  if (!a.quiet) {
    std::printf("switchyard run %s (%s, seed %llu) -> %s/results.json\n", a.config.c_str(),
                cfg.name.c_str(), (unsigned long long)cfg.simulation.seed, out.c_str());
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

int cmd_sweep(Args a) {
  if (a.param.empty() || a.values.empty()) usage_error("sweep needs --param and --values");
  // Validate every point before running any.
  for (const auto& v : a.values) {
    Args p = a;
    p.sets.push_back(a.param + "=" + v);
    load(p);
  }
  sy::Config base = load(a);
  const std::string out = a.out.empty() ? "out/" + base.name + "-sweep" : a.out;
  mkdirs(out);
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
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    while (static_cast<int>(running.size()) >= jobs) reap();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      Args p = a;
      p.sets.push_back(a.param + "=" + a.values[i]);
      p.out = out + "/point-" + std::to_string(i);
      p.quiet = true;
      int rc = 1;
      try {
        rc = cmd_run(p, a.values[i]);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "switchyard: point %s: %s\n", a.values[i].c_str(), e.what());
      }
      std::fflush(nullptr);
      _exit(rc);
    }
    running.push_back(pid);
  }
  while (!running.empty()) reap();
  std::ofstream csv(out + "/sweep.csv");
  csv << "param," << kCsvHeader << "\n";
  std::printf("%-14s %-7s %9s %9s %7s %10s %10s\n", a.param.c_str(), "stable", "offered",
              "accepted", "rho", "latency", "p99");
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    std::ifstream row(out + "/point-" + std::to_string(i) + "/row.csv");
    std::string line;
    if (!std::getline(row, line)) {
      std::fprintf(stderr, "switchyard: point %s produced no result\n", a.values[i].c_str());
      worst = 1;
      continue;
    }
    csv << a.param << "," << line << "\n";
    const auto f = split(line, ',');
    std::printf("%-14s %-7s %9s %9s %7s %10s %10s\n", f[0].c_str(), f[1].c_str(), f[2].c_str(),
                f[3].c_str(), f[4].c_str(), f[5].c_str(), f[8].c_str());
  }
  std::printf("-> %s/sweep.csv\n", out.c_str());
  return worst;
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
      {"torus 16x16 wormhole 2VCx4 L=8 uniform 0.1",
       "topology: {type: torus, dims: [16, 16]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 20000, seed: 1}\n"},
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
  std::printf("%-46s %12s %10s %16s %16s\n", "config", "cycles", "seconds", "cycles/s",
              "flit-hops/s");
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
    waitpid(pid, &status, 0);
    unsigned long long cycles = 0, hops = 0;
    double secs = 0;
    if (n <= 0 || std::sscanf(b, "%llu %lf %llu", &cycles, &secs, &hops) != 3) {
      std::printf("%-46s failed\n", c.name);
      continue;
    }
    std::printf("%-46s %12llu %10.3f %16.0f %16.0f\n", c.name, cycles, secs, cycles / secs,
                hops / secs);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  try {
    const Args a = parse_args(argc, argv);
    if (a.cmd == "run") return cmd_run(a);
    if (a.cmd == "check") return cmd_check(a);
    if (a.cmd == "sweep") return cmd_sweep(a);
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
