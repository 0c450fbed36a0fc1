// Minimal adaptive routing with Duato's escape VCs: every productive direction (both on an even
// ring at exactly n/2) on the adaptive VCs [E, V), then the escape: dimension order on VCs
// [0, E) with its dateline classes (E = 2 on tori, 1 on meshes and hypercubes). The escape
// network is deadlock free and reachable from every adaptive VC, so the whole is (Duato).
#include "router/routing/routing_algorithm.hpp"

namespace sy {
namespace {

class MinimalAdaptive : public RoutingAlgorithm {
 public:
  MinimalAdaptive(const Topology& topo, int vcs, TieBreak tie) : RoutingAlgorithm(topo, vcs, tie) {
    bool wraps = false;
    for (int d = 0; d < topo.num_dims(); ++d) wraps |= topo.wraps(d);
    escape_ = wraps ? 2 : 1;
  }
  int candidates(int node, int in_port, int in_vc, Packet& pk, Candidate* out) const override {
    int n = 0;
    for (int d = 0; d < topo_.num_dims() && n + 1 < candidate_capacity(); ++d) {
      bool both = false;
      const int dir = min_dir(node, pk.dst, d, &both);
      if (dir == 2) continue;
      out[n++] = {topo_.port_of(d, dir), escape_, vcs_};
      if (both && n + 1 < candidate_capacity()) out[n++] = {topo_.port_of(d, -dir), escape_, vcs_};
    }
    const int esc = dor_port(node, pk.dst);
    out[n++] = dateline(node, in_port, in_vc, esc, 0, escape_);
    return n;
  }
  bool has_escape() const override { return true; }

 private:
  int escape_;
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_minimal_adaptive(const Topology& topo, int vcs,
                                                        TieBreak tie) {
  return std::unique_ptr<RoutingAlgorithm>(new MinimalAdaptive(topo, vcs, tie));
}

}  // namespace sy
