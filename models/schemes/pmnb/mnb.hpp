// Multinode broadcast on a hypercube by the PMNB building block of Varvarigos & Bertsekas
// (algorithm III with M = N, "the new MNB": no scans, ranks known), as a slot schedule the nodes
// execute on the model (store-and-forward, all-port, one packet per link per slot).
// Every node s holds one packet; class c = s mod d. Class c runs A_c, all classes in lockstep on
// distinct dimensions:
//  - pack: the class's packets, ranked by R^c(s) (the d-bit id rotated right by c), move to
//    nodes L^c(rank) (the rank rotated left by c) in d slots, step i correcting dimension
//    (i + c) mod d (ascending order: no link used twice; notes/dynamic-broadcasting.md);
//  - broadcast: subphase l = 1..d, every node sends each class-c packet it holds across
//    dimension (d - l + c) mod d, one per slot; the subphase lasts as long as the fullest node
//    needs (ceil(M_c / 2^(d-l+1)) for the packed set), the longest class setting the pace.
// The packing relays and the source receive their packet back (returns, allowed).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/traffic/schedule.hpp"

namespace sy {

// 2 <= d <= 16. Throws UnsupportedSchedule otherwise.
Schedule mnb_schedule(int d, int packet_flits);

// The optimal multinode broadcast of Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis (JPDC 11,
// 1991), the PMNB paper's reference [3]: every node broadcasts along the same spanning tree of
// the k-cube, translated to it (node x of the tree is node x XOR s for source s). If the tree
// uses each dimension at most once per slot, every link carries one packet per slot (link (y, i)
// in slot t carries the packet of the one source s = y XOR p, p the tail of the tree's dimension-i
// edge of slot t), so the MNB takes the tree's depth in slots. A slot reaches at most k new tree
// nodes, hence depth >= ceil((2^k - 1)/k), the MNB lower bound; the tree below meets it.
// Built slot by slot: the not yet reached nodes next to the tree (lowest Hamming weight first,
// then lowest id) are matched to distinct dimensions by augmenting paths, k per slot (a greedy
// over a transversal matroid: the matching found favours the lightest nodes). That this greedy
// reaches the bound is checked, not assumed: for every k = 1..16 it does (tests), and the builder
// throws if it ever did not.
struct MnbTreeEdge {
  int node;  // reached in this slot, from node ^ (1 << dim)
  int dim;
  int slot;  // 0-based
};
std::vector<MnbTreeEdge> optimal_mnb_tree(int k);  // 1 <= k <= 16; edges by slot
int optimal_mnb_slots(int k);                      // ceil((2^k - 1)/k) (0 for k = 0)

// The optimal MNB on the d-cube (2 <= d <= 16) as a slot schedule: ceil((N - 1)/d) slots.
Schedule mnb_optimal_schedule(int d, int packet_flits);

// The scans' time t_p (scan_slots) is a real number of packet slots (the paper's t_p <= 1, e.g.
// 0.5): a scan step is a message of t_p L flits, which must be whole flits. The schedules run on
// a grid of `unit`-flit slots, unit = gcd(item, t_p L) (the item: the packet, or II's
// mini-packet), so a packet takes `packet` grid slots and a scan step `scan`; with t_p whole the
// grid is the packet's slot, as before. Throws UnsupportedSchedule when t_p L is not whole.
struct ScanGrid {
  int unit = 1;              // flits a grid slot carries
  int packet = 1;            // grid slots an item (packet or mini-packet) takes
  int scan = 0;              // grid slots a scan step takes
  std::string note() const;  // "" on the packet's own grid, else the grid for the variant text
};
ScanGrid scan_grid(double tp, int packet_flits, int item_flits);

// PMNB by algorithm III: M of the N nodes (`sources`) broadcast one packet each. Two scans run
// first as real messages (scan_slots slots per step, 4d steps; 0: no scans, ranks given), then
// class c = natural rank mod d packs and broadcasts as above. Exact: 4 d t_p + d + sum_j
// ceil(ceil(M/d)/2^j); the paper's bound ceil(M/d) + 2d + 4 d t_p - 1.
Schedule pmnb_iii_schedule(int d, std::vector<int> sources, double scan_slots, int packet_flits);
double pmnb_iii_exact(int d, int M, double scan_slots);
double pmnb_iii_bound(int d, int M, double scan_slots);

// The scans of a period with no packet (M = 0): algorithm III's two, or II's d in lockstep.
Schedule pmnb_scans_schedule(int d, bool split, double scan_slots, int packet_flits);

// PMNB by algorithm II: each packet split into d mini-packets of packet_flits / d flits (a
// multiple of d); mini-packet class c (the c-th piece of every packet) runs A_c over all M
// packets, the d classes in lockstep on distinct dimensions, after d scans in lockstep (2d steps
// of scan_slots whole slots). The schedule's slot is a mini-slot (packet_flits / d flits).
// Exact, in mini-slots: 2 d^2 t_p + d + sum_j ceil(M/2^j); the paper's bound, in whole slots,
// (M/d)(N-1)/N + 2 d t_p + 2.
Schedule pmnb_ii_schedule(int d, std::vector<int> sources, double scan_slots, int packet_flits);
double pmnb_ii_exact_minislots(int d, int M, double scan_slots);
double pmnb_ii_bound(int d, int M, double scan_slots);

// PMNB by algorithm I: rank (one scan), pack packet r to node r (ascending dimensions), pad to
// 2^m (m = ceil(log2 M)), single-node broadcast from node r over dimensions m..d-1 (d - m
// slots), then a multinode broadcast in every m-subcube: the optimal MNB of the paper's reference
// [3] (optimal_mnb_tree; the padding's dummies send nothing). Exact: 2 d t_p + d + (d - m) +
// ceil((2^m - 1)/m), which is the paper's bound ceil((M'-1)/m) + 2d + 2 d t_p - m with M' = 2^m
// ("if M is not a power of 2, m is replaced by ceil(log M) and M by 2^ceil(log M)").
Schedule pmnb_i_schedule(int d, std::vector<int> sources, double scan_slots, int packet_flits);
double pmnb_i_exact(int d, int M, double scan_slots);
double pmnb_i_bound(int d, int M, double scan_slots);

// A slot schedule of one-hop transmissions, packed 4 bytes each, for the sizes whose Schedule
// would not fit in memory (the paper's Example: N = 2^16, M = 2^10; algorithm II there has about
// 1.1 billion mini-packet transmissions, 4.4 GB here). The same generators build it (the same
// transmissions); CompactSlotDriver (pmnb/compact_driver.hpp) executes it on the model slot by
// slot. `header` is the schedule without its transmissions (items, timing, phases).
// The transmissions are held in groups, one per (slot, dimension, item / 2^16), in that order; a
// group's hops are sender (16 bits) | item mod 2^16 (16), sorted (by sender, then item). The
// generators run twice: once counting each group's hops, once writing them in place, so the
// plan is allocated once at its exact size and nothing is held per hop beyond its 4 bytes.
struct CompactSlotPlan {
  struct Hop {
    int slot, sender, dim, item;
  };
  struct Group {
    std::uint64_t end;  // one past its last hop in `hops` (it starts where the previous ends)
    std::int32_t slot;
    std::uint16_t dim;
    std::uint16_t chunk;  // items chunk * 2^16 + (hop & 0xffff)
  };
  Schedule header;
  std::vector<std::uint32_t> hops;
  std::vector<Group> groups;  // by slot, dimension, chunk
  // The optimal MNB's plan is streamed, not stored: every node sends along one tree translated
  // to it, so the hops of slot t are, for each tree edge of that slot (node p reached across
  // dimension k), every node y sending item y ^ p ^ 2^k across k. `tree` holds the edges by slot,
  // then dimension, and `hops` and `groups` stay empty: nothing is held per hop (N (N - 1) of
  // them, 2^32 at d = 16, over what a stored plan may hold).
  std::vector<MnbTreeEdge> tree;
  int tree_nodes = 0;  // N, when streamed
  bool streamed() const { return !tree.empty(); }
  std::size_t size() const {
    return streamed() ? tree.size() * static_cast<std::size_t>(tree_nodes) : hops.size();
  }
  // Every hop, by slot, dimension, item chunk, sender, item (the driver merges a slot's groups
  // and issues by slot, sender, dimension, item).
  template <class F>
  void for_each(F&& f) const {
    for (const MnbTreeEdge& e : tree) {
      const int tail = e.node ^ (1 << e.dim);
      for (int y = 0; y < tree_nodes; ++y) f(Hop{e.slot, y, e.dim, y ^ tail});
    }
    std::uint64_t i = 0;
    for (const Group& g : groups)
      for (; i < g.end; ++i)
        f(Hop{g.slot, static_cast<int>(hops[i] >> 16), g.dim,
              static_cast<int>(g.chunk) << 16 | static_cast<int>(hops[i] & 0xffff)});
  }
  // A hop as one 64-bit key that sorts by slot, sender, dimension, item (tests compare plans):
  // slot (20 bits) | sender (16) | dimension (4) | item (24); outside those fields, thrown.
  static std::uint64_t pack(int slot, int sender, int dim, int item);
  static int slot(std::uint64_t h) { return static_cast<int>(h >> 44); }
  static int sender(std::uint64_t h) { return static_cast<int>(h >> 28 & 0xffff); }
  static int dim(std::uint64_t h) { return static_cast<int>(h >> 24 & 0xf); }
  static int item(std::uint64_t h) { return static_cast<int>(h & 0xffffff); }
};
// algorithm: pmnb (III), pmnb_i, pmnb_ii, pmnb_a0, mnb, mnb_optimal (sources ignored for the MNBs).
CompactSlotPlan compact_slot_plan(const std::string& algorithm, int d, std::vector<int> sources,
                                  double scan_slots, int packet_flits);

// A_0 alone (the paper's Lemma 2; II and III run the A_c in lockstep): one rank scan (2d steps),
// pack the M packets to nodes 0..M-1 (ascending dimensions), broadcast over dimensions d-1..0.
// Exact: 2 d t_p + d + sum_j ceil(M/2^j); Lemma 2's bound M(N-1)/N + 2 d t_p + 2d.
Schedule pmnb_a0_schedule(int d, std::vector<int> sources, double scan_slots, int packet_flits);
double pmnb_a0_exact(int d, int M, double scan_slots);
double pmnb_a0_bound(int d, int M, double scan_slots);

// The paper's numbers for the new MNB, in slots: the exact phase sum d + sum_j
// ceil(ceil(N/d) / 2^j) (j = 1..d) and the bound ceil(N/d) + 2d - 1; lower bound ceil((N-1)/d).
double mnb_exact(int d);
double mnb_bound(int d);
double mnb_lower_bound(int d);

// The paper's Example (N = 2^d, M packets, t_p = 1 and 0): its bounds for the full MNB
// (ceil((N-1)/d)), algorithms I (ceil((M-1)/m) + 2d + 2d t_p - m, m = ceil(log2 M)), II
// ((M/d)(N-1)/N + 2d t_p + 2, rounded up), III (ceil(M/d) + 2d + 4d t_p - 1) and the lower bound
// ceil((M-1)/d); with III's exact phase sum beside them.
struct PmnbExampleRow {
  const char* name;
  double tp1, tp0;
};
std::vector<PmnbExampleRow> pmnb_example(int d, int M);

}  // namespace sy
