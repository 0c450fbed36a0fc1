#include "switchyard/schemes/exchange/oadd.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "switchyard/schemes/exchange/closed_forms.hpp"

namespace sy {
namespace {

const char* kSupported = "oadd (optimal completion and average delay) runs on hypercubes and tori";

// The row of each destination of node 0 (-1: none).
std::vector<int> row_of_dest(const TaskMatrix& t) {
  std::vector<int> r(static_cast<std::size_t>(t.nodes()), -1);
  for (int i = 0; i < t.num_rows(); ++i)
    r[static_cast<std::size_t>(t.tag[static_cast<std::size_t>(i)])] = i;
  return r;
}

// Nearest-first OCTR on the rows `rows` of t (a phase), from slot `slot`: every slot serves one
// entry of every critical line of the rows' own remaining matrix (so they clear in its critical
// sum h of slots: OCTR, §4), the critical rows first, then the rows nearest their destination
// (OADD as far as OCTR allows: the paper's "insisting on the OCTR and ignoring the OADD when both
// cannot be satisfied", end of §6.3), ties by row order. The rows sent in a slot are a greedy
// basis of the transversal matroid (Kuhn's augmenting paths, rows kept once matched), so no row
// waits that could have been sent beside the nearer ones; an idle critical column then takes a
// link from a non-critical one along an alternating path (the basis keeps its rows). Returns the
// slot after the phase.
int nearest_first_octr(const TaskMatrix& t, const std::vector<int>& rows, int slot,
                       TaskPlan& plan) {
  const int C = t.cols, R = static_cast<int>(rows.size());
  std::vector<std::vector<int>> left;
  std::vector<int> sum(static_cast<std::size_t>(R), 0), col(static_cast<std::size_t>(C), 0);
  for (int i = 0; i < R; ++i) {
    left.push_back(t.rows[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])]);
    for (int c = 0; c < C; ++c) {
      sum[static_cast<std::size_t>(i)] += left.back()[static_cast<std::size_t>(c)];
      col[static_cast<std::size_t>(c)] += left.back()[static_cast<std::size_t>(c)];
    }
  }
  std::vector<int> row_at(static_cast<std::size_t>(C)), col_of(static_cast<std::size_t>(R)), order,
      parent_row(static_cast<std::size_t>(C)), parent_col(static_cast<std::size_t>(C));
  std::vector<char> seen(static_cast<std::size_t>(C));
  // Kuhn: row i takes a free column, or one whose row moves on to another.
  auto augment = [&](auto&& self, int i) -> bool {
    for (int c = 0; c < C; ++c) {
      if (left[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)] == 0 ||
          seen[static_cast<std::size_t>(c)])
        continue;
      seen[static_cast<std::size_t>(c)] = 1;
      const int j = row_at[static_cast<std::size_t>(c)];
      if (j < 0 || self(self, j)) {
        row_at[static_cast<std::size_t>(c)] = i;
        col_of[static_cast<std::size_t>(i)] = c;
        return true;
      }
    }
    return false;
  };
  for (;;) {
    const int h = std::max(*std::max_element(sum.begin(), sum.end()),
                           *std::max_element(col.begin(), col.end()));
    if (h == 0) return slot;
    order.clear();
    for (int i = 0; i < R; ++i)
      if (sum[static_cast<std::size_t>(i)] > 0) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const int ka = sum[static_cast<std::size_t>(a)] == h ? 0 : sum[static_cast<std::size_t>(a)];
      const int kb = sum[static_cast<std::size_t>(b)] == h ? 0 : sum[static_cast<std::size_t>(b)];
      return ka < kb;
    });
    std::fill(row_at.begin(), row_at.end(), -1);
    std::fill(col_of.begin(), col_of.end(), -1);
    int matched = 0;
    for (int i : order) {
      if (matched == C) break;
      std::fill(seen.begin(), seen.end(), 0);
      if (augment(augment, i)) ++matched;
    }
    // Every critical column busy: move a link from a non-critical column to it.
    for (int c = 0; c < C; ++c) {
      if (col[static_cast<std::size_t>(c)] < h || row_at[static_cast<std::size_t>(c)] >= 0)
        continue;
      std::fill(seen.begin(), seen.end(), 0);
      std::vector<int> queue{c};
      seen[static_cast<std::size_t>(c)] = 1;
      int end = -1;
      for (std::size_t q = 0; q < queue.size() && end < 0; ++q) {
        const int x = queue[q];
        for (int i = 0; i < R && end < 0; ++i) {
          const int y = col_of[static_cast<std::size_t>(i)];
          if (y < 0 || left[static_cast<std::size_t>(i)][static_cast<std::size_t>(x)] == 0 ||
              seen[static_cast<std::size_t>(y)])
            continue;
          seen[static_cast<std::size_t>(y)] = 1;
          parent_row[static_cast<std::size_t>(y)] = i;
          parent_col[static_cast<std::size_t>(y)] = x;
          if (col[static_cast<std::size_t>(y)] < h)
            end = y;
          else
            queue.push_back(y);
        }
      }
      if (end < 0) throw std::logic_error("oadd: no matching serves every critical column");
      row_at[static_cast<std::size_t>(end)] = -1;
      for (int y = end; y != c;) {
        const int i = parent_row[static_cast<std::size_t>(y)],
                  x = parent_col[static_cast<std::size_t>(y)];
        row_at[static_cast<std::size_t>(x)] = i;
        col_of[static_cast<std::size_t>(i)] = x;
        y = x;
      }
    }
    for (int c = 0; c < C; ++c) {
      const int i = row_at[static_cast<std::size_t>(c)];
      if (i < 0) continue;
      --left[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)];
      --sum[static_cast<std::size_t>(i)];
      --col[static_cast<std::size_t>(c)];
      plan[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])].push_back({slot, c});
    }
    ++slot;
  }
}

