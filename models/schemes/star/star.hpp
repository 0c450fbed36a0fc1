// STAR (Single-To-All Rotation) broadcast and the priority STAR routing scheme of Yeh,
// Varvarigos & Eshoul, "A priority-based balanced routing scheme for random broadcasting and
// routing in tori" -- the parts that need no SystemC:
//
//  * StarRule: the SDC broadcast tree with ending dimension l as a local forwarding rule
//    (paper §3.1), its virtual-channel class (§3.1) and its priority class (§3.2, §4);
//  * star_balance(): the ending-dimension probabilities x_l that balance the link loads,
//    equations (2) (broadcast only) and (4) (broadcast plus uniform unicast), projected onto
//    the probability simplex when the exact solution is infeasible (§4);
//  * expected per-link loads, the throughput factor rho (§2) and its inverse.
//
// Dimensions are 0-based here: the paper's dimension i is our i-1, its ending dimension
// l = d is our d-1. Links: a dimension of size >= 3 has a '+' and a '-' link per node, a
// dimension of size 2 one link per node (as in a hypercube), a dimension of size 1 none.
//
// Tree (0-based): with ending dimension l the dimensions are covered in the rotated order
// l+1, ..., d-1, 0, ..., l. A node that receives the copy while dimension k is being covered
// (or the source, before any) forwards it
//   - along dimension k, in the direction it travels, while the next node on the ring is still
//     on this side's half of the ring (shortest paths), and
//   - on both directions of every dimension that comes after k in the rotated order (on the
//     single link if that dimension has size 2).
// On a ring of odd size n each side covers (n-1)/2 nodes. On a ring of even size n >= 4 the
// antipodal node (n/2 away) is reached from the side named by `antipode_dir` (+1 or -1; +1 by
// default), so that side covers n/2 nodes and the other n/2-1. Every node then receives exactly
// one copy, after exactly distance(src, node) hops, and a broadcast costs N-1 transmissions.
// Note: with a fixed antipode_dir the '+' and '-' links of an even ring carry n/2 and n/2-1
// copies per ring broadcast; drawing antipode_dir uniformly per broadcast (a 1-bit header field)
// makes the expected load of every link of a dimension the same, which the balance below
// (and the paper's "same for all links") assumes.
//
// Meshes are out of scope and rejected (StarRule throws std::invalid_argument): the shortest-path
// ring halves need wraparound. Tori (sizes 1, 2 and >= 3 mixed) and hypercubes are accepted.
#pragma once
#include <utility>
#include <vector>

#include "switchyard/topology/topology.hpp"

namespace sy {

class StarRule {
 public:
  // Throws std::invalid_argument for Topology::Kind::Mesh.
  explicit StarRule(const Topology& topo);

  int num_dims() const { return static_cast<int>(n_.size()); }
  int num_ports() const { return static_cast<int>(port_dim_.size()); }
  // in_port value meaning "the source injects its own packet" (num_ports(); any value outside
  // [0, num_ports()) is treated the same way).
  int injection_port() const { return num_ports(); }
  // Upper bound on children(): every network port.
  int max_children() const { return num_ports(); }

  // Fills out_ports (room for max_children() entries) with the output ports on which `node`
  // forwards a copy of the broadcast from `src` with ending dimension `ending_dim` that
  // arrived on input port `in_port` (the port of `node` that faces the upstream node, i.e.
  // topo.reverse_port(upstream's output port); injection_port() at the source). Returns the
  // count. No allocation; a division and a modulo for the arrival dimension, O(1) per other
  // dimension. `antipode_dir` (+1/-1) picks the side that reaches the antipode of even rings and
  // must be the same at every node of one broadcast.
  int children(int node, int src, int ending_dim, int in_port, int* out_ports,
               int antipode_dir = +1) const;

  // Virtual-channel class of a broadcast hop on out_port (paper §3.1, 0-based): phases that
  // cover dimensions l+1, ..., d-1 use "virtual channel 1" -> class 0; once the rotation has
  // wrapped past the last dimension (dimensions 0, ..., l) "virtual channel 2" -> class 1.
  // With l = d-1 (paper's l = d) every hop is class 1. Along any tree path the class never
  // goes from 1 back to 0. This separates the rotation's wrap only; it does not break the
  // cycles inside one ring (see the report / dateline classes of RoutingUnit).
  int vc_class(int ending_dim, int out_port) const { return port_dim_[out_port] <= ending_dim; }

