#include "switchyard/schemes/schedule_plugin.hpp"

#include <cmath>
#include <cstdio>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"

namespace sy {

std::unique_ptr<Plugin> SchedulePlugin::make(const Config& cfg) {
  if (!cfg.schedule.enabled()) return nullptr;
  return std::make_unique<SchedulePlugin>();
}

// (Throws UnsupportedSchedule when the algorithm has no construction for this size; the config
// check has refused that already.)
void SchedulePlugin::attach(Network& net) {
  if (net.config().schedule.compact_plan)
    compact_ =
        new CompactSlotDriver("schedule", net.config(), net, build_compact_plan(net.config()));
  else
    driver_ = new ScheduleDriver("schedule", net.config(), net, build_schedule(net.config()));
}

void SchedulePlugin::collect(const Network& net, const Results&) {
  const Config& cfg = net.config();
  result = compact_ ? compact_->result() : driver_->result();
  // The closed form beside the model's time.
  const ScheduleFormula f =
      schedule_formula(cfg, compact_ ? compact_->schedule() : driver_->schedule(), result.planned);
  result.formula = f.value;
  result.alpha_terms = f.alpha_terms;
  result.delta_terms = f.delta_terms;
  result.ltau_terms = f.ltau_terms;
  result.formula_text = f.text;
  result.lower_bound = f.lower_bound;
  result.upper_bound = f.upper_bound;
  result.packet_slot_cycles = f.packet_slot_cycles;
  result.last_packet_flits = f.last_packet_flits;
  result.paper_optimal_packet = f.paper_optimal_packet;
  result.paper_optimal_time = f.paper_optimal_time;
  if (!result.slots || !exchange_algorithm(cfg.schedule.algorithm)) return;
  // An isotropic task: completion and delays from the deliveries, use from the links.
  ExchangeResult& x = exchange.emplace();
  const TaskMatrix t = exchange_task(cfg);
  x.algorithm = cfg.schedule.algorithm;
  x.task = cfg.schedule.algorithm == "total_exchange" ? "total_exchange" : cfg.schedule.task;
  x.h = t.critical_sum();
  x.h_rows = t.max_row();
  x.h_cols = t.max_col();
  x.sigma = t.total();
  x.links = cfg.schedule.links;
  const double S = static_cast<double>(result.slot_cycles);
  x.completion_time = std::ceil(static_cast<double>(result.completion) / S);
  x.average_delay = result.mean_delivery_slots;
  double packet_hops = 0;
  for (const OutputUnit& ou : net.links())
    packet_hops += static_cast<double>(ou.flits) / cfg.schedule.message_flits;
  const double capacity = static_cast<double>(net.links().size()) * x.completion_time;
  x.utilization = capacity > 0 ? packet_hops / capacity : 0;
  x.formulas = exchange_formulas(cfg);
}

std::string SchedulePlugin::unstable_reason() const {
  if (result.nodes_informed != result.nodes_expected || result.duplicates || result.refused)
    return "schedule did not deliver every packet exactly once";
  return {};
}

void SchedulePlugin::json(Json& j) const {
  {
    const ScheduleResult& s = result;
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
    if (s.last_packet_flits > 0) {
      // B does not divide the message (only then, so that other runs' results keep their keys).
      j.kv("last_packet_flits", s.last_packet_flits);
      if (s.paper_optimal_time > 0)
        j.kv("paper_optimal_packet", s.paper_optimal_packet)
            .kv("paper_optimal_time", s.paper_optimal_time);
    }
    if (s.packet_slot_cycles > 0)
      // PMNB's unit: a whole packet over one link (algorithm II's schedule slots are mini-slots).
      j.kv("packet_slot_cycles", s.packet_slot_cycles)
          .kv("completion_packet_slots", static_cast<double>(s.completion) / s.packet_slot_cycles)
          .kv("formula_packet_slots", s.formula / s.packet_slot_cycles)
          .kv("upper_bound_packet_slots", s.upper_bound / s.packet_slot_cycles)
          .kv("lower_bound_packet_slots", s.lower_bound / s.packet_slot_cycles);
    j.close();
  }
  if (!exchange) return;
  const ExchangeResult& x = *exchange;
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

void SchedulePlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Head) return;
  char b[512];
  {
    const ScheduleResult& s = result;
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
      if (s.last_packet_flits > 0) {
        o << b;
        if (s.paper_optimal_time > 0)
          std::snprintf(b, sizeof b,
                        "packets          last packet %d flits   paper's optimum B_opt %.2f, "
                        "T(B_opt) %.2f (real-valued B)\n",
                        s.last_packet_flits, s.paper_optimal_packet, s.paper_optimal_time);
        else
          std::snprintf(b, sizeof b, "packets          last packet %d flits\n",
                        s.last_packet_flits);
      }
    } else {
      std::snprintf(b, sizeof b, "completion       %llu cycles (model)   plan %.0f (%s)\n",
                    (unsigned long long)s.completion, s.planned, s.formula_text.c_str());
    }
    o << b;
  }
  if (!exchange) return;
  const ExchangeResult& x = *exchange;
  std::snprintf(b, sizeof b,
                "exchange         %.0f slots (model; formula %.0f, lower bound %.0f)   D %.4f "
                "slots (model; %s %.4f)   utilization %.3f\n",
                x.completion_time, x.formulas.completion, x.formulas.completion_lower_bound,
                x.average_delay, x.formulas.delay >= 0 ? "paper" : "SPT bound",
                x.formulas.delay >= 0 ? x.formulas.delay : x.formulas.delay_lower_bound,
                x.utilization);
  o << b;
}

}  // namespace sy
