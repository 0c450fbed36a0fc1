// parse_config: reads the sections in order (each by its own parser, config/parse_<section>.cpp),
// then the checks that span sections; load_config, names of the enums, and the resolved config
// as JSON for results.json.
#include "switchyard/config/config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "switchyard/config/section.hpp"
#include "switchyard/router/rtl_registry.hpp"
#include "switchyard/sim/estimate.hpp"
#include "switchyard/topology/anynet.hpp"

namespace sy {

using namespace config_detail;

namespace {

// The node at a dotted key path, or the deepest one present on the way (the key's section).
YAML::Node locate(const YAML::Node& root, const std::string& path) {
  YAML::Node cur = root;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) {
    if (!cur.IsMap() || !cur[k]) break;
    cur = cur[k];
  }
  return cur;
}

// Every message's byte length (flits x flit_bytes) must fit the TLM payload's 32-bit length:
// checked in 64 bits, so packet_flits 4096 x flit_bytes 2^20 is an error, not 0 bytes.
void check_message_bytes(const Config& c, const YAML::Node& root) {
  const TrafficConfig& t = c.traffic;
  std::uint64_t flits = 0;
  std::string key;
  if (c.schedule.enabled()) {
    flits = static_cast<std::uint64_t>(c.schedule.message_flits);
    key = "schedule.message_flits";
  }
  if (t.trace) {
    for (const TraceMessage& m : t.messages)
      if (static_cast<std::uint64_t>(m.flits) > flits) {
        flits = static_cast<std::uint64_t>(m.flits);
        key = t.exchange             ? "traffic.packet_flits"
              : t.trace_file.empty() ? "traffic.messages"
                                     : "traffic.file";
      }
  } else if (static_cast<std::uint64_t>(t.packet_flits) > flits) {
    flits = static_cast<std::uint64_t>(t.packet_flits);
    key = "traffic.packet_flits";
  }
  const std::uint64_t fb = static_cast<std::uint64_t>(c.interface.flit_bytes);
  if (flits * fb <= kMaxMessageBytes) return;  // both below 2^25: no overflow in 64 bits
  const YAML::Node fbn = locate(root, "network_interface.flit_bytes");
  const bool at_fb = fbn.IsScalar();
  fail(c.source, at_fb ? fbn : locate(root, key), at_fb ? "network_interface.flit_bytes" : key,
       "messages of " + std::to_string(flits) + " flits of " + std::to_string(fb) + " bytes are " +
           std::to_string(flits * fb) +
           " bytes: more than a TLM payload's 32-bit length holds (4294967295)");
}

// A config the machine cannot hold is refused before anything is built, naming the key that
// costs the most.
void check_memory(const Config& c, const YAML::Node& root) {
  const Estimate e = estimate_run(c);
  const double limit = memory_limit_bytes(c.simulation);
  if (limit <= 0 || e.bytes <= limit) return;
  const Estimate::Part* big = &e.parts.front();
  std::string parts;
  for (const Estimate::Part& p : e.parts) {
    if (p.bytes > big->bytes) big = &p;
    parts += (parts.empty() ? "" : ", ") + p.what + " " + human_bytes(p.bytes);
  }
  const std::string lim =
      c.simulation.max_memory_gb > 0 && c.simulation.max_memory_gb * 1e9 <= limit
          ? "simulation.max_memory_gb = " + Json::number(c.simulation.max_memory_gb)
          : "the default limit, 80% of the " + human_bytes(process_memory_bytes()) +
                " this process may take (the machine's memory, its cgroup's memory.max and "
                "ulimit -v, the smallest; set simulation.max_memory_gb to lower it)";
  fail(c.source, locate(root, big->key), big->key,
       "this run would need about " + human_bytes(e.bytes) + " of memory (" + parts +
           "), more than " + human_bytes(limit) + ": " + lim);
}

// Every cycle a run can reach must be a SystemC time: cycles x clock_ps below 2^63 ps (about
// 107 days of simulated time; SystemC's time is 64 bits of picoseconds). The cycles a run can
// reach: its window (or its trace's last message, or an explicit slot schedule's last slot), then
// the drain, the watchdog and one packet's zero-load time over the diameter. Refused at the key
// that sets them, never wrapped.
void check_time_range(const Config& c, const YAML::Node& root) {
  const SimulationConfig& sim = c.simulation;
  const Topology topo = c.topology.make();
  double end = static_cast<double>(sim.warmup) + static_cast<double>(sim.measure);
  const char* key = "simulation.measure";
  for (const TraceMessage& m : c.traffic.messages) {
    if (static_cast<double>(m.time) > end) {
      end = static_cast<double>(m.time);
      key = c.traffic.trace_file.empty() ? "traffic.messages" : "traffic.file";
    }
  }
  if (const Schedule* s = c.schedule.explicit_schedule.get()) {
    const double slot = c.timing.delta + static_cast<double>(s->slot_flits()) * c.timing.tau;
    const double plan = static_cast<double>(s->phases) *
                        (s->timing == ScheduleTiming::Slots ? slot : c.timing.alpha + slot);
    if (plan > end) {
      end = plan;
      key = "schedule.transmissions";
    }
  }
  const double zero_load = lone_message_cycles(c, topo.diameter());
  const double cycles = end + static_cast<double>(sim.drain_limit) +
                        static_cast<double>(sim.deadlock_cycles) + 2 * zero_load;
  const double ps = cycles * static_cast<double>(c.interface.clock_ps);
  if (ps < 9.2e18) return;  // 2^63
  const bool clock = c.interface.clock_ps > 1000;
  const char* at = clock ? "network_interface.clock_ns" : key;
  fail(c.source, locate(root, at), at,
       "a run to cycle " + Json::number(cycles) + " at " +
           Json::number(static_cast<double>(c.interface.clock_ps) / 1000.0) +
           " ns per cycle reaches " + Json::number(ps / 1e12) +
           " s of simulated time, beyond SystemC's 64-bit time (2^63 ps, about 107 days): "
           "lower network_interface.clock_ns or the cycles");
}

Config parse_document(const std::string& text, const std::string& source,
                      const std::vector<std::string>& overrides);

// The run's name becomes a directory under out/ and a string in results.json: one plain path
// component of valid UTF-8 (no separators, no '..', no control characters), at most 200 bytes.
void check_name(const Config& c, Section& top) {
  const std::string& n = c.name;
  std::string why;
  if (n.empty() || n == "." || n == "..")
    why = "needs a name that is not empty, '.' or '..'";
  else if (n.size() > 200)
    why = "longer than 200 bytes";
  else if (n.find('/') != std::string::npos || n.find('\\') != std::string::npos)
    why = "a name, not a path: no '/' or '\\' (it becomes the directory out/<name>)";
  else if (!Json::valid_utf8(n))
    why = "not valid UTF-8";
  else
    for (char ch : n)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) why = "has a control character";
  if (!why.empty()) fail(c.source, top.at("name"), "name", why);
}

}  // namespace

