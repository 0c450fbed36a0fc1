#include "switchyard/schemes/circuit/circuit_schedule.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "switchyard/topology/topology.hpp"

namespace sy {
namespace circuit_detail {

void require_torus(const char* algorithm, const std::vector<int>& dims, int root,
                   const std::string& supported) {
  if (dims.size() != 2 || dims[0] < 3 || dims[1] < 3)
    throw UnsupportedSchedule(std::string(algorithm) + ": no construction for a " +
                              size_name(dims) + " torus; supported: " + supported);
  if (root < 0 || root >= dims[0] * dims[1])
    throw UnsupportedSchedule(std::string(algorithm) + ": root " + std::to_string(root) +
                              " is not a node of the " + size_name(dims) + " torus");
}

void finish(Schedule& s, int parts, int message_flits) {
  s.item_flits.assign(parts, 1);
  set_message_flits(s, message_flits > 0 ? message_flits : parts);
  int phases = 0;
  for (const Transmission& t : s.transmissions) phases = std::max(phases, t.phase + 1);
  s.phases = phases;
}

PathOption make_option(const Grid& g, int sender, std::vector<ScheduleHop> path) {
  PathOption o{sender, std::move(path), {}};
  int v = sender;
  for (const ScheduleHop& h : o.path) o.arcs.push_back(Grid::arc(v, h)), v = g.step(v, h);
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

double phase_sum_time(const Schedule& s, const CircuitCost& c) {
  std::vector<double> longest(s.phases, 0.0);
  for (const Transmission& t : s.transmissions) {
    const double time =
        c.alpha + c.delta * static_cast<double>(t.path.size()) + c.tau * s.item_flits.at(t.item);
    longest.at(t.phase) = std::max(longest.at(t.phase), time);
  }
  return std::accumulate(longest.begin(), longest.end(), 0.0);
}

double self_timed_time(const Schedule& s, const CircuitCost& c) {
  const int N = s.num_nodes(), I = s.items();
  std::vector<std::size_t> order(s.transmissions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Transmission &x = s.transmissions[a], &y = s.transmissions[b];
    return x.phase != y.phase ? x.phase < y.phase : x.sender < y.sender;
  });
  const Topology topo = s.topology();
  std::vector<double> held(static_cast<std::size_t>(N) * I, -1.0), released(N, 0.0);
  for (int i = 0; i < I; ++i) held[static_cast<std::size_t>(s.source(i)) * I + i] = 0.0;
  double done = 0.0;
  std::vector<std::pair<std::size_t, double>> in;  // (node * I + item, time) of this phase
  for (std::size_t b = 0; b < order.size();) {
    const int phase = s.transmissions[order[b]].phase;
    in.clear();
    while (b < order.size() && s.transmissions[order[b]].phase == phase) {
      // One node's phase: it starts when all its items are in and its circuits are released.
      const int u = s.transmissions[order[b]].sender;
      std::size_t e = b;
      double start = released[u];
      for (; e < order.size() && s.transmissions[order[e]].phase == phase &&
             s.transmissions[order[e]].sender == u;
           ++e) {
        const double h = held[static_cast<std::size_t>(u) * I + s.transmissions[order[e]].item];
        if (h < 0) throw std::logic_error("self_timed_time: a sender does not hold its item");
        start = std::max(start, h);
      }
      for (; b < e; ++b) {
        const Transmission& t = s.transmissions[order[b]];
        const double end = start + c.alpha + c.delta * static_cast<double>(t.path.size()) +
                           c.tau * s.item_flits.at(t.item);
        int v = u;
        for (const ScheduleHop& h : t.path) v = topo.neighbor(v, topo.port_of(h.dim, h.dir));
        in.push_back({static_cast<std::size_t>(v) * I + t.item, end});
        released[u] = std::max(released[u], end);
        done = std::max(done, end);
      }
    }
    for (const auto& [key, time] : in)
      if (held[key] < 0 || time < held[key]) held[key] = time;
  }
  return done;
}

CircuitTerms phase_sum_terms(const Schedule& s) {
  std::vector<long long> hops(s.phases, -1), flits(s.phases, -1);
  for (const Transmission& t : s.transmissions) {
    hops.at(t.phase) = std::max<long long>(hops.at(t.phase), t.path.size());
    flits.at(t.phase) = std::max<long long>(flits.at(t.phase), s.item_flits.at(t.item));
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

}  // namespace sy
