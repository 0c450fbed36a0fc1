#include "switchyard/router/input_vc_router.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <stdexcept>

#include "switchyard/network/network_interface.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/router/replication_rule.hpp"

namespace sy {

namespace {
// The router's outputs: the topology's ports, and in the staged pipeline its ejection outputs.
int outputs_of(const Fabric& f) {
  const PipelineConfig& p = f.cfg.router.pipeline;
  return f.topo.num_ports() + (p.staged ? f.topo.concentration() * p.ejection_ports : 0);
}
// Its inputs: the topology's ports and every terminal's injection channels.
int inputs_of(const Fabric& f) {
  return f.topo.num_ports() + f.topo.concentration() * f.cfg.interface.injection_channels;
}
}  // namespace

InputVcRouter::InputVcRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                             NetworkInterface* const* nis)
    : Router(name, node, fabric, nis),
      saf_(fabric.cfg.router.switching == Switching::StoreAndForward),
      staged_(fabric.cfg.router.pipeline.staged),
      simple_ready_(!saf_ && !staged_),
      delta_(fabric.cfg.router.pipeline.staged ? fabric.cfg.router.pipeline.rc
                                               : fabric.cfg.timing.delta),
      tau_(fabric.cfg.timing.tau),
      turns_(turn_model(fabric.cfg.routing.algorithm)),
      algo_(fabric.routing.algorithm()),
      link_lag_(staged_ ? fabric.cfg.router.pipeline.sa + fabric.cfg.router.pipeline.st +
                              fabric.cfg.router.pipeline.lt
                        : 0),
      va_lag_(fabric.cfg.router.pipeline.speculative
                  ? std::max(0, fabric.cfg.router.pipeline.va - fabric.cfg.router.pipeline.sa)
                  : fabric.cfg.router.pipeline.va),
      ejection_ports_(staged_ ? fabric.cfg.router.pipeline.ejection_ports : 0),
      eject_lag_(staged_ ? fabric.cfg.router.pipeline.sa + fabric.cfg.router.pipeline.st +
                               fabric.cfg.router.pipeline.ni_lt
                         : 0),
      eject_credit_delay_(fabric.cfg.router.pipeline.ni_credit_delay()),
      grants_(inputs_of(fabric)),
      alloc_(inputs_of(fabric), outputs_of(fabric), fabric.cfg.router.vcs,
             fabric.cfg.router.priority_classes, fabric.cfg.router.arbitration),
      vc_alloc_(fabric.cfg.router.pipeline.staged ? inputs_of(fabric) : 0, outputs_of(fabric),
                fabric.cfg.router.vcs, fabric.cfg.router.arbitration),
      bcast_(fabric.cfg.traffic.broadcast),
      plan_(vc_plan(fabric.cfg)) {
  const RouterConfig& rc = fabric.cfg.router;
  const int inputs = inputs_of(fabric);
  for (int p = 0; p < inputs; ++p) {
    inputs_.emplace_back(rc.vcs, rc.vc_depth, rc.priority_classes, rc.arbitration);
    inputs_.back().upstream_node = node;
    inputs_.back().credit_delay = static_cast<std::int16_t>(
        p >= fabric.topo.num_ports() ? rc.pipeline.ni_credit_delay() : rc.pipeline.credit_delay);
  }
  // Links of their own latency (an indirect network's, staged pipeline): the flit arrives, and
  // its credit returns, that much later or sooner than with router.pipeline.lt.
  const IndirectNetwork* ind = fabric.topo.indirect_network();
  if (staged_ && ind && ind->has_link_latencies()) {
    link_extra_.assign(static_cast<std::size_t>(outputs_of(fabric)), 0);
    for (int p = 0; p < fabric.topo.num_ports(); ++p) {
      const int out = ind->link_latency(node, p), in = ind->input_latency(node, p);
      if (out > 0) link_extra_[p] = static_cast<std::int16_t>(out - rc.pipeline.lt);
      if (in > 0)
        inputs_[p].credit_delay =
            static_cast<std::int16_t>(std::max(1, rc.pipeline.credit_delay - rc.pipeline.lt + in));
    }
  }
  if (bcast_.enabled()) {
    children_.resize(fabric.topo.num_ports());
    for (auto& iu : inputs_)
      for (auto& vc : iu.vcs) vc.x().branches.resize(fabric.topo.num_ports());
  }
  outputs_.resize(static_cast<std::size_t>(outputs_of(fabric)));
  // The staged pipeline's ejection outputs: the NI each delivers to (ejection_ports_ a terminal).
  eject_ni_.assign(outputs_.size(), 0);
  for (std::size_t o = static_cast<std::size_t>(fabric.topo.num_ports()); o < outputs_.size(); ++o)
    eject_ni_[o] = (static_cast<int>(o) - fabric.topo.num_ports()) / ejection_ports_;
  in_ = inputs_.data();
  out_ = outputs_.data();
  // (The hot fields of Router and InputVcRouter share one cache line.)
  assert(reinterpret_cast<const char*>(&out_ + 1) - reinterpret_cast<const char*>(&fabric_) <= 64);
  for (auto& o : outputs_) {
    o = OutputUnit(rc.vcs, rc.vc_depth);
    o.free_on_tail = !rc.wait_for_tail_credit;
  }
  alloc_.attach_outputs(outputs_);
  alloc_.use_matcher(
      make_matcher(rc.switch_allocator, inputs, outputs_of(fabric), rc.allocator_iterations));
  if (staged_) {
    alloc_.staged(true);
    vc_alloc_.output_first(rc.vc_allocator == "separable_output_first");
    vc_alloc_.knobs(rc.vc_request_all_free, rc.vc_busy_when_full, rc.vc_prioritize_empty);
    vc_grants_.resize(static_cast<std::size_t>(inputs * rc.vcs));
  }
  credit_now_ = !staged_ && delta_ >= 1 && !fabric.cfg.waves.enable;
  // (SWITCHYARD_GENERAL_PATH=1 turns the fast path off: tests compare the two.)
  // (SWITCHYARD_HOP_LOG: the general path writes every flit's hop, Fabric::hop_log.)
  // (Waves: routers may have probes, which only the general path serves; so the plain paths'
  // flits need not ask the next router for one.)
  const bool general = bcast_.enabled() || fabric.cfg.waves.enable ||
                       std::getenv("SWITCHYARD_GENERAL_PATH") || std::getenv("SWITCHYARD_HOP_LOG");
  same_cycle_ = !staged_ && delta_ == 0;
  plain_ = alloc_.plain() && !general && !same_cycle_;
  // (Links of their own latency, link_extra_: the general path.)
  plain_staged_ = staged_ && alloc_.plain_staged() && !general && link_extra_.empty();
  // (A mixed network, router.model rtl with rtl_nodes: a neighbour may be a Verilated router,
  // reached through its virtual accept_flit, which only the general path calls.)
  if (rc.rtl) plain_ = plain_staged_ = false;
  if (staged_ && rc.switch_knobs()) {
    alloc_.expand(rc.input_speedup, rc.output_speedup, rc.hold_switch_for_packet,
                  rc.output_buffer_size);
    grants_.resize(static_cast<std::size_t>(alloc_.max_grants()));
    knobs_ = true;
    out_buffered_ = alloc_.output_buffered();
    plain_ = plain_staged_ = false;
  }
  if (fabric.cfg.routing.random_selection) {
    const std::uint64_t seed =
        fabric.cfg.simulation.seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(node);
    alloc_.random_selection(seed + 0x73656c);
    vc_alloc_.random_selection(seed + 0x766361);
  }
}

