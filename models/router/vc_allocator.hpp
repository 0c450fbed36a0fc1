// VcAllocator: the staged pipeline's VC allocation, apart from switch allocation; separable
// input-first (below) or separable output-first (router.vc_allocator; every header requests
// every free VC in its range, each output VC grants one, each header accepts one round-robin and
// only accepted grants move the output VCs' pointers).
// Input-first: Stage 1: every routed header whose route computation is done (input VC
// in state Routed, head flit ready) requests one output VC, the lowest free one in its range
// (an adaptive header first selects a candidate by downstream credits, or at random), or with
// router.vc_request: all_free the one its input arbiter picks among all the free ones (knobs()).
// Stage 2: every requested output VC grants one requester: the highest priority class, then
// round-robin over the (input port, VC) requesters from the one after its last grant, or the oldest
// packet with oldest_first. Two headers that want the same output VC conflict; the loser retries
// next cycle. A header that wins holds its output VC even while it loses switch allocation.
#pragma once
#include <algorithm>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/router/candidate_selection.hpp"
#include "switchyard/router/input_unit.hpp"
#include "switchyard/router/output_unit.hpp"

namespace sy {

struct VcGrant {
  int in_port, vc, out_port, out_vc;
};

class VcAllocator {
 public:
  VcAllocator(int inputs, int outputs, int vcs, ArbPolicy policy);
  // Fills grants (at most one per input VC and per output VC); returns how many.
  int allocate(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
               const PacketPool& pool, Cycle t, VcGrant* grants);
  // allocate() once allocate_lone() has said -1 (input-first): without asking it again.
  int allocate_many(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                    const PacketPool& pool, Cycle t, VcGrant* grants);
  // router.vc_allocator: separable_output_first (allocators/vc_separable_output_first.cpp).
  void output_first(bool on) {
    output_first_ = on;
    lone_off_ = output_first_ || knobs_;
    accept_ptr_.assign(static_cast<std::size_t>(requesters_), 0);
    accepted_.assign(static_cast<std::size_t>(requesters_), Accept{});
  }
  // BookSim2's knobs (router.vc_request, vc_busy_when_full, vc_prioritize_empty), as in its
  // iq_router::_VCAllocEvaluate. all_free (input-first): a header requests every eligible VC of
  // its range and its input arbiter picks one: round robin over the output VCs (out * V + ov)
  // from the one after the VC it was last granted (its pointer moves only when the output VC's
  // arbiter grants it too). busy_when_full: a free VC without a credit is not eligible (a
  // header with none eligible does not request). prioritize_empty: the input side prefers the
  // eligible VCs whose downstream buffer is empty (every credit back): input-first, the one it
  // requests; output-first, the grant it accepts. All off: the choices above, unchanged.
  void knobs(bool all_free, bool busy_when_full, bool prioritize_empty) {
    all_free_ = all_free;
    busy_when_full_ = busy_when_full;
    prioritize_empty_ = prioritize_empty;
    knobs_ = all_free || busy_when_full || prioritize_empty;
    lone_off_ = output_first_ || knobs_;
    in_ptr_.assign(static_cast<std::size_t>(requesters_), 0);
  }
  void random_selection(std::uint64_t seed) {
    random_ = true;
    rng_.reseed(seed);
  }
  // The input VCs in state Routed, whose headers wait for an output VC (the router marks one
  // as it routes its header and clears it at the grant): allocation visits only these, in the
  // order of the full scan (inputs, then VCs, ascending).
  // (A header just routed: its ready time is set after this, so the next allocation looks.)
  void routed(int p, int v) {
    routed_[static_cast<std::size_t>(p)] |= std::uint64_t{1} << v;
    routed_in_ |= std::uint64_t{1} << p;
    due_ = 0;
  }
  // routed() for a header whose ready time c is known (the staged pipeline's arrival, after
  // its ready time is set): the next allocation need not look before c. (due_ only ever falls
  // here: the headers that waited before are no readier.)
  [[gnu::always_inline]] void routed_at(int p, int v, Cycle c) {  // (once per header: inline)
    routed_[static_cast<std::size_t>(p)] |= std::uint64_t{1} << v;
    routed_in_ |= std::uint64_t{1} << p;
    due_ = std::min(due_, c);
  }
  bool any_routed() const { return routed_in_ != 0; }
  // Whether an allocation at t may grant anything: some header waits and, since the last
  // allocation, none became ready later than it said (due_: the earliest ready time of the
  // waiting headers, t itself while one is ready but blocked). Otherwise every waiting header's
  // head flit is still in route computation: allocate() would grant nothing and change nothing
  // (no request, no arbiter, no random draw), so the router skips it.
  // (due_ is kNever while none waits: the test reads one field.)
  bool due(Cycle t) const { return t >= due_; }
  // A waiting header's ready time became c (store-and-forward: its tail is in).
  void ready_at(Cycle c) {
    if (routed_in_) due_ = std::min(due_, c);
  }
  // allocate() when one header waits and allocate() takes its shortcut (input-first, no
  // knobs): -1 when it does not apply (call allocate()), else the grants made, 0 or 1 (in g).
  // The same grant and the same state after it as allocate(). (Inline in the staged router:
  // most of its allocations.)
  [[gnu::always_inline]] int allocate_lone(InputUnit* in, const OutputUnit* out, Cycle t,
                                           VcGrant& g) {
    if (lone_off_ || (routed_in_ & (routed_in_ - 1))) return -1;
    const int p = __builtin_ctzll(routed_in_);
    const std::uint64_t m = routed_[static_cast<std::size_t>(p)];
    if (m & (m - 1)) return -1;
    const int v = __builtin_ctzll(m);
    VirtualChannel& vc = in[p].vcs[v];
    due_ = wait_until(vc, t);
    if (!ready_to_request(vc, t)) return 0;
    if (vc.ncand > 1 && !select_candidate(vc, out, t, false, random_ ? &rng_ : nullptr)) return 0;
    const int ov = out[vc.out_port].find_free(vc.vc_lo, vc.vc_hi);
    if (ov < 0) return 0;
    last_[static_cast<std::size_t>(vc.out_port) * vcs_ + ov] = p * vcs_ + v;
    g = {p, v, vc.out_port, ov};
    return 1;
  }
  void granted(int p, int v) {
    std::uint64_t& m = routed_[static_cast<std::size_t>(p)];
    m &= ~(std::uint64_t{1} << v);
    if (!m) routed_in_ &= ~(std::uint64_t{1} << p);
    if (!routed_in_) due_ = kNever;  // (none waits: the next routed_at() sets it)
  }

