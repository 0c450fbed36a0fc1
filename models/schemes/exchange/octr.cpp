#include "schemes/exchange/octr.hpp"

#include <algorithm>
#include <string>

namespace sy {
namespace {

// One edge of the task multigraph: a hop of the packets with tag `row` on link type `col`.
struct Edge {
  int row, col, colour = -1;
};

// König: a proper colouring of a bipartite multigraph with max-degree colours, by flipping
// alternating paths (a colour free at the row, b free at the column; make a free at the column).
int colour_edges(std::vector<Edge>& edges, int rows, int cols) {
  std::vector<int> deg_r(rows, 0), deg_c(cols, 0);
  for (const Edge& e : edges) ++deg_r[e.row], ++deg_c[e.col];
  int h = 0;
  for (int d : deg_r) h = std::max(h, d);
  for (int d : deg_c) h = std::max(h, d);
  // at_r[r * h + c], at_c[k * h + c]: the edge of colour c at that vertex, or -1.
  std::vector<int> at_r(static_cast<std::size_t>(rows) * h, -1),
      at_c(static_cast<std::size_t>(cols) * h, -1);
  auto free_at = [&](const std::vector<int>& at, int v) {
    for (int c = 0; c < h; ++c)
      if (at[static_cast<std::size_t>(v) * h + c] < 0) return c;
    return -1;
  };
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const int r = edges[i].row, k = edges[i].col;
    const int a = free_at(at_r, r), b = free_at(at_c, k);
    if (at_c[static_cast<std::size_t>(k) * h + a] >= 0) {
      // Flip the a/b path from column k: its edges alternate a, b, a, ... (column, row, ...).
      std::vector<int> path;
      bool at_col = true;
      int v = k, want = a;
      for (;;) {
        const std::vector<int>& at = at_col ? at_c : at_r;
        const int e = at[static_cast<std::size_t>(v) * h + want];
        if (e < 0) break;
        path.push_back(e);
        v = at_col ? edges[e].row : edges[e].col;
        at_col = !at_col;
        want = want == a ? b : a;
      }
      for (int e : path) {
        at_r[static_cast<std::size_t>(edges[e].row) * h + edges[e].colour] = -1;
        at_c[static_cast<std::size_t>(edges[e].col) * h + edges[e].colour] = -1;
      }
      for (int e : path) {
        edges[e].colour = edges[e].colour == a ? b : a;
        at_r[static_cast<std::size_t>(edges[e].row) * h + edges[e].colour] = e;
        at_c[static_cast<std::size_t>(edges[e].col) * h + edges[e].colour] = e;
      }
    }
    edges[i].colour = a;
    at_r[static_cast<std::size_t>(r) * h + a] = static_cast<int>(i);
    at_c[static_cast<std::size_t>(k) * h + a] = static_cast<int>(i);
  }
  return h;
}

}  // namespace

Schedule total_exchange_octr(Topology::Kind kind, const std::vector<int>& dims, int packet_flits) {
  if (kind != Topology::Kind::Torus && kind != Topology::Kind::Hypercube)
    throw UnsupportedSchedule("total exchange: hypercubes and tori (rings included) only");
  const Topology topo(kind, dims);
  const int n = topo.num_nodes(), D = topo.num_dims();
  if (n < 2) throw UnsupportedSchedule("total exchange needs two nodes or more");
  if (static_cast<long long>(n) * (n - 1) > (1LL << 22))
    throw UnsupportedSchedule("total exchange: more than 2^22 packets (" + std::to_string(n) +
                              " nodes)");
  // Link types: hypercube dimension j -> column j; torus dimension j -> 2j (+), 2j + 1 (-);
  // a torus dimension of size 2 has a single link (column 2j).
  const bool cube = kind == Topology::Kind::Hypercube;
  const int cols = cube ? D : 2 * D;
  // Rows: the tags, one per destination of node 0 (the same at every node: isotropic).
  std::vector<Edge> edges;
  std::vector<std::vector<int>> hops_of(static_cast<std::size_t>(n));  // row -> its columns
  for (int t = 1; t < n; ++t) {
    std::vector<int>& cols_t = hops_of[static_cast<std::size_t>(t)];
    for (int j = 0; j < D; ++j) {
      const int p = topo.size(j), x = topo.coord(t, j);
      if (x == 0) continue;
      if (cube || p == 2) {
        cols_t.push_back(cube ? j : 2 * j);
        continue;
      }
      int dir;
      if (2 * x < p) {
        dir = +1;
      } else if (2 * x > p) {
        dir = -1;
      } else {
        // Antipodal: + or - by the parity of the other coordinates' sum (balanced for d > 1;
        // a ring's antipodal packets all go +).
        int other = 0;
        for (int i = 0; i < D; ++i)
          if (i != j) other += topo.coord(t, i);
        dir = other % 2 == 0 ? +1 : -1;
      }
      const int steps = dir > 0 ? x : p - x;
      for (int s = 0; s < steps; ++s) cols_t.push_back(dir > 0 ? 2 * j : 2 * j + 1);
    }
    for (int k : cols_t) edges.push_back({t, k});
  }
  const int h = colour_edges(edges, n, cols);
  // Each tag's hops in the order of their colours.
  std::vector<std::vector<std::pair<int, int>>> plan(static_cast<std::size_t>(n));  // (slot, col)
  for (const Edge& e : edges) plan[static_cast<std::size_t>(e.row)].push_back({e.colour, e.col});
  for (auto& p : plan) std::sort(p.begin(), p.end());
  Schedule s;
  s.algorithm = "total-exchange";
  s.variant = "OCTR (König edge colouring, " + std::to_string(h) + " colours)";
  s.kind = kind;
  s.dims = dims;
  s.timing = ScheduleTiming::Slots;
  s.message_flits = s.packet_flits = packet_flits;
  s.shortest_paths = true;
  s.phases = h;
  s.item_flits.assign(static_cast<std::size_t>(n) * (n - 1), packet_flits);
  s.item_source.reserve(s.item_flits.size());
  s.item_dest.reserve(s.item_flits.size());
  s.transmissions.reserve(s.item_flits.size());
  for (int src = 0; src < n; ++src)
    for (int t = 1; t < n; ++t) {
      Transmission tr;
      tr.sender = src;
      tr.item = static_cast<int>(s.item_source.size());
      int v = src;
      for (const auto& [slot, col] : plan[static_cast<std::size_t>(t)]) {
        const int j = cube ? col : col / 2;
        const int dir = cube || topo.size(j) == 2 ? 0 : (col % 2 == 0 ? +1 : -1);
        tr.path.push_back({j, dir});
        tr.slots.push_back(slot);
        v = topo.neighbor(v, topo.port_of(j, dir));
      }
      s.item_source.push_back(src);
      s.item_dest.push_back(v);
      s.transmissions.push_back(std::move(tr));
    }
  return s;
}

double total_exchange_formula(Topology::Kind kind, const std::vector<int>& dims) {
  double n = 1;
  for (int p : dims) n *= p;
  if (kind == Topology::Kind::Hypercube) return n / 2;
  if (kind != Topology::Kind::Torus || dims.empty()) return -1;
  for (int p : dims)
    if (p != dims[0]) return -1;  // the paper's tori have p nodes in every dimension
  const double p = dims[0];
  if (dims.size() == 1) return static_cast<int>(p) % 2 ? (n * n - 1) / 8 : n * (n + 2) / 8;
  return static_cast<int>(p) % 2 ? (p * n - n / p) / 8 : p * n / 8;
}

}  // namespace sy
