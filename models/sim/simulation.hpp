// Simulation: builds one Network for a Config, attaches the plug-ins that apply (sim/plugin.hpp:
// schemes, later energy and RTL), runs it under sc_start, and gathers the results: the core's
// (packets, latency, throughput, links, flows, stability), then each plug-in's section. They are
// written as results.json, the summary printed on stdout and a sweep.csv row. SystemC allows one
// elaboration per process, so a process runs one simulation; sweeps and tests run one process
// per point.
#pragma once
#include <functional>
#include <ostream>
#include <string>
#include <systemc>  // (declares sc_main extern "C": a program defines it next to this API)

#include "switchyard/config/config.hpp"
#include "switchyard/network/ranks.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

// Links of one class (a dimension; a butterfly level and arc type) over the window.
struct LinkClassStats {
  std::string name;
  int links = 0;
  double utilization = 0;  // mean busy fraction
  double sojourn = 0;      // output queues: mean cycles a packet spends at a link (wait + send)
  double queue = 0;        // output queues: time-averaged packets at a link (waiting + in send)
  std::uint64_t departures = 0;
};

// One network link (one direction of a physical channel) over the window: links.utilization[].
// Direct networks: the link leaving router `src` in dimension `dim`, direction `dir` (+1, -1; 0
// for the single link of a size-2 dimension, a hypercube's). Butterflies: the link leaving
// router `src` (at `level`) by output port `port`, a straight arc or not (`cross`).
struct LinkUtilization {
  int src = 0, dst = 0;  // router ids (direct networks: node ids)
  int dim = 0, dir = 0;
  int level = 0, port = 0;
  bool cross = false;
  int cls = 0;             // indirect networks: the link's class (Topology::link_class)
  double utilization = 0;  // busy cycles (flit-cycles on the link) / window cycles
};

// One flow (source, destination terminals) over the measured packets: flows.csv.
struct FlowStats {
  int src = 0, dst = 0;
  int hops = 0;  // the topology's shortest distance (router-to-router hops)
  std::uint64_t packets = 0;
  double latency_mean = 0, network_latency_mean = 0;
  std::uint64_t latency_min = 0, latency_max = 0;
};

// One class's results (results.json by_priority_class / by_traffic_class): the measured
// packets' latencies and the flits per node per cycle offered and accepted in the window.
struct ClassResult {
  int index = 0;
  std::string name;      // traffic classes: traffic.classes[i].name
  int packet_flits = 0;  // traffic classes of the config: their length and priority
  int priority = -1;
  double share = 0;
  Summary latency, network_latency;
  double offered = 0, accepted = 0;
};

// Which model ran, in one line and as fields (issue 33): the router kind and its pipeline (the
// ideal one, delta cycles per hop with free ejection, or the staged one and its stages), the
// switching, the VCs and their depth, the routing algorithm and the NI's injection.
struct ModelInfo {
  std::string router, pipeline, switching, routing, injection;
  int hop_cycles = 0;         // a header's cycles per hop without contention
  int vcs = 0, vc_depth = 0;  // input-VC routers (0 otherwise)
  std::string line;           // the summary's words for all of it
};
ModelInfo model_info(const Config& cfg);

