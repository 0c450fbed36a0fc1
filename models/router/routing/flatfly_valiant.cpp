// Valiant and UGAL on a flattened butterfly (as BookSim2's valiant_flatfly and
// ugal_flatfly_onchip). The packet draws an intermediate router at its source NI and goes there
// by dimension order on the lower half of the VCs (phase 0), then to its destination by
// dimension order on the upper half (phase 1): each phase is acyclic, and phase 1 never hands
// back to phase 0, so two VC classes are deadlock free. pk.mid holds the intermediate router's
// first terminal (the router clears it there: phase 1).
//  - valiant: the intermediate router is uniform over all routers; a packet whose way to it
//    passes its destination's router leaves there (BookSim2 turns to phase 1 at either router),
//    on the phase-0 VCs it holds;
//  - ugal (UGAL-L): the intermediate router keeps the source's coordinates where source and
//    destination agree and is random in the others (BookSim2's find_ran_intm); at the source
//    router the packet goes minimal (phase 1 from the start) when the minimal first hop's queue
//    x hops is no worse than the intermediate one's (RoutingAlgorithm::at_source).
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/flatfly.hpp"

namespace sy {
namespace {

class FlatFlyValiant : public RoutingAlgorithm {
 public:
  FlatFlyValiant(const Topology& topo, int vcs, TieBreak tie, bool ugal)
      : RoutingAlgorithm(topo, vcs, tie),
        ff_(static_cast<const FlatFly&>(*topo.indirect_network())),
        ugal_(ugal) {
    capacity_ = 1;
  }
  bool minimal() const override { return false; }
  bool decides_at_source() const override { return ugal_; }
  void on_inject(Packet& pk, Rng& rng) const override {
    const int c = ff_.c(), s = pk.src / c, t = pk.dst / c;
    int mid = s;
    pk.phase = 0;
    if (!ugal_) {
      mid = static_cast<int>(rng.below(static_cast<std::uint64_t>(ff_.num_routers())));
      // The way to mid passes t (t agrees with mid below some dimension j, with s from j on):
      // the packet leaves at t.
      for (int j = 0; j <= ff_.n(); ++j) {
        bool on = true;
        for (int d = 0; d < ff_.n() && on; ++d)
          on = ff_.coord(t, d) == ff_.coord(d < j ? mid : s, d);
        if (on) {
          pk.mid = -1;
          return;
        }
      }
    } else {
      for (int d = 0; d < ff_.n(); ++d)
        if (ff_.coord(s, d) != ff_.coord(t, d))
          mid = ff_.with_coord(mid, d,
                               static_cast<int>(rng.below(static_cast<std::uint64_t>(ff_.k()))));
    }
    pk.mid = mid * c;
  }
  bool legs(int node, const Packet& pk, Leg* min, Leg* val) const override {
    const int t = pk.dst / ff_.c(), m = pk.mid / ff_.c();
    min->hops = ff_.router_distance(node, t);
    min->port = ff_.dor_port(node, t);
    val->hops = ff_.router_distance(node, m) + ff_.router_distance(m, t);
    val->port = m == node ? min->port : ff_.dor_port(node, m);
    return true;
  }
  int candidates(int node, int, int, Packet& pk, Candidate* out) const override {
    if (pk.mid >= 0 && pk.mid / ff_.c() == node) {
      pk.mid = -1;
      pk.phase = 1;
    }
    const int target = (pk.mid >= 0 ? pk.mid : pk.dst) / ff_.c();
    out[0] = vc_class(ff_.dor_port(node, target), pk.phase ? 1 : 0, 2);
    return 1;
  }

 private:
  const FlatFly& ff_;
  bool ugal_;
};

// Minimal adaptive (BookSim2's adaptive_xyyx_flatfly, any n): at the source router the packet
// may take the lowest differing dimension first (ascending dimension order, the lower VC half)
// or the highest first (descending, the upper half); the switch allocator selects between the
// two by the downstream credits. Later hops keep the order of the VC class the packet arrived
// in. Each order is acyclic in its own class, and no packet changes class: deadlock free on 2.
class FlatFlyAdaptive : public RoutingAlgorithm {
 public:
  FlatFlyAdaptive(const Topology& topo, int vcs, TieBreak tie)
      : RoutingAlgorithm(topo, vcs, tie),
        ff_(static_cast<const FlatFly&>(*topo.indirect_network())) {
    capacity_ = 2;
  }
  int candidates(int node, int in_port, int in_vc, Packet& pk, Candidate* out) const override {
    const int t = pk.dst / ff_.c();
    const int up = ff_.dor_port(node, t), down = descending(node, t);
    if (in_port >= 0) {
      const int cls = class_of(in_vc, 2);
      out[0] = vc_class(cls ? down : up, cls, 2);
      return 1;
    }
    out[0] = vc_class(up, 0, 2);
    out[1] = vc_class(down, 1, 2);
    return 2;
  }

 private:
  // Dimension order from the highest dimension down.
  int descending(int a, int b) const {
    for (int d = ff_.n() - 1; d >= 0; --d) {
      const int x = ff_.coord(b, d);
      if (ff_.coord(a, d) != x) return d * ff_.k() + x;
    }
    return -1;
  }
  const FlatFly& ff_;
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_flatfly_adaptive(const Topology& topo, int vcs,
                                                        TieBreak tie) {
  return std::make_unique<FlatFlyAdaptive>(topo, vcs, tie);
}

std::unique_ptr<RoutingAlgorithm> make_flatfly_valiant(const Topology& topo, int vcs,
                                                       TieBreak tie) {
  return std::make_unique<FlatFlyValiant>(topo, vcs, tie, false);
}

std::unique_ptr<RoutingAlgorithm> make_flatfly_ugal(const Topology& topo, int vcs, TieBreak tie) {
  return std::make_unique<FlatFlyValiant>(topo, vcs, tie, true);
}

}  // namespace sy
