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
  explicit Crossbar(int outputs = 0) : out_(static_cast<std::size_t>(outputs)) {}
  void connect(int in, int out, Cycle t) {
    out_[out].in = in;
    out_[out].stamp = t;
    ++traversals_;
  }
  void hold(int in, int out) {
    out_[out].in = in;
    out_[out].held = true;
  }
  void release(int out) { out_[out].held = false; }
  bool held(int out) const { return out_[out].held; }
  // The input driving out in cycle t, or -1.
  int connection(int out, Cycle t) const {
    const Output& o = out_[out];
    return o.held || o.stamp == t ? o.in : -1;
  }
  std::uint64_t traversals() const { return traversals_; }

 private:
  struct Output {  // per output, in one entry: a traversal writes one cache line
    Cycle stamp = kNever;
    int in = -1;
    bool held = false;
  };
  std::vector<Output> out_;
  std::uint64_t traversals_ = 0;
};

}  // namespace sy
