#include "switchyard/schemes/exchange/greedy.hpp"

#include <string>
#include <utility>

#include "switchyard/base/rng.hpp"

namespace sy {

TaskPlan greedy_plan(const TaskMatrix& t, std::uint64_t seed) {
  Rng rng(seed * 0x9e3779b97f4a7c15ull + 0x67726479);
  std::vector<std::vector<int>> left = t.rows;
  TaskPlan plan(static_cast<std::size_t>(t.num_rows()));
  std::vector<std::pair<int, int>> edges;
  std::vector<char> row_busy(static_cast<std::size_t>(t.num_rows())),
      col_busy(static_cast<std::size_t>(t.cols));
  for (int slot = 0;; ++slot) {
    edges.clear();
    for (int r = 0; r < t.num_rows(); ++r)
      for (int c = 0; c < t.cols; ++c)
        if (left[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] > 0)
          edges.push_back({r, c});
    if (edges.empty()) break;
    for (std::size_t i = edges.size(); i > 1; --i)
      std::swap(edges[i - 1], edges[static_cast<std::size_t>(rng.below(i))]);
    std::fill(row_busy.begin(), row_busy.end(), 0);
    std::fill(col_busy.begin(), col_busy.end(), 0);
    for (const auto& [r, c] : edges) {
      if (row_busy[static_cast<std::size_t>(r)] || col_busy[static_cast<std::size_t>(c)]) continue;
      row_busy[static_cast<std::size_t>(r)] = col_busy[static_cast<std::size_t>(c)] = 1;
      --left[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      plan[static_cast<std::size_t>(r)].push_back({slot, c});
    }
  }
  return plan;
}

Schedule greedy_schedule(const TaskMatrix& t, int packet_flits, std::uint64_t seed) {
  return task_schedule(
      t, greedy_plan(t, seed), packet_flits, "greedy",
      "a random maximal matching per slot (seed " + std::to_string(seed) + ") of the " + t.name);
}

}  // namespace sy
