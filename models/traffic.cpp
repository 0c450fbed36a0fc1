#include "traffic.hpp"

#include <cmath>

namespace sy {

Traffic::Traffic(const Config& cfg, const Topology& topo)
    : cfg_(cfg), topo_(topo), p_(cfg.traffic.packets_per_cycle()) {
  if (cfg.traffic.trace) return;
  const int N = topo.num_nodes();
  rng_.reserve(N);
  poisson_t_.assign(N, 0.0);
  for (int n = 0; n < N; ++n) {
    rng_.emplace_back(cfg.simulation.seed * 0x100000001b3ull + static_cast<std::uint64_t>(n) + 1);
    if (p_ <= 0) continue;
    const Cycle first = draw_next(n, 0);
    if (first != kNever) due_.push({first, n});
  }
}

Cycle Traffic::draw_next(int node, Cycle from) {
  Rng& r = rng_[node];
  if (cfg_.traffic.process == Process::Bernoulli) {
    // First success at or after `from`: geometric number of trials, the first trial at `from`.
    const std::uint64_t g = r.geometric(p_);
    return from + g - 1;
  }
  poisson_t_[node] += r.exponential(p_);
  const double c = std::floor(poisson_t_[node]);
  return c > 9e18 ? kNever : static_cast<Cycle>(c);
}

bool Traffic::measured(Cycle t) const {
  const Cycle w0 = cfg_.simulation.warmup;
  return t >= w0 && t < w0 + cfg_.simulation.measure;
}

int Traffic::destination(int src, Rng& rng) const {
  const TrafficConfig& tc = cfg_.traffic;
  const int N = topo_.num_nodes();
  switch (tc.pattern) {
    case Pattern::Uniform:
      if (tc.exclude_self) {
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
      int dst = src;
      for (int d = 0; d < topo_.num_dims(); ++d)
        dst = topo_.with_coord(dst, d, topo_.size(d) - 1 - topo_.coord(src, d));
      return dst;
    }
    case Pattern::Hotspot:
      if (rng.uniform() < tc.hotspot_fraction)
        return tc.hotspot_nodes[rng.below(tc.hotspot_nodes.size())];
      if (tc.exclude_self && N > 1) {
        const int d = static_cast<int>(rng.below(N - 1));
        return d >= src ? d + 1 : d;
      }
      return static_cast<int>(rng.below(N));
    case Pattern::BitFlip: {
      int dst = src;
      for (int d = 0; d < topo_.num_dims(); ++d)
        if (rng.uniform() < tc.bit_flip_probability) dst ^= 1 << d;
      return dst;
    }
  }
  return src;
}

double Traffic::mean_hops() const {
  const TrafficConfig& tc = cfg_.traffic;
  const int N = topo_.num_nodes();
  if (tc.trace) {
    double h = 0, f = 0;
    for (const auto& m : tc.messages) h += double(topo_.distance(m.src, m.dst)) * m.flits, f += m.flits;
    return f > 0 ? h / f : 0.0;
  }
  switch (tc.pattern) {
    case Pattern::Uniform:
      return topo_.average_distance(!tc.exclude_self);
    case Pattern::Transpose:
    case Pattern::BitComplement: {
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
             (1 - tc.hotspot_fraction) * topo_.average_distance(!tc.exclude_self);
    }
    case Pattern::BitFlip:
      return topo_.num_dims() * tc.bit_flip_probability;
  }
  return 0.0;
}

Cycle Traffic::next_time() const {
  if (cfg_.traffic.trace)
    return exhausted() ? kNever : cfg_.traffic.messages[next_msg_].time;
  return due_.empty() ? kNever : due_.top().t;
}

Cycle Traffic::generate(Cycle t, std::vector<NetworkInterface*>& nis,
                        std::vector<NetworkInterface*>& woke) {
  auto poke = [&](NetworkInterface* ni) {
    if (!ni->active) {
      ni->active = true;
      woke.push_back(ni);
    }
  };
  const TrafficConfig& tc = cfg_.traffic;
  if (tc.trace) {
    while (next_msg_ < tc.messages.size() && tc.messages[next_msg_].time <= t) {
      const TraceMessage& m = tc.messages[next_msg_];
      nis[m.src]->send(m.dst, m.flits, m.priority, t, true, static_cast<std::uint32_t>(next_msg_));
      poke(nis[m.src]);
      ++next_msg_;
    }
    return next_time();
  }
  while (!due_.empty() && due_.top().t <= t) {
    const int n = due_.top().node;
    due_.pop();
    Rng& r = rng_[n];
    nis[n]->send(destination(n, r), tc.packet_flits, tc.priority, t, measured(t), 0);
    poke(nis[n]);
    const Cycle nx = draw_next(n, t + 1);
    if (tc.process == Process::Poisson) {
      // More arrivals inside this same cycle form the batch.
      if (nx != kNever) due_.push({nx < t ? t : nx, n});
    } else if (nx != kNever) {
      due_.push({nx, n});
    }
  }
  return next_time();
}

}  // namespace sy
