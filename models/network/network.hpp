// Network: the SystemC module that holds one router and one NI per node and the links between
// them, built from the topology, and the built-in traffic sources. Its clock process (one
// SC_METHOD, one activation per simulated cycle, or per run of cycles when it is the only
// process; cycle t at time t ns) applies last cycle's
// credits, takes the messages requested for this cycle (from the sources and from any TLM
// initiator bound to an NI), steps the busy NIs and then the busy routers in node order; routers
// and NIs with nothing to do are not visited, and when the whole network is idle the process
// sleeps until the next message is due or an initiator requests one.
// When initiators besides the built-in sources are bound, each cycle is evaluated one delta cycle
// after its time is reached, so a request an initiator makes at time t (delay 0) is taken at
// cycle t whatever order the kernel runs the processes in.
// The network knows no scheme: a broadcast scheme, a schedule or a dynamic algorithm plugs in
// before the run through set_replication, the NIs' sockets and receive callbacks,
// set_broadcast_request, set_injection_gate and add_backlog (sim/plugin.hpp: the plug-ins that do
// it).
#pragma once
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "switchyard/config/config.hpp"
#include "switchyard/network/fabric.hpp"
#include "switchyard/network/injection_gate.hpp"
#include "switchyard/network/network_interface.hpp"
#include "switchyard/network/ranks.hpp"
#include "switchyard/network/router_threads.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/router/replication_rule.hpp"
#include "switchyard/router/router.hpp"
#include "switchyard/router/routing_unit.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/traffic.hpp"

namespace sy {

struct RunState {
  bool done = false;
  bool stable = true;
  std::string reason;  // why a run is not stable
  std::uint64_t backlog_window_start = 0, backlog_window_end = 0;
  std::uint64_t inflight_window_start = 0, inflight_window_end = 0;  // flit deliveries owed
  bool saw_window_start = false, saw_window_end = false;
  // Packets alive sampled 16 times through the window (the backlog's trend).
  std::vector<std::uint64_t> live_samples;
  bool trend_checked = false;
  // Stopped before its end by a limit (RunLimits): the result is partial.
  bool stopped_early = false;
  std::string stop_kind;  // "wall_time" | "saturation"
  std::uint64_t stop_cycle = 0, stop_live_packets = 0;
  double stop_wall_seconds = 0;
};

// Limits checked while the network runs (every 256 evaluated cycles): past the wall-time
// deadline, or with more packets and messages alive (queued at the sources or in the network)
// than max_live, the run stops at once with stable = false and a partial result.
struct RunLimits {
  double max_wall_seconds = 0;  // 0: none
  std::uint64_t max_live = 0;   // 0: none
  std::string max_live_source;  // what set max_live (for the message)
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

class Network : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Network);
  // out_dir: the run's output folder, where the VCD goes (waves.file inside it; empty: the
  // current directory).
  // ranks: the processes the network runs across (mpirun; null or one rank: this process
  // alone). Each rank evaluates its own block of routers, with their NIs and sources, and every
  // rank ends with the same results (network/ranks.hpp).
  Network(sc_core::sc_module_name name, const Config& cfg, const std::string& out_dir = "",
          Ranks* ranks = nullptr);
  ~Network() override;

