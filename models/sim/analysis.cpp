#include "switchyard/sim/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sy {

double staged_zero_load(const Config& c, double hops, double flits) {
  const PipelineConfig& p = c.router.pipeline;
  const double a = c.timing.alpha, tau = c.timing.tau;
  // Injection channel and the ejection channel (ni_lt each), h links (lt each); h + 1 routers
  // (source, intermediate, destination); the flits one per tau behind the header;
  // store-and-forward waits for the whole packet at each of the h routers reached over a link.
  const double t = a + hops * p.lt + 2 * p.ni_lt + (hops + 1) * p.router_cycles() + flits * tau;
  return c.router.switching == Switching::StoreAndForward ? t + hops * flits * tau : t;
}

long long zero_load_latency(const Config& c, int hops, int flits) {
  if (c.router.pipeline.staged) return std::llround(staged_zero_load(c, hops, flits));
  const long long a = c.timing.alpha, d = c.timing.delta, tau = c.timing.tau;
  if (c.router.switching == Switching::StoreAndForward)
    return a + hops * (d + flits * tau) + (hops == 0 ? flits * tau : 0);
  if (c.router.switching == Switching::DirectConnect)
    return a + hops * (d + c.timing.ack_per_hop) + flits * tau;  // the acknowledgment returns
  return a + hops * d + flits * tau;
}

double pattern_mean_hops(const TrafficConfig& t, const Topology& topo) {
  if (topo.kind() == Topology::Kind::Butterfly) return topo.diameter();  // every route: n hops
  if (t.pattern == Pattern::Uniform) return topo.average_distance(!t.exclude_self());
  if (t.pattern == Pattern::BitFlip) return topo.num_dims() * t.bit_flip_probability;
  return -1;
}

namespace {

// A butterfly's busiest arc, by routing: `add(src, dst, weight)` for every source's destinations.
template <class Fill>
double busiest_arc(const Topology& topo, Fill fill) {
  const IndirectNetwork& b = *topo.indirect_network();
  const int P = topo.num_ports();
  std::vector<double> load(static_cast<std::size_t>(topo.num_routers()) * P, 0.0);
  auto add = [&](int src, int dst, double w) {
    for (int r = b.injection_router(src);;) {
      const int p = b.route(r, dst);
      if (p < 0) break;
      load[static_cast<std::size_t>(r) * P + p] += w;
      r = b.neighbor(r, p);
    }
  };
  fill(add);
  return load.empty() ? 0.0 : *std::max_element(load.begin(), load.end());
}

}  // namespace

double unicast_link_share(const TrafficConfig& t, const Topology& topo, double mean_hops) {
  if (!topo.indirect()) return mean_hops / topo.average_degree();
  const int N = topo.num_nodes();
  const double uniform = topo.indirect_network()->uniform_link_share(t.exclude_self());
  switch (t.pattern) {
    case Pattern::BitFlip:
      return std::max(t.bit_flip_probability, 1 - t.bit_flip_probability);
    case Pattern::Uniform:
      return uniform;
    case Pattern::Hotspot: {
      // Uniform background everywhere (at most `uniform` per arc) plus the hotspot routes.
      const double f = t.hotspot_fraction;
      const double hot = busiest_arc(topo, [&](auto& add) {
        for (int s = 0; s < N; ++s)
          for (int h : t.hotspot_nodes) add(s, h, 1.0 / t.hotspot_nodes.size());
      });
      return f * hot + (1 - f) * uniform;
    }
    case Pattern::BitComplement:
      return busiest_arc(topo, [&](auto& add) {
        for (int s = 0; s < N; ++s) add(s, N - 1 - s, 1.0);
      });
    case Pattern::Adversarial: {
      // The network's worst case under its minimal routing, over draws 0 .. N - 1 a source
      // (every destination of a dragonfly's next group, evenly); up to 2048 terminals.
      if (N > 2048) break;
      const IndirectNetwork& net = *topo.indirect_network();
      return busiest_arc(topo, [&](auto& add) {
        for (int s = 0; s < N; ++s)
          for (int d = 0; d < N; ++d)
            add(s, net.adversarial_destination(s, static_cast<std::uint64_t>(d)), 1.0 / N);
      });
    }
    default:  // patterns on coordinates (refused on butterflies) or a matrix
      break;
  }
  return 0.0;
}

double throughput_factor(const Config& c, const Topology& t, double mean_hops) {
  if (c.traffic.trace) return 0.0;
  // rho = (lambda_R * share + lambda_B * (N - 1) / d_ave) * L * tau, rates per node per cycle.
  const double lambda = c.traffic.packets_per_cycle();
  const double lb = c.traffic.broadcast.enabled() ? c.traffic.broadcast.rate : 0.0;
  const double share = unicast_link_share(c.traffic, t, mean_hops);
  const double bcast = lb > 0 ? lb * (t.num_nodes() - 1) / t.average_degree() : 0.0;
  return (lambda * share + bcast) * c.traffic.mean_packet_flits() * c.timing.tau;
}

}  // namespace sy
