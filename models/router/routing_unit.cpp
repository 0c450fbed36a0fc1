#include "switchyard/router/routing_unit.hpp"

namespace sy {

VcPlan vc_plan(const Config& c) {
  VcPlan p;
  p.vcs = c.router.vcs;
  if (!c.traffic.broadcast.enabled() || c.router.buffering != Buffering::InputVc) return p;
  const bool unicast = c.traffic.trace || c.traffic.packets_per_cycle() > 0;
  if (!unicast) {
    p.bcast = p.ucast_lo = p.vcs;
  } else if (p.vcs >= 3) {
    p.bcast = p.ucast_lo = p.vcs - 2;
  } else {
    p.bcast = p.vcs;  // shared: may deadlock (a warning says so)
  }
  return p;
}

RoutingUnit::RoutingUnit(const Topology& topo, TieBreak tie, int vcs, int vc_base,
                         bool dateline_on_entry)
    : topo_(topo),
      ind_(topo.indirect_network()),
      tie_(tie),
      vcs_(vcs),
      base_(vc_base),
      classes_(false),
      on_entry_(dateline_on_entry) {
  if (ind_) ind_classes_ = ind_->vc_classes();
  for (int d = 0; d < topo.num_dims(); ++d) classes_ |= topo.wraps(d);
  classes_ = classes_ && vcs >= 2;
  // Each dimension's hops as a table by (from, to) coordinate, for rings of up to 256 nodes.
  if (!ind_) {
    for (int d = 0; d < topo.num_dims(); ++d)
      if (topo.size(d) > kMaxTableRing) return;
    hop_.resize(static_cast<std::size_t>(topo.num_dims()));
    for (int d = 0; d < topo.num_dims(); ++d) {
      const int n = topo.size(d);
      hop_[d].resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c)
        for (int t = 0; t < n; ++t) {
          const int p = c == t ? -1 : dim_port(d, c, t);
          const Topology::Port* q = p >= 0 ? &topo.port(p) : nullptr;
          const bool wrap =
              q && topo.wraps(d) && ((q->dir > 0 && c == n - 1) || (q->dir < 0 && c == 0));
          hop_[d][static_cast<std::size_t>(c * n + t)] = {static_cast<std::int8_t>(p), wrap};
        }
    }
    ndims_ = topo.num_dims();
    for (int p = 0; p < topo.num_ports(); ++p) port_dim_.push_back(topo.port(p).dim);
    // (Sizes of 1 add dimensions, not nodes: beyond 16 MB the coordinates are computed.)
    const std::size_t N = static_cast<std::size_t>(topo.num_nodes());
    if (N * static_cast<std::size_t>(ndims_) > (std::size_t{1} << 24)) return;
    coord_.resize(N * static_cast<std::size_t>(ndims_));
    for (std::size_t v = 0; v < N; ++v)
      for (int d = 0; d < ndims_; ++d)
        coord_[v * static_cast<std::size_t>(ndims_) + static_cast<std::size_t>(d)] =
            static_cast<std::uint8_t>(topo.coord(static_cast<int>(v), d));
    // Small networks: every (node, destination)'s hop from the tables above, once.
    if (N > kMaxNextNodes || on_entry_ || topo.num_ports() > 126) return;
    std::vector<std::uint8_t> next(N * N);
    for (std::size_t v = 0; v < N; ++v)
      for (std::size_t t = 0; t < N; ++t) {
        const Hop h = first_hop(static_cast<int>(v), static_cast<int>(t));
        next[v * N + t] = static_cast<std::uint8_t>((h.port + 1) | (h.wraps ? 128 : 0));
      }
    nodes_ = N;
    next_ = std::move(next);
  }
}

// The port a header at coordinate c of dimension d takes towards t (c != t).
int RoutingUnit::dim_port(int d, int c, int t) const {
  const int n = topo_.size(d);
  if (topo_.single_link(d)) return topo_.port_of(d, 0);
  int dir;
  if (!topo_.wraps(d)) {
    dir = t > c ? +1 : -1;
  } else {
    const int fwd = ((t - c) % n + n) % n, back = n - fwd;
    if (fwd != back) {
      dir = fwd < back ? +1 : -1;
    } else {
      dir = tie_ == TieBreak::Positive ? +1 : tie_ == TieBreak::Negative ? -1 : (c % 2 ? -1 : +1);
    }
  }
  return topo_.port_of(d, dir);
}