struct Results {
  std::string config_json;
  ModelInfo model;
  std::uint64_t seed = 0;
  std::uint64_t cycles = 0;
  double wall_seconds = 0;
  std::uint64_t packets_injected = 0, packets_delivered = 0, packets_measured = 0;
  std::uint64_t packets_zero_hop = 0;  // delivered by their own NI (traffic.self: deliver_locally)
  std::uint64_t flits_injected = 0, flits_delivered = 0, flits_created = 0;
  Summary latency, network_latency;
  double offered = 0, accepted = 0;  // flits/node/cycle in the window
  double window = 1;                 // the cycles they (and the links' utilization) are over
  // Per priority class (router.priority_classes > 1, no broadcast scheme) and per traffic class
  // (traffic.classes, or the classes a TLM initiator used); empty when there is one.
  std::vector<ClassResult> by_priority, by_traffic_class;
  double rho = 0, mean_hops = 0;
  double link_util_mean = 0, link_util_max = 0;
  std::vector<double> link_util_by_dim;  // mean utilization of the links of each dimension
  std::vector<LinkClassStats> link_classes;
  // Every network link, in the network's order (by source router, then its output ports).
  bool links_indirect = false;   // indirect entries (port and class) instead of (dim, dir)
  bool links_butterfly = false;  // butterfly entries (level, port, arc)
  std::string butterfly_cross_name = "cross";  // "vertical" for k = 2, as the classes name it
  std::vector<LinkUtilization> link_utilization;
  // Per-flow latency (simulation.flows_csv): the flows with a measured packet, source-major.
  bool has_flows = false;
  std::vector<FlowStats> flows;
  bool link_queues = false;  // sojourn and queue measured (output-queued routers)
  double hist_bin = 1;       // latency histogram: bin width (cycles), 256 bins + overflow
  std::vector<std::uint64_t> latency_hist;
  double packet_time = 1;  // cycles one packet takes over one link (L*tau)
  // Routing algorithm checks (routing.algorithm other than dimension_order; all must be 0).
  std::string routing_algorithm;
  std::uint64_t forbidden_turns = 0, nonminimal_packets = 0, intermediate_missed = 0;
  std::uint64_t flit_hops = 0;
  std::uint64_t order_errors = 0;
  std::uint64_t max_flit_wait = 0;
  // False under router.model rtl: a header's wait starts when it wins VC allocation, which an
  // RTL router does not show at its ports (flits.max_wait is then null).
  bool max_flit_wait_known = true;
  bool stable = true;
  std::string unstable_reason;
  // Stopped early by a limit (simulation.max_wall_seconds, a saturated backlog): a partial result.
  bool partial = false;
  std::string stop_kind;  // "wall_time" | "saturation"
  std::uint64_t stop_cycle = 0, stop_live_packets = 0;
  std::vector<std::string> warnings;
  // The model's zero-load latency check: formula for the mean hop count, printed beside it.
  double zero_load_formula = 0;
  bool staged = false;                    // the staged router pipeline (its zero-load formula)
  bool ni_lt_apart = false;               // ... with router.pipeline.ni_lt != lt
  std::uint64_t credit_violations = 0;    // credits seen below 0 or above the VC depth
  std::uint64_t priority_inversions = 0;  // a packet went while a higher class was ready
  std::uint64_t requests_rejected = 0;    // TLM requests answered with an error status
  std::vector<Stats::Record> packets;     // with RunOptions::record_packets
  // The plug-ins that applied to this run (sim/plugin.hpp), in the registry's order.
  struct Section {
    std::string kind;  // PluginKind::name
    std::unique_ptr<Plugin> plugin;
  };
  std::vector<Section> sections;
  // The section of plug-in class T (null: none in this run).
  template <class T>
  const T* find() const {
    for (const Section& s : sections)
      if (const T* p = dynamic_cast<const T*>(s.plugin.get())) return p;
    return nullptr;
  }
  bool scheduled = false;  // the traffic is a schedule (schedule.algorithm): no offered load

  std::string to_json() const;
  std::string summary() const;
  // row.csv (a run's line of a sweep's runs.csv): the header (the core's columns, then every
  // plug-in kind's) and this run's values (empty: no samples, or a plug-in that did not apply).
  static std::string csv_header();
  std::string csv_row() const;
  // flows.csv (RFC 4180): a header line, then one line per flow with a measured packet.
  void write_flows_csv(std::ostream& out) const;
};

class Network;

struct RunOptions {
  bool progress = false;        // a progress line on stderr every few seconds
  bool record_packets = false;  // fill Results::packets with every delivered packet
  // Called after the network is built, before the simulation starts: create your own modules
  // here (processing elements, memories, TLM initiators) and bind them to the NIs' sockets.
  std::function<void(Network&)> attach;
  // Plug-ins of your own for this run (sim/plugin.hpp), after the registry's: each attached
  // when its make() gives one, its section written after the registry's sections (sweep.csv
  // keeps the registry's columns).
  std::vector<PluginKind> plugins;
  // The run's output folder: the VCD is written there (waves.file, a relative path inside it);
  // empty: the current directory.
  std::string out_dir;
  // The processes the network runs across (mpirun -np N; network/ranks.hpp): null or one rank,
  // this process alone. Every rank runs the same call and returns the same Results.
  Ranks* ranks = nullptr;
};

// Why cfg cannot be split across several ranks ("key: reason"), or empty: what the ranks' step
// supports (network_ranks.cpp) is what the threaded mode runs with fast completions: input-VC
// routers with the ideal pipeline on a direct topology, synthetic unicast traffic of one packet
// per message, no per-packet order needed (no waves, records, plug-in sections). (The program
// then runs such a config on rank 0 alone, with a warning; run_simulation refuses it.)
std::string ranks_refusal(const Config& cfg);

Results run_simulation(const Config& cfg, const RunOptions& opt = {});

// A Summary as a results.json object {mean, ci95, p50, p99, max, count, batch_lag1}, with the
// same in packet times when packet_time > 0 (for the sections' delays too).
void summary_json(Json& j, const char* key, const Summary& s, double packet_time = 0);

}  // namespace sy
