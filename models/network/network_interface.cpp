#include "switchyard/network/network_interface.hpp"

#include <algorithm>
#include <cstring>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/injection_gate.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/router/replication_rule.hpp"
#include "switchyard/router/router.hpp"
#include "switchyard/router/routing_unit.hpp"

namespace sy {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, int node, Fabric& fabric)
    : sc_core::sc_module(name),
      target("target"),
      rx("rx"),
      node_(node),
      fabric_(fabric),
      channels_(static_cast<std::size_t>(fabric.cfg.interface.injection_channels)),
      oq_(fabric.cfg.router.buffering == Buffering::OutputQueued),
      circuit_(fabric.cfg.router.buffering == Buffering::Circuit),
      all_port_(fabric.cfg.interface.injection == Injection::AllPort),
      self_local_(fabric.cfg.traffic.self == SelfTraffic::DeliverLocally),
      alpha_(fabric.cfg.timing.alpha),
      tau_(fabric.cfg.timing.tau),
      max_packet_(fabric.cfg.traffic.max_packet_flits),
      flit_bytes_(fabric.cfg.interface.flit_bytes),
      inject_lt_(fabric.cfg.router.pipeline.staged ? fabric.cfg.router.pipeline.ni_lt : 0),
      rng_(fabric.cfg.simulation.seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(node) +
           0x5eed),
      rx_ext_(new NocExtension) {
  for (Channel& ch : channels_) {
    ch.out = OutputUnit(fabric.cfg.router.vcs, fabric.cfg.router.vc_depth);
    ch.out.free_on_tail = !fabric.cfg.router.wait_for_tail_credit;
    ch.round_robin = fabric.cfg.router.vc_request_all_free;
  }
  target.register_b_transport(this, &NetworkInterface::b_transport);
  rx_gp_.set_extension(rx_ext_);
}

void NetworkInterface::refresh_sink() {
  sink_ = router_->flit_sink();
}

void NetworkInterface::attach(Router* router) {
  router_ = router;
  sink_ = router->flit_sink();
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    Channel& ch = channels_[c];
    // Input-VC routers have one injection port per channel and terminal (the terminal's group
    // of ports under concentration); packet-level routers take every channel's packets at their
    // single injection port.
    const int port = oq_ || circuit_ ? router->injection_port()
                                     : router->injection_port(static_cast<int>(c),
                                                              fabric_.topo.injection_index(node_));
    ch.out.link.src_node = ch.out.link.dst_node = node_;
    ch.out.dst_port = static_cast<std::int8_t>(port);
    ch.out.dst = router;
    router->connect_upstream(port, &ch.out, /*evaluated_before=*/true);
  }
}

void NetworkInterface::sample(NiProbe& p) const {
  p.packets = static_cast<unsigned>(queue_.size());
  p.flits = 0;
  for (std::size_t k = 0; k < queue_.size(); ++k)
    p.flits += static_cast<unsigned>(fabric_.pool[queue_.at(k)].flits);
  long head = -1;  // the packet being injected (the first channel's), else the next waiting
  for (const Channel& ch : channels_) {
    if (ch.cur < 0) continue;
    ++p.packets;
    p.flits +=
        static_cast<unsigned>(fabric_.pool[static_cast<std::uint32_t>(ch.cur)].flits) - ch.seq;
    if (head < 0) head = ch.cur;
  }
  if (head < 0 && !queue_.empty()) head = queue_.front();
  p.head_on = head >= 0;
  if (p.head_on) p.head = fabric_.pool.serial(static_cast<std::uint32_t>(head));
}

bool NetworkInterface::holds(std::uint32_t slot) const {
  for (const Channel& ch : channels_)
    if (ch.cur == static_cast<long>(slot)) return true;
  for (std::size_t k = 0; k < queue_.size(); ++k)
    if (queue_.at(k) == slot) return true;
  return false;
}

std::size_t NetworkInterface::backlog() const {
  std::size_t b = queue_.size();
  for (const Channel& ch : channels_) b += ch.cur >= 0;
  return b;
}

// ---- Requests (the target socket) ----

