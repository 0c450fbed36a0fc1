#include "schemes/circuit/circuit_schedule.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <sstream>

#include "topology/topology.hpp"

namespace sy {
namespace circuit_detail {

std::string size_name(const std::vector<int>& dims) {
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
  return s.empty() ? "(no dimensions)" : s;
}

void require_torus(const char* algorithm, const std::vector<int>& dims, int root,
                   const std::string& supported) {
  if (dims.size() != 2 || dims[0] < 3 || dims[1] < 3)
    throw UnsupportedSchedule(std::string(algorithm) + ": no construction for a " +
                              size_name(dims) + " torus; supported: " + supported);
  if (root < 0 || root >= dims[0] * dims[1])
    throw UnsupportedSchedule(std::string(algorithm) + ": root " + std::to_string(root) +
                              " is not a node of the " + size_name(dims) + " torus");
}

void finish(CircuitSchedule& s, int parts, int message_flits) {
  s.part_flits.assign(parts, 1);
  set_message_flits(s, message_flits > 0 ? message_flits : parts);
  int phases = 0;
  for (const CircuitTransmission& t : s.transmissions) phases = std::max(phases, t.phase + 1);
  s.phases = phases;
}

PathOption make_option(const Grid& g, int sender, std::vector<CircuitHop> path) {
  PathOption o{sender, std::move(path), {}};
  int v = sender;
  for (const CircuitHop& h : o.path) o.arcs.push_back(Grid::arc(v, h)), v = g.step(v, h);
  return o;
}

bool choose_disjoint(const std::vector<std::vector<PathOption>>& options, std::vector<char>& used,
                     std::vector<int>& choice) {
  const int T = static_cast<int>(options.size());
  choice.assign(T, -1);
  long long budget = 1000000;
  auto free_option = [&](const PathOption& o) {
    for (int a : o.arcs)
      if (used[a]) return false;
    return true;
  };
  std::function<bool(int)> dfs = [&](int assigned) -> bool {
    if (assigned == T) return true;
    if (--budget < 0) return false;
    int best = -1, best_count = 1 << 30;
    for (int t = 0; t < T && best_count > 1; ++t) {
      if (choice[t] >= 0) continue;
      int count = 0;
      for (const PathOption& o : options[t]) count += free_option(o);
      if (count == 0) return false;
      if (count < best_count) best = t, best_count = count;
    }
    for (int i = 0; i < static_cast<int>(options[best].size()); ++i) {
      const PathOption& o = options[best][i];
      if (!free_option(o)) continue;
      for (int a : o.arcs) used[a] = 1;
      choice[best] = i;
      if (dfs(assigned + 1)) return true;
      choice[best] = -1;
      for (int a : o.arcs) used[a] = 0;
    }
    return false;
  };
  return dfs(0);
}

}  // namespace circuit_detail

using circuit_detail::Grid;

void set_message_flits(CircuitSchedule& s, int message_flits) {
  const int parts = s.parts();
  if (parts < 1) throw std::invalid_argument("schedule has no parts");
  if (message_flits < parts)
    throw std::invalid_argument(s.algorithm + ": a message of " + std::to_string(message_flits) +
                                " flits cannot fill " + std::to_string(parts) + " parts");
  for (int p = 0; p < parts; ++p)
    s.part_flits[p] = message_flits / parts + (p < message_flits % parts);
  s.message_flits = message_flits;
  s.packet_flits = *std::max_element(s.part_flits.begin(), s.part_flits.end());
}

namespace {

std::string node_label(const Topology& t, int node) {
  return "node " + std::to_string(node) + " (" + std::to_string(t.coord(node, 0)) + "," +
         std::to_string(t.coord(node, 1)) + ")";
}

}  // namespace

CircuitCheck check(const CircuitSchedule& s) {
  CircuitCheck r;
  // Up to 10 errors of each kind, so that one flood does not hide the others.
  enum Kind { kShape, kReceive, kHold, kArc, kCount };
  int counts[kCount] = {};
  Kind kind = kShape;
  auto fail = [&](const std::string& e) {
    r.ok = false;
    if (counts[kind]++ < 10) r.errors.push_back(e);
  };
  if (s.dims.size() != 2 || s.dims[0] < 3 || s.dims[1] < 3) {
    fail("dims must be two ring sizes >= 3, got " + circuit_detail::size_name(s.dims));
    return r;
  }
  const Topology topo(Topology::Kind::Torus, s.dims);
  const Grid g(s.dims, 0);
  const int N = topo.num_nodes(), P = s.parts();
  if (s.root < 0 || s.root >= N) {
    fail("root " + std::to_string(s.root) + " is not a node");
    return r;
  }
  if (P < 1) {
    fail("schedule has no parts");
    return r;
  }

  // Order transmissions by phase; walk each path, checking hops.
  std::vector<int> order(s.transmissions.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return s.transmissions[a].phase < s.transmissions[b].phase;
  });
  std::vector<int> dest(s.transmissions.size(), -1);
  for (std::size_t i = 0; i < s.transmissions.size(); ++i) {
    const CircuitTransmission& t = s.transmissions[i];
    const std::string who = "transmission " + std::to_string(i) + " (phase " +
                            std::to_string(t.phase) + ", from " + std::to_string(t.sender) + ")";
    if (t.phase < 0) fail(who + ": negative phase");
    if (t.sender < 0 || t.sender >= N) {
      fail(who + ": sender is not a node");
      continue;
    }
    if (t.part < 0 || t.part >= P) {
      fail(who + ": part " + std::to_string(t.part) + " out of range");
      continue;
    }
    if (t.path.empty()) {
      fail(who + ": empty path");
      continue;
    }
    bool good = true;
    for (const CircuitHop& h : t.path)
      if ((h.dim != 0 && h.dim != 1) || (h.dir != 1 && h.dir != -1)) good = false;
    if (!good) {
      fail(who + ": a hop is not (dim 0|1, dir +1|-1)");
      continue;
    }
    dest[i] = g.walk(t.sender, t.path);
    r.max_hops = std::max(r.max_hops, static_cast<int>(t.path.size()));
    r.total_hops += static_cast<long long>(t.path.size());
    r.phases = std::max(r.phases, t.phase + 1);
  }
  if (r.phases != s.phases)
    fail("schedule says " + std::to_string(s.phases) + " phases, transmissions use " +
         std::to_string(r.phases));

