// switchyard: the command-line program. sc_main parses the command and runs one simulation per
// process (SystemC elaborates once); sweep and bench fork one child per point.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "mpi_ranks.hpp"
#include "switchyard/base/json.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/config/keys.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/network/router_threads.hpp"
#include "switchyard/router/rtl_registry.hpp"
#include "switchyard/sim/estimate.hpp"
#include "switchyard/sim/simulation.hpp"
#include "switchyard/sim/sweep.hpp"

#ifndef SWITCHYARD_VERSION
#define SWITCHYARD_VERSION "0.1.0"
#endif

// The processes this run spans (mpirun -np N, tb/mpi_ranks.hpp); null: this one alone.
sy::Ranks* g_ranks = nullptr;

namespace {

// One parameter of a sweep grid: --param KEY --values V... (in command-line order), or a --grid
// FILE whose keys are expanded in its place once the command line is read.
struct SweepParam {
  std::string key;
  std::vector<std::string> values;
  std::string grid;  // a --grid entry: key and values come from this file
};

struct Args {
  std::string cmd, config, out;
  std::vector<std::string> sets;  // --set and --max-wall, in command-line order
  std::vector<SweepParam> params;
  std::string emit, emit_slurm, self;
  long long seed = -1;
  int jobs = 0, seeds = 1;
  int repeat = 1;       // bench: runs per config
  std::string only;     // bench: configs whose name contains this
  std::string threads;  // bench: thread counts (a scaling table)
  bool quiet = false;
  bool accept_unstable = false;  // run: exit 0 when unstable (emitted sweep jobs)
  int ranks = 0, nodes = 0;      // run --emit-slurm: the job's MPI ranks and machines
  bool json = false;             // keys: JSON instead of the table
};

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, c);)
    if (!x.empty()) v.push_back(x);
  return v;
}

// The values of one --values argument: split at the commas outside brackets, braces and quotes,
// so 0.1,0.2 is two values and [4,4] one ([4,4],[8,8] two); empty pieces are dropped.
std::vector<std::string> split_values(const std::string& s) {
  std::vector<std::string> v;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      if (!cur.empty()) v.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) v.push_back(cur);
  return v;
}

// Validators of the typed options; their messages name what is expected and what was given
// (CLI11 prefixes the option: "--jobs: needs a whole number from 1 to 65536, not '0'").
CLI::Validator whole_number(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long long x = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end || errno == ERANGE || x < lo || x > hi)
          return "needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                 ", not '" + v + "'";
        return "";
      },
      "");
}

CLI::Validator seconds_in(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !(x >= lo && x <= hi)) {
          char b[160];
          std::snprintf(b, sizeof b, "needs a number of seconds from %g to %g, not '%s'", lo, hi,
                        v.c_str());
          return b;
        }
        return "";
      },
      "");
}

const char* kExitCodes =
    "exit codes: 0 ok, 1 usage or I/O error (a file that cannot be read or written),\n"
    "            2 bad config (file:line:col: key.path: what), 3 run not stable\n"
    "            (saturated/deadlocked) or stopped early by a limit (a partial result)\n";

// An option handled as it is parsed (trigger_on_parse), so that its callback sees the command
// line in order: take(value) for each occurrence.
CLI::Option* in_order(CLI::App* c, const std::string& name,
                      std::function<void(const std::string&)> take, const std::string& help) {
  return c
      ->add_option(
          name,
          [take](const CLI::results_t& r) {
            take(r.front());
            return true;
          },
          help)
      ->trigger_on_parse();
}

