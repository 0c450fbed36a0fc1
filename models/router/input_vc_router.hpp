// InputVcRouter: the realistic router. Input units with V VCs of B flits and credit flow control,
// routing unit (lookahead: the header is routed as it arrives), switch allocator, crossbar (a
// flit's traversal: forward()), output units. Two pipelines:
//  - ideal (default): VC allocation folded into switch allocation; every flit leaves its buffer
//    at the earliest delta cycles after it began to arrive, later if the allocator, the channel
//    (one flit per tau cycles) or credits hold it; a flit for this node goes to the NI as it
//    arrives (free all-port ejection); credits are back the next cycle.
//  - staged (router.pipeline): route computation (rc), a separate VC allocator (va), switch
//    allocation (sa), switch and link traversal (st, lt) as stages, credits back after
//    credit_delay, ejection through the router's ejection outputs (see PipelineConfig).
// Store-and-forward additionally holds a header that came over a network link until its whole
// packet has been received.
#pragma once
#include <vector>

#include "switchyard/router/input_unit.hpp"
#include "switchyard/router/router.hpp"
#include "switchyard/router/routing_unit.hpp"
#include "switchyard/router/switch_allocator.hpp"
#include "switchyard/router/vc_allocator.hpp"

namespace sy {

class InputVcRouter final : public Router {
 public:
  InputVcRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                NetworkInterface* const* nis);
  bool evaluate(Cycle t) override;
  // Network::evaluate_routers for a network of input-VC routers: the active routers of words
  // [w0, w1) of the active set (bits, over routers), in node order, with evaluate() inline in
  // the loop; those that went idle leave the set (their count is returned). prefetch: see
  // prefetch().
  static std::size_t evaluate_words(Router* const* routers, std::uint64_t* bits, std::size_t w0,
                                    std::size_t w1, Cycle t, bool prefetch);
  // Asks the cache for what evaluate() reads first: the router's line and its busy input units'
  // first lines (with 4,096 routers their state is not in the caches; measured on 16x16x16,
  // pairs of runs side by side: about 5% less time; the network does it from 1,024 routers).
  // No effect on the results.
  // Asks for what receive() reads of a flit arriving on VC vc of the input unit dst_input
  // (Link::dst_input) of router dst: the router's line, the unit's line and the VC's two lines
  // (in the unit when it has at most two VCs), all at once. No effect on the results. (Forced
  // inline: out of line, gcc finds the call without effect and drops it, prefetches and all.)
  [[gnu::always_inline]] static void prefetch_arrival(const Router* dst, const void* dst_input,
                                                      int vc) {
    const char* u = static_cast<const char*>(dst_input);
    __builtin_prefetch(&static_cast<const InputVcRouter*>(dst)->busy_in_);
    __builtin_prefetch(u);
    __builtin_prefetch(u + 64 + 128 * vc);
    __builtin_prefetch(u + 128 + 128 * vc);
  }
  void prefetch() const {
    __builtin_prefetch(&busy_in_);
    for (std::uint64_t b = busy_in_; b; b &= b - 1) __builtin_prefetch(&in_[__builtin_ctzll(b)]);
  }
  void accept_flit(int in_port, int vc, Flit f, Cycle t) override;
  // Threads: a flit another lane's router sent here, received as that router's forward() would
  // have on one thread (the plain staged loop's receive, or accept_flit()).
  void receive_delivery(int in_port, int vc, Flit f, Cycle t);
  FlitSink flit_sink() const override {
    if (plain_staged_) return counting_ ? &inject<true, true, true> : &inject<false, true, true>;
    if (staged_) return counting_ ? &inject<true, true> : &inject<false, true>;
    if (plain_) return counting_ ? &inject<true, false, true> : &inject<false, false, true>;
    return counting_ ? &inject<true> : &inject<false>;
  }
  void accept_packet(int, std::uint32_t, Cycle) override;
  void connect_upstream(int in_port, OutputUnit* up, bool evaluated_before) override {
    inputs_[in_port].upstream = up;
    inputs_[in_port].credit_now = evaluated_before && credit_now_;
  }
  const InputUnit& input(int p) const { return inputs_[p]; }
  // The router that owns input p's upstream output unit (threads: where its credits go); by
  // default this router (an injection port's NI is on its lane).
  void set_upstream_node(int p, int node) { inputs_[p].upstream_node = node; }
  void set_probe(RouterProbe* p) override;
  void sample(RouterProbe& p) const override;
  void count_activity(RouterActivity* a) override;

