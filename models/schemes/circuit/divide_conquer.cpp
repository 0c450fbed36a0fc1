// Pipelined divide-and-conquer broadcast on a 2^k x 2^k torus (Peters & Syska §5, Figs. 7-8).
//
// Levels 1..k-1: each node informed by the previous level (the root for level 1) sends to
// (x +- l, y +- l), l = 2^(k-i-1), over a "pinwheel" of two-leg paths: (l, l) east then north,
// (-l, l) north then west, (-l, -l) west then south, (l, -l) south then east. After level k-1
// exactly the (odd, odd) nodes (relative to the root) are newly informed. Level k: they inform
// every remaining node over a 1-hop path (to a neighbour) or a 2-hop path (to a diagonal
// (even, even) node, the "corner" case e of Fig. 8), choosing paths that use no arc of levels
// 1..k-1 and no arc twice; found by a small exact search. So the whole broadcast tree is
// arc-disjoint and packet p runs level i in phase p + i - 1.
#include <algorithm>
#include <string>

#include "switchyard/schemes/circuit/circuit_schedule.hpp"

namespace sy {

using namespace circuit_detail;

namespace {

// k with 2^k = n, or -1 when n is not a power of two.
int log2_exact(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return (1 << k) == n ? k : -1;
}

}  // namespace

Schedule divide_and_conquer(const std::vector<int>& dims, int root, int parts, int message_flits) {
  const std::string supported = "2^k x 2^k with k >= 2 (4x4, 8x8, 16x16, 32x32, ...)";
  require_torus("divide-and-conquer", dims, root, supported);
  const int k = log2_exact(dims[0]);
  if (dims[0] != dims[1] || k < 2)
    throw UnsupportedSchedule("divide-and-conquer: no construction for a " + size_name(dims) +
                              " torus; supported: " + supported);
  if (parts < 1) throw UnsupportedSchedule("divide-and-conquer: parts must be >= 1");
  const int n = dims[0];
  const Grid g(dims, root);

  std::vector<LevelPath> tree;
  std::vector<char> informed(n * n, 0), used(g.num_arcs(), 0);
  informed[root] = 1;
  std::vector<int> senders{root};
  for (int i = 1; i <= k - 1; ++i) {
    const int l = 1 << (k - i - 1);
    std::vector<int> next;
    ScheduleHop a = kEast, b = kNorth;
    for (int r = 0; r < 4; ++r, a = rotate90(a), b = rotate90(b)) {
      std::vector<ScheduleHop> p;
      append_hops(p, a, l);
      append_hops(p, b, l);
      for (int u : senders) {
        tree.push_back({i, u, p});
        int v = u;
        for (const ScheduleHop& h : p) used[Grid::arc(v, h)] = 1, v = g.step(v, h);
        informed[v] = 1;
        next.push_back(v);
      }
    }
    senders.swap(next);
  }

  // Level k: targets are the uninformed nodes; senders the (odd, odd) nodes just informed.
  std::vector<int> targets;
  for (int i = 0; i < n * n; ++i) {  // relative order: the same schedule for every root
    const int v = g.node(i % n, i / n);
    if (!informed[v]) targets.push_back(v);
  }
  std::vector<std::vector<PathOption>> options(targets.size());
  auto make = [&](int sender, std::vector<ScheduleHop> path) {
    return make_option(g, sender, std::move(path));
  };
  const ScheduleHop dirs[4] = {kEast, kNorth, kWest, kSouth};
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const int v = targets[t];
    const bool xo = g.x_of(v) % 2, yo = g.y_of(v) % 2;
    if (xo != yo) {  // a neighbour of two (odd, odd) senders
      for (ScheduleHop h : dirs) {
        const ScheduleHop back{h.dim, -h.dir};
        const int u = g.step(v, back);
        if (g.x_of(u) % 2 && g.y_of(u) % 2) options[t].push_back(make(u, {h}));
      }
    } else {  // (even, even): two hops from one of its four diagonal (odd, odd) nodes
      for (ScheduleHop h1 : dirs)
        for (ScheduleHop h2 : dirs) {
          if (h1.dim == h2.dim) continue;
          const int u = g.step(g.step(v, {h2.dim, -h2.dir}), {h1.dim, -h1.dir});
          options[t].push_back(make(u, {h1, h2}));
        }
    }
    // Drop the options that cross an arc of levels 1..k-1.
    options[t].erase(std::remove_if(options[t].begin(), options[t].end(),
                                    [&](const PathOption& o) {
                                      for (int a : o.arcs)
                                        if (used[a]) return true;
                                      return false;
                                    }),
                     options[t].end());
  }
  std::vector<int> choice;
  if (!choose_disjoint(options, used, choice))
    throw UnsupportedSchedule("divide-and-conquer: no arc-disjoint last level found for " +
                              size_name(dims));
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const PathOption& o = options[t][choice[t]];
    tree.push_back({k, o.sender, o.path});
  }

  Schedule s;
  s.algorithm = "divide-and-conquer";
  s.variant = "k=" + std::to_string(k);
  s.dims = dims;
  s.root = root;
  for (int p = 0; p < parts; ++p)
    for (const LevelPath& lp : tree)
      s.transmissions.push_back({p + lp.level - 1, lp.sender, p, lp.path, {}});
  finish(s, parts, message_flits);
  return s;
}

}  // namespace sy