Config parse_config(const std::string& text, const std::string& source,
                    const std::vector<std::string>& overrides) {
  try {
    return parse_document(text, source, overrides);
  } catch (const YAML::Exception& e) {
    // Whatever yaml-cpp still throws (a conversion the readers did not foresee) is a config
    // error at the place it names, never an uncaught library error.
    if (e.mark.line < 0) throw ConfigError(source + ": YAML: " + e.msg);
    throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": YAML: " + e.msg);
  }
}

namespace {

// router.model: rtl: what the RTL routers implement (rtl/README.md), and a Verilated build
// with the router's parameters.
void check_rtl_router(const Config& c, const Topology& topo, Section& rs, Section& ts,
                      Section& ro) {
  const RouterConfig& r = c.router;
  const PipelineConfig& p = r.pipeline;
  const auto no = [&](const char* what) {
    fail(c.source, rs.at("model"), "router.model",
         std::string("rtl: the RTL router implements ") + what);
  };
  if (rtl_router_builds().empty())
    fail(c.source, rs.at("model"), "router.model",
         "rtl: this build has no RTL routers: configure with -DSWITCHYARD_COSIM=ON (needs "
         "Verilator)");
  if (r.buffering != Buffering::InputVc || r.switching != Switching::Wormhole)
    no("a wormhole input_vc router only (buffering: input_vc, switching: wormhole)");
  if (!p.staged || p.rc != 1 || p.va != 1 || p.sa != 1 || p.st != 1 || p.lt != 1 || p.ni_lt != 1 ||
      p.speculative || p.ejection_ports != 1)
    no("the staged pipeline with one-cycle stages: router.pipeline {rc: 1, va: 1, sa: 1, st: 1, "
       "lt: 1}, not speculative, one ejection port");
  if (r.arbitration != ArbPolicy::RoundRobin || r.switch_allocator != "separable_input_first" ||
      r.vc_allocator != "separable_input_first" || r.switch_knobs() || r.vc_request_all_free ||
      r.vc_busy_when_full || r.vc_prioritize_empty)
    no("round-robin (within each priority class), separable input-first VC and switch "
       "allocators, without BookSim2's knobs");
  const bool torus = c.topology.kind == Topology::Kind::Torus;
  if ((c.topology.kind != Topology::Kind::Mesh && !torus) || topo.num_dims() != 2 ||
      topo.concentration() != 1)
    fail(c.source, ts.at("type"), "topology.type",
         "router.model rtl: the RTL router is for 2-D meshes and 2-D tori");
  // (A ring of 2 has one port per dimension, not the + and - ports the RTL numbers.)
  if (topo.size(0) < 3 || topo.size(1) < 3)
    fail(c.source, ts.has("dims") ? ts.at("dims") : ts.at("type"), "topology.dims",
         std::string("router.model rtl: the RTL router is for ") + (torus ? "tori" : "meshes") +
             " with 3 or more routers a side");
  if (c.routing.algorithm != "dimension_order")
    no("dimension-order routing only (routing.algorithm: dimension_order)");
  if (torus && c.routing.dateline_on_entry)
    fail(c.source, ro.at("dateline"), "routing.dateline",
         "router.model rtl: the RTL router's dateline classes are wraparound's (the upper half "
         "from the wraparound link on), not ring_entry");
  if (c.interface.injection_channels != 1 || c.timing.tau != 1)
    no("one injection channel per node and links of one flit a cycle (tau 1)");
  if (c.traffic.broadcast.enabled() || c.schedule.enabled() || c.power.enable)
    no("unicast traffic without broadcasts, schedules or power (not yet)");
  const RtlRouterBuild* b = find_rtl_router(r.rtl_name, r.vcs, r.vc_depth);
  if (!b) {
    std::string built;
    for (const RtlRouterBuild& x : rtl_router_builds())
      built += (built.empty() ? "" : ", ") + x.name + " (vcs " + std::to_string(x.vcs) +
               ", vc_depth " + std::to_string(x.vc_depth) + ")";
    bool named = false;  // (a router of that name, built for other parameters)
    for (const RtlRouterBuild& x : rtl_router_builds()) named |= x.name == r.rtl_name;
    if (!named)
      fail(c.source, rs.has("rtl") ? rs.at("rtl") : rs.at("model"), "router.rtl",
           "router.model rtl: no RTL router " + r.rtl_name + " in this build; it has: " + built +
               " (switchyard_add_rtl_router adds one: rtl/README.md)");
    fail(c.source, rs.has("vcs") ? rs.at("vcs") : rs.at("model"), "router.vcs",
         "router.model rtl: no RTL router " + r.rtl_name + " was built for vcs " +
             std::to_string(r.vcs) + ", vc_depth " + std::to_string(r.vc_depth) +
             "; this build has: " + built);
  }
  if (p.credit_delay > b->max_credit_delay)
    fail(c.source, rs.at("pipeline"), "router.pipeline.credit_delay",
         "router.model rtl: the RTL router takes credit delays of 1 to " +
             std::to_string(b->max_credit_delay));
  if (r.priority_classes > b->classes)
    fail(c.source, rs.has("priority_classes") ? rs.at("priority_classes") : rs.at("model"),
         "router.priority_classes",
         "router.model rtl: the RTL router " + r.rtl_name + " (vcs " + std::to_string(r.vcs) +
             ", vc_depth " + std::to_string(r.vc_depth) + ") was built for " +
             std::to_string(b->classes) + " priority class" + (b->classes > 1 ? "es" : "") +
             " (its parameter PC: switchyard_add_rtl_router PARAMS)");
  if (topo.size(0) > b->max_side || topo.size(1) > b->max_side)
    fail(c.source, ts.at("type"), "topology.type",
         "router.model rtl: the RTL router was built for " +
             std::string(torus ? "tori" : "meshes") + " of up to " + std::to_string(b->max_side) +
             " routers a side");
  if (torus && !b->tori)
    fail(c.source, ts.at("type"), "topology.type",
         "router.model rtl: the RTL router " + r.rtl_name +
             " has no torus ports (torus_i, x_last_i, y_last_i, tie_break_i: rtl/README.md): "
             "meshes only");
}

Config parse_document(const std::string& text, const std::string& source,
                      const std::vector<std::string>& overrides) {
  YAML::Node root = load_document(text, source);
  if (!root || root.IsNull()) root = YAML::Load("{}");  // an empty map, located at 1:1
  for (const auto& ov : overrides) apply_override(root, ov);

  Config c;
  c.source = source;
  Section top(root, "", c.source);
  c.name = top.text("name", "run");
  check_name(c, top);
  Section ts = top.sub("topology");
  parse_topology(ts, c);
  Section rs = top.sub("router");
  parse_router(rs, c);
  Section tm = top.sub("timing");
  parse_timing(tm, c);
  Section ro = top.sub("routing");
  parse_routing(ro, c);
  Section ni = top.sub("network_interface");
  parse_interface(ni, c);
  Section tr = top.sub("traffic");
  parse_traffic(tr, c);
  Section si = top.sub("simulation");
  parse_simulation(si, c);
  Section wv = top.sub("waves");
  parse_waves(wv, c);
  Section sc = top.sub("schedule");
  parse_schedule(sc, c);
  Section pw = top.sub("power");
  parse_power(pw, c);
  if (c.waves.power && !c.power.enable)
    fail(c.source, wv.at("power"), "waves.power", "needs the power section (power: {tech: ...})");
  top.finish();

  const Topology topo = c.topology.make();
  const TrafficConfig& t = c.traffic;
  // Cross-key checks.
  const RouterConfig& r = c.router;
  const int max_pkt = t.trace ? (t.max_packet_flits ? t.max_packet_flits : [&] {
    int m = 1;
    for (auto& x : t.messages) m = std::max(m, x.flits);
    return m;
  }())
                              : t.packet_flits;
  // Input-VC routers: input and output ports are bits of 64-bit request vectors; under
  // concentration every terminal has its injection ports (and, staged, ejection outputs).
  const bool flatfly = c.topology.kind == Topology::Kind::FlatFly;
  if (r.buffering == Buffering::InputVc && (topo.concentration() > 1 || flatfly)) {
    const int conc = topo.concentration();
    const int ins = topo.num_ports() + conc * c.interface.injection_channels;
    const int outs = topo.num_ports() + (r.pipeline.staged ? conc * r.pipeline.ejection_ports : 0);
    // (The key to blame: a fat tree's k; a flatfly's k when its n x k network ports outnumber
    // the terminals or no concentration is given, else its concentration.)
    const bool by_k = c.topology.kind == Topology::Kind::FatTree ||
                      (flatfly && (!ts.has("concentration") || topo.num_ports() > conc));
    if (ins > 64 || outs > 64)
      fail(c.source,
           ts.at(by_k                                           ? "k"
                 : c.topology.kind == Topology::Kind::AnyNet    ? "file"
                 : c.topology.kind == Topology::Kind::Dragonfly ? "p"
                                                                : "concentration"),
           by_k                                           ? "topology.k"
           : c.topology.kind == Topology::Kind::AnyNet    ? "topology.file"
           : c.topology.kind == Topology::Kind::Dragonfly ? "topology.p"
                                                          : "topology.concentration",
           "an input_vc router has at most 64 input and 64 output ports: " +
               std::to_string(topo.num_ports()) + " network ports + " + std::to_string(conc) +
               " terminals x " + std::to_string(c.interface.injection_channels) +
               " injection channels" +
               (r.pipeline.staged
                    ? " (and x " + std::to_string(r.pipeline.ejection_ports) + " ejection ports)"
                    : std::string()) +
               " here");
  }
  // anynet: a file's link latencies other than 1 are the staged pipeline's per-link lt; its
  // terminals' latency is the NI channels' (router.pipeline.ni_lt).
  if (c.topology.kind == Topology::Kind::AnyNet) {
    const auto& net = static_cast<const AnyNet&>(*c.topology.built);
    if (net.has_link_latencies() && !r.pipeline.staged)
      fail(c.source, ts.at("file"), "topology.file",
           "the file gives router links latencies other than 1: they need the staged pipeline "
           "(router.pipeline), whose lt they replace link by link");
    if (net.node_latency() != 1 && (!r.pipeline.staged || r.pipeline.ni_lt != net.node_latency()))
      fail(c.source, ts.at("file"), "topology.file",
           "the file gives the terminals' channels latency " + std::to_string(net.node_latency()) +
               ": set router.pipeline.ni_lt: " + std::to_string(net.node_latency()) +
               " (the staged pipeline's NI channels; at most 8)");
    if (!net.cycle().empty()) {
      const std::string msg =
          "deadlock: none: the shortest routes on one VC class have a channel dependency cycle (" +
          net.cycle() + ")";
      if (!c.routing.allow_deadlock)
        fail(c.source, ts.at("deadlock"), "topology.deadlock",
             msg +
                 "; layers or up_down avoid it; routing.allow_deadlock: true runs it anyway "
                 "(BookSim2's min_anynet)");
      c.warnings.push_back(msg + ": it may deadlock (the watchdog will say so)");
    }
  }
  // Link latencies of their own (a dragonfly's local_latency / global_latency): the staged
  // pipeline's per-link lt.
  for (const char* k : {"local_latency", "global_latency"})
    if (ts.has(k) && (k[0] == 'l' ? c.topology.local_latency : c.topology.global_latency) > 0 &&
        !r.pipeline.staged)
      fail(c.source, ts.at(k), std::string("topology.") + k,
           "a link latency of its own is a link of the staged pipeline (router.pipeline, "
           "buffering: input_vc); leave it 0 (or out) otherwise");
  if (r.buffering == Buffering::InputVc && r.switching != Switching::Wormhole &&
      r.vc_depth < max_pkt)
    fail(c.source, rs.at("vc_depth"), "router.vc_depth",
         "virtual cut-through and store-and-forward need vc_depth >= the largest packet (" +
             std::to_string(max_pkt) + " flits)");
  if (t.broadcast.enabled() && r.buffering == Buffering::InputVc) {
    const bool unicast = t.trace || t.packets_per_cycle() > 0;
    if (unicast && r.vcs < 3)
      c.warnings.push_back("broadcast and unicast share " + std::to_string(r.vcs) +
                           " VCs: the network may deadlock (3 or more VCs keep them apart)");
    const int vb = unicast && r.vcs >= 3 ? r.vcs - 2 : r.vcs;
    // The copies' VC groups (input_vc_router.cpp, accept_broadcast_flit): the scheme's VC
    // classes (STAR's two rotation classes; dimension order's one, its order never wraps), each
    // split in two by the dateline where a dimension is a ring. Without rings (a mesh, a
    // hypercube) there is no dateline: dimension order needs one VC, STAR two.
    bool rings = false;
    for (int d = 0; d < topo.num_dims(); ++d) rings |= topo.wraps(d);
    const int classes = t.broadcast.scheme == BroadcastScheme::DimensionOrder ? 1 : 2;
    if (rings && vb < 4)
      c.warnings.push_back("broadcast copies get " + std::to_string(vb) +
                           " VCs: 4 or more give them dateline classes inside each ring; with "
                           "fewer the network may deadlock");
    else if (!rings && vb < classes)
      c.warnings.push_back("broadcast copies get " + std::to_string(vb) +
                           " VC: 2 or more give the STAR trees' two rotation classes a VC each; "
                           "with fewer the network may deadlock");
  }
  if (!r.wait_for_tail_credit && c.routing.algorithm != "dimension_order")
    c.warnings.push_back(
        "router.wait_for_tail_credit: false with routing.algorithm " + c.routing.algorithm +
        ": the deadlock-freedom argument of the escape and phase VCs assumes a VC is reallocated "
        "only when empty; the deadlock watchdog guards the run");
  if (!r.wait_for_tail_credit && t.broadcast.enabled())
    fail(c.source, rs.at("wait_for_tail_credit"), "router.wait_for_tail_credit",
         "broadcast copies replicated in the routers need a VC to themselves: leave it true");
  if (r.switch_allocator != "separable_input_first" && t.broadcast.enabled())
    fail(c.source, rs.at("switch_allocator"), "router.switch_allocator",
         "broadcast copies fan out through separable_input_first only");
  if (r.pipeline.staged) {
    if (tm.has("delta"))
      fail(c.source, tm.at("delta"), "timing.delta",
           "is the ideal pipeline's hop; with router.pipeline a hop takes rc + va + sa + st + lt "
           "cycles: leave timing.delta out");
    if (t.broadcast.enabled())
      fail(c.source, rs.at("pipeline"), "router.pipeline",
           "broadcast copies replicated in the routers are modelled by the ideal pipeline only: "
           "leave router.pipeline out for broadcast traffic");
    if (topo.num_ports() + topo.concentration() * r.pipeline.ejection_ports > 64)
      fail(c.source, rs.at("pipeline"), "router.pipeline.ejection_ports",
           "a router has at most 64 outputs (" + std::to_string(topo.num_ports()) +
               " network ports here)");
    if ((r.input_speedup > 1 || r.output_speedup > 1) && c.timing.tau != 1)
      fail(c.source, tm.at("tau"), "timing.tau",
           "router.input_speedup and output_speedup model a link of one flit a cycle: tau 1");
    const int ins = topo.num_ports() + topo.concentration() * c.interface.injection_channels;
    if (r.input_speedup > 1 && ins * r.input_speedup > 64)
      fail(c.source, rs.at("input_speedup"), "router.input_speedup",
           "the crossbar has at most 64 inputs: " + std::to_string(ins) + " input ports here");
    c.timing.delta = r.pipeline.hop_cycles();  // for what reads a per-hop cost (reports)
  }
  if (r.rtl) check_rtl_router(c, topo, rs, ts, ro);
  if (!c.waves.rtl_nodes.empty() && !find_rtl_router(r.rtl_name, r.vcs, r.vc_depth)->make_traced)
    fail(c.source, wv.at("rtl_nodes"), "waves.rtl_nodes",
         "this build's RTL router " + r.rtl_name +
             " has no tracing: Verilate it with TRACE (switchyard_add_rtl_router, "
             "-DSWITCHYARD_RTL_TRACE=ON; rtl/README.md)");
  if (c.interface.discipline == Discipline::Rounds) {
    // Rounds gate unicast packets at their NI: no router-level broadcast, no schedule (its own
    // timing), no circuits (a message holds its path, not a packet).
    const char* why = c.traffic.broadcast.enabled() ? "traffic.broadcast: a broadcast scheme is set"
                      : c.schedule.enabled()        ? "schedule: a schedule runs"
                      : r.buffering == Buffering::Circuit
                          ? "router.buffering: circuit routers (rounds gate packets)"
                          : nullptr;
    if (why)
      fail(c.source, ni.at("discipline"), "network_interface.discipline",
           std::string("rounds is for unicast packet traffic; here ") + why);
  }
  bool rings = false;
  for (int d = 0; d < topo.num_dims(); ++d) rings |= topo.wraps(d);
  if (rings && r.buffering == Buffering::InputVc && r.vcs < 2)
    c.warnings.push_back(
        "router.vcs = 1 on a torus: no dateline VC classes, the network may deadlock "
        "(the deadlock watchdog will stop the run)");
  // simulation.threads: routers are evaluated in parallel only where an evaluation cannot
  // reach another router within the cycle; elsewhere one thread, with a warning.
  if (c.simulation.threads > 1) {
    const char* why = r.buffering != Buffering::InputVc ? "the routers are not input_vc"
                      : r.rtl                           ? "router.model is rtl (Verilated routers)"
                      : c.timing.delta < 1 ? "timing.delta is 0 (a flit may cross several "
                                             "routers in one cycle)"
                      : c.traffic.broadcast.enabled() ? "a broadcast scheme is set"
                      : c.schedule.enabled()          ? "a schedule runs"
                      : c.waves.enable                ? "waves are recorded"
                      : c.interface.discipline == Discipline::Rounds
                          ? "network_interface.discipline is rounds (a barrier over every node)"
                          : nullptr;
    if (why) {
      c.execution_warnings.push_back(
          "simulation.threads = " + std::to_string(c.simulation.threads) +
          " runs on one thread: " + why);
      c.simulation.threads = 1;
    }
  }
  check_message_bytes(c, root);
  check_time_range(c, root);
  check_memory(c, root);
  return c;
}

}  // namespace

