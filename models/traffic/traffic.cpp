#include "switchyard/traffic/traffic.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "switchyard/base/clock.hpp"

namespace sy {

Traffic::Traffic(sc_core::sc_module_name name, const Config& cfg, const Topology& topo)
    : sc_core::sc_module(name),
      out("out", static_cast<std::size_t>(topo.num_nodes())),
      cfg_(cfg),
      topo_(topo),
      // (Every stream: each traffic class's unicast sources and the broadcast ones.)
      due_(static_cast<std::size_t>(cfg.traffic.traffic_classes() + 1) *
           static_cast<std::size_t>(topo.num_nodes())),
      p_(cfg.traffic.packets_per_cycle()),
      flip_bits_(topo.indirect() ? cfg.topology.n : topo.num_dims()) {
  if (cfg.traffic.trace) return;
  const TrafficConfig& tc = cfg.traffic;
  const int nodes = topo.num_nodes();
  if (tc.pattern == Pattern::RandomPermutation) {
    // A permutation drawn from the seed (Fisher-Yates); with self: exclude a derangement
    // (redrawn until no node maps onto itself; about e draws).
    Rng r(cfg.simulation.seed * 0x2545f4914f6cdd1dull + 0x9e37);
    perm_.resize(static_cast<std::size_t>(nodes));
    for (bool again = true; again;) {
      for (int i = 0; i < nodes; ++i) perm_[i] = i;
      for (int i = nodes - 1; i > 0; --i)
        std::swap(perm_[i],
                  perm_[static_cast<std::size_t>(r.below(static_cast<std::uint64_t>(i) + 1))]);
      again = false;
      if (tc.exclude_self() && nodes > 1)
        for (int i = 0; i < nodes; ++i) again = again || perm_[i] == i;
    }
  }
  if (tc.pattern == Pattern::Matrix) {
    // Per source: its row sum as its rate, the row as its destination distribution.
    // (With traffic.classes: the row sum itself, split among the classes in rate().)
    const double unit = tc.rate_in_flits && tc.classes.empty() ? tc.source_mean_flits() : 1.0;
    cdf_.assign(tc.matrix.size(), 0.0);
    rates_.assign(static_cast<std::size_t>(nodes), 0.0);
    for (int s = 0; s < nodes; ++s) {
      double sum = 0;
      for (int d = 0; d < nodes; ++d) {
        sum += tc.matrix[static_cast<std::size_t>(s) * nodes + d];
        cdf_[static_cast<std::size_t>(s) * nodes + d] = sum;
      }
      rates_[static_cast<std::size_t>(s)] = sum / unit;
    }
  }
  // Streams c*N..c*N+N-1: unicast sources of traffic class c (one class without
  // traffic.classes); C*N..C*N+N-1: broadcast sources (when a scheme is set; one class then).
  const int N = topo.num_nodes();
  const int unicast = tc.traffic_classes() * N;
  const int streams = cfg.traffic.broadcast.enabled() ? unicast + N : unicast;
  rng_.reserve(streams);
  poisson_t_.assign(streams, 0.0);
  log_q_.assign(streams, 0.0);
  const bool on_off = tc.process == Process::OnOff;
  if (on_off) {
    onoff_.assign(static_cast<std::size_t>(streams), OnOffState{});
    if (tc.burst_beta < 1) log_stay_on_ = std::log1p(-tc.burst_beta);
    if (tc.burst_alpha < 1) log_stay_off_ = std::log1p(-tc.burst_alpha);
  }
  if (tc.packet_sizes.size() > 1) {
    double sum = 0;
    for (double w : tc.packet_size_weights) size_cdf_.push_back(sum += w);
  }
  for (int s = 0; s < streams; ++s) {
    const std::uint64_t salt = s >= unicast ? std::uint64_t{1} << 32
                               : s < N      ? 0
                                            : static_cast<std::uint64_t>(s / N) << 40;
    rng_.emplace_back(cfg.simulation.seed * 0x100000001b3ull + salt +
                      static_cast<std::uint64_t>(s % N) + 1);
    if (rate(s) <= 0) continue;
    if (on_off) {
      // The state at cycle 0 from the chain's stationary law (on with probability
      // alpha / (alpha + beta)), so the mean rate holds from the first cycle; BookSim2 starts
      // each source on or off with probability 1/2 (the same law when alpha = beta). The
      // period under way then lasts a geometric number of cycles from cycle 0 (memoryless).
      OnOffState& st = onoff_[static_cast<std::size_t>(s)];
      Rng& r = rng_.back();
      st.on = r.uniform() * (tc.burst_alpha + tc.burst_beta) < tc.burst_alpha;
      st.end = period(r, st.on);
      const double r1 = tc.on_rate(rate(s));
      if (r1 < 1) log_q_[s] = std::log1p(-r1);
    } else if (rate(s) < 1) {
      log_q_[s] = std::log1p(-rate(s));
    }
    const Cycle first = draw_next(s, 0);
    if (first_.empty()) first_.assign(static_cast<std::size_t>(streams), kNever);
    first_[static_cast<std::size_t>(s)] = first;
    if (first != kNever) due_.add(first, s);
  }
}

bool Traffic::set_lanes(const std::vector<std::uint8_t>& lane_of, int lanes) {
  if (cfg_.traffic.trace || cfg_.traffic.broadcast.enabled()) return false;
  const std::size_t streams = first_.size();
  for (int k = 0; k < lanes; ++k) lanes_.emplace_back(new LaneSources(streams == 0 ? 1 : streams));
  const std::size_t N = static_cast<std::size_t>(topo_.num_nodes());
  for (std::size_t s = 0; s < streams; ++s)
    if (first_[s] != kNever) lanes_[lane_of[s % N]]->due.add(first_[s], static_cast<int>(s));
  due_ = ArrivalCalendar(1);
  first_ = {};
  return true;
}

void Traffic::generate_lane(Cycle t, int k) {
  LaneSources& ls = *lanes_[static_cast<std::size_t>(k)];
  if (ls.due.next() <= t) run_calendar(ls.due, t, ls.payload);
}

double Traffic::rate(int stream) const {
  const TrafficConfig& tc = cfg_.traffic;
  const int N = topo_.num_nodes();
  if (stream >= tc.traffic_classes() * N) return tc.broadcast.rate;
  if (tc.classes.empty()) return rates_.empty() ? p_ : rates_[static_cast<std::size_t>(stream)];
  // Class c: its share of the source's rate (the matrix's row sum, or rate), in packets.
  const TrafficClass& k = tc.classes[static_cast<std::size_t>(stream / N)];
  const double src = rates_.empty() ? tc.rate : rates_[static_cast<std::size_t>(stream % N)];
  return tc.rate_in_flits ? src * k.share / k.packet_flits : src * k.share;
}

Cycle Traffic::draw_next(int stream, Cycle from) {
  Rng& r = rng_[stream];
  const double p = rate(stream);
  if (cfg_.traffic.process == Process::Bernoulli) {
    // First success at or after `from`: geometric number of trials, the first trial at `from`.
    // (r.geometric(p), with the logarithm of 1 - p kept.)
    const std::uint64_t g = p >= 1.0 ? 1 : r.geometric_log(log_q_[stream]);
    return from + g - 1;
  }
  if (cfg_.traffic.process == Process::OnOff) return draw_on_off(stream, from);
  poisson_t_[stream] += r.exponential(p);
  const double c = std::floor(poisson_t_[stream]);
  return c > 9e18 ? kNever : static_cast<Cycle>(c);
}

// The length of an on-period (on) or off-period: trials up to the first switch, at least 1.
Cycle Traffic::period(Rng& r, bool on) const {
  const double p = on ? cfg_.traffic.burst_beta : cfg_.traffic.burst_alpha;
  return p >= 1.0 ? 1 : r.geometric_log(on ? log_stay_on_ : log_stay_off_);
}

// on_off: the first packet at or after `from`: the periods are walked forward, and within an
// on-period the Bernoulli trials at r1 are drawn as a geometric gap; a gap past the period's end
// is dropped (the trials are memoryless) and the walk goes on from the next period.
Cycle Traffic::draw_on_off(int stream, Cycle from) {
  Rng& r = rng_[stream];
  OnOffState& st = onoff_[static_cast<std::size_t>(stream)];
  const double q = log_q_[stream];
  for (;;) {
    while (st.end <= from) {
      st.on = !st.on;
      st.end += period(r, st.on);
    }
    if (st.on) {
      const Cycle t = from + (q == 0 ? 1 : r.geometric_log(q)) - 1;
      if (t < st.end) return t;
    }
    from = st.end;
  }
}

// packet_sizes: one packet's length, size i with probability weight_i / sum of the weights.
int Traffic::packet_length(Rng& r) const {
  const double u = r.uniform() * size_cdf_.back();
  const std::size_t i = static_cast<std::size_t>(
      std::upper_bound(size_cdf_.begin(), size_cdf_.end(), u) - size_cdf_.begin());
  return cfg_.traffic.packet_sizes[std::min(i, size_cdf_.size() - 1)];
}

Traffic::~Traffic() = default;

void Traffic::request(Payload& pl, int src, int dst, int flits, int priority, Cycle t,
                      int traffic_class) {
  tlm::tlm_generic_payload& gp = pl.gp;
  // A length-only message: no data pointer, data_length = flits * flit_bytes. dst -1: broadcast.
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(static_cast<sc_dt::uint64>(dst < 0 ? 0 : dst));
  pl.ext->broadcast = dst < 0;
  gp.set_data_ptr(nullptr);
  const unsigned bytes =
      static_cast<unsigned>(flits) * static_cast<unsigned>(cfg_.interface.flit_bytes);
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  pl.ext->priority = priority;
  pl.ext->traffic_class = traffic_class;
  pl.ext->tag = 0;
  // At cycle t: the network may run ahead of the kernel's time (Network::clock), so t is the
  // initiator's local time, now + delay (loosely timed).
  sc_core::sc_time delay = time_of(t) - sc_core::sc_time_stamp();
  out[static_cast<std::size_t>(src)]->b_transport(gp, delay);
  if (gp.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw std::logic_error("traffic: the NI refused a message: " + gp.get_response_string());
}

int Traffic::destination(int src, Rng& rng) const {
  const TrafficConfig& tc = cfg_.traffic;
  const int N = topo_.num_nodes();
  switch (tc.pattern) {
    case Pattern::Uniform:
      if (tc.exclude_self()) {
        const int d = static_cast<int>(rng.below(N - 1));
        return d >= src ? d + 1 : d;
      }
      return static_cast<int>(rng.below(N));
    case Pattern::Transpose: {
      // Coordinate d takes the value of coordinate D-1-d (no allocation per packet).
      const int D = topo_.num_dims();
      int dst = src;
      for (int d = 0; d < D; ++d) dst = topo_.with_coord(dst, d, topo_.coord(src, D - 1 - d));
      return dst;
    }
    case Pattern::BitComplement: {
      if (topo_.indirect()) return N - 1 - src;  // every base-k digit of the row complemented
      int dst = src;
      for (int d = 0; d < topo_.num_dims(); ++d)
        dst = topo_.with_coord(dst, d, topo_.size(d) - 1 - topo_.coord(src, d));
      return dst;
    }
    case Pattern::Hotspot:
      if (rng.uniform() < tc.hotspot_fraction)
        return tc.hotspot_nodes[rng.below(tc.hotspot_nodes.size())];
      if (tc.exclude_self() && N > 1) {
        const int d = static_cast<int>(rng.below(N - 1));
        return d >= src ? d + 1 : d;
      }
      return static_cast<int>(rng.below(N));
    case Pattern::BitFlip: {
      int dst = src;
      for (int d = 0; d < flip_bits_; ++d)
        if (rng.uniform() < tc.bit_flip_probability) dst ^= 1 << d;
      return dst;
    }
    case Pattern::Tornado:
    case Pattern::Neighbor: {
      int dst = src;
      for (int d = 0; d < topo_.num_dims(); ++d) {
        const int n = topo_.size(d);
        const int step = tc.pattern == Pattern::Neighbor ? 1 : (n + 1) / 2 - 1;
        dst = topo_.with_coord(dst, d, (topo_.coord(src, d) + step) % n);
      }
      return dst;
    }
    case Pattern::Shuffle:
    case Pattern::BitReverse:
    case Pattern::BitRotation: {
      int b = 0;
      while ((1 << b) < N) ++b;
      if (b == 0) return src;
      if (tc.pattern == Pattern::Shuffle) return ((src << 1) | (src >> (b - 1))) & (N - 1);
      if (tc.pattern == Pattern::BitRotation) return (src >> 1) | ((src & 1) << (b - 1));
      int dst = 0;
      for (int i = 0; i < b; ++i) dst |= ((src >> i) & 1) << (b - 1 - i);
      return dst;
    }
    case Pattern::RandomPermutation:
      return perm_[static_cast<std::size_t>(src)];
    case Pattern::Adversarial:
      return topo_.indirect_network()->adversarial_destination(src, rng.next());
    case Pattern::Matrix: {
      const double* row = cdf_.data() + static_cast<std::size_t>(src) * N;
      const double u = rng.uniform() * row[N - 1];
      const int d = static_cast<int>(std::upper_bound(row, row + N, u) - row);
      return d < N ? d : N - 1;
    }
  }
  return src;
}

double Traffic::mean_hops() const {
  const TrafficConfig& tc = cfg_.traffic;
  const int N = topo_.num_nodes();
  if (topo_.kind() == Topology::Kind::Butterfly && !tc.trace)
    return topo_.diameter();  // every butterfly route: n hops
  if (tc.trace) {
    double h = 0, f = 0;
    for (const auto& m : tc.messages)
      h += double(topo_.distance(m.src, m.dst)) * m.flits, f += m.flits;
    return f > 0 ? h / f : 0.0;
  }
  switch (tc.pattern) {
    case Pattern::Uniform:
      return topo_.average_distance(!tc.exclude_self());
    case Pattern::Transpose:
    case Pattern::BitComplement:
    case Pattern::Tornado:
    case Pattern::Neighbor:
    case Pattern::Shuffle:
    case Pattern::BitReverse:
    case Pattern::BitRotation:
    case Pattern::RandomPermutation: {
      Rng dummy(0);
      double s = 0;
      for (int n = 0; n < N; ++n) s += topo_.distance(n, destination(n, dummy));
      return s / N;
    }
    case Pattern::Hotspot: {
      double hot = 0;
      for (int n = 0; n < N; ++n)
        for (int h : tc.hotspot_nodes) hot += topo_.distance(n, h);
      hot /= double(N) * tc.hotspot_nodes.size();
      return tc.hotspot_fraction * hot +
             (1 - tc.hotspot_fraction) * topo_.average_distance(!tc.exclude_self());
    }
    case Pattern::BitFlip:
      return topo_.num_dims() * tc.bit_flip_probability;
    case Pattern::Adversarial: {
      // Over draws 0 .. M - 1 per source (every destination of a dragonfly's next group when M
      // is N; fewer past 2048 terminals: an estimate).
      const IndirectNetwork* net = topo_.indirect_network();
      const int M = N <= 2048 ? N : std::max(1, (1 << 22) / N);
      double s = 0;
      for (int n = 0; n < N; ++n)
        for (int d = 0; d < M; ++d)
          s += topo_.distance(n, net->adversarial_destination(n, static_cast<std::uint64_t>(d)));
      return s / (static_cast<double>(N) * M);
    }
    case Pattern::Matrix: {
      double h = 0, w = 0;
      for (int s = 0; s < N; ++s)
        for (int d = 0; d < N; ++d) {
          const double r = tc.matrix[static_cast<std::size_t>(s) * N + d];
          h += r * topo_.distance(s, d);
          w += r;
        }
      return w > 0 ? h / w : 0.0;
    }
  }
  return 0.0;
}

Cycle Traffic::next_time() const {
  if (cfg_.traffic.trace) return exhausted() ? kNever : cfg_.traffic.messages[next_msg_].time;
  if (lanes_.empty()) return due_.next();
  Cycle next = kNever;
  if (only_lo_ >= 0) {
    for (int k = only_lo_; k < only_hi_; ++k)
      next = std::min(next, lanes_[static_cast<std::size_t>(k)]->due.next());
    return next;
  }
  for (const auto& ls : lanes_) next = std::min(next, ls->due.next());
  return next;
}

void Traffic::generate(Cycle t) {
  const TrafficConfig& tc = cfg_.traffic;
  if (tc.trace) {
    while (next_msg_ < tc.messages.size() && tc.messages[next_msg_].time <= t) {
      const TraceMessage& m = tc.messages[next_msg_];
      request(payload_, m.src, m.dst, m.flits, m.priority, t);
      ++next_msg_;
    }
    return;
  }
  run_calendar(due_, t, payload_);
}

// Every arrival of `due` at or before t, requested on pl.
void Traffic::run_calendar(ArrivalCalendar& due, Cycle t, Payload& pl) {
  const TrafficConfig& tc = cfg_.traffic;
  const int N = topo_.num_nodes();
  const int unicast = tc.traffic_classes() * N;
  due.run_until(t, [&](int s) {
    if (s < N && tc.classes.empty()) {
      const int dst = destination(s, rng_[s]);
      const int flits = size_cdf_.empty() ? tc.packet_flits : packet_length(rng_[s]);
      request(pl, s, dst, flits, tc.priority, t);
    } else if (s < unicast) {
      const int c = s / N, node = s % N;
      const TrafficClass& k = tc.classes[static_cast<std::size_t>(c)];
      request(pl, node, destination(node, rng_[s]), k.packet_flits, k.priority, t, c);
    } else {
      request(pl, s - unicast, -1, tc.packet_flits, tc.priority, t);
    }
    const Cycle nx = draw_next(s, t + 1);
    // (Poisson: more arrivals inside this same cycle form the batch.)
    return tc.process == Process::Poisson && nx < t ? t : nx;
  });
}

}  // namespace sy
