// Arbiter: N requesters, P strict priority classes (0 highest). Within the highest class present
// the winner is chosen round-robin (a per-class pointer that moves past the winner) or
// oldest-first (smallest age, ties broken round-robin). With hold asserted the previous winner
// keeps the grant while it still requests (a wormhole or circuit holding a crossbar path).
// This class is the C++ twin of rtl/prio_rr_arbiter.sv: the co-simulation drives both.
#pragma once
#include <cstdint>
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/config/config.hpp"

namespace sy {

class Arbiter {
 public:
  Arbiter(int requesters = 1, int classes = 1, ArbPolicy policy = ArbPolicy::RoundRobin);

  int size() const { return n_; }
  // Combinational part: the winner for this request vector, or -1. cls[i] and age[i] are read
  // only for requesting i; age may be null for round-robin.
  int arbitrate(std::uint64_t req, const std::uint8_t* cls, const Cycle* age,
                bool hold = false) const;
  // Sequential part: the grant was used; advance the pointer of the winner's class.
  void update(int winner, int cls);
  int pointer(int cls) const { return ptr_[cls]; }
  int last_grant() const { return last_; }

 private:
  int n_, classes_;
  ArbPolicy policy_;
  std::vector<int> ptr_;
  int last_ = -1;
};

}  // namespace sy
