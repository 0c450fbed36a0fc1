#include "router/vc_allocator.hpp"

#include "router/candidate_selection.hpp"

namespace sy {

VcAllocator::VcAllocator(int inputs, int outputs, int vcs, ArbPolicy policy)
    : vcs_(vcs),
      policy_(policy),
      requesters_(inputs * vcs),
      last_(static_cast<std::size_t>(outputs) * vcs, -1),
      best_(static_cast<std::size_t>(outputs) * vcs) {
  touched_.reserve(best_.size());
}

int VcAllocator::allocate(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                          const PacketPool& pool, Cycle t, VcGrant* grants) {
  const int P = static_cast<int>(in.size());
  for (int p = 0; p < P; ++p) {
    InputUnit& iu = in[p];
    if (!iu.buffered) continue;
    for (int v = 0; v < vcs_; ++v) {
      VirtualChannel& vc = iu.vcs[v];
      if (vc.state != VirtualChannel::State::Routed || vc.fifo.empty()) continue;
      const Flit& f = vc.fifo.front();
      if (f.ready > t) continue;
      if (vc.ncand > 1 && !select_candidate(vc, out, t, false, random_ ? &rng_ : nullptr)) continue;
      const int ov = out[vc.out_port].find_free(vc.vc_lo, vc.vc_hi);
      if (ov < 0) continue;
      const Packet& pk = pool[f.packet];
      const int id = p * vcs_ + v;
      const std::size_t k = static_cast<std::size_t>(vc.out_port) * vcs_ + ov;
      Best& b = best_[k];
      const int dist = (id - last_[k] - 1 + 2 * requesters_) % requesters_;
      if (b.req < 0) touched_.push_back(static_cast<int>(k));
      const bool wins =
          b.req < 0 || pk.priority < b.cls ||
          (pk.priority == b.cls &&
           (policy_ == ArbPolicy::OldestFirst && pk.created != b.age ? pk.created < b.age
                                                                     : dist < b.dist));
      if (wins) b = {id, pk.priority, pk.created, dist};
    }
  }
  int n = 0;
  for (int k : touched_) {
    Best& b = best_[static_cast<std::size_t>(k)];
    last_[static_cast<std::size_t>(k)] = b.req;
    grants[n++] = {b.req / vcs_, b.req % vcs_, k / vcs_, k % vcs_};
    b.req = -1;
  }
  touched_.clear();
  return n;
}

}  // namespace sy
