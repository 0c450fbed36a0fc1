#include "switchyard/router/candidate_selection.hpp"

namespace sy {

bool select_candidate(VirtualChannel& vc, const OutputUnit* out, Cycle t, bool need_channel,
                      Rng* random) {
  int best = -1, best_credits = -1, usable = 0;
  const int last = vc.escape_last ? vc.ncand - 1 : vc.ncand;
  for (int k = 0; k < last; ++k) {
    const Candidate& c = vc.x().cand[static_cast<std::size_t>(k)];
    const OutputUnit& ou = out[c.port];
    if (need_channel && ou.free_at > t) continue;
    int credits = 0;
    bool free_vc = false;
    for (int v = c.vc_lo; v < c.vc_hi; ++v) {
      credits += ou.vc(v).credits;
      // (switch allocation also needs a credit on it: without wait_for_tail_credit a free VC
      // may still have its last packet's flits downstream)
      free_vc |= !ou.vc(v).owned && (!need_channel || ou.vc(v).credits > 0);
    }
    if (!free_vc) continue;
    if (random) {
      // Reservoir sampling: each usable candidate with probability 1/usable.
      if (random->below(static_cast<std::uint64_t>(++usable)) == 0) best = k;
    } else if (credits > best_credits) {
      best = k;
      best_credits = credits;
    }
  }
  if (best < 0 && vc.escape_last) {
    const Candidate& c = vc.x().cand[static_cast<std::size_t>(vc.ncand - 1)];
    const OutputUnit& ou = out[c.port];
    if (need_channel ? ou.free_at <= t && ou.find_free_with_credit(c.vc_lo, c.vc_hi) >= 0
                     : ou.find_free(c.vc_lo, c.vc_hi) >= 0)
      best = last;
  }
  if (best < 0) return false;
  const Candidate& c = vc.x().cand[static_cast<std::size_t>(best)];
  vc.out_port = c.port;
  vc.vc_lo = c.vc_lo;
  vc.vc_hi = c.vc_hi;
  return true;
}

}  // namespace sy
