#include "sim/analysis.hpp"

namespace sy {

long long zero_load_latency(const Config& c, int hops, int flits) {
  const long long a = c.timing.alpha, d = c.timing.delta, tau = c.timing.tau;
  if (c.router.switching == Switching::StoreAndForward)
    return a + hops * (d + flits * tau) + (hops == 0 ? flits * tau : 0);
  if (c.router.switching == Switching::DirectConnect)
    return a + hops * (d + c.timing.ack_per_hop) + flits * tau;  // the acknowledgment returns
  return a + hops * d + flits * tau;
}

double throughput_factor(const Config& c, const Topology& t, double mean_hops) {
  if (c.traffic.trace) return 0.0;
  // rho = (lambda_R * D + lambda_B * (N - 1)) * L * tau / d_ave, rates per node per cycle.
  const double lambda = c.traffic.packets_per_cycle();
  const double lb = c.traffic.broadcast.enabled() ? c.traffic.broadcast.rate : 0.0;
  return (lambda * mean_hops + lb * (t.num_nodes() - 1)) * c.traffic.packet_flits * c.timing.tau /
         t.average_degree();
}

}  // namespace sy