  const Config& config() const { return cfg_; }
  const Topology& topology() const { return topo_; }
  const Stats& stats() const { return stats_; }
  Stats& stats() { return stats_; }
  const Fabric& fabric() const { return fabric_; }
  const RunState& state() const { return state_; }
  // Each link's busy_window final (input-VC links: closed at the run's end if it stopped inside
  // the window); before reading links() after a run.
  void settle_link_window();
  // SWITCHYARD_LANE_PROFILE set (threads): one line on stderr, where the wall time went.
  void report_lane_profile() const;
  const LinkList& links() const { return links_; }
  const Traffic& traffic() const { return traffic_; }
  // The waveform writer (null unless waves.enable); close() flushes the VCD at the end of a run.
  Waves* waves() { return waves_.get(); }
  // The run is over: the routers that write waves of their own (waves.rtl_nodes) close them.
  void close_router_waves();
  // --- What plug-ins install before the run starts (sim/plugin.hpp) ---
  // Router-level broadcast: the rule the routers replicate broadcast copies by (kept by the
  // caller for the run).
  void set_replication(const ReplicationRule* rule) { fabric_.replication = rule; }
  const ReplicationRule* replication() const { return fabric_.replication; }
  // Broadcasts taken at the NI instead of the routers (node, flits, cycle, measured): a scheme
  // that schedules them itself (dynamic PMNB periods).
  void set_broadcast_request(std::function<void(int, int, Cycle, bool)> fn) {
    fabric_.broadcast_request = std::move(fn);
  }
  // An idling scheme's admission rule: each NI starts its next packet only when the gate says
  // so (kept by the caller for the run; network/injection_gate.hpp).
  void set_injection_gate(InjectionGate* g) { fabric_.gate = g; }
  // Packets a plug-in holds that the network has not taken yet: counted as alive (backlog and
  // the memory limit).
  void add_backlog(std::function<std::uint64_t()> fn) { backlogs_.push_back(std::move(fn)); }
  // Power: every router counts what its units do (router/activity.hpp), from now on (input-VC
  // routers). window_activity(), after settle_link_window(): each router's counts inside the
  // measurement window (those at the window's end less those at its start; zero when the run
  // ended before it opened).
  void count_activity();
  bool counting_activity() const { return !activity_.empty(); }
  const std::vector<RouterActivity>& window_activity() const { return activity_window_; }
  // And each link's flits in the window, in links() order.
  const std::vector<std::uint64_t>& window_link_flits() const { return link_flits_window_; }
  Router& router(int n) { return *routers_[n]; }
  NetworkInterface& ni(int n) { return *nis_[n]; }
  const NetworkInterface& ni(int n) const { return *nis_[n]; }
  Cycle cycles() const { return end_cycle_; }
  std::uint64_t backlog() const;
  void keep_records(bool on) { stats_.keep_records(on); }
  // Per (source, destination) latency sums of the measured packets (simulation.flows_csv).
  void track_flows(bool on) { stats_.track_flows(on ? topo_.num_nodes() : 0); }
  void set_limits(const RunLimits& l) { limits_ = l; }
  // Packets and messages alive: queued at the sources, in the network, or waiting for a period.
  std::uint64_t live_packets() const;
  std::uint64_t credit_violations() const;
  // Requests the NIs refused (every NI; across ranks, after gather_ranks()).
  std::uint64_t requests_rejected() const;
  // Across ranks, after the run and settle_link_window(): each link's and each output unit's
  // counts, kept by the rank that owns its router, summed into every rank's copy (the others'
  // are zero), so the results read them as on one process. Nothing with one rank.
  void gather_ranks();
  bool across_ranks() const { return ranks_ != nullptr; }
  // Called with the current cycle every 2^k cycles, k by the network's size: 16,384 cycles of
  // up to 256 routers, fewer for more (about 4 million router-cycles between calls, a second or
  // so), at least every 256 cycles: progress reporting.
  void set_progress(void (*fn)(const Network&, Cycle, void*), void* arg) {
    progress_ = fn;
    progress_arg_ = arg;
    Cycle every = 16384;
    while (every > 256 && every * routers_.size() > (Cycle{1} << 22)) every /= 2;
    progress_mask_ = every - 1;
  }

  // The exception that ended the run (null: none); run_simulation rethrows it.
  std::exception_ptr failure() const { return failure_; }

