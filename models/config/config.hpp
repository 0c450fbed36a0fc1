// Config: the parsed and validated experiment. Every key is known; every error names the file,
// line and key path (ConfigError, exit code 2 at the CLI). Units take the small structs they need.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/config/tech.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Buffering { InputVc, OutputQueued, Circuit };
enum class Switching { Wormhole, VirtualCutThrough, StoreAndForward, DirectConnect };
enum class ArbPolicy : std::uint8_t { RoundRobin, OldestFirst };
enum class TieBreak { Positive, Negative, Balanced };
// OnOff: BookSim2's two-state Markov source (injection_process on_off): a Bernoulli source at
// the on-state rate r1 = r (alpha + beta) / alpha while on, silent while off (TrafficConfig).
enum class Process { Bernoulli, Poisson, OnOff };
enum class Pattern {
  Uniform,
  Transpose,
  BitComplement,
  Hotspot,
  BitFlip,
  Tornado,            // every coordinate + ceil(n/2) - 1 (mod n): half way round each ring
  Neighbor,           // every coordinate + 1 (mod n)
  Shuffle,            // node id bits rotated left by one (N a power of two)
  BitReverse,         // node id bits reversed (N a power of two)
  BitRotation,        // node id bits rotated right by one (N a power of two)
  RandomPermutation,  // a permutation drawn from the seed, fixed for the run
  Matrix,             // a traffic matrix from a CSV: a rate per (source, destination)
  Adversarial,        // the network's worst case (IndirectNetwork::adversarial_destination)
};
// priority_star / fcfs_direct: the STAR tree from the source (direct); indirect: the packet goes
// to the root of one of d global trees first (drawn uniformly; tree l is rooted at node
// (root + l) mod N and covers the dimensions ending with l), then down that tree.
// dimension_order: one fixed tree per source, dimension 0 first, then 1, ... (tori, meshes,
// hypercubes; schemes/dimorder/dim_order.hpp).
enum class BroadcastScheme {
  None,
  PriorityStar,
  FcfsDirect,
  Indirect,
  PmnbIii,
  PmnbIi,
  DimensionOrder
};
// A packet whose destination is its own node: never drawn (exclude), delivered by the NI in its
// creation cycle with delay 0 (deliver_locally, the papers' zero-hop packets), or sent through
// the node's own router like any other packet (through_router).
enum class SelfTraffic { Exclude, DeliverLocally, ThroughRouter };

struct TopologyConfig {
  Topology::Kind kind = Topology::Kind::Torus;
  std::vector<int> dims{8, 8};  // direct networks
  int size2_links = 1;  // torus: links each way in a size-2 dimension (1, or 2: '+' and '-')
  // A size-2 dimension with two links each way (size2_links 2 and a dimension of size 2).
  bool two_link_size2() const {
    return size2_links == 2 && std::find(dims.begin(), dims.end(), 2) != dims.end();
  }
  int k = 2, n = 4;  // butterfly: radix and stages (k^n rows, n + 1 levels); fat_tree: k-ary n-tree
  int concentration = 1;  // cmesh: terminals per router (dims: the router mesh)
  // dragonfly: p terminals per router, a routers per group, h global links per router, g groups;
  // link latencies (0: router.pipeline.lt): local and global (dragonfly), from the file (anynet).
  int p = 0, a = 0, h = 0, g = 0;
  int local_latency = 0, global_latency = 0;
  std::string file;  // anynet: the network file (as written in the config)
  // The network the parser built (dragonfly, flatfly, anynet); make() wraps it.
  std::shared_ptr<const IndirectNetwork> built;
  Topology make() const {
    if (built) return Topology::indirect(kind, built);
    if (kind == Topology::Kind::Butterfly) return Topology::butterfly(k, n);
    if (kind == Topology::Kind::CMesh) return Topology::cmesh(dims, concentration);
    if (kind == Topology::Kind::FatTree) return Topology::fat_tree(k, n);
    return Topology(kind, dims, size2_links);
  }
};