// The command line, parsed by CLI11: one subcommand per command, each with its own --help.
// Options that must keep their order (--set and --max-wall; --param, --values and --grid) are
// handled as they are parsed (trigger_on_parse), so their callbacks see the command line in order.
void define_cli(CLI::App& app, Args& a) {
  app.name("switchyard");
  app.description("switchyard - cycle-level SystemC model of interconnection-network routers");
  app.set_version_flag("--version", std::string("switchyard ") + SWITCHYARD_VERSION + " (SystemC " +
                                        sc_core::sc_release() + ")");
  app.require_subcommand(1);
  app.footer(std::string("examples:\n"
                         "  switchyard run configs/quickstart.yaml --set traffic.rate=0.25\n"
                         "  switchyard sweep configs/quickstart.yaml --param traffic.rate "
                         "--values 0.05,0.1,0.2 --out out/sweep\n"
                         "  switchyard COMMAND --help      the options of one command\n\n") +
             kExitCodes);

  const long long kMaxSeed = 1LL << 62;  // simulation.seed's range
  auto config = [&](CLI::App* c, const char* what) {
    c->add_option("CONFIG", a.config, what)->required()->type_name("");
  };
  auto sets = [&](CLI::App* c) {
    in_order(
        c, "--set", [&a](const std::string& v) { a.sets.push_back(v); },
        "change a config key before validation (repeatable, applied in order)")
        ->type_name("KEY.PATH=VALUE");
    c->add_option("--seed", a.seed, "simulation.seed (after every --set)")
        ->type_name("N")
        ->check(whole_number(0, kMaxSeed));
    in_order(
        c, "--max-wall",
        [&a](const std::string& v) { a.sets.push_back("simulation.max_wall_seconds=" + v); },
        "simulation.max_wall_seconds: stop after SECONDS of wall time with a partial result "
        "(exit 3)")
        ->check(seconds_in(1e-3, 1e9))
        ->type_name("SECONDS");
  };

  CLI::App* run = app.add_subcommand("run", "Runs one experiment");
  run->footer(
      "Writes DIR/results.json (default out/<name>, <name> the config's name) and prints a\n"
      "summary, the results.json path and, with waves on, the VCD and .gtkw paths; a progress\n"
      "line on stderr every few seconds for long runs. A results.json already in DIR is\n"
      "replaced, and said so on stderr (--out DIR keeps both). --quiet prints nothing but\n"
      "errors and warnings (a replaced results.json in the default directory is a warning).\n\n" +
      std::string(kExitCodes));
  config(run, "the experiment (YAML)");
  sets(run);
  run->add_option("--out", a.out, "the output directory (default out/<name>)")->type_name("DIR");
  run->add_flag("--quiet", a.quiet, "no estimate, progress, summary or paths");
  run->add_flag("--accept-unstable", a.accept_unstable,
                "exit 0 when the run finds the network unstable (a sweep's point: a result; the "
                "results say stable: false)");
  run->add_option("--emit-slurm", a.emit_slurm,
                  "write a Slurm batch script that runs this experiment across --ranks MPI "
                  "processes (sbatch SCRIPT) instead of running it")
      ->type_name("SCRIPT");
  run->add_option("--ranks", a.ranks, "--emit-slurm: MPI ranks (Slurm tasks), 1 to 255")
      ->type_name("N")
      ->check(CLI::Range(1, 255));
  run->add_option("--nodes", a.nodes,
                  "--emit-slurm: machines to spread the ranks over (Slurm "
                  "--nodes; default: Slurm's choice)")
      ->type_name("M")
      ->check(CLI::Range(1, 255));

  CLI::App* check = app.add_subcommand("check", "Validates a config and prints it fully resolved");
  check->footer(kExitCodes);
  config(check, "the experiment (YAML)");
  sets(check);

  CLI::App* sweep = app.add_subcommand("sweep", "Runs every point of a parameter grid");
  sweep->footer(
      "The grid is the product of every --param's --values (first parameter slowest); each\n"
      "point runs with --seeds consecutive seeds (from --seed or the config's), --jobs at a\n"
      "time, and DIR/sweep.csv gets one row per point (means over the seeds and their 95%\n"
      "interval). --values takes comma-separated values (0.1,0.2) or several arguments; a list\n"
      "value is one argument ('[4,4]' '[8,8]', or '[4,4],[8,8]'). --grid FILE.yaml reads\n"
      "sweep: {key.path: [v1, v2], other.key: [[4,4], [8,8]]}, one parameter per key in file\n"
      "order. --emit FILE writes one `switchyard run` command per run instead (GNU parallel:\n"
      "parallel < FILE); --emit-slurm SCRIPT writes SCRIPT.jobs and a Slurm array script\n"
      "(sbatch SCRIPT); then: switchyard collect DIR.\n\n" +
      std::string(kExitCodes));
  // Not required() here but checked by cmd_sweep: --values takes every argument up to the next
  // option, and a required positional would make CLI11 leave one argument for it only when it is
  // the last one (a later --values' last value would become CONFIG).
  sweep->add_option("CONFIG", a.config, "the base experiment (YAML), first")->type_name("");
  in_order(
      sweep, "--param",
      [&a](const std::string& v) {
        a.params.push_back({v, {}, ""});
      },
      "a key to sweep; its --values follow it (repeatable: a grid)")
      ->type_name("KEY.PATH");
  sweep
      ->add_option(
          "--values",
          [&a](const CLI::results_t& r) {
            if (a.params.empty() || !a.params.back().grid.empty())
              throw CLI::ValidationError("--values", "follows its --param KEY.PATH");
            SweepParam& p = a.params.back();
            if (!p.values.empty())
              throw CLI::ValidationError("--values", "--param " + p.key + " has --values already");
            for (const auto& arg : r)
              for (auto& v : split_values(arg)) p.values.push_back(std::move(v));
            if (p.values.empty())
              throw CLI::ValidationError("--values", "--param " + p.key + " needs a value");
            return true;
          },
          "the values of the --param before it")
      ->type_name("V1,V2,... | V...")
      // Every argument up to the next option (or --), each kept whole: a bounded count, not
      // allow_extra_args, with which CLI11 reads '[4,4]' as its own list syntax (two values).
      ->expected(1, 1 << 20)
      ->trigger_on_parse();
  in_order(
      sweep, "--grid",
      [&a](const std::string& v) {
        a.params.push_back({"", {}, v});
      },
      "the grid from a YAML file (may be combined with --param)")
      ->type_name("FILE.yaml");
  sweep->add_option("--seeds", a.seeds, "runs per point, with consecutive seeds")
      ->type_name("N")
      ->check(whole_number(1, 1000000));
  sweep->add_option("--jobs", a.jobs, "runs at a time (default: the cores)")
      ->type_name("N")
      ->check(whole_number(1, 1 << 16));
  sweep->add_option("--out", a.out, "the sweep's directory (default out/<name>-sweep)")
      ->type_name("DIR");
  sets(sweep);
  sweep->add_option("--emit", a.emit, "write the runs as shell commands instead of running them")
      ->type_name("FILE");
  sweep
      ->add_option("--emit-slurm", a.emit_slurm,
                   "write a Slurm array script (and SCRIPT.jobs) instead of running them")
      ->type_name("SCRIPT");

  CLI::App* collect = app.add_subcommand(
      "collect", "Merges the runs of an emitted sweep (DIR/manifest.tsv) into DIR/sweep.csv");
  collect->footer("Lists (and skips, exit 1) the runs that wrote nothing.\n\n" +
                  std::string(kExitCodes));
  collect->add_option("DIR", a.config, "the sweep's directory")->required()->type_name("");

  CLI::App* bench =
      app.add_subcommand("bench", "Runs fixed configs; prints simulated cycles/s and flit-hops/s");
  bench->footer(
      "Each run is a child process; its wall time is the simulation's (not elaboration's). On a\n"
      "shared machine the figures of one config can differ by 2x from run to run: --repeat N\n"
      "prints the median of N runs and their spread (max - min over the median).\n\n" +
      std::string(kExitCodes));
  bench->add_option("--repeat", a.repeat, "run each config N times; print the median and spread")
      ->type_name("N")
      ->check(whole_number(1, 100));
  bench->add_option("--only", a.only, "only the configs whose name contains TEXT")
      ->type_name("TEXT");
  bench
      ->add_option("--threads", a.threads,
                   "a scaling table instead: the large tori on each of these thread counts "
                   "(simulation.threads), with the CPU time and the speed-up over the first "
                   "count (16x16x16 also on the staged 5-stage pipeline); 16x16x16x16 "
                   "(65,536 routers) only when --only names it")
      ->type_name("N,N,...");

  CLI::App* keys = app.add_subcommand(
      "keys", "Lists every config key: type, default, allowed values and meaning");
  keys->footer(
      "The keys are those the config parser reads (every branch of it), in the order it reads\n"
      "them; list elements are written key[].field. PREFIX keeps one section or key\n"
      "(switchyard keys router, switchyard keys traffic.broadcast).\n\n" +
      std::string(kExitCodes));
  keys->add_option("PREFIX", a.config, "only the keys under this section or key")->type_name("");
  keys->add_flag("--json", a.json, "a JSON array instead of the table");
}

