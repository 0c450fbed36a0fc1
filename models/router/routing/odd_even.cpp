// Odd-even turn model (Chiu) on 2-D meshes: no east->north or east->south turn at a node in an
// even column, no north->west or south->west turn at a node in an odd column. Deadlock free
// with one VC, and more evenly adaptive than the Glass & Ni models. Candidates per Chiu's
// minimal routing function (x = dimension 0, east = +; y = dimension 1).
#include "switchyard/router/routing/routing_algorithm.hpp"

namespace sy {
namespace {

class OddEven : public RoutingAlgorithm {
 public:
  OddEven(const Topology& topo, int vcs, TieBreak tie) : RoutingAlgorithm(topo, vcs, tie) {}
  int candidates(int node, int, int, Packet& pk, Candidate* out) const override {
    const int cx = topo_.coord(node, 0), sx = topo_.coord(pk.src, 0), tx = topo_.coord(pk.dst, 0);
    const int e0 = tx - cx, dy = min_dir(node, pk.dst, 1);
    int n = 0;
    auto add = [&](int d, int dir) { out[n++] = {topo_.port_of(d, dir), 0, vcs_}; };
    if (e0 == 0) {
      if (dy != 2) add(1, dy);
    } else if (e0 > 0) {
      if (dy == 2) {
        add(0, +1);
      } else {
        if (cx % 2 == 1 || cx == sx) add(1, dy);
        if (tx % 2 == 1 || e0 != 1) add(0, +1);
      }
    } else {
      add(0, -1);
      if (dy != 2 && cx % 2 == 0) add(1, dy);
    }
    return n;
  }
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_odd_even(const Topology& topo, int vcs, TieBreak tie) {
  return std::unique_ptr<RoutingAlgorithm>(new OddEven(topo, vcs, tie));
}

}  // namespace sy
