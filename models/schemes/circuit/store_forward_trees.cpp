// Pipelined store-and-forward broadcast on four arc-disjoint spanning trees (the comparison row
// of Peters & Syska Table 1, simulated with circuit switching: every path is one hop, so each
// phase costs beta + B tau with beta = alpha + delta).
//
// The paper takes the trees of depth D + 1 from Michallon, Trystram and Villard [22] without
// giving them. Here they are grown greedily: tree t starts with the root's arc in direction t;
// time step by time step every tree extends from its newest nodes over arcs no tree uses yet,
// each node handing its four incoming arcs to the four trees (a node with several candidates
// keeps for the trees still waiting the arcs whose tails they are expected to reach first). Its
// depth h is recorded: about 1.4 (D + 1) (7x7: 9, 16x16: 23, 32x32: 47), so the phase sum is
// (h - 1 + P)(beta + B tau), not the paper's D + P. Depth D + 1 is not always possible: a 5x5
// torus has no four arc-disjoint spanning trees of depth 5 (exhaustive SAT search), though such
// trees do exist for the other sizes searched (6..10, 15, 16, 25, 31, 32). Tree t at depth d
// receives packet j in phase j + d - 1, so the broadcast takes P + h - 1 phases for P packets per
// tree.
#include <algorithm>
#include <climits>
#include <deque>
#include <functional>
#include <string>

#include "schemes/circuit/circuit_schedule.hpp"

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

}  // namespace

Schedule store_and_forward_trees(const std::vector<int>& dims, int root, int parts,
                                 int message_flits) {
  require_torus("store-and-forward-trees", dims, root, "any n0 x n1 torus with n0, n1 >= 3");
  if (parts < 4 || parts % 4)
    throw UnsupportedSchedule(
        "store-and-forward-trees: parts must be a positive multiple of 4 (four trees), got " +
        std::to_string(parts));
  const Grid g(dims, root);
  // Regrow with the previous run's depths as expected arrivals while that helps.
  Trees tr = grow(g, root, nullptr);
  for (int round = 0; round < 6; ++round) {
    Trees again = grow(g, root, tr.depth);
    if (again.height >= tr.height) break;
    tr = std::move(again);
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
