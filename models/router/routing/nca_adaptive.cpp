// Nearest-common-ancestor routing with an adaptive up phase, on fat trees (k-ary n-trees): while
// the router is not an ancestor of the destination's leaf, every up port is a candidate (the
// destination-digit one of the deterministic D-mod-k routing first), and the switch allocator
// selects among them by the downstream credits (or at random with routing.selection: random);
// from the ancestor on, the one down path. Every up port leads to an ancestor at the same level,
// so every route stays shortest; up*/down* (never an up hop after a down hop) is deadlock-free on
// one VC, so every VC is usable on every hop.
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/fat_tree.hpp"

namespace sy {
namespace {

class NcaAdaptive : public RoutingAlgorithm {
 public:
  NcaAdaptive(const Topology& topo, int vcs, TieBreak tie)
      : RoutingAlgorithm(topo, vcs, tie),
        tree_(static_cast<const FatTree&>(*topo.indirect_network())) {
    capacity_ = tree_.k();
  }
  int candidates(int node, int, int, Packet& pk, Candidate* out) const override {
    const int p = tree_.route(node, pk.dst);
    if (p < tree_.k()) {  // down (or, at the destination's leaf, never asked)
      out[0] = {p, 0, vcs_};
      return 1;
    }
    const int k = tree_.k();
    for (int j = 0; j < k; ++j) out[j] = {k + (p - k + j) % k, 0, vcs_};
    return k;
  }

 private:
  const FatTree& tree_;
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_nca_adaptive(const Topology& topo, int vcs, TieBreak tie) {
  return std::make_unique<NcaAdaptive>(topo, vcs, tie);
}

}  // namespace sy