void InputVcRouter::count_activity(RouterActivity* a) {
  Router::count_activity(a);
  alloc_.count_activity(a);
}

// (Inline: the previous router's forward() calls it directly.)
template <bool kCount, bool kStaged, bool kPlain>
[[gnu::always_inline]] inline void InputVcRouter::receive(int in_port, int v, const Flit& f,
                                                          Cycle t) {
  InputUnit& iu = in_[in_port];
  VirtualChannel& vc = iu.vcs[v];
  if (!kPlain && probed_ && probe_->on) probe_->flit_in(in_port, v, f.packet, f.head, f.tail);
  if constexpr (kStaged && kPlain) {
    // The plain staged loop: no probe, no broadcast, and a staged router never ejects on arrival
    // (its headers are routed to an ejection output): of the header's part below, Valiant's
    // intermediate node is left; then the staged part further below, as a copy of its own.
    // (Merged into the code below, with the ejection skipped at compile time, it measured +205
    // instructions a staged 8x8 cycle: the pool lookup is no longer shared.)
    const bool route = f.head && vc.state == VirtualChannel::State::Idle && vc.fifo.empty();
    if (f.head) {
      Packet& pk = fabric_.pool[f.packet];
      if (pk.mid == terminal_) {
        pk.mid = -1;
        pk.phase = 1;
      }
      if (route) route_header_plain_staged(in_port, v, pk);
    }
    if constexpr (kCount) ++activity_->buffer_writes;
    buffer_flit<true>(iu, vc, f, in_port, v, t);
    if (route) vc_alloc_.routed_at(in_port, v, vc.fifo.front().ready);
    return;
  }
  // The header decides for its packet's flits, which follow it on this VC (body flits do not
  // read the packet): a broadcast copy, or ejection straight to the NI, the buffer slot free
  // again. (A dimension-ordered source route never passes its destination before it ends; a
  // Valiant packet passes it before its intermediate node.)
  if (f.head) {
    Packet& pk = fabric_.pool[f.packet];
    if constexpr (!kPlain) vc.broadcast_in = pk.bcast >= 0;
    if (kPlain || !vc.broadcast_in) {
      if (pk.mid == terminal_) {
        pk.mid = -1;
        pk.phase = 1;
      }
      // (The staged pipeline routes such a header to an ejection output instead: route_header.)
      vc.eject = !kStaged && !staged_ && delivered_here(pk.dst) && pk.mid < 0
                     ? static_cast<std::uint8_t>(pk.dst - terminal_ + 1)
                     : 0;
    }
  }
  if (!kPlain && vc.broadcast_in) {
    accept_broadcast_flit(in_port, v, f, t);
    return;
  }
  if (vc.eject) {
    if constexpr (kCount) ++activity_->ejected;
    NetworkInterface* ni = nis_[vc.eject - 1];
    if (f.tail) vc.eject = 0;
    if (Lane* ln = current_lane) {  // (threads: the NI takes it after the lane's sends, in order)
      ln->credit(iu.upstream_node, iu.upstream, v);
      ln->ejections.push_back({ln->key, ni, f, t});
    } else {
      fabric_.credit(iu.upstream, v);
      ni->deliver_flit(f, t);
    }
    return;
  }
  // A header is routed as it arrives (lookahead), unless the packet before it is still in the
  // VC (wait_for_tail_credit: false): then when it reaches the front.
  if constexpr (kStaged) {
    // (The plain staged loop: the header waits for an output VC from its ready time on, known
    // once it is buffered (the front flit now); the VC allocation need not look before it.)
    const bool route = f.head && vc.state == VirtualChannel::State::Idle && vc.fifo.empty();
    if (route) route_header_plain_staged(in_port, v, fabric_.pool[f.packet]);
    if constexpr (kCount) ++activity_->buffer_writes;
    buffer_flit<true>(iu, vc, f, in_port, v, t);
    if (route) vc_alloc_.routed_at(in_port, v, vc.fifo.front().ready);
    return;
  }
  if (f.head && vc.state == VirtualChannel::State::Idle && vc.fifo.empty()) {
    if constexpr (kPlain)
      route_header_plain(in_port, v, fabric_.pool[f.packet]);
    else
      route_header(in_port, v, fabric_.pool[f.packet]);
  }
  if constexpr (kCount) ++activity_->buffer_writes;
  buffer_flit<kStaged, kPlain>(iu, vc, f, in_port, v, t);
}

template <bool kCount, bool kStaged, bool kPlain>
void InputVcRouter::inject(Router* r, int in_port, int v, Flit f, Cycle t) {
  auto* self = static_cast<InputVcRouter*>(r);
  // (The plain paths: a body flit for an awake router, that does not eject there and is not
  // stored and forwarded, is buffered as buffer_flit() would (its ready time: the ideal
  // pipeline's delta after it, the staged pipeline's at once, or the route's hold), without
  // the header's work and the calls, so without saving the registers they need: most of an
  // NI's flits.)
  if constexpr (kPlain && !kCount) {
    InputUnit& iu = self->in_[in_port];
    VirtualChannel& vc = iu.vcs[v];
    if (!f.head && self->active && !self->saf_ && !vc.eject) {
      Flit& slot = vc.fifo.push_slot();
      slot = f;
      slot.ready = std::max(kStaged ? t : t + self->delta_, vc.hold);
      iu.nonempty |= std::uint64_t{1} << v;
      self->busy_in_ |= std::uint64_t{1} << in_port;
      return;
    }
    self->receive_out_of_line<kCount, kStaged, kPlain>(in_port, v, f, t);
    return;
  }
  self->receive<kCount, kStaged, kPlain>(in_port, v, f, t);
}

