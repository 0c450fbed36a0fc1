// Dragonfly UGAL as BookSim2's ugal_dragonflynew (routing.algorithm ugal_threshold): at
// injection the packet draws a random terminal of the network; its ROUTER is the intermediate
// router (Switchyard's `ugal` goes through the drawn terminal's group instead). A destination in
// the source's group, or an intermediate in the source's group or at the destination's router:
// minimal. Otherwise, at the source router, the packet goes minimal when
//   queue(minimal first hop) x 1 <= queue(non-minimal first hop) x 2 + routing.ugal_threshold
// (queues: the flits held in the output's downstream VCs, BookSim2's GetUsedCredit; the weights
// 1 and 2 are BookSim2's constants, its stand-ins for the hop counts; threshold 30 by default,
// its adaptive_threshold), else minimally to the intermediate router (local, global, local) and
// from there minimally to the destination (local, global, local): at most 6 hops, 2 global.
// VC classes: 4 (BookSim2 uses 3, one per phase, which leaves a cycle through a group's local
// links: a packet's last non-minimal local hop and another's first). Non-minimal leg: class 0
// up to its global hop, class 1 after it (the local hop to the intermediate router); minimal leg
// (from the intermediate router or the source): class 2 up to its global hop, class 3 after it
// (and a destination in the source's group: class 3, BookSim2's VC 2). Each class holds at most
// local -> global or a single local hop, and classes only rise: deadlock free. pk.mid: the drawn
// terminal until the packet reaches its router (-1: minimal or past it).
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/dragonfly.hpp"

namespace sy {
namespace {

class DragonflyUgalThreshold : public RoutingAlgorithm {
 public:
  DragonflyUgalThreshold(const Topology& topo, int vcs, TieBreak tie)
      : RoutingAlgorithm(topo, vcs, tie),
        df_(static_cast<const Dragonfly&>(*topo.indirect_network())) {
    capacity_ = 1;
    threshold_rule_ = true;
    threshold_ = 30;
  }
  void configure(const RoutingConfig& c) override { threshold_ = c.ugal_threshold; }
  bool minimal() const override { return false; }
  bool decides_at_source() const override { return true; }
  void on_inject(Packet& pk, Rng& rng) const override {
    const int mid = static_cast<int>(rng.below(static_cast<std::uint64_t>(df_.num_terminals())));
    const int G = df_.group_of_terminal(pk.src);
    const bool minimal = G == df_.group_of_terminal(pk.dst) || G == df_.group_of_terminal(mid) ||
                         mid / df_.p() == pk.dst / df_.p();
    pk.mid = minimal ? -1 : mid;
    pk.phase = minimal ? 1 : 0;
  }
  bool legs(int node, const Packet& pk, Leg* min, Leg* val) const override {
    if (pk.mid < 0) return false;
    min->port = df_.route(node, pk.dst);
    min->hops = 1;  // BookSim2's weights
    val->port = df_.route(node, pk.mid);
    val->hops = 2;
    return true;
  }
  int candidates(int node, int in_port, int in_vc, Packet& pk, Candidate* out) const override {
    if (pk.mid >= 0 && node == pk.mid / df_.p()) {
      pk.mid = -1;  // at the intermediate router (the router clears it at its first terminal)
      pk.phase = 1;
    }
    int c;
    if (pk.mid >= 0) {  // non-minimal leg: 0, 1 after the global hop
      c = in_port < 0 ? 0 : class_of(in_vc, 4) + (df_.is_global(in_port) ? 1 : 0);
      if (c > 1) c = 1;
    } else if (in_port < 0) {  // minimal from the source
      c = df_.group(node) == df_.group_of_terminal(pk.dst) ? 3 : 2;
    } else {  // minimal leg: 2 from the intermediate router on, 3 after the global hop
      c = class_of(in_vc, 4);
      c = c < 2 ? 2 : c + (df_.is_global(in_port) ? 1 : 0);
      if (c > 3) c = 3;
    }
    out[0] = vc_class(df_.route(node, pk.mid >= 0 ? pk.mid : pk.dst), c, 4);
    return 1;
  }

 private:
  const Dragonfly& df_;
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_dragonfly_ugal_threshold(const Topology& topo, int vcs,
                                                                TieBreak tie) {
  return std::make_unique<DragonflyUgalThreshold>(topo, vcs, tie);
}

}  // namespace sy