void check_config(const Config& c) {
  const auto bad = [](const std::string& key, const std::string& what) {
    throw ConfigError("config (in code): " + key + ": " + what);
  };
  const auto in = [&](const std::string& key, double v, double lo, double hi) {
    if (!(v >= lo && v <= hi))
      bad(key, Json::number(v) + " is not in " + Json::number(lo) + " .. " + Json::number(hi));
  };
  const TopologyConfig& tp = c.topology;
  if (tp.kind == Topology::Kind::Butterfly) {
    in("topology.k", tp.k, 2, 16);
    in("topology.n", tp.n, 1, 20);
  } else if (tp.kind == Topology::Kind::FatTree) {
    in("topology.k", tp.k, 2, 32);
    in("topology.n", tp.n, 1, 20);
    in("topology (terminals)", std::pow(tp.k, tp.n), 1, 1 << 20);
  } else if (tp.built) {
    in("topology (terminals)", tp.built->num_terminals(), 1, 1 << 20);
  } else {
    if (tp.dims.empty() || tp.dims.size() > 20) bad("topology.dims", "needs 1 to 20 dimensions");
    double nodes = 1;
    for (int n : tp.dims) {
      in("topology.dims[]", n, 1, 1 << 16);
      nodes *= n;
    }
    in("topology.dims (nodes)", nodes, 1, 1 << 26);
    if (tp.kind == Topology::Kind::CMesh) {
      in("topology.concentration", tp.concentration, 1, 64);
      in("topology (terminals)", nodes * tp.concentration, 1, 1 << 20);
    }
    if (tp.kind == Topology::Kind::Hypercube)
      for (int n : tp.dims)
        if (n != 2) bad("topology.dims", "a hypercube has every dimension of size 2");
  }
  in("topology.size2_links", tp.size2_links, 1, 2);
  if (tp.size2_links == 2 && tp.kind != Topology::Kind::Torus)
    bad("topology.size2_links", "2 is a torus's (two links each way in a size-2 dimension)");
  const RouterConfig& r = c.router;
  in("router.vcs", r.vcs, 1, 32);
  in("router.vc_depth", r.vc_depth, 1, 4096);
  in("router.priority_classes", r.priority_classes, 1, kMaxClasses);
  in("timing.alpha", c.timing.alpha, 0, 1 << 24);
  in("timing.delta", c.timing.delta, 0, 1 << 24);
  in("timing.tau", c.timing.tau, 1, 1 << 16);
  const SimulationConfig& s = c.simulation;
  in("simulation.measure", static_cast<double>(s.measure), 1, static_cast<double>(kMaxCycles));
  in("simulation.warmup", static_cast<double>(s.warmup), 0, static_cast<double>(kMaxCycles));
  in("simulation.batches", s.batches, 2, 1000);
  in("simulation.threads", s.threads, 1, 64);
  const TrafficConfig& t = c.traffic;
  const int N = tp.make().num_nodes();
  if (!t.trace) {
    in("traffic.rate", t.rate, 0, 1e6);
    in("traffic.packet_flits", t.packet_flits, 1, 1 << 16);
    in("traffic.priority", t.priority, 0, r.priority_classes - 1);
    if (t.process != Process::Poisson && t.packets_per_cycle() > 1.0)
      bad("traffic.rate", "a Bernoulli or on_off source makes at most one packet per cycle");
    if (t.process == Process::OnOff) {
      if (!(t.burst_alpha > 0 && t.burst_alpha <= 1)) bad("traffic.burst.alpha", "in (0, 1]");
      if (!(t.burst_beta > 0 && t.burst_beta <= 1)) bad("traffic.burst.beta", "in (0, 1]");
      if (t.broadcast.enabled()) bad("traffic.process", "on_off: not with a broadcast scheme");
      for (int k = 0; k < t.traffic_classes(); ++k)
        if (t.on_rate(t.class_packets_per_cycle(k)) > 1.0 + 1e-12)
          bad("traffic.rate", "the on-state rate r (alpha + beta) / alpha exceeds one packet");
    }
    if (!t.packet_sizes.empty()) {
      if (!t.classes.empty()) bad("traffic.packet_sizes", "not with traffic.classes");
      if (t.packet_sizes.size() > 64) bad("traffic.packet_sizes", "1 to 64 sizes");
      if (t.packet_size_weights.size() != t.packet_sizes.size())
        bad("traffic.packet_size_weights", "one weight per packet size");
      double w = 0;
      for (std::size_t i = 0; i < t.packet_sizes.size(); ++i) {
        in("traffic.packet_sizes[]", t.packet_sizes[i], 1, 1 << 16);
        in("traffic.packet_size_weights[]", t.packet_size_weights[i], 0, 1e9);
        w += t.packet_size_weights[i];
      }
      if (!(w > 0)) bad("traffic.packet_size_weights", "at least one weight above 0");
      if (*std::max_element(t.packet_sizes.begin(), t.packet_sizes.end()) != t.packet_flits)
        bad("traffic.packet_flits", "must be the largest of packet_sizes");
    }
    if (!t.classes.empty()) {
      if (t.classes.size() < 2 || t.classes.size() > static_cast<std::size_t>(kMaxClasses))
        bad("traffic.classes", "2 to 8 classes");
      double total = 0;
      for (const TrafficClass& k : t.classes) {
        in("traffic.classes[].share", k.share, 1e-300, 1);
        in("traffic.classes[].packet_flits", k.packet_flits, 1, 1 << 16);
        in("traffic.classes[].priority", k.priority, 0, r.priority_classes - 1);
        total += k.share;
        if (k.packet_flits > t.packet_flits)
          bad("traffic.packet_flits", "must be the longest class's packet_flits");
      }
      if (std::fabs(total - 1.0) > 1e-9) bad("traffic.classes", "the shares must add up to 1");
    }
    if (t.pattern == Pattern::Matrix && t.matrix.size() != static_cast<std::size_t>(N) * N)
      bad("traffic.matrix", "needs N x N rates for the N = " + std::to_string(N) + " nodes");
  }
  if (c.interface.discipline == Discipline::Rounds) {
    if (t.broadcast.enabled() || c.schedule.enabled() || r.buffering == Buffering::Circuit)
      bad("network_interface.discipline",
          "rounds is for unicast packet traffic (no broadcast scheme, schedule or circuits)");
    if (c.simulation.threads > 1)
      bad("simulation.threads", "rounds keep one barrier over every node: one thread");
  }
  for (const TraceMessage& m : t.messages) {
    in("traffic.messages[].src", m.src, 0, N - 1);
    in("traffic.messages[].dst", m.dst, 0, N - 1);
    in("traffic.messages[].flits", m.flits, 1, 1 << 20);
    in("traffic.messages[].priority", m.priority, 0, r.priority_classes - 1);
    in("traffic.messages[].time", static_cast<double>(m.time), 0, static_cast<double>(kMaxCycles));
  }
  if (r.buffering == Buffering::InputVc && r.switching != Switching::Wormhole &&
      r.vc_depth < longest_message_flits(c) && !t.trace)
    bad("router.vc_depth",
        "virtual cut-through and store-and-forward need vc_depth >= the "
        "largest packet");
  if (r.pipeline.staged && r.buffering != Buffering::InputVc)
    bad("router.pipeline", "the staged pipeline is a model of input_vc routers");
}

