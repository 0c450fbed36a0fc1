// The turn models of Glass & Ni on 2-D meshes (x = dimension 0, east = +; y = dimension 1,
// north = +), each deadlock free with one VC because it forbids the turns that close a cycle:
//  - west_first: a packet that must go west goes west first (no turn into west);
//  - north_last: a packet goes north only when north is its last direction (no turn out of north);
//  - negative_first: every negative hop (west, south) before any positive one.
// Candidates: the productive directions the model allows, on every VC.
#include "switchyard/router/routing/routing_algorithm.hpp"

namespace sy {
namespace {

class TurnRouting : public RoutingAlgorithm {
 public:
  TurnRouting(TurnModel t, const Topology& topo, int vcs, TieBreak tie)
      : RoutingAlgorithm(topo, vcs, tie), turn_(t) {}
  int candidates(int node, int, int, Packet& pk, Candidate* out) const override {
    const int dx = min_dir(node, pk.dst, 0), dy = min_dir(node, pk.dst, 1);
    int n = 0;
    auto add = [&](int d, int dir) { out[n++] = {topo_.port_of(d, dir), 0, vcs_}; };
    switch (turn_) {
      case TurnModel::WestFirst:
        if (dx == -1) {
          add(0, -1);
        } else {
          if (dx == +1) add(0, +1);
          if (dy != 2) add(1, dy);
        }
        break;
      case TurnModel::NorthLast:
        if (dx != 2) add(0, dx);
        if (dy == -1) add(1, -1);
        if (n == 0 && dy == +1) add(1, +1);
        break;
      case TurnModel::NegativeFirst:
        if (dx == -1) add(0, -1);
        if (dy == -1) add(1, -1);
        if (n == 0) {
          if (dx == +1) add(0, +1);
          if (dy == +1) add(1, +1);
        }
        break;
      case TurnModel::OddEven:  // its own routing function (odd_even.cpp)
      case TurnModel::None:
        break;
    }
    return n;
  }

 private:
  TurnModel turn_;
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_turn_model(const std::string& name, const Topology& topo,
                                                  int vcs, TieBreak tie) {
  return std::unique_ptr<RoutingAlgorithm>(new TurnRouting(turn_model(name), topo, vcs, tie));
}

TurnModel turn_model(const std::string& a) {
  return a == "west_first"       ? TurnModel::WestFirst
         : a == "north_last"     ? TurnModel::NorthLast
         : a == "negative_first" ? TurnModel::NegativeFirst
         : a == "odd_even"       ? TurnModel::OddEven
                                 : TurnModel::None;
}

// A turn from the direction a packet travels on arrival (in_port: the port it came in on, which
// points back where it came from) to the direction it leaves in.
bool turn_allowed(TurnModel model, const Topology& topo, int node, int in_port, int out_port) {
  if (in_port < 0 || out_port < 0 || model == TurnModel::None) return true;
  const Topology::Port in = topo.port(in_port), out = topo.port(out_port);
  // Travelling directions; the single link of a size-2 dimension (dir 0) takes its direction
  // from the coordinate: arriving at 1 or leaving from 0 is +.
  const int idim = in.dim, odim = out.dim;
  const int idir = in.dir ? -in.dir : (topo.coord(node, idim) == 1 ? +1 : -1);
  const int odir = out.dir ? out.dir : (topo.coord(node, odim) == 0 ? +1 : -1);
  if (idim == odim) return idir == odir;  // no U-turns in a minimal mesh route
  const bool in_north = idim == 1 && idir > 0;
  const bool out_west = odim == 0 && odir < 0;
  switch (model) {
    case TurnModel::WestFirst:
      return !out_west;
    case TurnModel::NorthLast:
      return !in_north;
    case TurnModel::NegativeFirst:
      return !(idir > 0 && odir < 0);
    case TurnModel::OddEven: {
      // Chiu: no east->north or east->south turn in an even column, no north->west or
      // south->west turn in an odd column.
      const int x = topo.coord(node, 0);
      const bool in_east = idim == 0 && idir > 0;
      if (in_east && odim == 1 && x % 2 == 0) return false;
      return !(idim == 1 && out_west && x % 2 == 1);
    }
    case TurnModel::None:
      break;
  }
  return true;
}

}  // namespace sy
