// Fuzz target over the config and trace readers (issue 16): the bytes are a YAML config, read by
// parse_config; a config that reads is then taken through what `check` and the run do before
// elaborating (the topology, the memory and time estimate, the resolved config as JSON, the
// closed forms, the routing algorithm). A ConfigError is the expected answer to a bad input;
// anything else — a crash, another exception, a sanitizer report, a timeout — is a finding.
//
// Input format (the extra parts are YAML comments, so a plain config is an input as it is):
//   #set key.path=value        lines at the very start: --set overrides (at most 8)
//   <YAML config>
//   #--- file                  optional: the rest of the input is written to data.csv beside
//   <bytes of a CSV file>      the config, for `traffic: {type: trace, file: data.csv}`,
//                              `pattern: matrix, matrix: data.csv` or an anynet's network file,
//                              `topology: {type: anynet, file: data.csv}` (the seeds
//                              anynet-*.yaml carry configs/anynet/'s files)
// An input that starts with "#sweep\n" fuzzes the sweep tools (sim/sweep.hpp, issue 34) instead:
//   #sweep
//   <manifest.tsv>             a sweep's manifest; `collect` merges it with the rows below
//   #--- row NAME              the row.csv of run folder NAME (several; NAME a plain name)
//   <row.csv text>
//   #--- values                the rest: one sweep value per line, checked for control
//   <values>                   characters and quoted for an emitted job line
// collect answers with a merged sweep.csv or a std::runtime_error naming the line; a value is
// refused (SweepError) or becomes one shell word on one line.
// Built with libFuzzer (SWITCHYARD_FUZZ=ON, clang) as switchyard_fuzz, and always as
// switchyard_fuzz_replay (replay_main.cpp), which runs every file of the seed corpus through it.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "switchyard/base/json.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/estimate.hpp"
#include "switchyard/sim/sweep.hpp"
#include "switchyard/topology/topology.hpp"

namespace {

// A property of a config that read: violated, it is a finding (abort, so the fuzzer keeps it).
#define FUZZ_CHECK(cond, what)                                                              \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "fuzz_config: property failed: %s (%s) at %s:%d\n", what, #cond, \
                   __FILE__, __LINE__);                                                     \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

// The directory the config "lives in" (relative trace and matrix paths resolve there): one per
// process, so parallel fuzzers and the replay test do not share data.csv; removed at exit.
const std::string& work_dir() {
  // (Never destroyed: the atexit handler below runs after static destructors would.)
  static const std::string* dir = [] {
    auto* d = new std::string("/tmp/switchyard-fuzz-" + std::to_string(getpid()));
    std::error_code ec;
    std::filesystem::create_directories(*d, ec);
    if (ec) std::abort();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(work_dir(), ignored);
    });
    return d;
  }();
  return *dir;
}

// SWITCHYARD_FUZZ_VERBOSE=1: one line per input (its config error, or ok), for the replay.
bool verbose() {
  static const bool v = std::getenv("SWITCHYARD_FUZZ_VERBOSE") != nullptr;
  return v;
}

struct Input {
  std::vector<std::string> sets;
  std::string yaml;
  bool has_file = false;
  std::string file;
};

