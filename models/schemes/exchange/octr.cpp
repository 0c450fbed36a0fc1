#include "switchyard/schemes/exchange/octr.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sy {
namespace {

// One edge of the task multigraph: a hop of the packets of row `row` on link type `col`.
struct Edge {
  int row, col, colour = -1;
};

// A proper colouring of the rows x columns multigraph with `colours` colours; at_r / at_c give
// the edge of each colour at each vertex (-1: that colour is free there).
class Colouring {
 public:
  Colouring(const TaskMatrix& t, int colours) : rows_(t.num_rows()), h_(colours) {
    for (int r = 0; r < rows_; ++r)
      for (int c = 0; c < t.cols; ++c)
        for (int k = 0; k < t.rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]; ++k)
          edges.push_back({r, c});
    at_r_.assign(static_cast<std::size_t>(rows_) * h_, -1);
    at_c_.assign(static_cast<std::size_t>(t.cols) * h_, -1);
  }
  std::vector<Edge> edges;

  // König: colour every edge, flipping an alternating path where the free colours of its two
  // ends differ (a free at the row, b free at the column: make a free at the column).
  void colour_all() {
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const int r = edges[i].row, k = edges[i].col;
      const int a = free_at(at_r_, r), b = free_at(at_c_, k);
      if (a < 0 || b < 0) throw std::logic_error("König colouring: too few colours");
      if (at(at_c_, k, a) >= 0) flip(path_from(false, k, a, b), a, b);
      set(static_cast<int>(i), a);
    }
  }
  // Moves one edge from colour a to colour b (|a| > |b|) by swapping an alternating path that
  // starts and ends with an a edge. Such a path exists: the a/b components are alternating
  // paths and even cycles, and a has more edges than b.
  void move_one(int a, int b) {
    for (std::size_t i = 0; i < edges.size(); ++i) {
      if (edges[i].colour != a) continue;
      // An end of a component: the row of this a edge has no b edge.
      if (at(at_r_, edges[i].row, b) >= 0) continue;
      const std::vector<int> p = path_from(true, edges[i].row, a, b);
      if (edges[static_cast<std::size_t>(p.back())].colour != a) continue;
      flip(p, a, b);
      return;
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
      if (edges[i].colour != a || at(at_c_, edges[i].col, b) >= 0) continue;
      const std::vector<int> p = path_from(false, edges[i].col, a, b);
      if (edges[static_cast<std::size_t>(p.back())].colour != a) continue;
      flip(p, a, b);
      return;
    }
    throw std::logic_error("k-link colouring: no alternating path to swap");
  }

 private:
  int at(const std::vector<int>& t, int v, int c) const {
    return t[static_cast<std::size_t>(v) * h_ + c];
  }
  int free_at(const std::vector<int>& t, int v) const {
    for (int c = 0; c < h_; ++c)
      if (at(t, v, c) < 0) return c;
    return -1;
  }
  void set(int e, int c) {
    Edge& x = edges[static_cast<std::size_t>(e)];
    x.colour = c;
    at_r_[static_cast<std::size_t>(x.row) * h_ + c] = e;
    at_c_[static_cast<std::size_t>(x.col) * h_ + c] = e;
  }
  void unset(int e) {
    const Edge& x = edges[static_cast<std::size_t>(e)];
    at_r_[static_cast<std::size_t>(x.row) * h_ + x.colour] = -1;
    at_c_[static_cast<std::size_t>(x.col) * h_ + x.colour] = -1;
  }
  // The alternating path from vertex v (a row when at_row) taking colours a, b, a, ...
  std::vector<int> path_from(bool at_row, int v, int a, int b) const {
    std::vector<int> path;
    int want = a;
    for (;;) {
      const int e = at(at_row ? at_r_ : at_c_, v, want);
      if (e < 0) break;
      path.push_back(e);
      v = at_row ? edges[static_cast<std::size_t>(e)].col : edges[static_cast<std::size_t>(e)].row;
      at_row = !at_row;
      want = want == a ? b : a;
    }
    return path;
  }
  void flip(const std::vector<int>& path, int a, int b) {
    for (int e : path) unset(e);
    for (int e : path) set(e, edges[static_cast<std::size_t>(e)].colour == a ? b : a);
  }
  int rows_, h_;
  std::vector<int> at_r_, at_c_;
};

