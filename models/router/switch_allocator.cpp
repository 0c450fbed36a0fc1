#include "switchyard/router/switch_allocator.hpp"

#include <algorithm>
#include <stdexcept>

#include "switchyard/network/waves.hpp"
#include "switchyard/router/allocators/matcher.hpp"
#include "switchyard/router/candidate_selection.hpp"

namespace sy {

SwitchAllocator::SwitchAllocator(int inputs, int outputs, int vcs, int classes, ArbPolicy policy)
    : inputs_(inputs),
      vcs_(vcs),
      classes_(classes),
      policy_(policy),
      need_cls_(classes > 1),
      need_age_(policy == ArbPolicy::OldestFirst) {
  nout_ = outputs;
  if (inputs > 64 || outputs > 64 || vcs > 64)
    throw std::invalid_argument("switch allocator: at most 64 inputs, outputs and VCs");
}

// Multicast VC: branches progress on their own (a branch may run ahead while another is
// blocked), but the input reads one flit a cycle: among the branches that can send their next
// flit this cycle (in the buffer, ready, output free, an output VC with a credit or a free one
// in the branch's range), the lowest flit index goes, fanned out through the crossbar to every
// such branch at that index. Returns those branches' outputs and their best (lowest) class.
std::uint64_t SwitchAllocator::branch_outputs(VirtualChannel& vc,
                                              const std::vector<OutputUnit>& out, Cycle t,
                                              std::uint8_t& cls) const {
  std::uint64_t m = 0;
  std::uint32_t index = ~std::uint32_t{0};
  cls = 255;
  for (int b = 0; b < vc.nbranch; ++b) {
    const VirtualChannel::Branch& br = vc.x().branches[b];
    if (br.sent >= vc.x().flits || br.sent > index) continue;
    const std::uint32_t i = br.sent - vc.x().popped;
    if (i >= vc.fifo.size() || vc.fifo.at(i).ready > t) continue;
    const OutputUnit& ou = out[br.port];
    if (ou.free_at > t) continue;
    if (br.out_vc >= 0 ? ou.vc(br.out_vc).credits <= 0 : ou.find_free(br.vc_lo, br.vc_hi) < 0)
      continue;
    if (br.sent < index) {
      index = br.sent;
      m = 0;
      cls = 255;
    }
    m |= std::uint64_t{1} << br.port;
    if (br.cls < cls) cls = br.cls;
  }
  return m;
}

// Stage 1's requests of one input: the VCs whose head flit may go this cycle (ready, output
// channel free, an output VC with a credit or, for a header, a free one in its range), their
// classes and ages in the scratch's vc_cls / vc_age.
std::uint64_t SwitchAllocator::bidding_vcs(InputUnit& iu, const std::vector<OutputUnit>& out,
                                           const PacketPool& pool, Cycle t) {
  std::uint64_t mask = 0;
  for (std::uint64_t ne = iu.nonempty; ne; ne &= ne - 1) {
    const int v = __builtin_ctzll(ne);
    VirtualChannel& vc = iu.vcs[v];
    if (vc.multicast) {
      vc.x().bid_outputs = branch_outputs(vc, out, t, alloc_scratch.vc_cls[v]);
      if (!vc.x().bid_outputs) continue;
      mask |= std::uint64_t{1} << v;
      if (need_age_) alloc_scratch.vc_age[v] = pool[vc.fifo.front().packet].created;
      continue;
    }
    if (!may_send(vc, out.data(), t)) continue;
    mask |= std::uint64_t{1} << v;
    // (The packet is read only when the arbiters look at classes or ages: with one class the
    // classes stay 0, round-robin reads no age.)
    if (need_cls_ | need_age_) {
      const Packet& pk = pool[vc.fifo.front().packet];
      alloc_scratch.vc_cls[v] = static_cast<std::uint8_t>(pk.priority);
      alloc_scratch.vc_age[v] = pk.created;
    }
  }
  return mask;
}

// A matcher's allocation (router.switch_allocator other than separable_input_first): the
// request matrix by input, the matching, then each matched input's VC arbiter picks which of
// its VCs bidding for the granted output goes.
int SwitchAllocator::allocate_matched(std::vector<InputUnit>& in, std::vector<OutputUnit>& out,
                                      const PacketPool& pool, Cycle t, SwitchGrant* grants,
                                      std::uint64_t busy) {
  const int P = static_cast<int>(in.size());
  bool any = false;
  std::fill(req_.begin(), req_.end(), 0);
  std::fill(vmask_.begin(), vmask_.end(), 0);
  for (std::uint64_t b = busy; b; b &= b - 1) {
    const int p = __builtin_ctzll(b);
    InputUnit& iu = in[p];
    const std::uint64_t mask = bidding_vcs(iu, out, pool, t);
    if (!mask) continue;
    vmask_[p] = mask;
    for (std::uint64_t m = mask; m; m &= m - 1)
      req_[p] |= std::uint64_t{1} << iu.vcs[__builtin_ctzll(m)].out_port;
    any = true;
    if (activity_) {  // (a matching's two sides: the inputs' VCs, the outputs' inputs)
      ++activity_->sa_stage1;
      activity_->sa_stage1_requests += static_cast<std::uint64_t>(__builtin_popcountll(mask));
      activity_->sa_stage2_requests += static_cast<std::uint64_t>(__builtin_popcountll(req_[p]));
    }
    if (probe_ && probe_->on) {
      probe_->in[p].vc_req = mask;
      for (std::uint64_t r = req_[p]; r; r &= r - 1)
        if (const int o = __builtin_ctzll(r); o < static_cast<int>(probe_->out.size()))
          probe_->out[o].sw_req |= std::uint64_t{1} << p;
    }
  }
  if (!any) return 0;
  if (activity_) {
    std::uint64_t outs = 0;
    for (int p = 0; p < P; ++p) outs |= req_[p];
    activity_->sa_stage2 += static_cast<std::uint64_t>(__builtin_popcountll(outs));
  }
  matcher_->match(req_.data(), match_.data());
  int n = 0;
  for (int p = 0; p < P; ++p) {
    const int o = match_[p];
    if (o < 0) continue;
    InputUnit& iu = in[p];
    std::uint64_t mask = 0;
    for (std::uint64_t m = vmask_[p]; m; m &= m - 1) {
      const int v = __builtin_ctzll(m);
      if (iu.vcs[v].out_port == o) mask |= std::uint64_t{1} << v;
    }
    const int v = iu.arbiter.arbitrate(mask, zero_cls_.data(), nullptr);
    iu.arbiter.update(v, 0);
    const VirtualChannel& vc = iu.vcs[v];
    const int ov = output_vc(vc, out[o]);
    grants[n++] = {p, v, o, ov};
  }
  return n;
}

void SwitchAllocator::expand(int input_speedup, int output_speedup, bool hold, int out_buffer) {
  if (inputs_ * input_speedup > 64)
    throw std::invalid_argument("switch allocator: at most 64 crossbar inputs");
  expanded_ = true;
  sin_ = input_speedup;
  sout_ = output_speedup;
  hold_ = hold;
  obuf_ = out_buffer;
  const int ein = inputs_ * sin_, eout = nout_ * sout_;
  xin_.assign(static_cast<std::size_t>(ein), Arbiter(vcs_, classes_, policy_));
  xout_.assign(static_cast<std::size_t>(eout), Arbiter(ein, classes_, policy_));
  hold_in_.assign(static_cast<std::size_t>(ein), -1);
  hold_vc_.assign(static_cast<std::size_t>(ein), -1);
  hold_out_.assign(static_cast<std::size_t>(eout), -1);
  xbids_.assign(static_cast<std::size_t>(eout), 0);
  depart_.assign(static_cast<std::size_t>(nout_), 0);
  released_.reserve(static_cast<std::size_t>(ein));
}

// The staged pipeline with BookSim2's switch knobs (iq_router's _SWHoldEvaluate and
// _SWAllocEvaluate). First the held connections: a held VC's next flit goes through without
// allocation if its output VC has a credit and the output buffer room; otherwise the connection
// is released, but its crossbar input and output stay out of this cycle's allocation (and the
// VC bids again next cycle), as in BookSim2, where the release is part of the cycle's update.
// Then separable input-first allocation over the crossbar's inputs and outputs: each crossbar
// input (p, k) not held picks one of its VCs (v mod s_in = k) whose flit may go and whose
// crossbar output (o, p mod s_out) is not held; each crossbar output picks one crossbar input.
int SwitchAllocator::allocate_expanded(std::vector<InputUnit>& in, std::vector<OutputUnit>& out,
                                       const PacketPool& pool, Cycle t, SwitchGrant* grants,
                                       std::uint64_t busy) {
  int n = 0;
  AllocScratch& s = alloc_scratch;
  const int ein = inputs_ * sin_;
  if (hold_) {
    released_.clear();
    for (int ei = 0; ei < ein; ++ei) {
      const int eo = hold_in_[ei];
      if (eo < 0) continue;
      const int p = ei / sin_, o = eo / sout_, v = hold_vc_[ei];
      const VirtualChannel& vc = in[p].vcs[v];
      // (The channel busy: tau > 1, or a second evaluation in the cycle (rc 0): kept, no flit.)
      if (out[o].free_at > t) continue;
      if (!vc.fifo.empty() && vc.fifo.front().ready <= t && out[o].vc(vc.out_vc).credits > 0 &&
          room(o, t))
        grants[n++] = {p, v, o, vc.out_vc};
      else
        released_.push_back(ei);
    }
  }
  // Stage 1.
  std::uint64_t bidders = 0;  // crossbar inputs that bid
  for (std::uint64_t b = busy; b; b &= b - 1) {
    const int p = __builtin_ctzll(b);
    InputUnit& iu = in[p];
    std::uint64_t pmask = 0;  // (the probe's: every VC of the input that bids)
    for (int k = 0; k < sin_; ++k) {
      const int ei = p * sin_ + k;
      if (hold_in_[ei] >= 0) continue;
      std::uint64_t mask = 0;
      for (std::uint64_t ne = iu.nonempty; ne; ne &= ne - 1) {
        const int v = __builtin_ctzll(ne);
        if (v % sin_ != k) continue;
        VirtualChannel& vc = iu.vcs[v];
        if (!may_send(vc, out.data(), t)) continue;
        const int o = vc.out_port;
        if (hold_out_[o * sout_ + p % sout_] >= 0 || !room(o, t)) continue;
        mask |= std::uint64_t{1} << v;
        if (need_cls_ | need_age_) {
          const Packet& pk = pool[vc.fifo.front().packet];
          s.vc_cls[v] = static_cast<std::uint8_t>(pk.priority);
          s.vc_age[v] = pk.created;
        }
      }
      if (!mask) continue;
      pmask |= mask;
      if (activity_) {
        ++activity_->sa_stage1;
        activity_->sa_stage1_requests += static_cast<std::uint64_t>(__builtin_popcountll(mask));
      }
      const int v = xin_[ei].arbitrate(mask, need_cls_ ? s.vc_cls : kZeroClasses,
                                       need_age_ ? s.vc_age : nullptr);
      s.cand[ei] = v;
      s.in_cls[ei] = need_cls_ ? s.vc_cls[v] : 0;
      s.in_age[ei] = need_age_ ? s.vc_age[v] : 0;
      const int eo = iu.vcs[v].out_port * sout_ + p % sout_;
      xbids_[eo] |= std::uint64_t{1} << ei;
      bidders |= std::uint64_t{1} << ei;
    }
    if (pmask && probe_ && probe_->on) probe_->in[p].vc_req = pmask;
  }
  // Stage 2, by crossbar output.
  if (bidders) {
    const int eout = nout_ * sout_;
    for (int eo = 0; eo < eout; ++eo) {
      const std::uint64_t req = xbids_[eo];
      if (!req) continue;
      xbids_[eo] = 0;
      if (activity_) {
        ++activity_->sa_stage2;
        activity_->sa_stage2_requests += static_cast<std::uint64_t>(__builtin_popcountll(req));
      }
      const int ei = xout_[eo].arbitrate(req, s.in_cls, need_age_ ? s.in_age : nullptr);
      const int p = ei / sin_, v = s.cand[ei], o = eo / sout_;
      xout_[eo].update(ei, s.in_cls[ei]);
      xin_[ei].update(v, s.in_cls[ei]);
      grants[n++] = {p, v, o, in[p].vcs[v].out_vc};
    }
  }
  if (hold_)
    for (int ei : released_) release(ei);
  return n;
}

int SwitchAllocator::allocate(std::vector<InputUnit>& in, std::vector<OutputUnit>& out,
                              const PacketPool& pool, Cycle t, SwitchGrant* grants,
                              std::uint64_t busy) {
  if (matcher_) return allocate_matched(in, out, pool, t, grants, busy);
  if (expanded_) return allocate_expanded(in, out, pool, t, grants, busy);
  std::uint64_t outputs_bid = 0;
  for (std::uint64_t b = busy; b; b &= b - 1) {
    const int p = __builtin_ctzll(b);
    InputUnit& iu = in[p];
    const std::uint64_t mask = bidding_vcs(iu, out, pool, t);
    if (!mask) continue;
    if (probe_ && probe_->on) probe_->in[p].vc_req = mask;
    if (activity_) {
      ++activity_->sa_stage1;
      activity_->sa_stage1_requests += static_cast<std::uint64_t>(__builtin_popcountll(mask));
    }
    const int v = iu.arbiter.arbitrate(mask, need_cls_ ? alloc_scratch.vc_cls : kZeroClasses,
                                       alloc_scratch.vc_age);
    alloc_scratch.cand[p] = v;
    alloc_scratch.in_cls[p] = need_cls_ ? alloc_scratch.vc_cls[v] : 0;
    alloc_scratch.in_age[p] = alloc_scratch.vc_age[v];
    VirtualChannel& cv = iu.vcs[v];
    const std::uint64_t outs = cv.multicast ? cv.x().bid_outputs : std::uint64_t{1} << cv.out_port;
    for (std::uint64_t m = outs; m; m &= m - 1)
      alloc_scratch.bids[__builtin_ctzll(m)] |= std::uint64_t{1} << p;
    outputs_bid |= outs;
  }
  int n = 0;
  for (std::uint64_t ob = outputs_bid; ob; ob &= ob - 1) {
    const int o = __builtin_ctzll(ob);
    // (The probe traces the network ports: not the staged pipeline's ejection outputs.)
    if (probe_ && probe_->on && o < static_cast<int>(probe_->out.size()))
      probe_->out[o].sw_req = alloc_scratch.bids[o];
    if (activity_) {
      ++activity_->sa_stage2;
      activity_->sa_stage2_requests +=
          static_cast<std::uint64_t>(__builtin_popcountll(alloc_scratch.bids[o]));
    }
    const int p =
        out[o].arbiter.arbitrate(alloc_scratch.bids[o], alloc_scratch.in_cls, alloc_scratch.in_age);
    alloc_scratch.bids[o] = 0;
    const int v = alloc_scratch.cand[p];
    VirtualChannel& vc = in[p].vcs[v];
    int ov;
    if (vc.multicast) {
      const VirtualChannel::Branch& br = vc.branch_to(o);
      ov = br.out_vc >= 0 ? br.out_vc : out[o].find_free(br.vc_lo, br.vc_hi);
    } else {
      ov = output_vc(vc, out[o]);
    }
    out[o].arbiter.update(p, alloc_scratch.in_cls[p]);
    in[p].arbiter.update(v, alloc_scratch.in_cls[p]);
    grants[n++] = {p, v, o, ov};
  }
  return n;
}

}  // namespace sy
