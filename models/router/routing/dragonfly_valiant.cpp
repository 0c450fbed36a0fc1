// Dragonfly Valiant and UGAL (Kim et al. 2008; BookSim2's ugal_dragonflynew). Valiant: at
// injection the packet draws a random terminal of the network; its group is the intermediate
// group (the source's or the destination's group, or a destination at the source's router: the
// packet goes minimal; UGAL also within the source's group, as BookSim2's). The packet routes
// minimally to that group (local, global), then from the router where it enters it minimally to
// its destination (local, global, local): at most 5 hops, 2 global. VC classes: 3, the class the
// number of global hops taken so far (a class holds at most local -> global, then the class
// rises: acyclic, deadlock free). UGAL (UGAL-L): the same draw; at the source router the packet
// goes minimal when the minimal first hop's queue x hops is no worse than the Valiant first
// hop's (RoutingAlgorithm::at_source, legs() below). pk.mid: the drawn terminal until the packet
// enters its group (-1: minimal or past it).
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/dragonfly.hpp"

namespace sy {
namespace {

class DragonflyValiant : public RoutingAlgorithm {
 public:
  DragonflyValiant(const Topology& topo, int vcs, TieBreak tie)
      : RoutingAlgorithm(topo, vcs, tie),
        df_(static_cast<const Dragonfly&>(*topo.indirect_network())) {
    capacity_ = 1;
  }
  void on_inject(Packet& pk, Rng& rng) const override {
    const int mid = static_cast<int>(rng.below(static_cast<std::uint64_t>(df_.num_terminals())));
    const int I = df_.group_of_terminal(mid), G = df_.group_of_terminal(pk.src);
    const int D = df_.group_of_terminal(pk.dst);
    // Minimal: the intermediate group is the source's or the destination's, the destination is
    // at the source's router (UGAL: in its group, as BookSim2's: no global hop to save).
    const bool minimal =
        I == G || I == D || pk.src / df_.p() == pk.dst / df_.p() || (decides_at_source() && G == D);
    pk.mid = minimal ? -1 : mid;
    pk.phase = minimal ? 1 : 0;
  }
  bool minimal() const override { return false; }
  int candidates(int node, int in_port, int in_vc, Packet& pk, Candidate* out) const override {
    if (pk.mid >= 0 && df_.group(node) == df_.group_of_terminal(pk.mid)) {
      pk.mid = -1;
      pk.phase = 1;
    }
    const int port = df_.route(node, pk.mid >= 0 ? pk.mid : pk.dst);
    int c = in_port < 0 ? 0 : class_of(in_vc, 3) + (df_.is_global(in_port) ? 1 : 0);
    if (c > 2) c = 2;
    out[0] = vc_class(port, c, 3);
    return 1;
  }

 protected:
  const Dragonfly& df_;
};

class DragonflyUgal : public DragonflyValiant {
 public:
  using DragonflyValiant::DragonflyValiant;
  bool decides_at_source() const override { return true; }
  bool legs(int node, const Packet& pk, Leg* min, Leg* val) const override {
    if (pk.mid < 0) return false;
    min->port = df_.route(node, pk.dst);
    min->hops = df_.hops(node, pk.dst);
    val->port = df_.route(node, pk.mid);
    const int in = df_.arrival_router(node, pk.mid);  // where it enters the intermediate group
    val->hops = df_.hops(node, pk.mid) - df_.hops(in, pk.mid) + df_.hops(in, pk.dst);
    return true;
  }
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_dragonfly_valiant(const Topology& topo, int vcs,
                                                         TieBreak tie) {
  return std::make_unique<DragonflyValiant>(topo, vcs, tie);
}

std::unique_ptr<RoutingAlgorithm> make_dragonfly_ugal(const Topology& topo, int vcs, TieBreak tie) {
  return std::make_unique<DragonflyUgal>(topo, vcs, tie);
}

}  // namespace sy