int RoutingUnit::out_port(int node, int dst) const {
  if (ind_) return ind_->route(node, dst);  // an indirect network's own routing (acyclic)
  // (The tables, built from dim_port() below: the same port without a division per dimension.)
  if (!next_.empty()) return static_cast<int>(next_at(node, dst) & 127u) - 1;
  if (!hop_.empty()) return first_hop(node, dst).port;
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int c = topo_.coord(node, d), t = topo_.coord(dst, d);
    if (c != t) return dim_port(d, c, t);
  }
  return -1;
}

bool dimension_ordered(const Topology& topo, const std::vector<int>& ports) {
  int dim = -1, dir = 0, run = 0;
  for (int p : ports) {
    const Topology::Port& q = topo.port(p);
    if (q.dim < dim) return false;
    if (q.dim == dim) {
      if (q.dir != dir || ++run >= topo.size(dim)) return false;
    } else {
      dim = q.dim, dir = q.dir, run = 1;
      if (run >= topo.size(dim)) return false;
    }
  }
  return true;
}

// (The tables: the first dimension that differs, its port, and whether the hop wraps; the
// coordinates from coord_, without a division, unless it was too large to keep. Port -1: here.)
RoutingUnit::Hop RoutingUnit::first_hop(int node, int dst) const {
  const std::size_t D = static_cast<std::size_t>(ndims_);
  const std::uint8_t* a = coord_.empty() ? nullptr : &coord_[static_cast<std::size_t>(node) * D];
  const std::uint8_t* b = coord_.empty() ? nullptr : &coord_[static_cast<std::size_t>(dst) * D];
  for (int d = 0; d < ndims_; ++d) {
    const int c = a ? a[d] : topo_.coord(node, d), t = b ? b[d] : topo_.coord(dst, d);
    if (c != t) return hop_[d][static_cast<std::size_t>(c * topo_.size(d) + t)];
  }
  return {-1, false};
}

Route RoutingUnit::route_general(int node, int in_port, int in_vc, int dst) const {
  if (!hop_.empty() && !on_entry_) {
    const Hop h = first_hop(node, dst);
    return dateline_classes(h.port, in_port, in_vc, h.wraps);
  }
  const int port = out_port(node, dst);
  if (!on_entry_ || port < 0 || !classes_) return route_via(node, in_port, in_vc, port);
  // routing.dateline: ring_entry: the upper half for a traversal that crosses (or crossed) the
  // wraparound link, chosen where it enters the ring and kept to its end.
  const Topology::Port& q = topo_.port(port);
  if (q.dir == 0 || !topo_.wraps(q.dim)) return route_via(node, in_port, in_vc, port);
  Route r;
  r.port = port;
  const int c = topo_.coord(node, q.dim), t = topo_.coord(dst, q.dim);
  const bool will_cross = q.dir > 0 ? t < c : t > c;
  const bool same_dim = in_port >= 0 && topo_.port(in_port).dim == q.dim;
  const bool upper = will_cross || (same_dim && in_vc - base_ >= vcs_ / 2);
  r.vc_lo = upper ? base_ + vcs_ / 2 : base_;
  r.vc_hi = upper ? base_ + vcs_ : base_ + vcs_ / 2;
  return r;
}

Route RoutingUnit::route_via(int node, int in_port, int in_vc, int port) const {
  if (ind_classes_ > 1 && port >= 0) {
    // An indirect network's VC classes: equal slices of the unicast VCs.
    const int C = ind_classes_;
    const int in_class = in_port < 0 ? 0 : vc_slice_of(in_vc - base_, vcs_, C);
    const int c = ind_->vc_class(node, in_port, in_class, port);
    return {port, base_ + c * vcs_ / C, base_ + (c + 1) * vcs_ / C};
  }
  return dateline_classes(port, in_port, in_vc,
                          port >= 0 && classes_ && topo_.is_wrap_hop(node, port));
}

}  // namespace sy
