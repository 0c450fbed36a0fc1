#pragma once
// Test oracles over a topology's port graph.
#include <cstddef>
#include <queue>
#include <vector>

#include "switchyard/topology/topology.hpp"

namespace sy::test {

// Shortest path lengths from src by breadth-first search over the ports (-1: unreachable): the
// oracle for Topology::distance().
inline std::vector<int> bfs(const Topology& t, int src) {
  std::vector<int> d(static_cast<std::size_t>(t.num_nodes()), -1);
  std::queue<int> q;
  d[static_cast<std::size_t>(src)] = 0;
  q.push(src);
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    for (int p = 0; p < t.num_ports(); ++p) {
      const int w = t.neighbor(v, p);
      if (w >= 0 && d[static_cast<std::size_t>(w)] < 0)
        d[static_cast<std::size_t>(w)] = d[static_cast<std::size_t>(v)] + 1, q.push(w);
    }
  }
  return d;
}

}  // namespace sy::test
