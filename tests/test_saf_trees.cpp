// Store-and-forward broadcast trees (store_forward_trees.cpp): for every torus size generated,
// the four trees read back from the schedule's transmissions span the torus, share no arc, and
// have depth D + 1 (D = the diameter), or the stated exception: D + 2 on n x 5 with n odd, n on
// n x 3. The checker here knows nothing of the construction: it only follows the transmissions.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "switchyard/schemes/circuit/circuit_schedule.hpp"
#include "switchyard/schemes/circuit/closed_forms.hpp"

using namespace sy;

namespace {

struct TreeCheck {
  bool ok = true;
  std::string error;
  int depth = 0;  // the deepest node over the four trees, in hops from the root
};

// One packet per tree (parts = 4): item t is tree t. Every non-root node receives each item once,
// from a node that received it in an earlier phase (or the root); no arc carries two items.
TreeCheck check_trees(const Schedule& s) {
  TreeCheck r;
  const int n0 = s.dims[0], n1 = s.dims[1], N = n0 * n1;
  auto fail = [&](const std::string& e) {
    if (r.ok) r.error = e;
    r.ok = false;
  };
  std::vector<std::vector<int>> phase(4, std::vector<int>(N, -2)), from(4, std::vector<int>(N, -1));
  std::set<std::pair<int, int>> arcs;  // (tail, head)
  for (const Transmission& tr : s.transmissions) {
    if (tr.path.size() != 1) fail("a transmission of more than one hop");
    if (tr.item < 0 || tr.item > 3) fail("item out of range");
    if (!r.ok) return r;
    int x = tr.sender % n0, y = tr.sender / n0;
    const ScheduleHop h = tr.path[0];
    (h.dim == 0 ? x : y) += h.dir;
    const int v = (x + n0) % n0 + n0 * ((y + n1) % n1);
    if (!arcs.insert({tr.sender, v}).second)
      fail("arc " + std::to_string(tr.sender) + "->" + std::to_string(v) + " used twice");
    if (v == s.root) fail("a transmission into the root");
    if (phase[tr.item][v] != -2) fail("node " + std::to_string(v) + " receives an item twice");
    phase[tr.item][v] = tr.phase;
    from[tr.item][v] = tr.sender;
  }
  for (int t = 0; t < 4 && r.ok; ++t) {
    phase[t][s.root] = -1;
    for (int v = 0; v < N && r.ok; ++v) {
      if (v == s.root) continue;
      if (phase[t][v] == -2) {
        fail("tree " + std::to_string(t) + " misses node " + std::to_string(v));
        break;
      }
      if (phase[t][from[t][v]] >= phase[t][v])
        fail("node " + std::to_string(v) + " sends before it receives");
      // Depth = hops from the root, counted along the parents (phases only bound it).
      int d = 0;
      for (int u = v; u != s.root && d <= N; u = from[t][u]) ++d;
      if (d > N) fail("a cycle in tree " + std::to_string(t));
      r.depth = std::max(r.depth, d);
    }
  }
  return r;
}

// The depth the construction promises for an n0 x n1 torus: D + 1 except where no four such
// trees exist (an exhaustive SAT search, tb/saf_base_trees.py): n x 5 with n odd gets D + 2, and
// n x 3 gets n (D + 1 for n <= 4, D + 2 for n = 5, 6, the least possible for n <= 16).
int promised_depth(int n0, int n1) {
  const int D = n0 / 2 + n1 / 2;
  const int lo = std::min(n0, n1), hi = std::max(n0, n1);
  if (lo == 3) return hi;
  if (lo == 5 && hi % 2 == 1) return D + 2;
  return D + 1;
}

void expect_trees(int n0, int n1, int root) {
  const std::vector<int> dims{n0, n1};
  const Schedule s = store_and_forward_trees(dims, root, 4, 4);
  const TreeCheck r = check_trees(s);
  ASSERT_TRUE(r.ok) << n0 << "x" << n1 << ": " << r.error;
  EXPECT_EQ(r.depth, store_and_forward_depth(s)) << n0 << "x" << n1;
  EXPECT_EQ(s.variant, "depth " + std::to_string(r.depth));
  EXPECT_EQ(r.depth, promised_depth(n0, n1))
      << n0 << "x" << n1 << " (D + 1 = " << torus_diameter(dims) + 1 << ")";
}

}  // namespace

// Every base (3..16, 17 x 4 and 17 x 7) and its widenings by up to eight periods.
TEST(SafTrees, EverySizeThreeToFortyEight) {
  for (int n0 = 3; n0 <= 48; ++n0)
    for (int n1 = 3; n1 <= 48; ++n1) expect_trees(n0, n1, (n0 * n1) / 3);
}

TEST(SafTrees, LargeTori) {
  for (const auto& d : std::vector<std::pair<int, int>>{{25, 25},
                                                        {31, 31},
                                                        {32, 32},
                                                        {33, 33},
                                                        {64, 64},
                                                        {125, 125},
                                                        {21, 37},
                                                        {64, 17},
                                                        {13, 100},
                                                        {100, 16},
                                                        {128, 4},
                                                        {40, 5},
                                                        {41, 5},
                                                        {4, 63},
                                                        {30, 3}})
    expect_trees(d.first, d.second, 1);
}

TEST(SafTrees, FastEnoughForConfigLoad) {
  const auto t0 = std::chrono::steady_clock::now();
  const Schedule s = store_and_forward_trees({64, 64}, 100, 4, 4);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(store_and_forward_depth(s), 65);
  EXPECT_LT(sec, 1.0);
}

TEST(SafTrees, CheckerCatchesBrokenTrees) {
  Schedule s = store_and_forward_trees({6, 6}, 0, 4, 4);
  ASSERT_TRUE(check_trees(s).ok);
  Schedule dup = s;
  dup.transmissions.back().item = (dup.transmissions.back().item + 1) % 4;
  EXPECT_FALSE(check_trees(dup).ok);  // a node gets one item twice and misses another
  Schedule shared = s;
  shared.transmissions.push_back(shared.transmissions.front());
  EXPECT_FALSE(check_trees(shared).ok);
}