template <bool kCount, bool kStaged, bool kPlain>
void InputVcRouter::receive_out_of_line(int in_port, int v, Flit f, Cycle t) {
  receive<kCount, kStaged, kPlain>(in_port, v, f, t);
}
template void InputVcRouter::inject<false>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<true>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<false, true>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<true, true>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<false, false, true>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<true, false, true>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<false, true, true>(Router*, int, int, Flit, Cycle);
template void InputVcRouter::inject<true, true, true>(Router*, int, int, Flit, Cycle);

void InputVcRouter::accept_flit(int in_port, int v, Flit f, Cycle t) {
  if (counting_)
    receive<true>(in_port, v, f, t);
  else
    receive<false>(in_port, v, f, t);
}

void InputVcRouter::receive_delivery(int in_port, int v, Flit f, Cycle t) {
  if (!plain_staged_)
    accept_flit(in_port, v, f, t);
  else if (counting_)
    receive<true, true>(in_port, v, f, t);
  else
    receive<false, true>(in_port, v, f, t);
}

// The header of pk, in VC v of in_port, gets its route: an ejection output (staged pipeline), a
// routing algorithm's candidates, or dimension order / its source route's next hop.
// (plain_staged: the plain staged loop's caller tells the VC allocator, VcAllocator::routed_at.)
void InputVcRouter::route_header(int in_port, int v, Packet& pk, bool plain_staged) {
  VirtualChannel& vc = in_[in_port].vcs[v];
  const int from = is_injection(in_port) ? -1 : in_port;
  vc.hold = 0;
  vc.state = VirtualChannel::State::Routed;
  if (staged_ && !plain_staged) vc_alloc_.routed(in_port, v);
  if (staged_ && delivered_here(pk.dst) && pk.mid < 0) {
    // Through an ejection output of the terminal, allocated like any other (any of its VCs).
    const int P = fabric_.topo.num_ports() + (pk.dst - terminal_) * ejection_ports_;
    vc.out_port = P;
    vc.vc_lo = 0;
    vc.vc_hi = static_cast<int>(inputs_[in_port].vcs.size());
    vc.ncand = 0;
    if (ejection_ports_ > 1) {
      if (static_cast<int>(vc.x().cand.size()) < ejection_ports_)
        vc.x().cand.resize(static_cast<std::size_t>(ejection_ports_));
      for (int e = 0; e < ejection_ports_; ++e) vc.x().cand[e] = {P + e, vc.vc_lo, vc.vc_hi};
      vc.ncand = ejection_ports_;
      vc.escape_last = false;
    }
  } else if (algo_ && pk.route < 0) {
    // A routing algorithm: its candidates; the switch allocator selects among them.
    const auto queue = [this](int port) {  // flits held in the output's downstream VCs
      const OutputUnit& ou = outputs_[port];
      long q = 0;
      for (int v = 0; v < ou.num_vcs(); ++v) q += ou.depth - ou.vc(v).credits;
      return q;
    };
    if (from < 0 && algo_->decides_at_source()) algo_->at_source(node_, pk, queue);
    if (static_cast<int>(vc.x().cand.size()) < algo_->candidate_capacity())
      vc.x().cand.resize(static_cast<std::size_t>(algo_->candidate_capacity()));
    vc.ncand = algo_->candidates(node_, from, v, pk, vc.x().cand.data());
    if (algo_->selects_once() && vc.ncand > 1) {
      // Chosen now, once per hop: the candidate with the fewest flits downstream (ties: the
      // first), as BookSim2's route functions choose.
      Candidate* cand = vc.x().cand.data();
      cand[0] = cand[least_loaded(cand, vc.ncand, queue)];
      vc.ncand = 1;
    }
    vc.escape_last = algo_->has_escape();
    vc.out_port = vc.x().cand[0].port;
    vc.vc_lo = vc.x().cand[0].vc_lo;
    vc.vc_hi = vc.x().cand[0].vc_hi;
  } else {
    // A source route (dimension-ordered: checked by the NI) takes the VC classes of its hop.
    const Fabric::RouteHop* hop = take_route_hop(pk);
    const Route r = hop ? fabric_.routing.route_via(node_, from, v, hop->port)
                        : fabric_.routing.route(node_, from, v, pk.dst);
    vc.hold = hop ? hop->not_before : 0;
    vc.out_port = r.port;
    vc.vc_lo = r.vc_lo;
    vc.vc_hi = r.vc_hi;
  }
}

// route_header() in the plain staged loop: the common cases inline (an ejection output when
// the terminal has one, dimension order without a source route), the others out of line.
[[gnu::always_inline]] inline void InputVcRouter::route_header_plain_staged(int in_port, int v,
                                                                            Packet& pk) {
  if (algo_ || pk.route >= 0 || ejection_ports_ > 1) {
    route_header(in_port, v, pk, true);
    return;
  }
  InputUnit& iu = in_[in_port];
  VirtualChannel& vc = iu.vcs[v];
  vc.hold = 0;
  vc.state = VirtualChannel::State::Routed;
  if (delivered_here(pk.dst) && pk.mid < 0) {
    vc.out_port = fabric_.topo.num_ports() + (pk.dst - terminal_);
    vc.vc_lo = 0;
    vc.vc_hi = static_cast<int>(iu.vcs.size());
    vc.ncand = 0;
    return;
  }
  const Route r = fabric_.routing.route(node_, is_injection(in_port) ? -1 : in_port, v, pk.dst);
  vc.out_port = r.port;
  vc.vc_lo = r.vc_lo;
  vc.vc_hi = r.vc_hi;
}

// route_header() on the plain ideal path: dimension order without a source route inline (about
// 75 instructions a header out of line), the others out of line.
[[gnu::always_inline]] inline void InputVcRouter::route_header_plain(int in_port, int v,
                                                                     Packet& pk) {
  if (algo_ || pk.route >= 0) {
    route_header(in_port, v, pk);
    return;
  }
  VirtualChannel& vc = in_[in_port].vcs[v];
  vc.hold = 0;
  vc.state = VirtualChannel::State::Routed;
  const Route r = fabric_.routing.route(node_, is_injection(in_port) ? -1 : in_port, v, pk.dst);
  vc.out_port = r.port;
  vc.vc_lo = r.vc_lo;
  vc.vc_hi = r.vc_hi;
}

