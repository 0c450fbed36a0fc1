// Analysis: the closed forms the model is checked against. Printed beside the model's numbers,
// never in place of them.
#pragma once
#include "config/config.hpp"
#include "topology/topology.hpp"

namespace sy {

// Zero-load time of an isolated L-flit message over h hops (cycles, request -> last flit in).
long long zero_load_latency(const Config& c, int hops, int flits);
// Throughput factor rho (papers' definition): the link utilization the offered unicast load needs
// when every packet takes a shortest path: lambda_packets * L * tau * D_pattern / d_ave.
double throughput_factor(const Config& c, const Topology& t, double mean_hops);

}  // namespace sy
