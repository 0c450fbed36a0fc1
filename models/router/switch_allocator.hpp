// SwitchAllocator: separable input-first allocation; in the ideal pipeline with VC allocation
// folded in (in the staged pipeline the VcAllocator comes first). Stage 1: each
// input port's arbiter picks one of its VCs whose head flit is ready, whose output channel is free
// and which holds an output VC with a credit (or, for a header, finds a free output VC in its
// class range: the VcAllocator step). Stage 2: each output's arbiter picks one of the inputs that
// bid for it. Arbiter pointers move only for grants that are used (no starvation).
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/router/activity.hpp"
#include "switchyard/router/allocators/matcher.hpp"
#include "switchyard/router/arbiter.hpp"
#include "switchyard/router/candidate_selection.hpp"
#include "switchyard/router/input_unit.hpp"
#include "switchyard/router/output_unit.hpp"

namespace sy {

struct RouterProbe;

struct SwitchGrant {
  int in_port, vc, out_port, out_vc;
};

// One allocation's scratch (the bidding VC, classes and ages of each input, the inputs bidding
// for each output), shared by every router of the thread: it stays in the L1 cache however many
// routers there are. bids is all zero between calls (each use clears its entry).
struct AllocScratch {
  int cand[64];
  std::uint64_t bids[64];
  std::uint8_t vc_cls[64], in_cls[64];
  Cycle vc_age[64], in_age[64];
};
inline thread_local AllocScratch alloc_scratch{};
// The classes read when there is one class: all 0.
inline constexpr std::uint8_t kZeroClasses[64] = {};

class SwitchAllocator {
 public:
  SwitchAllocator(int inputs, int outputs, int vcs, int classes, ArbPolicy policy);
  // Stage 2's arbiters are the output units' own (OutputUnit::arbiter): set them up.
  void attach_outputs(std::vector<OutputUnit>& out) const {
    for (OutputUnit& o : out) o.arbiter = Arbiter(inputs_, classes_, policy_);
  }
  // Fills grants (at most one per input and per output); returns how many. busy: the inputs
  // that hold flits (bit p; the others are not looked at).
  int allocate(std::vector<InputUnit>& in, std::vector<OutputUnit>& out, const PacketPool& pool,
               Cycle t, SwitchGrant* grants, std::uint64_t busy);
  // Whether allocate_plain() gives this allocator's grants: one class, round-robin, no matcher,
  // no staged pipeline, and at most six VCs (all in their output units' first lines, reached
  // without a check) (the router adds: no multicast, no probe).
  bool plain() const { return !staged_ && plain_staged(); }
  // The same for the staged pipeline (allocate_plain<true>: only VCs that hold an output VC bid).
  bool plain_staged() const {
    return !matcher_ && !need_cls_ && !need_age_ && vcs_ <= OutputUnit::kNearVcs;
  }
  // allocate() for a plain() allocator: the same grants, in the same order (by output), each
  // handed to use(grant) as soon as its output has chosen. That is the same as granting all
  // first: a grant's use changes only its own input VC and output (and other routers), and no
  // later output's choice reads them (an input bids for one output).
  // (The units by pointer: a vector's storage would be reloaded after every byte store.)
  // (kStaged: the staged pipeline's, the VC allocator's grants made first.)
  // (kCount: power on, its arbitrations and requests are counted in act.)
  template <bool kStaged, bool kCount, class Use>
  void allocate_plain(InputUnit* in, OutputUnit* out, Cycle t, std::uint64_t busy,
                      RouterActivity* act, Use&& use);
  // Adaptive routing's selection among a header's usable candidates: uniformly at random from
  // this stream (seeded per router) instead of by credits.
  void random_selection(std::uint64_t seed) {
    random_ = true;
    rng_.reseed(seed);
  }
  // router.switch_allocator other than separable_input_first: its matching (allocators/).
  void use_matcher(std::unique_ptr<Matcher> m) {
    matcher_ = std::move(m);
    if (!matcher_) return;
    req_.assign(static_cast<std::size_t>(inputs_), 0);
    vmask_.assign(static_cast<std::size_t>(inputs_), 0);
    match_.assign(static_cast<std::size_t>(inputs_), -1);
    zero_cls_.assign(static_cast<std::size_t>(vcs_), 0);
  }
  // Staged pipeline: only VCs that hold an output VC (granted by the VcAllocator) bid.
  void staged(bool on) { staged_ = on; }
  // BookSim2's switch knobs (staged pipeline, no matcher): allocate() then runs
  // allocate_expanded(). The crossbar has input_speedup inputs per input port (VC v on v mod
  // s_in) and output_speedup outputs per output port (input p on p mod s_out), each with its
  // own arbiter; hold keeps a granted non-tail flit's connection for its VC's next flit
  // (after_grant()); out_buffer bounds each output's buffer (0: unbounded).
  void expand(int input_speedup, int output_speedup, bool hold, int out_buffer);
  bool expanded() const { return expanded_; }
  // Grants per allocation at most (the crossbar's inputs).
  int max_grants() const { return inputs_ * sin_; }
  // After gr's flit has left its VC (tail: it was its packet's last): hold the connection for
  // the VC's next flit if it is in (ready by t), or release it.
  void after_grant(const SwitchGrant& gr, const VirtualChannel& vc, bool tail, Cycle t) {
    if (!hold_) return;
    const int ei = gr.in_port * sin_ + gr.vc % sin_;
    const int eo = gr.out_port * sout_ + gr.in_port % sout_;
    if (!tail && !vc.fifo.empty() && vc.fifo.front().ready <= t) {
      hold_in_[ei] = eo;
      hold_vc_[ei] = gr.vc;
      hold_out_[eo] = ei;
    } else {
      release(ei);
    }
  }
  // Output speedup: the cycle the output buffer of out puts a flit that crossed the switch in
  // cycle t on the link (one a cycle, in order).
  Cycle depart(int out, Cycle t) {
    Cycle& d = depart_[static_cast<std::size_t>(out)];
    const Cycle c = std::max(d, t);
    d = c + 1;
    return c;
  }
  bool output_buffered() const { return sout_ > 1; }
  // Waveforms: record each cycle's request vectors in the probe (null: off).
  void set_probe(RouterProbe* p) { probe_ = p; }
  // Power on: allocate() counts its arbitrations and requests here (null: off).
  void count_activity(RouterActivity* a) { activity_ = a; }

