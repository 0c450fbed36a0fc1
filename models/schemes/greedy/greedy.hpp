// Greedy routing on hypercubes and butterflies (Stamoulis & Tsitsiklis): the paper's bounds and
// exact cases, in packet times, printed beside the model's mean delay T. The model: all-port
// nodes, unbounded FIFO per arc (output-queued routers with all-port injection), unit packets,
// Poisson arrivals of lambda packets per node per packet time, bit_flip destinations with p,
// e-cube (hypercube) or destination-tag (butterfly) routing; T counts every packet, a packet to
// its own node with delay 0 on the hypercube (traffic.self: deliver_locally).
#pragma once
#include <string>

namespace sy {

struct GreedyBounds {
  bool butterfly = false;
  int d = 0;                 // dimension / stages
  double p = 0, lambda = 0;  // flip probability; packets per node per packet time
  double rho = 0;            // per-arc load: lambda p (hypercube), lambda max(p, 1-p) (butterfly)
  double lower = 0, upper = 0;  // Prop. 13 / 12 (hypercube), Prop. 14 / 17 (butterfly)
  double slotted_upper = 0;     // upper + one slot (slot = 1/S packet times), the slotted model
  bool exact_known = false;     // hypercube p = 1; butterfly p in {0, 1}
  double exact = 0;
  // The first arcs a packet meets are M/D/1 queues (external Poisson arrivals only): the mean
  // sojourn (wait + transmission) at a dimension-0 arc (hypercube) and at a level-0 straight and
  // vertical arc (butterfly), in packet times.
  double md1_first = 0, md1_first_straight = 0, md1_first_vertical = 0;
  // Lower bounds on T beyond greedy routing. Hypercube: Prop. 2 (any scheme) as the explicit
  // max{dp, p D(2^d; rho)} of its proof with D(2^d; rho) >= 1 + rho/(2^(d+1)(1 - rho)) [Bru71]
  // (the exact M/D/2^d delay is not computed: the bound used is the paper's own, slightly
  // weaker); Prop. 3 (oblivious schemes, greedy included) as the explicit
  // max{dp, p (1 + rho/(2(1 - rho)))} its proof ends with (the statement itself is an Omega(.)
  // with no constant). Butterfly: Prop. 14 (any scheme), the same value as `lower`. Each is 0
  // on the other network.
  double prop2_lower_any = 0, prop3_lower_oblivious = 0, prop14_lower_any = 0;
  // Mean number of packets in the network (steady state): the PS network's mean, which
  // dominates it (Prop. 11): d 2^d rho/(1 - rho) on the hypercube (Prop. 12, eq. 13),
  // d 2^d (lambda p/(1 - lambda p) + lambda (1 - p)/(1 - lambda (1 - p))) on the butterfly
  // (Prop. 17, eqs. 20-21); slotted: plus the mean arrivals in one slot, lambda 2^d/S (section
  // 3.4, N(k tau) <= N + X_k), the same one slot as slotted_upper by Little's law.
  double packets_bound = 0, packets_slotted_bound = 0;
  bool stable() const { return rho < 1; }
};

// slot_fraction: one cycle in packet times (1/S, S = L tau cycles per packet time).
GreedyBounds greedy_bounds(bool butterfly, int d, double p, double lambda, double slot_fraction);

// Mean sojourn of an M/D/1 queue with unit service at load r (wait + service): 1 + r/(2(1-r)).
double md1_sojourn(double r);

}  // namespace sy