 private:
  struct Best {
    int req = -1;  // requester id (in_port * V + vc), -1: none this cycle
    int cls = 0;
    Cycle age = 0;
    int dist = 0;
  };
  bool requesting(VirtualChannel& vc, const std::vector<OutputUnit>& out, const PacketPool& pool,
                  Cycle t, const Packet*& pk);
  int allocate_apart(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out, Cycle t,
                     VcGrant* grants);
  // Calls fn(vc, requester id) for every waiting header, in the order of the full scan (inputs,
  // then VCs, ascending), until fn returns false (then false); due: the earliest cycle one of
  // them may request (wait_until), over those visited.
  template <class Fn>
  bool for_each_waiting(std::vector<InputUnit>& in, Cycle t, Cycle& due, Fn fn) {
    due = kNever;
    for (std::uint64_t b = routed_in_; b; b &= b - 1) {
      const int p = __builtin_ctzll(b);
      for (std::uint64_t m = routed_[static_cast<std::size_t>(p)]; m; m &= m - 1) {
        const int v = __builtin_ctzll(m);
        VirtualChannel& vc = in[static_cast<std::size_t>(p)].vcs[v];
        due = std::min(due, wait_until(vc, t));
        if (!fn(vc, p * vcs_ + v)) return false;
      }
    }
    return true;
  }
  // Calls fn(vc, requester id, packet) for every header requesting this cycle.
  template <class Fn>
  void for_each_request(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                        const PacketPool& pool, Cycle t, Fn fn) {
    Cycle due;
    for_each_waiting(in, t, due, [&](VirtualChannel& vc, int id) {
      const Packet* pk = nullptr;
      if (requesting(vc, out, pool, t, pk)) fn(vc, id, *pk);
      return true;
    });
    due_ = due;
  }
  // Routed VC vc's header may request at t: still routed, in, and through route computation.
  static bool ready_to_request(const VirtualChannel& vc, Cycle t) {
    return vc.state == VirtualChannel::State::Routed && !vc.fifo.empty() &&
           vc.fifo.front().ready <= t;
  }
  // The earliest cycle waiting VC vc may request: its head flit's ready time, or t when it is
  // ready (it may be blocked until something else changes).
  static Cycle wait_until(const VirtualChannel& vc, Cycle t) {
    if (vc.state != VirtualChannel::State::Routed || vc.fifo.empty()) return t;
    return std::max(vc.fifo.front().ready, t);
  }
  // Output VC k's arbiter sees requester id (packet pk): does it beat the best so far? (Inline:
  // once per request.)
  [[gnu::always_inline]] void offer(std::size_t k, int id, const Packet& pk) {
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
  // With the knobs: may output VC o of ou be requested, and its input-side priority.
  bool eligible(const OutputVc& o) const { return !o.owned && (!busy_when_full_ || o.credits > 0); }
  int in_priority(const OutputUnit& ou, const OutputVc& o) const {
    return prioritize_empty_ && o.credits == ou.depth;
  }
  int choose(const OutputUnit& ou, int port, int lo, int hi, int id) const;
  int allocate_output_first(std::vector<InputUnit>& in, const std::vector<OutputUnit>& out,
                            const PacketPool& pool, Cycle t, VcGrant* grants);
  struct Accept {
    int k = -1;  // the output VC this requester accepts this cycle, -1: none granted
    int dist = 0;
    int pri = 0;  // vc_prioritize_empty: 1 for an empty output VC
  };
  int vcs_;
  ArbPolicy policy_;
  int requesters_;
  std::vector<int> last_;              // per output VC (out * V + ov): the last requester granted
  std::vector<Best> best_;             // per output VC: this cycle's winner so far
  std::vector<std::uint64_t> routed_;  // per input: its VCs in state Routed (bit v)
  std::uint64_t routed_in_ = 0;        // the inputs with one (bit p)
  Cycle due_ = kNever;                 // (due(); kNever while routed_in_ is 0)
  std::vector<int> touched_;           // output VCs requested this cycle
  bool random_ = false;
  bool output_first_ = false;
  bool lone_off_ = false;  // output-first or the knobs: allocate_lone does not apply
  bool knobs_ = false, all_free_ = false, busy_when_full_ = false, prioritize_empty_ = false;
  std::vector<int> in_ptr_;  // all_free: per requester, its input arbiter's pointer (out * V + ov)
  std::vector<int> accept_ptr_;   // output first: per requester, the VC index it prefers next
  std::vector<Accept> accepted_;  // output first: per requester, this cycle's choice
  std::vector<int> granted_;      // output first: requesters granted this cycle
  Rng rng_;
};

}  // namespace sy
