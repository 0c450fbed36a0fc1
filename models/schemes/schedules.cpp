#include "switchyard/schemes/schedules.hpp"

#include <algorithm>
#include <cmath>

#include "switchyard/base/json.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/schemes/circuit/circuit_schedule.hpp"
#include "switchyard/schemes/circuit/closed_forms.hpp"
#include "switchyard/schemes/exchange/closed_forms.hpp"
#include "switchyard/schemes/exchange/greedy.hpp"
#include "switchyard/schemes/exchange/oadd.hpp"
#include "switchyard/schemes/exchange/octr.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"

namespace sy {

TaskMatrix exchange_task(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  const Topology::Kind kind = cfg.topology.kind;
  const std::vector<int>& dims = cfg.topology.dims;
  const int links2 = cfg.topology.size2_links;
  if (sc.algorithm == "total_exchange" || sc.task == "total_exchange")
    return total_exchange_task(kind, dims, links2);
  if (sc.task == "neighbourhood") {
    int diameter = 0;
    for (int p : dims) diameter += p / 2;
    return neighbourhood_task(kind, dims, sc.near, sc.far > 0 ? sc.far : diameter, links2);
  }
  return tags_task(kind, dims, sc.tags, links2);
}

bool exchange_algorithm(const std::string& algorithm) {
  return algorithm == "total_exchange" || algorithm == "octr" || algorithm == "oadd" ||
         algorithm == "greedy";
}

namespace {
bool pipelined_circuit(const std::string& a) {
  return a == "divide_and_conquer" || a == "h_trees" || a == "store_and_forward_trees";
}
int circuit_streams(const std::string& a) {
  return a == "h_trees" ? 2 : a == "store_and_forward_trees" ? 4 : 1;
}
int circuit_packet_flits(const ScheduleConfig& sc) {
  const int L = sc.message_flits;
  return sc.packet_flits > 0 ? std::min(sc.packet_flits, L) : L;
}
}  // namespace

int circuit_parts(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  const int S = circuit_streams(sc.algorithm);
  return S * packets_per_stream(sc.message_flits, circuit_packet_flits(sc), S);
}

std::string circuit_packets_problem(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (!pipelined_circuit(sc.algorithm)) return {};
  const int L = sc.message_flits, B = circuit_packet_flits(sc), S = circuit_streams(sc.algorithm);
  const int P = packets_per_stream(L, B, S);
  const int last = L / S - (P - 1) * B;  // the smallest stream's last packet
  if (last >= 1) return {};
  const std::string stream = S == 2 ? "half" : "quarter";  // S == 1 always has a last packet
  return "a message of " + std::to_string(L) + " flits in " + std::to_string(S) + " " +
         (S == 2 ? "halves" : "quarters") + " of " + std::to_string(P) + " packets of " +
         std::to_string(B) + " flits leaves the last packet of the smallest " + stream + " (" +
         std::to_string(L / S) + " flits) empty: choose another packet_flits or message_flits";
}

double planned_crossings(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (!sc.enabled()) return 0;
  const Topology topo = cfg.topology.make();
  const double n = topo.num_nodes();
  if (sc.algorithm == "explicit") {
    double hops = 0;
    for (const Transmission& t : sc.explicit_schedule->transmissions)
      hops += static_cast<double>(t.path.size());
    return hops;
  }
  if (sc.algorithm == "mnb" || sc.algorithm == "mnb_optimal") return n * n;
  if (sc.algorithm == "pmnb" || sc.algorithm == "pmnb_ii" || sc.algorithm == "pmnb_i" ||
      sc.algorithm == "pmnb_a0") {
    const double M = sc.sources.empty() ? sc.packets : static_cast<double>(sc.sources.size());
    return M * n * (sc.algorithm == "pmnb_ii" ? static_cast<double>(topo.num_dims()) : 1.0);
  }
  if (exchange_algorithm(sc.algorithm)) {
    // Isotropic: every node sends the same pattern; its hops from node 0.
    double hops = 0;
    const bool task = sc.algorithm != "total_exchange";
    if (task && sc.task == "tags") {
      for (const std::vector<int>& t : sc.tags)
        for (int x : t)
          hops += topo.kind() == Topology::Kind::Hypercube
                      ? __builtin_popcount(static_cast<unsigned>(x))
                      : std::abs(x);
    } else {
      const bool near_far = task && sc.task == "neighbourhood";
      for (int d = 1; d < topo.num_nodes(); ++d) {
        const int h = topo.distance(0, d);
        if (!near_far || (h >= sc.near && (sc.far == 0 || h <= sc.far))) hops += h;
      }
    }
    return n * hops;
  }
  // The circuit broadcasts: every part of the message crosses about every node.
  if (pipelined_circuit(sc.algorithm)) return static_cast<double>(circuit_parts(cfg)) * n;
  const double L = sc.message_flits;
  const double B = sc.packet_flits > 0 ? std::min<double>(sc.packet_flits, L) : L;
  return std::ceil(L / B) * n;
}

double flits_per_planned_crossing(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.algorithm != "pmnb_ii") return sc.message_flits;
  // (message_flits is a multiple of d: pmnb_ii refuses others.)
  return static_cast<double>(sc.message_flits) / cfg.topology.make().num_dims();
}

