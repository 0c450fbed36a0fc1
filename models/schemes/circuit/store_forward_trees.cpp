// Pipelined store-and-forward broadcast on four arc-disjoint spanning trees (the comparison row
// of Peters & Syska Table 1, simulated with circuit switching: every path is one hop, so each
// phase costs beta + B tau with beta = alpha + delta).
//
// The paper takes trees of depth D + 1 (D = floor(n0/2) + floor(n1/2), the diameter) from
// Michallon, Trystram and Villard [22] without giving them. Each non-root node has four incoming
// arcs and each tree needs one, so four trees use every arc except the four into the root: a
// tree is given by the direction of its incoming arc at every node, and the four trees at a node
// take the four directions. Depth D + 1 is the least possible (tree t starts at the root's
// neighbour in direction t, whose farthest node is D hops away).
//
// Construction: base trees for every n0 x n1 with 3 <= n0, n1 <= 16 (and 17 x 4, 17 x 7), stored
// in store_forward_bases.inc (one permutation of the four incoming directions per node), found
// offline by a SAT search (tb/saf_base_trees.py, which writes that file and explains the
// encoding), then widened by periodic strips: a dimension n > 16 takes a base b = 13..17 with
// b = n (mod 4) whose columns 2..5 and -5..-2 (centred on the root) are 2-periodic, and repeats
// that period (n - b)/4 more times on each side of the root. Widening by 4 adds 2 to D and 2 to
// the depth of a path that crosses one of the two strips once; the SAT search asked for depth
// D + 1 at n + 16 too, which rules out paths crossing them twice (the argument is in the script),
// and the tests check every size from 3 x 3 to 48 x 48 and larger ones up to 128. 64 x 64 is
// built in under a millisecond.
//
// Depth D + 1 is impossible on n x 5 for odd n = 5..15 (the SAT search is exhaustive for the
// bases; every odd n x 5 gets D + 2) and on n x 3 for n = 5..16, where the least depth is n (SAT),
// which the greedy growth below reaches (tree t starts with the root's arc in direction t; step by
// step every tree extends from its newest nodes over arcs no tree uses yet), so those thin tori
// keep it. Tree t at depth d receives packet j in phase j + d - 1, so the broadcast takes P + h - 1
// phases for P packets per tree.
#include <algorithm>
#include <climits>
#include <deque>
#include <functional>
#include <string>

#include "switchyard/schemes/circuit/circuit_schedule.hpp"
#include "switchyard/schemes/circuit/store_forward_bases.inc"

