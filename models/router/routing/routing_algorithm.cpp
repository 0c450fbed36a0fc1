#include "switchyard/router/routing/routing_algorithm.hpp"

#include <stdexcept>

namespace sy {

// The algorithms of this folder (one file each).
std::unique_ptr<RoutingAlgorithm> make_minimal_adaptive(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_valiant(const Topology&, int, TieBreak, bool romm);
std::unique_ptr<RoutingAlgorithm> make_ugal(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_turn_model(const std::string&, const Topology&, int,
                                                  TieBreak);
std::unique_ptr<RoutingAlgorithm> make_odd_even(const Topology&, int, TieBreak);

const std::vector<std::string>& routing_names() {
  static const std::vector<std::string> names = {
      "dimension_order", "minimal_adaptive", "valiant",        "romm",    "ugal",
      "west_first",      "north_last",       "negative_first", "odd_even"};
  return names;
}

int routing_vcs_needed(const std::string& a, const Topology& topo) {
  bool wraps = false;
  for (int d = 0; d < topo.num_dims(); ++d) wraps |= topo.wraps(d);
  const int dor = wraps ? 2 : 1;  // dateline classes on rings
  if (a == "dimension_order") return 1;
  if (a == "minimal_adaptive") return dor + 1;  // escape classes + one adaptive VC
  if (a == "valiant" || a == "romm" || a == "ugal") return 2 * dor;
  return 1;  // turn models and odd-even: deadlock free with one VC
}

std::unique_ptr<RoutingAlgorithm> make_routing(const std::string& a, const Topology& topo, int vcs,
                                               TieBreak tie) {
  if (a == "minimal_adaptive") return make_minimal_adaptive(topo, vcs, tie);
  if (a == "valiant") return make_valiant(topo, vcs, tie, false);
  if (a == "romm") return make_valiant(topo, vcs, tie, true);
  if (a == "ugal") return make_ugal(topo, vcs, tie);
  if (a == "west_first" || a == "north_last" || a == "negative_first")
    return make_turn_model(a, topo, vcs, tie);
  if (a == "odd_even") return make_odd_even(topo, vcs, tie);
  throw std::invalid_argument("unknown routing algorithm '" + a + "'");
}

int RoutingAlgorithm::min_dir(int node, int target, int d, bool* both) const {
  if (both) *both = false;
  const int c = topo_.coord(node, d), t = topo_.coord(target, d);
  if (c == t) return 2;
  const int n = topo_.size(d);
  // A ring of 2 is one link (direction 0); on a mesh the link of a size-2 dimension still has a
  // direction, from the coordinates (the turn models route and check by it).
  if (n == 2) return topo_.wraps(d) ? 0 : (t > c ? +1 : -1);
  if (!topo_.wraps(d)) return t > c ? +1 : -1;
  const int fwd = ((t - c) % n + n) % n, back = n - fwd;
  if (fwd != back) return fwd < back ? +1 : -1;
  if (both) *both = true;
  return tie_ == TieBreak::Positive ? +1 : tie_ == TieBreak::Negative ? -1 : (c % 2 ? -1 : +1);
}

int RoutingAlgorithm::dor_port(int node, int target) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int dir = min_dir(node, target, d);
    if (dir != 2) return topo_.port_of(d, dir);
  }
  return -1;
}

Candidate RoutingAlgorithm::dateline(int node, int in_port, int in_vc, int port, int lo,
                                     int n) const {
  Candidate c{port, lo, lo + n};
  const int dim = topo_.port(port).dim;
  if (!topo_.wraps(dim) || n < 2) return c;
  const bool same_dim = in_port >= 0 && topo_.port(in_port).dim == dim;
  const bool in_upper = in_vc >= lo + n / 2 && in_vc < lo + n;
  if ((same_dim && in_upper) || topo_.is_wrap_hop(node, port))
    c.vc_lo = lo + n / 2;
  else
    c.vc_hi = lo + n / 2;
  return c;
}

}  // namespace sy
