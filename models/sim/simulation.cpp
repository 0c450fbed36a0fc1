#include "switchyard/sim/simulation.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "switchyard/base/huge_pages.hpp"
#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/csv.hpp"
#include "switchyard/sim/estimate.hpp"

namespace sy {
namespace {

// Links of their own latency (a dragonfly's local_latency / global_latency, staged pipeline):
// the mean of (latency - lt) summed along a packet's route, over the traffic's pairs (uniform:
// every pair; adversarial: draws 0 .. N - 1 a source; a trace: its flits), for the zero-load
// formula. Other patterns, or more than 2048 terminals: 0 (the formula counts lt a link).
double link_latency_extra(const Config& cfg, const Topology& topo) {
  const IndirectNetwork* net = topo.indirect_network();
  if (!cfg.router.pipeline.staged || !net || !net->has_link_latencies()) return 0.0;
  const int N = topo.num_nodes(), lt = cfg.router.pipeline.lt;
  const auto extra = [&](int src, int dst) {
    double e = 0;
    for (int r = net->injection_router(src), p; (p = net->route(r, dst)) >= 0;
         r = net->neighbor(r, p)) {
      const int l = net->link_latency(r, p);
      if (l > 0) e += l - lt;
    }
    return e;
  };
  double sum = 0, count = 0;
  const TrafficConfig& t = cfg.traffic;
  if (t.trace) {
    for (const auto& m : t.messages) sum += extra(m.src, m.dst) * m.flits, count += m.flits;
  } else if (N <= 2048 && t.pattern == Pattern::Uniform) {
    for (int s = 0; s < N; ++s)
      for (int d = 0; d < N; ++d)
        if (d != s || !t.exclude_self()) sum += extra(s, d), ++count;
  } else if (N <= 2048 && t.pattern == Pattern::Adversarial) {
    for (int s = 0; s < N; ++s)
      for (int d = 0; d < N; ++d)
        sum += extra(s, net->adversarial_destination(s, static_cast<std::uint64_t>(d))), ++count;
  }
  return count > 0 ? sum / count : 0.0;
}

struct Progress {
  std::chrono::steady_clock::time_point start, last;
};

// Every few seconds: the cycle, the share of the run done and the time left at the speed so
// far (to the window's end; to the last message of a trace), the packets delivered.
void report_progress(const Network& net, Cycle t, void* arg) {
  auto* p = static_cast<Progress*>(arg);
  const auto now = std::chrono::steady_clock::now();
  if (now - p->last < std::chrono::seconds(3)) return;
  p->last = now;
  const double s = std::chrono::duration<double>(now - p->start).count();
  const Config& cfg = net.config();
  const Cycle end = cfg.traffic.trace ? (cfg.traffic.messages.empty()
                                             ? Cycle{0}
                                             : static_cast<Cycle>(cfg.traffic.messages.back().time))
                                      : cfg.simulation.warmup + cfg.simulation.measure;
  std::string where;
  if (end > 0 && t < end && t > 0) {
    char b[128];
    std::snprintf(b, sizeof b, " of %llu (%.0f%%, about %s left)",
                  static_cast<unsigned long long>(end), 100.0 * t / end,
                  human_seconds(s * static_cast<double>(end - t) / t).c_str());
    where = b;
  } else if (end > 0 && t >= end) {
    where = " (draining)";
  }
  std::fprintf(stderr, "[switchyard] %.0fs cycle %llu%s, %llu packets delivered\n", s,
               static_cast<unsigned long long>(t), where.c_str(),
               static_cast<unsigned long long>(net.stats().packets_delivered));
}

bool g_ran = false;

}  // namespace

namespace {

// Limits checked while running: the wall time, and the packets alive (a saturated network's
// source queues grow until memory runs out; stop well before, with a partial result).
RunLimits run_limits(const Config& cfg) {
  RunLimits lim;
  lim.max_wall_seconds = cfg.simulation.max_wall_seconds;
  if (cfg.simulation.max_backlog_packets) {
    lim.max_live = cfg.simulation.max_backlog_packets;
    lim.max_live_source = "simulation.max_backlog_packets";
  } else {
    const double left = memory_limit_bytes(cfg.simulation) - estimate_run(cfg).bytes;
    constexpr double kBytesPerLivePacket = 400;  // packet, message, queue slots, vector growth
    if (left > 0) {
      lim.max_live = std::max<std::uint64_t>(
          std::uint64_t{1} << 16, static_cast<std::uint64_t>(left / kBytesPerLivePacket));
      lim.max_live_source = "what the memory left under simulation.max_memory_gb holds";
    }
  }
  return lim;
}

// The window the rates are measured over: the whole run for a trace, the part of the window a
// run stopped inside it ran, else the window.
double measured_window(const Config& cfg, const Results& r) {
  const Cycle ran_window =
      r.cycles > cfg.simulation.warmup ? r.cycles - cfg.simulation.warmup : Cycle{1};
  return cfg.traffic.trace ? static_cast<double>(r.cycles)
         : r.partial ? static_cast<double>(std::min<Cycle>(cfg.simulation.measure, ran_window))
                     : static_cast<double>(cfg.simulation.measure);
}

// Every link's utilization from its own counter (busy cycles started inside the window), in
// the network's link order; their mean and maximum; and the links by class (dimension; butterfly
// level and arc type): utilization, and with output queues the mean sojourn per packet and the
// time-averaged number of packets at a link.
void collect_links(const Network& net, double window, Results& r) {
  const Config& cfg = net.config();
  const Topology& topo = net.topology();
  double sum = 0, mx = 0;
  r.links_indirect = topo.indirect();
  r.links_butterfly = topo.kind() == Topology::Kind::Butterfly;
  if (cfg.topology.kind == Topology::Kind::Butterfly && cfg.topology.k == 2)
    r.butterfly_cross_name = "vertical";
  r.link_utilization.reserve(net.links().size());
  for (const OutputUnit& ou : net.links()) {
    const Link& l = ou.link;
    const double u = static_cast<double>(l.busy_window) / window;
    sum += u;
    mx = std::max(mx, u);
    LinkUtilization e;
    e.src = l.src_node;
    e.dst = l.dst_node;
    e.utilization = u;
    if (topo.indirect()) {
      const int cls = topo.link_class(l.src_node, l.src_port);
      e.level = cls / 2;  // butterfly classes: 2 * level + (cross arc)
      e.cross = cls % 2 != 0;
      e.port = l.src_port;
      e.cls = cls;
    } else {
      e.dim = topo.port(l.src_port).dim;
      e.dir = topo.port(l.src_port).dir;
    }
    r.link_utilization.push_back(e);
  }
  if (!net.links().empty()) r.link_util_mean = sum / net.links().size();
  r.link_util_max = mx;
  r.link_queues = cfg.router.buffering == Buffering::OutputQueued;
  r.link_classes.resize(static_cast<std::size_t>(topo.num_link_classes()));
  for (int c = 0; c < topo.num_link_classes(); ++c)
    r.link_classes[c].name = topo.link_class_name(c);
  for (const OutputUnit& ou : net.links()) {
    const Link& l = ou.link;
    LinkClassStats& c =
        r.link_classes[static_cast<std::size_t>(topo.link_class(l.src_node, l.src_port))];
    ++c.links;
    c.utilization += static_cast<double>(l.busy_window) / window;
    c.departures += l.departures_window;
    c.sojourn += static_cast<double>(l.sojourn_window);
  }
  for (LinkClassStats& c : r.link_classes) {
    c.queue = c.links ? c.sojourn / (window * c.links) : 0;
    c.sojourn = c.departures ? c.sojourn / static_cast<double>(c.departures) : 0;
    c.utilization = c.links ? c.utilization / c.links : 0;
    if (!topo.indirect()) r.link_util_by_dim.push_back(c.utilization);
  }
}

// Per-flow latency (simulation.flows_csv): the flows with a measured packet, source-major.
void collect_flows(const Network& net, Results& r) {
  const Topology& topo = net.topology();
  const std::vector<FlowAccumulator>& fl = net.stats().flows();
  const int nodes = topo.num_nodes();
  for (int s = 0; s < nodes; ++s)
    for (int d = 0; d < nodes; ++d) {
      const FlowAccumulator& a = fl[static_cast<std::size_t>(s) * static_cast<std::size_t>(nodes) +
                                    static_cast<std::size_t>(d)];
      if (!a.packets) continue;
      FlowStats f;
      f.src = s;
      f.dst = d;
      f.hops = topo.distance(s, d);
      f.packets = a.packets;
      const double n = static_cast<double>(a.packets);
      f.latency_mean = static_cast<double>(a.latency_sum) / n;
      f.network_latency_mean = static_cast<double>(a.network_latency_sum) / n;
      f.latency_min = a.latency_min;
      f.latency_max = a.latency_max;
      r.flows.push_back(f);
    }
}

void add_reason(Results& r, const std::string& why) {
  r.stable = false;
  r.unstable_reason += (r.unstable_reason.empty() ? "" : "; ") + why;
}

}  // namespace

ModelInfo model_info(const Config& cfg) {
  ModelInfo m;
  const RouterConfig& r = cfg.router;
  const PipelineConfig& p = r.pipeline;
  m.router = to_string(r.buffering);
  m.switching = to_string(r.switching);
  m.routing = cfg.schedule.enabled() ? "source-routed (the schedule's)" : cfg.routing.algorithm;
  m.injection = to_string(cfg.interface.injection);
  char b[256];
  std::string what;
  if (r.buffering == Buffering::InputVc) {
    m.vcs = r.vcs;
    m.vc_depth = r.vc_depth;
    if (p.staged) {
      m.pipeline = "staged";
      m.hop_cycles = p.hop_cycles();
      std::snprintf(b, sizeof b,
                    "staged pipeline: rc %d va %d sa %d st %d lt %d%s%s, %d cycles per hop", p.rc,
                    p.va, p.sa, p.st, p.lt,
                    p.ni_lt != p.lt ? (" ni_lt " + std::to_string(p.ni_lt)).c_str() : "",
                    p.speculative ? " speculative" : "", m.hop_cycles);
    } else {
      m.pipeline = "ideal";
      m.hop_cycles = cfg.timing.delta;
      std::snprintf(b, sizeof b, "ideal pipeline: delta %d per hop, free ejection",
                    cfg.timing.delta);
    }
    what = std::string("input-VC router (") + b + "), " + m.switching + ", " +
           std::to_string(r.vcs) + " VCs x " + std::to_string(r.vc_depth) + " flits, " + m.routing +
           " routing";
  } else if (r.buffering == Buffering::OutputQueued) {
    m.pipeline = "ideal";
    m.hop_cycles = cfg.timing.delta;
    what = "output-queued router (the papers' ideal node: unbounded output queues, delta " +
           std::to_string(cfg.timing.delta) + " per hop), " + m.switching + ", " + m.routing +
           " routing";
  } else {
    m.pipeline = "circuit";
    m.hop_cycles = cfg.timing.delta;
    what = "circuit router (delta " + std::to_string(cfg.timing.delta) + " per switch), " +
           m.switching;
  }
  m.line = what + ", " + m.injection + " injection";
  return m;
}

namespace {

// Per class: every priority class when there are several; the config's traffic classes, or the
// ones a TLM initiator used when it used more than one (type none).
void collect_classes(const Config& cfg, const Stats& st, double node_cycles, Results& r) {
  const auto one = [&](const ClassStats& c, int i) {
    ClassResult x;
    x.index = i;
    x.latency = c.lat.summarize(st.batches());
    x.network_latency = c.net.summarize(st.batches());
    x.offered = static_cast<double>(c.offered_window) / node_cycles;
    x.accepted = static_cast<double>(c.accepted_window) / node_cycles;
    return x;
  };
  for (std::size_t i = 0; i < st.by_priority().size(); ++i)
    r.by_priority.push_back(one(st.by_priority()[i], static_cast<int>(i)));
  const std::vector<TrafficClass>& tc = cfg.traffic.classes;
  std::size_t used = 0;
  for (std::size_t i = 0; i < st.by_traffic_class().size(); ++i) {
    const ClassStats& c = st.by_traffic_class()[i];
    if (tc.empty() && c.offered_window == 0 && c.lat.size() == 0) continue;
    ClassResult x = one(c, static_cast<int>(i));
    if (i < tc.size()) {
      x.name = tc[i].name;
      x.packet_flits = tc[i].packet_flits;
      x.priority = tc[i].priority;
      x.share = tc[i].share;
    }
    r.by_traffic_class.push_back(x);
    ++used;
  }
  if (tc.empty() && used < 2) r.by_traffic_class.clear();
}

// The core's results: what every run has.
Results collect_core(const Network& net, double wall_seconds) {
  const Config& cfg = net.config();
  const Stats& st = net.stats();
  const Topology& topo = net.topology();
  Results r;
  r.config_json = config_to_json(cfg, 2);
  r.model = model_info(cfg);
  r.seed = cfg.simulation.seed;
  r.cycles = net.cycles();
  r.wall_seconds = wall_seconds;
  r.packets_injected = st.packets_created;
  r.packets_delivered = st.packets_delivered;
  r.packets_measured = st.measured_delivered;
  r.packets_zero_hop = st.zero_hop;
  r.flits_created = st.flits_created;
  r.flits_injected = st.flits_injected;
  r.flits_delivered = st.flits_delivered;
  r.latency = st.latency();
  r.network_latency = st.network_latency();
  const double N = topo.num_nodes();
  const RunState& rs = net.state();
  r.partial = rs.stopped_early;
  r.stop_kind = rs.stop_kind;
  r.stop_cycle = rs.stop_cycle;
  r.stop_live_packets = rs.stop_live_packets;
  const double window = measured_window(cfg, r);
  r.window = window;
  if (cfg.traffic.trace) {
    r.offered = static_cast<double>(st.flits_created) / (N * window);
    r.accepted = static_cast<double>(st.flits_delivered) / (N * window);
  } else {
    r.offered = static_cast<double>(st.offered_flits_window) / (N * window);
    r.accepted = static_cast<double>(st.accepted_flits_window) / (N * window);
  }
  collect_classes(cfg, st, N * window, r);
  r.mean_hops = net.traffic().mean_hops();
  r.rho = throughput_factor(cfg, topo, r.mean_hops);
  collect_links(net, window, r);
  r.has_flows = cfg.simulation.flows_csv;
  if (r.has_flows) collect_flows(net, r);
  r.packet_time = cfg.traffic.mean_packet_flits() * cfg.timing.tau;
  r.hist_bin = std::max(1.0, r.packet_time);
  r.latency_hist = st.latency_histogram(r.hist_bin, 256);
  r.scheduled = cfg.schedule.enabled();
  // (A schedule is deterministic: its packets are no sample of a steady state.)
  if (!r.scheduled && r.latency.count >= static_cast<std::uint64_t>(cfg.simulation.batches) * 10 &&
      r.latency.lag1 > 0.45)
    r.warnings.push_back(
        "the latency batch means are correlated (lag-1 r = " + Json::number(r.latency.lag1) +
        "): batches are short against the correlation time and the 95% CI is "
        "optimistic; lengthen simulation.measure");
  // A window short against the packets' time in the network counts work that began before it
  // (accepted above offered) or ends after it (a link busy for more than the window).
  if (!cfg.traffic.trace && !r.scheduled) {
    std::string seen;
    if (r.accepted > 1.05 * r.offered + 1e-9)
      seen = "accepted " + Json::number(r.accepted) + " above offered " + Json::number(r.offered);
    if (r.link_util_max > 1.0 + 1e-9)
      seen += (seen.empty() ? "" : ", ") + std::string("a link busy ") +
              Json::number(r.link_util_max) + " of the window";
    if (!seen.empty())
      r.warnings.push_back("the measurement window (" + Json::number(window) +
                           " cycles) is short against the packets' time in the network: " + seen +
                           " (work begun before the window or ending after it); lengthen "
                           "simulation.measure");
  }
  r.flit_hops = net.fabric().flit_hops;
  r.routing_algorithm = cfg.routing.algorithm;
  r.forbidden_turns = net.fabric().forbidden_turns;
  r.nonminimal_packets = net.fabric().nonminimal_packets;
  r.intermediate_missed = net.fabric().intermediate_missed;
  r.order_errors = st.order_errors;
  r.max_flit_wait = net.fabric().max_flit_wait;
  r.max_flit_wait_known = !cfg.router.rtl;
  r.stable = rs.stable;
  r.unstable_reason = rs.reason;
  if (r.forbidden_turns || r.nonminimal_packets || r.intermediate_missed)
    add_reason(r, "routing check failed: " + std::to_string(r.forbidden_turns) +
                      " forbidden turns, " + std::to_string(r.nonminimal_packets) +
                      " non-minimal packets, " + std::to_string(r.intermediate_missed) +
                      " intermediate nodes missed");
  if (r.order_errors)
    add_reason(r, std::to_string(r.order_errors) + " flits delivered out of order");
  r.warnings.insert(r.warnings.begin(), cfg.warnings.begin(), cfg.warnings.end());
  r.credit_violations = net.credit_violations();
  r.priority_inversions = net.fabric().priority_inversions;
  r.requests_rejected = net.requests_rejected();
  r.packets = st.records();
  const double L = cfg.traffic.trace
                       ? (cfg.traffic.messages.empty() ? 1 : cfg.traffic.messages[0].flits)
                       : cfg.traffic.mean_packet_flits();
  const double a = cfg.timing.alpha, d = cfg.timing.delta, tau = cfg.timing.tau;
  r.zero_load_formula = cfg.router.pipeline.staged ? staged_zero_load(cfg, r.mean_hops, L)
                        : cfg.router.switching == Switching::StoreAndForward
                            ? a + r.mean_hops * (d + L * tau)
                            : a + r.mean_hops * d + L * tau;
  r.zero_load_formula += link_latency_extra(cfg, topo);
  r.staged = cfg.router.pipeline.staged;
  r.ni_lt_apart = cfg.router.pipeline.ni_lt != cfg.router.pipeline.lt;
  return r;
}

}  // namespace

Results run_simulation(const Config& cfg, const RunOptions& opt) {
  check_config(cfg);  // (a config built in code: a ConfigError here, before anything is built)
  if (g_ran)
    throw std::logic_error(
        "one simulation per process (SystemC elaborates once): run each test "
        "through ctest, or one point per process");
  g_ran = true;
  Ranks* ranks = opt.ranks && opt.ranks->size() > 1 ? opt.ranks : nullptr;
  if (ranks) {
    std::string why = ranks_refusal(cfg);
    if (why.empty() && opt.record_packets)
      why = "per-packet records: they need the one-process order";
    if (!why.empty())
      throw ConfigError(cfg.source + ": cannot run across " + std::to_string(ranks->size()) +
                        " ranks (mpirun -np " + std::to_string(ranks->size()) + "): " + why);
  }
  auto* net = new Network("net", cfg, opt.out_dir, ranks);
  // The plug-ins that apply, attached before anything else binds to the network.
  std::vector<Results::Section> sections;
  for (const auto* kinds : {&plugin_kinds(), &opt.plugins})
    for (const PluginKind& k : *kinds)
      if (std::unique_ptr<Plugin> p = k.make(cfg)) {
        if (ranks)
          throw ConfigError(cfg.source + ": cannot run across " + std::to_string(ranks->size()) +
                            " ranks (mpirun): the " + k.name +
                            " section's plug-in sees the whole network; run it in one process");
        p->attach(*net);
        sections.push_back({k.name, std::move(p)});
      }
  Progress prog;
  prog.start = prog.last = std::chrono::steady_clock::now();
  if (opt.progress) net->set_progress(&report_progress, &prog);
  net->keep_records(opt.record_packets);
  net->track_flows(cfg.simulation.flows_csv);
  if (opt.attach) opt.attach(*net);
  RunLimits lim = run_limits(cfg);
  use_huge_pages_for_heap();  // (the network is built: most of the heap is its state)
  const auto t0 = std::chrono::steady_clock::now();
  lim.start = t0;
  net->set_limits(lim);
  try {
    sc_core::sc_start();
  } catch (const sc_core::sc_report& e) {
    // (An exception out of a caller's own process: said as what it is.)
    throw std::runtime_error(std::string("during the run: ") + e.what());
  }
  if (net->failure()) std::rethrow_exception(net->failure());
  const auto t1 = std::chrono::steady_clock::now();
  if (net->waves()) net->waves()->close();
  net->close_router_waves();
  net->settle_link_window();
  net->gather_ranks();
  net->report_lane_profile();

  Results r = collect_core(*net, std::chrono::duration<double>(t1 - t0).count());
  // The plug-ins' sections, each with its own check; a credit violation is the core's last.
  r.sections = std::move(sections);
  for (Results::Section& s : r.sections) {
    s.plugin->collect(*net, r);
    const std::string why = s.plugin->unstable_reason();
    if (!why.empty()) add_reason(r, why);
  }
  if (r.credit_violations) add_reason(r, "credit violations");
  return r;
}

std::string ranks_refusal(const Config& c) {
  const RouterConfig& r = c.router;
  if (c.traffic.broadcast.enabled()) return "traffic.broadcast: no broadcast scheme";
  if (c.schedule.enabled()) return "schedule: no schedule";
  if (c.traffic.trace || c.traffic.none)
    return "traffic.type: only the synthetic sources (no trace, no outside initiators)";
  if (c.topology.kind != Topology::Kind::Torus && c.topology.kind != Topology::Kind::Mesh &&
      c.topology.kind != Topology::Kind::Hypercube)
    return "topology.type: only tori, meshes and hypercubes";
  if (r.buffering != Buffering::InputVc) return "router.buffering: only input_vc routers";
  if (r.rtl) return "router.model: only the C++ router (rtl: one Verilated model per process)";
  if (c.timing.delta < 1) return "timing.delta: 0 lets a flit cross several routers in a cycle";
  if (c.waves.enable) return "waves.enable: waves need the one-process order";
  for (const PluginKind& k : plugin_kinds())
    if (k.make(c))
      return std::string("the ") + k.name + " section: its plug-in sees the whole network";
  return "";
}

void summary_json(Json& j, const char* key, const Summary& s, double packet_time) {
  // No samples: null, not 0 (nothing was measured); no interval from fewer than 2 batches.
  const double none = std::numeric_limits<double>::quiet_NaN();
  const auto v = [&](double x) { return s.count ? x : none; };
  j.open(key)
      .kv("mean", v(s.mean))
      .kv("ci95", s.count && s.batched ? s.ci95 : none)
      .kv("p50", v(s.p50))
      .kv("p90", v(s.p90))
      .kv("p95", v(s.p95))
      .kv("p99", v(s.p99))
      .kv("p99_9", v(s.p999))
      .kv("max", v(s.max))
      .kv("count", s.count)
      .kv("batch_lag1", s.count && s.batched ? s.lag1 : none);
  if (packet_time > 0)
    j.open("packet_times")
        .kv("mean", v(s.mean) / packet_time)
        .kv("ci95", (s.count && s.batched ? s.ci95 : none) / packet_time)
        .kv("p99", v(s.p99) / packet_time)
        .close();
  j.close();
}

std::string Results::to_json() const {
  Json j(2);
  j.open();
  j.raw("config", config_json);
  j.kv("seed", seed).kv("cycles", cycles).kv("wall_seconds", wall_seconds);
  j.open("model")
      .kv("router", model.router)
      .kv("pipeline", model.pipeline)
      .kv("hop_cycles", model.hop_cycles)
      .kv("switching", model.switching);
  if (model.vcs) j.kv("vcs", model.vcs).kv("vc_depth", model.vc_depth);
  j.kv("routing", model.routing).kv("injection", model.injection).kv("line", model.line).close();
  j.open("packets")
      .kv("injected", packets_injected)
      .kv("delivered", packets_delivered)
      .kv("measured", packets_measured)
      .kv("zero_hop", packets_zero_hop)
      .close();
  j.open("flits")
      .kv("created", flits_created)
      .kv("injected", flits_injected)
      .kv("delivered", flits_delivered)
      .kv("hops", flit_hops)
      .kv("order_errors", order_errors);
  if (max_flit_wait_known)
    j.kv("max_wait", max_flit_wait);
  else
    j.kv("max_wait", std::numeric_limits<double>::quiet_NaN());  // null
  j.kv("credit_violations", credit_violations)
      .kv("priority_inversions", priority_inversions)
      .kv("requests_rejected", requests_rejected)
      .close();
  summary_json(j, "latency", latency, packet_time);
  summary_json(j, "network_latency", network_latency);
  j.open("throughput").kv("offered", offered).kv("accepted", accepted).close();
  for (const auto& [key, list] :
       {std::pair<const char*, const std::vector<ClassResult>*>{"by_priority_class", &by_priority},
        {"by_traffic_class", &by_traffic_class}}) {
    if (list->empty()) continue;
    j.open_array(key);
    for (const ClassResult& c : *list) {
      j.open().kv("class", c.index);
      if (!c.name.empty())
        j.kv("name", c.name)
            .kv("share", c.share)
            .kv("packet_flits", c.packet_flits)
            .kv("priority", c.priority);
      j.open("throughput").kv("offered", c.offered).kv("accepted", c.accepted).close();
      summary_json(j, "latency", c.latency);
      summary_json(j, "network_latency", c.network_latency);
      j.close();
    }
    j.close();
  }
  j.kv("rho", rho);
  j.kv("mean_hops", mean_hops);
  j.open("links")
      .kv("utilization_mean", link_util_mean)
      .kv("utilization_max", link_util_max)
      .kv_list("utilization_by_dimension", link_util_by_dim);
  j.open_array("by_class");
  for (const LinkClassStats& c : link_classes) {
    j.open().kv("class", c.name).kv("links", c.links).kv("utilization", c.utilization);
    if (link_queues)
      j.kv("sojourn_cycles", c.sojourn)
          .kv("sojourn_packet_times", c.sojourn / packet_time)
          .kv("queue", c.queue);
    j.close();
  }
  j.close();
  // One entry per link (see LinkUtilization): direct networks {src, dim, dir, dst, utilization},
  // butterflies {src, level, port, arc, dst, utilization}, other indirect networks {src, port,
  // class, dst, utilization} (class: the name in by_class; src and dst router ids).
  j.open_array("utilization");
  for (const LinkUtilization& e : link_utilization) {
    j.open().kv("src", e.src);
    if (links_butterfly)
      j.kv("level", e.level)
          .kv("port", e.port)
          .kv("arc", e.cross ? butterfly_cross_name : "straight");
    else if (links_indirect)
      j.kv("port", e.port).kv("class", link_classes[static_cast<std::size_t>(e.cls)].name);
    else
      j.kv("dim", e.dim).kv("dir", e.dir);
    j.kv("dst", e.dst).kv("utilization", e.utilization).close();
  }
  j.close().close();
  j.open("latency_histogram").kv("bin_cycles", hist_bin).kv_list("counts", latency_hist).close();
  // The plug-ins' sections, in the registry's order; the core's checks and verdict last.
  for (const Section& s : sections) s.plugin->json(j);
  if (!routing_algorithm.empty() && routing_algorithm != "dimension_order")
    j.open("routing")
        .kv("algorithm", routing_algorithm)
        .kv("forbidden_turns", forbidden_turns)
        .kv("nonminimal_packets", nonminimal_packets)
        .kv("intermediate_missed", intermediate_missed)
        .close();
  j.open("check").kv("zero_load_latency_formula", zero_load_formula).close();
  j.kv("stable", stable);
  if (!stable) j.kv("unstable_reason", unstable_reason);
  if (partial)
    j.kv("partial", true)
        .open("stopped")
        .kv("reason", stop_kind)
        .kv("cycle", stop_cycle)
        .kv("live_packets", stop_live_packets)
        .close();
  j.kv_list("warnings", warnings);
  j.close();
  return j.str() + "\n";
}

// The core's sweep.csv columns (after the point's value), then each plug-in kind's.
namespace {
const char* kCoreCsvColumns =
    "stable,offered,accepted,rho,latency_mean,latency_ci95,latency_p50,latency_p99,"
    "latency_max,network_latency_mean,link_util_mean,link_util_max,cycles,packets_measured,"
    "packet_time";
}  // namespace

std::string Results::csv_header() {
  std::string h = kCoreCsvColumns;
  for (const PluginKind& k : plugin_kinds())
    for (const char* c : k.csv_columns) h += std::string(",") + c;
  return h;
}

std::string Results::csv_row() const {
  char b[1024];
  // (A latency with no samples, or an interval from fewer than 2 batches: an empty field.)
  std::string row = stable ? "true" : "false";
  const auto num = [&](double x, bool have) {
    row += ',';
    if (!have) return;
    std::snprintf(b, sizeof b, "%.6g", x);
    row += b;
  };
  const bool lat = latency.count > 0, net = network_latency.count > 0;
  num(offered, true);
  num(accepted, true);
  num(rho, true);
  num(latency.mean, lat);
  num(latency.ci95, lat && latency.batched);
  num(latency.p50, lat);
  num(latency.p99, lat);
  num(latency.max, lat);
  num(network_latency.mean, net);
  num(link_util_mean, true);
  num(link_util_max, true);
  row += ',' + std::to_string(cycles) + ',' + std::to_string(packets_measured);
  num(packet_time, true);
  std::vector<double> v;
  for (const PluginKind& k : plugin_kinds()) {
    v.clear();
    for (const Section& s : sections)
      if (s.kind == k.name) s.plugin->csv(v);
    v.resize(k.csv_columns.size(), std::numeric_limits<double>::quiet_NaN());
    for (double x : v) num(x, std::isfinite(x));
  }
  return row;
}

void Results::write_flows_csv(std::ostream& out) const {
  out << "src,dst,hops,packets,latency_mean,latency_min,latency_max,network_latency_mean\n";
  for (const FlowStats& f : flows)
    out << f.src << ',' << f.dst << ',' << f.hops << ',' << f.packets << ','
        << csv_quote(Json::number(f.latency_mean)) << ',' << f.latency_min << ',' << f.latency_max
        << ',' << csv_quote(Json::number(f.network_latency_mean)) << '\n';
}

std::string Results::summary() const {
  std::ostringstream o;
  char b[512];
  o << "model            " << model.line << "\n";
  std::snprintf(b, sizeof b, "cycles %llu   packets %llu created, %llu delivered, %llu measured\n",
                (unsigned long long)cycles, (unsigned long long)packets_injected,
                (unsigned long long)packets_delivered, (unsigned long long)packets_measured);
  o << b;
  for (const Section& s : sections) s.plugin->summary(o, SummaryPlace::Head);
  // What applies to the run: unicast latency lines only when packets were measured, the
  // zero-load check, the throughput and the confidence intervals only for traffic that has them
  // (not a schedule: deterministic, its completion against its formula printed above).
  if (latency.count > 0) {
    const auto line = [&](const char* name, const Summary& s) {
      if (scheduled)
        std::snprintf(b, sizeof b, "%s mean %.2f  p50 %.0f  p99 %.0f  max %.0f cycles\n", name,
                      s.mean, s.p50, s.p99, s.max);
      else if (!stable)
        // (Past saturation the latency grows with the window: no steady state to estimate, so
        // no interval; what the delivered packets took, said as such.)
        std::snprintf(b, sizeof b,
                      "%s not a steady state (the run is not stable): the measured packets "
                      "delivered took mean %.2f  p50 %.0f  p99 %.0f  max %.0f cycles\n",
                      name, s.mean, s.p50, s.p99, s.max);
      else
        std::snprintf(b, sizeof b, "%s mean %.2f ±%.2f  p50 %.0f  p99 %.0f  max %.0f cycles\n",
                      name, s.mean, s.ci95, s.p50, s.p99, s.max);
      o << b;
    };
    line(scheduled ? "packet latency  " : "latency         ", latency);
    line("network latency ", network_latency);
    if (!scheduled) {
      std::snprintf(b, sizeof b,
                    "zero-load check  formula %.2f cycles at the pattern's mean %.3f hops (%s)\n",
                    zero_load_formula, mean_hops,
                    !staged       ? "alpha + h*delta + L*tau"
                    : ni_lt_apart ? "staged pipeline: alpha + h*lt + 2*ni_lt + (h+1)*R + L*tau"
                                  : "staged pipeline: alpha + (h+2)*lt + (h+1)*R + L*tau");
      o << b;
    }
  }
  if (!scheduled) {
    std::snprintf(b, sizeof b,
                  "throughput       offered %.4f  accepted %.4f flits/node/cycle   rho %.3f\n",
                  offered, accepted, rho);
    o << b;
  }
  // Per class: one line each, throughput and latency (no interval past saturation).
  for (const auto& [kind, list] :
       {std::pair<const char*, const std::vector<ClassResult>*>{"priority", &by_priority},
        {"traffic", &by_traffic_class}}) {
    for (const ClassResult& c : *list) {
      std::string who = std::string(kind) + " " + std::to_string(c.index);
      if (!c.name.empty())
        who = c.name + " (" + std::to_string(c.packet_flits) +
              (c.packet_flits == 1 ? " flit" : " flits") + ", priority " +
              std::to_string(c.priority) + ")";
      std::snprintf(b, sizeof b, "  class %-24s offered %.4f  accepted %.4f  ", who.c_str(),
                    c.offered, c.accepted);
      o << b;
      if (c.latency.count == 0)
        std::snprintf(b, sizeof b, "latency: no measured packets\n");
      else if (stable && c.latency.batched)
        std::snprintf(b, sizeof b, "latency mean %.2f ±%.2f  p99 %.0f cycles\n", c.latency.mean,
                      c.latency.ci95, c.latency.p99);
      else
        std::snprintf(b, sizeof b, "latency mean %.2f  p99 %.0f cycles%s\n", c.latency.mean,
                      c.latency.p99, stable ? "" : " (not a steady state)");
      o << b;
    }
  }
  std::snprintf(b, sizeof b, "links            utilization mean %.3f  max %.3f\n", link_util_mean,
                link_util_max);
  o << b;
  for (const Section& s : sections) s.plugin->summary(o, SummaryPlace::Tail);
  if (partial)
    o << "PARTIAL RESULT   stopped early at cycle " << stop_cycle << " (" << stop_kind
      << "): the numbers above cover only the cycles run\n";
  o << "stable           " << (stable ? "true" : "false");
  if (!stable) o << "  (" << unstable_reason << ")";
  o << "\n";
  for (const auto& w : warnings) o << "warning: " << w << "\n";
  return o.str();
}

}  // namespace sy
