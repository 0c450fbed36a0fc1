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
  if (!ready_to_request(vc, t)) return false;
  const Flit& f = vc.fifo.front();
  if (vc.ncand > 1 && !select_candidate(vc, out.data(), t, false, random_ ? &rng_ : nullptr))
    return false;
  pk = &pool[f.packet];
  const OutputUnit& ou = out[vc.out_port];
  if (!knobs_) return ou.find_free(vc.vc_lo, vc.vc_hi) >= 0;
  for (int ov = vc.vc_lo; ov < vc.vc_hi; ++ov)
    if (eligible(ou.vc(ov))) return true;
  return false;
}

// Input-first with the knobs: the output VC that requester id (its header routed to port, VCs
// [lo, hi)) requests, -1: none eligible. The highest input-side priority, then the lowest VC or
// (all_free) round robin from the requester's pointer.
int VcAllocator::choose(const OutputUnit& ou, int port, int lo, int hi, int id) const {
  const int size = static_cast<int>(best_.size());
  int best = -1, best_pri = 0, best_dist = 0;
  for (int ov = lo; ov < hi; ++ov) {
    const OutputVc& o = ou.vc(ov);
    if (!eligible(o)) continue;
    const int pri = in_priority(ou, o);
    const int dist =
        all_free_ ? (port * vcs_ + ov - in_ptr_[static_cast<std::size_t>(id)] + size) % size : ov;
    if (best < 0 || pri > best_pri || (pri == best_pri && dist < best_dist)) {
      best = ov;
      best_pri = pri;
      best_dist = dist;
    }
  }
  return best;
}

// Several headers wait, and those that request want different output VCs (most allocations
// with more than one waiting header): each is its output VC's only requester and wins, the
// lowest free VC of its range, in the order of the scan, with the state after it as allocate()
// leaves it (last_, due_); no packet is read. -1 when two want the same output VC, or a header
// would select among candidates (a draw: allocate() makes it), with nothing changed.
int VcAllocator::allocate_apart(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                                Cycle t, VcGrant* grants) {
  constexpr int kMax = 16;
  int ks[kMax], ids[kMax];
  int m = 0;
  Cycle due;
  const bool apart = for_each_waiting(in, t, due, [&](VirtualChannel& vc, int id) {
    if (!ready_to_request(vc, t)) return true;
    if (vc.ncand > 1) return false;
    const int ov = out[vc.out_port].find_free(vc.vc_lo, vc.vc_hi);
    if (ov < 0) return true;
    const int k = vc.out_port * vcs_ + ov;
    for (int j = 0; j < m; ++j)
      if (ks[j] == k) return false;
    if (m == kMax) return false;
    ks[m] = k;
    ids[m++] = id;
    return true;
  });
  if (!apart) return -1;
  due_ = due;
  for (int j = 0; j < m; ++j) {
    last_[static_cast<std::size_t>(ks[j])] = ids[j];
    grants[j] = {ids[j] / vcs_, ids[j] % vcs_, ks[j] / vcs_, ks[j] % vcs_};
  }
  return m;
}

int VcAllocator::allocate(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                          const PacketPool& pool, Cycle t, VcGrant* grants) {
  if (output_first_) return allocate_output_first(in, out, pool, t, grants);
  // One header waiting (most allocations below saturation): if it requests, it is its output
  // VC's only requester and wins, the lowest free VC of its range, as below; its packet (class,
  // age) is not read, and the arbiter's state moves as below (last_).
  if (routed_in_) {
    VcGrant g;
    const int n = allocate_lone(in.data(), out.data(), t, g);
    if (n >= 0) {
      if (n) grants[0] = g;
      return n;
    }
  }
  return allocate_many(in, out, pool, t, grants);
}

int VcAllocator::allocate_many(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                               const PacketPool& pool, Cycle t, VcGrant* grants) {
  if (output_first_) return allocate_output_first(in, out, pool, t, grants);
  if (!knobs_) {
    const int n = allocate_apart(in, out, t, grants);
    if (n >= 0) return n;
  }
  for_each_request(in, out, pool, t, [&](VirtualChannel& vc, int id, const Packet& pk) {
    const OutputUnit& ou = out[vc.out_port];
    const int ov =
        knobs_ ? choose(ou, vc.out_port, vc.vc_lo, vc.vc_hi, id) : ou.find_free(vc.vc_lo, vc.vc_hi);
    offer(static_cast<std::size_t>(vc.out_port) * vcs_ + ov, id, pk);
  });
  int n = 0;
  for (int k : touched_) {
    Best& b = best_[static_cast<std::size_t>(k)];
    last_[static_cast<std::size_t>(k)] = b.req;
    if (all_free_)  // (the input arbiter's pointer: past the VC it was granted)
      in_ptr_[static_cast<std::size_t>(b.req)] = (k + 1) % static_cast<int>(best_.size());
    grants[n++] = {b.req / vcs_, b.req % vcs_, k / vcs_, k % vcs_};
    b.req = -1;
  }
  touched_.clear();
  return n;
}

}  // namespace sy