Input split(const std::string& text) {
  Input in;
  std::size_t at = 0;
  while (in.sets.size() < 8 && text.compare(at, 5, "#set ") == 0) {
    const std::size_t nl = text.find('\n', at);
    in.sets.push_back(text.substr(at + 5, nl == std::string::npos ? nl : nl - at - 5));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  static const std::string kFile = "#--- file\n";
  const std::size_t f = text.find(kFile, at);
  if (f == std::string::npos) {
    in.yaml = text.substr(at);
  } else {
    in.yaml = text.substr(at, f - at);
    in.has_file = true;
    in.file = text.substr(f + kFile.size());
  }
  return in;
}

// The topology answers its generic questions consistently (small networks: every router and
// port, a sample of terminal pairs).
void check_topology(const sy::Config& c, const sy::Topology& topo) {
  const int N = topo.num_nodes(), R = topo.num_routers(), P = topo.num_ports();
  // (Under concentration a router serves up to concentration() terminals.)
  FUZZ_CHECK(N >= 1 && R >= 1 && static_cast<long>(R) * topo.concentration() >= N,
             "node and router counts");
  FUZZ_CHECK(P >= 0 && P <= 64, "ports per router");
  if (R > 4096) return;
  const bool direct = !topo.indirect();
  // Every terminal is served where it is delivered to, once.
  std::vector<int> served(static_cast<std::size_t>(N), 0);
  for (int r = 0; r < R; ++r) {
    const int t0 = topo.ejection_terminal(r), n = topo.ejection_count(r);
    FUZZ_CHECK(n >= 0 && n <= topo.concentration() && (n == 0 || (t0 >= 0 && t0 + n <= N)),
               "a router's terminals");
    for (int t = t0; n > 0 && t < t0 + n; ++t) {
      ++served[static_cast<std::size_t>(t)];
      FUZZ_CHECK(topo.ejection_router(t) == r, "a terminal is delivered at its router");
    }
  }
  for (int t = 0; t < N; ++t) {
    FUZZ_CHECK(served[static_cast<std::size_t>(t)] == 1, "every terminal served once");
    const int g = topo.injection_index(t);
    FUZZ_CHECK(g >= 0 && g < topo.concentration(), "injection group");
  }
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) {
      const int nb = topo.neighbor(r, p);
      FUZZ_CHECK(nb >= -1 && nb < R, "neighbour in range");
      if (nb < 0) continue;
      const int ip = topo.in_port(r, p);
      FUZZ_CHECK(ip >= 0 && ip < P, "input port in range");
      if (direct) FUZZ_CHECK(topo.neighbor(nb, ip) == r, "a link leads back");
    }
  const int D = topo.diameter();
  FUZZ_CHECK(D >= 0 && D <= R, "diameter");
  const int step = N > 64 ? N / 61 + 1 : 1;
  for (int a = 0; a < N; a += step)
    for (int b = 0; b < N; b += step) {
      const int h = topo.distance(a, b);
      FUZZ_CHECK(h >= 0 && h <= D, "distance within the diameter");
      if (direct) {
        FUZZ_CHECK(h == topo.distance(b, a), "distance symmetric");
        FUZZ_CHECK((h == 0) == (a == b), "distance zero exactly to itself");
      } else {
        // The network's own routing reaches the destination in `h` hops, each hop's VC class
        // within the network's classes and never lower than the one before (the classes order
        // the channels), each link's latency non-negative.
        const sy::IndirectNetwork& net = *topo.indirect_network();
        const int C = net.vc_classes();
        FUZZ_CHECK(C >= 1 && C <= 32, "VC classes");
        int r = topo.injection_router(a), hops = 0, in_port = -1, cls = 0;
        for (int p; (p = net.route(r, b)) >= 0; ++hops) {
          FUZZ_CHECK(p < P && hops <= D, "indirect route within the diameter");
          const int next = net.vc_class(r, in_port, cls, p);
          FUZZ_CHECK(next >= cls && next < C, "VC class in range and not decreasing");
          FUZZ_CHECK(net.link_latency(r, p) >= 0, "link latency");
          cls = next;
          in_port = topo.in_port(r, p);
          r = topo.neighbor(r, p);
          FUZZ_CHECK(r >= 0, "indirect route stays connected");
        }
        FUZZ_CHECK(r == topo.ejection_router(b) && hops == h, "indirect route length");
      }
      FUZZ_CHECK(sy::zero_load_latency(c, h, 1) >= 0, "zero-load latency");
    }
}

void check_invariants(const sy::Config& c) {
  const sy::Topology topo = c.topology.make();
  check_topology(c, topo);
  const sy::Estimate e = sy::estimate_run(c);
  FUZZ_CHECK(e.bytes > 0 && e.wall_seconds >= 0 && e.flit_hops >= 0, "estimate");
  FUZZ_CHECK(!e.line().empty(), "estimate line");
  const std::string js = sy::config_to_json(c, 2);
  FUZZ_CHECK(sy::Json::valid_utf8(js), "results.json's config is valid UTF-8");
  FUZZ_CHECK(js.size() > 2 && js.front() == '{', "config JSON");
  // The closed forms results.json prints beside the model (the pattern's mean hops and the
  // throughput factor; the run computes them the same way), on networks the run would build.
  if (topo.num_routers() <= 4096) {
    const double D = sy::pattern_mean_hops(c.traffic, topo);
    const double rho = sy::throughput_factor(c, topo, D < 0 ? 1.0 : D);
    FUZZ_CHECK(!(rho < 0), "throughput factor");
  }
  if (c.router.pipeline.staged)
    FUZZ_CHECK(sy::staged_zero_load(c, topo.diameter(), c.traffic.packet_flits) >= 0,
               "staged zero-load latency");
  if (c.routing.algorithm != "dimension_order" && topo.num_routers() <= 4096) {
    const auto algo =
        sy::make_routing(c.routing.algorithm, topo, c.router.vcs, c.routing.tie_break);
    FUZZ_CHECK(algo != nullptr, "routing algorithm");
    algo->configure(c.routing);
    FUZZ_CHECK(algo->candidate_capacity() >= 1, "candidate capacity");
  }
  for (const sy::TraceMessage& m : c.traffic.messages) {
    FUZZ_CHECK(m.src >= 0 && m.src < topo.num_nodes(), "trace source in range");
    FUZZ_CHECK(m.dst >= 0 && m.dst < topo.num_nodes(), "trace destination in range");
    FUZZ_CHECK(m.flits >= 1, "trace flits");
    FUZZ_CHECK(m.priority >= 0 && m.priority < c.router.priority_classes, "trace priority");
    FUZZ_CHECK(m.time <= sy::kMaxRequestCycle, "trace time");
  }
}