  int port_dim(int p) const { return port_dim_[p]; }
  // True when the hop on out_port is a LOW priority broadcast transmission (on the ending dim).
  bool low_priority(int ending_dim, int out_port) const {
    return port_dim_[out_port] == ending_dim;
  }

 private:
  std::vector<int> n_, stride_;
  std::vector<int> plus_, minus_;         // per dimension (equal for size 2, -1 for size 1)
  std::vector<int> reach_lo_, reach_hi_;  // per dimension: nodes a side covers, without /
                                          // with the antipode
  std::vector<int> port_dim_, port_dir_;  // per port
};

// --- Priority classes (class 0 = highest) -----------------------------------------------------
// §3.2: broadcast transmissions on the ending dimension are LOW priority, all other broadcast
// transmissions HIGH. §4, two classes: unicast HIGH as well. §4, three classes: broadcast off
// the ending dimension HIGH (0), unicast MEDIUM (1), broadcast on the ending dimension LOW (2).
enum class StarPriority { TwoClass, ThreeClass };

inline bool star_low_priority(int ending_dim, int hop_dim) {
  return hop_dim == ending_dim;
}
inline int star_num_classes(StarPriority s) {
  return s == StarPriority::TwoClass ? 2 : 3;
}
// on_ending_dim is ignored for unicast.
inline int star_priority_class(StarPriority s, bool broadcast, bool on_ending_dim) {
  if (!broadcast) return s == StarPriority::TwoClass ? 0 : 1;
  if (!on_ending_dim) return 0;
  return s == StarPriority::TwoClass ? 1 : 2;
}

// --- Balance ------------------------------------------------------------------------------------
// Unicast hops per dimension in the balance system: Exact (star_unicast_hops(), the default) or
// Paper (floor(n_i/4), the paper's Eq. (4) as written: exact for n_i = 0 mod 4 but for the
// factor N/(N-1), low for other sizes: 0 for n_i = 2 or 3, 1 for 5 and 6 where the ring's mean
// distance is 1.2 and 1.5). Only the balance (x) changes; rho and the link loads stay exact.
enum class StarHops { Exact, Paper };

// All functions take the dimension sizes of a torus (hypercube = all 2) and throw
// std::invalid_argument for an empty list or a size < 1. Rates are per node per packet
// transmission time: lambda_b broadcast source packets, lambda_r unicast packets (destinations
// uniform over the other N-1 nodes, shortest paths, e.g. dimension order).

// Links per node of each dimension: 2 (size >= 3), 1 (size 2), 0 (size 1).
std::vector<int> star_links_per_node(const std::vector<int>& dims);

// Column l of the paper's Eq. (1): a[i] = transmissions on dimension-i links of one broadcast
// with ending dimension l, a[i] = (n_i - 1) * prod of n_j over the dimensions j covered before
// i in the order l+1, ..., d-1, 0, ..., l. Sums to N-1 (Eq. (3)).
std::vector<double> star_dim_transmissions(const std::vector<int>& dims, int ending_dim);

// Mean number of dimension-i hops of a unicast packet: D_i = (N/(N-1)) * mean ring distance of
// an n_i-ring over all coordinate pairs. Sums to D_ave (mean distance to the other nodes). The
// paper's Eq. (4) uses floor(n_i/4) instead (exact only for n_i = 0 mod 4 and ignoring N/(N-1)).
std::vector<double> star_unicast_hops(const std::vector<int>& dims);
// The paper's approximation of the same: floor(n_i/4) per dimension (§4).
std::vector<double> star_unicast_hops_paper(const std::vector<int>& dims);

// The exact solution of the balance system, which may lie outside [0,1]^d:
//   sum_j a_{i,j} lambda_b x_j + lambda_r D_i = (l_i / sum_k l_k) (lambda_b (N-1) + lambda_r D_ave)
// for every dimension i (l_i = links per node). When all l_i are equal (all sizes >= 3, or a
// hypercube) this is exactly Eq. (4), and with lambda_r = 0 exactly Eq. (2) (divide by
// lambda_b). With sizes 2 and >= 3 mixed, the l_i weights make the per-LINK loads equal (the
// paper's right-hand side (N-1)/d would equalise per-dimension totals instead). Size-1
// dimensions get x = 0. lambda_b = 0 is treated as lambda_b = 1, lambda_r = 0 (Eq. (2)).
// Solutions sum to 1. hops = Paper: D_i = floor(n_i/4), D_ave = their sum (the paper's Eq. (4)).
std::vector<double> star_balance_unprojected(const std::vector<int>& dims, double lambda_b = 1.0,
                                             double lambda_r = 0.0,
                                             StarHops hops = StarHops::Exact);

// The ending-dimension probabilities to use: the exact solution when it is feasible (every
// x_i in [0,1]; all equal sizes give exactly 1/d). Otherwise its projection (§4: "if x_1 > 1 and
// x_2 < 0 ... use (1, 0)"), generalised to any d as the probability vector that minimises the
// maximum expected per-link utilisation max_i star_link_loads()[i] (solved as a matrix game by
// the simplex method). In two dimensions that is exactly the paper's clamp to (1,0)/(0,1);
// when the exact solution is feasible it is also the minimiser (all loads equal rho).
// hops = Paper: the same with the paper's D_i = floor(n_i/4) (the minimax then minimises the
// loads the paper's hop counts predict).
std::vector<double> star_balance(const std::vector<int>& dims, double lambda_b = 1.0,
                                 double lambda_r = 0.0, StarHops hops = StarHops::Exact);

// Expected utilisation of one link of each dimension (Eq. (4) per link):
//   u_i = (lambda_b sum_l a_{i,l} x_l + lambda_r D_i) / l_i   (0 for size-1 dimensions).
// Exact for every link when the antipode side is drawn uniformly per broadcast (odd rings and
// size-2 dimensions need no draw); otherwise the mean over the links of dimension i.
std::vector<double> star_link_loads(const std::vector<int>& dims, double lambda_b, double lambda_r,
                                    const std::vector<double>& x);

// Throughput factor (§2): rho = lambda_b (N-1)/d_ave + lambda_r D_ave/d_ave, d_ave = links per
// node, D_ave = mean distance to the other nodes. (For a hypercube: lambda_b (2^d-1)/d +
// lambda_r (1/2 + 1/(2(2^d-1))); for tori with all n_i >= 3, d_ave = 2d as in §4.)
double star_throughput_factor(const std::vector<int>& dims, double lambda_b, double lambda_r);

// Inverse: {lambda_b, lambda_r} giving throughput factor rho of which the fraction
// broadcast_share (in [0,1]) is broadcast load: lambda_b (N-1)/d_ave = share * rho.
std::pair<double, double> star_rates(const std::vector<int>& dims, double rho,
                                     double broadcast_share);

// Picks the ending dimension from probabilities x given u uniform in [0,1): the first i with
// u < x_0 + ... + x_i, never a dimension with x_i = 0.
int star_pick_ending_dim(const std::vector<double>& x, double u);

// --- §3.2's queueing analysis
// --------------------------------------------------------------------- Times in slots of one
// packet time (the paper's unit transmission time). The paper treats each output queue as a
// discrete-time G/D/1 queue: per slot a number of packets arrive (or are generated), with mean rho
// and variance V, i.i.d. from slot to slot; one packet is sent per slot.

// The G/D/1 mean wait (arrival -> start of transmission): W = V / (2 rho (1 - rho)) - 1/2. The
// paper's W_H with (rho_H, V_H) and its W with (rho, V). Poisson arrivals (V = rho) give the
// M/D/1 wait rho / (2 (1 - rho)). NaN unless 0 < rho < 1 and V >= 0.
double star_gd1_wait(double rho, double var);

// The conservation law (§3.2, [9]): with strict non-preemptive priority and one-slot service,
// classes 0..c together wait as one G/D/1 queue of their arrivals, whatever the order inside;
// class c's wait follows from those of 0..c and 0..c-1:
//   W_c = (rho_{<=c} Wcum[c] - rho_{<c} Wcum[c-1]) / rho_c,   rho_{<=c} = rho[0] + ... + rho[c].
// Two classes: W_H = Wcum[0] and W_L = (rho W - rho_H W_H) / rho_L, the paper's
// W = (N - N/n)/(N - 1) W_L + (N/n - 1)/(N - 1) W_H solved for W_L. rho: per class arrival
// rates; wait_cum: per class c the wait of classes 0..c together. NaN for an empty class.
std::vector<double> star_class_waits(const std::vector<double>& rho,
                                     const std::vector<double>& wait_cum);

// The fraction of a broadcast's transmissions that are HIGH priority (off the ending dimension),
// ending dimensions drawn from x: sum_l x_l (N - 1 - a_{l,l}) / (N - 1). An n-ary d-cube gives
// the paper's (N/n - 1)/(N - 1) for any x (§3.2).
double star_high_share(const std::vector<int>& dims, const std::vector<double>& x);

}  // namespace sy