void mkdirs(const std::string& path) {
  std::string cur;
  for (const auto& part : split(path, '/')) {
    cur += (cur.empty() && path[0] != '/' ? "" : "/") + part;
    if (mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
      throw std::runtime_error("cannot create directory " + cur + ": " + std::strerror(errno));
  }
}

// A command line that parses but asks for something impossible (exit 1, like a parse error).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file the user named on the command line must be readable: otherwise an I/O error (exit 1),
// not a config error. Files a config names (traces, matrices) stay config errors at their key.
void require_readable(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error("cannot read " + what + " '" + path + "': it is a directory");
  std::ifstream f(path);
  if (!f)
    throw std::runtime_error("cannot open " + what + " '" + path + "': " + std::strerror(errno));
}

sy::Config load(const Args& a) {
  require_readable(a.config, "config file");
  std::vector<std::string> sets = a.sets;
  if (a.seed >= 0) sets.push_back("simulation.seed=" + std::to_string(a.seed));
  return sy::load_config(a.config, sets);
}

void print_warnings(const sy::Config& cfg) {
  for (const auto* list : {&cfg.warnings, &cfg.execution_warnings})
    for (const auto& w : *list) std::fprintf(stderr, "switchyard: warning: %s\n", w.c_str());
}

// One experiment. Its results go to DIR/results.json (default out/<name>); a results.json already
// there (an earlier run of this config, or of another with the same name) is replaced, and the
// run says so before it starts: on stderr unless --quiet, and even with --quiet when DIR is the
// default one (nobody chose it; --out DIR keeps both). Sweep points and emitted job lines pass
// --out and --quiet: they stay silent. The paths written are printed after the summary.
// run --emit-slurm SCRIPT --ranks N [--nodes M]: a Slurm batch script that runs this experiment
// as one network across N MPI ranks (mpirun inside the allocation; Open MPI takes the ranks and
// machines from Slurm), writing where `run` would. The config is checked here, and so is that it
// can run across ranks.
int emit_run_slurm(const Args& a) {
  if (a.ranks < 1) throw UsageError("--emit-slurm needs --ranks N (the MPI processes)");
  sy::Config cfg = load(a);
  print_warnings(cfg);
  if (a.ranks > 1) {
    const std::string why = sy::ranks_refusal(cfg);
    if (!why.empty())
      throw sy::ConfigError(cfg.source + ": cannot run across " + std::to_string(a.ranks) +
                            " ranks: " + why);
  }
  const std::string out = a.out.empty() ? "out/" + cfg.name : a.out;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) throw std::runtime_error("getcwd failed");
  sy::refuse_control_characters("the current directory", cwd);
  sy::refuse_control_characters("--out", out);
  const std::string log_dir = out[0] == '/' ? out : std::string(cwd) + "/" + out;
  mkdirs(out);
  std::ostringstream cmd;
  // Threads in each rank (simulation.threads): each rank gets that many cores of the allocation
  // (Open MPI binds a rank to one core otherwise, when -np is 2 or less).
  const int threads = cfg.simulation.threads;
  cmd << "mpirun -np " << a.ranks;
  if (threads > 1) cmd << " --map-by slot:PE=" << threads;
  cmd << " " << sy::shell_quote(a.self.empty() ? "switchyard" : a.self) << " run "
      << sy::shell_quote(a.config);
  for (const auto& s : a.sets) cmd << " --set " << sy::shell_quote(s);
  if (a.seed >= 0) cmd << " --seed " << a.seed;
  cmd << " --quiet --accept-unstable --out " << sy::shell_quote(out);
  std::ostringstream sl;
  sl << "#!/bin/bash\n"
     << "#SBATCH --job-name=switchyard-run\n"
     << "#SBATCH --ntasks=" << a.ranks << "\n";
  if (a.nodes) sl << "#SBATCH --nodes=" << a.nodes << "\n";
  if (threads > 1) sl << "#SBATCH --cpus-per-task=" << threads << "\n";
  sl << "#SBATCH --chdir=" << cwd << "\n"
     << "#SBATCH --output=" << log_dir << "/slurm-%j.out\n"
     << "# One network across " << a.ranks << " MPI ranks (switchyard run; results.json as from "
     << "one process)\n"
     << "set -euo pipefail\n"
     << "cd " << sy::shell_quote(cwd) << "\n"
     << cmd.str() << "\n";
  sy::write_file(a.emit_slurm, sl.str());
  std::printf("-> %s: one run across %d ranks (sbatch %s); results in %s\n", a.emit_slurm.c_str(),
              a.ranks, a.emit_slurm.c_str(), (out + "/results.json").c_str());
  return 0;
}