double longest_message_flits(const Config& c) {
  double flits = c.traffic.packet_flits;
  for (const TraceMessage& m : c.traffic.messages)
    flits = std::max(flits, static_cast<double>(m.flits));
  if (c.schedule.enabled()) flits = std::max(flits, static_cast<double>(c.schedule.message_flits));
  return flits;
}

double lone_message_cycles(const Config& c, int hops) {
  const double h = hops;
  return c.timing.alpha + h * (c.timing.delta + longest_message_flits(c) * c.timing.tau) +
         c.timing.ack_per_hop * 2.0 * h;
}

std::string unreadable_file(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "does not exist"
                           : std::string("cannot be read: ") + std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))
    return "is a device or a socket, not a file";
  if (access(path.c_str(), R_OK) != 0)
    return std::string("cannot be read: ") + std::strerror(errno);
  return "";
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  const std::string why = unreadable_file(path);
  if (!why.empty()) throw ConfigError(path + ": cannot read the config file: it " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open config file");
  // A config is a page of YAML: read at most kMaxConfigBytes (a pipe has no size to check first).
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigBytes)
      throw ConfigError(path + ": longer than " + std::to_string(kMaxConfigBytes >> 20) +
                        " MiB: not a config file");
  }
  return parse_config(text, path, overrides);
}