 private:
  void start_of_simulation() override;
  void clock();
  void run_cycles();
  std::exception_ptr failure_;
  void step(Cycle t);
  // Input-VC links: busy cycles in the window as tau per flit carried inside it, from each
  // link's flit count where the window opens and closes (not a test per flit).
  void link_window(Cycle t);
  bool check_end(Cycle t);
  void set_patience();
  std::string growth_cause() const;
  Cycle watchdog_ = 0;  // no flit moved this long with flits inside: a deadlock
  Cycle drain_ = 0;
  double zero_load_ = 0;  // one packet alone over the diameter (store-and-forward bound)  // what
                          // is owed not delivered this long after the window (or trace): undrained
  bool over_limits(Cycle t);
  bool backlog_keeps_growing(Cycle t);
  Cycle next_due(Cycle t) const;
  void idle_end(Cycle t);
  const Config cfg_;
  const Topology topo_;
  RoutingUnit routing_;
  Stats stats_;
  Fabric fabric_;
  Traffic traffic_;
  std::vector<std::unique_ptr<NetworkInterface>> ni_store_;
  std::vector<std::unique_ptr<Router>> router_store_;
  std::vector<NetworkInterface*> nis_;
  std::vector<Router*> routers_;
  LinkList links_;
  std::vector<Router*> again_scratch_;
  // The active routers: one bit per router id (routers_ order), and how many bits are set.
  std::vector<std::uint64_t> active_bits_;
  std::size_t active_count_ = 0;
  void set_active(const Router* r) { set_active(r->node()); }
  void set_active(int id) {
    const std::size_t n = static_cast<std::size_t>(id);
    std::uint64_t& w = active_bits_[n / 64];
    const std::uint64_t b = std::uint64_t{1} << (n % 64);
    if (!(w & b)) {
      w |= b;
      ++active_count_;
    }
  }
  void clear_active(const Router* r) {
    const std::size_t n = static_cast<std::size_t>(r->node());
    std::uint64_t& w = active_bits_[n / 64];
    const std::uint64_t b = std::uint64_t{1} << (n % 64);
    if (w & b) {
      w &= ~b;
      --active_count_;
    }
  }
  // The NIs that inject (one thread; bit n: terminal n), so that they step in terminal order
  // whatever order they woke in; NIs woken in a cycle (Fabric::woke_nis) join at the next one.
  std::vector<std::uint64_t> active_ni_bits_;
  std::size_t active_ni_count_ = 0;
  CreditList credits_now_;
  RunState state_;
  RunLimits limits_;
  std::uint64_t evaluations_ = 0;
  Cycle end_cycle_ = 0;
  Cycle last_trace_time_ = 0;
  Cycle next_eval_ = 0;  // first cycle not evaluated yet
  bool external_ = false;
  bool alone_ = false;  // no other process: cycles run on in one activation (clock())
  bool deferred_ = false;
  bool input_vc_ = false;      // input-VC routers: InputVcRouters and/or RTL ones (router.model)
  bool cpp_input_vc_ = false;  // every router is an InputVcRouter (not router.model: rtl, mixed)
  // The staged pipeline with ni_lt 0: a flit an NI injects may leave its router in the same
  // cycle (a body flit, or a header with rc 0), so a router its NI woke is evaluated in that
  // cycle (in node order, after the NIs), not from the next one as a router woken by a flit
  // from another router (which arrives sa + st + lt >= 1 cycles after it left).
  bool inject_now_ = false;
  int link_window_ = 0;    // input-VC links' window: 0 not yet open, 1 open, 2 closed
  Cycle link_edge_ = 0;    // the cycle link_window() next has work (kNever: none)
  Cycle check_from_ = 0;   // check_end(): t + 1 below it, the window's checks have nothing due
  bool prefetch_ = false;  // input-VC routers, 1,024 or more: InputVcRouter::prefetch
  bool near_vcs_ = false;  // every output unit has at most OutputUnit::kNearVcs VCs
  sc_core::sc_event wake_;
  // simulation.threads > 1: the workers and their lanes (network.cpp, evaluate_lane).
  std::unique_ptr<RouterThreads> threads_;
  std::vector<Lane> lanes_;
  std::vector<std::uint8_t> lane_of_word_;  // the lane of each word of active_bits_
  Cycle lane_cycle_ = 0;
  int lane_parity_ = 0;      // the step count's parity (credits_to)
  bool lanes_busy_ = false;  // a lane has NIs injecting or credits to apply
  bool lane_nis_ = false;    // a lane has NIs injecting
  // Packet and message ids finished on the lanes in the last parallel step, not yet given back.
  std::uint64_t lane_ids_back_ = 0, lane_message_ids_back_ = 0;
  bool lane_sources_ = false;  // the synthetic sources request on their lanes
  void set_up_lanes(int lanes);
  std::pair<std::size_t, std::size_t> lane_words(int k) const;  // lane k's words of active_bits_
  void join_lane_woken(Lane& ln);
  // Credits arriving: each to its output unit; then the list is empty.
  void apply_credits(CreditList& cl) {
    if (near_vcs_)  // (every VC in its unit's first line: no check)
      for (const CreditList::Entry& c : cl) c.up->credit<true>(c.vc);
    else
      for (const CreditList::Entry& c : cl) c.up->credit(c.vc);
    cl.clear();
  }
  void evaluate_lane(int k);
  void receive_lane(int k);
  std::size_t evaluate_routers(std::size_t w0, std::size_t w1, Cycle t);
  void step_in_parallel(Cycle t);
  // Network ranks (mpirun): lane k of the lanes is rank k's; the two parts of a step run on
  // this rank's lane only, with an exchange after each (flits across, then credits, the ids
  // given back and the lane's counters): set_up_ranks(), step_across_ranks().
  Ranks* ranks_ = nullptr;
  int rank_ = 0;
  int rank_lanes_ = 1;  // lanes per rank (simulation.threads): rank r's are r * it ...
  std::vector<std::vector<char>> rank_out_, rank_in_;
  // The ranks whose routers have a link to or from this rank's (the flits' exchange is with
  // these only).
  std::vector<int> rank_peers_;
  std::vector<char> rank_mine_, rank_all_;  // this rank's bytes for all; every rank's
  std::vector<std::size_t> rank_at_;        // (rank j's are rank_all_[rank_at_[j] ...])
  std::vector<OutputUnit*> units_;          // every output unit (routers', then NIs'), by index
  std::vector<std::pair<const OutputUnit*, std::uint32_t>> unit_index_;  // sorted by address
  std::uint64_t rejected_total_ = 0;
  bool rejected_gathered_ = false;
  void set_up_ranks(Ranks* ranks);
  std::uint32_t unit_of(const OutputUnit* u) const;
  void step_across_ranks();
  // SWITCHYARD_LANE_PROFILE with ranks: a step's parts on this rank (evaluate, pack and
  // exchange the flits, unpack and receive, pack the rest, gather it, unpack it).
  double rank_parts_s_[6] = {};
  std::chrono::steady_clock::time_point rank_mark_{};
  void rank_time(int part);
  // SWITCHYARD_LANE_PROFILE set: where a threaded run's wall time goes, printed at the end.
  bool lane_profile_ = false;
  double lane_parallel_s_ = 0, lane_serial_s_ = 0, lane_between_s_ = 0;
  std::chrono::steady_clock::time_point lane_last_{};
  std::unique_ptr<Waves> waves_;
  std::string rtl_vcd_path(const std::string& out_dir, int n) const;
  // Power: the routers' running counts, and the window's (at its start, then settled).
  std::vector<RouterActivity> activity_, activity_window_;
  std::vector<std::uint64_t> link_flits_window_;
  std::vector<std::function<std::uint64_t()>> backlogs_;
  std::uint64_t held_by_plugins() const;
  int waves_tail_ = 0;
  void (*progress_)(const Network&, Cycle, void*) = nullptr;
  void* progress_arg_ = nullptr;
  Cycle progress_mask_ = 16383;
};

}  // namespace sy
