#include "switchyard/schemes/pmnb/dynamic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"
#include "switchyard/traffic/schedule_driver.hpp"

namespace sy {

DynamicPmnb::DynamicPmnb(sc_core::sc_module_name name, const Config& cfg, Network& net,
                         Stats& stats)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      stats_(stats),
      d_(static_cast<int>(cfg.topology.dims.size())),
      N_(topo_.num_nodes()),
      L_(cfg.traffic.packet_flits),
      tp_(cfg.traffic.broadcast.scan_slots),
      split_(cfg.traffic.broadcast.scheme == BroadcastScheme::PmnbIi),
      padded_(cfg.traffic.broadcast.theorem_periods),
      slot_(static_cast<Cycle>(cfg.timing.delta) +
            static_cast<Cycle>(cfg.traffic.packet_flits) * static_cast<Cycle>(cfg.timing.tau)),
      fifo_(static_cast<std::size_t>(topo_.num_nodes())),
      batches_(cfg.simulation.batches) {
  driver_.reset(new ScheduleDriver("pmnb_periods", cfg, net));
  driver_->release_finished = true;
  driver_->unmeasured(true);
  driver_->on_item_in = [this](int b, int item, int node, Cycle t) { item_in(b, item, node, t); };
  driver_->on_batch_done = [this](int b, Cycle t) { period_done(b, t); };
  SC_METHOD(start_period);
  sensitive << start_ev_;
  dont_initialize();
}

DynamicPmnb::~DynamicPmnb() = default;

// The theorem's per-packet time X and reservation V in slots (II: X = (N-1)/(N d),
// V = 2 d t_p + 2; III: X = 1/d, V = 2d + 4 d t_p).
double DynamicPmnb::theorem_X() const {
  return split_ ? (N_ - 1.0) / (static_cast<double>(N_) * d_) : 1.0 / d_;
}
double DynamicPmnb::theorem_V() const {
  return split_ ? 2.0 * d_ * tp_ + 2 : 2.0 * d_ + 4.0 * d_ * tp_;
}

void DynamicPmnb::arrival(int node, int flits, Cycle at, bool measured) {
  (void)flits;  // every broadcast packet has traffic.packet_flits flits
  fifo_[static_cast<std::size_t>(node)].push_back({at, measured});
  ++waiting_;
  stats_.on_broadcast_created(measured, L_, N_ - 1, at);
  if (!running_) {
    // Idle: the next period starts at the first slot boundary after the arrival (the nodes
    // keep slot time from cycle 0).
    running_ = true;
    next_start_ = (at / slot_ + 1) * slot_;
    const Cycle now = cycle_ceil(sc_core::sc_time_stamp());
    start_ev_.notify(time_of(std::max(next_start_, now)) - sc_core::sc_time_stamp());
  }
}

Schedule DynamicPmnb::period_schedule(const std::vector<int>& sources) const {
  if (sources.empty()) return pmnb_scans_schedule(d_, split_, tp_, L_);
  return split_ ? pmnb_ii_schedule(d_, sources, tp_, L_) : pmnb_iii_schedule(d_, sources, tp_, L_);
}

void DynamicPmnb::start_period() {
  const Cycle t = next_start_;
  if (waiting_ == 0 && t >= stats_.window_end()) {
    // Nothing waiting and no more arrivals measured: stop the periods (the sources keep
    // running; an arrival restarts them at the next slot).
    running_ = false;
    return;
  }
  // Gated: each node with a packet that arrived before the period's start sends its oldest.
  std::vector<int> sources;
  rec_.clear();
  std::vector<int> node_packet(static_cast<std::size_t>(N_), -1);
  for (int n = 0; n < N_; ++n) {
    auto& q = fifo_[static_cast<std::size_t>(n)];
    if (q.empty() || q.front().created >= t) continue;
    BroadcastRecord r;
    r.src = n;
    r.tree_src = n;
    r.created = q.front().created;
    r.measured = q.front().measured;
    r.receptions_left = N_ - 1;
    node_packet[static_cast<std::size_t>(n)] = static_cast<int>(rec_.size());
    rec_.push_back(r);
    q.pop_front();
    --waiting_;
    sources.push_back(n);
  }
  const int M = static_cast<int>(sources.size());
  ++periods_;
  empty_ += M == 0;
  sum_M_ += M;
  sum_M2_ += static_cast<double>(M) * M;
  period_start_ = t;
  if (M == 0 && tp_ == 0 && !padded_) {
    // No packet and no scans: an empty slot.
    sum_len_ += 1;
    ++periods_done_;
    next_start_ = t + slot_;
    start_ev_.notify(time_of(next_start_) - sc_core::sc_time_stamp());
    return;
  }
  Schedule s = period_schedule(sources);
  item_packet_.assign(static_cast<std::size_t>(s.items()), -1);
  for (int i = 0; i < s.items(); ++i)
    if (s.broadcast(i)) item_packet_[i] = node_packet[static_cast<std::size_t>(s.source(i))];
  for (const Transmission& tr : s.transmissions) {
    const int p = item_packet_[static_cast<std::size_t>(tr.item)];
    if (p >= 0) ++rec_[static_cast<std::size_t>(p)].transmissions;
  }
  pieces_left_.assign(static_cast<std::size_t>(M) * static_cast<std::size_t>(N_),
                      static_cast<std::uint16_t>(split_ ? d_ : 1));
  if (s.transmissions.empty()) {  // an empty period with no scans: only its length
    batch_ = -1;
    finish_period(t);
    return;
  }
  batch_ = driver_->append(std::move(s), t);
}

void DynamicPmnb::item_in(int batch, int item, int node, Cycle t) {
  if (batch != batch_) return;
  const int p = item_packet_[static_cast<std::size_t>(item)];
  if (p < 0) return;  // a scan message
  std::uint16_t& left = pieces_left_[static_cast<std::size_t>(p) * static_cast<std::size_t>(N_) +
                                     static_cast<std::size_t>(node)];
  if (--left > 0) return;  // algorithm II: the node has not got every mini-packet yet
  BroadcastRecord& r = rec_[static_cast<std::size_t>(p)];
  stats_.on_flits_delivered(L_, t);
  stats_.on_reception(r, t);
  r.last_reception = std::max(r.last_reception, t);
  if (--r.receptions_left == 0) stats_.on_broadcast_done(r);
}

void DynamicPmnb::period_done(int batch, Cycle t) {
  if (batch == batch_) finish_period(t);
}

void DynamicPmnb::finish_period(Cycle t) {
  const int M = static_cast<int>(rec_.size());
  Cycle end = t;
  if (padded_) {
    // The theorem's period: V + M X slots.
    const double X = theorem_X(), V = theorem_V();
    end = std::max(t, period_start_ + static_cast<Cycle>(std::ceil(
                                          (V + M * X) * static_cast<double>(slot_) - 1e-9)));
  }
  for (const BroadcastRecord& r : rec_)
    if (r.measured) period_end_.add(r.created, static_cast<double>(end - r.created));
  sum_len_ += static_cast<double>(end - period_start_) / static_cast<double>(slot_);
  ++periods_done_;
  next_start_ = end;
  const Cycle now = cycle_ceil(sc_core::sc_time_stamp());
  start_ev_.notify(time_of(std::max(end, now)) - sc_core::sc_time_stamp());
}

DynamicPmnbResult DynamicPmnb::result() const {
  DynamicPmnbResult r;
  r.algorithm = split_ ? "II" : "III";
  r.period = padded_ ? "theorem" : "exact";
  r.d = d_;
  r.N = N_;
  r.scan_slots = tp_;
  r.slot_cycles = static_cast<double>(slot_);
  r.periods = periods_;
  r.empty_periods = empty_;
  if (periods_ > 0) {
    r.mean_M = sum_M_ / static_cast<double>(periods_);
    r.mean_M2 = sum_M2_ / static_cast<double>(periods_);
  }
  if (periods_done_ > 0) r.mean_period_slots = sum_len_ / static_cast<double>(periods_done_);
  r.a_measured = r.mean_M > 0 ? r.mean_M2 / (2.0 * N_ * r.mean_M) - 1.0 / (2.0 * N_) : 0;
  // The theorem, in slots.
  const double N = N_, d = d_;
  r.X = theorem_X();
  r.V = theorem_V();
  r.lambda = cfg_.traffic.broadcast.rate * static_cast<double>(slot_);
  r.rho_thm = r.lambda * N * r.X;
  r.rho_17 = r.lambda * (N - 1) / d;
  r.limit_rho = 1 / (1 + r.V / (N * r.X));
  const double D = 1 - r.rho_thm - r.lambda * r.V;
  r.theorem_stable = D > 0;
  auto T_of = [&](double a, double* W) {
    const double w = r.rho_thm * r.X / (2 * D) + (1 - r.rho_thm) * r.V / (2 * D) +
                     (1 - r.rho_thm * a - r.lambda * r.V) * r.V / D;
    if (W) *W = w;
    return w + r.X + a * N * r.X;
  };
  if (r.theorem_stable) {
    r.T = T_of(r.a_measured, &r.W);
    const double Mbar = r.lambda * N * r.V / (1 - r.rho_thm);
    const double Mhat = std::floor(Mbar) + 1;
    const double a_lo =
        Mbar > 0 ? (Mbar + (Mhat - 1) * (2 * Mbar - Mhat)) / (2 * N * Mbar) - 1 / (2 * N) : 0;
    r.T_lo = T_of(std::max(0.0, a_lo), nullptr);
    r.T_hi = T_of(0.5 - 1 / (2 * N), nullptr);
  } else {
    // Over the theorem's stability limit its delay is unbounded: no finite value to print
    // beside the model's (results.json: null; the summary says so).
    r.W = r.T = r.T_lo = r.T_hi = std::numeric_limits<double>::infinity();
  }
  r.period_end_delay = period_end_.summarize(batches_);
  r.waiting_at_end = waiting_;
  return r;
}

}  // namespace sy