// Across ranks (mpirun -np N): every rank runs the network's share it owns; rank 0 alone
// prints and writes (the others' results are the same).
int cmd_run(const Args& a) {
  const bool lead = !g_ranks || g_ranks->rank() == 0;
  if (!a.emit_slurm.empty()) return emit_run_slurm(a);
  if (a.ranks || a.nodes)
    throw UsageError(
        "--ranks and --nodes go with --emit-slurm (to run across ranks now: "
        "mpirun -np N switchyard run ...)");
  sy::Config cfg = load(a);
  // A config the ranks cannot split (ranks_refusal) runs on rank 0 alone, as a config that
  // threads cannot split runs on one thread: the same results, and a warning.
  sy::Ranks* ranks = g_ranks;
  if (g_ranks) {
    const std::string why = sy::ranks_refusal(cfg);
    if (!why.empty()) {
      if (!lead) return 0;
      cfg.execution_warnings.push_back("mpirun -np " + std::to_string(g_ranks->size()) +
                                       ": runs on one process (rank 0; the others idle): " + why);
      ranks = nullptr;
    }
  }
  // Threads on fewer cores than threads wait for each other at every step (mpirun binds a rank
  // to one core when -np is 2 or less, Open MPI's default).
  const int cores = sy::usable_cores();
  if (cfg.simulation.threads > 1 && cores < cfg.simulation.threads)
    cfg.execution_warnings.push_back(
        "simulation.threads = " + std::to_string(cfg.simulation.threads) + " on " +
        std::to_string(cores) +
        " core(s) this process may use (its affinity): the threads take turns; under mpirun "
        "give each rank its cores (Open MPI: --bind-to none, or --map-by slot:PE=" +
        std::to_string(cfg.simulation.threads) + ")");
  if (lead) print_warnings(cfg);
  const bool default_out = a.out.empty();
  const std::string out = default_out ? "out/" + cfg.name : a.out;
  const std::string results = out + "/results.json";
  if (lead) mkdirs(out);
  std::error_code ec;
  const bool replaces = lead && std::filesystem::exists(results, ec);
  if (replaces && (!a.quiet || default_out))
    std::fprintf(stderr,
                 "switchyard: %s holds an earlier run's results: this run replaces them "
                 "(--out DIR keeps both)\n",
                 results.c_str());
  sy::RunOptions opt;
  opt.progress = !a.quiet && lead;
  opt.out_dir = out;
  opt.ranks = ranks;
  std::string vcd, gtkw;
  opt.attach = [&](sy::Network& net) {
    if (net.waves()) {
      vcd = net.waves()->vcd_path();
      gtkw = net.waves()->gtkw_path();
    }
  };
  if (!a.quiet && lead)
    std::fprintf(stderr, "switchyard: estimate: %s\n", sy::estimate_run(cfg).line().c_str());
  const sy::Results r = sy::run_simulation(cfg, opt);
  if (!lead) return r.stable || a.accept_unstable ? 0 : 3;
  sy::write_file(results, r.to_json());
  if (r.has_flows) {  // simulation.flows_csv
    std::ostringstream f;
    r.write_flows_csv(f);
    sy::write_file(out + "/flows.csv", f.str());
  }
  // (A sweep's runs.csv and sweep.csv are made of these.)
  sy::write_file(out + "/row.csv", sy::Results::csv_header() + "\n" + r.csv_row() + "\n");
  if (!a.quiet) {
    std::printf("switchyard run %s (%s, seed %llu)%s\n", a.config.c_str(), cfg.name.c_str(),
                (unsigned long long)cfg.simulation.seed,
                ranks ? (" across " + std::to_string(ranks->size()) + " ranks").c_str() : "");
    std::fputs(r.summary().c_str(), stdout);
    std::printf("results          %s%s\n", results.c_str(),
                replaces ? " (replaced the earlier run's)" : "");
    if (r.has_flows) std::printf("per-flow latency %s/flows.csv\n", out.c_str());
    if (!vcd.empty())
      std::printf("waves            %s  layout %s  (gtkwave %s %s)\n", vcd.c_str(), gtkw.c_str(),
                  vcd.c_str(), gtkw.c_str());
  }
  return r.stable || a.accept_unstable ? 0 : 3;
}

