// VirtualChannel: one FIFO of B flits at a router input and the state of the packet at its head:
// idle (empty), routed (header knows its output port, waits for an output VC and the switch),
// active (holds an output VC; flits go as the switch and credits allow). A VC holds one packet at
// a time: upstream reallocates it only after the tail has left and every credit is back.
#pragma once
#include "flit.hpp"
#include "ring.hpp"

namespace sy {

class VirtualChannel {
 public:
  enum class State : std::uint8_t { Idle, Routed, Active };
  explicit VirtualChannel(int depth = 1) : fifo(depth, /*grows=*/false) {}
  Ring<Flit> fifo;
  State state = State::Idle;
  int out_port = -1;
  int out_vc = -1;
  int vc_lo = 0, vc_hi = 0;  // output VCs the header may take
};

}  // namespace sy