// The flit goes into its VC; the router has work (this same cycle if delta = 0).
template <bool kStaged, bool kPlain>
[[gnu::always_inline]] inline void InputVcRouter::buffer_flit(InputUnit& iu, VirtualChannel& vc,
                                                              const Flit& f, int in_port, int v,
                                                              Cycle t) {
  // (The ideal cut-through pipeline's ready time inline: it is every flit's; kStaged: the
  // staged pipeline's, ready_time() without store-and-forward, inline in its own loop.)
  Cycle ready;
  if constexpr (kStaged)
    ready = saf_ ? ready_time(f, in_port, vc, t) : std::max(t + (f.head ? delta_ : 0), vc.hold);
  else
    ready = simple_ready_ ? std::max(t + delta_, vc.hold) : ready_time(f, in_port, vc, t);
  Flit& slot = vc.fifo.push_slot();  // (written in place: the flit is not copied again)
  slot = f;
  slot.ready = ready;
  iu.nonempty |= std::uint64_t{1} << v;
  busy_in_ |= std::uint64_t{1} << in_port;
  wake<!kStaged>();  // (the staged pipeline's routers are seldom asleep: its branch predicts)
  // (delta 0: a flit may leave in the cycle it arrives, so a router evaluated before it came runs
  // again. Never in the staged pipeline: a flit from a router arrives at least sa cycles after it
  // left, and an NI injects before the routers' evaluations, so a router evaluates once a cycle
  // there; a second evaluation would be a second switch and VC allocation in the cycle, an input
  // sending two flits at once.)
  if (!kStaged && !kPlain && delta_ == 0 && !staged_ && !again_queued) {
    again_queued = true;
    fabric_.again.push_back(this);
  }
}

// Earliest cycle a flit that begins to arrive at t may leave (the router pipeline, delta);
// store-and-forward holds the header until the tail has been received (tail start + tau); a
// source route's not-before holds the header until then.
Cycle InputVcRouter::ready_time(const Flit& f, int in_port, VirtualChannel& vc, Cycle t) {
  // (Staged pipeline: a body flit only needs switch allocation, as soon as it is in.)
  const Cycle lag = staged_ && !f.head ? 0 : delta_;
  Cycle ready = std::max(t + lag, vc.hold);  // hold: 0 unless the packet has a route
  if (saf_ && !is_injection(in_port)) {
    if (f.head && !f.tail) ready = kNever;
    if (f.tail) {
      const Cycle r = std::max(t + tau_ + delta_, vc.hold);
      if (f.head) {
        ready = r;
      } else {
        vc.fifo.front().ready = r;
        if (staged_) vc_alloc_.ready_at(r);  // (a waiting header's ready time fell)
      }
    }
  }
  return ready;
}

// A flit of a broadcast copy. Its header asks the replication rule for the tree's children
// here: none (a leaf, the flits are consumed as they arrive, like an ejection), or one branch
// per child port, each with the VC class of its hop (the rule's two classes, STAR's rotation
// classes: lower half of the VCs before the rotation wraps past the last dimension, upper half
// after) and the scheme's priority class.
void InputVcRouter::accept_broadcast_flit(int in_port, int v, Flit f, Cycle t) {
  InputUnit& iu = inputs_[in_port];
  VirtualChannel& vc = iu.vcs[v];
  const Packet& pk = fabric_.pool[f.packet];
  const bool source = is_injection(in_port);
  if (f.head) {
    BroadcastRecord& b = fabric_.broadcasts[static_cast<std::size_t>(pk.bcast)];
    const int n = fabric_.replication->children(node_, b.src, b.ending_dim, in_port,
                                                children_.data(), b.antipode_dir);
    b.transmissions += n;
    vc.hold = 0;
    vc.sink = n == 0;
    vc.multicast = n > 0;
    vc.nbranch = n;
    vc.x().popped = 0;
    vc.x().flits = static_cast<std::uint32_t>(pk.flits);
    // VC groups of the broadcast VCs: with 4 or more, (rotation class, dateline) as 2c + w,
    // where w says the copy has crossed the wraparound link of the ring it travels on (the
    // dateline classes of unicast routing); with 2 or 3, the rotation class only.
    const int Vb = plan_.bcast;
    const int g = Vb >= 4 ? Vb / 4 : Vb >= 2 ? Vb / 2 : Vb;
    const int in_dim = source ? -1 : fabric_.topo.port(in_port).dim;
    const bool in_wrapped = Vb >= 4 && !source && (v / g) % 2 == 1;
    for (int k = 0; k < n; ++k) {
      VirtualChannel::Branch& br = vc.x().branches[k];
      br.port = children_[k];
      const int cls = fabric_.replication->vc_class(b.ending_dim, br.port);
      int group = 0;
      if (Vb >= 4) {
        const bool same_ring = fabric_.topo.port(br.port).dim == in_dim;
        const bool w = (same_ring && in_wrapped) || fabric_.topo.is_wrap_hop(node_, br.port);
        group = 2 * cls + (w ? 1 : 0);
      } else if (Vb >= 2) {
        group = cls;
      }
      br.vc_lo = group * g;
      br.vc_hi = Vb >= 4 && group == 3             ? Vb
                 : Vb >= 2 && Vb < 4 && group == 1 ? Vb
                                                   : (group + 1) * g;
      br.out_vc = -1;
      br.sent = 0;
      br.cls = static_cast<std::uint8_t>(
          bcast_.hop_class(true, fabric_.replication->low_priority(b.ending_dim, br.port)));
    }
  }
  // The node has the copy when its tail is in (tail start + tau). The last reception of a
  // broadcast always happens at a leaf, so the shared packet may be released then.
  const bool sink = vc.sink;
  if (!source && f.tail) nis_[0]->receive_broadcast_at(f.packet, t + tau_, /*release_packet=*/true);
  if (counting_) ++(sink ? activity_->ejected : activity_->buffer_writes);
  if (sink) {
    fabric_.credit(iu.upstream, v);
    --fabric_.flits_in_network;
    fabric_.last_progress = t;
    if (f.tail) vc.sink = false;
    return;
  }
  buffer_flit(iu, vc, f, in_port, v, t);
}

