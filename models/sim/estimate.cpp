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
// Wall time, by router kind (tb/estimate_check.sh and runs of the greedy, STAR and PMNB configs
// at rho 0.1-0.9 and 1-8 flits, Release build, one thread, 2026-11-26):
// - input-VC: about 0.15 us per flit hop (routers, links, allocation; idle routers sleep), the
//   slower end of switchyard bench's input-VC lines (16x16x16: 0.14 us);
// - circuit: a fifth of that (a circuit is held for a whole message; with the input-VC constant
//   the circuit schedules were estimated 4-8x too long, tb/estimate_check.sh 2026-11-26);
// - output-queued: a packet moves as a whole, so the cost is per packet and per packet hop, not
//   per flit: 0.1 us per unicast packet (its source, NI and statistics), 0.12 us per packet hop
//   (enqueue, send, the dimension-order route from the routing unit's tables; a broadcast's
//   copy over a link is one), and 0.035 us per flit hop (a packet of L flits keeps its
//   link, and its router's per-cycle scan of the output ports, busy L cycles). All of it times
//   1 + ports / 12000 (the routers' output ports, each with a queue and an output unit on cache
//   lines of their own: with more than the per-core cache holds, most of them miss; a 2^10
//   hypercube's 10,240 ports take about twice a small network's time per hop). Fitted on 24 runs
//   (hypercubes 2^4-2^10, butterflies 2^4-2^8, STAR tori; rho 0.1-0.9, 1-8 flits): all within
//   1.25x of the wall time, where the flat 0.15 us per flit hop had the 2^10 hypercube at 0.27x
//   and 6-flit broadcasts at 2.8x (then with 0.01 us more per dimension for each unicast hop,
//   when the route computed the coordinates with divisions; since it reads the tables, the
//   greedy hypercubes run 1.4x faster and that term is gone);
// - dynamic PMNB (traffic.broadcast.scheme pmnb_iii / pmnb_ii): every hop of a broadcast is a
//   message of a schedule built, checked and run per period: about 1.5 us per message (pmnb_iii
//   on 2^6, rho 0.1 and 0.3: 1.6 us a hop); pmnb_ii splits each packet into d messages (not a
//   shipped config: on 2^6 at rho 0.3 it took 46 s for 21 s estimated, its periods' scans and
//   the flits they carry not counted);
// and 2 us per router to build, plus what the schedule takes to build where that is long (the
// H-trees' fill search, schemes/schedules.hpp schedule_build_seconds).
constexpr double kSecondsPerFlitHop = 1.5e-7;
constexpr double kCircuitShare = 0.2;  // a circuit router's flit-hop against an input-VC one's
constexpr double kOqSecondsPerPacket = 1e-7;
constexpr double kOqSecondsPerPacketHop = 1.2e-7;
constexpr double kOqSecondsPerFlitHop = 3.5e-8;
constexpr double kOqCachePorts = 12000;
// ... up to 10: once the ports are far beyond the caches every access misses and the cost stops
// growing with them. PMNB II schedules (one-flit mini-packets, compact plans, 2026-11-28):
// 1.02, 1.15 and 1.54 us a hop at d = 12, 13 and 16 (49,152, 106,496 and 1,048,576 ports),
// i.e. 6.6, 7.4 and 9.9 times the 0.155 us of a small network's packet hop; the uncapped
// factor said 88 at d = 16 (17.9 h estimated for 28 min).
constexpr double kOqCacheFactorMax = 10;
constexpr double kPeriodSecondsPerPacketHop = 1.5e-6;
constexpr double kSecondsPerRouter = 2e-6;