double schedule_build_seconds(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.enabled() && sc.algorithm == "tiling" && sc.variant == "pinwheel" &&
      cfg.topology.dims.size() == 2)
    return pinwheel_build_seconds(cfg.topology.dims);
  if (!sc.enabled() || sc.algorithm != "h_trees" || cfg.topology.dims.empty()) return 0;
  // (2^k - 1) x (2^k - 1): k from the size (other sizes are refused before anything is built).
  int k = 0;
  while ((1 << k) - 1 < cfg.topology.dims[0] && k < 30) ++k;
  return h_trees_build_seconds(k);
}

double bytes_per_planned_crossing(const Config& cfg) {
  // A compact plan: 4 bytes a hop, allocated at its exact size (the generators count the hops
  // first), and about one more for the items of II's scan messages and the driver's per-item
  // state.
  // The optimal MNB's is streamed (CompactSlotPlan::tree): only the driver's bitset of what
  // every node holds, N items x N nodes bits, an eighth of a byte a crossing.
  if (cfg.schedule.compact_plan) return cfg.schedule.algorithm == "mnb_optimal" ? 0.25 : 5;
  return exchange_algorithm(cfg.schedule.algorithm) ? 520 : 260;
}

namespace {
// schedule.variant of the tiling (slanting, the default, for any other name).
TilingVariant tiling_variant(const std::string& v) {
  return v == "boss_blocks"    ? TilingVariant::BossBlocks
         : v == "blocks_first" ? TilingVariant::BlocksFirst
         : v == "pinwheel"     ? TilingVariant::Pinwheel
                               : TilingVariant::Slanting;
}

// The PMNB sources: the config's list, or M drawn from the seed (a partial Fisher-Yates).
std::vector<int> pmnb_sources(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  std::vector<int> src = sc.sources;
  if (src.empty()) {
    const int N = 1 << cfg.topology.dims.size();
    std::vector<int> all(static_cast<std::size_t>(N));
    for (int i = 0; i < N; ++i) all[static_cast<std::size_t>(i)] = i;
    Rng r(cfg.simulation.seed * 0x9e3779b97f4a7c15ull + 0x706d6e62);
    for (int i = 0; i < sc.packets; ++i)
      std::swap(all[static_cast<std::size_t>(i)],
                all[static_cast<std::size_t>(i) + r.below(static_cast<std::uint64_t>(N - i))]);
    src.assign(all.begin(), all.begin() + sc.packets);
  }
  return src;
}
}  // namespace

CompactSlotPlan build_compact_plan(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (cfg.topology.kind != Topology::Kind::Hypercube)
    throw UnsupportedSchedule(sc.algorithm + ": the (P)MNB algorithms run on hypercubes");
  const bool pmnb = sc.algorithm == "pmnb" || sc.algorithm == "pmnb_ii" ||
                    sc.algorithm == "pmnb_i" || sc.algorithm == "pmnb_a0";
  return compact_slot_plan(sc.algorithm, static_cast<int>(cfg.topology.dims.size()),
                           pmnb ? pmnb_sources(cfg) : std::vector<int>{}, sc.scan_slots,
                           sc.message_flits);
}