// The flit crosses the crossbar onto the link of ou, the granted output: counters, waves,
// utilization. (kLanes: threads, the counters are the lane's; kProbe: this router may have a
// probe.)
template <bool kLanes, bool kProbe>
[[gnu::always_inline]] inline void InputVcRouter::traverse(const SwitchGrant& gr, OutputUnit& ou,
                                                           const Flit& f, const Pass& s) {
  if constexpr (kLanes) {
    s.ln->max_flit_wait = std::max(s.ln->max_flit_wait, s.t - f.ready);
    ++s.ln->flit_hops;
    s.ln->progress = std::max(s.ln->progress, s.t);
  } else if constexpr (!kProbe) {  // (the plain path: its loop's tally, flush())
    s.tally->max_wait = std::max(s.tally->max_wait, s.t - f.ready);
    ++s.tally->hops;
  } else {
    fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, s.t - f.ready);
    ++fabric_.flit_hops;
    fabric_.last_progress = s.t;
  }
  ++ou.flits;  // (busy_window: the network's settle_link_window, from these counts)
  if (kProbe && probed_ && probe_->on) probe_->grant(gr.in_port, gr.vc, gr.out_port, f.packet);
}

// One flit of a replicated broadcast goes out on the granted branch; flits every branch has sent
// leave the buffer (credits go back upstream).
void InputVcRouter::send_branch(const SwitchGrant& gr, Cycle t, Lane* ln) {
  const Pass s{t, ln, in_, out_, false, nullptr};  // (its own: the caller's stays in registers)
  InputUnit& iu = inputs_[gr.in_port];
  VirtualChannel& vc = iu.vcs[gr.vc];
  VirtualChannel::Branch& br = vc.branch_to(gr.out_port);
  OutputUnit& ou = outputs_[gr.out_port];
  const Flit f = vc.fifo.at(br.sent - vc.x().popped);  // the flit this branch sends next
  if (br.out_vc < 0) {
    ou.take(gr.out_vc);
    br.out_vc = gr.out_vc;
    if (counting_) ++activity_->va;
  }
  if (counting_) ++activity_->crossbar;
  ou.consume(br.out_vc);
  ou.free_at = t + tau_;
  if (f.tail) ou.tail_sent(br.out_vc);
  ++br.sent;
  ++fabric_.flits_in_network;  // a new copy on the link
  if (s.ln)
    traverse<true, true>(gr, ou, f, s);
  else
    traverse<false, true>(gr, ou, f, s);
  // Flits every branch has sent leave the buffer.
  for (;;) {
    if (vc.x().popped >= vc.x().flits || vc.fifo.empty()) break;
    bool all = true;
    for (int k = 0; k < vc.nbranch && all; ++k) all = vc.x().branches[k].sent > vc.x().popped;
    if (!all) break;
    vc.fifo.pop();
    if (counting_) ++activity_->buffer_reads;
    ++vc.x().popped;
    popped(iu, gr.in_port, gr.vc);
    --fabric_.flits_in_network;
    fabric_.credit(iu.upstream, gr.vc);
  }
  if (vc.x().popped == vc.x().flits) {
    vc.multicast = false;
    vc.nbranch = 0;
  }
  ou.dst->accept_flit(ou.dst_port, br.out_vc, f, t);
}

void InputVcRouter::accept_packet(int, std::uint32_t, Cycle) {}

void InputVcRouter::set_probe(RouterProbe* p) {
  // (The plain paths' receive asks for no probe: waves.enable turns them off.)
  if (p && (plain_ || plain_staged_))
    throw std::logic_error("a probe on a router of the plain path (waves.enable is off)");
  Router::set_probe(p);
  alloc_.set_probe(p);
}

void InputVcRouter::sample(RouterProbe& p) const {
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    for (std::size_t v = 0; v < inputs_[i].vcs.size(); ++v) {
      const auto& fifo = inputs_[i].vcs[v].fifo;
      p.in[i].occ[v] = static_cast<unsigned>(fifo.size());
      if (p.follow_slot >= 0)  // (waves.packet: its flits here)
        for (std::size_t k = 0; k < fifo.size(); ++k)
          p.held += fifo.at(k).packet == static_cast<std::uint32_t>(p.follow_slot);
    }
  for (std::size_t o = 0; o < std::min(outputs_.size(), p.out.size()); ++o)
    for (int v = 0; v < outputs_[o].num_vcs(); ++v)
      p.out[o].credit[v] = static_cast<unsigned>(std::max(0, int{outputs_[o].vc(v).credits}));
}

// A header takes its output VC (VC allocation); a routing algorithm or a turn model keeps
// per-packet bookkeeping of the hop it starts (hop_taken).
[[gnu::always_inline]] inline void InputVcRouter::take_output_vc(int in_port, VirtualChannel& vc,
                                                                 int out_port, int out_vc,
                                                                 std::uint32_t packet) {
  out_[out_port].take(out_vc);
  vc.out_port = out_port;
  vc.out_vc = out_vc;
  vc.state = VirtualChannel::State::Active;
  vc.ncand = 0;
  if (algo_ || turns_ != TurnModel::None) hop_taken(in_port, out_port, fabric_.pool[packet]);
}

void InputVcRouter::hop_taken(int in_port, int out_port, Packet& pk) {
  if (out_port >= fabric_.topo.num_ports()) return;  // an ejection output: not a hop
  if (algo_) {  // (what only a routing algorithm reads: the packet is not touched otherwise)
    ++pk.hops;
    if (fabric_.topo.is_wrap_hop(node_, out_port))
      pk.wrapped |= 1u << fabric_.topo.port(out_port).dim;
  }
  if (turns_ != TurnModel::None &&
      !turn_allowed(turns_, fabric_.topo, node_, is_injection(in_port) ? -1 : in_port, out_port))
    ++(current_lane ? current_lane->forbidden_turns : fabric_.forbidden_turns);
}

// Staged pipeline: the VC allocator's grants; a header may bid for the switch va cycles later
// (speculatively, max(0, va - sa)).
void InputVcRouter::allocate_vcs(Cycle t) {
  if (!vc_alloc_.due(t)) return;  // (no header waits for an output VC, or none is ready)
  take_vc_grants(vc_alloc_.allocate(inputs_, outputs_, fabric_.pool, t, vc_grants_.data()), t);
}