// switchyard keys [PREFIX] [--json]: the keys the parser reads (config/keys.hpp). A listing that
// disagrees with the parser's schema (a key without a meaning) is a program error, exit 1.
int cmd_keys(const Args& a) {
  const sy::ConfigKeys all = sy::config_keys();
  if (!all.problems.empty()) {
    std::string msg = "the key listing is not the parser's:";
    for (const std::string& p : all.problems) msg += "\n  " + p;
    throw std::runtime_error(msg);
  }
  const std::vector<sy::ConfigKey> keys = sy::keys_under(all.keys, a.config);
  if (keys.empty()) {
    std::string sections;
    for (const sy::ConfigKey& k : all.keys)
      if (k.path.find('.') == std::string::npos)
        sections += (sections.empty() ? "" : ", ") + k.path;
    throw UsageError("no config key is '" + a.config + "' or under it (top level: " + sections +
                     ")");
  }
  std::fputs((a.json ? sy::keys_json(keys) : sy::keys_table(keys)).c_str(), stdout);
  return 0;
}

int cmd_check(const Args& a) {
  sy::Config cfg = load(a);
  print_warnings(cfg);
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

// The keys of a --grid file, each a parameter in file order:
// sweep: {key.path: [values...], ...}. A file that cannot be read is an I/O error; one that is
// not such a mapping is a usage error naming the key and line (both exit 1).
std::vector<SweepParam> read_grid(const std::string& file) {
  require_readable(file, "--grid file");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const std::exception& e) {
    throw UsageError("--grid " + file + ": " + e.what());
  }
  const YAML::Node sw = root["sweep"];
  if (!sw || !sw.IsMap() || sw.size() == 0)
    throw UsageError("--grid " + file + ": expected a mapping sweep: {key.path: [values], ...}");
  std::vector<SweepParam> params;
  for (const auto& kv : sw) {
    const std::string key = kv.first.as<std::string>();
    if (!kv.second.IsSequence() || kv.second.size() == 0)
      throw UsageError("--grid " + file + ": sweep." + key + " (line " +
                       std::to_string(kv.second.Mark().line + 1) + ") needs a list of values");
    params.push_back({key, {}, ""});
    for (const auto& v : kv.second) {
      YAML::Emitter e;
      e << YAML::Flow << v;
      params.back().values.push_back(e.c_str());
    }
  }
  return params;
}

