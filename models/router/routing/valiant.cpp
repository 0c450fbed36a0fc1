// Valiant's randomized routing (and ROMM): at injection the packet draws an intermediate node,
// uniformly over the network (Valiant) or inside the minimal quadrant of its source and
// destination (ROMM: each coordinate between them along the minimal direction); it goes there by
// dimension order, then to its destination by dimension order. Phase 1 uses the lower half of the
// VCs, phase 2 the upper half, each split into dateline classes on rings: deadlock free.
// UGAL (below) chooses per packet at its source between that and the minimal route.
#include "switchyard/router/routing/routing_algorithm.hpp"

namespace sy {
namespace {

class Valiant : public RoutingAlgorithm {
 public:
  Valiant(const Topology& topo, int vcs, TieBreak tie, bool romm)
      : RoutingAlgorithm(topo, vcs, tie), romm_(romm) {}
  void on_inject(Packet& pk, Rng& rng) const override {
    pk.phase = 0;
    if (!romm_) {
      pk.mid = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(topo_.num_nodes())));
      return;
    }
    int mid = pk.src;
    for (int d = 0; d < topo_.num_dims(); ++d) {
      const int s = topo_.coord(pk.src, d), t = topo_.coord(pk.dst, d), n = topo_.size(d);
      const int dir = min_dir(pk.src, pk.dst, d);
      int dist = 0;
      if (dir == 2)
        dist = 0;
      else if (dir == 0)
        dist = 1;
      else if (!topo_.wraps(d))
        dist = t > s ? t - s : s - t;
      else
        dist = dir > 0 ? ((t - s) % n + n) % n : ((s - t) % n + n) % n;
      const int k = static_cast<int>(rng.below(static_cast<std::uint64_t>(dist) + 1));
      mid = topo_.with_coord(mid, d,
                             dir == 2   ? s
                             : dir == 0 ? (k ? t : s)
                                        : ((s + (dir > 0 ? k : -k)) % n + n) % n);
    }
    pk.mid = mid;
  }
  bool minimal() const override { return false; }
  int candidates(int node, int in_port, int in_vc, Packet& pk, Candidate* out) const override {
    if (pk.mid == node) {
      pk.mid = -1;
      pk.phase = 1;
    }
    const int target = pk.mid >= 0 ? pk.mid : pk.dst;
    const int half = vcs_ / 2;
    const int lo = pk.phase ? half : 0, n = pk.phase ? vcs_ - half : half;
    out[0] = dateline(node, in_port, in_vc, dor_port(node, target), lo, n);
    return 1;
  }

 private:
  bool romm_;
};

// UGAL (local): Valiant's intermediate node is drawn, then at the source router the packet goes
// minimal (dimension order on the second leg's VCs) when the minimal first hop's queue times
// the minimal hop count is no worse than the Valiant first hop's queue times its hop count.
class Ugal : public Valiant {
 public:
  Ugal(const Topology& topo, int vcs, TieBreak tie) : Valiant(topo, vcs, tie, false) {}
  bool decides_at_source() const override { return true; }
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_ugal(const Topology& topo, int vcs, TieBreak tie) {
  return std::unique_ptr<RoutingAlgorithm>(new Ugal(topo, vcs, tie));
}

std::unique_ptr<RoutingAlgorithm> make_valiant(const Topology& topo, int vcs, TieBreak tie,
                                               bool romm) {
  return std::unique_ptr<RoutingAlgorithm>(new Valiant(topo, vcs, tie, romm));
}

}  // namespace sy
