#include "switchyard/router/vc_allocator.hpp"

#include "switchyard/router/candidate_selection.hpp"

namespace sy {

VcAllocator::VcAllocator(int inputs, int outputs, int vcs, ArbPolicy policy)
    : vcs_(vcs),
      policy_(policy),
      requesters_(inputs * vcs),
      last_(static_cast<std::size_t>(outputs) * vcs, -1),
      best_(static_cast<std::size_t>(outputs) * vcs),
      routed_(static_cast<std::size_t>(inputs), 0) {
  touched_.reserve(best_.size());
}

// A routed header whose route computation is done, with its candidate selected and a free VC in
// its range: it requests this cycle (its packet in pk).
bool VcAllocator::requesting(VirtualChannel& vc, const std::vector<OutputUnit>& out,
                             const PacketPool& pool, Cycle t, const Packet*& pk) {
  if (vc.state != VirtualChannel::State::Routed || vc.fifo.empty()) return false;
  const Flit& f = vc.fifo.front();
  if (f.ready > t) return false;
  if (vc.ncand > 1 && !select_candidate(vc, out.data(), t, false, random_ ? &rng_ : nullptr))
    return false;
  pk = &pool[f.packet];
  return out[vc.out_port].find_free(vc.vc_lo, vc.vc_hi) >= 0;
}

// Output VC k's arbiter sees requester id (packet pk): does it beat the best so far?
void VcAllocator::offer(std::size_t k, int id, const Packet& pk) {
  Best& b = best_[k];
  const int dist = (id - last_[k] - 1 + 2 * requesters_) % requesters_;
  if (b.req < 0) touched_.push_back(static_cast<int>(k));
  const bool wins = b.req < 0 || pk.priority < b.cls ||
                    (pk.priority == b.cls &&
                     (policy_ == ArbPolicy::OldestFirst && pk.created != b.age ? pk.created < b.age
                                                                               : dist < b.dist));
  if (wins) b = {id, pk.priority, pk.created, dist};
}

int VcAllocator::allocate(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                          const PacketPool& pool, Cycle t, VcGrant* grants) {
  if (output_first_) return allocate_output_first(in, out, pool, t, grants);
  for_each_request(in, out, pool, t, [&](VirtualChannel& vc, int id, const Packet& pk) {
    const int ov = out[vc.out_port].find_free(vc.vc_lo, vc.vc_hi);
    offer(static_cast<std::size_t>(vc.out_port) * vcs_ + ov, id, pk);
  });
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
