#include "switchyard/sim/simulation.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "switchyard/base/huge_pages.hpp"
#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/schemes/greedy/greedy.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/csv.hpp"
#include "switchyard/sim/estimate.hpp"

namespace sy {
namespace {

struct Progress {
  std::chrono::steady_clock::time_point start, last;
};

void report_progress(const Network& net, Cycle t, void* arg) {
  auto* p = static_cast<Progress*>(arg);
  const auto now = std::chrono::steady_clock::now();
  if (now - p->last < std::chrono::seconds(3)) return;
  p->last = now;
  const double s = std::chrono::duration<double>(now - p->start).count();
  const auto& sim = net.config().simulation;
  const Cycle end = sim.warmup + sim.measure;
  std::fprintf(stderr, "[switchyard] %.0fs cycle %llu%s, %llu packets delivered\n", s,
               static_cast<unsigned long long>(t),
               net.config().traffic.trace ? ""
               : t < end                  ? (" of window end " + std::to_string(end)).c_str()
                                          : " (draining)",
               static_cast<unsigned long long>(net.stats().packets_delivered));
}

bool g_ran = false;

}  // namespace

Results run_simulation(const Config& cfg, const RunOptions& opt) {
  if (g_ran)
    throw std::logic_error(
        "one simulation per process (SystemC elaborates once): run each test "
        "through ctest, or one point per process");
  g_ran = true;
  auto* net = new Network("net", cfg);
  Progress prog;
  prog.start = prog.last = std::chrono::steady_clock::now();
  if (opt.progress) net->set_progress(&report_progress, &prog);
  net->keep_records(opt.record_packets);
  net->track_flows(cfg.simulation.flows_csv);
  if (opt.attach) opt.attach(*net);
  // Limits checked while running: the wall time, and the packets alive (a saturated network's
  // source queues grow until memory runs out; stop well before, with a partial result).
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
  use_huge_pages_for_heap();  // (the network is built: most of the heap is its state)
  const auto t0 = std::chrono::steady_clock::now();
  lim.start = t0;
  net->set_limits(lim);
  sc_core::sc_start();
  const auto t1 = std::chrono::steady_clock::now();
  if (net->waves()) net->waves()->close();
  net->settle_link_window();

  Results r;
  const Stats& st = net->stats();
  const Topology& topo = net->topology();
  r.config_json = config_to_json(cfg, 2);
  r.seed = cfg.simulation.seed;
  r.cycles = net->cycles();
  r.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
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
  const RunState& rs = net->state();
  r.partial = rs.stopped_early;
  r.stop_kind = rs.stop_kind;
  r.stop_cycle = rs.stop_cycle;
  r.stop_live_packets = rs.stop_live_packets;
  // A run stopped inside its window is measured over the part it ran.
  const Cycle ran_window =
      r.cycles > cfg.simulation.warmup ? r.cycles - cfg.simulation.warmup : Cycle{1};
  const double window =
      cfg.traffic.trace ? static_cast<double>(r.cycles)
      : r.partial       ? static_cast<double>(std::min<Cycle>(cfg.simulation.measure, ran_window))
                        : static_cast<double>(cfg.simulation.measure);
  if (cfg.traffic.trace) {
    r.offered = static_cast<double>(st.flits_created) / (N * window);
    r.accepted = static_cast<double>(st.flits_delivered) / (N * window);
  } else {
    r.offered = static_cast<double>(st.offered_flits_window) / (N * window);
    r.accepted = static_cast<double>(st.accepted_flits_window) / (N * window);
  }
  r.mean_hops = net->traffic().mean_hops();
  r.rho = throughput_factor(cfg, topo, r.mean_hops);
  // Every link's utilization from its own counter (busy cycles started inside the window), in
  // the network's link order; their mean and maximum.
  double sum = 0, mx = 0;
  r.links_indirect = topo.indirect();
  if (cfg.topology.kind == Topology::Kind::Butterfly && cfg.topology.k == 2)
    r.butterfly_cross_name = "vertical";
  r.link_utilization.reserve(net->links().size());
  for (const OutputUnit& ou : net->links()) {
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
    } else {
      e.dim = topo.port(l.src_port).dim;
      e.dir = topo.port(l.src_port).dir;
    }
    r.link_utilization.push_back(e);
  }
  if (!net->links().empty()) r.link_util_mean = sum / net->links().size();
  r.link_util_max = mx;
  // Per-flow latency: the flows with a measured packet, source-major.
  r.has_flows = cfg.simulation.flows_csv;
  if (r.has_flows) {
    const std::vector<FlowAccumulator>& fl = st.flows();
    const int nodes = topo.num_nodes();
    for (int s = 0; s < nodes; ++s)
      for (int d = 0; d < nodes; ++d) {
        const FlowAccumulator& a =
            fl[static_cast<std::size_t>(s) * static_cast<std::size_t>(nodes) +
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
  // Links by class (dimension; butterfly level and arc type): utilization, and with output
  // queues the mean sojourn per packet and the time-averaged number of packets at a link.
  r.link_queues = cfg.router.buffering == Buffering::OutputQueued;
  r.link_classes.resize(static_cast<std::size_t>(topo.num_link_classes()));
  for (int c = 0; c < topo.num_link_classes(); ++c)
    r.link_classes[c].name = topo.link_class_name(c);
  for (const OutputUnit& ou : net->links()) {
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
  r.packet_time = static_cast<double>(cfg.traffic.packet_flits) * cfg.timing.tau;
  r.hist_bin = std::max(1.0, r.packet_time);
  r.latency_hist = st.latency_histogram(r.hist_bin, 256);
  if (r.latency.count >= static_cast<std::uint64_t>(cfg.simulation.batches) * 10 &&
      r.latency.lag1 > 0.45)
    r.warnings.push_back(
        "the latency batch means are correlated (lag-1 r = " + Json::number(r.latency.lag1) +
        "): batches are short against the correlation time and the 95% CI is "
        "optimistic; lengthen simulation.measure");
  // Greedy routing's bounds beside the model (bit_flip on a hypercube or a 2-ary butterfly).
  const bool cube = topo.kind() == Topology::Kind::Hypercube;
  const bool fly = topo.kind() == Topology::Kind::Butterfly && cfg.topology.k == 2;
  if (!cfg.traffic.trace && !cfg.traffic.broadcast.enabled() &&
      cfg.traffic.pattern == Pattern::BitFlip && (cube || fly)) {
    r.has_greedy = true;
    const double S = r.packet_time;
    r.greedy =
        greedy_bounds(fly, fly ? cfg.topology.n : topo.num_dims(), cfg.traffic.bit_flip_probability,
                      cfg.traffic.packets_per_cycle() * S, 1.0 / S);
    r.greedy_ideal = cfg.router.buffering == Buffering::OutputQueued &&
                     cfg.router.switching == Switching::StoreAndForward &&
                     cfg.interface.injection == Injection::AllPort && cfg.timing.alpha == 0 &&
                     cfg.timing.delta == 0 &&
                     (fly || cfg.traffic.self == SelfTraffic::DeliverLocally ||
                      cfg.traffic.bit_flip_probability == 1.0);
  }
  if (cfg.traffic.broadcast.enabled()) {
    r.broadcast = true;
    r.broadcast_scheme = to_string(cfg.traffic.broadcast.scheme);
    r.broadcasts = st.broadcasts_created;
    r.broadcasts_done = st.broadcasts_done;
    r.broadcast_delay = st.broadcast_delay();
    r.reception_delay = st.reception_delay();
    r.transmissions_per_broadcast =
        st.broadcasts_done ? static_cast<double>(st.broadcast_transmissions) / st.broadcasts_done
                           : 0;
    r.star_x = net->fabric().star_x;
  }
  if (const DynamicPmnb* pm = net->dynamic_pmnb()) {
    r.has_pmnb = true;
    r.pmnb = pm->result();
  }
  r.flit_hops = net->fabric().flit_hops;
  r.routing_algorithm = cfg.routing.algorithm;
  r.forbidden_turns = net->fabric().forbidden_turns;
  r.nonminimal_packets = net->fabric().nonminimal_packets;
  r.intermediate_missed = net->fabric().intermediate_missed;
  r.order_errors = st.order_errors;
  r.max_flit_wait = net->fabric().max_flit_wait;
  r.stable = net->state().stable;
  r.unstable_reason = net->state().reason;
  if (r.forbidden_turns || r.nonminimal_packets || r.intermediate_missed) {
    r.stable = false;
    r.unstable_reason += (r.unstable_reason.empty() ? "" : "; ") +
                         std::string("routing check failed: ") + std::to_string(r.forbidden_turns) +
                         " forbidden turns, " + std::to_string(r.nonminimal_packets) +
                         " non-minimal packets, " + std::to_string(r.intermediate_missed) +
                         " intermediate nodes missed";
  }
  if (r.order_errors) {
    r.stable = false;
    r.unstable_reason += (r.unstable_reason.empty() ? "" : "; ") + std::to_string(r.order_errors) +
                         " flits delivered out of order";
  }
  if (net->schedule_driver()) {
    r.has_schedule = true;
    r.schedule = net->schedule_driver()->result();
    if (r.schedule.nodes_informed != r.schedule.nodes_expected || r.schedule.duplicates ||
        r.schedule.refused) {
      r.stable = false;
      r.unstable_reason += (r.unstable_reason.empty() ? "" : "; ") +
                           std::string("schedule did not deliver every packet exactly once");
    }
  }
  if (r.has_schedule && r.schedule.slots && exchange_algorithm(cfg.schedule.algorithm)) {
    // The model's numbers: completion and delays from the deliveries, use from the links.
    ExchangeResult& x = r.exchange;
    r.has_exchange = true;
    const TaskMatrix t = exchange_task(cfg);
    x.algorithm = cfg.schedule.algorithm;
    x.task = cfg.schedule.algorithm == "total_exchange" ? "total_exchange" : cfg.schedule.task;
    x.h = t.critical_sum();
    x.h_rows = t.max_row();
    x.h_cols = t.max_col();
    x.sigma = t.total();
    x.links = cfg.schedule.links;
    const double S = static_cast<double>(r.schedule.slot_cycles);
    x.completion_time = std::ceil(static_cast<double>(r.schedule.completion) / S);
    x.average_delay = r.schedule.mean_delivery_slots;
    double packet_hops = 0;
    for (const OutputUnit& ou : net->links())
      packet_hops += static_cast<double>(ou.flits) / cfg.schedule.message_flits;
    const double capacity = static_cast<double>(net->links().size()) * x.completion_time;
    x.utilization = capacity > 0 ? packet_hops / capacity : 0;
    x.formulas = exchange_formulas(cfg);
  }
  r.warnings.insert(r.warnings.begin(), cfg.warnings.begin(), cfg.warnings.end());
  r.credit_violations = net->credit_violations();
  r.priority_inversions = net->fabric().priority_inversions;
  for (int n = 0; n < topo.num_nodes(); ++n) r.requests_rejected += net->ni(n).requests_rejected();
  r.packets = st.records();
  if (r.credit_violations) {
    r.stable = false;
    r.unstable_reason += (r.unstable_reason.empty() ? "" : "; ") + std::string("credit violations");
  }
  const double L = cfg.traffic.trace
                       ? (cfg.traffic.messages.empty() ? 1 : cfg.traffic.messages[0].flits)
                       : cfg.traffic.packet_flits;
  const double a = cfg.timing.alpha, d = cfg.timing.delta, tau = cfg.timing.tau;
  r.zero_load_formula = cfg.router.pipeline.staged ? staged_zero_load(cfg, r.mean_hops, L)
                        : cfg.router.switching == Switching::StoreAndForward
                            ? a + r.mean_hops * (d + L * tau)
                            : a + r.mean_hops * d + L * tau;
  r.staged = cfg.router.pipeline.staged;
  return r;
}

namespace {
void summary_json(Json& j, const char* key, const Summary& s, double packet_time = 0) {
  j.open(key)
      .kv("mean", s.mean)
      .kv("ci95", s.ci95)
      .kv("p50", s.p50)
      .kv("p99", s.p99)
      .kv("max", s.max)
      .kv("count", s.count)
      .kv("batch_lag1", s.lag1);
  if (packet_time > 0)
    j.open("packet_times")
        .kv("mean", s.mean / packet_time)
        .kv("ci95", s.ci95 / packet_time)
        .kv("p99", s.p99 / packet_time)
        .close();
  j.close();
}
}  // namespace

std::string Results::to_json() const {
  Json j(2);
  j.open();
  j.raw("config", config_json);
  j.kv("seed", seed).kv("cycles", cycles).kv("wall_seconds", wall_seconds);
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
      .kv("order_errors", order_errors)
      .kv("max_wait", max_flit_wait)
      .kv("credit_violations", credit_violations)
      .kv("priority_inversions", priority_inversions)
      .kv("requests_rejected", requests_rejected)
      .close();
  summary_json(j, "latency", latency, packet_time);
  summary_json(j, "network_latency", network_latency);
  j.open("throughput").kv("offered", offered).kv("accepted", accepted).close();
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
  // butterflies {src, level, port, arc, dst, utilization}.
  j.open_array("utilization");
  for (const LinkUtilization& e : link_utilization) {
    j.open().kv("src", e.src);
    if (links_indirect)
      j.kv("level", e.level)
          .kv("port", e.port)
          .kv("arc", e.cross ? butterfly_cross_name : "straight");
    else
      j.kv("dim", e.dim).kv("dir", e.dir);
    j.kv("dst", e.dst).kv("utilization", e.utilization).close();
  }
  j.close().close();
  j.open("latency_histogram").kv("bin_cycles", hist_bin).kv_list("counts", latency_hist).close();
  if (has_greedy) {
    const GreedyBounds& g = greedy;
    j.open("greedy")
        .kv("network", g.butterfly ? "butterfly" : "hypercube")
        .kv("d", g.d)
        .kv("p", g.p)
        .kv("lambda", g.lambda)
        .kv("rho", g.rho)
        .kv("ideal_model", greedy_ideal)
        .kv("T_model", latency.mean / packet_time)
        .kv("T_model_ci95", latency.ci95 / packet_time)
        .kv("lower", g.lower)
        .kv("upper", g.upper)
        .kv("slotted_upper", g.slotted_upper);
    if (g.exact_known) j.kv("exact", g.exact);
    if (link_queues && !link_classes.empty()) {
      if (g.butterfly)
        j.kv("first_straight_sojourn_model", link_classes[0].sojourn / packet_time)
            .kv("first_straight_sojourn_md1", g.md1_first_straight)
            .kv("first_vertical_sojourn_model", link_classes[1].sojourn / packet_time)
            .kv("first_vertical_sojourn_md1", g.md1_first_vertical);
      else
        j.kv("first_dimension_sojourn_model", link_classes[0].sojourn / packet_time)
            .kv("first_dimension_sojourn_md1", g.md1_first);
    }
    j.close();
  }
  if (has_schedule) {
    const ScheduleResult& s = schedule;
    j.open("schedule")
        .kv("algorithm", s.algorithm)
        .kv("variant", s.variant)
        .kv("timing", s.slots ? "slots" : "phases")
        .kv("completion_time", s.completion)
        .kv("phases", s.phases)
        .kv("parts", s.parts)
        .kv("nodes_informed", s.nodes_informed)
        .kv("nodes_expected", s.nodes_expected)
        .kv("receptions_per_node_max", s.receptions_per_node_max)
        .kv("duplicates", s.duplicates)
        .kv("returns", s.returns)
        .kv("transmissions", s.transmissions)
        .kv("broadcast_transmissions", s.broadcast_transmissions)
        .kv("mean_delivery", s.mean_delivery)
        .kv("planned", s.planned);
    if (s.slots) {
      const double S = static_cast<double>(s.slot_cycles);
      // In slots: a packet in at the end of slot w counts w + 1.
      j.kv("slot_cycles", s.slot_cycles)
          .kv("completion_slots", std::ceil(static_cast<double>(s.completion) / S))
          .kv("mean_delivery_slots", s.mean_delivery_slots);
    }
    // Per packet: the cycle its last destination had it (up to 65536 packets listed).
    if (s.item_delivered.size() <= 65536) j.kv_list("packet_delivered", s.item_delivered);
    j.kv("formula", s.formula)
        .kv("formula_source", s.formula_text)
        .kv("alpha_terms", s.alpha_terms)
        .kv("delta_terms", s.delta_terms)
        .kv("ltau_terms", s.ltau_terms)
        .kv("lower_bound", s.lower_bound);
    if (s.upper_bound > 0) j.kv("upper_bound", s.upper_bound);
    if (s.packet_slot_cycles > 0)
      // PMNB's unit: a whole packet over one link (algorithm II's schedule slots are mini-slots).
      j.kv("packet_slot_cycles", s.packet_slot_cycles)
          .kv("completion_packet_slots", static_cast<double>(s.completion) / s.packet_slot_cycles)
          .kv("formula_packet_slots", s.formula / s.packet_slot_cycles)
          .kv("upper_bound_packet_slots", s.upper_bound / s.packet_slot_cycles)
          .kv("lower_bound_packet_slots", s.lower_bound / s.packet_slot_cycles);
    j.close();
  }
  if (has_exchange) {
    const ExchangeResult& x = exchange;
    const ExchangeFormulas& f = x.formulas;
    j.open("exchange")
        .kv("algorithm", x.algorithm)
        .kv("task", x.task)
        .kv("critical_sum_h", x.h)
        .kv("max_row_sum_h_r", x.h_rows)
        .kv("max_column_sum_h_c", x.h_cols)
        .kv("total_sum_sigma", static_cast<double>(x.sigma))
        .kv("links_per_slot", x.links)
        .kv("completion_time", x.completion_time)
        .kv("average_delay", x.average_delay)
        .kv("utilization", x.utilization)
        .kv("completion_formula", f.completion)
        .kv("completion_formula_source", f.completion_text)
        .kv("completion_lower_bound", f.completion_lower_bound);
    if (f.delay >= 0) j.kv("average_delay_formula", f.delay);
    j.kv("average_delay_formula_source", f.delay_text)
        .kv("average_delay_lower_bound", f.delay_lower_bound)
        .close();
  }
  if (broadcast) {
    j.open("broadcast")
        .kv("scheme", broadcast_scheme)
        .kv("broadcasts", broadcasts)
        .kv("completed", broadcasts_done)
        .kv("packet_time", packet_time);
    summary_json(j, "broadcast_delay", broadcast_delay, packet_time);
    summary_json(j, "reception_delay", reception_delay, packet_time);
    j.kv("transmissions_per_broadcast", transmissions_per_broadcast).close();
    j.open("unicast");
    summary_json(j, "delay", latency, packet_time);
    j.close();
    j.open("star").kv_list("x", star_x).close();
  }
  if (!routing_algorithm.empty() && routing_algorithm != "dimension_order")
    j.open("routing")
        .kv("algorithm", routing_algorithm)
        .kv("forbidden_turns", forbidden_turns)
        .kv("nonminimal_packets", nonminimal_packets)
        .kv("intermediate_missed", intermediate_missed)
        .close();
  if (has_pmnb) {
    // Slots: a whole packet over one link (delta + L tau cycles). The model's delays first, the
    // theorem's beside them.
    const DynamicPmnbResult& p = pmnb;
    const double S = p.slot_cycles;
    j.open("pmnb")
        .kv("algorithm", p.algorithm)
        .kv("period", p.period)
        .kv("d", p.d)
        .kv("scan_slots", p.scan_slots)
        .kv("slot_cycles", S)
        .kv("periods", p.periods)
        .kv("empty_periods", p.empty_periods)
        .kv("mean_M", p.mean_M)
        .kv("mean_M2", p.mean_M2)
        .kv("mean_period_slots", p.mean_period_slots)
        .kv("a_measured", p.a_measured)
        .kv("delay_to_period_end_slots", p.period_end_delay.mean / S)
        .kv("delay_to_period_end_ci95_slots", p.period_end_delay.ci95 / S)
        .kv("delay_to_last_reception_slots", broadcast_delay.mean / S)
        .kv("delay_to_last_reception_ci95_slots", broadcast_delay.ci95 / S)
        .kv("reception_delay_slots", reception_delay.mean / S)
        .kv("waiting_at_end", p.waiting_at_end)
        .open("theorem")
        .kv("lambda_per_slot", p.lambda)
        .kv("rho", p.rho_thm)
        .kv("rho_17", p.rho_17)
        .kv("X", p.X)
        .kv("V", p.V)
        .kv("stable", p.theorem_stable)
        .kv("stability_limit_rho", p.limit_rho)
        .kv("W", p.W)
        .kv("T", p.T)
        .kv("T_a_low", p.T_lo)
        .kv("T_a_high", p.T_hi)
        .close()
        .close();
  }
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
  std::snprintf(b, sizeof b, "cycles %llu   packets %llu created, %llu delivered, %llu measured\n",
                (unsigned long long)cycles, (unsigned long long)packets_injected,
                (unsigned long long)packets_delivered, (unsigned long long)packets_measured);
  o << b;
  if (has_schedule) {
    const ScheduleResult& s = schedule;
    std::snprintf(b, sizeof b,
                  "schedule         %s%s%s%s: %d %s, %d packet(s), %d of %d nodes got theirs\n",
                  s.algorithm.c_str(), s.variant.empty() ? "" : " (", s.variant.c_str(),
                  s.variant.empty() ? "" : ")", s.phases, s.slots ? "slots" : "phases", s.parts,
                  s.nodes_informed, s.nodes_expected);
    o << b;
    if (s.slots) {
      std::snprintf(
          b, sizeof b,
          "completion       %llu cycles (model) = %.0f slots of %llu   plan %.0f   formula "
          "%.0f   mean delivery %.3f slots\n",
          (unsigned long long)s.completion,
          std::ceil(static_cast<double>(s.completion) / static_cast<double>(s.slot_cycles)),
          (unsigned long long)s.slot_cycles, s.planned, s.formula, s.mean_delivery_slots);
      if (s.packet_slot_cycles > 0) {
        o << b;
        const double P = s.packet_slot_cycles;
        std::snprintf(
            b, sizeof b,
            "packet slots     %.4g (model)   exact %.4g   paper's bound %.4g   lower bound "
            "%.4g   (slot = %.0f cycles)\n",
            static_cast<double>(s.completion) / P, s.formula / P, s.upper_bound / P,
            s.lower_bound / P, P);
      }
    } else if (s.lower_bound > 0) {
      std::snprintf(
          b, sizeof b,
          "broadcast time   %llu cycles (model)   formula %.2f = %.3g alpha + %.3g delta + "
          "%.3g L tau   lower bound %.2f\n",
          (unsigned long long)s.completion, s.formula, s.alpha_terms, s.delta_terms, s.ltau_terms,
          s.lower_bound);
    } else {
      std::snprintf(b, sizeof b, "completion       %llu cycles (model)   plan %.0f (%s)\n",
                    (unsigned long long)s.completion, s.planned, s.formula_text.c_str());
    }
    o << b;
  }
  if (has_pmnb) {
    const DynamicPmnbResult& p = pmnb;
    const double S = p.slot_cycles;
    std::snprintf(b, sizeof b,
                  "pmnb periods     %llu (%llu empty), algorithm %s, periods %s, mean M %.3f, "
                  "mean length %.3f slots\n",
                  (unsigned long long)p.periods, (unsigned long long)p.empty_periods,
                  p.algorithm.c_str(), p.period.c_str(), p.mean_M, p.mean_period_slots);
    o << b;
    std::snprintf(b, sizeof b,
                  "pmnb delay       to period end %.3f ±%.3f slots (model)   theorem T %.3f "
                  "(a %.4f measured; %.3f .. %.3f over a's range)\n",
                  p.period_end_delay.mean / S, p.period_end_delay.ci95 / S, p.T, p.a_measured,
                  p.T_lo, p.T_hi);
    o << b;
    std::snprintf(b, sizeof b,
                  "pmnb load        rho %.4f (theorem, lambda N X), %.4f (lambda (N-1)/d); "
                  "stable below %.4f by the theorem\n",
                  p.rho_thm, p.rho_17, p.limit_rho);
    o << b;
  }
  if (has_exchange) {
    const ExchangeResult& x = exchange;
    std::snprintf(b, sizeof b,
                  "exchange         %.0f slots (model; formula %.0f, lower bound %.0f)   D %.4f "
                  "slots (model; %s %.4f)   utilization %.3f\n",
                  x.completion_time, x.formulas.completion, x.formulas.completion_lower_bound,
                  x.average_delay, x.formulas.delay >= 0 ? "paper" : "SPT bound",
                  x.formulas.delay >= 0 ? x.formulas.delay : x.formulas.delay_lower_bound,
                  x.utilization);
    o << b;
  }
  if (broadcast) {
    std::snprintf(b, sizeof b,
                  "broadcasts       %llu created, %llu completed (%s), %.3f transmissions each\n",
                  (unsigned long long)broadcasts, (unsigned long long)broadcasts_done,
                  broadcast_scheme.c_str(), transmissions_per_broadcast);
    o << b;
    std::snprintf(b, sizeof b,
                  "reception delay  mean %.3f ±%.3f  p99 %.0f cycles  (%.3f packet times)\n",
                  reception_delay.mean, reception_delay.ci95, reception_delay.p99,
                  reception_delay.mean / packet_time);
    o << b;
    std::snprintf(b, sizeof b,
                  "broadcast delay  mean %.3f ±%.3f  p99 %.0f cycles  (%.3f packet times)\n",
                  broadcast_delay.mean, broadcast_delay.ci95, broadcast_delay.p99,
                  broadcast_delay.mean / packet_time);
    o << b;
    if (!has_pmnb) {  // STAR's ending-dimension fractions (its tree; not PMNB's periods)
      o << "star x          ";
      for (double x : star_x) {
        std::snprintf(b, sizeof b, " %.4f", x);
        o << b;
      }
      o << "\n";
    }
  }
  // What applies to the run: unicast latency lines only when packets were measured, the
  // zero-load check and the offered load only for traffic that has them (not a schedule, whose
  // completion against its formula is printed above).
  if (latency.count > 0) {
    std::snprintf(b, sizeof b, "%s mean %.2f ±%.2f  p50 %.0f  p99 %.0f  max %.0f cycles\n",
                  has_schedule ? "packet latency  " : "latency         ", latency.mean,
                  latency.ci95, latency.p50, latency.p99, latency.max);
    o << b;
    std::snprintf(b, sizeof b,
                  "network latency  mean %.2f ±%.2f  p50 %.0f  p99 %.0f  max %.0f cycles\n",
                  network_latency.mean, network_latency.ci95, network_latency.p50,
                  network_latency.p99, network_latency.max);
    o << b;
    if (!has_schedule) {
      std::snprintf(b, sizeof b,
                    "zero-load check  formula %.2f cycles at the pattern's mean %.3f hops (%s)\n",
                    zero_load_formula, mean_hops,
                    staged ? "staged pipeline: alpha + (h+2)*lt + (h+1)*R + L*tau"
                           : "alpha + h*delta + L*tau");
      o << b;
    }
  }
  if (!has_schedule)
    std::snprintf(b, sizeof b,
                  "throughput       offered %.4f  accepted %.4f flits/node/cycle   rho %.3f\n",
                  offered, accepted, rho);
  else
    std::snprintf(b, sizeof b, "throughput       accepted %.4f flits/node/cycle\n", accepted);
  o << b;
  std::snprintf(b, sizeof b, "links            utilization mean %.3f  max %.3f\n", link_util_mean,
                link_util_max);
  o << b;
  if (has_greedy) {
    const GreedyBounds& g = greedy;
    std::snprintf(b, sizeof b,
                  "greedy           T %.3f ±%.3f packet times (model)   paper: lower %.3f  upper "
                  "%.3f (slotted %.3f)%s%s\n",
                  latency.mean / packet_time, latency.ci95 / packet_time, g.lower, g.upper,
                  g.slotted_upper,
                  g.exact_known ? ("  exact " + Json::number(g.exact)).c_str() : "",
                  greedy_ideal ? "" : "  (not the paper's ideal model)");
    o << b;
    if (link_queues && link_classes.size() >= 2) {
      if (g.butterfly)
        std::snprintf(b, sizeof b,
                      "first arcs       sojourn straight %.3f (M/D/1 %.3f)  vertical %.3f (M/D/1 "
                      "%.3f) packet times\n",
                      link_classes[0].sojourn / packet_time, g.md1_first_straight,
                      link_classes[1].sojourn / packet_time, g.md1_first_vertical);
      else
        std::snprintf(b, sizeof b, "first arcs       sojourn %.3f (M/D/1 %.3f) packet times\n",
                      link_classes[0].sojourn / packet_time, g.md1_first);
      o << b;
    }
  }
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
