#include "switchyard/router/routing/routing_algorithm.hpp"

#include <algorithm>
#include <stdexcept>

namespace sy {

// The algorithms of this folder (one file each).
std::unique_ptr<RoutingAlgorithm> make_minimal_adaptive(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_valiant(const Topology&, int, TieBreak, bool romm);
std::unique_ptr<RoutingAlgorithm> make_ugal(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_turn_model(const std::string&, const Topology&, int,
                                                  TieBreak);
std::unique_ptr<RoutingAlgorithm> make_odd_even(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_nca_adaptive(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_nca_random(const Topology&, int, TieBreak, bool two,
                                                  bool once);
// dragonfly (dragonfly_valiant.cpp)
std::unique_ptr<RoutingAlgorithm> make_dragonfly_valiant(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_dragonfly_ugal(const Topology&, int, TieBreak);
// dragonfly_ugal_threshold.cpp
std::unique_ptr<RoutingAlgorithm> make_dragonfly_ugal_threshold(const Topology&, int, TieBreak);
// flatfly_valiant.cpp
std::unique_ptr<RoutingAlgorithm> make_flatfly_valiant(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_flatfly_ugal(const Topology&, int, TieBreak);
std::unique_ptr<RoutingAlgorithm> make_flatfly_adaptive(const Topology&, int, TieBreak);

namespace {

// The registry: every routing.algorithm, one line each (adding one: its file in this folder and
// a line here). `make` builds it (null: dimension order, the routing unit's own tables, or an
// indirect network's own routing); `vcs_needed` is the VCs it needs to be deadlock free, given
// the dateline classes a ring needs (dor: 2 on a network with wraparound links, else 1; on an
// indirect network the VC classes of its own routing). `on` is the topology kind it routes
// (Topology::kind_name()): null for the direct networks (torus, mesh, hypercube), "*" for every
// topology. One name may have a line per topology (valiant on tori and on a dragonfly).
struct RoutingKind {
  const char* name;
  std::unique_ptr<RoutingAlgorithm> (*make)(const Topology&, int vcs, TieBreak);
  int (*vcs_needed)(int dor);
  const char* on = nullptr;
};

int one_vc(int) {
  return 1;  // dimension order; turn models and odd-even: deadlock free with one VC
}

const RoutingKind kRoutings[] = {
    {"dimension_order", nullptr, [](int dor) { return dor; }, "*"},
    {"minimal_adaptive", &make_minimal_adaptive,
     [](int dor) { return dor + 1; }},  // escape classes + one adaptive VC
    {"valiant", [](const Topology& t, int v, TieBreak b) { return make_valiant(t, v, b, false); },
     [](int dor) { return 2 * dor; }},  // both phases with their own classes
    {"romm", [](const Topology& t, int v, TieBreak b) { return make_valiant(t, v, b, true); },
     [](int dor) { return 2 * dor; }},
    {"ugal", &make_ugal, [](int dor) { return 2 * dor; }},
    {"west_first",
     [](const Topology& t, int v, TieBreak b) { return make_turn_model("west_first", t, v, b); },
     &one_vc},
    {"north_last",
     [](const Topology& t, int v, TieBreak b) { return make_turn_model("north_last", t, v, b); },
     &one_vc},
    {"negative_first",
     [](const Topology& t, int v, TieBreak b) {
       return make_turn_model("negative_first", t, v, b);
     },
     &one_vc},
    {"odd_even", &make_odd_even, &one_vc},
    {"nca_adaptive", &make_nca_adaptive, &one_vc, "fat_tree"},  // up*/down*
    {"nca_random",
     [](const Topology& t, int v, TieBreak b) { return make_nca_random(t, v, b, false, false); },
     &one_vc, "fat_tree"},
    {"nca_two_choice",
     [](const Topology& t, int v, TieBreak b) { return make_nca_random(t, v, b, true, false); },
     &one_vc, "fat_tree"},
    {"nca_two_choice_once",
     [](const Topology& t, int v, TieBreak b) { return make_nca_random(t, v, b, true, true); },
     &one_vc, "fat_tree"},
    // dragonfly: a VC class per global hop taken (minimal: 2, its own route; these: 3)
    {"valiant", &make_dragonfly_valiant, [](int) { return 3; }, "dragonfly"},
    {"ugal", &make_dragonfly_ugal, [](int) { return 3; }, "dragonfly"},
    // BookSim2's ugal_dragonflynew: an intermediate router, 2 classes per leg
    {"ugal_threshold", &make_dragonfly_ugal_threshold, [](int) { return 4; }, "dragonfly"},
    // Flattened butterfly: two phases of dimension order, a VC class each.
    {"valiant", &make_flatfly_valiant, [](int dor) { return 2 * dor; }, "flatfly"},
    {"ugal", &make_flatfly_ugal, [](int dor) { return 2 * dor; }, "flatfly"},
    {"minimal_adaptive", &make_flatfly_adaptive, [](int dor) { return 2 * dor; }, "flatfly"},
};

bool routes_on(const RoutingKind& k, const Topology& topo) {
  if (!k.on) return !topo.indirect();
  return std::string(k.on) == "*" || std::string(k.on) == topo.kind_name();
}

const RoutingKind* find_routing(const std::string& a, const Topology& topo) {
  for (const RoutingKind& k : kRoutings)
    if (a == k.name && routes_on(k, topo)) return &k;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& routing_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const RoutingKind& k : kRoutings)
      if (std::find(n.begin(), n.end(), k.name) == n.end()) n.push_back(k.name);
    return n;
  }();
  return names;
}

bool routing_supported(const std::string& a, const Topology& topo) {
  return find_routing(a, topo) != nullptr;
}

std::string routing_topologies(const std::string& a) {
  std::string s;
  for (const RoutingKind& k : kRoutings)
    if (a == k.name)
      s += (s.empty() ? "" : ", ") + std::string(k.on ? k.on : "torus, mesh, hypercube");
  return s;
}

int routing_vcs_needed(const std::string& a, const Topology& topo) {
  bool wraps = false;
  for (int d = 0; d < topo.num_dims(); ++d) wraps |= topo.wraps(d);
  const RoutingKind* k = find_routing(a, topo);
  if (!k) return 1;
  if (topo.indirect()) return k->vcs_needed(topo.indirect_network()->vc_classes());
  return a == "dimension_order" ? 1 : k->vcs_needed(wraps ? 2 : 1);
}

std::unique_ptr<RoutingAlgorithm> make_routing(const std::string& a, const Topology& topo, int vcs,
                                               TieBreak tie) {
  const RoutingKind* k = find_routing(a, topo);
  if (!k || !k->make) throw std::invalid_argument("unknown routing algorithm '" + a + "'");
  return k->make(topo, vcs, tie);
}

int RoutingAlgorithm::min_dir(int node, int target, int d, bool* both) const {
  if (both) *both = false;
  const int c = topo_.coord(node, d), t = topo_.coord(target, d);
  if (c == t) return 2;
  const int n = topo_.size(d);
  // The single link of a size-2 dimension (torus or mesh) still has a direction, from the
  // coordinates (the turn models route and check by it; port_of maps it to the link). A ring of
  // 2 with two links each way (size2_links 2) is an even ring below: both ways are minimal.
  if (topo_.single_link(d)) return t > c ? +1 : -1;
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