// allocate_vcs() from the plain staged loop, which has found it due and tried the lone header.
void InputVcRouter::allocate_vcs_many(Cycle t) {
  take_vc_grants(vc_alloc_.allocate_many(inputs_, outputs_, fabric_.pool, t, vc_grants_.data()), t);
}

// The VC allocator's n grants (vc_grants_) taken.
[[gnu::always_inline]] inline void InputVcRouter::take_vc_grants(int n, Cycle t) {
  if (counting_) activity_->va += static_cast<std::uint64_t>(n);
  for (int g = 0; g < n; ++g) vc_granted(vc_grants_[g], in_, t);
}

// A header's VC grant: it holds its output VC and may bid for the switch va cycles later.
[[gnu::always_inline]] inline void InputVcRouter::vc_granted(const VcGrant& gr, InputUnit* in,
                                                             Cycle t) {
  VirtualChannel& vc = in[gr.in_port].vcs[gr.vc];
  Flit& head = vc.fifo.front();
  vc_alloc_.granted(gr.in_port, gr.vc);
  take_output_vc(gr.in_port, vc, gr.out_port, gr.out_vc, head.packet);
  head.ready = t + va_lag_;
}

// allocate_vcs() in the plain staged loop: one waiting header's allocation inline
// (VcAllocator::allocate_lone), the others' out of line.
[[gnu::always_inline]] inline void InputVcRouter::allocate_vcs_plain(const Pass& s) {
  if (!vc_alloc_.due(s.t)) return;
  VcGrant g;
  const int n = vc_alloc_.allocate_lone(s.in, s.out, s.t, g);
  if (n < 0) {
    allocate_vcs_many(s.t);
    return;
  }
  if (!n) return;
  if (counting_) ++activity_->va;
  vc_granted(g, s.in, s.t);
}

// Staged pipeline: a flit leaves through an ejection output; it begins to arrive at the NI after
// switch and channel traversal, and its ejection buffer slot is free credit_delay cycles later.
// (kInline: inline in the plain staged path's forward(), once per ejected flit; the general
// path calls it out of line, so that the ideal pipeline's loop, where the general path is
// inline too, keeps its code: inline there as well, it had cost that loop 25 instructions a
// cycle on 8x8.)
// (kPlain: the plain staged path, which has no probe and no output buffers, and counts in its
// loop's tally y.)
template <bool kInline, bool kPlain>
[[gnu::always_inline]] inline void InputVcRouter::eject(const SwitchGrant& gr, const Flit& f,
                                                        Cycle t, OutputUnit& ou, Tally* y) {
  if constexpr (!kInline) {
    eject_out_of_line(gr, f, t);
    return;
  }
  if constexpr (kPlain) {
    y->max_wait = std::max(y->max_wait, t - f.ready);
    y->ejected = true;
  } else {
    fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, t - f.ready);
    if (probe_ && probe_->on && gr.out_port < static_cast<int>(probe_->out.size()))
      probe_->grant(gr.in_port, gr.vc, gr.out_port, f.packet);
    fabric_.last_progress = t;
  }
  const Cycle arrival = (!kPlain && out_buffered_ ? alloc_.depart(gr.out_port, t) : t) + eject_lag_;
  nis_[eject_ni_[static_cast<std::size_t>(gr.out_port)]]->deliver_flit(f, arrival);
  fabric_.credit_at(&ou, gr.out_vc, t, arrival + eject_credit_delay_);
}

void InputVcRouter::eject_out_of_line(const SwitchGrant& gr, const Flit& f, Cycle t) {
  eject<true>(gr, f, t, outputs_[gr.out_port]);
}

// eject() on a lane (threads): the lane's counters; the NI takes the flit after the lane's sends,
// in the order one thread delivers (its key); the ejection buffer's credit through the lane's
// wheel (the output unit is this router's, on this lane).
template <bool kPlain>
[[gnu::always_inline]] inline void InputVcRouter::eject_lane(const SwitchGrant& gr, const Flit& f,
                                                             const Pass& s, OutputUnit& ou) {
  Lane& ln = *s.ln;
  const Cycle t = s.t;
  ln.max_flit_wait = std::max(ln.max_flit_wait, t - f.ready);
  ln.progress = std::max(ln.progress, t);
  const Cycle arrival = (!kPlain && out_buffered_ ? alloc_.depart(gr.out_port, t) : t) + eject_lag_;
  ln.ejections.push_back({ln.key_base | ln.sent++,
                          nis_[eject_ni_[static_cast<std::size_t>(gr.out_port)]], f, arrival});
  ln.credit_at(node_, &ou, gr.out_vc, t, arrival + eject_credit_delay_);
}

