// Greedy isotropic schedules (Varvarigos & Bertsekas §5, §8.3): every slot a maximal matching
// of the current task matrix (no link idle while a packet that could shorten its path over it
// waits, the non-wasting property), used at every node. Which maximal matching: a random one,
// drawn from the seed (edges in a seeded random order, each taken when its row and column are
// free). Any such schedule completes within h_r + h_c - 1 slots (h_r, h_c: the largest row and
// column sums of the task matrix; the paper prints the looser h_r + h_c).
#pragma once
#include <cstdint>

#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

TaskPlan greedy_plan(const TaskMatrix& t, std::uint64_t seed);
Schedule greedy_schedule(const TaskMatrix& t, int packet_flits, std::uint64_t seed);

}  // namespace sy
