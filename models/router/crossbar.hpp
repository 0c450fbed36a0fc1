// Crossbar: connects inputs to outputs. A circuit router's crossbar holds each output's
// connection for the circuit's life and remembers it after the release while the link drains
// (the waves show out_<p>.xbar that long). The input-VC and output-queued routers keep no
// crossbar state: a flit's traversal is one call (InputVcRouter::forward, the output queue's
// departure), and what they connect each cycle is shown in the waves by the router's probe.
#pragma once
#include <vector>

namespace sy {

class Crossbar {
 public:
  explicit Crossbar(int outputs = 0) : in_(static_cast<std::size_t>(outputs), -1) {}
  void connect(int in, int out) { in_[out] = in; }
  // The input out is (or was last) connected to, or -1.
  int input(int out) const { return in_[out]; }

 private:
  std::vector<int> in_;  // per output
};

}  // namespace sy