// The staged router pipeline of input_vc routers (router.pipeline; absent: the ideal pipeline,
// timing.delta cycles per hop and free all-port ejection). A header is written into its VC and
// routed in rc cycles, then allocated an output VC by the VC allocator (va cycles; with
// speculative, switch allocation may be granted in the VA cycle itself), then wins the switch
// (sa), crosses it (st) and the link (lt). Body flits only take sa + st + lt. A credit is usable
// upstream credit_delay cycles after its flit left the buffer. Flits for this node leave through
// one of ejection_ports ejection outputs (their own VCs and allocation, an ni_lt-cycle channel to
// the NI); the NI's injection channel also takes ni_lt cycles (default: lt). A credit of an NI
// channel (injection or ejection) is usable credit_delay - lt + ni_lt cycles after its flit left
// (at least 1): the credit channel has the NI channel's latency.
struct PipelineConfig {
  bool staged = false;
  int rc = 1, va = 1, sa = 1, st = 1, lt = 1;
  int ni_lt = 1;  // the NI's injection and ejection channels (router.pipeline.ni_lt; default lt)
  int credit_delay = 1;
  bool speculative = false;
  int ejection_ports = 1;
  // A header's cycles through one router, from its arrival to its arrival at the next router
  // (without contention): rc + va + sa + st + lt, or rc + max(va, sa) + st + lt speculatively.
  int router_cycles() const { return rc + (speculative ? std::max(va, sa) : va + sa) + st; }
  int hop_cycles() const { return router_cycles() + lt; }
  // The credit delay of an NI channel (injection into, ejection from the router).
  int ni_credit_delay() const { return std::max(1, credit_delay - lt + ni_lt); }
};

struct RouterConfig {
  Buffering buffering = Buffering::InputVc;
  Switching switching = Switching::Wormhole;
  int vcs = 2;
  int vc_depth = 4;
  ArbPolicy arbitration = ArbPolicy::RoundRobin;
  int priority_classes = 1;
  PipelineConfig pipeline;
  // Allocators by name (router/allocators/): switch allocation separable_input_first (default;
  // priority classes and oldest_first) | separable_output_first | islip (allocator_iterations
  // rounds) | wavefront; VC allocation (staged pipeline) separable_input_first |
  // separable_output_first.
  std::string switch_allocator = "separable_input_first";
  std::string vc_allocator = "separable_input_first";
  int allocator_iterations = 1;
  // A VC is reallocated once its tail has left and every credit is back (true), or as soon as
  // its tail has left (false, BookSim2's default; wormhole only): the next packet then follows
  // into the same downstream VC and is routed when its header reaches the front.
  bool wait_for_tail_credit = true;
  // Staged pipeline, BookSim2's iq_router knobs. hold_switch_for_packet: a VC that wins the
  // switch with a flit that is not its packet's tail keeps its crossbar connection (its input,
  // and the output) for the next flit, without allocation, while that flit is in and has a credit;
  // the connection is released when the tail passes, the VC runs dry, or a flit finds no credit
  // (that VC then bids again the cycle after). input_speedup s: the crossbar has s inputs per
  // input port, VC v on input v mod s, so an input sends up to s flits a cycle (to different
  // outputs); output_speedup s: s crossbar outputs per output port, input p on output p mod s,
  // into an output buffer (output_buffer_size flits, 0 = unbounded) that puts one flit a cycle
  // on the link.
  bool hold_switch_for_packet = false;
  int input_speedup = 1, output_speedup = 1;
  int output_buffer_size = 0;
  bool switch_knobs() const {
    return hold_switch_for_packet || input_speedup > 1 || output_speedup > 1;
  }
  // Staged pipeline, BookSim2's VC allocation knobs (models/router/vc_allocator.hpp):
  // vc_request all_free: a header requests every free output VC of its range and its input
  // arbiter picks one (round robin), not only the lowest free one (separable_input_first);
  // vc_busy_when_full: a free output VC without a credit is not requested; vc_prioritize_empty:
  // a header prefers the free output VCs whose downstream buffer is empty.
  bool vc_request_all_free = false;
  bool vc_busy_when_full = false;
  bool vc_prioritize_empty = false;
  // router.model: rtl puts a Verilated RTL router (router.rtl names it; builds with
  // SWITCHYARD_COSIM register them, models/router/rtl_registry.hpp) in place of the C++ staged
  // router at every node; cpp (default) is the C++ router.
  bool rtl = false;
  std::string rtl_name = "sy_vc_router";
  // router.rtl_nodes: the routers that get the RTL router, in increasing order; empty: every
  // router (all, the default). The others get the C++ staged router (a mixed network).
  std::vector<int> rtl_nodes;
  bool rtl_at(int node) const {
    return rtl &&
           (rtl_nodes.empty() || std::binary_search(rtl_nodes.begin(), rtl_nodes.end(), node));
  }
};

