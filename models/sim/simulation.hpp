// Simulation: builds one Network for a Config, runs it under sc_start, and gathers the results
// (results.json and the summary printed on stdout). SystemC allows one elaboration per process,
// so a process runs one simulation; sweeps and tests run one process per point.
#pragma once
#include <functional>
#include <ostream>
#include <string>

#include "switchyard/config/config.hpp"
#include "switchyard/schemes/greedy/greedy.hpp"
#include "switchyard/schemes/pmnb/dynamic.hpp"
#include "switchyard/schemes/schedules.hpp"
#include "switchyard/sim/stats.hpp"
#include "switchyard/traffic/schedule_driver.hpp"

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

// An isotropic task by a slot schedule (schedule.algorithm total_exchange | octr | oadd |
// greedy): the model's completion and average delay in slots, and link utilization from the
// links' own counters, beside the paper's formulas (schemes/schedules.hpp ExchangeFormulas).
struct ExchangeResult {
  std::string algorithm, task;
  int h = 0, h_rows = 0, h_cols = 0;  // the task matrix's critical, largest row, column sums
  long long sigma = 0;                // its total sum (hops per node)
  int links = 0;                      // the k-link limit (0: all-port)
  double completion_time = 0;         // slots until the last packet is in (model)
  double average_delay = 0;  // mean over the packets of the slot each is in, 1-based (model)
  double utilization = 0;    // link-slots used / link-slots up to completion (model's links)
  ExchangeFormulas formulas;
};

struct Results {
  std::string config_json;
  std::uint64_t seed = 0;
  std::uint64_t cycles = 0;
  double wall_seconds = 0;
  std::uint64_t packets_injected = 0, packets_delivered = 0, packets_measured = 0;
  std::uint64_t packets_zero_hop = 0;  // delivered by their own NI (traffic.self: deliver_locally)
  std::uint64_t flits_injected = 0, flits_delivered = 0, flits_created = 0;
  Summary latency, network_latency;
  double offered = 0, accepted = 0;  // flits/node/cycle in the window
  double rho = 0, mean_hops = 0;
  double link_util_mean = 0, link_util_max = 0;
  std::vector<double> link_util_by_dim;  // mean utilization of the links of each dimension
  std::vector<LinkClassStats> link_classes;
  // Every network link, in the network's order (by source router, then its output ports).
  bool links_indirect = false;  // butterfly entries (level, port, arc) instead of (dim, dir)
  std::string butterfly_cross_name = "cross";  // "vertical" for k = 2, as the classes name it
  std::vector<LinkUtilization> link_utilization;
  // Per-flow latency (simulation.flows_csv): the flows with a measured packet, source-major.
  bool has_flows = false;
  std::vector<FlowStats> flows;
  bool link_queues = false;  // sojourn and queue measured (output-queued routers)
  double hist_bin = 1;       // latency histogram: bin width (cycles), 256 bins + overflow
  std::vector<std::uint64_t> latency_hist;
  // Greedy routing (bit_flip on a hypercube or 2-ary butterfly): the paper's bounds beside T.
  bool has_greedy = false, greedy_ideal = false;
  GreedyBounds greedy;
  // Random broadcasting (traffic.broadcast.scheme set).
  bool broadcast = false;
  std::string broadcast_scheme;
  std::uint64_t broadcasts = 0, broadcasts_done = 0;
  Summary broadcast_delay, reception_delay;  // cycles
  double transmissions_per_broadcast = 0;
  double packet_time = 1;  // cycles one packet takes over one link (L*tau)
  std::vector<double> star_x;
  // A static schedule (schedule.algorithm set): its completion time from the model and checks.
  // Routing algorithm checks (routing.algorithm other than dimension_order; all must be 0).
  std::string routing_algorithm;
  std::uint64_t forbidden_turns = 0, nonminimal_packets = 0, intermediate_missed = 0;
  // Dynamic broadcasting by PMNB periods (broadcast.scheme pmnb_iii / pmnb_ii).
  bool has_pmnb = false;
  DynamicPmnbResult pmnb;
  bool has_schedule = false;
  ScheduleResult schedule;
  bool has_exchange = false;
  ExchangeResult exchange;
  std::uint64_t flit_hops = 0;
  std::uint64_t order_errors = 0;
  std::uint64_t max_flit_wait = 0;
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
  std::uint64_t credit_violations = 0;    // credits seen below 0 or above the VC depth
  std::uint64_t priority_inversions = 0;  // a packet went while a higher class was ready
  std::uint64_t requests_rejected = 0;    // TLM requests answered with an error status
  std::vector<Stats::Record> packets;     // with RunOptions::record_packets

  std::string to_json() const;
  std::string summary() const;
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
};

Results run_simulation(const Config& cfg, const RunOptions& opt = {});

}  // namespace sy
