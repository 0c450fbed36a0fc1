// ArrivalCalendar: the sources' next arrivals, (cycle, stream), taken in that order: cycle by
// cycle, the streams of a cycle in increasing order, exactly as a min-heap on (cycle, stream)
// would give them, for a constant cost per arrival rather than a logarithm of the number of
// streams. A wheel of kWheel cycles, one unsorted list of streams per cycle (sorted when its
// cycle comes); arrivals further ahead wait in a heap and join the wheel as it turns.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "switchyard/base/common.hpp"

namespace sy {

class ArrivalCalendar {
 public:
  explicit ArrivalCalendar(std::size_t streams)
      : link_(streams, -1), head_(kWheel, -1), bits_(kWheel / 64, 0) {}
  // Stream s arrives at cycle t (t at or after every cycle taken so far).
  void add(Cycle t, int s) {
    if (t - base_ < kWheel) {
      put(t, s);
    } else {
      far_.push_back({t, s});
      std::push_heap(far_.begin(), far_.end(), std::greater<Entry>());
    }
    next_ = std::min(next_, t);
  }
  // The earliest arrival (kNever: none).
  Cycle next() const { return next_; }
  // Takes every arrival due at or before t, in order: fire(s) handles stream s's arrival and
  // returns its next one (kNever: none); one due in the same cycle is taken at once (it is then
  // the earliest left).
  template <class Fire>
  void run_until(Cycle t, Fire&& fire) {
    while (next_ <= t) {
      const Cycle c = next_;
      base_ = c;
      while (!far_.empty() && far_.front().t - base_ < kWheel) {  // (the wheel turned)
        std::pop_heap(far_.begin(), far_.end(), std::greater<Entry>());
        put(far_.back().t, far_.back().s);
        far_.pop_back();
      }
      const std::size_t b = static_cast<std::size_t>(c) & (kWheel - 1);
      batch_.clear();
      for (int s = head_[b]; s >= 0; s = link_[static_cast<std::size_t>(s)]) batch_.push_back(s);
      head_[b] = -1;
      bits_[b / 64] &= ~(std::uint64_t{1} << (b % 64));
      if (batch_.size() > 1) std::sort(batch_.begin(), batch_.end());
      next_ = kNever;
      for (const int s : batch_) {
        Cycle d = fire(s);
        while (d == c) d = fire(s);
        if (d != kNever) add(d, s);
      }
      base_ = c + 1;
      next_ = std::min(next_, first_in_wheel());
      if (!far_.empty()) next_ = std::min(next_, far_.front().t);
    }
  }

 private:
  static constexpr std::size_t kWheel = 4096;  // cycles (a power of two)
  struct Entry {
    Cycle t;
    int s;
    bool operator>(const Entry& o) const { return t != o.t ? t > o.t : s > o.s; }
  };
  void put(Cycle t, int s) {  // (t in [base_, base_ + kWheel))
    const std::size_t b = static_cast<std::size_t>(t) & (kWheel - 1);
    link_[static_cast<std::size_t>(s)] = head_[b];
    head_[b] = s;
    bits_[b / 64] |= std::uint64_t{1} << (b % 64);
  }
  // The first cycle at or after base_ with arrivals in the wheel (kNever: none).
  Cycle first_in_wheel() const {
    const std::size_t i0 = static_cast<std::size_t>(base_) & (kWheel - 1);
    const std::size_t words = kWheel / 64;
    for (std::size_t k = 0; k <= words; ++k) {
      const std::size_t w = (i0 / 64 + k) % words;
      std::uint64_t m = bits_[w];
      if (k == 0) m &= ~std::uint64_t{0} << (i0 % 64);           // from i0 on
      if (k == words) m &= (std::uint64_t{1} << (i0 % 64)) - 1;  // then the word's start
      if (m) {
        const std::size_t i = w * 64 + static_cast<std::size_t>(__builtin_ctzll(m));
        return base_ + ((i - i0) & (kWheel - 1));
      }
    }
    return kNever;
  }
  Cycle base_ = 0;  // no arrival is before it; the wheel holds [base_, base_ + kWheel)
  Cycle next_ = kNever;
  std::vector<int> link_;            // per stream: the next stream in its wheel cycle's list
  std::vector<int> head_;            // per wheel cycle: the first stream of its list (-1: none)
  std::vector<std::uint64_t> bits_;  // wheel cycles with arrivals
  std::vector<Entry> far_;           // min-heap: arrivals kWheel cycles ahead or more
  std::vector<int> batch_;           // scratch: one cycle's streams
};

}  // namespace sy
