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

}  // namespace

Schedule h_trees(const std::vector<int>& dims, int root, int parts, int message_flits) {
  const std::string supported = "(2^k - 1) x (2^k - 1) with k >= 2 (3x3, 7x7, 15x15, 31x31, ...)";
  require_torus("h-trees", dims, root, supported);
  int k = 0;
  while ((1 << k) - 1 < dims[0]) ++k;
  if (dims[0] != dims[1] || (1 << k) - 1 != dims[0] || k < 2)
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
  // Fill: a node lacking the half of tree t gets it from a node of tree t over arcs neither
  // tree uses: one hop where a neighbour holds it, else two hops (k >= 4: e.g. (2,0) on 15x15,
  // whose tree neighbours (2,+-1) hold only X).
  std::vector<LevelPath> fill[2];
  std::vector<std::pair<int, int>> demands;  // (node, tree)
  std::vector<std::vector<PathOption>> options;
  const ScheduleHop dirs[4] = {kEast, kNorth, kWest, kSouth};
  auto back = [](ScheduleHop h) { return ScheduleHop{h.dim, -h.dir}; };
  for (int i = 0; i < N; ++i)  // relative order: the same schedule, translated, for every root
    for (int t = 0; t < 2; ++t) {
      const int v = g.node(i % dims[0], i / dims[0]);
      if (on[t][v]) continue;
      demands.push_back({v, t});
      options.emplace_back();
      for (ScheduleHop h : dirs) {  // one hop
        const int u = g.step(v, back(h));
        if (on[t][u]) options.back().push_back(make_option(g, u, {h}));
      }
      for (ScheduleHop h2 : dirs)  // two hops, not doubling back
        for (ScheduleHop h1 : dirs) {
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
    throw std::logic_error("h-trees: no arc-disjoint fill phase found for " + size_name(dims));
  for (std::size_t d = 0; d < demands.size(); ++d) {
    const PathOption& o = options[d][choice[d]];
    fill[demands[d].second].push_back({0, o.sender, o.path});
  }

  Schedule s;
  s.algorithm = "h-trees";
  s.variant = "k=" + std::to_string(k);
  s.dims = dims;
  s.root = root;
  s.streams = 2;
  const int levels = 2 * (k - 1);
  for (int j = 0; j < parts / 2; ++j)
    for (int t = 0; t < 2; ++t) {
      const int part = 2 * j + t;
      for (const LevelPath& lp : tree[t])
        s.transmissions.push_back({j + lp.level - 1, lp.sender, part, lp.path});
      for (const LevelPath& lp : fill[t])
        s.transmissions.push_back({j + levels, lp.sender, part, lp.path});
    }
  finish(s, parts, message_flits);
  return s;
}

}  // namespace sy
