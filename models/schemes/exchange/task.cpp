#include "switchyard/schemes/exchange/task.hpp"

#include <algorithm>
#include <stdexcept>

namespace sy {

int TaskMatrix::nodes() const {
  int n = 1;
  for (int p : dims) n *= p;
  return n;
}

int TaskMatrix::row_sum(int r) const {
  int s = 0;
  for (int x : rows[static_cast<std::size_t>(r)]) s += x;
  return s;
}

int TaskMatrix::col_sum(int c) const {
  int s = 0;
  for (const auto& row : rows) s += row[static_cast<std::size_t>(c)];
  return s;
}

int TaskMatrix::max_row() const {
  int h = 0;
  for (int r = 0; r < num_rows(); ++r) h = std::max(h, row_sum(r));
  return h;
}

int TaskMatrix::max_col() const {
  int h = 0;
  for (int c = 0; c < cols; ++c) h = std::max(h, col_sum(c));
  return h;
}

long long TaskMatrix::total() const {
  long long s = 0;
  for (int r = 0; r < num_rows(); ++r) s += row_sum(r);
  return s;
}

ScheduleHop TaskMatrix::hop(int c) const {
  if (kind == Topology::Kind::Hypercube) return {c, 0};
  const int j = c / 2;
  if (dims[static_cast<std::size_t>(j)] == 2 && size2_links == 1) return {j, 0};
  return {j, c % 2 == 0 ? +1 : -1};
}

std::string TaskMatrix::column_name(int c) const {
  const ScheduleHop h = hop(c);
  return "d" + std::to_string(h.dim) + (h.dir > 0 ? "+" : h.dir < 0 ? "-" : "");
}

namespace {

TaskMatrix empty_task(Topology::Kind kind, const std::vector<int>& dims, const std::string& what,
                      int size2_links) {
  if (kind != Topology::Kind::Torus && kind != Topology::Kind::Hypercube)
    throw UnsupportedSchedule(what + ": hypercubes and tori (rings included) only");
  if (size2_links != 1 && (size2_links != 2 || kind != Topology::Kind::Torus))
    throw UnsupportedSchedule(what + ": size2_links is 1, or 2 on a torus");
  TaskMatrix t;
  t.kind = kind;
  t.dims = dims;
  t.size2_links = size2_links;
  t.cols = kind == Topology::Kind::Hypercube ? static_cast<int>(dims.size())
                                             : 2 * static_cast<int>(dims.size());
  if (t.nodes() < 2) throw UnsupportedSchedule(what + " needs two nodes or more");
  return t;
}

// The row of the packet node 0 sends to `dest`: per dimension, the shorter way round; an
// antipodal component goes `antipodal(j)` (+1 or -1). A size-2 dimension of one link: its
// column 2j; of two links (size2_links 2): offset 1 is antipodal, 2j (+) or 2j + 1 (-).
template <class Antipodal>
std::vector<int> row_to(const TaskMatrix& t, const Topology& topo, int dest, Antipodal antipodal) {
  std::vector<int> row(static_cast<std::size_t>(t.cols), 0);
  const bool cube = t.kind == Topology::Kind::Hypercube;
  for (int j = 0; j < topo.num_dims(); ++j) {
    const int p = topo.size(j), x = topo.coord(dest, j);
    if (x == 0) continue;
    if (cube || (p == 2 && t.size2_links == 1)) {
      ++row[static_cast<std::size_t>(cube ? j : 2 * j)];
      continue;
    }
    const int dir = 2 * x < p ? +1 : 2 * x > p ? -1 : antipodal(j);
    row[static_cast<std::size_t>(dir > 0 ? 2 * j : 2 * j + 1)] += dir > 0 ? x : p - x;
  }
  return row;
}

// The balanced split of the antipodal component: + when the other coordinates' sum is even.
std::vector<int> balanced_row(const TaskMatrix& t, const Topology& topo, int dest) {
  return row_to(t, topo, dest, [&](int j) {
    int other = 0;
    for (int i = 0; i < topo.num_dims(); ++i)
      if (i != j) other += topo.coord(dest, i);
    return other % 2 == 0 ? +1 : -1;
  });
}

void check_size(const TaskMatrix& t, const std::string& what) {
  if (t.rows.empty()) throw UnsupportedSchedule(what + ": no packet to send");
  if (static_cast<long long>(t.nodes()) * t.num_rows() > (1LL << 22))
    throw UnsupportedSchedule(what + ": more than 2^22 packets (" + std::to_string(t.nodes()) +
                              " nodes x " + std::to_string(t.num_rows()) + " tags)");
}

}  // namespace

TaskMatrix total_exchange_task(Topology::Kind kind, const std::vector<int>& dims, int size2_links) {
  TaskMatrix t = empty_task(kind, dims, "total exchange", size2_links);
  t.name = "total exchange";
  const Topology topo(kind, dims, size2_links);
  for (int dest = 1; dest < topo.num_nodes(); ++dest) {
    t.rows.push_back(balanced_row(t, topo, dest));
    t.tag.push_back(dest);
  }
  check_size(t, t.name);
  return t;
}

TaskMatrix neighbourhood_task(Topology::Kind kind, const std::vector<int>& dims, int near, int far,
                              int size2_links) {
  const std::string what =
      "(" + std::to_string(near) + ", " + std::to_string(far) + ") neighbourhood exchange";
  TaskMatrix t = empty_task(kind, dims, what, size2_links);
  t.name = what;
  if (near < 1 || far < near) throw UnsupportedSchedule(what + ": needs 1 <= near <= far");
  const Topology topo(kind, dims, size2_links);
  for (int dest = 1; dest < topo.num_nodes(); ++dest) {
    std::vector<int> row = balanced_row(t, topo, dest);
    int dist = 0;
    for (int x : row) dist += x;
    if (dist < near || dist > far) continue;
    t.rows.push_back(std::move(row));
    t.tag.push_back(dest);
  }
  check_size(t, what + " (no node at that distance)");
  return t;
}

TaskMatrix tags_task(Topology::Kind kind, const std::vector<int>& dims,
                     const std::vector<std::vector<int>>& tags, int size2_links) {
  TaskMatrix t = empty_task(kind, dims, "isotropic task", size2_links);
  t.name = std::to_string(tags.size()) + (tags.size() == 1 ? " tag" : " tags");
  const Topology topo(kind, dims, size2_links);
  const int n = topo.num_nodes(), D = topo.num_dims();
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const std::vector<int>& g = tags[i];
    const std::string which = "tag " + std::to_string(i);
    int dest = 0;
    std::vector<int> sign(static_cast<std::size_t>(D), +1);
    if (kind == Topology::Kind::Hypercube) {
      if (g.size() != 1 || g[0] < 1 || g[0] >= n)
        throw UnsupportedSchedule(which + ": a hypercube tag is one node id 1.." +
                                  std::to_string(n - 1) + " (src xor dst)");
      dest = g[0];
    } else {
      if (static_cast<int>(g.size()) != D)
        throw UnsupportedSchedule(which + ": a torus tag has one offset per dimension (" +
                                  std::to_string(D) + ")");
      std::vector<int> c(static_cast<std::size_t>(D));
      for (int j = 0; j < D; ++j) {
        const int p = topo.size(j), o = g[static_cast<std::size_t>(j)];
        if (o <= -p || o >= p)
          throw UnsupportedSchedule(which + ": offset " + std::to_string(o) + " in dimension " +
                                    std::to_string(j) + " is not in (-" + std::to_string(p) + ", " +
                                    std::to_string(p) + ")");
        c[static_cast<std::size_t>(j)] = ((o % p) + p) % p;
        sign[static_cast<std::size_t>(j)] = o < 0 ? -1 : +1;
      }
      dest = topo.node_at(c);
      if (dest == 0) throw UnsupportedSchedule(which + ": a node sends to itself");
    }
    t.rows.push_back(
        row_to(t, topo, dest, [&](int j) { return sign[static_cast<std::size_t>(j)]; }));
    t.tag.push_back(dest);
  }
  check_size(t, "isotropic task");
  return t;
}