struct TimingConfig {
  int alpha = 0;        // start-up cycles per message at the source NI
  int delta = 1;        // cycles a header spends switching through one router
  int tau = 1;          // cycles per flit per link
  int ack_per_hop = 0;  // direct_connect: cycles per hop for the destination's acknowledgment
};

struct RoutingConfig {
  std::string algorithm = "dimension_order";  // router/routing/: one file per algorithm
  TieBreak tie_break = TieBreak::Balanced;
  // Dimension-order routing on rings: a packet's dateline VC class is the upper half from the
  // wraparound link on (false, the classic scheme), or chosen as it enters the ring for the whole
  // traversal: the upper half if the traversal will cross the wraparound link (true, BookSim2's
  // dor_next_torus; both halves then carry traffic before the dateline).
  bool dateline_on_entry = false;
  bool allow_deadlock = false;    // fewer VCs than the algorithm needs: a warning, not an error
  bool random_selection = false;  // adaptive: a usable candidate at random, not by credits
  int ugal_threshold = 30;        // dragonfly ugal_threshold: BookSim2's adaptive_threshold (flits)
};

struct TraceMessage {
  std::uint64_t time;
  int src, dst, flits, priority;
};

// How a NetworkInterface puts packets into its router.
//  serial:   through injection channels at link rate, one packet at a time per channel (a real
//            NI; input-VC routers get one injection port per channel);
//  all_port: every packet enters its first output queue (output-queued routers) or starts its
//            circuit (circuit routers) alpha cycles after its request, however many at once: the
//            ideal all-port node of the papers. Circuit NIs are always all-port.
enum class Injection { Serial, AllPort };

// When an NI may start its next packet, beyond its injection ports (network_interface.discipline).
//  greedy: as soon as a port takes it (never idling: the default);
//  rounds: the idling scheme of the greedy-routing paper's section 2.3 ([VaB81]'s first phase,
//          repeated): each node starts at most one packet per round, a round begins when the
//          last packet of the one before has been received (a barrier over the whole network,
//          kept by the plug-in in schemes/greedy/rounds_plugin.*), and the packets waiting then
//          at the other nodes join it. One thread (simulation.threads falls back to 1).
enum class Discipline { Greedy, Rounds };

// The largest message an NI takes: 2^24 flits, and a byte length (flits x flit_bytes) that fits
// the TLM payload's 32-bit data length. Configs are checked against both; a TLM request beyond
// them is answered TLM_GENERIC_ERROR_RESPONSE and counted as rejected.
constexpr std::uint64_t kMaxMessageFlits = std::uint64_t{1} << 24;
constexpr std::uint64_t kMaxMessageBytes = 0xFFFFFFFFu;
// The latest cycle a message may be requested for (the config's cycle keys share it): 2^50.
constexpr std::uint64_t kMaxRequestCycle = std::uint64_t{1} << 50;

struct InterfaceConfig {
  int flit_bytes = 16;  // a TLM payload of B bytes is ceil(B / flit_bytes) flits (at least 1)
  Injection injection = Injection::Serial;
  int injection_channels = 1;  // serial: packets in flight from the NI at once
  Discipline discipline = Discipline::Greedy;
  // The clock period seen by TLM initiators: network_interface.clock_ns, kept in picoseconds
  // (SystemC's default resolution), 1 ps .. 1 ms.
  std::uint64_t clock_ps = 1000;
};

