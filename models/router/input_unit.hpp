// InputUnit: one router input port: its V virtual channels, the arbiter that picks which VC bids
// for the switch this cycle, and where its credits go back to (the upstream output unit).
#pragma once
#include <vector>

#include "switchyard/router/arbiter.hpp"
#include "switchyard/router/virtual_channel.hpp"

namespace sy {

class OutputUnit;

class InputUnit {
 public:
  InputUnit(int vcs, int depth, int classes, ArbPolicy policy)
      : vcs(vcs, VirtualChannel(depth)), arbiter(vcs, classes, policy) {}
  std::vector<VirtualChannel> vcs;
  Arbiter arbiter;
  OutputUnit* upstream = nullptr;  // credits return here
  int buffered = 0;                // flits in all VCs
  std::uint64_t nonempty = 0;      // VCs holding a flit (bit v)
};

}  // namespace sy