void check_schedule(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.algorithm == "h_trees") {
    h_trees_order(cfg.topology.dims, sc.root, circuit_parts(cfg));
    return;
  }
  if (sc.algorithm == "tiling" && sc.variant == "pinwheel") {  // (built once, by the run)
    pinwheel_check(cfg.topology.dims, sc.root);
    return;
  }
  build_schedule(cfg);
}

Schedule build_schedule(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.algorithm == "explicit") return *sc.explicit_schedule;
  if (sc.algorithm == "total_exchange") {
    if (sc.links > 0) return octr_schedule(exchange_task(cfg), sc.message_flits, sc.links);
    return total_exchange_octr(cfg.topology.kind, cfg.topology.dims, sc.message_flits,
                               cfg.topology.size2_links);
  }
  if (sc.algorithm == "octr") return octr_schedule(exchange_task(cfg), sc.message_flits, sc.links);
  if (sc.algorithm == "oadd") {
    if (sc.task != "total_exchange")
      throw UnsupportedSchedule(
          "oadd: the paper's OADD constructions are for task: total_exchange");
    return oadd_schedule(cfg.topology.kind, cfg.topology.dims, sc.message_flits,
                         cfg.topology.size2_links);
  }
  if (sc.algorithm == "greedy")
    return greedy_schedule(exchange_task(cfg), sc.message_flits, cfg.simulation.seed);
  if (sc.algorithm == "pmnb" || sc.algorithm == "pmnb_ii" || sc.algorithm == "pmnb_i" ||
      sc.algorithm == "pmnb_a0") {
    if (cfg.topology.kind != Topology::Kind::Hypercube)
      throw UnsupportedSchedule("pmnb: the PMNB algorithms run on hypercubes");
    const std::vector<int> src = pmnb_sources(cfg);
    const int d = static_cast<int>(cfg.topology.dims.size());
    if (sc.algorithm == "pmnb_ii") return pmnb_ii_schedule(d, src, sc.scan_slots, sc.message_flits);
    if (sc.algorithm == "pmnb_i") return pmnb_i_schedule(d, src, sc.scan_slots, sc.message_flits);
    if (sc.algorithm == "pmnb_a0") return pmnb_a0_schedule(d, src, sc.scan_slots, sc.message_flits);
    return pmnb_iii_schedule(d, src, sc.scan_slots, sc.message_flits);
  }
  if (sc.algorithm == "mnb") {
    if (cfg.topology.kind != Topology::Kind::Hypercube)
      throw UnsupportedSchedule("mnb: the PMNB building block runs on hypercubes");
    return mnb_schedule(static_cast<int>(cfg.topology.dims.size()), sc.message_flits);
  }
  if (sc.algorithm == "mnb_optimal") {
    if (cfg.topology.kind != Topology::Kind::Hypercube)
      throw UnsupportedSchedule("mnb_optimal: the optimal MNB runs on hypercubes");
    return mnb_optimal_schedule(static_cast<int>(cfg.topology.dims.size()), sc.message_flits);
  }
  const std::vector<int>& dims = cfg.topology.dims;
  const int L = sc.message_flits;
  const int B = sc.packet_flits > 0 ? std::min(sc.packet_flits, L) : L;
  if (sc.algorithm == "tiling") {
    const TilingVariant v = tiling_variant(sc.variant);
    return tiling(dims, sc.root, L, v);
  }
  if (!pipelined_circuit(sc.algorithm))
    throw UnsupportedSchedule("unknown schedule algorithm '" + sc.algorithm + "'");
  // Packets of B flits back to back, the last of each stream shorter where B does not divide it
  // (B dividing L: every part B flits, as set_message_flits spreads them).
  const int parts = circuit_parts(cfg);
  Schedule s = sc.algorithm == "divide_and_conquer" ? divide_and_conquer(dims, sc.root, parts, L)
               : sc.algorithm == "h_trees"
                   ? h_trees(dims, sc.root, parts, L, sc.variant == "deferred_fill")
                   : store_and_forward_trees(dims, sc.root, parts, L);
  set_packet_flits(s, L, B);
  return s;
}