// Random broadcasting (router-level replication along STAR trees, output_queued routers).
struct BroadcastConfig {
  BroadcastScheme scheme = BroadcastScheme::None;
  bool balanced = true;  // ending dimension with the STAR balance probabilities, else 1/d each
  // The balance's unicast hops per dimension: exact (false) or the paper's floor(n_i/4) (true).
  bool paper_hops = false;
  int classes = 2;              // priority_star: 2 (unicast high) or 3 (unicast medium)
  double rate = 0;              // broadcast packets per node per cycle (Poisson)
  int root = 0;                 // indirect: tree l is rooted at node (root + l) mod N
  double scan_slots = 1;        // pmnb_iii / pmnb_ii: slots per scan step (the paper's t_p, real)
  bool theorem_periods = true;  // pmnb: periods of V + M X slots (false: the schedule's length)
  bool pmnb() const {
    return scheme == BroadcastScheme::PmnbIii || scheme == BroadcastScheme::PmnbIi;
  }
  bool enabled() const { return scheme != BroadcastScheme::None; }
  // The arbitration class of a hop (0 highest): priority STAR puts broadcast hops on the ending
  // dimension low, the other broadcast hops high, unicast high (2 classes) or medium (3);
  // FCFS has one class.
  int hop_class(bool broadcast, bool on_ending_dim) const {
    if (scheme != BroadcastScheme::PriorityStar) return 0;
    if (!broadcast) return classes == 3 ? 1 : 0;
    return !on_ending_dim ? 0 : classes == 3 ? 2 : 1;
  }
};

// One class of synthetic traffic (traffic.classes): its share of the rate (in the rate's unit),
// its packets' length and priority class. A packet carries its class's index.
struct TrafficClass {
  std::string name;
  double share = 1;
  int packet_flits = 8;
  int priority = 0;
};

struct TrafficConfig {
  bool trace = false;     // trace or none: the statistics window is the whole run
  bool none = false;      // no built-in source: the network is driven through the NIs' TLM sockets
  bool exchange = false;  // total_exchange: a trace of one packet from every node to every other
  Process process = Process::Bernoulli;
  double rate = 0.1;
  bool rate_in_flits = true;
  int packet_flits = 8;
  // process on_off (traffic.burst): each cycle an off source turns on with probability
  // burst_alpha, an on source turns off with probability burst_beta (BookSim2's burst_alpha and
  // burst_beta): on-periods of 1/beta cycles on average, off-periods of 1/alpha; the long-run
  // rate stays `rate` (the on-state rate is rate (alpha + beta) / alpha).
  double burst_alpha = 0, burst_beta = 0;
  // traffic.packet_sizes with packet_size_weights (BookSim2's packet_size and packet_size_rate):
  // each packet of the one-class source draws its length from these, with these weights; empty:
  // every packet packet_flits long. Given: packet_flits is the largest size.
  std::vector<int> packet_sizes;
  std::vector<double> packet_size_weights;
  // The mean packet length of the one-class source (over packets): packet_flits, or the
  // weighted mean of packet_sizes.
  double source_mean_flits() const {
    if (packet_sizes.size() < 2) return packet_flits;
    double w = 0, f = 0;
    for (std::size_t i = 0; i < packet_sizes.size(); ++i) {
      w += packet_size_weights[i];
      f += packet_size_weights[i] * packet_sizes[i];
    }
    return f / w;
  }
  // The on-state rate of an on_off source whose long-run rate is p (packets per cycle).
  double on_rate(double p) const { return p * (burst_alpha + burst_beta) / burst_alpha; }
  Pattern pattern = Pattern::Uniform;
  // Zero-hop packets. Default: exclude for uniform and hotspot, through_router for the
  // patterns that map a node onto itself (bit_flip, transpose, bit_complement).
  SelfTraffic self = SelfTraffic::Exclude;
  bool exclude_self() const { return self == SelfTraffic::Exclude; }
  std::vector<int> hotspot_nodes{0};
  double hotspot_fraction = 0.1;
  double bit_flip_probability = 0.5;
  std::string matrix_file;     // pattern: matrix
  std::vector<double> matrix;  // N x N, row = source: rate_unit per cycle per pair
  int priority = 0;
  std::vector<TraceMessage> messages;  // trace: inline list and/or CSV file, sorted by time
  std::string trace_file;
  // Packets of at most this many flits per message (0: a message is one packet).
  int max_packet_flits = 0;
  BroadcastConfig broadcast;
  // load: {rho, broadcast_share} sets the unicast and broadcast rates from the throughput factor
  // (rho < 0: not given).
  double load_rho = -1, broadcast_share = 0;
  // traffic.classes: synthetic traffic in classes (empty: one class of packet_flits-flit
  // packets at priority `priority`; given: packet_flits is the longest class's length).
  std::vector<TrafficClass> classes;
  int traffic_classes() const { return classes.empty() ? 1 : static_cast<int>(classes.size()); }
  // The traffic classes a message may name (NocExtension::traffic_class): traffic.classes, or
  // any of kMaxClasses when the network is driven from outside (type none).
  int traffic_class_limit() const { return none ? kMaxClasses : traffic_classes(); }
  // Packets per node per cycle of class c (rate_unit flits: its share of the flits).
  double class_packets_per_cycle(int c) const {
    if (classes.empty()) return rate_in_flits ? rate / source_mean_flits() : rate;
    const TrafficClass& k = classes[static_cast<std::size_t>(c)];
    return rate_in_flits ? rate * k.share / k.packet_flits : rate * k.share;
  }
  double packets_per_cycle() const {
    if (classes.empty()) return class_packets_per_cycle(0);
    double p = 0;
    for (int c = 0; c < traffic_classes(); ++c) p += class_packets_per_cycle(c);
    return p;
  }
  // The mean length of a packet (over packets): source_mean_flits() for one class.
  double mean_packet_flits() const {
    if (classes.empty()) return source_mean_flits();
    double p = 0, f = 0;
    for (int c = 0; c < traffic_classes(); ++c) {
      p += class_packets_per_cycle(c);
      f += class_packets_per_cycle(c) * classes[static_cast<std::size_t>(c)].packet_flits;
    }
    return p > 0 ? f / p : packet_flits;
  }
};