 private:
  // Whether unicast VC vc's head flit may go this cycle: it is ready; a header (in the ideal
  // pipeline) has selected its candidate (adaptive routing); its output channel is free; and its
  // output VC has a credit, or for a header a free VC in its range has one.
  // (kPlain: from allocate_plain, which says whether it runs staged, kStaged: the flag's line is
  // not read.)
  template <bool kPlain = false, bool kStaged = false>
  bool may_send(VirtualChannel& vc, const OutputUnit* out, Cycle t) {
    if (vc.fifo.front().ready > t) return false;
    const bool active = vc.state == VirtualChannel::State::Active;
    if (!active) {
      // (A header takes its output VC in the VC allocator.)
      if (kPlain ? kStaged : staged_) return false;
      if (vc.ncand > 1 && !select_candidate(vc, out, t, true, random_ ? &rng_ : nullptr))
        return false;
    }
    const OutputUnit& ou = out[vc.out_port];
    if (ou.free_at > t) return false;
    return active ? ou.vc<kPlain>(vc.out_vc).credits > 0
                  : ou.find_free_with_credit<kPlain>(vc.vc_lo, vc.vc_hi) >= 0;
  }
  // The output VC a granted unicast VC's flit goes on: the one it holds, or for a header the
  // lowest free one with a credit in its range.
  template <bool kPlain = false>
  static int output_vc(const VirtualChannel& vc, const OutputUnit& o) {
    return vc.state == VirtualChannel::State::Active
               ? vc.out_vc
               : o.find_free_with_credit<kPlain>(vc.vc_lo, vc.vc_hi);
  }
  std::uint64_t bidding_vcs(InputUnit& iu, const std::vector<OutputUnit>& out,
                            const PacketPool& pool, Cycle t);
  int allocate_matched(std::vector<InputUnit>& in, std::vector<OutputUnit>& out,
                       const PacketPool& pool, Cycle t, SwitchGrant* grants, std::uint64_t busy);
  std::uint64_t branch_outputs(VirtualChannel& vc, const std::vector<OutputUnit>& out, Cycle t,
                               std::uint8_t& cls) const;
  int allocate_expanded(std::vector<InputUnit>& in, std::vector<OutputUnit>& out,
                        const PacketPool& pool, Cycle t, SwitchGrant* grants, std::uint64_t busy);
  void release(int ei) {
    if (hold_in_[ei] < 0) return;
    hold_out_[hold_in_[ei]] = -1;
    hold_in_[ei] = -1;
    hold_vc_[ei] = -1;
  }
  // The output buffer of o has room at t (output speedup).
  bool room(int o, Cycle t) const {
    const Cycle d = depart_[static_cast<std::size_t>(o)];  // (flits d - t wait when d > t)
    return obuf_ == 0 || d <= t || d - t < static_cast<Cycle>(obuf_);
  }
  int inputs_, vcs_, classes_;
  // The switch knobs (expand()): speedups, hold, the output buffers' bound.
  int nout_ = 0, sin_ = 1, sout_ = 1, obuf_ = 0;
  bool hold_ = false, expanded_ = false;
  std::vector<Arbiter> xin_;            // per crossbar input (input p, k: p * s_in + k), over VCs
  std::vector<Arbiter> xout_;           // per crossbar output (o * s_out + j), over crossbar inputs
  std::vector<int> hold_in_, hold_vc_;  // per crossbar input: held crossbar output, its VC
  std::vector<int> hold_out_;           // per crossbar output: the crossbar input holding it
  std::vector<int> released_;           // scratch: connections released this allocation
  std::vector<std::uint64_t> xbids_;    // per crossbar output: crossbar inputs bidding
  std::vector<Cycle> depart_;           // per output port: the output buffer's next free link cycle
  ArbPolicy policy_;  // (the per-call scratch is shared by the thread's routers: alloc_scratch)
  RouterProbe* probe_ = nullptr;
  RouterActivity* activity_ = nullptr;
  bool need_cls_, need_age_;  // the arbiters read classes (more than one) / ages (oldest first)
  bool random_ = false;
  bool staged_ = false;
  std::unique_ptr<Matcher> matcher_;
  std::vector<std::uint64_t> req_, vmask_;  // matcher: outputs and VCs requested, per input
  std::vector<int> match_;                  // matcher: the output granted, per input
  std::vector<std::uint8_t> zero_cls_;
  Rng rng_;
};

template <bool kStaged, bool kCount, class Use>
[[gnu::always_inline]] inline void SwitchAllocator::allocate_plain(InputUnit* in, OutputUnit* out,
                                                                   Cycle t, std::uint64_t busy,
                                                                   RouterActivity* act, Use&& use) {
  // One input holding flits on one VC (most evaluations below saturation): both stages have a
  // lone requester, which wins; the same grant without the scratch.
  if (!(busy & (busy - 1))) {
    const int p = __builtin_ctzll(busy);
    InputUnit& iu = in[p];
    if (!(iu.nonempty & (iu.nonempty - 1))) {
      const int v = __builtin_ctzll(iu.nonempty);
      VirtualChannel& vc = iu.vcs[v];
      if (!may_send<true, kStaged>(vc, out, t)) return;
      if constexpr (kCount) ++act->sa_lone;  // (one request at each stage)
      const int o = vc.out_port;
      const int ov = output_vc<true>(vc, out[o]);
      out[o].arbiter.update(p, 0);
      iu.arbiter.update(v, 0);
      use(SwitchGrant{p, v, o, ov});
      return;
    }
  }
  AllocScratch& s = alloc_scratch;
  std::uint64_t outputs_bid = 0;
  // Stage 1: each busy input's arbiter picks one of its VCs that may send now (bidding_vcs()).
  for (std::uint64_t b = busy; b; b &= b - 1) {
    const int p = __builtin_ctzll(b);
    InputUnit& iu = in[p];
    std::uint64_t mask = 0;
    for (std::uint64_t ne = iu.nonempty; ne; ne &= ne - 1) {
      const int v = __builtin_ctzll(ne);
      if (may_send<true, kStaged>(iu.vcs[v], out, t)) mask |= std::uint64_t{1} << v;
    }
    if (!mask) continue;
    if constexpr (kCount) {
      ++act->sa_stage1;
      act->sa_stage1_requests += static_cast<std::uint64_t>(__builtin_popcountll(mask));
    }
    const int v = iu.arbiter.arbitrate(mask, kZeroClasses, nullptr);
    if (v < 0) __builtin_unreachable();  // (a request wins: the updates need not check)
    s.cand[p] = v;
    const int o = iu.vcs[v].out_port;
    s.bids[o] |= std::uint64_t{1} << p;
    outputs_bid |= std::uint64_t{1} << o;
  }
  // Stage 2: each output bid for picks an input; the grant is used at once.
  for (std::uint64_t ob = outputs_bid; ob; ob &= ob - 1) {
    const int o = __builtin_ctzll(ob);
    Arbiter& arb = out[o].arbiter;
    if constexpr (kCount) {
      ++act->sa_stage2;
      act->sa_stage2_requests += static_cast<std::uint64_t>(__builtin_popcountll(s.bids[o]));
    }
    const int p = arb.arbitrate(s.bids[o], kZeroClasses, nullptr);
    if (p < 0) __builtin_unreachable();
    s.bids[o] = 0;
    const int v = s.cand[p];
    const int ov = output_vc<true>(in[p].vcs[v], out[o]);
    arb.update(p, 0);
    in[p].arbiter.update(v, 0);
    use(SwitchGrant{p, v, o, ov});
  }
}

}  // namespace sy