ExchangeFormulas exchange_formulas(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  const Topology::Kind kind = cfg.topology.kind;
  const std::vector<int>& dims = cfg.topology.dims;
  const TaskMatrix t = exchange_task(cfg);
  const Topology topo = cfg.topology.make();
  const int h = t.critical_sum();
  const bool te = sc.algorithm == "total_exchange" || sc.task == "total_exchange";
  ExchangeFormulas f;
  // Completion: Theorem 5/9 (h) or the closed form; k links: Theorem 7; greedy: its bound.
  f.completion = h;
  f.completion_text = "Theorem 5: the critical sum h of the task matrix = " + Json::number(h);
  const double te_closed = te ? total_exchange_formula(kind, dims, cfg.topology.size2_links) : -1;
  if (te_closed >= 0 && binary_torus(kind, dims)) {
    // The torus 2 x ... x 2: the hypercube with one link per dimension, or §8.2's remark.
    f.completion = te_closed;
    const int d = static_cast<int>(dims.size());
    f.completion_text =
        cfg.topology.size2_links == 2
            ? "paper §8.2: p = 2 with two links per direction, total exchange in n/4 = pn/8 = " +
                  Json::number(topo.num_nodes() / 4.0) +
                  " slots; at least d = " + std::to_string(d) +
                  " (the packet to the opposite corner): max(n/4, d) = " + Json::number(te_closed)
            : "paper: total exchange in " + Json::number(te_closed) +
                  " slots (one link per dimension: the hypercube's n/2; §8.2's pn/8 = n/4 is "
                  "for two links each way, topology.size2_links: 2)";
  } else if (te_closed >= 0) {
    f.completion = te_closed;
    f.completion_text = "paper: total exchange in " + Json::number(te_closed) +
                        " slots (hypercube n/2; torus (pn - n/p)/8 odd p, pn/8 even p, d > 1; "
                        "ring (n^2-1)/8 odd, n(n+2)/8 even)";
  } else if (sc.task == "neighbourhood" && kind == Topology::Kind::Hypercube) {
    const int d = static_cast<int>(dims.size());
    f.completion = neighbourhood_formula(d, sc.near, sc.far);
    f.completion_text =
        "paper §4.1: max{L, sum_{i=K..L} C(d,i) i/d} = " + Json::number(f.completion) + " slots";
  }
  f.completion_lower_bound = h;
  const int links = sc.links > 0 ? std::min(sc.links, topo.num_ports()) : 0;
  if (links > 0 && links < t.cols) {
    const double sigma = static_cast<double>(t.total());
    f.completion = std::max<double>(std::ceil(sigma / links), h);
    f.completion_lower_bound = f.completion;
    f.completion_text = "Theorem 7: max(ceil(sigma/k), h) = max(ceil(" + Json::number(sigma) + "/" +
                        std::to_string(links) + "), " + std::to_string(h) +
                        ") = " + Json::number(f.completion) + " slots";
  }
  if (sc.algorithm == "greedy") {
    f.completion = t.max_row() + t.max_col() - 1;
    f.completion_text = "bound §5, §8.3: h_r + h_c - 1 = " + std::to_string(t.max_row()) + " + " +
                        std::to_string(t.max_col()) + " - 1 = " + Json::number(f.completion) +
                        " slots (the paper prints h_r + h_c); optimum h = " + std::to_string(h);
  }
  // Average delay: the paper's D_TE where it has one; always the SPT lower bound.
  f.delay_lower_bound = spt_delay_bound(t, links > 0 ? links : topo.num_ports());
  if (te && links == 0) {
    f.delay = te_delay_formula(kind, dims);
    if (f.delay >= 0)
      f.delay_text = kind == Topology::Kind::Hypercube
                         ? "paper §6.2 (d prime): sum_i C(d,i)(m_i + M_i)/(2(n-1))"
                         : "paper §8.5: ring (n+1)(n+3)/24 odd, ((n-2)(n-1)n + 6n^2)/(24(n-1)) "
                           "even";
  }
  if (f.delay_text.empty())
    f.delay_text =
        "none in the paper for this case: the SPT lower bound (Theorem 6's auxiliary "
        "problem)";
  return f;
}