int cmd_sweep(Args a) {
  if (a.config.empty()) {
    // CONFIG after --values is read as one of its values: say so when a value is a file.
    std::string taken;
    for (const auto& p : a.params)
      for (const auto& v : p.values) {
        std::error_code ec;
        if (taken.empty() && std::filesystem::is_regular_file(v, ec))
          taken = " ('" + v + "' was read as a value of --param " + p.key +
                  ": --values takes every argument up to the next option; put CONFIG first, "
                  "or end the values with --)";
      }
    throw UsageError("CONFIG is required" + taken);
  }
  {
    std::vector<SweepParam> flat;  // --grid entries replaced by their keys, in place
    for (const auto& p : a.params) {
      if (p.grid.empty()) {
        flat.push_back(p);
        continue;
      }
      for (auto& g : read_grid(p.grid)) flat.push_back(std::move(g));
    }
    a.params.swap(flat);
  }
  if (a.params.empty())
    throw UsageError("sweep needs --param KEY.PATH --values ... or --grid FILE");
  // Every key once, every value and path on one line, a grid of a size that can be run.
  constexpr double kMaxRuns = 100000;
  double grid_runs = a.seeds;
  for (std::size_t i = 0; i < a.params.size(); ++i) {
    const SweepParam& p = a.params[i];
    if (p.values.empty()) throw UsageError("--param " + p.key + " needs --values");
    for (std::size_t j = 0; j < i; ++j)
      if (a.params[j].key == p.key)
        throw UsageError("sweep parameter " + p.key + " is given twice (--param or --grid)");
    sy::refuse_control_characters("sweep parameter '" + p.key + "'", p.key);
    for (const auto& v : p.values)
      sy::refuse_control_characters("a value of sweep parameter " + p.key, v);
    grid_runs *= static_cast<double>(p.values.size());
  }
  if (grid_runs > kMaxRuns)
    throw UsageError("the grid has " + sy::Json::number(grid_runs) +
                     " runs (the product of the parameters' value counts and the seeds): more "
                     "than " +
                     sy::Json::number(kMaxRuns) + "; split it into several sweeps");
  for (const auto& v : a.sets) sy::refuse_control_characters("--set " + v, v);
  for (const std::string* path : {&a.out, &a.config, &a.emit, &a.emit_slurm, &a.self})
    sy::refuse_control_characters("the path '" + *path + "'", *path);
  // The grid's points, first parameter slowest.
  std::vector<std::vector<std::string>> points = {{}};
  for (const auto& p : a.params) {
    std::vector<std::vector<std::string>> next;
    for (const auto& pt : points)
      for (const auto& v : p.values) {
        next.push_back(pt);
        next.back().push_back(v);
      }
    points.swap(next);
  }
  sy::Config base = load(a);
  const long long seed0 = a.seed >= 0 ? a.seed : static_cast<long long>(base.simulation.seed);
  std::vector<SweepRun> runs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::string label;
    std::vector<std::string> sets;
    for (std::size_t k = 0; k < a.params.size(); ++k) {
      label += (k ? " " : "") + a.params[k].key + "=" + points[i][k];
      sets.push_back(a.params[k].key + "=" + points[i][k]);
    }
    for (int s = 0; s < a.seeds; ++s) {
      SweepRun r;
      // (Named by the run's own seed: the folder says which seed made it.)
      r.dir = "point-" + std::to_string(i) + "-seed-" + std::to_string(seed0 + s);
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
    std::ostringstream man;
    // One column per parameter (tidy: runs.csv and sweep.csv take them as columns).
    man << "dir\tseed\tpoint";
    for (const auto& p : a.params) man << "\t" << p.key;
    man << "\n";
    for (const auto& r : runs) {
      man << r.dir << "\t" << r.seed << "\t" << r.point;
      for (const auto& v : points[r.point]) man << "\t" << v;
      man << "\n";
    }
    sy::write_file(out + "/manifest.tsv", man.str());
  }
  if (!a.emit_slurm.empty() && a.emit.empty()) a.emit = a.emit_slurm + ".jobs";
  if (!a.emit.empty()) {
    // One command per run, from the current directory: `parallel < FILE`, or a job array.
    std::ostringstream em;
    const std::string self = a.self.empty() ? "switchyard" : a.self;
    for (const auto& r : runs) {
      em << sy::shell_quote(self) << " run " << sy::shell_quote(a.config);
      for (const auto& s : a.sets) em << " --set " << sy::shell_quote(s);
      for (const auto& s : r.sets) em << " --set " << sy::shell_quote(s);
      em << " --seed " << r.seed << " --quiet --accept-unstable --out "
         << sy::shell_quote(out + "/" + r.dir) << "\n";
    }
    sy::write_file(a.emit, em.str());
    if (!a.emit_slurm.empty()) {
      // A Slurm job array: task i runs line i + 1 of the jobs file (sbatch SCRIPT). The jobs
      // file holds paths relative to this directory, so every task starts here (--chdir) and
      // writes its log beside its results, wherever sbatch is called from.
      char cwd[4096];
      if (!getcwd(cwd, sizeof cwd)) throw std::runtime_error("getcwd failed");
      sy::refuse_control_characters("the current directory", cwd);
      const std::string log_dir = out[0] == '/' ? out : std::string(cwd) + "/" + out;
      // (#SBATCH lines take no shell quoting: the paths are checked above to be one line.)
      std::ostringstream sl;
      sl << "#!/bin/bash\n"
         << "#SBATCH --job-name=switchyard-sweep\n"
         << "#SBATCH --array=0-" << runs.size() - 1 << "\n"
         << "#SBATCH --ntasks=1\n"
         << "#SBATCH --chdir=" << cwd << "\n"
         << "#SBATCH --output=" << log_dir << "/slurm-%A_%a.out\n"
         << "# " << runs.size() << " runs of a switchyard sweep; then: switchyard collect "
         << sy::shell_quote(out) << "\n"
         << "set -euo pipefail\n"
         << "cd " << sy::shell_quote(cwd) << "\n"
         << "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << sy::shell_quote(a.emit) << ")\n"
         << "# (an unstable point is a result: the run says so in its results and exits 0,\n"
         << "# --accept-unstable, as under sweep and GNU parallel)\n"
         << "eval \"$line\"\n";
      sy::write_file(a.emit_slurm, sl.str());
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
        rc = cmd_run(p);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "switchyard: point %s: %s\n", r.label.c_str(), e.what());
      }
      std::fflush(nullptr);
      _exit(rc);
    }
    running.push_back(pid);
  }
  while (!running.empty()) reap();
  return std::max(worst, sy::collect_sweep(out, true));
}

struct BenchCase {
  const char* name;
  const char* yaml;
  bool rtl = false;  // router.model rtl: only in a build with the RTL routers (SWITCHYARD_COSIM)
};

struct BenchRun {
  bool ok = false;
  unsigned long long cycles = 0, hops = 0;
  double seconds = 0, peak_mb = 0;
  double cpu_seconds = 0;  // the child's user + system time (elaboration included)
};

// One run of a bench config in a child process (SystemC elaborates once per process).
BenchRun bench_once(const char* yaml) {
  BenchRun out;
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const sy::Config cfg = sy::parse_config(yaml, "<bench>");
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
  out.ok = n > 0 && std::sscanf(b, "%llu %lf %llu", &out.cycles, &out.seconds, &out.hops) == 3;
  out.peak_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  out.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                    1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  return out;
}

