#include "switchyard/router/circuit_router.hpp"

#include <algorithm>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/network_interface.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/network/waves.hpp"

namespace sy {

CircuitRouter::CircuitRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                             NetworkInterface* const* nis)
    : Router(name, node, fabric, nis),
      waiting_(fabric.topo.num_ports(), Ring<Header>(4)),
      busy_until_(fabric.topo.num_ports(), 0),
      xbar_(fabric.topo.num_ports()),
      delta_(fabric.cfg.timing.delta),
      tau_(fabric.cfg.timing.tau),
      ack_(fabric.cfg.timing.ack_per_hop),
      direct_(fabric.cfg.router.switching == Switching::DirectConnect) {}

void CircuitRouter::accept_packet(int in_port, std::uint32_t id, Cycle t) {
  Packet& p = fabric_.pool[id];
  if (probe_ && probe_->on) probe_->flit_in(in_port, 0, id, true, p.flits == 1);
  fabric_.last_progress = std::max(fabric_.last_progress, t);
  const Fabric::RouteHop* hop = take_route_hop(p);
  if (!hop && delivered_here(p.dst)) {
    if (counting_) activity_->ejected += static_cast<std::uint64_t>(p.flits);
    establish(id, t);
    return;
  }
  const int o = hop ? hop->port : fabric_.routing.out_port(node_, p.dst);
  Ring<Header>& q = waiting_[o];
  q.push({id, in_port, std::max(t + delta_, hop ? hop->not_before : Cycle{0})});
  for (std::size_t i = q.size() - 1; i > 0 && q.at(i - 1).ready > q.at(i).ready; --i)
    std::swap(q.at(i - 1), q.at(i));
  ++waiting_count_;
  wake();
  if (delta_ == 0 && !again_queued) {
    again_queued = true;
    fabric_.again.push_back(this);
  }
}

bool CircuitRouter::evaluate(Cycle t) {
  if (!waiting_count_) return false;
  if (counting_ && activity_->last_cycle != t) {
    activity_->last_cycle = t;
    ++activity_->active_cycles;
  }
  for (std::size_t o = 0; o < waiting_.size(); ++o) {
    Ring<Header>& q = waiting_[o];
    if (q.empty() || busy_until_[o] > t || q.front().ready > t) continue;
    const Header h = q.front();
    q.pop();
    --waiting_count_;
    // The header takes the output: the crossbar holds input -> output for this circuit.
    Packet& p = fabric_.pool[h.packet];
    if (p.circuit < 0) p.circuit = fabric_.new_circuit();
    fabric_.circuits[static_cast<std::size_t>(p.circuit)].push_back(
        {this, static_cast<int>(o), h.in_port, t});
    busy_until_[o] = kNever;
    xbar_.connect(h.in_port, static_cast<int>(o));
    if (probe_ && probe_->on) probe_->grant(h.in_port, 0, static_cast<int>(o), h.packet);
    fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, t - h.ready);
    fabric_.last_progress = std::max(fabric_.last_progress, t);
    OutputUnit& ou = outputs_[o];
    if (counting_) {  // (the output's arbitration and the circuit's connection; its flits)
      ++activity_->sa_stage2;
      ++activity_->sa_stage2_requests;
      ++activity_->va;
      activity_->crossbar += static_cast<std::uint64_t>(p.flits);
    }
    ou.flits += static_cast<std::uint64_t>(p.flits);
    fabric_.flit_hops += static_cast<std::uint64_t>(p.flits);
    ou.dst->accept_packet(ou.dst_port, h.packet, t);
  }
  if (!waiting_count_) return false;
  // Every waiting header waits for a known cycle (its delta, or a release already set): asleep
  // until the first, woken then by the network (Fabric::router_timers), or earlier by a new
  // header (wake()), evaluated at the same cycles as if it had been each cycle. Not while a
  // header waits for a circuit not yet complete (its release may come at any cycle, the same
  // cycle's later routers seeing it), nor with delta 0 (a header may pass several routers in a
  // cycle, in the order of the active set), nor while activity is counted (power: its active
  // cycles are the cycles it is evaluated, read at the window's edges).
  if (delta_ == 0 || counting_) return true;
  Cycle next = kNever;
  for (std::size_t o = 0; o < waiting_.size(); ++o) {
    if (waiting_[o].empty()) continue;
    if (busy_until_[o] == kNever) return true;
    next = std::min(next, std::max(busy_until_[o], waiting_[o].front().ready));
  }
  fabric_.router_timers.push({next, node_});
  return false;
}

// The header reached its destination at cycle t: the circuit is complete. Set when each link
// is released and when the message is in.
void CircuitRouter::establish(std::uint32_t id, Cycle t) {
  Packet& p = fabric_.pool[id];
  const Cycle data = static_cast<Cycle>(p.flits) * tau_;
  static const std::vector<Fabric::CircuitHold> kNone;
  const std::vector<Fabric::CircuitHold>& holds =
      p.circuit >= 0 ? fabric_.circuits[static_cast<std::size_t>(p.circuit)] : kNone;
  const int h = static_cast<int>(holds.size());
  const Cycle start = direct_ ? t + static_cast<Cycle>(ack_) * h : t;
  for (int k = 0; k < h; ++k) {
    const Fabric::CircuitHold& hold = holds[static_cast<std::size_t>(k)];
    // direct_connect: every link until the last flit is in; wormhole: the tail passes link k
    // (h-1-k) switchings before it reaches the destination.
    const Cycle release =
        direct_ ? start + data : t + data - static_cast<Cycle>(h - 1 - k) * delta_;
    Link& l = hold.router->output(hold.port).link;
    if (fabric_.stats.in_window(hold.taken)) l.busy_window += release - hold.taken;
    static_cast<CircuitRouter*>(hold.router)->release(hold.port, release);
    fabric_.horizon = std::max(fabric_.horizon, release);
  }
  if (p.circuit >= 0) fabric_.free_circuits.push_back(p.circuit);
  p.circuit = -1;
  fabric_.last_progress = std::max(fabric_.last_progress, start + data);
  fabric_.horizon = std::max(fabric_.horizon, start + data);
  // The message's head "arrives" when the data starts; its last flit is in L*tau later.
  ni_of(p.dst)->deliver_packet(id, start);
}

void CircuitRouter::release(int port, Cycle at) {
  busy_until_[static_cast<std::size_t>(port)] = at;
  if (waiting_count_) wake();
}

void CircuitRouter::sample(RouterProbe& p) const {
  for (std::size_t o = 0; o < waiting_.size(); ++o) {
    p.out[o].queued = static_cast<unsigned>(waiting_[o].size());
    if (p.follow_slot >= 0)  // (waves.packet: its header waits here)
      for (std::size_t k = 0; k < waiting_[o].size(); ++k)
        p.held += waiting_[o].at(k).packet == static_cast<std::uint32_t>(p.follow_slot);
    // A circuit shows as a crossbar connection for as long as it holds the link.
    if (busy_until_[o] > p.now) {
      const int in = xbar_.input(static_cast<int>(o));
      if (in >= 0) p.out[o].xbar = sc_dt::uint64{1} << in;
    }
  }
}

}  // namespace sy