const char* to_string(Buffering b) {
  return b == Buffering::InputVc        ? "input_vc"
         : b == Buffering::OutputQueued ? "output_queued"
                                        : "circuit";
}
const char* to_string(Switching s) {
  switch (s) {
    case Switching::Wormhole:
      return "wormhole";
    case Switching::VirtualCutThrough:
      return "virtual_cut_through";
    case Switching::StoreAndForward:
      return "store_and_forward";
    case Switching::DirectConnect:
      return "direct_connect";
  }
  return "?";
}
const char* to_string(ArbPolicy a) {
  return a == ArbPolicy::RoundRobin ? "round_robin" : "oldest_first";
}
const char* to_string(TieBreak t) {
  return t == TieBreak::Positive ? "positive" : t == TieBreak::Negative ? "negative" : "balanced";
}
const char* to_string(BroadcastScheme b) {
  switch (b) {
    case BroadcastScheme::None:
      return "none";
    case BroadcastScheme::PriorityStar:
      return "priority_star";
    case BroadcastScheme::FcfsDirect:
      return "fcfs_direct";
    case BroadcastScheme::Indirect:
      return "indirect";
    case BroadcastScheme::PmnbIii:
      return "pmnb_iii";
    case BroadcastScheme::PmnbIi:
      return "pmnb_ii";
    case BroadcastScheme::DimensionOrder:
      return "dimension_order";
  }
  return "?";
}
const char* to_string(Injection i) {
  return i == Injection::Serial ? "serial" : "all_port";
}
const char* to_string(Discipline d) {
  return d == Discipline::Greedy ? "greedy" : "rounds";
}
const char* to_string(SelfTraffic s) {
  return s == SelfTraffic::Exclude          ? "exclude"
         : s == SelfTraffic::DeliverLocally ? "deliver_locally"
                                            : "through_router";
}
const char* to_string(Process p) {
  return p == Process::Bernoulli ? "bernoulli" : p == Process::Poisson ? "poisson" : "on_off";
}
const char* to_string(Pattern p) {
  switch (p) {
    case Pattern::Uniform:
      return "uniform";
    case Pattern::Transpose:
      return "transpose";
    case Pattern::BitComplement:
      return "bit_complement";
    case Pattern::Hotspot:
      return "hotspot";
    case Pattern::BitFlip:
      return "bit_flip";
    case Pattern::Tornado:
      return "tornado";
    case Pattern::Neighbor:
      return "neighbor";
    case Pattern::Shuffle:
      return "shuffle";
    case Pattern::BitReverse:
      return "bit_reverse";
    case Pattern::BitRotation:
      return "bit_rotation";
    case Pattern::RandomPermutation:
      return "random_permutation";
    case Pattern::Matrix:
      return "matrix";
    case Pattern::Adversarial:
      return "adversarial";
  }
  return "?";
}

