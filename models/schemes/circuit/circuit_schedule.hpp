// Circuit-switched broadcast schedules on 2-D tori (Peters & Syska, "Circuit-switched
// broadcasting in torus networks"): the generators, which build sy::Schedule data (phases
// timing: every transmission of a phase is a circuit, the phase's circuits arc-disjoint; the
// items are the parts of the root's message), and a phase-synchronous cost evaluator. The
// checker is the general one of traffic/schedule.hpp.
//
// Cost model (paper §2, linear cost): a transmission of `size` flits over a path of h hops costs
//   alpha + h * delta + size * tau
// i.e. "switches passed" = h, the number of hops (links). This is the convention that makes the
// paper's numbers come out: Theorem 2 charges a knight's move (u + v = 3 hops) 3*delta and a
// neighbour 1*delta (5x5: 2a + 4d + 2Lt); §4's 10x10 slanting blocks charge the 2-hop path
// (i,j) -> (i+1,j) -> (i+1,j+1) 2*delta. Count the switches of the h-1 intermediate nodes plus
// the one at either end (the destination's, where the header is taken off the network).
//
// No SystemC dependency. Coordinates follow sy::Topology: node = x + n0 * y, dimension 0 is x.
#pragma once
#include <string>
#include <vector>

#include "switchyard/traffic/schedule.hpp"