// A granted unicast flit leaves its VC: through the crossbar onto its output's link, or in the
// staged pipeline through an ejection output. (kPlain: granted by allocate_plain, so no probe
// here, and kStaged says whether the pipeline is staged; kLanes: threads, s.ln is the thread's
// lane. Inline in each caller.)
template <bool kPlain, bool kLanes, bool kStaged, bool kCount>
[[gnu::always_inline]] inline void InputVcRouter::forward(const SwitchGrant& gr, const Pass& s) {
  const Cycle t = s.t;
  InputUnit& iu = s.in[gr.in_port];
  VirtualChannel& vc = iu.vcs[gr.vc];
  OutputUnit& ou = s.out[gr.out_port];
  // (The lines this flit goes to, all at once rather than one after the other as the next
  // router's receive() reads them.)
  if (s.prefetch && ou.dst_input) prefetch_arrival(ou.dst, ou.dst_input, gr.out_vc);
  // (By reference: the popped slot keeps the flit until this VC takes another, after the next
  // router's receive has copied it; a copy here cost the stack three copies of it.)
  const Flit& f = vc.fifo.front();
  vc.fifo.pop();
  // (The ideal pipeline's VCs empty as often as not; the staged pipeline's seldom, and there the
  // branch is predicted and cheaper: measured, 8x8 and its staged row.)
  popped<!kStaged>(iu, gr.in_port, gr.vc);
  if constexpr (!kPlain) {  // (SWITCHYARD_HOP_LOG: the general path only, forced when it is on)
    if (fabric_.hop_log) {
      const bool out = gr.out_port >= fabric_.topo.num_ports();
      fabric_.log_hop(
          t + (out ? eject_lag_ : link_lag_ + (link_extra_.empty() ? 0 : link_extra_[gr.out_port])),
          node_, gr.out_port, gr.out_vc, f.packet, f.seq);
    }
  }
  if constexpr (kCount) {
    ++activity_->buffer_reads;
    ++activity_->crossbar;
  }
  // (The plain staged path: its VC allocator has given the VC its output VC, may_send checked.)
  if (!(kPlain && kStaged) && vc.state != VirtualChannel::State::Active) {
    if constexpr (kCount) ++activity_->va;  // (the ideal pipeline's, folded in)
    take_output_vc(gr.in_port, vc, gr.out_port, gr.out_vc, f.packet);
  }
  OutputVc& ov = ou.vc<kPlain>(gr.out_vc);  // (plain: at most six VCs)
  ou.consume(ov);
  ou.free_at = t + tau_;
  if (f.tail) {
    ou.tail_sent(ov);
    vc.state = VirtualChannel::State::Idle;
    if (!vc.fifo.empty()) {
      // wait_for_tail_credit: false: the next packet's header is at the front now. The staged
      // pipeline's VC goes idle this cycle and the header's route computation starts the next
      // (as BookSim2's iq_router: _SWAllocUpdate queues it for routing after this cycle's
      // _RouteEvaluate): its VC allocation is rc + 1 cycles from now. (The ideal pipeline: delta.)
      Flit& h = vc.fifo.front();
      if constexpr (kPlain && kStaged)
        route_header_plain_staged(gr.in_port, gr.vc, fabric_.pool[h.packet]);
      else
        route_header(gr.in_port, gr.vc, fabric_.pool[h.packet]);
      h.ready = std::max({h.ready, vc.hold, t + delta_ + ((kPlain ? kStaged : staged_) ? 1 : 0)});
      if constexpr (kPlain && kStaged) vc_alloc_.routed_at(gr.in_port, gr.vc, h.ready);
    }
  }
  if constexpr (kLanes) {  // (threads: the lane takes it to the upstream unit's lane)
    if (kPlain ? kStaged : staged_)
      s.ln->credit_at(iu.upstream_node, iu.upstream, gr.vc, t, t + iu.credit_delay);
    else
      s.ln->credit(iu.upstream_node, iu.upstream, gr.vc);
  } else if (kPlain ? kStaged : staged_)
    fabric_.credit_after(iu.upstream, gr.vc, t, iu.credit_delay);
  else if (iu.credit_now)
    iu.upstream->credit<kPlain>(gr.vc);  // (its owner is done with this cycle: it sees it next)
  else
    fabric_.credit(iu.upstream, gr.vc);
  // (An ejection output: the plain staged path knows it by its lack of a link, read from the
  // unit's line, which the grant has just written, rather than the topology's port count.)
  if (kPlain && kStaged ? ou.dst == nullptr : !kPlain && gr.out_port >= fabric_.topo.num_ports()) {
    if constexpr (kLanes)
      eject_lane<kPlain>(gr, f, s, ou);
    else
      eject<kPlain, kPlain>(gr, f, t, ou, s.tally);
    return;
  }
  traverse<kLanes, !kPlain>(gr, ou, f, s);
  // (Output speedup: the flit waits in the output buffer for its turn on the link.)
  // (The plain ideal pipeline has no link lag: link_lag_ is 0 there.)
  Cycle at = (!kPlain && out_buffered_ ? alloc_.depart(gr.out_port, t) : t) +
             (kPlain && !kStaged ? 0 : link_lag_);
  // (The plain staged path has none: plain_staged_.)
  if (!kPlain && staged_ && !link_extra_.empty()) at += link_extra_[gr.out_port];
  if constexpr (kLanes) {
    // Threads: a router of this lane takes it at once, as on one thread; another lane's after
    // the parallel part (receive_delivery()). (The key orders what reaches the NIs as one thread
    // would.)
    Lane& ln = *s.ln;
    const std::uint64_t key = ln.key_base | ln.sent++;
    // (The node from the receiving router's line, which its receive reads anyway.)
    const int dst_node = ou.dst->node();
    if (dst_node >= ln.node_lo && dst_node < ln.node_hi) {
      ln.key = key;
      static_cast<InputVcRouter*>(ou.dst)->receive<kCount, kPlain && kStaged, kPlain>(
          ou.dst_port, gr.out_vc, f, at);
    } else {
      ln.deliveries_to[ln.lane_of(dst_node)].push_back(
          {ou.dst, ou.dst_port, gr.out_vc, f, at, ou.dst_input, key});
    }
  } else {  // (an InputVcRouter downstream: a direct call)
    // (A mixed network, router.rtl_nodes: a Verilated router downstream, which the link does
    // not know as an input unit; only the general path runs there.)
    if constexpr (!kPlain)
      if (__builtin_expect(ou.dst_input == nullptr, 0)) {
        ou.dst->accept_flit(ou.dst_port, gr.out_vc, f, at);
        return;
      }
    static_cast<InputVcRouter*>(ou.dst)->receive<kCount, kPlain && kStaged, kPlain>(
        ou.dst_port, gr.out_vc, f, at);
  }
}

template <bool kLanes, bool kCount>
[[gnu::always_inline]] inline bool InputVcRouter::evaluate_with(Cycle t, Lane* ln, bool prefetch,
                                                                Tally& tally) {
  Pass s{t, ln, in_, out_, prefetch, &tally};
  if constexpr (kCount) count_cycle(t);
  if (plain_) {  // (no probe there: waves.enable turns the plain path off, set_probe)
    alloc_.allocate_plain<false, kCount>(
        s.in, s.out, t, busy_in_, kCount ? activity_ : nullptr,
        [ this, &s ](const SwitchGrant& gr)
            __attribute__((always_inline)) { forward<true, kLanes, false, kCount>(gr, s); });
  } else {
    evaluate_general<kLanes, kCount>(s);
  }
  return busy_in_ != 0;
}

// The staged pipeline with a plain switch allocator: its VC allocation, then the plain switch
// allocation. (Inline in its own loop, evaluate_words_plain_staged: the ideal pipeline's loop
// keeps its shape. kLanes: threads, s.ln is the thread's lane.)
template <bool kLanes, bool kCount>
[[gnu::always_inline]] inline void InputVcRouter::evaluate_plain_staged(const Pass& s) {
  if constexpr (kCount) count_cycle(s.t);
  allocate_vcs_plain(s);
  alloc_.allocate_plain<true, kCount>(
      s.in, s.out, s.t, busy_in_, kCount ? activity_ : nullptr,
      [ this, &s ](const SwitchGrant& gr)
          __attribute__((always_inline)) { forward<true, kLanes, true, kCount>(gr, s); });
}

