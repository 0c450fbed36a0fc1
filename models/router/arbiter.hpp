// Arbiter: N requesters, P strict priority classes (0 highest). Within the highest class present
// the winner is chosen round-robin (a per-class pointer that moves past the winner) or
// oldest-first (smallest age, ties broken round-robin). With hold asserted the previous winner
// keeps the grant while it still requests (a wormhole or circuit holding a crossbar path).
// This class is the C++ twin of rtl/prio_rr_arbiter.sv: the co-simulation drives both.
#pragma once
#include <array>
#include <cstdint>

#include "switchyard/base/common.hpp"
#include "switchyard/config/config.hpp"

namespace sy {

class Arbiter {
 public:
  Arbiter(int requesters = 1, int classes = 1, ArbPolicy policy = ArbPolicy::RoundRobin);

  int size() const { return n_; }
  // Combinational part: the winner for this request vector, or -1. cls[i] and age[i] are read
  // only for requesting i; age may be null for round-robin.
  // (Inline: it runs for every input and output of a busy router each cycle. A lone requester
  // wins whatever the classes, ages, pointers or hold say.)
  int arbitrate(std::uint64_t req, const std::uint8_t* cls, const Cycle* age,
                bool hold = false) const {
    if (!(req & (req - 1))) return req ? __builtin_ctzll(req) : -1;
    return arbitrate_among(req, cls, age, hold);
  }
  // Sequential part: the grant was used; advance the pointer of the winner's class. (Inline: it
  // runs twice per flit a router forwards. The co-simulation's mutants rewrite this header.)
  // (Stored as winner + 1, which may be n: read as 0, the pointer wraps where it is read.)
  void update(int winner, int cls) {
    last_ = static_cast<std::int8_t>(winner);
    if (winner < 0) return;
    ptr_[cls] = static_cast<std::uint8_t>(winner + 1);
  }
  int pointer(int cls) const { return ptr_[cls] == n_ ? 0 : ptr_[cls]; }
  int last_grant() const { return last_; }

 private:
  int arbitrate_among(std::uint64_t req, const std::uint8_t* cls, const Cycle* age,
                      bool hold) const;
  // (12 bytes: an output unit holds its arbiter in the one line a grant writes. Eight classes:
  // router.priority_classes allows no more.)
  std::uint8_t n_, classes_;
  ArbPolicy policy_;
  std::int8_t last_ = -1;
  static constexpr int kMaxClasses = 8;
  std::array<std::uint8_t, kMaxClasses> ptr_{};  // per class (in the object: no indirection)
};
static_assert(sizeof(Arbiter) == 12, "an arbiter is 12 bytes");

}  // namespace sy
