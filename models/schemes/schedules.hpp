// The schedule generators by name (schedule.algorithm): the circuit-switched broadcasts of
// schemes/circuit/ and a user's explicit list. One entry point, used by the config check (the
// construction must exist for the size asked) and by the ScheduleDriver that runs it.
#pragma once
#include "switchyard/config/config.hpp"
#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

// Throws UnsupportedSchedule (a std::invalid_argument) naming the sizes there are constructions
// for when the algorithm has none for this topology.
Schedule build_schedule(const Config& cfg);

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
