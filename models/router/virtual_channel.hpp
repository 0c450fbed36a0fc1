// VirtualChannel: one FIFO of B flits at a router input and the state of the packet at its head:
// idle (empty), routed (header knows its output port, waits for an output VC and the switch),
// active (holds an output VC; flits go as the switch and credits allow). A VC holds one packet at
// a time: upstream reallocates it only after the tail has left and every credit is back.
#pragma once
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/ring.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"

namespace sy {

class VirtualChannel {
 public:
  enum class State : std::uint8_t { Idle, Routed, Active };
  explicit VirtualChannel(int depth = 1) : fifo(depth, /*grows=*/false) {}
  Ring<Flit> fifo;
  State state = State::Idle;
  // (Declared here, beside the state, to share its cache line; described with the branches.)
  bool multicast = false;
  bool sink = false;  // a broadcast copy that ends here: its flits are consumed as they arrive
  int out_port = -1;
  int out_vc = -1;
  int vc_lo = 0, vc_hi = 0;   // output VCs the header may take
  Cycle hold = 0;             // the header may not leave before (a source route's not-before)
  bool eject = false;         // the packet at its head ends here (decided by its header)
  bool broadcast_in = false;  // the packet arriving on it is a broadcast copy (its header says)
  // Adaptive routing: the header's candidate (port, VC range) pairs until it holds an output
  // VC; the switch allocator selects one each cycle (the last is the escape when escape_last).
  std::vector<Candidate> cand;
  int ncand = 0;
  bool escape_last = false;

  // A broadcast copy that this router replicates: one branch per output it goes to. Branches
  // progress on their own; the input reads one flit a cycle, which the crossbar fans out to
  // every branch at that flit that wins its output. A flit leaves the buffer when every branch
  // has sent it.
  struct Branch {
    int port = -1;
    int vc_lo = 0, vc_hi = 0;
    int out_vc = -1;
    std::uint32_t sent = 0;
    std::uint8_t cls = 0;  // arbitration class of this hop
  };
  std::vector<Branch> branches;
  int nbranch = 0;
  std::uint32_t popped = 0, flits = 0;
  std::uint64_t bid_outputs = 0;  // outputs the head flit bids for this cycle
  const Branch& branch_to(int port) const {
    for (int b = 0; b + 1 < nbranch; ++b)
      if (branches[b].port == port) return branches[b];
    return branches[nbranch - 1];
  }
  Branch& branch_to(int port) {
    return const_cast<Branch&>(static_cast<const VirtualChannel&>(*this).branch_to(port));
  }
};

}  // namespace sy