void NetworkInterface::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  // Loosely timed: the request happens at the initiator's local time, now + delay. The call is
  // posted, so the delay is returned unchanged.
  // A delay beyond the end of simulated time would wrap to the past: refused.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  static const sc_core::sc_time max_time = sc_core::sc_max_time();  // (a constant: kept)
  const tlm::tlm_response_status s = delay > max_time - now ? tlm::TLM_GENERIC_ERROR_RESPONSE
                                                            : request(gp, cycle_ceil(now + delay));
  if (s != tlm::TLM_OK_RESPONSE) ++rejected_;
  gp.set_response_status(s);
  gp.set_dmi_allowed(false);
}

tlm::tlm_response_status NetworkInterface::request(tlm::tlm_generic_payload& gp, Cycle at) {
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
  if (gp.get_command() != tlm::TLM_WRITE_COMMAND) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (gp.get_byte_enable_ptr()) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (at > kMaxRequestCycle) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  const unsigned len = gp.get_data_length();
  const unsigned sw = gp.get_streaming_width();
  if (sw != 0 && sw < len) return tlm::TLM_BURST_ERROR_RESPONSE;
  const int N = fabric_.topo.num_nodes();
  const NocExtension* ext = gp.get_extension<NocExtension>();
  const int prio = ext ? ext->priority : 0;
  if (prio < 0 || prio >= fabric_.cfg.router.priority_classes)
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (ext &&
      (ext->traffic_class < 0 || ext->traffic_class >= fabric_.cfg.traffic.traffic_class_limit()))
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
  const std::uint64_t tag = ext ? ext->tag : 0;
  // Flits counted in 64 bits (a length near 2^32 must not wrap); beyond the documented maximum
  // message (config.hpp: kMaxMessageFlits) the request is refused.
  const std::uint64_t flits64 =
      len == 0 ? 1
               : (std::uint64_t{len} + static_cast<std::uint64_t>(flit_bytes_) - 1) /
                     static_cast<std::uint64_t>(flit_bytes_);
  if (flits64 > kMaxMessageFlits) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  const int flits = static_cast<int>(flits64);
  // A broadcast scheme replicates in the routers; otherwise several destinations are sent as
  // one message each (replicated at the source NI).
  if (ext && ext->broadcast && fabric_.broadcast_request) {
    fabric_.broadcast_request(node_, flits, at, fabric_.stats.in_window(at));
    return tlm::TLM_OK_RESPONSE;
  }
  if (ext && ext->broadcast && fabric_.cfg.traffic.broadcast.enabled()) {
    submit(-1, flits, prio, at, gp, tag);
    return tlm::TLM_OK_RESPONSE;
  }
  if (ext && ext->broadcast) {
    for (int d = 0; d < N; ++d)
      if (d != node_) submit(d, flits, prio, at, gp, tag);
    return tlm::TLM_OK_RESPONSE;
  }
  if (ext && !ext->multicast.empty()) {
    for (int d : ext->multicast)
      if (d < 0 || d >= N) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    for (int d : ext->multicast) submit(d, flits, prio, at, gp, tag);
    return tlm::TLM_OK_RESPONSE;
  }
  if (gp.get_address() >= static_cast<sc_dt::uint64>(N)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  const int dst = static_cast<int>(gp.get_address());
  if (ext && !ext->route.empty()) {
    // A source route: every hop must exist and the walk end at dst; input-VC routers take only
    // routes their dateline VC classes keep deadlock free.
    int node = node_;
    route_ports_.clear();
    for (const NocExtension::Hop& h : ext->route) {
      if (h.dim < 0 || h.dim >= fabric_.topo.num_dims()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
      const int port = fabric_.topo.port_of(h.dim, h.dir);
      if (port < 0 || fabric_.topo.neighbor(node, port) < 0) return tlm::TLM_GENERIC_ERROR_RESPONSE;
      route_ports_.push_back(port);
      node = fabric_.topo.neighbor(node, port);
    }
    if (node != dst) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (fabric_.cfg.router.buffering == Buffering::InputVc &&
        !dimension_ordered(fabric_.topo, route_ports_))
      return tlm::TLM_GENERIC_ERROR_RESPONSE;
    submit(dst, flits, prio, at, gp, tag, &ext->route);
    return tlm::TLM_OK_RESPONSE;
  }
  submit(dst, flits, prio, at, gp, tag);
  return tlm::TLM_OK_RESPONSE;
}

void NetworkInterface::submit(int dst, int flits, int priority, Cycle at,
                              const tlm::tlm_generic_payload& gp, std::uint64_t tag,
                              const std::vector<NocExtension::Hop>* route) {
  const std::uint32_t id = fabric_.messages.allocate(lane_);
  Message& m = fabric_.messages[id];
  m.src = node_;
  m.dst = dst;
  m.flits = flits;
  m.priority = priority;
  m.bytes = gp.get_data_length();
  m.tag = tag;
  m.created = at;
  m.delivered = 0;
  m.serial = (static_cast<std::uint64_t>(node_) << 40) | ++messages_made_;
  const NocExtension* ext = gp.get_extension<NocExtension>();
  m.traffic_class = ext ? ext->traffic_class : 0;
  m.measured = fabric_.stats.in_window(at) && !(ext && ext->unmeasured);
  if (gp.get_data_ptr() && m.bytes) {
    m.has_data = true;
    m.data.assign(gp.get_data_ptr(), gp.get_data_ptr() + m.bytes);
  }
  if (route) {
    m.route = fabric_.new_route();
    std::vector<Fabric::RouteHop>& hops = fabric_.routes[static_cast<std::size_t>(m.route)];
    for (const NocExtension::Hop& h : *route)
      hops.push_back({fabric_.topo.port_of(h.dim, h.dir), h.not_before});
  }
  if (fabric_.in_clock && at <= fabric_.accept_from) {
    // Due now: the injection stage of this cycle (or the next, if it has run) takes it.
    send(id);
    return;
  }
  fabric_.pending.push({at, fabric_.pending_seq++, id});
  if (!fabric_.in_clock && fabric_.wake) fabric_.wake->notify(sc_core::SC_ZERO_TIME);
}

void NetworkInterface::send(std::uint32_t mid) {
  Message& m = fabric_.messages[mid];
  const BroadcastConfig& bc = fabric_.cfg.traffic.broadcast;
  if (m.dst < 0) {
    // One broadcast packet into the router; the routers replicate it along the scheme's tree.
    if (!fabric_.replication)
      throw std::logic_error("a broadcast message with no replication rule installed");
    const int N = fabric_.topo.num_nodes();
    const std::uint32_t bid = fabric_.new_broadcast();
    BroadcastRecord& b = fabric_.broadcasts[bid];
    b.src = node_;
    // The rule plans the tree. A tree rooted elsewhere (STAR's indirect scheme) takes the
    // packet to its root first (a unicast leg) and brings it back to its source too: that
    // return keeps the record alive until it is in (it is no reception).
    fabric_.replication->plan(b, node_, rng_);
    b.created = m.created;
    b.receptions_left = N - 1 + (b.tree_src != node_ ? 1 : 0);
    b.measured = m.measured;
    b.message = mid;
    fabric_.stats.on_broadcast_created(m.measured, m.flits, N - 1, m.created);
    m.packets_left = N - 1;
    if (N == 1) {
      fabric_.stats.on_broadcast_done(b);
      fabric_.free_broadcasts.push_back(bid);
      fabric_.messages.release(mid);
      return;
    }
    const std::uint32_t id = fabric_.pool.allocate();
    Packet& p = fabric_.pool[id];
    p.src = node_;
    p.dst = b.tree_src != node_ ? b.tree_src : -1;  // >= 0: still on its way to the root
    p.flits = m.flits;
    p.created = m.created;
    p.measured = m.measured;
    p.traffic_class = static_cast<std::uint8_t>(m.traffic_class);
    p.message = mid;
    p.bcast = static_cast<std::int32_t>(bid);
    queue_.push(id);
    poke();
    return;
  }
  // A circuit carries a whole message.
  const int per = max_packet_ > 0 && !circuit_ ? max_packet_ : m.flits;
  const bool local = m.dst == node_ && self_local_ && !fabric_.gate;  // (gated: waits its turn)
  m.packets_left = 0;
  Lane* const ln = current_lane;  // (threads: a lane's sources request it)
  for (int done = 0; done < m.flits; done += per) {
    const std::uint32_t id = fabric_.pool.allocate(lane_);
    Packet& p = fabric_.pool[id];
    p.src = node_;
    p.dst = m.dst;
    p.flits = std::min(per, m.flits - done);
    // Under a broadcast scheme the scheme sets the unicast class.
    p.priority = bc.enabled() ? bc.hop_class(false, false) : m.priority;
    p.created = m.created;
    p.measured = m.measured;
    p.traffic_class = static_cast<std::uint8_t>(m.traffic_class);
    p.message = mid;
    p.first_of_message = done == 0;
    p.last_of_message = done + per >= m.flits;
    p.route = m.route;
    p.route_pos = 0;
    if (const RoutingAlgorithm* a = fabric_.routing.algorithm())
      if (p.route < 0 && !local) a->on_inject(p, rng_);
    if (ln) {
      ++ln->packets_created;
      ln->flits_created += static_cast<std::uint64_t>(p.flits);
      ln->measured_created += p.measured;
      if (fabric_.stats.in_window(m.created)) {
        ln->offered_window += static_cast<std::uint64_t>(p.flits);
        if (ln->classes) {
          ln->class_offered[0][p.priority] += static_cast<std::uint64_t>(p.flits);
          ln->class_offered[1][p.traffic_class] += static_cast<std::uint64_t>(p.flits);
        }
      }
    } else {
      fabric_.stats.on_created(p, m.created);
    }
    ++m.packets_left;
    if (local)
      local_.push_back(id);
    else
      queue_.push(id);
    if (probe_) probe_->created(id);  // (waves)
  }
  if (local) {
    // Zero-hop: delivered now, after every packet is counted (the last frees the message).
    for (const std::uint32_t id : local_) deliver_self(id, m.created);
    local_.clear();
    return;
  }
  poke();
}

void NetworkInterface::poke() {
  if (!active) {
    active = true;
    if (Lane* ln = current_lane)
      ln->woke_nis.push_back(this);  // (threads: its own lane's sources woke it)
    else
      fabric_.woke_nis.push_back(this);
  }
}

// ---- Injection ----

// A whole packet goes into the router at cycle t (packet-level routers).
void NetworkInterface::enter_router(std::uint32_t id, Channel& ch, Cycle t) {
  Packet& p = fabric_.pool[id];
  p.injected = t;
  ch.out.flits += static_cast<std::uint64_t>(p.flits);
  fabric_.flits_in_network += static_cast<std::uint64_t>(p.flits);
  fabric_.stats.on_injected(p.flits);
  fabric_.last_progress = std::max(fabric_.last_progress, t);
  router_->accept_packet(ch.out.dst_port, id, t);
}

// Under an injection gate, all-port: the oldest packet, once ready (alpha cycles after its
// request), starts when the gate says so; one a cycle (a gate lets a node start one at a time).
bool NetworkInterface::step_gated(Cycle t) {
  if (queue_.empty()) return false;
  const std::uint32_t id = queue_.front();
  const Packet& p = fabric_.pool[id];
  if (p.created + alpha_ > t || !fabric_.gate->take(node_, t)) return true;
  queue_.pop();
  if (p.dst == node_ && self_local_)
    deliver_self(id, t);
  else
    enter_router(id, channels_[0], t);
  return !queue_.empty();
}

// Under an injection gate, serial: may a free channel take the oldest packet now? A zero-hop
// packet let through is delivered at once (the channel stays free).
bool NetworkInterface::take_gated(Cycle t) {
  if (!fabric_.gate->take(node_, t)) return false;
  const std::uint32_t id = queue_.front();
  if (fabric_.pool[id].dst != node_ || !self_local_) return true;
  queue_.pop();
  deliver_self(id, t);
  return false;
}

// A zero-hop packet (traffic.self: deliver_locally): in at its creation cycle, delay 0 (gated:
// at the cycle its gate let it through).
void NetworkInterface::deliver_self(std::uint32_t id, Cycle t) {
  Packet& p = fabric_.pool[id];
  p.injected = t;
  p.received = static_cast<std::uint32_t>(p.flits);
  if (Lane* ln = current_lane) {
    // (Threads, a lane's sources: counted in the lane; the packet is finished with the lanes'
    // completions, in the one-thread order.)
    ++ln->zero_hop;
    ln->local_flits += static_cast<std::uint64_t>(p.flits);
    if (fabric_.stats.in_window(t)) ln->accept(p, static_cast<std::uint64_t>(p.flits));
    complete_in_lane(*ln, ln->gen_key_base | ln->gen_sent++, id, t);
    return;
  }
  fabric_.stats.on_zero_hop();
  fabric_.stats.on_flits_delivered(p.flits, t, p);
  finish_packet(id, t);
}

// ---- Ejection and delivery ----

void NetworkInterface::deliver_flit(const Flit& f, Cycle t) {
  Packet& p = fabric_.pool[f.packet];
  if (f.seq != p.received || p.dst != node_) fabric_.stats.on_order_error();
  ++p.received;
  --fabric_.flits_in_network;
  // (The network's last progress is the cycle the flit left its router, which the router has
  // set: a staged ejection's t is later, its arrival, and a later value would not be the cycle
  // a flit last moved, nor the value the lanes keep on several threads.)
  // A flit that begins to arrive at cycle t has been received at t + tau.
  fabric_.stats.on_flits_delivered(1, t + tau_, p);
  if (f.tail) finish_packet(f.packet, t + tau_);
}

void NetworkInterface::take_flit(const Flit& f, Cycle t, Lane& ln, std::uint64_t key) {
  Packet& p = fabric_.pool[f.packet];
  if (f.seq != p.received || p.dst != node_) ++ln.order_errors;
  ++p.received;
  ++ln.flits_delivered;  // (and one fewer in the network; its progress: deliver_flit())
  if (fabric_.stats.in_window(t + tau_)) ln.accept(p, 1);
  if (f.tail) complete_in_lane(ln, key, f.packet, t + tau_);
}

void NetworkInterface::complete_in_lane(Lane& ln, std::uint64_t key, std::uint32_t id,
                                        Cycle delivered) {
  Packet& p = fabric_.pool[id];
  Message& m = fabric_.messages[p.message];
  if (!ln.fast_completions || receive_ || rx.size() != 0 || m.route >= 0) {
    ln.completions.push_back({key, this, id, delivered});  // (finished in the one-thread order)
    return;
  }
  // What finish_packet() and deliver_message() do, on the lane: nothing here depends on the
  // order of the completions (counters, the latest delivery, sums of whole cycles). (The
  // message's injection and delivery cycles are for a receiver: there is none.)
  p.delivered = delivered;
  check_route(p, ln.intermediate_missed, ln.nonminimal);
  if (p.received != static_cast<std::uint32_t>(p.flits)) ++ln.order_errors;
  ++ln.packets_done;
  ln.last_delivery = std::max(ln.last_delivery, delivered);
  if (p.measured) ln.measured.push_back(Stats::Measured::of(p));
  const std::uint32_t mid = p.message;
  ln.packets_back_now[fabric_.pool.owner(id)].push_back(id);
  ++ln.ids_back;
  if (--m.packets_left == 0) {
    ln.messages_back_now[fabric_.messages.owner(mid)].push_back(mid);
    ++ln.message_ids_back;
  }
}

void NetworkInterface::deliver_packet(std::uint32_t id, Cycle t) {
  Packet& p = fabric_.pool[id];
  p.received = p.flits;
  fabric_.flits_in_network -= p.flits;
  fabric_.last_progress = t;
  // Head begins to arrive at t; the last of the L flits has been received at t + L*tau.
  const Cycle done = t + static_cast<Cycle>(p.flits) * tau_;
  fabric_.stats.on_flits_delivered(p.flits, done, p);
  finish_packet(id, done);
}

// The routing checks of a delivered packet (a routing algorithm other than dimension order, no
// source route): its intermediate node not visited; a longer path than the shortest (minimal
// algorithms).
void NetworkInterface::check_route(const Packet& p, std::uint64_t& missed,
                                   std::uint64_t& nonminimal) const {
  if (const RoutingAlgorithm* a = fabric_.routing.algorithm())
    if (p.route < 0) {
      if (p.mid >= 0) ++missed;
      if (a->minimal() && p.hops != fabric_.topo.distance(p.src, p.dst)) ++nonminimal;
    }
}

void NetworkInterface::finish_packet(std::uint32_t id, Cycle delivered) {
  Packet& p = fabric_.pool[id];
  p.delivered = delivered;
  if (probe_) probe_->delivered(id, delivered);  // (waves)
  check_route(p, fabric_.intermediate_missed, fabric_.nonminimal_packets);
  if (p.received != static_cast<std::uint32_t>(p.flits)) fabric_.stats.on_order_error();
  fabric_.stats.on_delivered(p);
  if (fabric_.gate) fabric_.gate->finished(delivered);
  Message& m = fabric_.messages[p.message];
  if (p.first_of_message) m.injected = p.injected;
  m.delivered = std::max(m.delivered, delivered);
  const std::uint32_t mid = p.message;
  fabric_.pool.release(id);
  if (--m.packets_left == 0) deliver_message(mid);
}

void NetworkInterface::deliver_message(std::uint32_t id) {
  notify_receivers(id, fabric_.messages[id].delivered);
  const std::int32_t route = fabric_.messages[id].route;
  if (route >= 0) fabric_.free_routes.push_back(route);
  fabric_.messages.release(id);
}

void NetworkInterface::receive_broadcast(std::uint32_t id, Cycle t) {
  // Received when its last flit is in, L*tau after the head begins to arrive.
  receive_broadcast_at(id, t + static_cast<Cycle>(fabric_.pool[id].flits) * tau_, false);
}

void NetworkInterface::receive_broadcast_at(std::uint32_t id, Cycle done, bool release_packet) {
  const Packet& p = fabric_.pool[id];
  const std::int32_t bid = p.bcast;
  BroadcastRecord& b = fabric_.broadcasts[static_cast<std::size_t>(bid)];
  fabric_.stats.on_flits_delivered(p.flits, done);
  fabric_.stats.on_reception(b, done);
  if (done > b.last_reception) b.last_reception = done;
  fabric_.last_progress = done > static_cast<Cycle>(tau_) ? done - tau_ : 0;
  notify_receivers(b.message, done);
  if (--b.receptions_left == 0) finish_broadcast(id, release_packet);
}

void NetworkInterface::return_broadcast(std::uint32_t id) {
  BroadcastRecord& b = fabric_.broadcasts[static_cast<std::size_t>(fabric_.pool[id].bcast)];
  if (--b.receptions_left == 0) finish_broadcast(id, false);
}

void NetworkInterface::finish_broadcast(std::uint32_t id, bool release_packet) {
  const std::int32_t bid = fabric_.pool[id].bcast;
  BroadcastRecord& b = fabric_.broadcasts[static_cast<std::size_t>(bid)];
  fabric_.stats.on_broadcast_done(b);
  fabric_.messages.release(b.message);
  fabric_.free_broadcasts.push_back(static_cast<std::uint32_t>(bid));
  if (release_packet) fabric_.pool.release(id);
}

void NetworkInterface::notify_receivers(std::uint32_t id, Cycle delivered) {
  if (!receive_ && rx.size() == 0) return;
  // A receiver may request new messages from inside the call, which can grow the pool: copy
  // what it needs first (the data buffer itself does not move when the pool grows).
  const Message& m = fabric_.messages[id];
  Delivery d;
  d.src = m.src;
  d.dst = node_;
  d.priority = m.priority;
  d.bytes = m.bytes;
  d.tag = m.tag;
  d.created = m.created;
  d.injected = m.injected;
  d.delivered = delivered;
  d.data = m.has_data ? m.data.data() : nullptr;
  if (receive_) receive_(d);
  if (rx.size() > 0) {
    rx_gp_.set_command(tlm::TLM_WRITE_COMMAND);
    rx_gp_.set_address(static_cast<sc_dt::uint64>(d.src));
    rx_gp_.set_data_ptr(const_cast<unsigned char*>(d.data));
    rx_gp_.set_data_length(d.bytes);
    rx_gp_.set_streaming_width(d.bytes);
    rx_gp_.set_byte_enable_ptr(nullptr);
    rx_gp_.set_dmi_allowed(false);
    rx_gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    rx_ext_->priority = d.priority;
    rx_ext_->tag = d.tag;
    rx_ext_->src = d.src;
    rx_ext_->created = d.created;
    rx_ext_->injected = d.injected;
    rx_ext_->delivered = d.delivered;
    rx_ext_->broadcast = m.dst < 0;
    sc_core::sc_time delay = time_of(d.delivered) - sc_core::sc_time_stamp();
    rx->b_transport(rx_gp_, delay);
  }
}

}  // namespace sy
