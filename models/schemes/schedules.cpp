#include "schemes/schedules.hpp"

#include <algorithm>

#include "schemes/circuit/circuit_schedule.hpp"
#include "schemes/circuit/closed_forms.hpp"

namespace sy {

Schedule build_schedule(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.algorithm == "explicit") return *sc.explicit_schedule;
  const std::vector<int>& dims = cfg.topology.dims;
  const int L = sc.message_flits;
  const int B = sc.packet_flits > 0 ? std::min(sc.packet_flits, L) : L;
  const int parts = (L + B - 1) / B;
  if (sc.algorithm == "tiling") {
    const TilingVariant v = sc.variant == "boss_blocks"    ? TilingVariant::BossBlocks
                            : sc.variant == "blocks_first" ? TilingVariant::BlocksFirst
                                                           : TilingVariant::Slanting;
    return tiling(dims, sc.root, L, v);
  }
  if (sc.algorithm == "divide_and_conquer") return divide_and_conquer(dims, sc.root, parts, L);
  if (sc.algorithm == "h_trees") return h_trees(dims, sc.root, parts, L);
  if (sc.algorithm == "store_and_forward_trees")
    return store_and_forward_trees(dims, sc.root, parts, L);
  throw UnsupportedSchedule("unknown schedule algorithm '" + sc.algorithm + "'");
}

ScheduleFormula schedule_formula(const Config& cfg, const Schedule& s, double plan) {
  ScheduleFormula r;
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.algorithm == "explicit") {
    r.value = plan;
    r.text = s.timing == ScheduleTiming::Slots ? "the schedule's plan: its slots x (delta + B tau)"
                                               : "the schedule's plan: its phase sum";
    return r;
  }
  const CircuitCost c{static_cast<double>(cfg.timing.alpha), static_cast<double>(cfg.timing.delta),
                      static_cast<double>(cfg.timing.tau)};
  const double L = sc.message_flits;
  const double B = sc.packet_flits > 0 ? std::min(sc.packet_flits, sc.message_flits) : L;
  const std::vector<int>& dims = cfg.topology.dims;
  TimeTerms f;
  if (sc.algorithm == "tiling") {
    const TilingVariant v = sc.variant == "boss_blocks"    ? TilingVariant::BossBlocks
                            : sc.variant == "blocks_first" ? TilingVariant::BlocksFirst
                                                           : TilingVariant::Slanting;
    try {
      f = paper_tiling(dims, v, L);
      r.text = "paper §4 (Theorem 2 / block expansions)";
    } catch (const std::exception&) {
      f = tiling_terms(dims, v, L);
      r.text = "this construction's per-level formula (the paper gives none for this size)";
    }
  } else if (sc.algorithm == "divide_and_conquer") {
    f = dc_terms(circuit_detail::log2_ceil(dims[0]), L, B);
    r.text = "paper §5 T(B)";
  } else if (sc.algorithm == "h_trees") {
    f = htrees_terms(circuit_detail::log2_ceil(dims[0] + 1), L, B);
    r.text = "paper §5 T(B)";
  } else {
    f = sf_terms(store_and_forward_depth(s), L, B);
    r.text = "(h - 1 + L/4B)(beta + B tau), h = this tree depth";
  }
  r.value = f.eval(c);
  r.alpha_terms = f.alpha_terms;
  r.delta_terms = f.delta_terms;
  r.ltau_terms = L > 0 ? f.tau_flits / L : 0;
  r.lower_bound = proposition1(dims, c, L).value();
  return r;
}

}  // namespace sy
