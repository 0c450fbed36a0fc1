#include "output_queued_router.hpp"

#include <algorithm>

#include "network_interface.hpp"
#include "stats.hpp"
#include "waves.hpp"

namespace sy {

OutputQueuedRouter::OutputQueuedRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                                       NetworkInterface& ni)
    : Router(name, node, fabric, ni),
      queues_(fabric.topo.num_ports(),
              std::vector<Ring<Entry>>(fabric.cfg.router.priority_classes, Ring<Entry>(8))),
      xbar_(fabric.topo.num_ports()),
      delta_(fabric.cfg.timing.delta),
      tau_(fabric.cfg.timing.tau),
      saf_(fabric.cfg.router.switching == Switching::StoreAndForward) {}

std::size_t OutputQueuedRouter::queued(int port) const {
  std::size_t n = 0;
  for (const auto& q : queues_[port]) n += q.size();
  return n;
}

void OutputQueuedRouter::accept_packet(int in_port, std::uint32_t id, Cycle t) {
  const Packet& pk = fabric_.pool[id];
  if (probe_ && probe_->on) probe_->flit_in(in_port, 0, id, true, pk.flits == 1);
  if (pk.dst == node_) {
    ni_.deliver_packet(id, t);
    return;
  }
  const int o = fabric_.routing.out_port(node_, pk.dst);
  Cycle ready = t + delta_;
  if (saf_ && in_port != injection_port()) ready += static_cast<Cycle>(pk.flits) * tau_;
  queues_[o][pk.priority].push({id, in_port, ready});
  ++queued_;
  wake();
  if (ready <= t && !again_queued) {
    again_queued = true;
    fabric_.again.push_back(this);
  }
}

void OutputQueuedRouter::sample(RouterProbe& p) const {
  for (std::size_t o = 0; o < queues_.size(); ++o)
    p.out[o].queued = static_cast<unsigned>(queued(static_cast<int>(o)));
}

bool OutputQueuedRouter::evaluate(Cycle t) {
  if (!queued_) return false;
  const int P = static_cast<int>(queues_.size());
  for (int o = 0; o < P; ++o) {
    OutputUnit& ou = outputs_[o];
    if (ou.free_at > t) continue;
    for (auto& q : queues_[o]) {
      if (q.empty()) continue;
      const Entry e = q.front();
      if (e.ready > t) continue;  // not here yet: a lower class may use the idle link
      q.pop();
      --queued_;
      const Packet& pk = fabric_.pool[e.packet];
      const Cycle busy = static_cast<Cycle>(pk.flits) * tau_;
      ou.free_at = t + busy;
      fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, t - e.ready);
      xbar_.connect(e.in_port, o, t);
      if (probe_ && probe_->on) probe_->out[o].xbar = sc_dt::uint64{1} << e.in_port;
      Link& l = *ou.link;
      l.flits += pk.flits;
      fabric_.flit_hops += pk.flits;
      fabric_.last_progress = t;
      if (fabric_.stats.in_window(t)) l.busy_window += busy;
      l.dst->accept_packet(l.dst_port, e.packet, t);
      break;
    }
  }
  return queued_ > 0;
}

}  // namespace sy
