// One line of meaning per config key, by path (`switchyard keys`). The keys themselves, their
// types, defaults and ranges come from the parser (config/keys.cpp); config_keys() reports a key
// the parser reads that has no line here, and a line here for a key the parser does not read.
// The user guide's "Config reference" says more about each.
#include "switchyard/config/keys.hpp"

namespace sy {

const std::vector<std::pair<std::string, std::string>>& key_meanings() {
  static const std::vector<std::pair<std::string, std::string>> docs = {
      {"name", "the run's name: its output directory out/<name> and results.json's name"},
      // topology
      {"topology",
       "the network: direct (torus, mesh, hypercube) or indirect (butterfly, cmesh, fat_tree, "
       "anynet, dragonfly, flatfly)"},
      {"topology.type",
       "torus and mesh: dims; hypercube: dim; butterfly and fat_tree: k and n; cmesh: dims "
       "and concentration; anynet: file; dragonfly: p, a, h, g and link latencies; flatfly: k, n "
       "and concentration"},
      {"topology.dims", "torus or mesh: the size of each dimension (cmesh: of the router mesh)"},
      {"topology.concentration",
       "cmesh and flatfly: terminals per router (each with its own ports; flatfly default k)"},
      {"topology.size2_links",
       "torus: links each way in a size-2 dimension: 1 (one link, port dN) or 2 (ports dN+ and "
       "dN-, both to the other node: the p = 2 torus with two links per direction)"},
      {"topology.dim", "hypercube: the dimension d (2^d nodes)"},
      {"topology.k",
       "butterfly: the radix (k-ary n-fly: k^n rows); fat_tree: the arity (k-ary n-tree); "
       "flatfly: routers per dimension"},
      {"topology.n",
       "butterfly: the stages (n + 1 levels of routers, n hops); fat_tree: the levels; flatfly: "
       "the dimensions (k^n routers)"},
      {"topology.file",
       "anynet: the network file, BookSim2's anynet format (relative to the config)"},
      {"topology.deadlock",
       "anynet: shortest paths on VC layers (layers), up*/down* routes on one class (up_down), "
       "or shortest paths on one class if acyclic (none)"},
      // dragonfly
      {"topology.p", "dragonfly: terminals per router"},
      {"topology.a", "dragonfly: routers per group (fully connected by local links)"},
      {"topology.h", "dragonfly: global links per router"},
      {"topology.g", "dragonfly: groups (2 .. a*h + 1; a*h + 1: one link per pair of groups)"},
      {"topology.local_latency",
       "dragonfly: cycles on a local link (0: router.pipeline.lt; non-zero: staged pipeline)"},
      {"topology.global_latency",
       "dragonfly: cycles on a global link (0: router.pipeline.lt; non-zero: staged pipeline)"},
      // router
      {"router", "the routers: buffering, switching, VCs, arbitration, allocators, pipeline"},
      {"router.buffering",
       "input_vc: finite VCs and credits; output_queued: ideal FIFOs; circuit: held paths"},
      {"router.switching",
       "how a packet crosses a router (circuit routers: direct_connect or "
       "wormhole)"},
      {"router.vcs", "input_vc: virtual channels per input port"},
      {"router.vc_depth",
       "input_vc: flits per VC (cut-through and store-and-forward: >= the "
       "largest packet)"},
      {"router.arbitration", "within a priority class: round-robin or oldest first"},
      {"router.priority_classes", "strict priority classes, 0 the highest"},
      {"router.switch_allocator", "input_vc: the switch allocator (models/router/allocators/)"},
      {"router.allocator_iterations", "switch_allocator islip: request-grant-accept rounds"},
      {"router.vc_allocator", "staged pipeline: the VC allocator"},
      {"router.wait_for_tail_credit",
       "wormhole input_vc: reallocate a VC only when every credit is back (false: when its "
       "tail leaves)"},
      {"router.hold_switch_for_packet",
       "staged pipeline: a packet keeps its switch connection from head to tail while its "
       "flits are in and have credits (BookSim2's)"},
      {"router.input_speedup",
       "staged pipeline: crossbar inputs per input port (VC v on v mod s): up to s flits a "
       "cycle from one input"},
      {"router.output_speedup",
       "staged pipeline: crossbar outputs per output port (input p on p mod s), into an "
       "output buffer drained one flit a cycle"},
      {"router.output_buffer_size",
       "output_speedup > 1: flits the output buffer holds (0: unbounded, BookSim2's -1)"},
      {"router.vc_request",
       "staged pipeline, separable_input_first: a header requests the lowest free output VC "
       "of its range, or every free one (all_free, BookSim2's; the NI then also injects round "
       "robin over its free injection VCs)"},
      {"router.vc_busy_when_full",
       "staged pipeline: a free output VC whose downstream buffer is full is not requested "
       "(BookSim2's vc_busy_when_full; needs wait_for_tail_credit: false)"},
      {"router.vc_prioritize_empty",
       "staged pipeline: a header prefers free output VCs whose downstream buffer is empty "
       "(BookSim2's vc_prioritize_empty; needs wait_for_tail_credit: false)"},
      {"router.model",
       "cpp (default) | rtl: a Verilated RTL router in place of the C++ staged router at every "
       "node, or at router.rtl_nodes (builds with SWITCHYARD_COSIM; rtl/README.md)"},
      {"router.rtl",
       "router.model rtl: which RTL router (sy_vc_router, rtl/router/; the example "
       "sy_vc_router_inreg, rtl/examples/; one added with switchyard_add_rtl_router)"},
      {"router.rtl_nodes",
       "router.model rtl: all (default) or a list of router ids: the RTL router there, the C++ "
       "staged router at the others (a mixed network)"},
      {"router.pipeline", "input_vc: the staged pipeline (absent: the ideal one, delta per hop)"},
      {"router.pipeline.rc", "route computation cycles, with the buffer write"},
      {"router.pipeline.va", "VC allocation cycles"},
      {"router.pipeline.sa", "switch allocation cycles"},
      {"router.pipeline.st", "switch traversal cycles"},
      {"router.pipeline.lt", "link traversal cycles (also the NI's channels unless ni_lt)"},
      {"router.pipeline.ni_lt",
       "the NI's injection and ejection channel cycles (default: lt; their credits "
       "credit_delay - lt + ni_lt)"},
      {"router.pipeline.credit_delay",
       "cycles from a flit leaving a buffer to its credit being usable upstream"},
      {"router.pipeline.speculative",
       "switch allocation in the VA cycle (rc + max(va, sa) + st "
       "+ lt per hop)"},
      {"router.pipeline.ejection_ports", "ejection outputs to the NI, each with vcs VCs"},
      // timing
      {"timing", "the linear cost model alpha + h delta + L tau, in cycles"},
      {"timing.alpha", "start-up cycles per message at the source NI"},
      {"timing.delta", "cycles a header spends switching through one router"},
      {"timing.tau", "cycles per flit per link"},
      {"timing.ack_per_hop", "direct_connect: acknowledgment cycles per hop"},
      // routing
      {"routing", "the routing algorithm and its choices"},
      {"routing.algorithm",
       "dimension order, adaptive, oblivious or turn-model routing; nca_adaptive, nca_random, "
       "nca_two_choice, nca_two_choice_once on fat trees; ugal_threshold on dragonflies "
       "(models/router/routing/)"},
      {"routing.allow_deadlock", "fewer VCs than the algorithm needs: a warning, not an error"},
      {"routing.selection",
       "adaptive: the candidate with most credits downstream, or a random "
       "usable one"},
      {"routing.ugal_threshold",
       "ugal_threshold on a dragonfly: minimal when its queue <= 2 x the non-minimal queue + "
       "this (flits; BookSim2's adaptive_threshold)"},
      {"routing.tie_break", "a destination exactly n/2 away on an even ring: which way"},
      {"routing.dateline",
       "dimension_order on tori: the upper VC half from the wraparound link "
       "on, or for the whole ring when it crosses it"},
      // network_interface
      {"network_interface", "the NIs: flit size, injection, clock"},
      {"network_interface.flit_bytes",
       "bytes per flit: a TLM payload of B bytes is "
       "ceil(B/flit_bytes) flits"},
      {"network_interface.injection",
       "serial: through injection channels at link rate; "
       "all_port: the papers' ideal all-port node"},
      {"network_interface.injection_channels", "serial: packets in flight from the NI at once"},
      {"network_interface.discipline",
       "greedy: a packet starts as soon as a port takes it; rounds: one packet per node and "
       "round, the next round when the last packet is received (the greedy paper's idling "
       "scheme)"},
      {"network_interface.clock_ns",
       "the cycle in SystemC time (a whole number of ps); results "
       "stay in cycles"},
      // traffic
      {"traffic", "what the nodes send: synthetic sources, a trace, or nothing"},
      {"traffic.type",
       "synthetic sources, a trace, none (your TLM initiators) or the routers' "
       "total exchange"},
      {"traffic.max_packet_flits", "> 0: messages longer than this are cut into packets"},
      {"traffic.priority", "the priority class of generated packets"},
      {"traffic.broadcast", "random broadcasting, replicated in the routers"},
      {"traffic.broadcast.scheme",
       "the broadcast trees (STAR, or dimension_order: dimension 0 first) or the PMNB periods; "
       "none: no broadcasts"},
      {"traffic.broadcast.ending", "STAR ending dimension: balance probabilities, or 1/d each"},
      {"traffic.broadcast.balance_hops",
       "STAR balance: exact unicast hops per dimension, or the paper's floor(n_i/4)"},
      {"traffic.broadcast.root", "indirect: the node the global trees start from"},
      {"traffic.broadcast.classes", "priority_star: 2 (unicast high) or 3 (unicast medium)"},
      {"traffic.broadcast.scan_slots",
       "pmnb_*: slots per scan step (t_p, real: t_p packet_flits whole flits)"},
      {"traffic.broadcast.period",
       "pmnb_*: periods of the theorem's length, or the schedule's "
       "own"},
      {"traffic.broadcast.rate", "synthetic: broadcast packets per node per cycle"},
      {"traffic.packet_flits", "flits per packet (synthetic, total_exchange)"},
      {"traffic.classes", "synthetic traffic in classes, each a source of its own at every node"},
      {"traffic.classes[].name", "its name in the results (default class0, class1, ...)"},
      {"traffic.classes[].share", "its share of rate, in rate_unit (the shares add up to 1)"},
      {"traffic.classes[].packet_flits", "its packets' length in flits"},
      {"traffic.classes[].priority", "its packets' priority class"},
      {"traffic.messages", "trace: the messages inline"},
      {"traffic.messages[].time", "the cycle the message is requested"},
      {"traffic.messages[].src", "its source node"},
      {"traffic.messages[].dst", "its destination node"},
      {"traffic.messages[].flits", "its length in flits"},
      {"traffic.messages[].priority", "its priority class"},
      {"traffic.file", "trace: a CSV of time,src,dst,flits[,priority] (relative to the config)"},
      {"traffic.process",
       "synthetic: at most one packet a cycle, a Poisson batch per cycle, or on/off bursts"},
      {"traffic.burst", "process on_off: BookSim2's two-state source (burst_alpha, burst_beta)"},
      {"traffic.burst.alpha",
       "on_off: probability per cycle that an off source turns on (off-periods of 1/alpha)"},
      {"traffic.burst.beta",
       "on_off: probability per cycle that an on source turns off (on-periods of 1/beta)"},
      {"traffic.packet_sizes",
       "synthetic, one class: packet lengths drawn per packet (BookSim2's packet_size)"},
      {"traffic.packet_size_weights",
       "the weight of each of packet_sizes (BookSim2's packet_size_rate; default all 1)"},
      {"traffic.rate_unit", "the unit of rate: flits or packets"},
      {"traffic.rate", "per node per cycle, in rate_unit"},
      {"traffic.pattern", "synthetic: how destinations are chosen"},
      {"traffic.hotspot", "pattern hotspot: where and how much"},
      {"traffic.hotspot.nodes", "the hotspot nodes"},
      {"traffic.hotspot.fraction", "the fraction of packets sent to one of them"},
      {"traffic.bit_flip_probability",
       "bit_flip: each address bit flipped with this "
       "probability"},
      {"traffic.matrix", "pattern matrix: a CSV of N x N rates (relative to the config)"},
      {"traffic.self",
       "a packet to its own node: never drawn, delivered by the NI, or through "
       "its router"},
      {"traffic.load", "instead of rate and broadcast.rate: the throughput factor"},
      {"traffic.load.rho", "the throughput factor rho (uniform or bit_flip unicast)"},
      {"traffic.load.broadcast_share", "the part of rho that is broadcast"},
      // simulation
      {"simulation", "the run: window, seed, limits, extra outputs, threads"},
      {"simulation.warmup", "cycles before the measurement window"},
      {"simulation.measure", "cycles of the window: packets created in it are measured"},
      {"simulation.drain_limit", "cycles after the window to deliver every measured packet"},
      {"simulation.deadlock_cycles", "no flit moves for this long while flits are inside: stop"},
      {"simulation.seed", "the random seed"},
      {"simulation.batches", "batch means for the 95% confidence intervals"},
      {"simulation.max_memory_gb",
       "refuse a config whose estimated memory is above this (0: "
       "80% of what the process may take)"},
      {"simulation.max_wall_seconds",
       "> 0: stop after this much wall time with a partial "
       "result"},
      {"simulation.max_backlog_packets",
       "> 0: stop (saturated) once more packets than this are "
       "alive"},
      {"simulation.flows_csv", "also write flows.csv: latency per (source, destination)"},
      {"simulation.threads", "threads evaluating the routers of each cycle (same results)"},
      // waves
      {"waves", "VCD waveforms of the routers"},
      {"waves.enable", "record waves"},
      {"waves.file", "the VCD, inside the run's output directory"},
      {"waves.routers", "the routers recorded"},
      {"waves.from_cycle", "the first cycle recorded"},
      {"waves.to_cycle", "the last cycle recorded"},
      {"waves.packet", "a packet id to follow from source NI to destination NI (0: none)"},
      {"waves.power", "with power: each traced router's power (uW) as r<n>.power_uw"},
      {"waves.power_window", "waves.power: the cycles each value is averaged over"},
      {"waves.rtl_nodes",
       "RTL routers whose insides Verilator dumps into rtl_<node>.vcd beside waves.file"},
      // power
      {"power", "energy, power and area from the routers' counted events (on when given)"},
      {"power.enable", "price the run's events (default: true when the section is given)"},
      {"power.tech", "a built-in technology (45nm, 32nm, 22nm) or a technology file (.yaml)"},
      {"power.frequency_ghz", "the routers' clock: energy over time is power"},
      {"power.flit_width_bits", "bits per flit (buffers, crossbar, links)"},
      {"power.link_length_mm", "the length of every network link"},
      {"power.link_lengths_mm", "{link class: mm}: the links of a class this long instead"},
      {"power.buffer", "input buffers as flip-flop or SRAM register files"},
      {"power.crossbar", "a matrix crossbar or a multiplexer tree"},
      {"power.activity", "the probability that a data bit toggles from one flit to the next"},
      {"power.clock_gating", "an idle router's clock is gated: clock energy in active cycles only"},
      // schedule
      {"schedule", "a static algorithm the nodes execute (with traffic type none)"},
      {"schedule.algorithm",
       "circuit broadcasts, an explicit schedule, an isotropic task or "
       "(P)MNB"},
      {"schedule.message_flits", "L: flits per message (explicit: per packet)"},
      {"schedule.barrier", "synchronous phases: each starts when the last ended"},
      {"schedule.packet_flits",
       "circuit broadcasts: B, the pipelined packet (0: B = L; the last of a stream shorter)"},
      {"schedule.root", "circuit broadcasts: the broadcasting node"},
      {"schedule.variant",
       "tiling: the variant (slanting, boss_blocks, blocks_first on 10x10; pinwheel on any "
       "size from 3x3 to 128x128, not the paper's construction); h_trees: deferred_fill (one "
       "negotiation of the fill's search, what it leaves failing served after the pipeline)"},
      {"schedule.timing", "explicit: hops in numbered slots, or transmissions in phases"},
      {"schedule.shortest_paths", "explicit: every route must be a shortest path"},
      {"schedule.allow_returns", "explicit: a node may receive a packet it holds"},
      {"schedule.links_per_slot", "explicit: > 0: at most this many links per node per slot"},
      {"schedule.packets",
       "explicit: the packets moved; pmnb*: M broadcasting nodes drawn from "
       "the seed"},
      {"schedule.packets[].source", "the packet's source node"},
      {"schedule.packets[].destination", "its destination node, or all"},
      {"schedule.transmissions", "explicit: a node sends a packet it holds along a route"},
      {"schedule.transmissions[].packet", "the packet (index into packets)"},
      {"schedule.transmissions[].from", "the sending node"},
      {"schedule.transmissions[].route", "the ports it leaves by, hop after hop"},
      {"schedule.transmissions[].slots", "timing slots: the slot of each hop"},
      {"schedule.transmissions[].phase", "timing phases: the phase it starts in"},
      {"schedule.sources", "pmnb*: the broadcasting nodes"},
      {"schedule.scan_slots",
       "pmnb*: slots per scan step (t_p, real: t_p message_flits whole flits; 0: no scans)"},
      {"schedule.compact_plan",
       "pmnb*, mnb*: the plan packed 4 bytes a hop and run slot by slot (the d = 16 sizes; "
       "mnb_optimal: streamed from its tree, no cap)"},
      {"schedule.task", "octr, oadd, greedy: the isotropic task"},
      {"schedule.near", "task neighbourhood: the nearest distance K"},
      {"schedule.far", "task neighbourhood: the farthest distance L"},
      {"schedule.tags", "task tags: one packet per tag from every node"},
      {"schedule.links",
       "octr, total_exchange: at most k links per node per slot (0: "
       "all-port)"},
  };
  return docs;
}

}  // namespace sy
