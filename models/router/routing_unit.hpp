// RoutingUnit: the output port and the range of output VCs a header may take at this router.
// Dimension-order routing (e-cube on hypercubes, XY on meshes, shortest direction per ring on
// tori); an indirect network's own routing (butterfly: destination tag), which needs no VC
// classes (the network is acyclic). On a ring that wraps, dateline VC classes keep wormhole tori
// deadlock free: a packet uses the lower half of the VCs until it crosses its ring's wraparound
// link, the upper half on that link and after it; entering a new dimension starts in the lower half
// again. A tie on an even ring (the destination exactly n/2 away) follows tie_break: positive,
// negative, or balanced (+ from even coordinates, - from odd ones).
#pragma once
#include <memory>
#include <vector>

#include "switchyard/config/config.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

struct Route {
  int port = -1;  // -1: eject here
  int vc_lo = 0, vc_hi = 1;
};

// How an input_vc router's VCs are shared when broadcast copies are replicated in the routers:
// broadcasts use VCs [0, bcast), unicast packets [ucast_lo, vcs). With unicast traffic and 3 or
// more VCs the two sets are disjoint (unicast keeps two, its dateline classes), so neither can
// block the other into a deadlock.
struct VcPlan {
  int bcast = 0, ucast_lo = 0, vcs = 1;
};
VcPlan vc_plan(const Config& c);

// A route (output ports from the source) that crosses the dimensions in increasing order, each
// in one direction and less than once around its ring: the dateline VC classes of dimension-order
// routing keep such routes deadlock free, so input-VC routers accept them as source routes.
bool dimension_ordered(const Topology& topo, const std::vector<int>& ports);

class RoutingUnit {
 public:
  // Unicast routing over VCs [vc_base, vc_base + vcs).
  RoutingUnit(const Topology& topo, TieBreak tie, int vcs, int vc_base = 0,
              bool dateline_on_entry = false);
  // in_port -1 is the injection port. in_vc is the VC the header arrived on. (Forced inline,
  // with its two helpers: once per header on the routers' fast paths, where gcc's growth limits
  // may leave one or another out of line as the unit grows: 8x8 10,086 -> 10,034 instructions
  // a cycle, its staged row 15,038 -> 14,983.)
  [[gnu::always_inline]] Route route(int node, int in_port, int in_vc, int dst) const {
    if (!next_.empty()) {
      const std::uint8_t e = next_at(node, dst);
      return dateline_classes(static_cast<int>(e & 127u) - 1, in_port, in_vc, (e >> 7) != 0);
    }
    return route_general(node, in_port, in_vc, dst);
  }
  // The same for a given output port (a source route's hop): the VC classes of that hop.
  Route route_via(int node, int in_port, int in_vc, int port) const;
  int out_port(int node, int dst) const;  // next hop only
  bool uses_dateline_classes() const { return classes_; }
  // A routing algorithm other than dimension order (routing.algorithm), or null.
  void set_algorithm(std::unique_ptr<RoutingAlgorithm> a) { algo_ = std::move(a); }
  const RoutingAlgorithm* algorithm() const { return algo_.get(); }

 private:
  int dim_port(int d, int c, int t) const;
  Route route_general(int node, int in_port, int in_vc, int dst) const;
  struct Hop {
    std::int8_t port;
    bool wraps;
  };
  Hop first_hop(int node, int dst) const;
  // The hop's VC range: all the unicast VCs without dateline classes; with them the upper half
  // once the packet has crossed its ring's wraparound link (it arrived in the upper half on the
  // same dimension) or crosses it on this hop (wraps), the lower half otherwise.
  [[gnu::always_inline]] Route dateline_classes(int port, int in_port, int in_vc,
                                                bool wraps) const {
    Route r;
    r.port = port;
    r.vc_lo = base_;
    r.vc_hi = base_ + vcs_;
    if (port < 0 || !classes_) return r;
    const bool same_dim =
        in_port >= 0 && (port_dim_.empty() ? topo_.port(in_port).dim == topo_.port(port).dim
                                           : port_dim_[in_port] == port_dim_[port]);
    if ((same_dim && in_vc - base_ >= vcs_ / 2) || wraps)
      r.vc_lo = base_ + vcs_ / 2;
    else
      r.vc_hi = base_ + vcs_ / 2;
    return r;
  }
  const Topology& topo_;
  const IndirectNetwork* ind_;
  // Dimension order as tables (direct networks with rings of up to kMaxTableRing nodes): per
  // dimension, by from * n + to, the port to take and whether that hop is the ring's wraparound.
  static constexpr int kMaxTableRing = 256;
  std::vector<std::vector<Hop>> hop_;
  // With the tables: each port's dimension, and every node's coordinates (D bytes a node, rings
  // of up to 256; up to 16 MB), so a route reads no division and no port record.
  std::vector<std::uint8_t> coord_;
  std::vector<int> port_dim_;
  int ndims_ = 0;
  // With the tables and up to kMaxNextNodes nodes: the whole route as one byte per (node,
  // destination), node-major: bits 0-6 the port + 1 (0: eject here), bit 7 the hop wraps.
  static constexpr std::size_t kMaxNextNodes = 512;
  std::vector<std::uint8_t> next_;
  // Its entry for (node, dst): the port + 1 (0: here), 128 if the hop wraps.
  [[gnu::always_inline]] std::uint8_t next_at(int node, int dst) const {
    return next_[static_cast<std::size_t>(node) * nodes_ + static_cast<std::size_t>(dst)];
  }
  std::size_t nodes_ = 0;
  TieBreak tie_;
  int vcs_, base_;
  bool classes_;
  bool on_entry_;        // routing.dateline: ring_entry
  int ind_classes_ = 1;  // an indirect network's VC classes (IndirectNetwork::vc_classes)
  std::unique_ptr<RoutingAlgorithm> algo_;
};

}  // namespace sy
