// InputUnit: one router input port: its V virtual channels, the arbiter that picks which VC bids
// for the switch this cycle, and where its credits go back to (the upstream output unit).
#pragma once
#include <vector>

#include "switchyard/base/small_vec.hpp"
#include "switchyard/router/arbiter.hpp"
#include "switchyard/router/virtual_channel.hpp"

namespace sy {

class OutputUnit;

// (Five lines, 64-aligned: the fields below and the VCs' pointer and count, then each VC in two
// lines of its own.)
class alignas(64) InputUnit {
 public:
  InputUnit(int vcs, int depth, int classes, ArbPolicy policy)
      : arbiter(vcs, classes, policy), vcs(static_cast<std::size_t>(vcs), VirtualChannel(depth)) {}
  // (The mask and arbiter first: one cache line for what every evaluation reads.)
  std::uint64_t nonempty = 0;      // VCs holding a flit (bit v)
  OutputUnit* upstream = nullptr;  // credits return here
  bool credit_now = false;         // its owner runs before this router in a cycle
  // Staged pipeline: cycles from a flit leaving to its credit being usable upstream
  // (router.pipeline.credit_delay; an injection port's: the NI channel's).
  std::int16_t credit_delay = 1;
  std::int32_t upstream_node = 0;  // the router (an NI: its router) that owns `upstream` (threads)
  Arbiter arbiter;
  // Its VCs: up to 2 in the object (an arriving flit reaches its VC without another pointer),
  // starting on the second line (their pointer and count end the first).
  alignas(16) SmallVec<VirtualChannel, 2, 64> vcs;
};
static_assert(sizeof(InputUnit) == 64 + 2 * sizeof(VirtualChannel),
              "an input unit is one line of its own and its two VCs in the object");

}  // namespace sy
