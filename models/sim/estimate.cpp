#include "switchyard/sim/estimate.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "switchyard/schemes/schedules.hpp"

namespace sy {
namespace {

// Calibration (Release build, x86-64, measured with /usr/bin/time on networks of 4096 nodes and
// more with no traffic): the process's base, per router, per router input port, per virtual
// channel (state + its buffer of 24-byte flits) and per terminal (NI, source).
constexpr double kBaseBytes = 10e6;
constexpr double kRouterBytes = 3000;
constexpr double kPortBytes = 450;
constexpr double kVcBytes = 160;
constexpr double kFlitBytes = 24;
constexpr double kTerminalBytes = 2500;
// The VCD (waves.enable): bytes per traced flit-hop (3.8 MB for 77,000 flit-hops over 64 routers
// of an 8x8 torus at 0.1 and at 0.05: 46-49 bytes), and per traced router for its declarations.
constexpr double kVcdBytesPerFlitHop = 50;
constexpr double kVcdHeaderBytesPerRouter = 2000;
// (The statistics are streaming, network/stats.hpp: bounded whatever the window's length. Only a
// library caller's RunOptions::record_packets keeps a record per packet, which this does not
// count.)
// A trace message: the parsed message and its message and packet records (160 bytes, measured
// when each also kept a 24-byte sample: an upper bound now).
constexpr double kTraceMessageBytes = 160;
// results.json's links.utilization: per link its entry (32 bytes), the JSON object the writer
// builds and its text: about 810 bytes measured on a 16x16x16 torus (24,576 links, +20 MB).
constexpr double kLinkEntryBytes = 850;
// simulation.flows_csv: an accumulator per (source, destination) pair, and per flow that had a
// measured packet its row in the results.
constexpr double kFlowAccumulatorBytes = 40;
constexpr double kFlowRowBytes = 48;
// Wall time: about 0.15 us per flit hop (routers, links, allocation; idle routers sleep), the
// slower end of switchyard bench's input-VC lines on one thread (16x16x16: 0.14 us; 8x8 and 2^6
// output-queued are faster), and 2 us per router to build.
constexpr double kSecondsPerFlitHop = 1.5e-7;
constexpr double kSecondsPerRouter = 2e-6;
constexpr double kCircuitShare = 0.2;  // a circuit router's flit-hop against an input-VC one's

// Mean hops of a packet, roughly: a quarter of each ring, a third of each line (cheap for any
// size; the exact mean is the analysis' job).
double rough_mean_hops(const Config& c, const Topology& topo) {
  if (topo.indirect()) return c.topology.n;
  double h = 0;
  for (int d = 0; d < topo.num_dims(); ++d) {
    const double n = c.topology.dims[static_cast<std::size_t>(d)];
    h += n <= 2 ? (n - 1) / 2.0 : topo.wraps(d) ? n / 4.0 : n / 3.0;
  }
  return h;
}

}  // namespace

std::string human_bytes(double b) {
  char s[64];
  if (b >= 1e12)
    std::snprintf(s, sizeof s, "%.3g TB", b / 1e12);
  else if (b >= 1e9)
    std::snprintf(s, sizeof s, "%.3g GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(s, sizeof s, "%.3g MB", b / 1e6);
  else
    std::snprintf(s, sizeof s, "%.3g KB", b / 1e3);
  return s;
}

std::string human_seconds(double t) {
  char s[64];
  if (t < 120)
    std::snprintf(s, sizeof s, "%.2g s", t);
  else if (t < 7200)
    std::snprintf(s, sizeof s, "%.3g min", t / 60);
  else if (t < 3 * 86400)
    std::snprintf(s, sizeof s, "%.3g h", t / 3600);
  else
    std::snprintf(s, sizeof s, "%.3g days", t / 86400);
  return s;
}

std::string Estimate::line() const {
  std::ostringstream o;
  o << "memory about " << human_bytes(bytes) << ", wall time about " << human_seconds(wall_seconds);
  if (flit_hops <= 0) o << " (a TLM-driven run: its traffic is not counted)";
  if (vcd_bytes > 0) o << ", waves about " << human_bytes(vcd_bytes) << " of VCD";
  return o.str();
}

Estimate estimate_run(const Config& c) {
  Estimate e;
  const Topology topo = c.topology.make();
  const double N = topo.num_nodes(), R = topo.num_routers();
  const RouterConfig& r = c.router;
  // Input ports: the links' (one per output port of a direct network; a butterfly router has k)
  // and the injection channels.
  const double in_ports = topo.num_ports() + c.interface.injection_channels;
  double per_port = kPortBytes;
  if (r.buffering == Buffering::InputVc)
    per_port += r.vcs * (kVcBytes + kFlitBytes * static_cast<double>(r.vc_depth));
  e.parts.push_back({"routers, links and NIs", "topology",
                     R * (kRouterBytes + in_ports * per_port) + N * kTerminalBytes});

  e.parts.push_back({"per-link utilization (results.json links.utilization)", "topology",
                     static_cast<double>(topo.num_links()) * kLinkEntryBytes});

  const TrafficConfig& t = c.traffic;
  const SimulationConfig& s = c.simulation;
  const double hops = rough_mean_hops(c, topo);
  const double cycles = static_cast<double>(s.warmup) + static_cast<double>(s.measure);
  if (t.trace) {
    double flits = 0;
    for (const TraceMessage& m : t.messages) flits += m.flits;
    if (!t.messages.empty())
      e.parts.push_back({"trace messages",
                         t.trace_file.empty() ? "traffic.messages" : "traffic.file",
                         static_cast<double>(t.messages.size()) * kTraceMessageBytes});
    e.flit_hops = flits * hops;
  } else {
    double flits_per_cycle = t.packets_per_cycle() * t.mean_packet_flits() * N;
    if (t.broadcast.enabled())
      flits_per_cycle += t.broadcast.rate * N * (N - 1) * t.packet_flits / std::max(1.0, hops);
    if (!t.matrix.empty())
      e.parts.push_back(
          {"traffic matrix", "traffic.matrix", static_cast<double>(t.matrix.size()) * 8});
    // The links carry at most one flit per cycle each: a load above that saturates and stops.
    const double link_flits =
        std::min(flits_per_cycle * hops, static_cast<double>(topo.num_links()));
    e.flit_hops = link_flits * cycles;
  }
  if (c.schedule.enabled()) {
    const ScheduleConfig& sc = c.schedule;
    e.parts.push_back({"schedule plan",
                       sc.task == "tags" && exchange_algorithm(sc.algorithm) ? "schedule.tags"
                                                                             : "schedule.algorithm",
                       planned_crossings(c) * bytes_per_planned_crossing(c)});
    // Its traffic: every planned crossing one message of message_flits over a link.
    e.flit_hops = std::max(e.flit_hops, planned_crossings(c) * sc.message_flits);
  }
  if (c.waves.enable) {
    // The VCD: a value change per traced router for each flit-hop in the traced cycles, about
    // kVcdBytesPerFlitHop each (measured on 8x8 tori), and its header.
    const double traced = c.waves.routers.empty() ? R : static_cast<double>(c.waves.routers.size());
    const double from = static_cast<double>(c.waves.from_cycle);
    const double to =
        std::min(static_cast<double>(c.waves.to_cycle),
                 t.trace ? from + cycles : cycles + static_cast<double>(s.drain_limit));
    const double share = cycles > 0 ? std::max(0.0, to - from) / std::max(cycles, 1.0) : 1.0;
    e.vcd_bytes = kVcdHeaderBytesPerRouter * traced +
                  kVcdBytesPerFlitHop * e.flit_hops * std::min(1.0, share) * traced / R;
  }
  if (s.flows_csv) {
    // N^2 accumulators; rows only for the flows that had a measured packet (at most one per
    // packet, which a trace or the offered load bounds).
    const double packets = t.trace ? static_cast<double>(t.messages.size())
                                   : t.packets_per_cycle() * N * static_cast<double>(s.measure);
    e.parts.push_back({"per-flow latency (flows.csv)", "simulation.flows_csv",
                       N * N * kFlowAccumulatorBytes + std::min(N * N, packets) * kFlowRowBytes});
  }
  // Circuit routers hold a circuit for a whole message: about a fifth of an input-VC router's
  // cost per flit-hop (tb/estimate_check.sh, 2026-11-26: the circuit schedules were estimated
  // 4-8x too long with the input-VC constant).
  const double moved =
      r.buffering == Buffering::Circuit ? e.flit_hops * kCircuitShare : e.flit_hops;
  e.wall_seconds = moved * kSecondsPerFlitHop + R * kSecondsPerRouter;
  e.bytes = kBaseBytes;
  for (const Estimate::Part& p : e.parts) e.bytes += p.bytes;
  return e;
}

double machine_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  double kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemTotal:") return kb * 1024.0;
  return 0;
}

namespace {

// A cgroup's memory limit ("max" or unreadable: none, 0). Version 2 (memory.max of the process's
// group in the unified hierarchy), else version 1 (memory.limit_in_bytes).
double cgroup_limit_bytes() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, v2_path;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) v2_path = line.substr(3);
  for (const std::string& f :
       {"/sys/fs/cgroup" + v2_path + "/memory.max", std::string("/sys/fs/cgroup/memory.max"),
        std::string("/sys/fs/cgroup/memory/memory.limit_in_bytes")}) {
    std::ifstream in(f);
    std::string v;
    if (!(in >> v) || v == "max") continue;
    char* end = nullptr;
    const double b = std::strtod(v.c_str(), &end);
    // (Version 1 says "no limit" with a number near 2^63.)
    if (end && *end == 0 && b > 0 && b < 1e18) return b;
  }
  return 0;
}

// The address space the process may still take under RLIMIT_AS (ulimit -v): the limit less
// what it has mapped already (0: no limit).
double address_space_left_bytes() {
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 0;
  std::ifstream statm("/proc/self/statm");
  double pages = 0;
  statm >> pages;
  const double used = pages * static_cast<double>(sysconf(_SC_PAGESIZE));
  return std::max(1.0, static_cast<double>(rl.rlim_cur) - used);
}

}  // namespace

double process_memory_bytes() {
  double m = machine_memory_bytes();
  for (const double lim : {cgroup_limit_bytes(), address_space_left_bytes()})
    if (lim > 0 && (m <= 0 || lim < m)) m = lim;
  return m;
}

double memory_limit_bytes(const SimulationConfig& s) {
  const double real = 0.8 * process_memory_bytes();
  if (s.max_memory_gb > 0)
    return real > 0 ? std::min(s.max_memory_gb * 1e9, real) : s.max_memory_gb * 1e9;
  return real;
}

}  // namespace sy