// Mean hops of a packet, roughly: a quarter of each ring, a third of each line (cheap for any
// size; the exact mean is the analysis' job).
double rough_mean_hops(const Config& c, const Topology& topo) {
  if (topo.kind() == Topology::Kind::Butterfly) return c.topology.n;
  if (topo.indirect()) return topo.average_distance(true);
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
  if (build_seconds > 0)
    o << " (" << human_seconds(build_seconds) << " of it building the schedule)";
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
  const double in_ports = topo.num_ports() + topo.concentration() * c.interface.injection_channels;
  double per_port = kPortBytes;
  if (r.buffering == Buffering::InputVc)
    per_port += r.vcs * (kVcBytes + kFlitBytes * static_cast<double>(r.vc_depth));
  e.parts.push_back({"routers, links and NIs", "topology",
                     R * (kRouterBytes + in_ports * per_port) + N * kTerminalBytes});

  // (Counted once: an indirect network's count visits every router's ports, 32 million on a
  // 2-ary 20-tree, 0.5 s before its memory is refused.)
  const double links = static_cast<double>(topo.num_links());
  e.parts.push_back({"per-link utilization (results.json links.utilization)", "topology",
                     links * kLinkEntryBytes});

  const TrafficConfig& t = c.traffic;
  const SimulationConfig& s = c.simulation;
  const double hops = rough_mean_hops(c, topo);
  const double cycles = static_cast<double>(s.warmup) + static_cast<double>(s.measure);
  // Unicast packets and packet hops (a broadcast's copy over a link is one), for the
  // output-queued routers' cost.
  double packets = 0, packet_hops = 0;
  if (t.trace) {
    double flits = 0;
    for (const TraceMessage& m : t.messages) flits += m.flits;
    if (!t.messages.empty())
      e.parts.push_back({"trace messages",
                         t.trace_file.empty() ? "traffic.messages" : "traffic.file",
                         static_cast<double>(t.messages.size()) * kTraceMessageBytes});
    e.flit_hops = flits * hops;
    packets = static_cast<double>(t.messages.size());
    packet_hops = packets * hops;
  } else {
    const double packets_per_cycle = t.packets_per_cycle() * N;
    double flits_per_cycle = packets_per_cycle * t.mean_packet_flits();
    double hops_per_cycle = packets_per_cycle * hops;
    if (t.broadcast.enabled()) {
      flits_per_cycle += t.broadcast.rate * N * (N - 1) * t.packet_flits / std::max(1.0, hops);
      hops_per_cycle += t.broadcast.rate * N * (N - 1);
    }
    if (!t.matrix.empty())
      e.parts.push_back(
          {"traffic matrix", "traffic.matrix", static_cast<double>(t.matrix.size()) * 8});
    // The links carry at most one flit per cycle each: a load above that saturates and stops.
    const double link_flits = std::min(flits_per_cycle * hops, links);
    e.flit_hops = link_flits * cycles;
    // (What a saturated network carries: the packets in the offered mix, fewer.)
    const double offered = flits_per_cycle * hops;
    const double carried = offered > 0 ? link_flits / offered : 1;
    packets = packets_per_cycle * cycles * carried;
    packet_hops = hops_per_cycle * cycles * carried;
  }
  if (c.schedule.enabled()) {
    const ScheduleConfig& sc = c.schedule;
    e.parts.push_back({"schedule plan",
                       sc.task == "tags" && exchange_algorithm(sc.algorithm) ? "schedule.tags"
                                                                             : "schedule.algorithm",
                       planned_crossings(c) * bytes_per_planned_crossing(c)});
    // Its traffic: every planned crossing one message of message_flits over a link.
    e.flit_hops = std::max(e.flit_hops, planned_crossings(c) * flits_per_planned_crossing(c));
    packet_hops = std::max(packet_hops, planned_crossings(c));
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
    const double measured = t.trace ? static_cast<double>(t.messages.size())
                                    : t.packets_per_cycle() * N * static_cast<double>(s.measure);
    e.parts.push_back({"per-flow latency (flows.csv)", "simulation.flows_csv",
                       N * N * kFlowAccumulatorBytes + std::min(N * N, measured) * kFlowRowBytes});
  }
  // The routers' work (the constants above).
  double work = 0;
  if (r.buffering == Buffering::InputVc) {
    work = e.flit_hops * kSecondsPerFlitHop;
  } else if (r.buffering == Buffering::Circuit) {
    work = e.flit_hops * kSecondsPerFlitHop * kCircuitShare;
  } else {
    const double ports = R * topo.num_ports();
    work = std::min(1 + ports / kOqCachePorts, kOqCacheFactorMax) *
           (packets * kOqSecondsPerPacket + packet_hops * kOqSecondsPerPacketHop +
            e.flit_hops * kOqSecondsPerFlitHop);
  }
  const BroadcastScheme scheme = t.broadcast.scheme;
  if (t.broadcast.enabled() &&
      (scheme == BroadcastScheme::PmnbIii || scheme == BroadcastScheme::PmnbIi))
    work = std::max(work, packet_hops * kPeriodSecondsPerPacketHop *
                              (scheme == BroadcastScheme::PmnbIi ? topo.num_dims() : 1));
  // And building the schedule where that is long (the H-trees' fill search: schedules.hpp),
  // once, by the schedule plug-in for the run (the config's check does not search:
  // check_schedule).
  e.build_seconds = schedule_build_seconds(c);
  e.wall_seconds = work + R * kSecondsPerRouter + e.build_seconds;
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