std::string config_to_json(const Config& c, int indent) {
  Json j(indent);
  j.open();
  j.kv("name", c.name);
  j.open("topology").kv("type", c.topology.make().kind_name());
  if (c.topology.kind == Topology::Kind::Butterfly || c.topology.kind == Topology::Kind::FatTree)
    j.kv("k", c.topology.k).kv("n", c.topology.n).close();
  else if (c.topology.kind == Topology::Kind::FlatFly)
    j.kv("k", c.topology.k)
        .kv("n", c.topology.n)
        .kv("concentration", c.topology.concentration)
        .close();
  else if (c.topology.kind == Topology::Kind::CMesh)
    j.kv_list("dims", c.topology.dims).kv("concentration", c.topology.concentration).close();
  else if (c.topology.kind == Topology::Kind::AnyNet)
    j.kv("file", c.topology.file)
        .kv("deadlock",
            [&] {
              switch (static_cast<const AnyNet&>(*c.topology.built).deadlock()) {
                case AnyNet::Deadlock::UpDown:
                  return "up_down";
                case AnyNet::Deadlock::None:
                  return "none";
                default:
                  return "layers";
              }
            }())
        .kv("vc_classes", c.topology.built->vc_classes())
        .close();
  else if (c.topology.kind == Topology::Kind::Dragonfly)
    j.kv("p", c.topology.p)
        .kv("a", c.topology.a)
        .kv("h", c.topology.h)
        .kv("g", c.topology.g)
        .kv("local_latency", c.topology.local_latency)
        .kv("global_latency", c.topology.global_latency)
        .close();
  else if (c.topology.size2_links != 1)
    j.kv_list("dims", c.topology.dims).kv("size2_links", c.topology.size2_links).close();
  else
    j.kv_list("dims", c.topology.dims).close();
  j.open("router")
      .kv("buffering", to_string(c.router.buffering))
      .kv("switching", to_string(c.router.switching))
      .kv("vcs", c.router.vcs)
      .kv("vc_depth", c.router.vc_depth)
      .kv("arbitration", to_string(c.router.arbitration))
      .kv("priority_classes", c.router.priority_classes)
      .kv("switch_allocator", c.router.switch_allocator)
      .kv("wait_for_tail_credit", c.router.wait_for_tail_credit);
  if (c.router.hold_switch_for_packet) j.kv("hold_switch_for_packet", true);
  if (c.router.input_speedup > 1) j.kv("input_speedup", c.router.input_speedup);
  if (c.router.output_speedup > 1)
    j.kv("output_speedup", c.router.output_speedup)
        .kv("output_buffer_size", c.router.output_buffer_size);
  if (c.router.switch_allocator == "islip")
    j.kv("allocator_iterations", c.router.allocator_iterations);
  if (c.router.pipeline.staged) j.kv("vc_allocator", c.router.vc_allocator);
  // (BookSim2's VC allocation knobs: echoed when set, so that other configs' results stay as
  // they were.)
  if (c.router.vc_request_all_free) j.kv("vc_request", "all_free");
  if (c.router.vc_busy_when_full) j.kv("vc_busy_when_full", true);
  if (c.router.vc_prioritize_empty) j.kv("vc_prioritize_empty", true);
  if (c.router.rtl) {
    j.kv("model", "rtl").kv("rtl", c.router.rtl_name);
    if (!c.router.rtl_nodes.empty()) {  // (a string, on one line: comparisons drop the line)
      std::string ids;
      for (const int n : c.router.rtl_nodes) ids += (ids.empty() ? "" : " ") + std::to_string(n);
      j.kv("rtl_nodes", ids);
    }
  }
  if (c.router.pipeline.staged) {
    const PipelineConfig& p = c.router.pipeline;
    j.open("pipeline").kv("rc", p.rc).kv("va", p.va).kv("sa", p.sa).kv("st", p.st).kv("lt", p.lt);
    if (p.ni_lt != p.lt) j.kv("ni_lt", p.ni_lt);
    j.kv("credit_delay", p.credit_delay)
        .kv("speculative", p.speculative)
        .kv("ejection_ports", p.ejection_ports)
        .close();
  }
  j.close();
  j.open("timing")
      .kv("alpha", c.timing.alpha)
      .kv("delta", c.timing.delta)
      .kv("tau", c.timing.tau)
      .kv("ack_per_hop", c.timing.ack_per_hop)
      .close();
  j.open("routing")
      .kv("algorithm", c.routing.algorithm)
      .kv("tie_break", to_string(c.routing.tie_break));
  if (c.routing.dateline_on_entry) j.kv("dateline", "ring_entry");
  if (c.routing.algorithm != "dimension_order")
    j.kv("allow_deadlock", c.routing.allow_deadlock)
        .kv("selection", c.routing.random_selection ? "random" : "credits");
  if (c.routing.algorithm == "ugal_threshold") j.kv("ugal_threshold", c.routing.ugal_threshold);
  j.close();
  const TrafficConfig& t = c.traffic;
  j.open("network_interface")
      .kv("flit_bytes", c.interface.flit_bytes)
      .kv("injection", to_string(c.interface.injection))
      .kv("injection_channels", c.interface.injection_channels);
  if (c.interface.discipline != Discipline::Greedy)  // (left out at the default)
    j.kv("discipline", to_string(c.interface.discipline));
  j.kv("clock_ns", static_cast<double>(c.interface.clock_ps) / 1000.0).close();
  j.open("traffic").kv("type", t.none       ? "none"
                               : t.exchange ? "total_exchange"
                               : t.trace    ? "trace"
                                            : "synthetic");
  j.kv("max_packet_flits", t.max_packet_flits).kv("priority", t.priority);
  j.kv("self", to_string(t.self));
  j.open("broadcast").kv("scheme", to_string(t.broadcast.scheme));
  if (t.broadcast.scheme != BroadcastScheme::DimensionOrder)  // it has no ending or classes
    j.kv("ending", t.broadcast.balanced ? "balanced" : "uniform")
        .kv("classes", t.broadcast.classes);
  j.kv("rate", t.broadcast.rate);
  if (t.broadcast.pmnb())
    j.kv("scan_slots", t.broadcast.scan_slots)
        .kv("period", t.broadcast.theorem_periods ? "theorem" : "exact");
  j.close();
  if (t.none) {
  } else if (t.trace) {
    if (t.exchange) j.kv("packet_flits", t.packet_flits);
    j.kv("messages", static_cast<int>(t.messages.size()));
    if (!t.trace_file.empty()) j.kv("file", t.trace_file);
  } else {
    j.kv("process", to_string(t.process))
        .kv("rate", t.rate)
        .kv("rate_unit", t.rate_in_flits ? "flits" : "packets")
        .kv("packet_flits", t.packet_flits)
        .kv("pattern", to_string(t.pattern));
    if (t.process == Process::OnOff)
      j.open("burst").kv("alpha", t.burst_alpha).kv("beta", t.burst_beta).close();
    if (!t.packet_sizes.empty())
      j.kv_list("packet_sizes", t.packet_sizes)
          .kv_list("packet_size_weights", t.packet_size_weights);
    if (!t.classes.empty()) {
      j.open_array("classes");
      for (const TrafficClass& k : t.classes)
        j.open()
            .kv("name", k.name)
            .kv("share", k.share)
            .kv("packet_flits", k.packet_flits)
            .kv("priority", k.priority)
            .close();
      j.close();
    }
    j.open("hotspot").kv_list("nodes", t.hotspot_nodes).kv("fraction", t.hotspot_fraction).close();
    j.kv("bit_flip_probability", t.bit_flip_probability);
    if (t.pattern == Pattern::Matrix) j.kv("matrix", t.matrix_file);
    if (t.load_rho >= 0)
      j.open("load").kv("rho", t.load_rho).kv("broadcast_share", t.broadcast_share).close();
  }
  j.close();
  const SimulationConfig& s = c.simulation;
  j.open("simulation")
      .kv("warmup", s.warmup)
      .kv("measure", s.measure)
      .kv("drain_limit", s.drain_limit)
      .kv("deadlock_cycles", s.deadlock_cycles)
      .kv("seed", s.seed)
      .kv("batches", s.batches);
  // The limits only when given (their defaults depend on the machine, not on the experiment).
  if (s.max_memory_gb > 0) j.kv("max_memory_gb", s.max_memory_gb);
  if (s.max_wall_seconds > 0) j.kv("max_wall_seconds", s.max_wall_seconds);
  if (s.max_backlog_packets > 0) j.kv("max_backlog_packets", s.max_backlog_packets);
  if (s.flows_csv) j.kv("flows_csv", true);
  j.close();
  if (c.schedule.explicit_schedule) {
    const Schedule& x = *c.schedule.explicit_schedule;
    j.open("schedule")
        .kv("algorithm", c.schedule.algorithm)
        .kv("timing", x.timing == ScheduleTiming::Slots ? "slots" : "phases")
        .kv("message_flits", c.schedule.message_flits)
        .kv("packets", x.items())
        .kv("transmissions", static_cast<std::uint64_t>(x.transmissions.size()))
        .kv("shortest_paths", x.shortest_paths)
        .kv("allow_returns", x.returns_allowed)
        .kv("links_per_slot", x.links_per_slot)
        .kv("barrier", c.schedule.barrier)
        .close();
  } else if (c.schedule.enabled()) {
    j.open("schedule")
        .kv("algorithm", c.schedule.algorithm)
        .kv("message_flits", c.schedule.message_flits)
        .kv("packet_flits", c.schedule.packet_flits)
        .kv("root", c.schedule.root)
        .kv("variant", c.schedule.variant)
        .kv("barrier", c.schedule.barrier);
    if (c.schedule.compact_plan) j.kv("compact_plan", true);  // (absent when off, as before)
    j.close();
  }
  const WavesConfig& w = c.waves;
  j.open("waves").kv("enable", w.enable).kv("file", w.file);
  if (w.routers.empty())
    j.kv("routers", "all");
  else
    j.kv_list("routers", w.routers);
  j.kv("from_cycle", w.from_cycle).kv("to_cycle", w.to_cycle);
  if (w.packet) j.kv("packet", w.packet);  // (only when set: results.json stays as it was)
  if (w.power) j.kv("power", true).kv("power_window", w.power_window);
  j.close();
  if (c.power.enable) {  // (only when on: results.json stays as it was)
    const PowerConfig& p = c.power;
    j.open("power")
        .kv("tech", p.tech.name)
        .kv("tech_file", p.tech.file)
        .kv("frequency_ghz", p.frequency_ghz)
        .kv("flit_width_bits", p.flit_width_bits)
        .kv("link_length_mm", p.link_length_mm);
    bool by_class = false;
    for (double x : p.class_length_mm) by_class |= x >= 0;
    if (by_class) {
      const Topology topo = c.topology.make();
      j.open("link_lengths_mm");
      for (std::size_t k = 0; k < p.class_length_mm.size(); ++k)
        if (p.class_length_mm[k] >= 0)
          j.kv(topo.link_class_name(static_cast<int>(k)).c_str(), p.class_length_mm[k]);
      j.close();
    }
    j.kv("buffer", p.sram_buffers ? "sram" : "flip_flop")
        .kv("crossbar", p.mux_crossbar ? "mux_tree" : "matrix")
        .kv("activity", p.activity)
        .kv("clock_gating", p.clock_gating);
    j.open("tech_parameters");
    for (const TechKey& k : tech_keys()) j.kv(k.key, p.tech.*k.field);
    j.close().close();
  }
  j.close();
  return j.str();
}

}  // namespace sy
