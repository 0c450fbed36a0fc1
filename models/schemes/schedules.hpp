// The schedule generators by name (schedule.algorithm): the circuit-switched broadcasts of
// schemes/circuit/ and a user's explicit list. One entry point, used by the config check (the
// construction must exist for the size asked) and by the ScheduleDriver that runs it.
#pragma once
#include "switchyard/config/config.hpp"
#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

// Throws UnsupportedSchedule (a std::invalid_argument) naming the sizes there are constructions
// for when the algorithm has none for this topology.
Schedule build_schedule(const Config& cfg);
// The same check without building where building is long (the H-trees' fill search,
// h_trees_order); builds the others.
void check_schedule(const Config& cfg);
// schedule.compact_plan: the (P)MNB schedule as a CompactSlotPlan (the same transmissions, 8
// bytes each), run by CompactSlotDriver.
CompactSlotPlan build_compact_plan(const Config& cfg);

// About how many link crossings the schedule of cfg.schedule plans (each an entry of the plan
// while it is built and run), computed from the config without building it: a broadcast of M
// packets about M N, an isotropic task N times its hops per node (exact for the total exchange,
// a neighbourhood and a tag list), a circuit broadcast its parts times N, an explicit schedule
// its own. 0 when no schedule is configured.
double planned_crossings(const Config& cfg);
// The flits one planned crossing carries: schedule.message_flits, but for algorithm II
// (pmnb_ii) a mini-packet, the message split over the d dimensions.
double flits_per_planned_crossing(const Config& cfg);
// The pipelined circuit broadcasts (divide_and_conquer, h_trees, store_and_forward_trees): the
// parts the message is cut into, streams x packets per stream (traffic/schedule.hpp
// set_packet_flits: packets of B = schedule.packet_flits flits, the last of each stream shorter);
// and "" or why L and B make no such packets (a stream's last packet empty).
int circuit_parts(const Config& cfg);
std::string circuit_packets_problem(const Config& cfg);
// What one planned crossing costs in memory while the plan is built and run (measured: PMNB on
// 2^16 nodes, 6.7 million crossings, peaked at 1.77 GB; OCTR of a tag list on 7x7, 3.3 million,
// at 1.6 GB).
double bytes_per_planned_crossing(const Config& cfg);
// About how long building the schedule of cfg.schedule takes, in seconds of one core, where that
// is long: the H-trees' fill search from 63x63 on (h_trees_build_seconds in
// circuit/circuit_schedule.hpp; seconds on 255x255). 0 for the others (their plans are built
// in well under a second; the estimate's per-router and per-hop costs cover them).
double schedule_build_seconds(const Config& cfg);

// The closed form the schedule is checked against, printed beside the model's time: the paper's
// formula where the algorithm has one (coefficients of alpha, delta and L tau), else the
// schedule's own plan (phase sum, or slots x cycles per slot).
struct ScheduleFormula {
  double value = 0;
  double alpha_terms = 0, delta_terms = 0, ltau_terms = 0;
  std::string text;
  double lower_bound = 0;         // 0: none
  double upper_bound = 0;         // the paper's stated bound (0: none)
  double packet_slot_cycles = 0;  // PMNB: cycles of a whole-packet slot (delta + L tau)
  // Pipelined circuit broadcasts whose last packet is shorter (B does not divide the share):
  // its flits (0: every packet B), and the paper's real-valued optimum B_opt and T(B_opt).
  int last_packet_flits = 0;
  double paper_optimal_packet = 0, paper_optimal_time = 0;
};
ScheduleFormula schedule_formula(const Config& cfg, const Schedule& s, double plan);

// Isotropic tasks (schedule.algorithm total_exchange | octr | oadd | greedy): the task matrix
// the config asks for, and the paper's formulas beside the model (in slots).
bool exchange_algorithm(const std::string& algorithm);
TaskMatrix exchange_task(const Config& cfg);
struct ExchangeFormulas {
  double completion = 0;  // what the algorithm takes: h, a closed form, max(ceil(sigma/k), h),
                          // or greedy's bound h_r + h_c - 1
  std::string completion_text;
  double completion_lower_bound = 0;  // Theorem 1 (Corollary 1: h), or max(ceil(sigma/k), h)
  double delay = -1;                  // the paper's D_TE where it has one (else -1)
  std::string delay_text;
  double delay_lower_bound = 0;  // the SPT (shortest-path) lower bound on D (Theorem 6)
};
ExchangeFormulas exchange_formulas(const Config& cfg);

}  // namespace sy