struct SimulationConfig {
  std::uint64_t warmup = 1000;
  std::uint64_t measure = 10000;
  std::uint64_t drain_limit = 50000;      // cycles after the window to deliver measured packets
  std::uint64_t deadlock_cycles = 20000;  // no flit moves for this long with flits inside: stop
  std::uint64_t seed = 1;
  int batches = 20;  // batch means for the 95% confidence interval
  // Refuse a run whose estimated memory (sim/estimate.hpp) is above this; 0: not given, 80% of the
  // machine's memory.
  double max_memory_gb = 0;
  // Stop a run after this many seconds of wall time with a partial result (exit 3); 0: no limit.
  double max_wall_seconds = 0;
  // Stop a run early (saturated, exit 3) when more packets than this are alive, queued at the
  // sources or in the network; 0: not given, what the memory left under max_memory_gb holds.
  std::uint64_t max_backlog_packets = 0;
  // Write out/<name>/flows.csv: per (source, destination) the measured packets and their latency
  // (N^2 accumulators, counted in the memory estimate).
  bool flows_csv = false;
  // Threads evaluating the routers of a cycle (the results do not depend on it, so results.json
  // does not echo it); 1 where the parallel part could reach another router within a cycle.
  int threads = 1;
};

// A static communication algorithm executed by the nodes (circuit-switched broadcast schedules,
// or a user's explicit list of transmissions).
struct ScheduleConfig {
  std::string algorithm;  // empty: none; tiling | divide_and_conquer | h_trees |
                          // store_and_forward_trees | explicit | total_exchange | octr | oadd |
                          // greedy | mnb | pmnb
  std::shared_ptr<const Schedule> explicit_schedule;  // algorithm: explicit, checked
  int message_flits = 1;                              // L
  int packet_flits = 0;                               // B (pipelined algorithms; 0: B = L)
  int root = 0;
  std::string variant = "slanting";  // tiling: slanting | boss_blocks | blocks_first
  bool barrier = false;              // synchronous phases (all nodes start phase p together)
  std::vector<int> sources;          // pmnb: the nodes that broadcast (drawn when empty)
  int packets = 0;                   // pmnb: M, when sources are drawn from the seed
  double scan_slots = 1;             // pmnb: slots per scan step (the paper's t_p, real)
  bool compact_plan = false;         // pmnb*, mnb*: the plan packed 4 bytes a hop, run slot by slot
  // Isotropic tasks (octr | oadd | greedy; total_exchange = octr of the total exchange):
  std::string task = "total_exchange";  // total_exchange | neighbourhood | tags
  int near = 1, far = 0;                // neighbourhood: distances near..far (far 0: diameter)
  std::vector<std::vector<int>> tags;   // tags: hypercube {src ^ dst}; torus: offsets per dim
  int links = 0;                        // octr: at most this many links per node per slot (0: all)
  bool enabled() const { return !algorithm.empty(); }
};

