#include "switchyard/router/arbiter.hpp"

#include <stdexcept>

namespace sy {

Arbiter::Arbiter(int requesters, int classes, ArbPolicy policy)
    : n_(static_cast<std::uint8_t>(requesters)),
      classes_(static_cast<std::uint8_t>(classes)),
      policy_(policy) {
  if (requesters < 1 || requesters > 64) throw std::invalid_argument("arbiter: 1..64 requesters");
  if (classes < 1 || classes > kMaxClasses) throw std::invalid_argument("arbiter: 1..8 classes");
}

// Two or more requesters.
int Arbiter::arbitrate_among(std::uint64_t req, const std::uint8_t* cls, const Cycle* age,
                             bool hold) const {
  if (hold && last_ >= 0 && (req >> last_ & 1)) return last_;
  // The requesters of the highest class present.
  int best_cls = 0;
  std::uint64_t m = req;
  if (classes_ > 1) {
    best_cls = classes_;
    for (std::uint64_t r = req; r; r &= r - 1) {
      const int i = __builtin_ctzll(r);
      if (cls[i] < best_cls) {
        best_cls = cls[i];
        m = 0;
      }
      if (cls[i] == best_cls) m |= std::uint64_t{1} << i;
    }
  }
  // Round-robin order from the class's pointer: the requesters at or after it, then the rest.
  const int start = pointer(best_cls);
  const std::uint64_t hi = m & (~std::uint64_t{0} << start);
  if (policy_ == ArbPolicy::RoundRobin || !age) return __builtin_ctzll(hi ? hi : m);
  // Oldest first; among equal ages the first in round-robin order.
  int winner = -1;
  for (std::uint64_t part : {hi, m & ~hi})
    for (std::uint64_t r = part; r; r &= r - 1) {
      const int i = __builtin_ctzll(r);
      if (winner < 0 || age[i] < age[winner]) winner = i;
    }
  return winner;
}

}  // namespace sy
