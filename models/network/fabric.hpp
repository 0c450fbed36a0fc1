// Fabric: what the units of one network share while it runs — the packet and message pools, the
// statistics sink, the credits in flight (they arrive next cycle), the messages requested for a
// later cycle, and the kernel's work lists. Passed by reference to each unit; there are no globals.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <functional>
#include <queue>
#include <systemc>
#include <utility>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/message.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/router/routing_unit.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

class Router;
class NetworkInterface;
class OutputUnit;
class Stats;
class ReplicationRule;
class InjectionGate;

// Credits on their way back upstream: (output unit, VC) pairs in storage that is kept, so a warm
// run allocates nothing; pushed inline on the per-flit path.
struct CreditList {
  struct Entry {
    OutputUnit* up;
    int vc;
  };
  // (Inline, growing out of line: a forwarded flit's credit goes through here. The capacity is
  // kept beside the count: the vector's size would be computed from two pointers each time.)
  [[gnu::always_inline]] void push(OutputUnit* up, int vc) {
    if (__builtin_expect(n_ == cap_, 0)) grow();
    buf_[n_++] = {up, vc};
  }
  bool empty() const { return n_ == 0; }
  std::size_t size() const { return n_; }
  const Entry* begin() const { return buf_.data(); }
  const Entry* end() const { return buf_.data() + n_; }
  void clear() { n_ = 0; }
  void swap(CreditList& o) {
    buf_.swap(o.buf_);
    std::swap(n_, o.n_);
    std::swap(cap_, o.cap_);
  }

 private:
  [[gnu::noinline]] void grow() {
    buf_.resize(buf_.size() * 2 + 64);
    cap_ = buf_.size();
  }
  std::vector<Entry> buf_;
  std::size_t n_ = 0, cap_ = 0;
};

// Router ids woken in a cycle, pushed on the per-flit path: push_if appends without a branch
// (whether a flit finds its router asleep is a coin toss to the branch predictor), so one spare
// slot is always kept (the id is written to it either way).
class IdList {
 public:
  IdList() : buf_(64), cap_(64) {}
  void push_back(int id) { push_if(true, id); }
  [[gnu::always_inline]] void push_if(bool yes, int id) {
    buf_[n_] = id;
    n_ += yes;
    if (__builtin_expect(n_ == cap_, 0)) grow();
  }
  bool empty() const { return n_ == 0; }
  std::size_t size() const { return n_; }
  const int* begin() const { return buf_.data(); }
  const int* end() const { return buf_.data() + n_; }
  void clear() { n_ = 0; }

 private:
  [[gnu::noinline]] void grow() {
    buf_.resize(buf_.size() * 2);
    cap_ = buf_.size();
  }
  std::vector<int> buf_;
  std::size_t n_ = 0, cap_;
};

