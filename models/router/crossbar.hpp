// Crossbar: connects inputs to outputs. A flit's traversal (input -> output in one cycle) leaves
// no state behind: what the crossbar connects each cycle is shown in the waves by the router's
// probe (out_<p>.xbar), and the links count the flits, so a traversal writes nothing here (with
// thousands of routers every line written per flit costs). Held connections (circuits: one input
// to one or more outputs) are kept until released.
#pragma once
#include <cstdint>
#include <vector>

#include "switchyard/base/common.hpp"

namespace sy {

class Crossbar {
 public:
  explicit Crossbar(int outputs = 0) : held_(static_cast<std::size_t>(outputs), -1) {}
  void connect(int /*in*/, int /*out*/) {}
  void hold(int in, int out) { held_[out] = in; }
  void release(int out) { held_[out] = -1; }
  bool held(int out) const { return held_[out] >= 0; }
  // The input a circuit holds out for, or -1.
  int held_input(int out) const { return held_[out]; }

 private:
  std::vector<int> held_;  // per output: the input holding it, or -1
};

}  // namespace sy
