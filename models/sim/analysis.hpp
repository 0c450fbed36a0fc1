// Analysis: the closed forms the model is checked against. Printed beside the model's numbers,
// never in place of them.
#pragma once
#include "switchyard/config/config.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

// Zero-load time of an isolated L-flit message over h hops (cycles, request -> last flit in).
long long zero_load_latency(const Config& c, int hops, int flits);
// The staged pipeline's zero-load latency (router.pipeline): alpha + h lt + 2 ni_lt + (h + 1) R +
// L tau with R = rc + va + sa + st (rc + max(va, sa) + st speculatively), + h L tau for
// store-and-forward. Exact when every VC holds a header's credit round trip (vc_depth tau >=
// rc + va + sa + st + lt + credit_delay); shallower buffers stall the flits behind the header.
double staged_zero_load(const Config& c, double hops, double flits);

// Unicast packets a link carries per packet each terminal generates: the throughput factor of a
// unicast load lambda (packets per terminal per packet time) is rho = lambda * share.
//  - direct networks (the papers' definition): D / d_ave, D the pattern's mean hops, d_ave the
//    links per node; a hypercube with bit_flip p: d p / d = p, every arc's load;
//  - butterfly: the busiest arc: bit_flip max(p, 1 - p) (straight arcs 1 - p, vertical p);
//    uniform 1/k (a source's own row included) or N / (k (N - 1)) (excluded); other patterns by
//    routing every source's destinations.
double unicast_link_share(const TrafficConfig& t, const Topology& topo, double mean_hops);

// Mean hops of a pattern where it has a closed form: uniform (with or without the source),
// bit_flip (d p on a hypercube; n on a butterfly, every route). -1: no closed form here.
double pattern_mean_hops(const TrafficConfig& t, const Topology& topo);

// Throughput factor rho (papers' definition): the link utilization the offered load needs when
// every packet takes its network's minimal route: lambda_packets * L * tau * share, plus the
// broadcast term lambda_B (N - 1) L tau / d_ave.
double throughput_factor(const Config& c, const Topology& t, double mean_hops);

}  // namespace sy