// The sweep tools on a fuzzed sweep folder and fuzzed values.
void fuzz_sweep(const std::string& text) {
  const std::string dir = work_dir() + "/sweep";
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir, ec);
  if (ec) std::abort();
  static const std::string kRow = "#--- row ", kValues = "#--- values\n";
  const std::size_t vat = text.find(kValues);
  const std::string files = text.substr(0, vat);
  const std::string values = vat == std::string::npos ? "" : text.substr(vat + kValues.size());
  std::size_t at = files.find(kRow);
  sy::write_file(dir + "/manifest.tsv", files.substr(0, at));
  int rows = 0;
  while (at != std::string::npos && rows < 64) {
    const std::size_t nl = files.find('\n', at);
    if (nl == std::string::npos) break;
    const std::string name = files.substr(at + kRow.size(), nl - at - kRow.size());
    const std::size_t next = files.find(kRow, nl);
    const std::string row = files.substr(nl + 1, next == std::string::npos ? next : next - nl - 1);
    at = next;
    ++rows;
    // (A run folder the harness can make: a plain name of printable characters.)
    const bool plain = std::all_of(name.begin(), name.end(), [](char ch) {
      return static_cast<unsigned char>(ch) >= 0x20 && ch != '/';
    });
    if (name.empty() || name.size() > 64 || !plain || name == "." || name == "..") continue;
    std::filesystem::create_directories(dir + "/" + name, ec);
    if (ec) continue;
    try {
      sy::write_file(dir + "/" + name + "/row.csv", row);
    } catch (const std::runtime_error&) {
      // a name the file system will not take as a folder: the harness skips it
    }
  }
  try {
    const int rc = sy::collect_sweep(dir, false, verbose());
    FUZZ_CHECK(rc == 0 || rc == 1, "collect's status");
    FUZZ_CHECK(std::filesystem::exists(dir + "/sweep.csv"), "collect wrote sweep.csv");
  } catch (const std::runtime_error&) {
    // the expected answer to a damaged manifest
  }
  std::stringstream vs(values);
  int n = 0;
  for (std::string v; std::getline(vs, v) && n < 256; ++n) {
    try {
      sy::refuse_control_characters("value", v);
    } catch (const sy::SweepError&) {
      continue;
    }
    const std::string q = sy::shell_quote(v);
    FUZZ_CHECK(q.find_first_of("\n\r") == std::string::npos, "a quoted value is one line");
    FUZZ_CHECK(q.size() >= 2 && q.front() == '\'' && q.back() == '\'', "a quoted value is a word");
  }
}

}  // namespace

// The model library links SystemC, whose shared library refers to the program's sc_main; the fuzz
// programs have their own main (libFuzzer's, or replay_main.cpp) and elaborate nothing.
extern "C" int sc_main(int, char**) {
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.compare(0, 7, "#sweep\n") == 0) {
    fuzz_sweep(text.substr(7));
    return 0;
  }
  const Input in = split(text);
  const std::string dir = work_dir();
  const std::string csv = dir + "/data.csv";
  std::remove(csv.c_str());
  if (in.has_file) {
    FILE* f = std::fopen(csv.c_str(), "wb");
    if (!f) std::abort();
    std::fwrite(in.file.data(), 1, in.file.size(), f);
    std::fclose(f);
  }
  // The config layer refuses what needs more than simulation.max_memory_gb (the run's estimate,
  // a schedule's plan): held to 1 GB here, that promise keeps every accepted input's parse
  // below the fuzzer's -rss_limit_mb of 3 GB (ASan included). Set last, so it wins.
  std::vector<std::string> sets = in.sets;
  sets.push_back("simulation.max_memory_gb=1");
  sy::Config c;
  try {
    c = sy::parse_config(in.yaml, dir + "/fuzz.yaml", sets);
  } catch (const sy::ConfigError& e) {
    if (verbose()) std::fprintf(stderr, "config error: %s\n", e.what());
    return 0;  // the expected answer to a bad config
  }
  if (verbose())
    std::fprintf(stderr, "ok: %s, %d nodes\n", c.name.c_str(), c.topology.make().num_nodes());
  check_invariants(c);
  return 0;
}