  // Receptions: exactly once per (node != root, part).
  kind = kReceive;
  std::vector<int> got(static_cast<std::size_t>(N) * P, -1),
      got_by(static_cast<std::size_t>(N) * P, -1);
  for (int i : order) {
    if (dest[i] < 0) continue;
    const CircuitTransmission& t = s.transmissions[i];
    const int d = dest[i];
    if (d == s.root) {
      fail("transmission " + std::to_string(i) + " from " + std::to_string(t.sender) +
           " in phase " + std::to_string(t.phase) + " delivers part " + std::to_string(t.part) +
           " to the root");
      continue;
    }
    if (d == t.sender) {
      fail("transmission " + std::to_string(i) + " from " + std::to_string(t.sender) +
           " in phase " + std::to_string(t.phase) + " returns to its sender");
      continue;
    }
    const std::size_t k = static_cast<std::size_t>(d) * P + t.part;
    if (got[k] >= 0) {
      fail(node_label(topo, d) + " receives part " + std::to_string(t.part) + " twice: phase " +
           std::to_string(got[k]) + " from " + std::to_string(s.transmissions[got_by[k]].sender) +
           " and phase " + std::to_string(t.phase) + " from " + std::to_string(t.sender));
      continue;
    }
    got[k] = t.phase;
    got_by[k] = i;
  }
  for (int v = 0; v < N; ++v) {
    if (v == s.root) continue;
    for (int p = 0; p < P; ++p)
      if (got[static_cast<std::size_t>(v) * P + p] < 0)
        fail(node_label(topo, v) + " never receives part " + std::to_string(p));
  }
  // Senders hold what they send.
  kind = kHold;
  for (int i : order) {
    const CircuitTransmission& t = s.transmissions[i];
    if (dest[i] < 0 || t.sender == s.root) continue;
    const int when = got[static_cast<std::size_t>(t.sender) * P + t.part];
    if (when < 0 || when >= t.phase)
      fail(node_label(topo, t.sender) + " sends part " + std::to_string(t.part) + " in phase " +
           std::to_string(t.phase) + " but " +
           (when < 0 ? std::string("never receives it")
                     : "receives it only in phase " + std::to_string(when)));
  }
  // Arcs: each directed link at most once per phase; receptions/sends per node and phase.
  kind = kArc;
  std::vector<int> owner(g.num_arcs(), -1), owner_phase(g.num_arcs(), -1);
  std::vector<int> recv(N, 0), sends(N, 0), stamp(N, -1);
  r.phase_max_hops.assign(r.phases, 0);
  for (int i : order) {
    if (dest[i] < 0) continue;
    const CircuitTransmission& t = s.transmissions[i];
    r.phase_max_hops[t.phase] = std::max<int>(r.phase_max_hops[t.phase], t.path.size());
    for (int v : {t.sender, dest[i]})
      if (stamp[v] != t.phase) stamp[v] = t.phase, recv[v] = 0, sends[v] = 0;
    r.max_sends = std::max(r.max_sends, ++sends[t.sender]);
    r.max_receptions = std::max(r.max_receptions, ++recv[dest[i]]);
    int v = t.sender;
    for (const CircuitHop& h : t.path) {
      const int a = Grid::arc(v, h);
      if (owner_phase[a] == t.phase) {
        fail(node_label(topo, v) + " port " + topo.port_name(topo.port_of(h.dim, h.dir)) +
             " in phase " + std::to_string(t.phase) + ", by transmissions from " +
             std::to_string(s.transmissions[owner[a]].sender) + " and " + std::to_string(t.sender));
      } else {
        owner_phase[a] = t.phase;
        owner[a] = i;
      }
      v = g.step(v, h);
    }
  }
  if (r.max_receptions > 4)
    fail("a node receives " + std::to_string(r.max_receptions) +
         " parts in one phase (all-port: 4)");
  if (r.max_sends > 4)
    fail("a node starts " + std::to_string(r.max_sends) +
         " transmissions in one phase (all-port: 4)");
  return r;
}