// One worker's share of the network when it runs on several threads (simulation.threads): a
// contiguous block of routers (whole 64-router words of the active set, so lanes in order are
// node order) with their NIs. A cycle is two parallel steps. In the first, each lane applies the
// credits sent to its output units last cycle, steps its NIs (injection) and evaluates its
// routers; a flit for one of its own routers is received at once, as on one thread, a flit for
// another lane's router goes into the per-pair list to that lane. In the second, each lane
// receives the flits sent to it, in the order one thread would have (sending lane by lane, each in
// sending order), and does the per-flit part of every ejection to its NIs. What stays shared is
// done after the parallel part: the lanes' measured packets added to the statistics, the
// completions that need the one-thread order finished in it (by key), then the lanes' counters
// folded in. Nothing shared is written on the hot path, so the results do not
// depend on the thread count or on where the blocks end.
struct Lane {
  struct Delivery {
    Router* dst;
    int port, vc;
    Flit flit;
    Cycle t;
    const void* dst_input;  // (the link's: prefetched a few deliveries ahead, receive_lane())
    std::uint64_t key;      // sending lane, then the flit's place in all it sent
  };
  // Flits onto links to another lane's routers, per receiving lane, in the order they were sent.
  std::vector<std::vector<Delivery>> deliveries_to;
  // Credits for the output units of each lane (by receiving lane), for the two parities of the
  // step count: those sent in a step are applied at the start of the next one (credit delay 1).
  std::vector<CreditList> credits_to[2];
  CreditList* credits_now = nullptr;           // credits_to[this step's parity]
  const std::uint8_t* lane_of_word = nullptr;  // receiving lane of a router id's word (id / 64)
  std::size_t lane_of(int node) const { return lane_of_word[static_cast<unsigned>(node) >> 6]; }
  // A credit for `up`, the output unit of router `node`: to that router's lane, next step.
  void credit(int node, OutputUnit* up, int vc) {
    credits_now[lane_of(node)].push(up, vc);
    ++credits_sent;
  }
  // Staged pipeline: credits usable later than the next step (a credit delay above 1, the
  // ejection channels), per receiving lane in a wheel of buckets by cycle as Fabric::credit_wheel
  // (its size; empty without the staged pipeline); the receiving lane applies a cycle's bucket
  // at the start of that cycle, as the network applies its wheel on one thread.
  std::vector<std::vector<CreditList>> wheel_to;
  std::uint64_t wheel_mask = 0;
  std::uint64_t wheel_sent = 0, wheel_applied = 0;  // (this step's: folded into credits_in_wheel)
  void credit_at(int node, OutputUnit* up, int vc, Cycle now, Cycle at) {
    if (at <= now + 1) {
      credit(node, up, vc);
      return;
    }
    assert(at - now <= wheel_mask);
    wheel_to[lane_of(node)][at & wheel_mask].push(up, vc);
    ++wheel_sent;
  }
  // Keys order what reaches the NIs as one thread does: the sources' local deliveries, then the
  // NIs' injections (own router, in node order), then every router's sending; each part lanes in
  // order, each lane in its own order.
  std::uint64_t key_base = 0;      // (1 << 63) | this lane's index << 32: router sends
  std::uint32_t sent = 0;          // flits sent this cycle (received at once or delivered)
  std::uint64_t ni_key_base = 0;   // (1 << 62) | this lane's index << 32: NI injections
  std::uint32_t ni_sent = 0;       // flits injected this cycle
  std::uint64_t gen_key_base = 0;  // this lane's index << 32: packets its sources deliver locally
  std::uint32_t gen_sent = 0;
  int node_lo = 0, node_hi = 0;        // the routers this lane evaluates and receives for
  std::vector<NetworkInterface*> nis;  // this lane's active NIs (those injecting), in node order
  std::vector<NetworkInterface*> woke_nis;    // NIs woken this cycle (joining `nis`)
  std::vector<NetworkInterface*> merged_nis;  // scratch
  // Routers woken (ids, all this lane's own), and the flits that reached their NI with the key of
  // the flit that brought them.
  IdList woke;
  struct Ejection {
    std::uint64_t key;
    NetworkInterface* ni;
    Flit flit;
    Cycle t;
  };
  std::vector<Ejection> ejections;
  std::vector<Ejection> own_ejections;  // scratch: those of the first part (receive_lane())
  std::size_t ni_ejections = 0;         // ejections made while the NIs injected (first in order)
  std::uint64_t key = 0;                // of the flit being sent or received
  // A tail flit at its NI: the packet is complete; the completions of all lanes are merged by
  // key after the parallel part (statistics, the packet's release, the message's delivery).
  struct Completion {
    std::uint64_t key;
    NetworkInterface* ni;
    std::uint32_t packet;
    Cycle t;
  };
  std::vector<Completion> completions;
  std::size_t next_completion = 0;
  // Completions finished on the lane itself (fast_completions: no receiver, record or source
  // route needs the one-thread order): the packets counted, the latest delivery, the measured
  // ones' times (added to the statistics after the parallel part, in lane order: their sums are
  // of whole cycles, the same in any order), and the packet and message ids to give back to the
  // lane whose chunk holds them, per owning lane, for the two parities of the step count (given
  // back by their lane at the start of the next step, as credits are applied).
  bool fast_completions = false;
  std::uint64_t packets_done = 0;
  Cycle last_delivery = 0;
  std::vector<Stats::Measured> measured;
  std::vector<std::vector<std::uint32_t>> packets_back[2], messages_back[2];
  std::vector<std::uint32_t>* packets_back_now = nullptr;   // packets_back[this step's parity]
  std::vector<std::uint32_t>* messages_back_now = nullptr;  // messages_back[this step's parity]
  std::uint64_t ids_back = 0;  // packet ids put in packets_back_now this step (not yet free)
  std::uint64_t message_ids_back = 0;
  std::uint64_t nonminimal = 0, intermediate_missed = 0;
  // Counters folded into the shared ones after each cycle.
  std::uint64_t flit_hops = 0, forbidden_turns = 0;
  std::uint64_t flits_injected = 0, flits_delivered = 0, accepted_window = 0, order_errors = 0;
  std::uint64_t credits_sent = 0;
  std::uint64_t packets_created = 0, flits_created = 0, measured_created = 0, offered_window = 0;
  std::uint64_t zero_hop = 0, local_flits = 0;
  // Per class, when the statistics keep classes: [0] by priority, [1] by traffic class.
  bool classes = false;
  std::uint64_t class_offered[2][kMaxClasses] = {}, class_accepted[2][kMaxClasses] = {};
  void accept(const Packet& p, std::uint64_t flits) {
    accepted_window += flits;
    if (classes) {
      class_accepted[0][p.priority] += flits;
      class_accepted[1][p.traffic_class] += flits;
    }
  }
  Cycle max_flit_wait = 0;
  Cycle progress = 0;           // latest cycle a flit moved (0: none this cycle)
  std::size_t deactivated = 0;  // routers that went idle
  std::size_t activated = 0;    // routers woken
  // Another process's lane (network ranks): its NIs are not here; whether it has any injecting,
  // as that rank said this step.
  bool remote_injecting = false;
  bool injecting() const { return !nis.empty() || remote_injecting; }
  // Every counter folded after a step, for a rank to send its own lane's to the others (f is
  // called on each, in one order).
  template <class F>
  void each_counter(F&& f) {
    f(packets_done), f(last_delivery), f(ids_back), f(message_ids_back), f(nonminimal);
    f(intermediate_missed), f(flit_hops), f(forbidden_turns), f(flits_injected);
    f(flits_delivered), f(accepted_window), f(order_errors), f(credits_sent);
    f(packets_created), f(flits_created), f(measured_created), f(offered_window), f(zero_hop);
    f(local_flits), f(max_flit_wait), f(progress), f(deactivated), f(activated);
    f(wheel_sent), f(wheel_applied);
    if (classes)
      for (int i = 0; i < 2; ++i)
        for (int c = 0; c < kMaxClasses; ++c) f(class_offered[i][c]), f(class_accepted[i][c]);
  }
};
// The lane of the thread evaluating routers (null: one thread, everything done at once).
inline thread_local Lane* current_lane = nullptr;

