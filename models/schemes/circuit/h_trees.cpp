// Two H-trees on a (2^k - 1) x (2^k - 1) torus (Peters & Syska §5, Figs. 9-10).
//
// H-tree of a (2^k' - 1)-square centred at c: for k' >= 2 and s = 2^(k'-2), c sends to
// c + (0, +-s) (vertical paths), those send to c + (+-s, +-s) (horizontal paths), and the four
// nodes c + (+-s, +-s) are the centres of the four (2^(k'-1) - 1)-squares around the cross
// through c. So the tree has 2(k - 1) levels, odd levels vertical, even levels horizontal.
// The second tree is the first rotated by 90 degrees (horizontal first); the two are
// arc-disjoint. X_j runs down the first tree and Y_j down the second, level l in phase j + l - 1;
// in phase j + 2k - 2 every node that is not on the first tree receives X_j, and every node not
// on the second receives Y_j, over one hop from a tree node holding it, on an arc neither tree
// uses (the paper's last phase: "one of the informed neighbours sends X and the other Y").
#include <algorithm>
#include <string>

#include "schemes/circuit/circuit_schedule.hpp"

namespace sy {

using namespace circuit_detail;

namespace {

// Relative coordinates (x, y) around the root; `rot` rotates the whole tree by 90 degrees.
void htree(int cx, int cy, int kk, int level0, bool rot, const Grid& g,
           std::vector<LevelPath>& out) {
  if (kk < 2) return;
  const int s = 1 << (kk - 2);
  auto node = [&](int x, int y) { return rot ? g.node(-y, x) : g.node(x, y); };
  auto hop = [&](ScheduleHop h) { return rot ? rotate90(h) : h; };
  for (int dy : {+1, -1}) {
    std::vector<ScheduleHop> v;
    append_hops(v, hop(dy > 0 ? kNorth : kSouth), s);
    out.push_back({level0 + 1, node(cx, cy), v});
    for (int dx : {+1, -1}) {
      std::vector<ScheduleHop> h;
      append_hops(h, hop(dx > 0 ? kEast : kWest), s);
      out.push_back({level0 + 2, node(cx, cy + dy * s), h});
      htree(cx + dx * s, cy + dy * s, kk - 1, level0 + 2, rot, g, out);
    }
  }
}

const ScheduleHop kDirs[4] = {kEast, kNorth, kWest, kSouth};
ScheduleHop back(ScheduleHop h) {
  return ScheduleHop{h.dim, -h.dir};
}
// The hop of an arc (Grid::arc: node * 4 + dim * 2 + (dir > 0 ? 0 : 1)).
ScheduleHop hop_of(int arc) {
  return ScheduleHop{(arc % 4) / 2, arc % 2 ? -1 : +1};
}

// The construction's first fill (kept where the one below finds nothing): in the last phase
// (offset 2k - 2) every node off tree t gets its half from a tree-t neighbour, over one hop, or
// two hops where no neighbour holds it (k >= 4: e.g. (2,0) on 15x15, whose neighbours (2,+-1)
// hold only X) -- the 2-hop paths cost the model T(B) + min(P, 3) delta.
void late_fill(const Grid& g, const std::vector<char> (&on)[2], std::vector<char>& used,
               std::vector<LevelPath> (&fill)[2]) {
  const int N = g.n0 * g.n1, last = 2 * (log2_ceil(g.n0 + 1) - 1);
  std::vector<std::pair<int, int>> demands;  // (node, tree)
  std::vector<std::vector<PathOption>> options;
  for (int i = 0; i < N; ++i)  // relative order: the same schedule, translated, for every root
    for (int t = 0; t < 2; ++t) {
      const int v = g.node(i % g.n0, i / g.n0);
      if (on[t][v]) continue;
      demands.push_back({v, t});
      options.emplace_back();
      for (ScheduleHop h : kDirs) {  // one hop
        const int u = g.step(v, back(h));
        if (on[t][u]) options.back().push_back(make_option(g, u, {h}));
      }
      for (ScheduleHop h2 : kDirs)  // two hops, not doubling back
        for (ScheduleHop h1 : kDirs) {
          if (h1.dim == h2.dim && h1.dir != h2.dir) continue;
          const int u = g.step(g.step(v, back(h2)), back(h1));
          if (u != v && on[t][u]) options.back().push_back(make_option(g, u, {h1, h2}));
        }
      auto& o = options.back();
      o.erase(std::remove_if(o.begin(), o.end(),
                             [&](const PathOption& p) {
                               for (int a : p.arcs)
                                 if (used[a]) return true;
                               return false;
                             }),
              o.end());
    }
  std::vector<int> choice;
  if (!choose_disjoint(options, used, choice))
    throw UnsupportedSchedule("h-trees: no arc-disjoint fill phase found for " +
                              size_name({g.n0, g.n1}));
  for (std::size_t d = 0; d < demands.size(); ++d) {
    const PathOption& o = options[d][choice[d]];
    fill[demands[d].second].push_back({last, o.sender, o.path});
  }
}

// The fill that keeps every reception on the paper's schedule. Packet j reaches a level-l node
// of tree t at j*(a + s d + B t) + l*(a + B t) + hops*d (s = 2^(k-2), the longest tree path) and
// the last one T(B) = (P - 1)(a + s d + B t) + (2k - 1)(a + B t) + (2^k - 1) d. A non-leaf node
// at level l sending packet j down its tree in phase j + l may also send it, in the same
// phase, over a path of h <= s free hops to a node that no tree neighbour can serve: its phase
// then ends before packet j + 1 arrives (so nothing after it moves), and the packet is in at
// (l + 1)(a + B t) + (hops + h) d <= T(B) when hops + h <= 2^k - 1. Where h <= the node's own
// tree path the phase does not even get longer. Nodes off tree t with a tree-t neighbour get
// their half in the last phase over one hop, as in the paper. The paths are searched
// breadth-first from the node that needs them, over arcs no tree and no other fill uses, never
// taking an arc that a last-phase one-hop fill needs (both halves into one node need two
// arcs). False when a node is left (then late_fill).
bool early_fill(const Grid& g, int k, const std::vector<int> (&level)[2],
                const std::vector<int> (&hops)[2], std::vector<char>& used,
                std::vector<LevelPath> (&fill)[2]) {
  const int N = g.n0 * g.n1, s = 1 << (k - 2), last = 2 * (k - 1), top = (1 << k) - 1;
  std::vector<char> taken(used);
  auto one_hop = [&](int v, int t) {  // free arcs into v from tree-t nodes
    std::vector<int> a;
    for (ScheduleHop h : kDirs) {
      const int u = g.step(v, back(h));
      if (level[t][u] >= 0 && !taken[Grid::arc(u, h)]) a.push_back(Grid::arc(u, h));
    }
    return a;
  };
  auto needs = [&](int arc) {  // a last-phase fill into the arc's head cannot do without it
    const int v = g.step(arc / 4, hop_of(arc));
    std::vector<std::vector<int>> opts;
    for (int t = 0; t < 2; ++t) {
      if (level[t][v] >= 0) continue;
      auto o = one_hop(v, t);
      if (o.empty()) continue;  // served by a path of its own
      o.erase(std::remove(o.begin(), o.end(), arc), o.end());
      if (o.empty()) return true;
      opts.push_back(o);
    }
    if (opts.size() == 2) {
      std::vector<int> u = opts[0];
      u.insert(u.end(), opts[1].begin(), opts[1].end());
      std::sort(u.begin(), u.end());
      if (std::unique(u.begin(), u.end()) - u.begin() < 2) return true;
    }
    return false;
  };
  std::vector<std::pair<int, int>> lone;  // (node, tree) with no one-hop option
  for (int i = 0; i < N; ++i)
    for (int t = 0; t < 2; ++t) {
      const int v = g.node(i % g.n0, i / g.n0);
      if (level[t][v] < 0 && one_hop(v, t).empty()) lone.push_back({v, t});
    }
  std::vector<LevelPath> out[2];
  for (const auto& [v, t] : lone) {
    // Breadth-first backwards from v: prev[u] = the hop u takes towards v.
    std::vector<int> dist(N, -1);
    std::vector<ScheduleHop> toward(N);
    std::vector<int> queue{v};
    dist[v] = 0;
    int from = -1;
    for (std::size_t q = 0; q < queue.size() && from < 0; ++q) {
      const int x = queue[q];
      if (x != v && level[t][x] >= 0 && level[t][x] < last && dist[x] <= s &&
          hops[t][x] + dist[x] <= top) {
        from = x;
        break;
      }
      if (dist[x] == s) continue;
      for (ScheduleHop h : kDirs) {
        const int y = g.step(x, back(h)), a = Grid::arc(y, h);
        if (dist[y] >= 0 || taken[a] || needs(a)) continue;
        dist[y] = dist[x] + 1;
        toward[y] = h;
        queue.push_back(y);
      }
    }
    if (from < 0) return false;
    std::vector<ScheduleHop> path;
    for (int x = from; x != v; x = g.step(x, toward[x])) {
      path.push_back(toward[x]);
      taken[Grid::arc(x, toward[x])] = 1;
    }
    out[t].push_back({level[t][from], from, path});
  }
  // The rest: one hop in the last phase, a node's (at most two) demands on distinct arcs.
  std::vector<char> is_lone(2 * N, 0);
  for (const auto& l : lone) is_lone[2 * l.first + l.second] = 1;
  for (int i = 0; i < N; ++i) {
    const int v = g.node(i % g.n0, i / g.n0);
    std::vector<int> o[2];
    for (int t = 0; t < 2; ++t)
      if (level[t][v] < 0 && !is_lone[2 * v + t]) {
        o[t] = one_hop(v, t);
        if (o[t].empty()) return false;
      }
    int pick[2] = {-1, -1};
    if (o[0].empty() || o[1].empty()) {
      for (int t = 0; t < 2; ++t)
        if (!o[t].empty()) pick[t] = o[t][0];
    } else {
      for (int a : o[0])
        for (int b : o[1])
          if (a != b && pick[0] < 0) pick[0] = a, pick[1] = b;
      if (pick[0] < 0) return false;
    }
    for (int t = 0; t < 2; ++t)
      if (pick[t] >= 0) {
        taken[pick[t]] = 1;
        out[t].push_back({last, pick[t] / 4, {hop_of(pick[t])}});
      }
  }
  used = taken;
  for (int t = 0; t < 2; ++t) fill[t] = out[t];
  return true;
}
}  // namespace

Schedule h_trees(const std::vector<int>& dims, int root, int parts, int message_flits) {
  // From 63 x 63 on the fill phase's search finds no arc-disjoint paths (tried up to 511 x 511,
  // and 63 x 63 with 30 times the search budget): those sizes are refused at once (issue 16).
  const std::string supported = "(2^k - 1) x (2^k - 1) with 2 <= k <= 5 (3x3, 7x7, 15x15, 31x31)";
  require_torus("h-trees", dims, root, supported);
  int k = 0;
  while ((1 << k) - 1 < dims[0]) ++k;
  if (dims[0] != dims[1] || (1 << k) - 1 != dims[0] || k < 2 || k > 5)
    throw UnsupportedSchedule("h-trees: no construction for a " + size_name(dims) +
                              " torus; supported: " + supported);
  if (parts < 2 || parts % 2)
    throw UnsupportedSchedule(
        "h-trees: parts must be even (halves X and Y, parts/2 packets each), got " +
        std::to_string(parts));
  const Grid g(dims, root);
  const int N = dims[0] * dims[1];

  std::vector<LevelPath> tree[2];
  std::vector<char> on[2], used(g.num_arcs(), 0);
  for (int t = 0; t < 2; ++t) {
    htree(0, 0, k, 0, t == 1, g, tree[t]);
    on[t].assign(N, 0);
    on[t][root] = 1;
    for (const LevelPath& lp : tree[t]) {
      int v = lp.sender;
      for (const ScheduleHop& h : lp.path) used[Grid::arc(v, h)] = 1, v = g.step(v, h);
      on[t][v] = 1;
    }
  }
  // Depth of every tree node: level (phases) and hops from the root (delta terms).
  std::vector<int> level[2], hops[2];
  for (int t = 0; t < 2; ++t) {
    level[t].assign(N, -1);
    hops[t].assign(N, 0);
    level[t][root] = 0;
    for (const LevelPath& lp : tree[t]) {  // parents come before children
      const int v = g.walk(lp.sender, lp.path);
      level[t][v] = lp.level;
      hops[t][v] = hops[t][lp.sender] + static_cast<int>(lp.path.size());
    }
  }
  std::vector<LevelPath> fill[2];  // level = the phase offset (packet j sends in j + level)
  const bool exact = early_fill(g, k, level, hops, used, fill);
  if (!exact) late_fill(g, on, used, fill);

  Schedule s;
  s.algorithm = "h-trees";
  s.variant = "k=" + std::to_string(k) + (exact ? "" : ", 2-hop last-phase fill");
  s.dims = dims;
  s.root = root;
  s.streams = 2;
  for (int j = 0; j < parts / 2; ++j)
    for (int t = 0; t < 2; ++t) {
      const int part = 2 * j + t;
      for (const LevelPath& lp : tree[t])
        s.transmissions.push_back({j + lp.level - 1, lp.sender, part, lp.path, {}});
      for (const LevelPath& lp : fill[t])
        s.transmissions.push_back({j + lp.level, lp.sender, part, lp.path, {}});
    }
  finish(s, parts, message_flits);
  return s;
}

}  // namespace sy
