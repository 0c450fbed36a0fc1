// VirtualChannel: one FIFO of B flits at a router input and the state of the packet at its head:
// idle (empty), routed (header knows its output port, waits for an output VC and the switch),
// active (holds an output VC; flits go as the switch and credits allow). A VC holds one packet at
// a time: upstream reallocates it only after the tail has left and every credit is back.
#pragma once
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/out_of_line.hpp"
#include "switchyard/base/ring.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"

namespace sy {

// (128 bytes, placed on a line boundary by its owner (InputUnit): the first line holds the
// state, the route and the buffer's indices, the second the flits of a buffer of up to 4; what
// only adaptive routing and broadcast replication use is out of line, in Extra.)
class VirtualChannel {
 public:
  enum class State : std::uint8_t { Idle, Routed, Active };
  explicit VirtualChannel(int depth = 1) : fifo(static_cast<std::size_t>(depth)) {}
  State state = State::Idle;
  // (Declared here, beside the state, to share its cache line; described with the branches.)
  bool multicast = false;
  bool sink = false;  // a broadcast copy that ends here: its flits are consumed as they arrive
  // The packet at its head ends here (decided by its header): 0 no, else 1 + the index of its
  // terminal among those delivered to at this router (concentration).
  std::uint8_t eject = 0;
  bool broadcast_in = false;  // the packet arriving on it is a broadcast copy (its header says)
  // Adaptive routing: the header has ncand candidates (in Extra) until it holds an output VC;
  // the switch allocator selects one each cycle (the last is the escape when escape_last).
  bool escape_last = false;
  std::uint8_t ncand = 0;
  std::uint8_t nbranch = 0;  // broadcast replication: the branches (in Extra)
  int out_port = -1;
  int out_vc = -1;
  int vc_lo = 0, vc_hi = 0;  // output VCs the header may take
  Cycle hold = 0;            // the header may not leave before (a source route's not-before)

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
  struct Extra {
    std::vector<Candidate> cand;  // adaptive routing's candidates (ncand of them)
    std::vector<Branch> branches;
    std::uint32_t popped = 0, flits = 0;
    std::uint64_t bid_outputs = 0;  // outputs the head flit bids for this cycle
  };
  // (Made on first use: routers without adaptive routing or broadcasts never touch it.)
  Extra& x() { return extra_.get(); }

 private:
  OutOfLine<Extra> extra_;

 public:
  // The buffer: up to 4 flits in the object, after the state that switch allocation reads.
  InlineRing<Flit, 4> fifo;

  Branch& branch_to(int port) {
    Extra& e = x();
    for (int b = 0; b + 1 < nbranch; ++b)
      if (e.branches[b].port == port) return e.branches[b];
    return e.branches[nbranch - 1];
  }
};
static_assert(sizeof(VirtualChannel) == 128, "a VC is two cache lines");

}  // namespace sy
