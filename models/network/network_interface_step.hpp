// NetworkInterface::step, the injection work of a cycle: inline where the network steps its
// active NIs (network.cpp), one call per NI and cycle. A file that calls step() includes this.
#pragma once
#include "switchyard/network/network_interface.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/router/router.hpp"

namespace sy {

[[gnu::always_inline]] inline bool NetworkInterface::step(Cycle t) {
  if (all_port_) {
    if (fabric_.gate) return step_gated(t);
    // Every packet enters the router alpha cycles after its request, in parallel with the others
    // (output-queued: straight into its first output queue; circuit: its header starts).
    while (!queue_.empty() && fabric_.pool[queue_.front()].created + alpha_ <= t) {
      const std::uint32_t id = queue_.front();
      queue_.pop();
      enter_router(id, channels_[0], t);
    }
    // The rest waits for its start-up (the queue is in request order): asleep until the first's
    // is over, then stepped in node order as if it had been all along.
    if (!queue_.empty())
      fabric_.ni_timers.push({fabric_.pool[queue_.front()].created + alpha_, node_});
    return false;
  }
  if (channels_.size() == 1) return step_channel<false>(channels_.front(), t, nullptr);
  bool busy = false;  // a channel is busy while it sends, or while packets wait
  for (Channel& ch : channels_) busy |= step_channel<false>(ch, t, nullptr);
  return busy;
}

[[gnu::always_inline]] inline bool NetworkInterface::step_lane(Cycle t, Lane& ln) {
  if (channels_.size() == 1) return step_channel<true>(channels_.front(), t, &ln);
  bool busy = false;
  for (Channel& ch : channels_) busy |= step_channel<true>(ch, t, &ln);
  return busy;
}

// One serial injection channel: takes the next waiting packet when free; sends it whole
// (output-queued) or flit by flit as credits allow (input-VC). False when it has nothing to do.
template <bool kLane>
inline bool NetworkInterface::step_channel(Channel& ch, Cycle t, Lane* ln) {
  if (ch.cur < 0) {
    if (queue_.empty()) return false;
    if (ch.out.free_at > t) return true;
    if (fabric_.gate && !take_gated(t)) return !queue_.empty();
    ch.cur = queue_.front();
    queue_.pop();
    ch.seq = 0;
    ch.vc = -1;
    ch.next = t + (fabric_.pool[ch.cur].first_of_message ? alpha_ : 0);
  }
  if (ch.next > t) return true;
  const std::uint32_t id = static_cast<std::uint32_t>(ch.cur);
  Packet& p = fabric_.pool[id];
  if (!kLane && oq_) {
    ch.out.free_at = t + static_cast<Cycle>(p.flits) * tau_;
    ch.cur = -1;
    enter_router(id, ch, t);
    return true;
  }
  if (ch.vc < 0) {
    if (ch.round_robin) {
      const int n = ch.out.num_vcs();
      for (int i = 1; i <= n && ch.vc < 0; ++i) {
        const int v = (ch.last_vc + i + n) % n;
        if (!ch.out.vc(v).owned && ch.out.vc(v).credits > 0) ch.vc = ch.last_vc = v;
      }
    } else {
      ch.vc = ch.out.find_free(0, ch.out.num_vcs());
    }
    if (ch.vc < 0) return true;
    ch.out.take(ch.vc);
  }
  OutputVc& ov = ch.out.vc(ch.vc);
  if (ov.credits <= 0) return true;
  Flit f;
  f.packet = id;
  f.seq = ch.seq;
  f.head = ch.seq == 0;
  f.tail = ch.seq + 1 == static_cast<std::uint32_t>(p.flits);
  if (f.head) p.injected = t;
  ch.out.consume(ov);
  ch.out.free_at = ch.next = t + tau_;
  ++ch.out.flits;
  if constexpr (kLane) {
    ++ln->flits_injected;  // (and one more in the network)
    ln->progress = std::max(ln->progress, t);
    ln->key = ln->ni_key_base | ln->ni_sent++;
  } else {
    ++fabric_.flits_in_network;
    fabric_.stats.on_injected(1);
    fabric_.last_progress = t;
  }
  ++ch.seq;
  const int vc = ch.vc;
  if (f.tail) {
    ch.out.tail_sent(ov);
    ch.cur = -1;
  }
  sink_(router_, ch.out.dst_port, vc, f, t + inject_lt_);
  return true;
}

}  // namespace sy
