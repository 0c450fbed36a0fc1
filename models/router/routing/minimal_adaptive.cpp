// Minimal adaptive routing with Duato's escape VCs: every productive direction (both on an even
// ring at exactly n/2) on the adaptive VCs [E, V), then the escape: dimension order on VCs
// [0, E) with its dateline classes (E = 2 on tori, 1 on meshes and hypercubes). The escape
// network is deadlock free and reachable from every adaptive VC, and its extended channel
// dependency graph (indirect dependencies through adaptive VCs included) is acyclic because a
// packet's escape class follows the wraparound links it has crossed on any VC: the whole is
// deadlock free (Duato).
#include "switchyard/router/routing/routing_algorithm.hpp"

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
    // The escape's dateline class: the upper one once the packet has crossed the wraparound
    // link of that ring on any VC (escape or adaptive), else the lower until it crosses it. A
    // class from the arriving VC alone would let a packet cross the wrap on an adaptive VC and
    // re-enter the lower escape class after it: an indirect dependency that closes the ring's
    // cycle (Duato's extended channel dependency graph), and a deadlock.
    (void)in_port;
    (void)in_vc;
    const int esc = dor_port(node, pk.dst);
    Candidate c{esc, 0, escape_};
    const int dim = topo_.port(esc).dim;
    if (escape_ == 2 && topo_.wraps(dim)) {
      const bool upper = ((pk.wrapped >> dim) & 1u) || topo_.is_wrap_hop(node, esc);
      (upper ? c.vc_lo : c.vc_hi) = 1;
    }
    out[n++] = c;
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
