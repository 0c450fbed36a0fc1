// Crossbar: connects inputs to outputs. Records the connection each output carries in the current
// cycle (one input per output; one input may drive several outputs, for multicast) and counts
// traversals. Held connections (circuits) are kept until released.
#pragma once
#include <cstdint>
#include <vector>

#include "switchyard/base/common.hpp"

namespace sy {

class Crossbar {
 public:
  explicit Crossbar(int outputs = 0)
      : conn_(outputs, -1), stamp_(outputs, kNever), held_(outputs, false) {}
  void connect(int in, int out, Cycle t) {
    conn_[out] = in;
    stamp_[out] = t;
    ++traversals_;
  }
  void hold(int in, int out) {
    conn_[out] = in;
    held_[out] = true;
  }
  void release(int out) { held_[out] = false; }
  bool held(int out) const { return held_[out]; }
  // The input driving out in cycle t, or -1.
  int connection(int out, Cycle t) const {
    return held_[out] || stamp_[out] == t ? conn_[out] : -1;
  }
  std::uint64_t traversals() const { return traversals_; }

 private:
  std::vector<int> conn_;
  std::vector<Cycle> stamp_;
  std::vector<bool> held_;
  std::uint64_t traversals_ = 0;
};

}  // namespace sy
