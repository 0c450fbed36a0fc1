#include "network_interface.hpp"

#include <algorithm>

#include "router.hpp"
#include "stats.hpp"

namespace sy {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, int node, Fabric& fabric)
    : sc_core::sc_module(name),
      node_(node),
      fabric_(fabric),
      inj_(fabric.cfg.router.vcs, fabric.cfg.router.vc_depth),
      oq_(fabric.cfg.router.buffering == Buffering::OutputQueued),
      alpha_(fabric.cfg.timing.alpha),
      tau_(fabric.cfg.timing.tau),
      max_packet_(fabric.cfg.traffic.max_packet_flits) {}

void NetworkInterface::attach(Router* router) {
  router_ = router;
  inj_link_.src_node = inj_link_.dst_node = node_;
  inj_link_.dst_port = router->injection_port();
  inj_link_.dst = router;
  inj_.link = &inj_link_;
  router->connect_upstream(router->injection_port(), &inj_);
}

void NetworkInterface::send(int dst, int flits, int priority, Cycle t, bool measured,
                            std::uint32_t message) {
  const int per = max_packet_ > 0 ? max_packet_ : flits;
  for (int done = 0; done < flits; done += per) {
    const std::uint32_t id = fabric_.pool.allocate();
    Packet& p = fabric_.pool[id];
    p.src = node_;
    p.dst = dst;
    p.flits = std::min(per, flits - done);
    p.priority = priority;
    p.created = t;
    p.measured = measured;
    p.message = message;
    p.first_of_message = done == 0;
    p.last_of_message = done + per >= flits;
    fabric_.stats.on_created(p, t);
    queue_.push(id);
  }
}

bool NetworkInterface::step(Cycle t) {
  if (cur_ < 0) {
    if (queue_.empty()) return false;
    if (inj_.free_at > t) return true;
    cur_ = queue_.front();
    queue_.pop();
    seq_ = 0;
    vc_ = -1;
    next_ = t + (fabric_.pool[cur_].first_of_message ? alpha_ : 0);
  }
  if (next_ > t) return true;
  const std::uint32_t id = static_cast<std::uint32_t>(cur_);
  Packet& p = fabric_.pool[id];
  if (oq_) {
    p.injected = t;
    inj_.free_at = t + static_cast<Cycle>(p.flits) * tau_;
    inj_link_.flits += p.flits;
    fabric_.flits_in_network += p.flits;
    fabric_.stats.on_injected(p.flits);
    fabric_.last_progress = t;
    cur_ = -1;
    router_->accept_packet(router_->injection_port(), id, t);
    return true;
  }
  if (vc_ < 0) {
    vc_ = inj_.find_free(0, static_cast<int>(inj_.vcs.size()));
    if (vc_ < 0) return true;
    inj_.take(vc_);
  }
  if (inj_.vcs[vc_].credits <= 0) return true;
  Flit f;
  f.packet = id;
  f.seq = seq_;
  f.head = seq_ == 0;
  f.tail = seq_ + 1 == static_cast<std::uint32_t>(p.flits);
  if (f.head) p.injected = t;
  inj_.consume(vc_);
  inj_.free_at = next_ = t + tau_;
  ++inj_link_.flits;
  ++fabric_.flits_in_network;
  fabric_.stats.on_injected(1);
  fabric_.last_progress = t;
  ++seq_;
  const int vc = vc_;
  if (f.tail) {
    inj_.vcs[vc_].tail_sent = true;
    cur_ = -1;
  }
  router_->accept_flit(router_->injection_port(), vc, f, t);
  return true;
}

void NetworkInterface::deliver_flit(const Flit& f, Cycle t) {
  Packet& p = fabric_.pool[f.packet];
  if (f.seq != p.received || p.dst != node_) fabric_.stats.on_order_error();
  ++p.received;
  --fabric_.flits_in_network;
  fabric_.last_progress = t;
  // A flit that begins to arrive at cycle t has been received at t + tau.
  fabric_.stats.on_flits_delivered(1, t + tau_);
  if (f.tail) finish_packet(f.packet, t + tau_);
}

void NetworkInterface::deliver_packet(std::uint32_t id, Cycle t) {
  Packet& p = fabric_.pool[id];
  p.received = p.flits;
  fabric_.flits_in_network -= p.flits;
  fabric_.last_progress = t;
  // Head begins to arrive at t; the last of the L flits has been received at t + L*tau.
  const Cycle done = t + static_cast<Cycle>(p.flits) * tau_;
  fabric_.stats.on_flits_delivered(p.flits, done);
  finish_packet(id, done);
}

void NetworkInterface::finish_packet(std::uint32_t id, Cycle delivered) {
  Packet& p = fabric_.pool[id];
  p.delivered = delivered;
  if (p.received != static_cast<std::uint32_t>(p.flits)) fabric_.stats.on_order_error();
  fabric_.stats.on_delivered(p);
  fabric_.pool.release(id);
}

}  // namespace sy