namespace sy {

using namespace circuit_detail;

namespace {

constexpr int kInf = INT_MAX / 4;

struct Trees {
  std::vector<int> depth[4];   // per tree, per node
  std::vector<int> in_dir[4];  // per tree, per node: index into dirs of the hop that reaches it
  int height = 0;
};

const ScheduleHop kDirs[4] = {kEast, kNorth, kWest, kSouth};

Trees grow(const Grid& g, int root, const std::vector<int>* prior) {
  const int N = g.n0 * g.n1;
  Trees tr;
  // Expected arrival: a previous run's depths, else the breadth-first distance from the tree's
  // first node avoiding the root (a lower bound).
  std::vector<int> est[4];
  for (int t = 0; t < 4; ++t) {
    tr.depth[t].assign(N, kInf);
    tr.in_dir[t].assign(N, -1);
    est[t].assign(N, kInf);
    if (prior) {
      est[t] = prior[t];
      continue;
    }
    const int c = g.step(root, kDirs[t]);
    std::deque<int> q{c};
    est[t][c] = 1;
    est[t][root] = 0;
    while (!q.empty()) {
      const int u = q.front();
      q.pop_front();
      for (ScheduleHop h : kDirs) {
        const int w = g.step(u, h);
        if (est[t][w] == kInf) est[t][w] = est[t][u] + 1, q.push_back(w);
      }
    }
  }
  std::vector<int> arc_owner(static_cast<std::size_t>(N) * 4, -1);  // in-arc d of v -> tree
  auto tail = [&](int v, int d) { return g.step(v, {kDirs[d].dim, -kDirs[d].dir}); };
  for (int t = 0; t < 4; ++t) {
    tr.depth[t][root] = 0;
    const int c = g.step(root, kDirs[t]);
    tr.depth[t][c] = 1;
    tr.in_dir[t][c] = t;
    arc_owner[c * 4 + t] = t;
  }
  int remaining = 4 * (N - 1) - 4;
  for (int k = 1; remaining > 0; ++k) {
    if (k > 4 * (g.n0 + g.n1)) throw std::logic_error("store-and-forward: trees do not span");
    // Decisions at step k use depths < k+1 only, so collect them first and apply afterwards.
    std::vector<std::pair<int, std::pair<int, int>>> joins;  // node, (tree, dir)
    for (int v = 0; v < N; ++v) {
      if (v == root) continue;
      int waiting[4], nw = 0;
      for (int t = 0; t < 4; ++t)
        if (tr.depth[t][v] == kInf) waiting[nw++] = t;
      if (nw == 0) continue;
      int free_d[4], nf = 0;
      for (int d = 0; d < 4; ++d)
        if (arc_owner[v * 4 + d] < 0 && tail(v, d) != root) free_d[nf++] = d;
      bool any = false;
      for (int i = 0; i < nw && !any; ++i)
        for (int j = 0; j < nf; ++j)
          if (tr.depth[waiting[i]][tail(v, free_d[j])] == k) any = true;
      if (!any) continue;
      // Try every partial assignment of waiting trees to free arcs usable now.
      int best_now = -1;
      long long best_score = LLONG_MIN;
      int best_assign[4];
      int assign[4];
      std::fill(assign, assign + 4, -1);
      std::function<void(int, unsigned)> rec = [&](int i, unsigned taken) {
        if (i == nw) {
          int now = 0;
          for (int x = 0; x < nw; ++x) now += assign[x] >= 0;
          // Score: more trees joining now first; then the waiting trees' expected arrival over
          // the arcs left to them (smaller is better).
          long long later = 0;
          for (int x = 0; x < nw; ++x) {
            if (assign[x] >= 0) continue;
            int bestest = kInf;
            for (int j = 0; j < nf; ++j)
              if (!(taken >> j & 1)) {
                const int u = tail(v, free_d[j]);
                const int e =
                    tr.depth[waiting[x]][u] != kInf ? tr.depth[waiting[x]][u] : est[waiting[x]][u];
                bestest = std::min(bestest, e);
              }
            later += bestest;
          }
          const long long score = static_cast<long long>(now) * 1000000 - later;
          if (now > 0 && score > best_score) {
            best_score = score;
            best_now = now;
            std::copy(assign, assign + 4, best_assign);
          }
          return;
        }
        rec(i + 1, taken);
        for (int j = 0; j < nf; ++j) {
          if (taken >> j & 1) continue;
          if (tr.depth[waiting[i]][tail(v, free_d[j])] != k) continue;
          assign[i] = j;
          rec(i + 1, taken | 1u << j);
          assign[i] = -1;
        }
      };
      rec(0, 0);
      if (best_now <= 0) continue;
      for (int x = 0; x < nw; ++x)
        if (best_assign[x] >= 0) joins.push_back({v, {waiting[x], free_d[best_assign[x]]}});
    }
    for (const auto& j : joins) {
      const int v = j.first, t = j.second.first, d = j.second.second;
      tr.depth[t][v] = k + 1;
      tr.in_dir[t][v] = d;
      arc_owner[v * 4 + d] = t;
      tr.height = std::max(tr.height, k + 1);
      --remaining;
    }
  }
  return tr;
}

// Coordinate in [-(n-1)/2 .. n/2] (relative to the root) of the relative coordinate v in [0, n).
int centered(int v, int n) {
  return v <= (n - 1) / 2 ? v : v - n;
}

// First column of the east band of a base; the west band is its mirror.
constexpr int kBand = 2;

// Centred coordinate X of a torus widened by k periods on each side -> centred base coordinate.
// The base's columns kBand..kBand+3 (and -kBand-3..-kBand) are 2-periodic; widening repeats the
// period k more times on each side.
int to_base(int X, int k) {
  if (k == 0 || (X > -kBand - 2 && X < kBand + 2)) return X;
  if (X >= kBand + 2) return X >= kBand + 2 + 2 * k ? X - 2 * k : kBand + (X - kBand) % 2;
  return X <= -kBand - 2 - 2 * k ? X + 2 * k : -kBand - 2 + wrap(X + kBand + 2, 2);
}

// Whether a base dimension of b nodes (widening if w) serves a dimension of n nodes; k = the
// periods to insert on each side.
bool serves(int b, bool w, int n, int& k) {
  k = (n - b) / 4;
  return n == b || (w && n > kSafBaseMax && n > b && (n - b) % 4 == 0);
}

// Trees from the stored bases; false when there is no base for this size.
bool from_bases(const Grid& g, int root, Trees& tr) {
  const SafBase* base = nullptr;
  bool transposed = false;
  int k0 = 0, k1 = 0;
  for (const SafBase& b : kSafBases)
    for (bool tp : {false, true}) {
      int a0, a1;  // periods in dimensions 0 and 1 of the torus
      const bool ok = tp ? serves(b.n1, b.w1, g.n0, a0) && serves(b.n0, b.w0, g.n1, a1)
                         : serves(b.n0, b.w0, g.n0, a0) && serves(b.n1, b.w1, g.n1, a1);
      if (ok && (!base || b.extra < base->extra)) base = &b, transposed = tp, k0 = a0, k1 = a1;
    }
  if (!base) return false;
  const int b0 = transposed ? base->n1 : base->n0, b1 = transposed ? base->n0 : base->n1;
  // Permutations of the four directions in lexicographic order; letter 'A' + i is the i-th.
  int perms[24][4], np = 0;
  int p[4] = {0, 1, 2, 3};
  do std::copy(p, p + 4, perms[np++]);
  while (std::next_permutation(p, p + 4));
  const int N = g.n0 * g.n1;
  for (int t = 0; t < 4; ++t) {
    tr.depth[t].assign(N, kInf);
    tr.in_dir[t].assign(N, -1);
    tr.depth[t][root] = 0;
  }
  for (int y = 0; y < g.n1; ++y)
    for (int x = 0; x < g.n0; ++x) {
      if (x == 0 && y == 0) continue;
      int bx = wrap(to_base(centered(x, g.n0), k0), b0);
      int by = wrap(to_base(centered(y, g.n1), k1), b1);
      if (transposed) std::swap(bx, by);
      const char c = base->cells[bx + base->n0 * by];
      if (c < 'A' || c >= 'A' + 24) throw std::logic_error("store-and-forward: bad base cell");
      const int* perm = perms[c - 'A'];
      const int v = g.node(x, y);
      for (int t = 0; t < 4; ++t)  // transposing swaps E <-> N and W <-> S, trees and arcs alike
        tr.in_dir[t][v] = transposed ? perm[t ^ 1] ^ 1 : perm[t];
    }
  // Depths by following the parents; a cycle or a tree not reaching the root is a bad base.
  std::vector<int> chain;
  for (int t = 0; t < 4; ++t)
    for (int v0 = 0; v0 < N; ++v0) {
      chain.clear();
      int v = v0;
      while (tr.depth[t][v] == kInf) {
        if (static_cast<int>(chain.size()) > N)
          throw std::logic_error("store-and-forward: base trees have a cycle");
        chain.push_back(v);
        const ScheduleHop h = kDirs[tr.in_dir[t][v]];
        v = g.step(v, {h.dim, -h.dir});
      }
      for (int i = static_cast<int>(chain.size()) - 1; i >= 0; --i) {
        tr.depth[t][chain[i]] = tr.depth[t][v] + static_cast<int>(chain.size()) - i;
        tr.height = std::max(tr.height, tr.depth[t][chain[i]]);
      }
    }
  return true;
}

}  // namespace

Schedule store_and_forward_trees(const std::vector<int>& dims, int root, int parts,
                                 int message_flits) {
  require_torus("store-and-forward-trees", dims, root, "any n0 x n1 torus with n0, n1 >= 3");
  if (parts < 4 || parts % 4)
    throw UnsupportedSchedule(
        "store-and-forward-trees: parts must be a positive multiple of 4 (four trees), got " +
        std::to_string(parts));
  const Grid g(dims, root);
  Trees tr;
  if (!from_bases(g, root, tr)) {
    // Thin tori without a base (n x 3, n >= 7): grow greedily, regrowing with the previous
    // run's depths as expected arrivals while that helps.
    tr = grow(g, root, nullptr);
    for (int round = 0; round < 6; ++round) {
      Trees again = grow(g, root, tr.depth);
      if (again.height >= tr.height) break;
      tr = std::move(again);
    }
  }
  const int N = g.n0 * g.n1;
  Schedule s;
  s.algorithm = "store-and-forward-trees";
  s.variant = "depth " + std::to_string(tr.height);
  s.dims = dims;
  s.root = root;
  s.streams = 4;
  for (int j = 0; j < parts / 4; ++j)
    for (int t = 0; t < 4; ++t)
      for (int v = 0; v < N; ++v) {
        if (v == root) continue;
        const ScheduleHop h = kDirs[tr.in_dir[t][v]];
        const int u = g.step(v, {h.dim, -h.dir});
        s.transmissions.push_back({j + tr.depth[t][v] - 1, u, 4 * j + t, {h}, {}});
      }
  finish(s, parts, message_flits);
  return s;
}

int store_and_forward_depth(const Schedule& s) {
  if (s.algorithm != "store-and-forward-trees")
    throw std::invalid_argument("store_and_forward_depth: not a store-and-forward schedule");
  return s.phases - s.items() / 4 + 1;
}

}  // namespace sy
