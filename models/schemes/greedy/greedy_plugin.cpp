#include "switchyard/schemes/greedy/greedy_plugin.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy {

std::unique_ptr<Plugin> GreedyPlugin::make(const Config& cfg) {
  const bool cube = cfg.topology.kind == Topology::Kind::Hypercube;
  const bool fly = cfg.topology.kind == Topology::Kind::Butterfly && cfg.topology.k == 2;
  if (cfg.traffic.trace || cfg.traffic.broadcast.enabled() ||
      cfg.traffic.pattern != Pattern::BitFlip || !(cube || fly) ||
      cfg.interface.discipline != Discipline::Greedy)  // (the idling rounds: their own section)
    return nullptr;
  return std::make_unique<GreedyPlugin>();
}

void GreedyPlugin::collect(const Network& net, const Results& core) {
  const Config& cfg = net.config();
  const bool fly = cfg.topology.kind == Topology::Kind::Butterfly;
  const double S = core.packet_time;
  bounds =
      greedy_bounds(fly, fly ? cfg.topology.n : net.topology().num_dims(),
                    cfg.traffic.bit_flip_probability, cfg.traffic.packets_per_cycle() * S, 1.0 / S);
  ideal = cfg.router.buffering == Buffering::OutputQueued &&
          cfg.router.switching == Switching::StoreAndForward &&
          cfg.interface.injection == Injection::AllPort && cfg.timing.alpha == 0 &&
          cfg.timing.delta == 0 &&
          (fly || cfg.traffic.self == SelfTraffic::DeliverLocally ||
           cfg.traffic.bit_flip_probability == 1.0);
  T_mean = core.latency.mean;
  T_ci95 = core.latency.ci95;
  packet_time = S;
  if (core.link_queues) {
    N_arcs = 0;
    for (const LinkClassStats& c : core.link_classes) {
      first_sojourn.push_back(c.sojourn);
      N_arcs += c.queue * c.links;
    }
  }
  N_little = bounds.lambda * std::ldexp(1.0, bounds.d) * T_mean / packet_time;
}

void GreedyPlugin::json(Json& j) const {
  const GreedyBounds& g = bounds;
  j.open("greedy")
      .kv("network", g.butterfly ? "butterfly" : "hypercube")
      .kv("d", g.d)
      .kv("p", g.p)
      .kv("lambda", g.lambda)
      .kv("rho", g.rho)
      .kv("ideal_model", ideal)
      .kv("T_model", T_mean / packet_time)
      .kv("T_model_ci95", T_ci95 / packet_time)
      .kv("lower", g.lower)
      .kv("upper", g.upper)
      .kv("slotted_upper", g.slotted_upper);
  if (g.exact_known) j.kv("exact", g.exact);
  if (g.butterfly)
    j.kv("prop14_lower_any", g.prop14_lower_any);
  else
    j.kv("prop2_lower_any", g.prop2_lower_any).kv("prop3_lower_oblivious", g.prop3_lower_oblivious);
  if (N_arcs >= 0) j.kv("packets_in_network_model", N_arcs);
  j.kv("packets_in_network_little", N_little)
      .kv("packets_in_network_bound", g.packets_bound)
      .kv("packets_in_network_slotted_bound", g.packets_slotted_bound);
  if (!first_sojourn.empty()) {
    if (g.butterfly)
      j.kv("first_straight_sojourn_model", first_sojourn[0] / packet_time)
          .kv("first_straight_sojourn_md1", g.md1_first_straight)
          .kv("first_vertical_sojourn_model", first_sojourn[1] / packet_time)
          .kv("first_vertical_sojourn_md1", g.md1_first_vertical);
    else
      j.kv("first_dimension_sojourn_model", first_sojourn[0] / packet_time)
          .kv("first_dimension_sojourn_md1", g.md1_first);
  }
  j.close();
}

void GreedyPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Tail) return;
  char b[512];
  const GreedyBounds& g = bounds;
  std::snprintf(b, sizeof b,
                "greedy           T %.3f ±%.3f packet times (model)   paper: lower %.3f  upper "
                "%.3f (slotted %.3f)%s%s\n",
                T_mean / packet_time, T_ci95 / packet_time, g.lower, g.upper, g.slotted_upper,
                g.exact_known ? ("  exact " + Json::number(g.exact)).c_str() : "",
                ideal ? "" : "  (not the paper's ideal model)");
  o << b;
  if (g.butterfly)
    std::snprintf(b, sizeof b, "greedy bounds    any scheme: T >= %.3f (Prop. 14)\n",
                  g.prop14_lower_any);
  else
    std::snprintf(b, sizeof b,
                  "greedy bounds    any scheme: T >= %.3f (Prop. 2)   oblivious: T >= %.3f "
                  "(Prop. 3)\n",
                  g.prop2_lower_any, g.prop3_lower_oblivious);
  o << b;
  char arcs[64] = "";
  if (N_arcs >= 0) std::snprintf(arcs, sizeof arcs, "N %.1f (arcs, time-averaged)  ", N_arcs);
  std::snprintf(b, sizeof b,
                "packets in net   %s%.1f (lambda 2^d T)   paper: N <= %.1f (Props. 11, %s; "
                "slotted %.1f)\n",
                arcs, N_little, g.packets_bound, g.butterfly ? "17" : "12",
                g.packets_slotted_bound);
  o << b;
  if (first_sojourn.size() >= 2) {
    if (g.butterfly)
      std::snprintf(b, sizeof b,
                    "first arcs       sojourn straight %.3f (M/D/1 %.3f)  vertical %.3f (M/D/1 "
                    "%.3f) packet times\n",
                    first_sojourn[0] / packet_time, g.md1_first_straight,
                    first_sojourn[1] / packet_time, g.md1_first_vertical);
    else
      std::snprintf(b, sizeof b, "first arcs       sojourn %.3f (M/D/1 %.3f) packet times\n",
                    first_sojourn[0] / packet_time, g.md1_first);
    o << b;
  }
}

void GreedyPlugin::csv(std::vector<double>& values) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  values.insert(values.end(),
                {bounds.lower, bounds.upper, bounds.exact_known ? bounds.exact : nan});
}

}  // namespace sy
