// VcAllocator: the staged pipeline's VC allocation, a separable input-first allocator apart
// from switch allocation. Stage 1: every routed header whose route computation is done (input VC
// in state Routed, head flit ready) requests one output VC, the lowest free one in its range
// (an adaptive header first selects a candidate by downstream credits, or at random). Stage 2:
// every requested output VC grants one requester: the highest priority class, then round-robin
// over the (input port, VC) requesters from the one after its last grant, or the oldest packet
// with oldest_first. Two headers that want the same output VC conflict; the loser retries next
// cycle. A header that wins holds its output VC even while it loses switch allocation.
#pragma once
#include <vector>

#include "base/flit.hpp"
#include "base/rng.hpp"
#include "config/config.hpp"
#include "router/input_unit.hpp"
#include "router/output_unit.hpp"

namespace sy {

struct VcGrant {
  int in_port, vc, out_port, out_vc;
};

class VcAllocator {
 public:
  VcAllocator(int inputs, int outputs, int vcs, ArbPolicy policy);
  // Fills grants (at most one per input VC and per output VC); returns how many.
  int allocate(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
               const PacketPool& pool, Cycle t, VcGrant* grants);
  void random_selection(std::uint64_t seed) {
    random_ = true;
    rng_.reseed(seed);
  }

 private:
  struct Best {
    int req = -1;  // requester id (in_port * V + vc), -1: none this cycle
    int cls = 0;
    Cycle age = 0;
    int dist = 0;
  };
  int vcs_;
  ArbPolicy policy_;
  int requesters_;
  std::vector<int> last_;     // per output VC (out * V + ov): the last requester granted
  std::vector<Best> best_;    // per output VC: this cycle's winner so far
  std::vector<int> touched_;  // output VCs requested this cycle
  bool random_ = false;
  Rng rng_;
};

}  // namespace sy
