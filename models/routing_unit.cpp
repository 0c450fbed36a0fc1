#include "routing_unit.hpp"

namespace sy {

RoutingUnit::RoutingUnit(const Topology& topo, TieBreak tie, int vcs)
    : topo_(topo), tie_(tie), vcs_(vcs), classes_(false) {
  for (int d = 0; d < topo.num_dims(); ++d) classes_ |= topo.wraps(d);
  classes_ = classes_ && vcs >= 2;
}

int RoutingUnit::out_port(int node, int dst) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int c = topo_.coord(node, d), t = topo_.coord(dst, d);
    if (c == t) continue;
    const int n = topo_.size(d);
    if (n == 2) return topo_.port_of(d, 0);
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
  return -1;
}

Route RoutingUnit::route(int node, int in_port, int in_vc, int dst) const {
  Route r;
  r.port = out_port(node, dst);
  r.vc_lo = 0;
  r.vc_hi = vcs_;
  if (r.port < 0 || !classes_) return r;
  const int dim = topo_.port(r.port).dim;
  const bool same_dim = in_port >= 0 && topo_.port(in_port).dim == dim;
  const bool wrapped = (same_dim && in_vc >= vcs_ / 2) || topo_.is_wrap_hop(node, r.port);
  if (wrapped) {
    r.vc_lo = vcs_ / 2;
  } else {
    r.vc_hi = vcs_ / 2;
  }
  return r;
}

}  // namespace sy