template <bool kLanes, bool kCount>
[[gnu::always_inline]] inline void InputVcRouter::evaluate_general(const Pass& s) {
  const Cycle t = s.t;
  if (staged_) allocate_vcs(t);
  std::uint64_t busy = busy_in_;
  if (same_cycle_) {
    if (sent_t_ != t) sent_in_ = 0;
    sent_t_ = t;
    busy &= ~sent_in_;
  }
  const int n = alloc_.allocate(inputs_, outputs_, fabric_.pool, t, grants_.data(), busy);
  if (same_cycle_)
    for (int g = 0; g < n; ++g) sent_in_ |= std::uint64_t{1} << grants_[g].in_port;
  if (knobs_) {  // (the staged pipeline's unicast flits: the hold follows each grant)
    for (int g = 0; g < n; ++g) {
      const SwitchGrant& gr = grants_[g];
      VirtualChannel& vc = inputs_[gr.in_port].vcs[gr.vc];
      const bool tail = vc.fifo.front().tail;
      forward<false, kLanes, false, kCount>(gr, s);
      alloc_.after_grant(gr, vc, tail, t);
    }
    return;
  }
  for (int g = 0; g < n; ++g) {
    const SwitchGrant& gr = grants_[g];
    if (inputs_[gr.in_port].vcs[gr.vc].multicast)
      send_branch(gr, s.t, s.ln);
    else
      forward<false, kLanes, false, kCount>(gr, s);
  }
}

bool InputVcRouter::evaluate(Cycle t) {
  if (!busy_in_) return false;
  Lane* const ln = current_lane;
  Tally y;
  bool busy;
  if (counting_)
    busy = ln ? evaluate_with<true, true>(t, ln, false, y)
              : evaluate_with<false, true>(t, nullptr, false, y);
  else
    busy = ln ? evaluate_with<true, false>(t, ln, false, y)
              : evaluate_with<false, false>(t, nullptr, false, y);
  flush(y, t);
  return busy;
}

std::size_t InputVcRouter::evaluate_words(Router* const* routers, std::uint64_t* bits,
                                          std::size_t w0, std::size_t w1, Cycle t, bool prefetch) {
  // (The staged pipeline with a plain switch allocator, a config-wide choice: a loop of its own,
  // so that the ideal pipeline's stays as it is; on the lanes too.)
  // (Power on, also config-wide: the loops that count.)
  const auto* r0 = static_cast<const InputVcRouter*>(routers[0]);
  if (r0->counting_) {
    if (r0->plain_staged_)
      return current_lane ? evaluate_words_plain_staged<true, true>(routers, bits, w0, w1, t)
                          : evaluate_words_plain_staged<false, true>(routers, bits, w0, w1, t);
    if (current_lane)
      return prefetch ? evaluate_words_with<true, true, true>(routers, bits, w0, w1, t)
                      : evaluate_words_with<true, false, true>(routers, bits, w0, w1, t);
    return prefetch ? evaluate_words_with<false, true, true>(routers, bits, w0, w1, t)
                    : evaluate_words_with<false, false, true>(routers, bits, w0, w1, t);
  }
  if (r0->plain_staged_)
    return current_lane ? evaluate_words_plain_staged<true, false>(routers, bits, w0, w1, t)
                        : evaluate_words_plain_staged<false, false>(routers, bits, w0, w1, t);
  if (current_lane)
    return prefetch ? evaluate_words_with<true, true, false>(routers, bits, w0, w1, t)
                    : evaluate_words_with<true, false, false>(routers, bits, w0, w1, t);
  return prefetch ? evaluate_words_with<false, true, false>(routers, bits, w0, w1, t)
                  : evaluate_words_with<false, false, false>(routers, bits, w0, w1, t);
}

template <bool kLanes, bool kCount>
std::size_t InputVcRouter::evaluate_words_plain_staged(Router* const* routers, std::uint64_t* bits,
                                                       std::size_t w0, std::size_t w1, Cycle t) {
  std::size_t idle = 0;
  Tally y;
  // (One pass for the loop, each router's units set in it: what does not change is stored once;
  // measured: 31 instructions fewer a staged 8x8 cycle than a pass made per router.)
  Pass s{t, kLanes ? current_lane : nullptr, nullptr, nullptr, false, &y};
  for (std::size_t w = w0; w < w1; ++w)
    for (std::uint64_t m = bits[w]; m; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      auto* r = static_cast<InputVcRouter*>(routers[w * 64 + static_cast<std::size_t>(i)]);
      // (No probe here: waves.enable turns the plain paths off, set_probe.)
      s.in = r->in_;
      s.out = r->out_;
      if (r->busy_in_) r->evaluate_plain_staged<kLanes, kCount>(s);
      if (!r->busy_in_) {
        r->active = false;
        bits[w] &= ~(std::uint64_t{1} << i);
        ++idle;
      }
    }
  static_cast<InputVcRouter*>(routers[0])->flush(y, t);  // (the routers share one fabric)
  return idle;
}

// (One loop per kind of caller, each with only its own evaluation inline: threads or not, with
// the prefetch or without.)
template <bool kLanes, bool kPrefetch, bool kCount>
std::size_t InputVcRouter::evaluate_words_with(Router* const* routers, std::uint64_t* bits,
                                               std::size_t w0, std::size_t w1, Cycle t) {
  std::size_t idle = 0;
  Lane* const ln = kLanes ? current_lane : nullptr;
  Tally y;
  for (std::size_t w = w0; w < w1; ++w)
    for (std::uint64_t m = bits[w]; m; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      auto* r = static_cast<InputVcRouter*>(routers[w * 64 + static_cast<std::size_t>(i)]);
      // (The next active router's lines are fetched while this one runs.)
      if (const std::uint64_t next = m & (m - 1); kPrefetch && next)
        static_cast<const InputVcRouter*>(
            routers[w * 64 + static_cast<std::size_t>(__builtin_ctzll(next))])
            ->prefetch();
      const bool busy = r->busy_in_ && r->evaluate_with<kLanes, kCount>(t, ln, kPrefetch, y);
      if (!busy) {
        r->active = false;
        bits[w] &= ~(std::uint64_t{1} << i);
        ++idle;
      }
    }
  static_cast<InputVcRouter*>(routers[0])->flush(y, t);  // (the routers share one fabric)
  return idle;
}

}  // namespace sy
