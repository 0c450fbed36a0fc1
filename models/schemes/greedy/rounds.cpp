#include "switchyard/schemes/greedy/rounds.hpp"

#include <algorithm>
#include <cmath>

#include "switchyard/network/stats.hpp"

namespace sy {

double RoundLengths::ci95() const {
  if (count < 2) return 0.0;
  const double n = static_cast<double>(count);
  const double var = std::max(0.0, (sum2 - sum * sum / n) / (n - 1));
  return 1.96 * std::sqrt(var / n);
}

RoundsGate::RoundsGate(int nodes, const Stats& stats)
    : nodes_(nodes), stats_(stats), joined_(static_cast<std::size_t>(nodes), 0) {}

bool RoundsGate::take(int node, Cycle t) {
  if (t != start_) {
    // No round began this cycle: one may begin when the last is over (every packet received).
    if (outstanding_ > 0 || t < open_at_) return false;
    close_round();
    ++round_;
    start_ = end_ = t;
    participants_ = 0;
    recorded_ = false;
  }
  std::uint64_t& j = joined_[static_cast<std::size_t>(node)];
  if (j == round_) return false;  // one packet per node and round
  j = round_;
  ++participants_;
  ++outstanding_;
  return true;
}

void RoundsGate::finished(Cycle done) {
  end_ = std::max(end_, done);
  if (--outstanding_ == 0) open_at_ = std::max(end_, start_ + 1);
}

void RoundsGate::close_round() {
  if (recorded_) return;
  recorded_ = true;
  if (!stats_.in_window(start_)) return;
  const Cycle len = end_ - start_;
  all_.add(len);
  participants_sum_ += participants_;
  if (participants_ == nodes_) full_.add(len);
}

void RoundsGate::flush() {
  if (outstanding_ == 0) close_round();
}

}  // namespace sy