 private:
  // What the plain path's flits add to the network's counters (flit-hops, the longest wait, the
  // last progress), kept in registers over a loop of evaluations and added once at its end
  // (flush()): the per-flit stores through the fabric were about 9 instructions a flit-hop.
  struct Tally {
    std::uint64_t hops = 0;
    Cycle max_wait = 0;
    bool ejected = false;  // (the staged path's ejections: progress, without a hop)
  };
  // One evaluation: its cycle and lane, the router's units by pointer and what it reads for
  // every flit (locals: a member would be reloaded after every byte store).
  struct Pass {
    Cycle t;
    Lane* ln;
    InputUnit* in;
    OutputUnit* out;
    bool prefetch;  // a granted flit's next router: its lines are asked for (forward())
    Tally* tally;   // the plain path's counters (one thread; lanes count in theirs)
  };
  // The tally's counts into the fabric's (at cycle t).
  void flush(const Tally& y, Cycle t) {
    if (!y.hops && !y.ejected) return;
    fabric_.flit_hops += y.hops;
    fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, y.max_wait);
    fabric_.last_progress = t;
  }
  // (kCount, here and below: power on, the units' events are counted in activity_.)
  // (kStaged: the caller knows the pipeline is staged: the plain staged loop.)
  // (kPlain: the router is on a plain path (plain_ or plain_staged_, config-wide): no probe, no
  // broadcast, no second evaluation in a cycle (delta >= 1 or staged).)
  template <bool kCount = false, bool kStaged = false, bool kPlain = false>
  [[gnu::always_inline]] void receive(int in_port, int vc, const Flit& f,
                                      Cycle t);  // accept_flit()
  template <bool kCount, bool kStaged = false, bool kPlain = false>
  static void inject(Router* r, int in_port, int vc, Flit f, Cycle t);  // flit_sink()
  template <bool kCount, bool kStaged, bool kPlain>
  [[gnu::noinline]] void receive_out_of_line(int in_port, int vc, Flit f, Cycle t);
  void accept_broadcast_flit(int in_port, int vc, Flit f, Cycle t);
  void send_branch(const SwitchGrant& gr, Cycle t, Lane* ln);
  template <bool kPlain, bool kLanes, bool kStaged, bool kCount>
  void forward(const SwitchGrant& gr, const Pass& s);
  template <bool kLanes, bool kCount>
  bool evaluate_with(Cycle t, Lane* ln, bool prefetch, Tally& tally);
  // The general allocation path (staged pipeline, probes, other allocators, broadcasts). (Inline
  // too: out of line, the plain path measured +150 instructions per 8x8 cycle.)
  template <bool kLanes, bool kCount>
  void evaluate_general(const Pass& s);
  template <bool kLanes, bool kCount>
  void evaluate_plain_staged(const Pass& s);
  template <bool kLanes, bool kCount>
  static std::size_t evaluate_words_plain_staged(Router* const* routers, std::uint64_t* bits,
                                                 std::size_t w0, std::size_t w1, Cycle t);
  template <bool kLanes, bool kPrefetch, bool kCount>
  static std::size_t evaluate_words_with(Router* const* routers, std::uint64_t* bits,
                                         std::size_t w0, std::size_t w1, Cycle t);
  Cycle ready_time(const Flit& f, int in_port, VirtualChannel& vc, Cycle t);
  template <bool kLanes, bool kProbe>
  void traverse(const SwitchGrant& gr, OutputUnit& ou, const Flit& f, const Pass& s);
  template <bool kStaged = false, bool kPlain = false>
  void buffer_flit(InputUnit& iu, VirtualChannel& vc, const Flit& f, int in_port, int v, Cycle t);
  void route_header(int in_port, int v, Packet& pk, bool plain_staged = false);
  void route_header_plain_staged(int in_port, int v, Packet& pk);
  void route_header_plain(int in_port, int v, Packet& pk);
  void take_output_vc(int in_port, VirtualChannel& vc, int out_port, int out_vc,
                      std::uint32_t packet);
  void hop_taken(int in_port, int out_port, Packet& pk);
  void allocate_vcs(Cycle t);
  void allocate_vcs_many(Cycle t);
  [[gnu::always_inline]] void take_vc_grants(int n, Cycle t);
  void allocate_vcs_plain(const Pass& s);
  void vc_granted(const VcGrant& gr, InputUnit* in, Cycle t);
  template <bool kInline, bool kPlain = false>
  void eject(const SwitchGrant& gr, const Flit& f, Cycle t, OutputUnit& ou, Tally* y = nullptr);
  void eject_out_of_line(const SwitchGrant& gr, const Flit& f, Cycle t);
  template <bool kPlain>
  void eject_lane(const SwitchGrant& gr, const Flit& f, const Pass& s, OutputUnit& ou);
  // Power on: cycle t is one the router was active in (once, should it run twice in it).
  void count_cycle(Cycle t) {
    RouterActivity& a = *activity_;
    a.active_cycles += a.last_cycle != t;
    a.last_cycle = t;
  }
  // A flit left VC v of input p: the masks of what holds flits.
  // (kBranchless: without branches, for the paths where whether the VC emptied is a coin toss
  // to the branch predictor.)
  template <bool kBranchless = false>
  void popped(InputUnit& iu, int p, int v) {
    if constexpr (kBranchless) {
      iu.nonempty &= ~(std::uint64_t{iu.vcs[v].fifo.empty()} << v);
      busy_in_ &= ~(std::uint64_t{iu.nonempty == 0} << p);
    } else {
      if (!iu.vcs[v].fifo.empty()) return;
      iu.nonempty &= ~(std::uint64_t{1} << v);
      if (!iu.nonempty) busy_in_ &= ~(std::uint64_t{1} << p);
    }
  }
  // (What every evaluation and every flit's arrival read: with the Router's own hot fields, one
  // cache line (checked in the constructor). With thousands of routers a cycle's cost is mostly
  // the cache lines of router state it touches.)
  const bool saf_;
  // Staged pipeline (router.pipeline): the header's route computation (delta_ = rc), the cycles
  // from a VC grant to switch allocation, from a switch grant to the flit's arrival at the next
  // router (sa + st + lt; 0 in the ideal pipeline), the credit delay, the ejection outputs.
  const bool staged_;
  // Switch allocation by SwitchAllocator::allocate_plain (one class, round-robin, no matcher,
  // no staged pipeline, no router broadcasts; and no probe, checked each cycle).
  bool plain_ = false;
  // Not store-and-forward and not staged: a flit's ready time is max(arrival + delta, hold).
  const bool simple_ready_;
  const int delta_, tau_;
  std::uint64_t busy_in_ = 0;  // inputs holding a flit (bit p)
  InputUnit* in_ = nullptr;    // inputs_ and outputs_ (they do not change after construction)
  OutputUnit* out_ = nullptr;
  // Credits to an upstream unit whose owner has had its turn this cycle go at once (it sees them
  // next cycle either way, and its lines are still in the cache): not with delta 0 (a router
  // may run twice in a cycle) or waves (which sample credits at the end of the cycle). Each
  // input unit's credit_now says whether this applies to its upstream. (Not in the staged
  // pipeline: with a credit delay of one cycle it saved 278 instructions a staged 8x8 cycle but
  // took 11% more time, pairs of runs alternating.)
  bool credit_now_ = false;
  const TurnModel turns_;         // a turn model: every header's turn is checked
  const RoutingAlgorithm* algo_;  // null: dimension order (the routing unit's fast path)
  std::vector<InputUnit> inputs_;
  const int link_lag_, va_lag_, ejection_ports_;  // (credit delays: InputUnit::credit_delay)
  // Per output port, a link's own latency minus lt (IndirectNetwork::link_latency; empty: none).
  std::vector<std::int16_t> link_extra_;
  // Staged pipeline: from a switch grant to the flit's arrival at the NI (sa + st + ni_lt), and
  // the ejection buffers' credit delay (PipelineConfig::ni_credit_delay).
  const int eject_lag_, eject_credit_delay_;
  // Per output: the NI (its index in nis_, which is filled after the routers are made) an
  // ejection output delivers to (0 for a network port). (A division and the topology's port
  // count, through its indirect network, per ejected flit before.)
  std::vector<int> eject_ni_;
  // BookSim2's switch knobs (hold, speedups): the allocator's expanded crossbar; with output
  // speedup, flits wait in the output buffers (SwitchAllocator::depart).
  bool knobs_ = false, out_buffered_ = false;
  // The ideal pipeline with delta 0 runs a router again in a cycle in which it received a flit
  // (Fabric::again), so that the flit may go on in that same cycle; an input that has sent a
  // flit in this cycle does not bid again in it (one flit an input a cycle, as with delta >= 1).
  // (The general path only: plain_ is off for these routers.)
  bool same_cycle_ = false;
  Cycle sent_t_ = kNever;
  std::uint64_t sent_in_ = 0;  // inputs that sent in cycle sent_t_
  std::vector<SwitchGrant> grants_;
  SwitchAllocator alloc_;
  std::vector<int> children_;  // scratch for broadcast fan-out
  VcAllocator vc_alloc_;       // staged pipeline only
  std::vector<VcGrant> vc_grants_;
  bool plain_staged_ = false;  // the staged pipeline with allocate_plain's switch allocation
  const BroadcastConfig bcast_;
  const VcPlan plan_;
};

}  // namespace sy