ScheduleFormula schedule_formula(const Config& cfg, const Schedule& s, double plan) {
  ScheduleFormula r;
  const ScheduleConfig& sc = cfg.schedule;
  if (sc.algorithm == "pmnb") {
    const int d = static_cast<int>(cfg.topology.dims.size());
    const int M = static_cast<int>(std::count(s.item_dest.begin(), s.item_dest.end(), -1));
    const double slot = cfg.timing.delta + static_cast<double>(sc.message_flits) * cfg.timing.tau;
    r.value = pmnb_iii_exact(d, M, sc.scan_slots) * slot;
    r.text = "paper (algorithm III): 4 d t_p + d + sum_j ceil(ceil(M/d)/2^j) = " +
             Json::number(pmnb_iii_exact(d, M, sc.scan_slots)) + " slots (bound " +
             Json::number(pmnb_iii_bound(d, M, sc.scan_slots)) +
             ", lower bound max(d, ceil((M-1)/d)))";
    r.lower_bound = std::max<double>(d, std::ceil((M - 1.0) / d)) * slot;
    r.upper_bound = pmnb_iii_bound(d, M, sc.scan_slots) * slot;
    r.packet_slot_cycles = slot;
    return r;
  }
  if (sc.algorithm == "pmnb_a0") {
    const int d = static_cast<int>(cfg.topology.dims.size());
    const int M = static_cast<int>(std::count(s.item_dest.begin(), s.item_dest.end(), -1));
    const double slot = cfg.timing.delta + static_cast<double>(sc.message_flits) * cfg.timing.tau;
    r.value = pmnb_a0_exact(d, M, sc.scan_slots) * slot;
    r.text = "paper (A_0 alone, Lemma 2): 2 d t_p + d + sum_j ceil(M/2^j) = " +
             Json::number(pmnb_a0_exact(d, M, sc.scan_slots)) +
             " slots (bound M(N-1)/N + 2 d t_p + 2d = " +
             Json::number(pmnb_a0_bound(d, M, sc.scan_slots)) + ")";
    r.lower_bound = std::max<double>(d, std::ceil((M - 1.0) / d)) * slot;
    r.upper_bound = pmnb_a0_bound(d, M, sc.scan_slots) * slot;
    r.packet_slot_cycles = slot;
    return r;
  }
  if (sc.algorithm == "pmnb_ii" || sc.algorithm == "pmnb_i") {
    const int d = static_cast<int>(cfg.topology.dims.size());
    const int M = static_cast<int>(std::count(s.item_dest.begin(), s.item_dest.end(), -1)) /
                  (sc.algorithm == "pmnb_ii" ? d : 1);
    const double slot = cfg.timing.delta + static_cast<double>(sc.message_flits) * cfg.timing.tau;
    if (sc.algorithm == "pmnb_ii") {
      // Mini-slots of L/d flits: delta + (L/d) tau cycles each.
      const double mini =
          cfg.timing.delta + static_cast<double>(sc.message_flits / d) * cfg.timing.tau;
      const double e = pmnb_ii_exact_minislots(d, M, sc.scan_slots);
      r.value = e * mini;
      r.text =
          "paper (algorithm II): 2 d t_p + (d + sum_j ceil(M/2^j))/d = " + Json::number(e / d) +
          " slots (bound (M/d)(N-1)/N + 2 d t_p + 2 = " +
          Json::number(pmnb_ii_bound(d, M, sc.scan_slots)) + ", lower bound (M-1)/d)";
      r.lower_bound = (M - 1.0) / d * slot;
      r.upper_bound = pmnb_ii_bound(d, M, sc.scan_slots) * slot;
    } else {
      const double e = pmnb_i_exact(d, M, sc.scan_slots);
      r.value = e * slot;
      const int m = static_cast<int>(std::ceil(std::log2(std::max(M, 1))));
      r.text =
          "algorithm I with the optimal MNB in the subcubes: 2 d t_p + d + (d - m) + "
          "ceil((2^m - 1)/m) = " +
          Json::number(e) + " slots, m = " + std::to_string(m) +
          " (paper's bound ceil((2^m - 1)/m) + 2d + 2 d t_p - m = " +
          Json::number(pmnb_i_bound(d, M, sc.scan_slots)) + "; lower bound max(d, ceil((M-1)/d)))";
      r.lower_bound = std::max<double>(d, std::ceil((M - 1.0) / d)) * slot;
      r.upper_bound = pmnb_i_bound(d, M, sc.scan_slots) * slot;
    }
    r.packet_slot_cycles = slot;
    return r;
  }
  if (sc.algorithm == "mnb") {
    const int d = static_cast<int>(cfg.topology.dims.size());
    const double slot = cfg.timing.delta + static_cast<double>(sc.message_flits) * cfg.timing.tau;
    r.value = mnb_exact(d) * slot;
    r.text = "paper: d + sum_j ceil(ceil(N/d)/2^j) = " + Json::number(mnb_exact(d)) +
             " slots (bound ceil(N/d) + 2d - 1 = " + Json::number(mnb_bound(d)) +
             ", lower bound ceil((N-1)/d) = " + Json::number(mnb_lower_bound(d)) + ")";
    r.lower_bound = mnb_lower_bound(d) * slot;
    r.upper_bound = mnb_bound(d) * slot;
    r.packet_slot_cycles = slot;
    return r;
  }
  if (sc.algorithm == "mnb_optimal") {
    const int d = static_cast<int>(cfg.topology.dims.size());
    const double slot = cfg.timing.delta + static_cast<double>(sc.message_flits) * cfg.timing.tau;
    r.value = mnb_lower_bound(d) * slot;
    r.text = "Bertsekas et al. (the PMNB paper's [3]): optimal, ceil((N-1)/d) = " +
             Json::number(mnb_lower_bound(d)) + " slots, the lower bound";
    r.lower_bound = r.upper_bound = r.value;
    r.packet_slot_cycles = slot;
    return r;
  }
  if (exchange_algorithm(sc.algorithm)) {
    // The paper's completion time in slots, each slot delta + L tau cycles.
    const double slot = cfg.timing.delta + static_cast<double>(sc.message_flits) * cfg.timing.tau;
    const ExchangeFormulas f = exchange_formulas(cfg);
    r.value = f.completion * slot;
    r.text = f.completion_text;
    r.lower_bound = f.completion_lower_bound * slot;
    return r;
  }
  if (sc.algorithm == "explicit") {
    r.value = plan;
    r.text = s.timing == ScheduleTiming::Slots ? "the schedule's plan: its slots x (delta + B tau)"
                                               : "the schedule's plan: its phase sum";
    return r;
  }
  const CircuitCost c{static_cast<double>(cfg.timing.alpha), static_cast<double>(cfg.timing.delta),
                      static_cast<double>(cfg.timing.tau)};
  const double L = sc.message_flits;
  const std::vector<int>& dims = cfg.topology.dims;
  // The packets as cut (set_packet_flits): B the longest, the last of each stream b <= B.
  const double B = sc.algorithm == "tiling" ? L : s.packet_flits;
  const int S = std::max(1, s.streams);
  int last = 0;
  for (int i = std::max(0, s.items() - S); i < s.items(); ++i)
    last = std::max(last, s.item_flits[static_cast<std::size_t>(i)]);
  const bool shorter =
      sc.algorithm != "tiling" &&
      std::any_of(s.item_flits.begin(), s.item_flits.end(), [&](int x) { return x != B; });
  TimeTerms f;
  if (sc.algorithm == "tiling") {
    const TilingVariant v = tiling_variant(sc.variant);
    if (v == TilingVariant::Pinwheel) {
      // No closed form: the construction's own time on the schedule (the critical chain of the
      // self-timed phases; with the barrier, the phase sum).
      const CircuitTerms t = sc.barrier ? phase_sum_terms(s) : self_timed_terms(s, c);
      f = {static_cast<double>(t.alpha_terms), static_cast<double>(t.delta_terms),
           static_cast<double>(t.tau_flits)};
      r.text = std::string("this pinwheel partition's ") +
               (sc.barrier ? "phase sum" : "self-timed critical chain") +
               " (not the paper's construction; its lower bound beside)";
    } else {
      try {
        f = paper_tiling(dims, v, L);
        r.text = "paper §4 (Theorem 2 / block expansions)";
      } catch (const std::exception&) {
        f = tiling_terms(dims, v, L);
        r.text = "this construction's per-level formula (the paper gives none for this size)";
      }
    }
  } else if (shorter) {
    // B does not divide the message: the paper's T(B) with the last packet of each stream
    // shorter (closed_forms.hpp pipeline_last_terms), and its real-valued optimum beside.
    const int P = s.items() / S;
    std::vector<int> levels;
    if (sc.algorithm == "divide_and_conquer") {
      const int k = circuit_detail::log2_ceil(dims[0]);
      levels = dc_level_hops(k);
      r.text = "paper §5 T(B), last packet shorter";
      if (c.tau > 0) {
        r.paper_optimal_packet = dc_optimal_packet(k, c, L);
        r.paper_optimal_time = dc_optimal_time(k, c, L);
      }
    } else if (sc.algorithm == "h_trees") {
      const int k = circuit_detail::log2_ceil(dims[0] + 1);
      levels = htrees_level_hops(k);
      r.text = "paper §5 T(B), last packet of each half shorter";
      if (c.tau > 0) {
        r.paper_optimal_packet = htrees_optimal_packet(k, c, L);
        r.paper_optimal_time = htrees_optimal_time(k, c, L);
      }
    } else {
      const int h = store_and_forward_depth(s);
      levels = sf_level_hops(h);
      r.text = "(h - 1 + L/4B)(beta + B tau), last packet of each quarter shorter, h = " +
               std::to_string(h);
      const int paper_h = torus_diameter(dims) + 1;
      if (c.tau > 0 && c.alpha + c.delta > 0) {
        r.paper_optimal_packet = sf_optimal_packet(paper_h, c, L);
        r.paper_optimal_time = sf_optimal_time(paper_h, c, L);
      }
    }
    r.text += " (" + std::to_string(P) + " packets per stream of " + Json::number(B) +
              " flits, the last " + std::to_string(last) + ")";
    f = pipeline_last_terms(levels, P, B, last, c);
    r.last_packet_flits = last;
  } else if (sc.algorithm == "divide_and_conquer") {
    f = dc_terms(circuit_detail::log2_ceil(dims[0]), L, B);
    r.text = "paper §5 T(B)";
  } else if (sc.algorithm == "h_trees") {
    f = htrees_terms(circuit_detail::log2_ceil(dims[0] + 1), L, B);
    r.text = "paper §5 T(B)";
  } else {
    const int h = store_and_forward_depth(s);
    f = sf_terms(h, L, B);
    r.text = h == torus_diameter(dims) + 1
                 ? "paper Table 1 (D + L/4B)(beta + B tau): trees of depth h = D + 1"
                 : "(h - 1 + L/4B)(beta + B tau), h = this tree depth (no trees of depth D + 1 "
                   "on this torus)";
  }
  if (sc.algorithm == "h_trees" && h_trees_deferred(s) > 0) {
    // Halves deferred after the pipeline (h_trees.cpp: k >= 10, or variant deferred_fill): no
    // closed form; the schedule's own self-timed critical chain, the paper's T(B) beside.
    const double tb = f.eval(c);
    const CircuitTerms t = self_timed_terms(s, c);
    f = {static_cast<double>(t.alpha_terms), static_cast<double>(t.delta_terms),
         static_cast<double>(t.tau_flits)};
    r.text =
        "this fill's self-timed critical chain, some halves deferred after the pipeline "
        "(not the paper's fill); " +
        r.text + ": " + Json::number(tb) + " beside";
  } else if (sc.algorithm == "h_trees" && h_trees_late(s) > 0) {
    // k >= 8: the relaxed fill (h_trees.cpp), a few halves late by up to `late` delta terms
    // but before the last start-up.
    const int late = h_trees_late(s);
    const double tb = f.eval(c);
    f = htrees_late_terms(f, late, shorter ? last : B, c);
    r.text += "; this relaxed fill: max(that, that - (alpha + b tau) + " + std::to_string(late) +
              " delta) = " + (f.eval(c) > tb ? "that + " + Json::number(f.eval(c) - tb) : "that");
  }
  r.value = f.eval(c);
  r.alpha_terms = f.alpha_terms;
  r.delta_terms = f.delta_terms;
  r.ltau_terms = L > 0 ? f.tau_flits / L : 0;
  r.lower_bound = proposition1(dims, c, L).value();
  return r;
}

}  // namespace sy
