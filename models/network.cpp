#include "network.hpp"

#include <algorithm>

#include "input_vc_router.hpp"
#include "output_queued_router.hpp"

namespace sy {

Network::Network(sc_core::sc_module_name name, const Config& cfg)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      routing_(topo_, cfg.routing.tie_break, cfg.router.vcs),
      stats_(cfg.traffic.trace ? 0 : cfg.simulation.warmup,
             cfg.traffic.trace ? kNever : cfg.simulation.warmup + cfg.simulation.measure,
             cfg.simulation.batches),
      fabric_(cfg_, topo_, routing_, stats_),
      traffic_(cfg_, topo_) {
  const int N = topo_.num_nodes();
  for (int n = 0; n < N; ++n) {
    const std::string id = std::to_string(n);
    ni_store_.emplace_back(new NetworkInterface(("ni" + id).c_str(), n, fabric_));
    nis_.push_back(ni_store_.back().get());
    Router* r;
    if (cfg_.router.buffering == Buffering::InputVc)
      r = new InputVcRouter(("r" + id).c_str(), n, fabric_, *nis_[n]);
    else
      r = new OutputQueuedRouter(("r" + id).c_str(), n, fabric_, *nis_[n]);
    router_store_.emplace_back(r);
    routers_.push_back(r);
  }
  // Links: one per connected (node, port); reserve first so the pointers stay valid.
  links_.reserve(static_cast<std::size_t>(N) * topo_.num_ports());
  for (int n = 0; n < N; ++n)
    for (int p = 0; p < topo_.num_ports(); ++p) {
      const int m = topo_.neighbor(n, p);
      if (m < 0) continue;
      Link l;
      l.src_node = n;
      l.src_port = p;
      l.dst_node = m;
      l.dst_port = topo_.reverse_port(p);
      l.dst = routers_[m];
      links_.push_back(l);
      routers_[n]->output(p).link = &links_.back();
      routers_[m]->connect_upstream(l.dst_port, &routers_[n]->output(p));
    }
  for (int n = 0; n < N; ++n) nis_[n]->attach(routers_[n]);
  if (cfg_.traffic.trace && !cfg_.traffic.messages.empty())
    last_trace_time_ = cfg_.traffic.messages.back().time;
  SC_METHOD(clock);
}

Network::~Network() = default;

std::uint64_t Network::backlog() const {
  std::uint64_t b = 0;
  for (auto* ni : nis_) b += ni->backlog();
  return b;
}

std::uint64_t Network::credit_violations() const {
  std::uint64_t v = 0;
  for (auto* ni : nis_) v += ni->injection().violations;
  for (auto* r : routers_)
    for (int p = 0; p < topo_.num_ports(); ++p) v += r->output(p).violations;
  return v;
}

void Network::clock() {
  if (state_.done) return;
  const Cycle t = static_cast<Cycle>(sc_core::sc_time_stamp().value() /
                                     sc_core::sc_time(1, sc_core::SC_NS).value());
  step(t);
  if (progress_ && (t & 16383) == 0) progress_(*this, t, progress_arg_);
  if (check_end(t)) {
    state_.done = true;
    end_cycle_ = std::max(t + 1, stats_.last_delivery);
    return;
  }
  Cycle next = t + 1;
  const bool busy = !active_routers_.empty() || !active_nis_.empty() ||
                    !fabric_.credits_next.empty();
  if (!busy) {
    // Whole network idle: sleep until the next message is due (or the next window edge).
    Cycle due = traffic_.next_time();
    if (!cfg_.traffic.trace) {
      const Cycle w0 = stats_.window_start(), w1 = stats_.window_end();
      if (t < w0) due = std::min(due, w0);
      else if (t < w1) due = std::min(due, w1);
    }
    if (due == kNever) {
      state_.done = true;
      end_cycle_ = std::max(t + 1, stats_.last_delivery);
      return;
    }
    next = std::max(due, t + 1);
  }
  next_trigger(sc_core::sc_time(static_cast<double>(next - t), sc_core::SC_NS));
}

void Network::step(Cycle t) {
  // 1. Credits sent last cycle arrive.
  credits_now_.swap(fabric_.credits_next);
  for (auto& c : credits_now_) c.first->credit(c.second);
  credits_now_.clear();
  // 2. Sources create the messages due now.
  if (traffic_.next_time() <= t) traffic_.generate(t, nis_, woke_nis_);
  if (!woke_nis_.empty()) {
    // Keep node order among NIs so injection order is independent of wake-up order.
    active_nis_.insert(active_nis_.end(), woke_nis_.begin(), woke_nis_.end());
    woke_nis_.clear();
    std::sort(active_nis_.begin(), active_nis_.end(),
              [](const NetworkInterface* a, const NetworkInterface* b) { return a->node() < b->node(); });
  }
  // 3. NIs inject.
  std::size_t keep = 0;
  for (auto* ni : active_nis_) {
    if (ni->step(t)) active_nis_[keep++] = ni;
    else ni->active = false;
  }
  active_nis_.resize(keep);
  // 4. Routers, in node order; then routers that got a flit they can forward this same cycle.
  for (auto* r : active_routers_)
    if (!r->evaluate(t)) r->active = false;
  while (!fabric_.again.empty()) {
    again_scratch_.swap(fabric_.again);
    for (auto* r : again_scratch_) {
      r->again_queued = false;
      if (!r->evaluate(t)) r->active = false;
    }
    again_scratch_.clear();
  }
  keep = 0;
  for (auto* r : active_routers_)
    if (r->active) active_routers_[keep++] = r;
  active_routers_.resize(keep);
  if (!fabric_.woke.empty()) {
    for (auto* r : fabric_.woke)
      if (r->active) active_routers_.push_back(r);
    fabric_.woke.clear();
    std::sort(active_routers_.begin(), active_routers_.end(),
              [](const Router* a, const Router* b) { return a->node() < b->node(); });
    active_routers_.erase(std::unique(active_routers_.begin(), active_routers_.end()),
                          active_routers_.end());
  }
}

bool Network::check_end(Cycle t) {
  const SimulationConfig& s = cfg_.simulation;
  if (fabric_.flits_in_network > 0 && t > fabric_.last_progress + s.deadlock_cycles) {
    state_.stable = false;
    state_.reason = "deadlock: no flit moved for " + std::to_string(s.deadlock_cycles) +
                    " cycles with " + std::to_string(fabric_.flits_in_network) +
                    " flits in the network";
    return true;
  }
  if (cfg_.traffic.trace) {
    const bool all = traffic_.exhausted() && stats_.packets_delivered == stats_.packets_created &&
                     active_nis_.empty();
    if (all) return true;
    if (t > last_trace_time_ + s.drain_limit) {
      state_.stable = false;
      state_.reason = "trace not delivered within drain_limit cycles after its last message";
      return true;
    }
    return false;
  }
  const Cycle w0 = stats_.window_start(), w1 = stats_.window_end();
  if (!state_.saw_window_start && t + 1 >= w0) {
    state_.saw_window_start = true;
    state_.backlog_window_start = backlog();
  }
  if (!state_.saw_window_end && t + 1 >= w1) {
    state_.saw_window_end = true;
    state_.backlog_window_end = backlog();
  }
  if (t + 1 < w1) return false;
  // Source queues that grew through the window by more than 5% of what was created in it (plus
  // one packet per node) mean the offered load is above what the network accepts: stop now,
  // rather than drain a backlog that only grows.
  const double grown = static_cast<double>(state_.backlog_window_end) -
                       static_cast<double>(state_.backlog_window_start);
  if (grown > 0.05 * static_cast<double>(stats_.measured_created) + topo_.num_nodes()) {
    state_.stable = false;
    state_.reason = "source queues grew by " + std::to_string(static_cast<long long>(grown)) +
                    " packets during the measurement window (offered load above saturation)";
    return true;
  }
  if (stats_.measured_outstanding() == 0) return true;
  if (t + 1 >= w1 + s.drain_limit) {
    state_.stable = false;
    state_.reason = "measured packets not delivered within drain_limit cycles after the window";
    return true;
  }
  return false;
}

}  // namespace sy
