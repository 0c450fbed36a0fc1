// VcAllocator, separable output-first (router.vc_allocator: separable_output_first).
#include "switchyard/router/vc_allocator.hpp"

namespace sy {

int VcAllocator::allocate_output_first(std::vector<InputUnit>& in,
                                       const std::vector<OutputUnit>& out, const PacketPool& pool,
                                       Cycle t, VcGrant* grants) {
  // Requests: every free output VC in the header's range; each output VC's arbiter.
  for_each_request(in, out, pool, t, [&](VirtualChannel& vc, int id, const Packet& pk) {
    const OutputUnit& ou = out[vc.out_port];
    for (int ov = vc.vc_lo; ov < vc.vc_hi; ++ov)
      if (knobs_ ? eligible(ou.vc(ov)) : !ou.vc(ov).owned)
        offer(static_cast<std::size_t>(vc.out_port) * vcs_ + ov, id, pk);
  });
  // Grants: each requester accepts one, round-robin over VC indices from its pointer (an empty
  // output VC first with vc_prioritize_empty).
  for (int k : touched_) {
    Best& b = best_[static_cast<std::size_t>(k)];
    Accept& a = accepted_[static_cast<std::size_t>(b.req)];
    const int dist = (k % vcs_ - accept_ptr_[static_cast<std::size_t>(b.req)] + vcs_) % vcs_;
    const OutputUnit& ou = out[static_cast<std::size_t>(k / vcs_)];
    const int pri = prioritize_empty_ ? in_priority(ou, ou.vc(k % vcs_)) : 0;
    if (a.k < 0) granted_.push_back(b.req);
    if (a.k < 0 || pri > a.pri || (pri == a.pri && dist < a.dist)) a = {k, dist, pri};
    b.req = -1;
  }
  touched_.clear();
  int n = 0;
  for (int r : granted_) {
    Accept& a = accepted_[static_cast<std::size_t>(r)];
    last_[static_cast<std::size_t>(a.k)] = r;
    accept_ptr_[static_cast<std::size_t>(r)] = (a.k % vcs_ + 1) % vcs_;
    grants[n++] = {r / vcs_, r % vcs_, a.k / vcs_, a.k % vcs_};
    a.k = -1;
  }
  granted_.clear();
  return n;
}

}  // namespace sy