TaskPlan hypercube_plan(const TaskMatrix& t) {
  const int d = static_cast<int>(t.dims.size()), n = t.nodes(), mask = n - 1;
  const bool prime = is_prime(d);
  const std::vector<int> row = row_of_dest(t);
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  auto send = [&](int tag, int slot, int col) {
    plan[static_cast<std::size_t>(row[static_cast<std::size_t>(tag)])].push_back({slot, col});
  };
  auto rot = [&](int x) { return ((x << 1) | (x >> (d - 1))) & mask; };
  int slot = 0;
  // The rotation classes of weight 1 .. d - 2, lightest first (d prime: all have d members; else
  // the degenerate ones, of fewer members, wait for the last phase: §6.3).
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<int> rest;  // d not prime: the rows of the last phase
  for (int w = 1; w <= d - 2; ++w)
    for (int r = 1; r < mask; ++r) {
      if (__builtin_popcount(static_cast<unsigned>(r)) != w || seen[static_cast<std::size_t>(r)])
        continue;
      int members = 1;
      for (int m = rot(r); m != r; m = rot(m)) ++members;
      if (members < d) {
        for (int k = 0, m = r; k < members; ++k, m = rot(m)) {
          seen[static_cast<std::size_t>(m)] = 1;
          rest.push_back(row[static_cast<std::size_t>(m)]);
        }
        continue;
      }
      std::vector<int> b;
      for (int j = 0; j < d; ++j)
        if (r >> j & 1) b.push_back(j);
      int m = r;
      for (int k = 0; k < d; ++k, m = rot(m)) {
        seen[static_cast<std::size_t>(m)] = 1;
        for (int s = 0; s < w; ++s) send(m, slot + s, (b[static_cast<std::size_t>(s)] + k) % d);
      }
      slot += w;
    }
  if (!prime) {
    // §6.3: the degenerate classes, the weight d - 1 class and 11...1 by OCTR alone (here
    // nearest first within it). Their column sums are equal (the set is closed under
    // rotation) and at least d, so they clear in n/2 - slot slots: completion stays n/2.
    for (int r = 1; r <= mask; ++r)
      if (__builtin_popcount(static_cast<unsigned>(r)) >= d - 1)
        if (!seen[static_cast<std::size_t>(r)]) rest.push_back(row[static_cast<std::size_t>(r)]);
    std::sort(rest.begin(), rest.end());
    nearest_first_octr(t, rest, slot, plan);
    return plan;
  }
  // The last d slots: the weight d - 1 class with 11...1.
  if (d == 2) {
    send(3, slot, 0);
    send(2, slot, 1);
    send(3, slot + 1, 1);
    send(1, slot + 1, 0);
    return plan;
  }
  for (int s = 0; s < d; ++s) {
    send(mask, slot + s, s);
    for (int k = 0; k < d; ++k)
      if (k != s) send(mask ^ (1 << k), slot + s, ((2 * s - k) % d + d) % d);
  }
  return plan;
}

TaskPlan ring_plan(const TaskMatrix& t) {
  const int n = t.nodes();
  const std::vector<int> row = row_of_dest(t);
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  int slot = 0;
  for (int k = 1; 2 * k < n; ++k) {
    for (int s = 0; s < k; ++s) {
      plan[static_cast<std::size_t>(row[static_cast<std::size_t>(k)])].push_back({slot + s, 0});
      plan[static_cast<std::size_t>(row[static_cast<std::size_t>(n - k)])].push_back({slot + s, 1});
    }
    slot += k;
  }
  if (n % 2 == 0)
    for (int s = 0; s < n / 2; ++s)
      plan[static_cast<std::size_t>(row[static_cast<std::size_t>(n / 2)])].push_back({slot + s, 0});
  return plan;
}