TaskPlan plan_of(const TaskMatrix& t, const std::vector<Edge>& edges) {
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  for (const Edge& e : edges) plan[static_cast<std::size_t>(e.row)].push_back({e.colour, e.col});
  for (auto& p : plan) std::sort(p.begin(), p.end());
  return plan;
}

}  // namespace

TaskPlan octr_plan(const TaskMatrix& t) {
  Colouring k(t, t.critical_sum());
  k.colour_all();
  return plan_of(t, k.edges);
}

TaskPlan k_link_plan(const TaskMatrix& t, int links) {
  if (links < 1) throw std::invalid_argument("k_link_plan: k >= 1");
  const long long sigma = t.total();
  const int h = t.critical_sum();
  const int S = std::max<int>(h, static_cast<int>((sigma + links - 1) / links));
  Colouring k(t, S);
  k.colour_all();
  std::vector<int> count(static_cast<std::size_t>(S), 0);
  for (const Edge& e : k.edges) ++count[static_cast<std::size_t>(e.colour)];
  for (;;) {
    const auto big = std::max_element(count.begin(), count.end());
    if (*big <= links) break;
    const auto small = std::min_element(count.begin(), count.end());  // < k: sigma <= k S
    const int a = static_cast<int>(big - count.begin()),
              b = static_cast<int>(small - count.begin());
    k.move_one(a, b);
    --*big;
    ++*small;
  }
  return plan_of(t, k.edges);
}

Schedule octr_schedule(const TaskMatrix& t, int packet_flits, int links) {
  const bool limited = links > 0 && links < t.cols;
  const TaskPlan plan = limited ? k_link_plan(t, links) : octr_plan(t);
  const int slots = [&] {
    int m = 0;
    for (const auto& p : plan) m = std::max(m, p.empty() ? 0 : p.back().first + 1);
    return m;
  }();
  Schedule s = task_schedule(
      t, plan, packet_flits, "octr",
      "OCTR of the " + t.name + " (König edge colouring, " + std::to_string(slots) + " colours" +
          (limited ? ", at most " + std::to_string(links) + " links per node and slot" : "") + ")");
  if (limited) s.links_per_slot = links;
  return s;
}

Schedule total_exchange_octr(Topology::Kind kind, const std::vector<int>& dims, int packet_flits,
                             int size2_links) {
  Schedule s = octr_schedule(total_exchange_task(kind, dims, size2_links), packet_flits);
  s.algorithm = "total-exchange";
  return s;
}

bool binary_torus(Topology::Kind kind, const std::vector<int>& dims) {
  return kind == Topology::Kind::Torus && dims.size() >= 2 &&
         std::all_of(dims.begin(), dims.end(), [](int p) { return p == 2; });
}

double total_exchange_formula(Topology::Kind kind, const std::vector<int>& dims, int size2_links) {
  double n = 1;
  for (int p : dims) n *= p;
  if (kind == Topology::Kind::Hypercube) return n / 2;
  if (binary_torus(kind, dims))
    return size2_links == 2 ? std::max(n / 4, static_cast<double>(dims.size())) : n / 2;
  if (kind != Topology::Kind::Torus || dims.empty()) return -1;
  for (int p : dims)
    if (p != dims[0]) return -1;  // the paper's tori have p nodes in every dimension
  const double p = dims[0];
  if (dims.size() == 1) return static_cast<int>(p) % 2 ? (n * n - 1) / 8 : n * (n + 2) / 8;
  return static_cast<int>(p) % 2 ? (p * n - n / p) / 8 : p * n / 8;
}

}  // namespace sy
