// Adaptive routing's selection: which of a header's candidate (port, VC range) pairs it bids for
// this cycle. Among the candidates with a free VC in their range (and, for switch allocation, a
// free output channel), the one whose VCs in that range hold the most credits (free buffer slots
// downstream; the first in the algorithm's order on a tie), or one uniformly at random; the
// escape only when no other is usable. The VC's port and range become the selected candidate's.
#pragma once
#include <vector>

#include "switchyard/base/rng.hpp"
#include "switchyard/router/output_unit.hpp"
#include "switchyard/router/virtual_channel.hpp"

namespace sy {

// need_channel: the output channel must be free at t (switch allocation); false for VC
// allocation, which does not use the channel. random: null selects by credits.
bool select_candidate(VirtualChannel& vc, const OutputUnit* out, Cycle t, bool need_channel,
                      Rng* random);

}  // namespace sy