TaskPlan torus2_plan(const TaskMatrix& t) {
  const int p = t.dims[0], m = (p - 1) / 2;
  const Topology topo(t.kind, t.dims, t.size2_links);
  const std::vector<int> row = row_of_dest(t);
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  auto row_at = [&](int dx, int dy) {
    return row[static_cast<std::size_t>(topo.node_at({(dx % p + p) % p, (dy % p + p) % p}))];
  };
  // Columns: 0 = 1+, 1 = 1-, 2 = 2+, 3 = 2-.
  const int first[4] = {0, 2, 1, 3}, second[4] = {2, 1, 3, 0};
  int slot = 0;
  for (int i = 1; i <= 2 * m; ++i)
    for (int a = i; a >= 1; --a) {
      const int b = i - a;
      if (a > m || b > m) continue;
      const int r[4] = {row_at(a, b), row_at(-b, a), row_at(-a, -b), row_at(b, -a)};
      for (int q = 0; q < 4; ++q) {
        auto& pl = plan[static_cast<std::size_t>(r[q])];
        for (int s = 0; s < a; ++s) pl.push_back({slot + s, first[q]});
        for (int s = 0; s < b; ++s) pl.push_back({slot + a + s, second[q]});
      }
      slot += i;
    }
  return plan;
}

// §8.4, d-dimensional torus with p odd: phase i clears N_i (the rows i hops away) by OCTR; its
// column sums are equal (|N_i| i / 2d >= i), so it takes exactly that many slots with every
// link busy, and the phases sum to the optimum. Within a phase, nearest first.
TaskPlan torus_phase_plan(const TaskMatrix& t) {
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  std::vector<std::vector<int>> phase;
  for (int r = 0; r < t.num_rows(); ++r) {
    const int i = t.row_sum(r);
    if (static_cast<int>(phase.size()) <= i) phase.resize(static_cast<std::size_t>(i) + 1);
    phase[static_cast<std::size_t>(i)].push_back(r);
  }
  int slot = 0;
  for (const auto& rows : phase)
    if (!rows.empty()) slot = nearest_first_octr(t, rows, slot, plan);
  return plan;
}

}  // namespace

TaskPlan oadd_near_plan(const TaskMatrix& t) {
  std::vector<int> rows(static_cast<std::size_t>(t.num_rows()));
  for (int r = 0; r < t.num_rows(); ++r) rows[static_cast<std::size_t>(r)] = r;
  TaskPlan plan(rows.size());
  nearest_first_octr(t, rows, 0, plan);
  return plan;
}

TaskPlan oadd_plan(const TaskMatrix& t) {
  const std::string size = " (asked: " + size_name(t.dims) + ")";
  if (t.kind == Topology::Kind::Hypercube) return hypercube_plan(t);
  if (t.kind != Topology::Kind::Torus) throw UnsupportedSchedule(kSupported + size);
  if (t.dims.size() == 1 && t.dims[0] >= 3) return ring_plan(t);
  const bool square =
      std::all_of(t.dims.begin(), t.dims.end(), [&](int p) { return p == t.dims[0]; });
  if (square && t.dims[0] % 2 == 1)
    return t.dims.size() == 2 ? torus2_plan(t) : torus_phase_plan(t);
  return oadd_near_plan(t);
}

Schedule oadd_schedule(Topology::Kind kind, const std::vector<int>& dims, int packet_flits,
                       int size2_links) {
  const TaskMatrix t = total_exchange_task(kind, dims, size2_links);
  const TaskPlan plan = oadd_plan(t);
  const bool cube = kind == Topology::Kind::Hypercube;
  const bool odd_square =
      std::all_of(dims.begin(), dims.end(), [&](int p) { return p == dims[0] && p % 2 == 1; });
  const char* variant =
      cube && !is_prime(static_cast<int>(dims.size()))
          ? "§6.3, d not prime: non-degenerate classes by OCTR + OADD, then the degenerate ones, "
            "R_(d-1)1 and 11...1 by OCTR (nearest first)"
      : !cube && dims.size() >= 3 && odd_square
          ? "§8.4, p odd: phase i clears N_i by OCTR (every link busy), nearest first within it"
      : !cube && dims.size() >= 2 && !odd_square
          ? "no construction in the paper (p even or unequal sizes): OCTR every slot, nearest "
            "rows first"
          : "OCTR + OADD: classes cleared nearest first, every link busy";
  return task_schedule(t, plan, packet_flits, "oadd", variant);
}

}  // namespace sy