void require_valid(const CircuitSchedule& s) {
  const CircuitCheck r = check(s);
  if (r.ok) return;
  std::string msg = s.algorithm + " " + circuit_detail::size_name(s.dims) + ": invalid schedule:";
  for (std::size_t i = 0; i < r.errors.size() && i < 5; ++i) msg += "\n  " + r.errors[i];
  throw std::runtime_error(msg);
}

double phase_sum_time(const CircuitSchedule& s, const CircuitCost& c) {
  std::vector<double> longest(s.phases, 0.0);
  for (const CircuitTransmission& t : s.transmissions) {
    const double time =
        c.alpha + c.delta * static_cast<double>(t.path.size()) + c.tau * s.part_flits.at(t.part);
    longest.at(t.phase) = std::max(longest.at(t.phase), time);
  }
  return std::accumulate(longest.begin(), longest.end(), 0.0);
}

CircuitTerms phase_sum_terms(const CircuitSchedule& s) {
  std::vector<long long> hops(s.phases, -1), flits(s.phases, -1);
  for (const CircuitTransmission& t : s.transmissions) {
    hops.at(t.phase) = std::max<long long>(hops.at(t.phase), t.path.size());
    flits.at(t.phase) = std::max<long long>(flits.at(t.phase), s.part_flits.at(t.part));
  }
  CircuitTerms r;
  for (int p = 0; p < s.phases; ++p) {
    if (hops[p] < 0) continue;  // an empty phase costs nothing
    ++r.alpha_terms;
    r.delta_terms += hops[p];
    r.tau_flits += flits[p];
  }
  return r;
}

std::string describe(const CircuitSchedule& s) {
  std::ostringstream o;
  o << s.algorithm;
  if (!s.variant.empty()) o << " (" << s.variant << ")";
  o << " on " << circuit_detail::size_name(s.dims) << ", root " << s.root << ", " << s.parts()
    << (s.parts() == 1 ? " part" : " parts") << " (L=" << s.message_flits
    << ", B=" << s.packet_flits << "), " << s.phases << " phases, " << s.transmissions.size()
    << " transmissions";
  return o.str();
}

}  // namespace sy