struct Fabric {
  Fabric(const Config& c, const Topology& t, const RoutingUnit& r, Stats& s)
      : cfg(c), topo(t), routing(r), stats(s) {
    // Links of their own latency (an indirect network's, staged pipeline) put credits as far
    // ahead as the longest of them: the wheel covers it (64 cycles otherwise).
    const IndirectNetwork* ind = t.indirect_network();
    int longest = 0;
    if (ind && ind->has_link_latencies())
      for (int router = 0; router < t.num_routers(); ++router)
        for (int p = 0; p < t.num_ports(); ++p)
          longest =
              std::max({longest, ind->link_latency(router, p), ind->input_latency(router, p)});
    std::size_t n = kCreditWheel;
    while (n < static_cast<std::size_t>(longest) + 64) n *= 2;
    credit_wheel.resize(n);
    credit_mask = n - 1;
  }
  const Config& cfg;
  const Topology& topo;
  const RoutingUnit& routing;
  Stats& stats;
  PacketPool pool;
  MessagePool messages;
  // Broadcasts in flight (router-level replication), recycled by id.
  std::vector<BroadcastRecord> broadcasts;
  std::vector<std::uint32_t> free_broadcasts;
  std::uint32_t new_broadcast() {
    if (free_broadcasts.empty()) {
      broadcasts.emplace_back();
      return static_cast<std::uint32_t>(broadcasts.size() - 1);
    }
    const std::uint32_t id = free_broadcasts.back();
    free_broadcasts.pop_back();
    broadcasts[id] = BroadcastRecord{};
    return id;
  }
  // Source routes of packets that carry one, recycled by id: per hop the output port and the
  // cycle before which the packet may not leave on it (0: as soon as it can).
  struct RouteHop {
    int port;
    Cycle not_before;
  };
  std::vector<std::vector<RouteHop>> routes;
  std::vector<std::int32_t> free_routes;
  std::int32_t new_route() {
    if (free_routes.empty()) {
      routes.emplace_back();
      return static_cast<std::int32_t>(routes.size() - 1);
    }
    const std::int32_t id = free_routes.back();
    free_routes.pop_back();
    routes[static_cast<std::size_t>(id)].clear();
    return id;
  }
  // Routing checks (routing algorithms other than dimension order): headers that took a turn
  // their turn model forbids, packets delivered over a longer path than the shortest
  // (minimal algorithms), packets delivered without visiting their intermediate node.
  std::uint64_t forbidden_turns = 0, nonminimal_packets = 0, intermediate_missed = 0;
  // A broadcast scheme that takes packets at the NI rather than the routers (the PMNB periods):
  // (node, flits, cycle, measured).
  std::function<void(int, int, Cycle, bool)> broadcast_request;
  // An idling scheme's rule over when an NI may start its next packet (null: whenever its
  // ports take it; network/injection_gate.hpp).
  InjectionGate* gate = nullptr;
  // Circuits being built or held: the (router, output port, cycle the header took it) of each hop.
  struct CircuitHold {
    Router* router;
    int port, in_port;
    Cycle taken;
  };
  std::vector<std::vector<CircuitHold>> circuits;
  std::vector<std::int32_t> free_circuits;
  std::int32_t new_circuit() {
    if (free_circuits.empty()) {
      circuits.emplace_back();
      return static_cast<std::int32_t>(circuits.size() - 1);
    }
    const std::int32_t id = free_circuits.back();
    free_circuits.pop_back();
    circuits[static_cast<std::size_t>(id)].clear();
    return id;
  }
  // Router-level broadcast: the scheme's tree rule (null: none installed). It writes at most
  // topo.num_ports() ports per children() call (a port at most once).
  const ReplicationRule* replication = nullptr;
  // Messages requested for a cycle the kernel has not reached yet, in request order.
  struct Pending {
    Cycle cycle;
    std::uint64_t seq;
    std::uint32_t message;
    bool operator>(const Pending& o) const {
      return cycle != o.cycle ? cycle > o.cycle : seq > o.seq;
    }
  };
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending;
  std::uint64_t pending_seq = 0;
  Cycle accept_from = 0;                    // first cycle whose injection stage has not run yet
  bool in_clock = false;                    // the network's clock process is running
  sc_core::sc_event* wake = nullptr;        // wakes the sleeping clock when a message is requested
  std::vector<NetworkInterface*> woke_nis;  // NIs that got a message while idle
  // (cycle, node), earliest first: who sleeps until when, woken then by Network::step, so that
  // what only waits costs nothing and idle cycles can be skipped.
  using Timers = std::priority_queue<std::pair<Cycle, int>, std::vector<std::pair<Cycle, int>>,
                                     std::greater<std::pair<Cycle, int>>>;
  Timers ni_timers;      // all-port NIs until their first packet's start-up is over
  Timers router_timers;  // circuit routers whose waiting headers all wait for a known cycle
  // Credits sent this cycle: applied at the start of the next one (credit delay = 1 cycle).
  CreditList credits_next;
  std::vector<Router*> again;   // got a flit it may forward in this same cycle (delta = 0)
  IdList woke;                  // routers (ids) that went from idle to busy this cycle
  std::uint64_t flit_hops = 0;  // flits that crossed a router-to-router link
  std::uint64_t flits_in_network = 0;
  Cycle last_progress = 0;  // last cycle a flit moved
  Cycle max_flit_wait = 0;  // longest a ready flit waited for the switch
  Cycle horizon = 0;        // latest cycle something already scheduled happens (circuits)
  // A packet started on a link while a higher-class packet was ready for it (must stay 0).
  std::uint64_t priority_inversions = 0;
  // SWITCHYARD_HOP_LOG=<file> (tests: the C++ and the RTL routers side by side): every flit that
  // leaves an input-VC router, one line "arrival router out_port out_vc packet_serial seq" (the
  // C++ router on its general path; null: off).
  std::FILE* hop_log = nullptr;
  void log_hop(Cycle arrival, int router, int out_port, int out_vc, std::uint32_t packet,
               std::uint32_t seq) const {
    std::fprintf(hop_log, "%llu %d %d %d %llu %u\n", static_cast<unsigned long long>(arrival),
                 router, out_port, out_vc, static_cast<unsigned long long>(pool.serial(packet)),
                 seq);
  }
  void credit(OutputUnit* up, int vc) { credits_next.push(up, vc); }
  // Staged pipeline: a credit usable at cycle `at` (> now); the credit delay and the ejection
  // channels put them up to 40 cycles ahead, a link of its own latency as far as that latency
  // (+ 16), in a wheel of buckets by cycle (at least 64, a power of two longer than any of them).
  static constexpr int kCreditWheel = 64;
  std::vector<CreditList> credit_wheel;
  std::uint64_t credit_mask = kCreditWheel - 1;
  std::uint64_t credits_in_wheel = 0;
  // credit_at() for a credit `delay` cycles after now (a delay of one: the next cycle's list).
  void credit_after(OutputUnit* up, int vc, Cycle now, int delay) {
    if (delay <= 1)
      credit(up, vc);
    else
      credit_at(up, vc, now, now + static_cast<Cycle>(delay));
  }
  void credit_at(OutputUnit* up, int vc, Cycle now, Cycle at) {
    if (at <= now + 1) {
      credit(up, vc);
      return;
    }
    assert(at - now <= credit_mask);
    credit_wheel[at & credit_mask].push(up, vc);
    ++credits_in_wheel;
  }
};

}  // namespace sy