namespace sy {

// ---- generators ---------------------------------------------------------------------------
// The root may be any node: constructions are built around the origin and translated.

enum class TilingVariant {
  Slanting,     // 2x2 levels innermost, slanting blocks (paper §4: 10x10 in 3a + 10d + 3Lt)
  BossBlocks,   // 2x2 levels innermost, boss in the lower-left corner (10x10: 3a + 11d + 3Lt)
  BlocksFirst,  // 2x2 levels outermost: a 2x2 block of S_k squares (10x10: 3a + 14d + 3Lt)
  Pinwheel,     // any size: nested pinwheel partitions into rectangles (not the paper's)
};

// Recursive knight's-move tiling (§4). Sizes n0 x n1 = 5^a 2^b0 x 5^a 2^b1 with n0, n1 >= 3:
// 5^k x 5^k (Theorem 2), 10x10, 20x20, 5x10 / 10x5 (nodes expanded into 1x2 blocks), and the
// pure 2x2-block family 2^k x 2^k (k >= 2). Every informed node sends in every phase.
Schedule tiling(const std::vector<int>& dims, int root = 0, int message_flits = 1,
                TilingVariant variant = TilingVariant::Slanting);
// Any n0 x n1 torus, 3 <= n0, n1 <= 128 (TilingVariant::Pinwheel): every region a rectangle
// whose one informed node splits it into five, a pinwheel or a cross (tiling.cpp), in the least
// number of such splits, then the fewest hops: ceil(log5 N) phases or one more, about D delta.
// Not the paper's construction.
Schedule pinwheel_tiling(const std::vector<int>& dims, int root = 0, int message_flits = 1);
// The sizes pinwheel_tiling() builds, without building: UnsupportedSchedule for any other
// (the construction always completes for these). And about how long building takes (the shapes'
// levels: n0 n1^3 steps a level; 2.8 s on 128 x 128 on the 2-core machine, 2026-11-28).
void pinwheel_check(const std::vector<int>& dims, int root);
double pinwheel_build_seconds(const std::vector<int>& dims);

// Pipelined divide-and-conquer (§5) on 2^k x 2^k, k >= 2, with `parts` packets (parts = L/B):
// phases 1..k-1 send along diagonals (+-l, +-l), l = 2^(k-i-1), the last level informs the rest
// over 1- and 2-hop paths that avoid every arc of the earlier levels (Fig. 8), so all levels of
// the broadcast tree are arc-disjoint and packet p runs level i in phase p + i - 1.
// message_flits = 0 means one flit per part.
Schedule divide_and_conquer(const std::vector<int>& dims, int root, int parts,
                            int message_flits = 0);

// Two H-trees (§5) on (2^k - 1) x (2^k - 1), 2 <= k <= 10. The message is split into halves X and
// Y, each into parts/2 packets (parts = L/B, even): part 2j is X_j, part 2j+1 is Y_j. X_j runs down
// the vertical-first H-tree and Y_j down the horizontal-first one from phase j; a fill gives X to
// the nodes off the first tree and Y to the nodes off the second: one hop in the last phase where
// a tree neighbour can serve, else earlier circuits and relays, every reception by T(B).
// k <= 7 (up to 127x127; k >= 7 starts from the smaller fill in its quadrants). k = 8 (255x255)
// and 9 (511x511): a relaxed fill, where some halves come in up to h_trees_late(s) delta terms
// after the paper's 2^k - 1, but before the last start-up: T(B) while alpha + B tau >= that many
// delta (255x255: 44 halves, 3 delta; 511x511: 1596, 13). k = 10 (1023x1023), where the search
// does not settle, and any k with deferred_fill (the search's first negotiation only): the
// halves the fill leaves without a good circuit come after the pipeline, one hop each from a
// neighbour that holds them by then (the variant says how many and how deep); no closed form,
// the schedule's self-timed time. Larger sizes are refused.
Schedule h_trees(const std::vector<int>& dims, int root, int parts, int message_flits = 0,
                 bool deferred_fill = false);
// The sizes and parts h_trees() has a construction for, without its fill search: k of the
// (2^k - 1) x (2^k - 1) torus, or UnsupportedSchedule. (The search is deterministic and settles
// for every k it accepts, which the tests build: the config check need not run it.)
int h_trees_order(const std::vector<int>& dims, int root, int parts);
// The most delta terms any half of an h_trees() schedule comes in after the paper's 2^k - 1
// (0 for k <= 7). Such a half has at most 2k - 2 start-ups, so the schedule's time (self-timed,
// and on the model without contention) is max(T(B), T(B) - (alpha + B tau) + late * delta), with
// B the last packet's flits (htrees_late_terms in closed_forms.hpp).
int h_trees_late(const Schedule& s);
// How many halves an h_trees() schedule serves after the pipeline (0 where the fill settles).
int h_trees_deferred(const Schedule& s);
// What building h_trees() costs on (2^k - 1) x (2^k - 1), in seconds of one core (Release
// build): the fill's search, which for k >= 7 first builds the fill of k - 1 it starts from. The
// search is deterministic and depends on k alone (not on the root, L or B), so this is the
// measured time per k; for the run's estimate (sim/estimate.hpp). 0 below k = 6 (under 0.01 s).
double h_trees_build_seconds(int k);
// Why k >= 8 needs the relaxed fill, as numbers: the earliest a node off H-tree t of the
// (2^k - 1)-torus (root 0, node x + n y) can hold half t other than by the paper's last phase,
// in delta terms: from a tree-t node of level <= 2k - 3 (at its hops) over circuits and relays
// on arcs no tree uses, one delta per hop, congestion ignored — a lower bound on every fill's
// label (-1 on tree t). The deadline is 2^k - 1. 2 <= k <= 10.
std::vector<int> h_trees_fill_bound(int k, int t);

// Pipelined store-and-forward on four arc-disjoint spanning trees (every path is one hop; the
// comparison row with beta = alpha + delta). parts = L/B, a multiple of 4: part 4j + t is packet
// j of the quarter on tree t. Any n0 x n1 torus with n0, n1 >= 3. The tree depth h is recorded
// in `variant` and returned by store_and_forward_depth(): the paper's D + 1 (D = the diameter)
// except on n x 5 with n odd (D + 2) and n x 3 (n): no trees of depth D + 1 exist there (SAT,
// n <= 15).
Schedule store_and_forward_trees(const std::vector<int>& dims, int root, int parts,
                                 int message_flits = 0);
int store_and_forward_depth(const Schedule& s);

// ---- cost -----------------------------------------------------------------------------------

// CircuitCost and phase_sum_time (the phase-synchronous plan of any phases schedule) are in
// traffic/schedule.hpp.

// Time when every node runs its phases in order, each as soon as the items it sends are in and
// its own earlier circuits are released, and no circuit waits for a link (the schedule driver
// without contention; the circuits of a schedule whose arcs are never shared across phases).
// A transmission takes alpha + delta * hops + size * tau from its start to its last flit in.
double self_timed_time(const Schedule& s, const CircuitCost& c);

// The same time as coefficients, time = alpha_terms*alpha + delta_terms*delta + tau_flits*tau,
// each phase contributing its longest path and its largest part. Equal to phase_sum_time when
// the parts of a phase have one size (L a multiple of the number of parts).
struct CircuitTerms {
  long long alpha_terms = 0;
  long long delta_terms = 0;
  long long tau_flits = 0;  // flit times (phases x part size)
};
CircuitTerms phase_sum_terms(const Schedule& s);
// The self-timed time (self_timed_time) as the terms of its latest arrival at costs c: the
// critical chain's start-ups, hops and flits (which chain that is can depend on c).
CircuitTerms self_timed_terms(const Schedule& s, const CircuitCost& c);
// When each node holds each item in that self-timed run: index node * items() + item, -1 for
// never (the source holds its items at 0).
std::vector<double> self_timed_arrivals(const Schedule& s, const CircuitCost& c);

// ---- shared by the generators (circuit_*.cpp) ------------------------------------------------
namespace circuit_detail {

inline int wrap(int v, int n) {
  return ((v % n) + n) % n;
}
// The smallest k with 2^k >= n (exact for powers of two).
inline int log2_ceil(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}
// A path of a tree level (divide-and-conquer levels, H-tree levels).
struct LevelPath {
  int level;  // 1-based
  int sender;
  std::vector<ScheduleHop> path;
};

// Coordinates relative to the root; node ids absolute (node = x + n0 * y).
struct Grid {
  int n0, n1, rx, ry;
  Grid(const std::vector<int>& dims, int root)
      : n0(dims[0]), n1(dims[1]), rx(root % dims[0]), ry(root / dims[0]) {}
  int node(int x, int y) const { return wrap(x + rx, n0) + n0 * wrap(y + ry, n1); }
  int x_of(int node) const { return wrap(node % n0 - rx, n0); }  // relative, in [0, n0)
  int y_of(int node) const { return wrap(node / n0 - ry, n1); }
  int step(int node, ScheduleHop h) const {
    int x = node % n0, y = node / n0;
    if (h.dim == 0)
      x = wrap(x + h.dir, n0);
    else
      y = wrap(y + h.dir, n1);
    return x + n0 * y;
  }
  int walk(int node, const std::vector<ScheduleHop>& path) const {
    for (const ScheduleHop& h : path) node = step(node, h);
    return node;
  }
  // Directed link leaving `node` by hop h.
  static int arc(int node, ScheduleHop h) { return node * 4 + h.dim * 2 + (h.dir > 0 ? 0 : 1); }
  int num_arcs() const { return n0 * n1 * 4; }
};

inline constexpr ScheduleHop kEast{0, +1}, kWest{0, -1}, kNorth{1, +1}, kSouth{1, -1};
inline void append_hops(std::vector<ScheduleHop>& p, ScheduleHop h, int count) {
  for (int i = 0; i < count; ++i) p.push_back(h);
}
// Rotate a hop by 90 degrees counter-clockwise: E -> N -> W -> S -> E.
inline ScheduleHop rotate90(ScheduleHop h) {
  return h.dim == 0 ? ScheduleHop{1, h.dir} : ScheduleHop{0, -h.dir};
}
using sy::size_name;
// Checks dims/root; throws UnsupportedSchedule naming the algorithm and `supported`.
void require_torus(const char* algorithm, const std::vector<int>& dims, int root,
                   const std::string& supported);
// Fills part sizes, message/packet flits and the phase count from the transmissions.
void finish(Schedule& s, int parts, int message_flits);

// A candidate path for one demand, with the arcs it occupies.
struct PathOption {
  int sender;
  std::vector<ScheduleHop> path;
  std::vector<int> arcs;
};
PathOption make_option(const Grid& g, int sender, std::vector<ScheduleHop> path);
// Picks one option per demand so that the chosen paths are pairwise arc-disjoint and avoid the
// arcs marked in `used` (which it then marks): depth-first, most constrained demand first,
// options tried in the given order. False when there is none (or the search gives up).
bool choose_disjoint(const std::vector<std::vector<PathOption>>& options, std::vector<char>& used,
                     std::vector<int>& choice);

}  // namespace circuit_detail
}  // namespace sy
