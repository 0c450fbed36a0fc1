#include "switchyard/router/output_queued_router.hpp"

#include <algorithm>

#include "switchyard/network/network_interface.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/router/replication_rule.hpp"

namespace sy {

OutputQueuedRouter::OutputQueuedRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                                       NetworkInterface* const* nis)
    : Router(name, node, fabric, nis),
      queues_(fabric.topo.num_ports(),
              std::vector<Ring<Entry>>(fabric.cfg.router.priority_classes, Ring<Entry>(8))),
      delta_(fabric.cfg.timing.delta),
      tau_(fabric.cfg.timing.tau),
      saf_(fabric.cfg.router.switching == Switching::StoreAndForward),
      bcast_(fabric.cfg.traffic.broadcast) {
  children_.resize(fabric.topo.num_ports());
}

// Power on: `copies` packets of `flits` flits cross the crossbar into output queues.
void OutputQueuedRouter::count_in(int flits, int copies) {
  const auto n = static_cast<std::uint64_t>(flits) * static_cast<std::uint64_t>(copies);
  activity_->buffer_writes += n;
  activity_->crossbar += n;
}

// FCFS within a class by the cycle a packet is ready to go (fully here for store-and-forward):
// a packet from the NI (no store-and-forward wait) may go ahead of one still arriving.
void OutputQueuedRouter::enqueue(int out, int cls, const Entry& e) {
  if (waits_) waits_->arrive(out, cls, e.ready);
  Ring<Entry>& q = queues_[out][cls];
  q.push(e);
  for (std::size_t i = q.size() - 1; i > 0 && q.at(i - 1).ready > q.at(i).ready; --i)
    std::swap(q.at(i - 1), q.at(i));
  ++queued_;
}

// A copy of a broadcast packet: the node receives it (unless it is the source), and forwards a
// copy on each of its tree children (the replication rule); each copy is a packet of its own on
// its link, in the class the scheme gives that hop.
void OutputQueuedRouter::accept_broadcast(int in_port, std::uint32_t id, Cycle t) {
  Packet pk = fabric_.pool[id];
  BroadcastRecord& b = fabric_.broadcasts[static_cast<std::size_t>(pk.bcast)];
  Cycle ready = t + delta_;
  if (saf_ && !is_injection(in_port)) ready += static_cast<Cycle>(pk.flits) * tau_;
  if (pk.dst >= 0 && pk.dst != node_) {
    // Indirect scheme, on its way to the root: a unicast hop in the broadcast's class.
    ++b.transmissions;
    if (counting_) count_in(pk.flits, 1);
    enqueue(fabric_.routing.out_port(node_, pk.dst), bcast_.hop_class(true, false),
            {id, in_port, ready});
    wake();
    if (ready <= t && !again_queued) {
      again_queued = true;
      fabric_.again.push_back(this);
    }
    return;
  }
  const int src = b.src, ending = b.ending_dim;
  // At the root the tree starts as if the root had injected the packet.
  const bool at_root = pk.dst >= 0;
  const int tree_in = at_root ? injection_port() : in_port;
  if (at_root) fabric_.pool[id].dst = pk.dst = -1;
  const int n = fabric_.replication->children(node_, b.tree_src, ending, tree_in, children_.data(),
                                              b.antipode_dir);
  b.transmissions += n;
  // The node has the copy (not the source: a copy coming back to it down the root's tree is
  // a return, not a reception).
  if (counting_) {
    count_in(pk.flits, n);
    if (!is_injection(in_port) && node_ != src) activity_->ejected += pk.flits;
  }
  if (!is_injection(in_port)) {
    if (node_ != src)
      nis_[0]->receive_broadcast(id, t);  // may free b
    else
      nis_[0]->return_broadcast(id);  // may free b
  }
  for (int k = 0; k < n; ++k) {
    const int o = children_[k];
    const std::uint32_t cid = k == 0 ? id : fabric_.pool.allocate();
    if (k > 0) fabric_.pool[cid] = pk;
    enqueue(o, bcast_.hop_class(true, fabric_.replication->low_priority(ending, o)),
            {cid, in_port, ready});
  }
  if (n == 0) fabric_.pool.release(id);
  // The arriving copy ends here; each child copy is a packet in the network.
  fabric_.flits_in_network += static_cast<std::uint64_t>(pk.flits) * n;
  fabric_.flits_in_network -= static_cast<std::uint64_t>(pk.flits);
  if (n == 0) return;
  wake();
  if (ready <= t && !again_queued) {
    again_queued = true;
    fabric_.again.push_back(this);
  }
}

