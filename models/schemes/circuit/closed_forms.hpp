// Closed forms of Peters & Syska (circuit-switched broadcasting on 2-D tori) next to the
// schedules of circuit_schedule.hpp, and the lower bounds of Proposition 1 / Corollary 1.
//
// Times are coefficient triples: time = alpha * alpha_terms + delta * delta_terms
// + tau * tau_flits, where tau_flits counts flit times (L * phases for the unsplit tiling,
// B * phases for pipelined algorithms). delta counts one switch per hop (see
// circuit_schedule.hpp). These are what phase_sum_terms() of a correct schedule reproduces.
#pragma once
#include <vector>

#include "switchyard/schemes/circuit/circuit_schedule.hpp"

namespace sy {

struct TimeTerms {
  double alpha_terms = 0, delta_terms = 0, tau_flits = 0;
  double eval(const CircuitCost& c) const {
    return c.alpha * alpha_terms + c.delta * delta_terms + c.tau * tau_flits;
  }
};

// ---- tiling (§4) ------------------------------------------------------------------------------
// Theorem 2, 5^k x 5^k: 2k alpha + (5^k - 1) delta + 2k L tau.
TimeTerms paper_tiling_5k(int k, double L);
// The sizes §4 prices: 10x10 slanting 3a + 10d + 3Lt, boss blocks 3a + 11d + 3Lt, four S_1
// squares 3a + 14d + 3Lt; 5x10 3a + 8d + 3Lt; 5^k x 5^k as above. Throws for other sizes.
TimeTerms paper_tiling(const std::vector<int>& dims, TilingVariant v, double L);
// Our construction for any supported size: per phase its longest path (knight level at scale
// (s0, s1): max(s0 + 2 s1, 2 s0 + s1); plain: max(s0, s1); slanting block: s0 + s1; boss block:
// 2 s0 + s1; 1x2 pair: s0 or s1). Equals paper_tiling where the paper gives a number.
TimeTerms tiling_terms(const std::vector<int>& dims, TilingVariant v, double L);

// ---- divide and conquer (§5), 2^k x 2^k ---------------------------------------------------------
// T(B) = k a + 2^k d + k B t + (L/B - 1)(a + 2^(k-1) d + B t)
//      = (k + L/B - 1)(a + B t) + 2^(k-1)(L/B + 1) d
TimeTerms dc_terms(int k, double L, double B);
double dc_time(int k, const CircuitCost& c, double L, double B);
double dc_optimal_packet(int k, const CircuitCost& c,
                         double L);  // sqrt((a + 2^(k-1) d) L / ((k-1) t))
// (sqrt((k-1)(a + 2^(k-1) d)) + sqrt(L t))^2 - (k-2) 2^(k-1) d, T at the (real) optimum.
double dc_optimal_time(int k, const CircuitCost& c, double L);

// ---- H-trees (§5), (2^k - 1) x (2^k - 1)
// ---------------------------------------------------------- T(B) = (2k-1) a + (2^k - 1) d + (2k-1)
// B t + (L/(2B) - 1)(a + 2^(k-2) d + B t)
//      = (2k + L/(2B) - 2)(a + B t) + (2^(k-2)(L/(2B) + 3) - 1) d
TimeTerms htrees_terms(int k, double L, double B);
// Our h_trees() schedule takes exactly T(B) on the self-timed model for every k it builds
// (h_trees.cpp: the fill keeps every reception on the paper's schedule).
double htrees_time(int k, const CircuitCost& c, double L, double B);
double htrees_optimal_packet(int k, const CircuitCost& c,
                             double L);  // sqrt((a + 2^(k-2) d) L / (4(k-1) t))
// (sqrt(2(k-1)(a + 2^(k-2) d)) + sqrt(L t / 2))^2 - [(2k-5) 2^(k-2) + 1] d
double htrees_optimal_time(int k, const CircuitCost& c, double L);
// The relaxed fill of k >= 8 (h_trees_late(s) = late > 0): a few halves come in up to `late`
// delta terms after the paper's 2^k - 1, with at most 2k - 2 start-ups, so the last packet
// (b flits) reaches them by T(B) - (alpha + b tau) + late delta: the schedule's time is the larger
// of that and T(B) (tb: T(B) as terms, the last packet shorter or not). late = 0: tb.
TimeTerms htrees_late_terms(const TimeTerms& tb, int late, double b, const CircuitCost& c);

// ---- pipelined store-and-forward on 4 arc-disjoint spanning trees of depth h -----------------
// beta = alpha + delta. T(B) = (h - 1 + L/(4B)) (beta + B tau); optimum over real B at
// B = sqrt(beta L / (4 (h-1) tau)): (sqrt((h-1) beta) + sqrt(L tau / 4))^2. The paper uses the
// trees of [22] with h = D + 1: (sqrt(D beta) + sqrt(L tau / 4))^2.
TimeTerms sf_terms(int h, double L, double B);
double sf_time(int h, const CircuitCost& c, double L, double B);
double sf_optimal_packet(int h, const CircuitCost& c, double L);
double sf_optimal_time(int h, const CircuitCost& c, double L);
double paper_sf_time(const std::vector<int>& dims, const CircuitCost& c, double L);  // h = D + 1

// ---- a shorter last packet (B not dividing L) --------------------------------------------------
// The pipelined algorithms cut each stream (D&C 1, H-trees 2 halves, SAF trees 4 quarters) into
// P packets of B flits sent back to back, the last one b <= B flits (schedule.packet_flits that
// does not divide the share; traffic/schedule.hpp set_packet_flits). The schedule is a pipeline
// of n levels, level m's longest circuit h_m hops (h_1 the longest), each node sending at one
// level, a node's next packet once its circuits of the previous one are released. The first
// P - 1 packets run as in T(B), one period a + h_1 d + B t apart; the last starts level m when it
// is in and the node's circuits for packet P - 2 are released, so
//   T = (P - 1)(a + h_1 d + B t) + n (a + b t) + (h_2 + ... + h_n) d
//       + max over m = 1..n of [ (m - 1)(B - b) t + h_m d ],
// the max being the level where the last packet stops waiting for the one before it. b = B gives
// T(B) (the max is h_1 d). `c` picks the maximising level; the terms are those of that level.
TimeTerms pipeline_last_terms(const std::vector<int>& level_hops, int P, double B, double b,
                              const CircuitCost& c);
// The level paths: D&C 2^(k-1), 2^(k-2), ..., 2, 2 (k levels); H-trees 2^(k-2), 2^(k-2), ...,
// 1, 1 and the fill's 1 (2k - 1 levels); SAF trees h levels of 1 hop.
std::vector<int> dc_level_hops(int k);
std::vector<int> htrees_level_hops(int k);
std::vector<int> sf_level_hops(int h);

// ---- lower bounds (§3)
// ---------------------------------------------------------------------------
struct LowerBound {
  double startup = 0;      // ceil(log_{Delta+1} N) alpha
  double switching = 0;    // D delta
  double propagation = 0;  // L tau / lambda
  double reach = 0;      // alpha + D delta + L tau / Delta (farthest node's header + its bandwidth)
  double value() const;  // the max of the four
};
// Proposition 1 for the p x q torus (vertex-transitive, Delta = lambda = 4, D = floor(p/2) +
// floor(q/2)).
LowerBound proposition1(const std::vector<int>& dims, const CircuitCost& c, double L);
// Corollary 1 for n x n: max(ceil(log_5 n^2) alpha, alpha + 2 floor(n/2) delta + L tau / 4).
// (Printed as 2 ceil(log_5 n) alpha, which exceeds what the paper itself achieves for 10x10
// (3 alpha); the ceiling of 2 log_5 n = log_5 N is Proposition 1's bound.)
double corollary1(int n, const CircuitCost& c, double L);
int min_phases(const std::vector<int>& dims);  // ceil(log_5 N)
int torus_diameter(const std::vector<int>& dims);

}  // namespace sy
