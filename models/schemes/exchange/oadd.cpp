#include "switchyard/schemes/exchange/oadd.hpp"

#include <string>

#include "switchyard/schemes/exchange/closed_forms.hpp"

namespace sy {
namespace {

const char* kSupported =
    "oadd (optimal completion and average delay) is built for total exchange on hypercubes with "
    "d prime (2, 3, 5, 7, 11), 2-D tori p x p with p odd, and rings (the paper gives no OADD for "
    "d not prime, whose rotation classes degenerate, nor for tori of d >= 3 or even p): use octr";

// The row of each destination of node 0 (-1: none).
std::vector<int> row_of_dest(const TaskMatrix& t) {
  std::vector<int> r(static_cast<std::size_t>(t.nodes()), -1);
  for (int i = 0; i < t.num_rows(); ++i)
    r[static_cast<std::size_t>(t.tag[static_cast<std::size_t>(i)])] = i;
  return r;
}

TaskPlan hypercube_plan(const TaskMatrix& t) {
  const int d = static_cast<int>(t.dims.size()), n = t.nodes(), mask = n - 1;
  const std::vector<int> row = row_of_dest(t);
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  auto send = [&](int tag, int slot, int col) {
    plan[static_cast<std::size_t>(row[static_cast<std::size_t>(tag)])].push_back({slot, col});
  };
  auto rot = [&](int x) { return ((x << 1) | (x >> (d - 1))) & mask; };
  int slot = 0;
  // The rotation classes of weight 1 .. d - 2, lightest first (all classes have d members).
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (int w = 1; w <= d - 2; ++w)
    for (int r = 1; r < mask; ++r) {
      if (__builtin_popcount(static_cast<unsigned>(r)) != w || seen[static_cast<std::size_t>(r)])
        continue;
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
  const Topology topo(t.kind, t.dims);
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

}  // namespace

TaskPlan oadd_plan(const TaskMatrix& t) {
  const std::string size = " (asked: " + size_name(t.dims) + ")";
  if (t.kind == Topology::Kind::Hypercube) {
    if (!is_prime(static_cast<int>(t.dims.size()))) throw UnsupportedSchedule(kSupported + size);
    return hypercube_plan(t);
  }
  if (t.kind == Topology::Kind::Torus && t.dims.size() == 1 && t.dims[0] >= 3) return ring_plan(t);
  if (t.kind == Topology::Kind::Torus && t.dims.size() == 2 && t.dims[0] == t.dims[1] &&
      t.dims[0] % 2 == 1)
    return torus2_plan(t);
  throw UnsupportedSchedule(kSupported + size);
}

Schedule oadd_schedule(Topology::Kind kind, const std::vector<int>& dims, int packet_flits) {
  const TaskMatrix t = total_exchange_task(kind, dims);
  const TaskPlan plan = oadd_plan(t);
  return task_schedule(t, plan, packet_flits, "oadd",
                       "OCTR + OADD: classes cleared nearest first, every link busy");
}

}  // namespace sy