Schedule task_schedule(const TaskMatrix& t, const TaskPlan& plan, int packet_flits,
                       const std::string& algorithm, const std::string& variant) {
  const Topology topo(t.kind, t.dims, t.size2_links);
  const int n = topo.num_nodes(), R = t.num_rows();
  if (static_cast<int>(plan.size()) != R) throw std::logic_error("task_schedule: plan size");
  int slots = 0;
  for (int r = 0; r < R; ++r) {
    std::vector<int> used(static_cast<std::size_t>(t.cols), 0);
    int last = -1;
    for (const auto& [slot, col] : plan[static_cast<std::size_t>(r)]) {
      if (col < 0 || col >= t.cols || slot <= last)
        throw std::logic_error("task_schedule: row " + std::to_string(r) + " slots not increasing");
      ++used[static_cast<std::size_t>(col)];
      last = slot;
    }
    if (used != t.rows[static_cast<std::size_t>(r)])
      throw std::logic_error("task_schedule: row " + std::to_string(r) +
                             " is not cleared exactly by its plan");
    slots = std::max(slots, last + 1);
  }
  Schedule s;
  s.algorithm = algorithm;
  s.variant = variant;
  s.kind = t.kind;
  s.dims = t.dims;
  s.size2_links = t.size2_links;
  s.timing = ScheduleTiming::Slots;
  s.message_flits = s.packet_flits = packet_flits;
  s.shortest_paths = true;
  s.phases = slots;
  const std::size_t items = static_cast<std::size_t>(n) * static_cast<std::size_t>(R);
  s.item_flits.assign(items, packet_flits);
  s.item_source.reserve(items);
  s.item_dest.reserve(items);
  s.transmissions.reserve(items);
  for (int src = 0; src < n; ++src)
    for (int r = 0; r < R; ++r) {
      Transmission tr;
      tr.sender = src;
      tr.item = static_cast<int>(s.item_source.size());
      int v = src;
      for (const auto& [slot, col] : plan[static_cast<std::size_t>(r)]) {
        const ScheduleHop h = t.hop(col);
        tr.path.push_back(h);
        tr.slots.push_back(slot);
        v = topo.neighbor(v, topo.port_of(h.dim, h.dir));
      }
      s.item_source.push_back(src);
      s.item_dest.push_back(v);
      s.transmissions.push_back(std::move(tr));
    }
  return s;
}

double plan_mean_delay(const TaskPlan& plan) {
  if (plan.empty()) return 0;
  double sum = 0;
  for (const auto& row : plan) sum += row.empty() ? 0 : row.back().first + 1;
  return sum / static_cast<double>(plan.size());
}

double spt_delay_bound(const TaskMatrix& t, int links) {
  std::vector<int> left;
  for (int r = 0; r < t.num_rows(); ++r) left.push_back(t.row_sum(r));
  if (left.empty() || links < 1) return 0;
  double sum = 0;
  for (int slot = 1; !left.empty(); ++slot) {
    std::sort(left.begin(), left.end());
    const std::size_t served = std::min(left.size(), static_cast<std::size_t>(links));
    for (std::size_t i = 0; i < served; ++i) --left[i];
    std::vector<int> next;
    for (int x : left)
      if (x > 0)
        next.push_back(x);
      else
        sum += slot;
    left.swap(next);
  }
  return sum / t.num_rows();
}

}  // namespace sy
