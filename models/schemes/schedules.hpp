// The schedule generators by name (schedule.algorithm): the circuit-switched broadcasts of
// schemes/circuit/ and a user's explicit list. One entry point, used by the config check (the
// construction must exist for the size asked) and by the ScheduleDriver that runs it.
#pragma once
#include "config/config.hpp"
#include "traffic/schedule.hpp"

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

}  // namespace sy