std::size_t OutputQueuedRouter::queued(int port) const {
  std::size_t n = 0;
  for (const auto& q : queues_[port]) n += q.size();
  return n;
}

void OutputQueuedRouter::accept_packet(int in_port, std::uint32_t id, Cycle t) {
  Packet& pk = fabric_.pool[id];
  if (probe_ && probe_->on) probe_->flit_in(in_port, 0, id, true, pk.flits == 1);
  if (pk.bcast >= 0) {
    accept_broadcast(in_port, id, t);
    return;
  }
  // A source route gives the port (and may hold the packet until its slot); it ends here.
  const Fabric::RouteHop* hop = take_route_hop(pk);
  if (!hop && delivered_here(pk.dst)) {
    if (counting_) activity_->ejected += pk.flits;
    ni_of(pk.dst)->deliver_packet(id, t);
    return;
  }
  if (counting_) count_in(pk.flits, 1);
  const int o = hop ? hop->port : fabric_.routing.out_port(node_, pk.dst);
  Cycle ready = t + delta_;
  if (saf_ && !is_injection(in_port)) ready += static_cast<Cycle>(pk.flits) * tau_;
  if (hop) ready = std::max(ready, hop->not_before);
  enqueue(o, pk.priority, {id, in_port, ready});
  wake();
  if (ready <= t && !again_queued) {
    again_queued = true;
    fabric_.again.push_back(this);
  }
}

void OutputQueuedRouter::sample(RouterProbe& p) const {
  for (std::size_t o = 0; o < queues_.size(); ++o) {
    p.out[o].queued = static_cast<unsigned>(queued(static_cast<int>(o)));
    if (p.follow_slot >= 0)  // (waves.packet: queued here)
      for (const auto& q : queues_[o])
        for (std::size_t k = 0; k < q.size(); ++k)
          p.held += q.at(k).packet == static_cast<std::uint32_t>(p.follow_slot);
  }
}

bool OutputQueuedRouter::evaluate(Cycle t) {
  if (!queued_) return false;
  if (counting_ && activity_->last_cycle != t) {
    activity_->last_cycle = t;
    ++activity_->active_cycles;
  }
  const int P = static_cast<int>(queues_.size());
  for (int o = 0; o < P; ++o) {
    OutputUnit& ou = outputs_[o];
    if (ou.free_at > t) continue;
    auto& classes = queues_[o];
    for (std::size_t c = 0; c < classes.size(); ++c) {
      auto& q = classes[c];
      if (q.empty()) continue;
      const Entry e = q.front();
      if (e.ready > t) continue;  // not here yet: a lower class may use the idle link
      // Independent check of the strict order: no higher class may have a ready packet.
      for (std::size_t h = 0; h < c; ++h)
        for (std::size_t i = 0; i < classes[h].size(); ++i)
          if (classes[h].at(i).ready <= t) ++fabric_.priority_inversions;
      q.pop();
      --queued_;
      const Packet& pk = fabric_.pool[e.packet];
      if (counting_) {  // (the output's choice among its classes' heads; the flits read out)
        ++activity_->sa_stage2;
        ++activity_->sa_stage2_requests;
        activity_->buffer_reads += static_cast<std::uint64_t>(pk.flits);
      }
      const Cycle busy = static_cast<Cycle>(pk.flits) * tau_;
      ou.free_at = t + busy;
      fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, t - e.ready);
      if (waits_) waits_->depart(static_cast<int>(c), e.ready, t - std::min(e.ready, t));
      if (probe_ && probe_->on) probe_->grant(e.in_port, 0, o, e.packet);
      Link& l = ou.link;
      ou.flits += static_cast<std::uint64_t>(pk.flits);
      fabric_.flit_hops += pk.flits;
      fabric_.last_progress = t;
      if (fabric_.stats.in_window(t)) {
        l.busy_window += busy;
        ++l.departures_window;
        l.sojourn_window += t + busy - std::min(e.ready, t);
      }
      ou.dst->accept_packet(ou.dst_port, e.packet, t);
      break;
    }
  }
  return queued_ > 0;
}

}  // namespace sy