// VCD waveforms (network/waves.hpp), off by default.
struct WavesConfig {
  bool enable = false;
  std::string file = "run.vcd";  // in the run's output folder; the .gtkw save file beside it
  std::vector<int> routers;      // empty: all routers
  std::uint64_t from_cycle = 0, to_cycle = ~std::uint64_t{0};
  std::uint64_t packet = 0;  // the packet id to follow (its marker and view); 0: none
  // With power on: each traced router's power (uW) over the last power_window cycles,
  // r<n>.power_uw.
  bool power = false;
  int power_window = 100;
  // waves.rtl_nodes: RTL routers (router.model: rtl) whose insides are dumped (Verilator
  // tracing) into rtl_<node>.vcd beside waves.file, with rtl_<node>.gtkw; increasing order.
  // Independent of waves.enable; not in results.json (recording changes nothing in the model).
  std::vector<int> rtl_nodes;
};

// Energy, power and area (power/, issue 30): the routers count their units' events and the
// models price them with a technology file's parameters. On when the section is given.
struct PowerConfig {
  bool enable = false;
  Tech tech;  // power.tech: a built-in technology (configs/tech/<name>.yaml) or a file
  double frequency_ghz = 1.0;
  int flit_width_bits = 128;
  double link_length_mm = 1.0;
  // power.link_lengths_mm: {class: mm}: the links of a class (topology link classes: d0, d1, ...;
  // level0.straight, ... in a butterfly) this long instead; by class index, -1: link_length_mm.
  std::vector<double> class_length_mm;
  bool sram_buffers = false;  // power.buffer: flip_flop (default) | sram
  bool mux_crossbar = false;  // power.crossbar: matrix (default) | mux_tree
  double activity = 0.5;      // the probability that a data bit toggles between flits
  bool clock_gating = false;  // an idle router's clock is gated (no clock energy that cycle)
};

struct Config {
  std::string source = "<config>";
  TopologyConfig topology;
  RouterConfig router;
  TimingConfig timing;
  RoutingConfig routing;
  InterfaceConfig interface;
  TrafficConfig traffic;
  SimulationConfig simulation;
  WavesConfig waves;
  ScheduleConfig schedule;
  PowerConfig power;
  std::string name = "run";
  std::vector<std::string> warnings;
  // Warnings about how the run is executed, not what it models (simulation.threads): printed,
  // but not in results.json, which must not depend on them.
  std::vector<std::string> execution_warnings;
};

// Loads a YAML file; overrides are "key.path=value" applied before validation.
Config load_config(const std::string& path, const std::vector<std::string>& overrides = {});
// The longest message a run may send, in flits: traffic.packet_flits, a trace's longest message,
// a schedule's message_flits.
double longest_message_flits(const Config& c);
// That message alone over `hops` hops, store-and-forward (the slowest one packet can take without
// contention): alpha + hops * (delta + L tau) + a circuit's acknowledgment.
double lone_message_cycles(const Config& c, int hops);
// The largest config file load_config reads (16 MiB).
constexpr std::size_t kMaxConfigBytes = std::size_t{16} << 20;
// Why a file named in a config (or the config itself) cannot be read as one: "is a directory",
// "is a device or a socket, not a file", "does not exist", ...; "" when it can.
std::string unreadable_file(const std::string& path);
Config parse_config(const std::string& yaml_text, const std::string& source_name,
                    const std::vector<std::string>& overrides = {});

// A Config built or changed in code (not by the parser): its fields checked against the
// parser's ranges and the cross-key rules a run depends on; a ConfigError "config (in code):
// key.path: what" otherwise. run_simulation calls it first. (The parser's own checks, with file
// and line, are the full set: a config from YAML text has passed them all.)
void check_config(const Config& c);

// The fully resolved config as a JSON object (for results.json).
std::string config_to_json(const Config& c, int indent);

const char* to_string(Buffering b);
const char* to_string(Switching s);
const char* to_string(ArbPolicy a);
const char* to_string(TieBreak t);
const char* to_string(Process p);
const char* to_string(Pattern p);
const char* to_string(BroadcastScheme b);
const char* to_string(Injection i);
const char* to_string(Discipline d);
const char* to_string(SelfTraffic s);

}  // namespace sy
