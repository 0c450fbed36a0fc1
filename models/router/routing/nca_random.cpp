// Nearest-common-ancestor routing with random up ports, on fat trees (k-ary n-trees), as
// BookSim2's nca_fattree and anca_fattree: while the router is not an ancestor of the
// destination's leaf, nca_random takes one up port drawn at random at every up hop (oblivious),
// nca_two_choice draws two different up ports and offers both, the switch allocator selecting
// between them by their downstream credits (BookSim2 compares the two once per hop; here the
// choice holds until the header has an output VC, as for every adaptive algorithm); from the
// ancestor on, the one down path. nca_two_choice_once is BookSim2's anca exactly: two up ports
// drawn independently (they may coincide), the router keeping the one with fewer flits held
// downstream when it routes the header (ties: the first), once per hop (selects_once()). Every up
// port leads to an ancestor at the same level, so routes stay shortest, and up*/down* is
// deadlock-free on one VC: every VC on every hop. The draw is a hash of the packet (source,
// destination, creation cycle, message) and the router, so it needs no state in the packet and a
// run is reproducible; distinct hops draw independently.
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/fat_tree.hpp"

namespace sy {
namespace {

class NcaRandom : public RoutingAlgorithm {
 public:
  NcaRandom(const Topology& topo, int vcs, TieBreak tie, bool two, bool once)
      : RoutingAlgorithm(topo, vcs, tie),
        tree_(static_cast<const FatTree&>(*topo.indirect_network())),
        two_(two) {
    capacity_ = 2;
    selects_once_ = once;
  }
  int candidates(int node, int, int, Packet& pk, Candidate* out) const override {
    const int p = tree_.route(node, pk.dst), k = tree_.k();
    if (p < k) {  // down (or, at the destination's leaf, never asked)
      out[0] = {p, 0, vcs_};
      return 1;
    }
    const std::uint64_t h = draw(pk, node);
    const int a = static_cast<int>(h % static_cast<std::uint64_t>(k));
    out[0] = {k + a, 0, vcs_};
    if (!two_ || k < 2) return 1;
    if (selects_once_) {  // independent draws, as BookSim2's
      out[1] = {k + static_cast<int>((h >> 32) % static_cast<std::uint64_t>(k)), 0, vcs_};
      return 2;
    }
    // The second: uniform over the other k - 1 up ports.
    const int b = (a + 1 + static_cast<int>((h >> 32) % static_cast<std::uint64_t>(k - 1))) % k;
    out[1] = {k + b, 0, vcs_};
    return 2;
  }

 private:
  static std::uint64_t draw(const Packet& pk, int node) {
    // (splitmix64's finalizer over the packet's identity and the router.)
    std::uint64_t x =
        static_cast<std::uint64_t>(pk.created) * 0x9E3779B97F4A7C15ull ^
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(pk.src)) << 32 |
         static_cast<std::uint32_t>(pk.dst)) ^
        (static_cast<std::uint64_t>(pk.message) << 20) ^
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(node)) * 0xD1B54A32D192ED03ull;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
  }
  const FatTree& tree_;
  const bool two_;
};

}  // namespace

std::unique_ptr<RoutingAlgorithm> make_nca_random(const Topology& topo, int vcs, TieBreak tie,
                                                  bool two, bool once) {
  return std::make_unique<NcaRandom>(topo, vcs, tie, two, once);
}

}  // namespace sy