// `repeat` runs of a bench config: the median run by wall time (the lower middle one for an even
// count) with the largest peak memory of all, and the spread of the wall times (max - min over
// the median; "" for one run) in `spread`. False when a run failed.
bool bench_median(const char* yaml, int repeat, BenchRun& median, std::string& spread) {
  std::vector<BenchRun> runs;
  for (int i = 0; i < repeat; ++i) {
    const BenchRun r = bench_once(yaml);
    if (!r.ok) return false;
    runs.push_back(r);
  }
  std::sort(runs.begin(), runs.end(),
            [](const BenchRun& x, const BenchRun& y) { return x.seconds < y.seconds; });
  median = runs[(runs.size() - 1) / 2];
  for (const BenchRun& r : runs) median.peak_mb = std::max(median.peak_mb, r.peak_mb);
  char b[32] = "";
  if (repeat > 1)
    std::snprintf(b, sizeof b, " %7.0f%%",
                  100.0 * (runs.back().seconds - runs.front().seconds) / median.seconds);
  spread = b;
  return true;
}

// bench --threads: each scaling config on each thread count, --repeat runs each; the median run
// by wall time, its CPU time (all threads, elaboration included), and the speed-up over the same
// config on the first thread count.
int bench_threads(const Args& a) {
  std::vector<int> counts;
  for (const std::string& x : split(a.threads, ',')) {
    char* end = nullptr;
    const long v = std::strtol(x.c_str(), &end, 10);
    if (end == x.c_str() || *end != '\0' || v < 1 || v > 64)
      throw UsageError("bench --threads: '" + x + "' is not a thread count from 1 to 64");
    counts.push_back(static_cast<int>(v));
  }
  if (counts.empty()) throw UsageError("bench --threads: no thread count given");
  struct Scaling {
    const char* name;
    const char* dims;
    int warmup, measure;
    const char* on_request;  // run only when --only contains this (null: always)
    const char* pipeline;    // router.pipeline (null: the ideal one)
  };
  const auto selected = [&a](const char* name, const char* on_request) {
    return std::string(name).find(a.only) != std::string::npos &&
           (!on_request || a.only.find(on_request) != std::string::npos);
  };
  const Scaling cases[] = {
      {"torus 16x16x16 uniform 0.1", "[16, 16, 16]", 500, 2000, nullptr, nullptr},
      {"torus 32x32x32 uniform 0.1", "[32, 32, 32]", 300, 1000, nullptr, nullptr},
      {"torus 16x16x16x16 uniform 0.1", "[16, 16, 16, 16]", 300, 1000, "16x16x16x16", nullptr},
      {"torus 16x16x16 staged 5-stage 0.1", "[16, 16, 16]", 500, 1000, nullptr,
       "{rc: 1, va: 1, sa: 1, st: 1, lt: 1}"},
  };
  bool any = false;
  for (const auto& c : cases) any |= selected(c.name, c.on_request);
  if (!any) throw UsageError("bench --only: no scaling config's name contains '" + a.only + "'");
  std::printf("%-32s %7s %8s %9s %9s %11s %8s %7s %8s%s\n", "config (2VCx4, L=8)", "threads",
              "cycles", "wall s", "CPU s", "cycles/s", "speed-up", "effic.", "peak MB",
              a.repeat > 1 ? "   spread" : "");
  std::fflush(stdout);
  for (const auto& c : cases) {
    if (!selected(c.name, c.on_request)) continue;
    double first_rate = 0;  // cycles/s on the first thread count
    for (const int k : counts) {
      const std::string yaml =
          std::string("topology: {type: torus, dims: ") + c.dims + "}\n" +
          "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4" +
          (c.pipeline ? std::string(", pipeline: ") + c.pipeline : std::string()) +
          "}\n"
          "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
          "simulation: {warmup: " +
          std::to_string(c.warmup) + ", measure: " + std::to_string(c.measure) +
          ", seed: 1, threads: " + std::to_string(k) + "}\n";
      BenchRun m;
      std::string spread;
      if (!bench_median(yaml.c_str(), a.repeat, m, spread)) {
        std::printf("%-32s %7d failed\n", c.name, k);
        continue;
      }
      const double rate = m.cycles / m.seconds;
      if (first_rate == 0) first_rate = rate;
      const double speedup = rate / first_rate;
      std::printf("%-32s %7d %8llu %9.3f %9.3f %11.1f %7.2fx %6.0f%% %8.1f%s\n", c.name, k,
                  m.cycles, m.seconds, m.cpu_seconds, rate, speedup,
                  100.0 * speedup * counts.front() / k, m.peak_mb, spread.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}

int cmd_bench(const Args& a) {
  if (!a.threads.empty()) return bench_threads(a);
  const BenchCase cases[] = {
      {"torus 8x8 wormhole 2VCx4 L=8 uniform 0.1",
       "topology: {type: torus, dims: [8, 8]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 100000, seed: 1}\n"},
      {"torus 8x8 as the first, power on (45 nm)",
       "topology: {type: torus, dims: [8, 8]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 2000, measure: 100000, seed: 1}\n"
       "power: {tech: 45nm}\n"},
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
      {"torus 16x16x16 as above, simulation.threads 2",
       "topology: {type: torus, dims: [16, 16, 16]}\n"
       "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\n"
       "simulation: {warmup: 500, measure: 2000, seed: 1, threads: 2}\n"},
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
      // The C++ staged router beside the Verilated RTL router (rtl/README.md, "Speed"): the
      // same 8x8 mesh, the same cycles and flits (cycle-identical), so the cycles/s compare.
      {"mesh 8x8 staged 2VCx4 L=4 uniform 0.1",
       "topology: {type: mesh, dims: [8, 8]}\n"
       "router: {buffering: input_vc, vcs: 2, vc_depth: 4,\n"
       "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 4, pattern: uniform}\n"
       "simulation: {warmup: 1000, measure: 10000, seed: 5}\n"},
      {"mesh 8x8 as above, router.model rtl",
       "topology: {type: mesh, dims: [8, 8]}\n"
       "router: {buffering: input_vc, vcs: 2, vc_depth: 4, model: rtl,\n"
       "         pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 1}}\n"
       "traffic: {process: bernoulli, rate: 0.1, packet_flits: 4, pattern: uniform}\n"
       "simulation: {warmup: 1000, measure: 10000, seed: 5}\n",
       true},
  };
  bool any = false;
  for (const auto& c : cases) any |= std::string(c.name).find(a.only) != std::string::npos;
  if (!any) throw UsageError("bench --only: no config's name contains '" + a.only + "'");
  std::printf("%-46s %12s %10s %16s %16s %10s%s\n", "config", "cycles", "seconds", "cycles/s",
              "flit-hops/s", "peak MB", a.repeat > 1 ? "   spread" : "");
  std::fflush(stdout);
  for (const auto& c : cases) {
    if (std::string(c.name).find(a.only) == std::string::npos) continue;
    if (c.rtl && sy::rtl_router_builds().empty()) {
      std::printf("%-46s skipped: this build has no RTL router (-DSWITCHYARD_COSIM=ON)\n", c.name);
      continue;
    }
    BenchRun m;
    std::string spread;
    if (!bench_median(c.yaml, a.repeat, m, spread)) {
      std::printf("%-46s failed\n", c.name);
      continue;
    }
    std::printf("%-46s %12llu %10.3f %16.0f %16.0f %10.1f%s\n", c.name, m.cycles, m.seconds,
                m.cycles / m.seconds, m.hops / m.seconds, m.peak_mb, spread.c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  Args a;
  CLI::App app;
  define_cli(app, a);
  auto see_help = [&]() {
    const auto subs = app.get_subcommands();
    return "(see switchyard " + (subs.empty() ? std::string() : subs.front()->get_name() + " ") +
           "--help)";
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    const auto subs = app.get_subcommands();
    if (subs.empty() && argc > 1 && argv[1][0] != '-') {
      msg = "unknown command '" + std::string(argv[1]) +
            "' (commands: run, check, sweep, collect, bench, keys)";
    } else if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
      msg.clear();
      for (const auto& x : (subs.empty() ? &app : subs.front())->remaining())
        msg += std::string(msg.empty() ? "" : "; ") +
               (x.size() > 1 && x[0] == '-' ? "unknown option " : "unexpected argument ") + x;
    }
    std::fprintf(stderr, "switchyard: %s\n%s\n", msg.c_str(), see_help().c_str());
    return 1;
  }
  a.cmd = app.get_subcommands().front()->get_name();
  try {
    if (g_ranks && a.cmd != "run")
      throw UsageError("only 'switchyard run' runs across ranks (mpirun -np " +
                       std::to_string(g_ranks->size()) + "); run '" + a.cmd + "' as one process");
    if (a.cmd == "run") {
      a.self = argv[0];
      return cmd_run(a);
    }
    if (a.cmd == "check") return cmd_check(a);
    if (a.cmd == "keys") return cmd_keys(a);
    if (a.cmd == "sweep") {
      a.self = argv[0];
      return cmd_sweep(a);
    }
    if (a.cmd == "collect") return sy::collect_sweep(a.config, true);
    return cmd_bench(a);
  } catch (const UsageError& e) {
    // (Across ranks every rank finds the same usage or config error: rank 0 says it.)
    if (!g_ranks || g_ranks->rank() == 0)
      std::fprintf(stderr, "switchyard: %s\n%s\n", e.what(), see_help().c_str());
    return 1;
  } catch (const sy::SweepError& e) {
    std::fprintf(stderr, "switchyard: %s\n%s\n", e.what(), see_help().c_str());
    return 1;
  } catch (const sy::ConfigError& e) {
    if (!g_ranks || g_ranks->rank() == 0)
      std::fprintf(stderr, "switchyard: config error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "switchyard: error: %s\n", e.what());
    return 1;
  }
}

namespace {
// An allocation that fails anywhere ends the process at once with a clear message: unwinding a
// half-built network (SystemC's registries) can take minutes, and nothing useful is left to
// write. (The run's own limits stop a growing backlog well before: a partial result.)
[[noreturn]] void out_of_memory() {
  static const char msg[] =
      "switchyard: error: out of memory (an allocation failed; the machine's memory, the "
      "cgroup's memory.max or ulimit -v): lower the network's size or simulation.max_memory_gb\n";
  const ssize_t n = write(2, msg, sizeof msg - 1);
  (void)n;
  _exit(1);
}
}  // namespace

// Our own main, so the SystemC banner can be switched off before the library prints it.
int main(int argc, char** argv) {
  std::set_new_handler(out_of_memory);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  g_ranks = sy_tb::start_ranks(&argc, &argv);
  const int rc = sc_core::sc_elab_and_sim(argc, argv);
  sy_tb::end_ranks(rc);
  return rc;
}
