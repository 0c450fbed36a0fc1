#include "input_vc_router.hpp"

#include <algorithm>

#include "network_interface.hpp"
#include "stats.hpp"
#include "waves.hpp"

namespace sy {

InputVcRouter::InputVcRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                             NetworkInterface& ni)
    : Router(name, node, fabric, ni),
      alloc_(fabric.topo.num_ports() + 1, fabric.topo.num_ports(), fabric.cfg.router.vcs,
             fabric.cfg.router.priority_classes, fabric.cfg.router.arbitration),
      xbar_(fabric.topo.num_ports()),
      grants_(fabric.topo.num_ports() + 1),
      delta_(fabric.cfg.timing.delta),
      tau_(fabric.cfg.timing.tau),
      saf_(fabric.cfg.router.switching == Switching::StoreAndForward) {
  const RouterConfig& rc = fabric.cfg.router;
  for (int p = 0; p <= fabric.topo.num_ports(); ++p)
    inputs_.emplace_back(rc.vcs, rc.vc_depth, rc.priority_classes, rc.arbitration);
  for (auto& o : outputs_) o = OutputUnit(rc.vcs, rc.vc_depth);
}

void InputVcRouter::accept_flit(int in_port, int v, Flit f, Cycle t) {
  InputUnit& iu = inputs_[in_port];
  const Packet& pk = fabric_.pool[f.packet];
  if (probe_ && probe_->on) probe_->flit_in(in_port, v, f.packet, f.head, f.tail);
  if (pk.dst == node_) {  // ejection: straight to the NI, the buffer slot is free again
    fabric_.credit(iu.upstream, v);
    ni_.deliver_flit(f, t);
    return;
  }
  VirtualChannel& vc = iu.vcs[v];
  if (f.head) {
    const Route r = fabric_.routing.route(node_, in_port == injection_port() ? -1 : in_port, v,
                                          pk.dst);
    vc.state = VirtualChannel::State::Routed;
    vc.out_port = r.port;
    vc.vc_lo = r.vc_lo;
    vc.vc_hi = r.vc_hi;
  }
  f.ready = t + delta_;
  if (saf_ && in_port != injection_port()) {
    // Store-and-forward: the header waits until the tail has been received (tail start + tau).
    if (f.head && !f.tail) f.ready = kNever;
    if (f.tail) {
      const Cycle r = t + tau_ + delta_;
      if (f.head) f.ready = r;
      else vc.fifo.front().ready = r;
    }
  }
  vc.fifo.push(f);
  ++iu.buffered;
  ++buffered_;
  wake();
  if (delta_ == 0 && !again_queued) {
    again_queued = true;
    fabric_.again.push_back(this);
  }
}

void InputVcRouter::accept_packet(int, std::uint32_t, Cycle) {}

void InputVcRouter::set_probe(RouterProbe* p) {
  probe_ = p;
  alloc_.set_probe(p);
}

void InputVcRouter::sample(RouterProbe& p) const {
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    for (std::size_t v = 0; v < inputs_[i].vcs.size(); ++v)
      p.in[i].occ[v] = static_cast<unsigned>(inputs_[i].vcs[v].fifo.size());
  for (std::size_t o = 0; o < outputs_.size(); ++o)
    for (std::size_t v = 0; v < outputs_[o].vcs.size(); ++v)
      p.out[o].credit[v] = static_cast<unsigned>(std::max(0, outputs_[o].vcs[v].credits));
}

bool InputVcRouter::evaluate(Cycle t) {
  if (!buffered_) return false;
  const int n = alloc_.allocate(inputs_, outputs_, fabric_.pool, t, grants_.data());
  for (int g = 0; g < n; ++g) {
    const SwitchGrant& gr = grants_[g];
    InputUnit& iu = inputs_[gr.in_port];
    VirtualChannel& vc = iu.vcs[gr.vc];
    OutputUnit& ou = outputs_[gr.out_port];
    Flit f = vc.fifo.front();
    vc.fifo.pop();
    --iu.buffered;
    --buffered_;
    if (vc.state != VirtualChannel::State::Active) {
      ou.take(gr.out_vc);
      vc.out_vc = gr.out_vc;
      vc.state = VirtualChannel::State::Active;
    }
    ou.consume(gr.out_vc);
    ou.free_at = t + tau_;
    if (f.tail) {
      ou.vcs[gr.out_vc].tail_sent = true;
      vc.state = VirtualChannel::State::Idle;
    }
    fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, t - f.ready);
    fabric_.credit(iu.upstream, gr.vc);
    xbar_.connect(gr.in_port, gr.out_port, t);
    if (probe_ && probe_->on) probe_->grant(gr.in_port, gr.vc, gr.out_port);
    Link& l = *ou.link;
    ++l.flits;
    ++fabric_.flit_hops;
    fabric_.last_progress = t;
    if (fabric_.stats.in_window(t)) l.busy_window += tau_;
    l.dst->accept_flit(l.dst_port, gr.out_vc, f, t);
  }
  return buffered_ > 0;
}

}  // namespace sy
