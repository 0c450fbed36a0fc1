#include "switchyard/schemes/circuit/circuit_schedule.hpp"

#include <algorithm>
#include <numeric>
#include <set>
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

// The search is the depth-first one its header describes; what keeps it fast on large tori
// (issue 16: divide-and-conquer on 256 x 256 spent a minute here, h-trees on 127 x 127 six) is
// that the free options of every demand are counted incrementally — an arc that becomes used
// blocks the options that cross it, through an index from arcs to options — and the unassigned
// demands are kept in buckets by that count, ordered by index, instead of every option of every
// demand recounted at each step; and that the recursion is an explicit stack (a demand per
// level: tens of thousands on large tori). The choices, their order and the budget are
// unchanged: the most constrained demand is the first with the fewest free options, where the
// former scan stopped at the first demand with one, and failed at a demand with none met before.
bool choose_disjoint(const std::vector<std::vector<PathOption>>& options, std::vector<char>& used,
                     std::vector<int>& choice) {
  const int T = static_cast<int>(options.size());
  choice.assign(T, -1);
  long long budget = 1000000;
  // Arc -> the (demand, option) pairs that cross it (CSR); blocked: used arcs per option;
  // free_count: options of a demand with no used arc.
  const std::size_t A = used.size();
  std::vector<std::size_t> first(A + 1, 0);
  std::vector<std::size_t> option_base(static_cast<std::size_t>(T) + 1, 0);
  for (int t = 0; t < T; ++t) {
    option_base[t + 1] = option_base[t] + options[t].size();
    for (const PathOption& o : options[t])
      for (int a : o.arcs) ++first[static_cast<std::size_t>(a) + 1];
  }
  for (std::size_t a = 0; a < A; ++a) first[a + 1] += first[a];
  std::vector<std::pair<int, int>> crossing(first[A]);
  std::vector<int> blocked(option_base[T], 0), free_count(T, 0);
  std::size_t most = 0;
  for (const auto& o : options) most = std::max(most, o.size());
  std::vector<std::set<int>> bucket(most + 1);  // unassigned demands by free_count
  {
    std::vector<std::size_t> at(first.begin(), first.end() - 1);
    for (int t = 0; t < T; ++t)
      for (int i = 0; i < static_cast<int>(options[t].size()); ++i) {
        int& b = blocked[option_base[t] + i];
        for (int a : options[t][i].arcs) {
          crossing[at[a]++] = {t, i};
          b += used[a] ? 1 : 0;
        }
        free_count[t] += b == 0;
      }
    for (int t = 0; t < T; ++t) bucket[free_count[t]].insert(bucket[free_count[t]].end(), t);
  }
  // A demand's free count changes by d: it moves bucket while it is unassigned.
  auto recount = [&](int t, int d) {
    if (choice[t] < 0) {
      bucket[free_count[t]].erase(t);
      bucket[free_count[t] + d].insert(t);
    }
    free_count[t] += d;
  };
  std::vector<int> marked;  // arcs marked by the applied options, in order
  auto mark = [&](int a) {
    used[a] = 1;
    marked.push_back(a);
    for (std::size_t k = first[a]; k < first[a + 1]; ++k)
      if (blocked[option_base[crossing[k].first] + crossing[k].second]++ == 0)
        recount(crossing[k].first, -1);
  };
  auto unmark_to = [&](std::size_t size) {
    while (marked.size() > size) {
      const int a = marked.back();
      marked.pop_back();
      used[a] = 0;
      for (std::size_t k = first[a]; k < first[a + 1]; ++k)
        if (--blocked[option_base[crossing[k].first] + crossing[k].second] == 0)
          recount(crossing[k].first, +1);
    }
  };
  struct Level {
    int demand;
    int next;           // the next option to try
    std::size_t marks;  // marked.size() before its option
  };
  std::vector<Level> stack;
  // Entering a level: 1 all assigned, -1 out of budget, 0 a demand without a free option (back
  // up), 2 a new level pushed for the most constrained demand.
  auto enter = [&]() -> int {
    if (static_cast<int>(stack.size()) == T) return 1;
    if (--budget < 0) return -1;
    const int none = bucket[0].empty() ? T : *bucket[0].begin();
    const int one = bucket.size() < 2 || bucket[1].empty() ? T : *bucket[1].begin();
    if (none < one) return 0;
    int best = one;
    for (std::size_t c = 2; best == T && c < bucket.size(); ++c)
      if (!bucket[c].empty()) best = *bucket[c].begin();
    stack.push_back({best, 0, marked.size()});
    return 2;
  };
  int r = enter();
  while (r != 1) {
    if (r == -1) {  // out of budget: nothing found; `used` as it was
      stack.clear();
      unmark_to(0);
      choice.assign(T, -1);
      return false;
    }
    if (stack.empty()) return false;
    Level& lv = stack.back();
    if (choice[lv.demand] >= 0) {  // undo this level's option before its next one
      unmark_to(lv.marks);
      choice[lv.demand] = -1;
      bucket[free_count[lv.demand]].insert(lv.demand);
    }
    const auto& opts = options[lv.demand];
    int i = lv.next;
    while (i < static_cast<int>(opts.size()) && blocked[option_base[lv.demand] + i] != 0) ++i;
    if (i == static_cast<int>(opts.size())) {
      stack.pop_back();
      r = 0;
      continue;
    }
    lv.next = i + 1;
    bucket[free_count[lv.demand]].erase(lv.demand);
    choice[lv.demand] = i;
    for (int a : opts[i].arcs)
      if (!used[a]) mark(a);
    r = enter();
  }
  return true;
}

}  // namespace circuit_detail

using circuit_detail::Grid;

namespace {

// A time with the terms it is made of (alpha_terms, delta_terms, tau_flits).
struct Timed {
  double time = -1.0;
  CircuitTerms terms;
};

// self_timed_time() with the terms of the latest arrival (the critical chain at costs c).
Timed self_timed(const Schedule& s, const CircuitCost& c, std::vector<double>* arrivals = nullptr) {
  const int N = s.num_nodes(), I = s.items();
  std::vector<std::size_t> order(s.transmissions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Transmission &x = s.transmissions[a], &y = s.transmissions[b];
    return x.phase != y.phase ? x.phase < y.phase : x.sender < y.sender;
  });
  const Topology topo = s.topology();
  std::vector<Timed> held(static_cast<std::size_t>(N) * I), released(N);
  for (Timed& r : released) r.time = 0.0;
  for (int i = 0; i < I; ++i) held[static_cast<std::size_t>(s.source(i)) * I + i].time = 0.0;
  Timed done;
  done.time = 0.0;
  std::vector<std::pair<std::size_t, Timed>> in;  // (node * I + item, time) of this phase
  for (std::size_t b = 0; b < order.size();) {
    const int phase = s.transmissions[order[b]].phase;
    in.clear();
    while (b < order.size() && s.transmissions[order[b]].phase == phase) {
      // One node's phase: it starts when all its items are in and its circuits are released.
      const int u = s.transmissions[order[b]].sender;
      std::size_t e = b;
      Timed start = released[u];
      for (; e < order.size() && s.transmissions[order[e]].phase == phase &&
             s.transmissions[order[e]].sender == u;
           ++e) {
        const Timed& h = held[static_cast<std::size_t>(u) * I + s.transmissions[order[e]].item];
        if (h.time < 0) throw std::logic_error("self_timed_time: a sender does not hold its item");
        if (h.time > start.time) start = h;
      }
      for (; b < e; ++b) {
        const Transmission& t = s.transmissions[order[b]];
        const int flits = s.item_flits.at(t.item);
        Timed end = start;
        end.time =
            start.time + c.alpha + c.delta * static_cast<double>(t.path.size()) + c.tau * flits;
        end.terms.alpha_terms += 1;
        end.terms.delta_terms += static_cast<long long>(t.path.size());
        end.terms.tau_flits += flits;
        int v = u;
        for (const ScheduleHop& h : t.path) v = topo.neighbor(v, topo.port_of(h.dim, h.dir));
        in.push_back({static_cast<std::size_t>(v) * I + t.item, end});
        if (end.time > released[u].time) released[u] = end;
        if (end.time > done.time) done = end;
      }
    }
    for (const auto& [key, time] : in)
      if (held[key].time < 0 || time.time < held[key].time) held[key] = time;
  }
  if (arrivals) {
    arrivals->resize(held.size());
    for (std::size_t i = 0; i < held.size(); ++i) (*arrivals)[i] = held[i].time;
  }
  return done;
}

}  // namespace

double self_timed_time(const Schedule& s, const CircuitCost& c) {
  return self_timed(s, c).time;
}

CircuitTerms self_timed_terms(const Schedule& s, const CircuitCost& c) {
  return self_timed(s, c).terms;
}

std::vector<double> self_timed_arrivals(const Schedule& s, const CircuitCost& c) {
  std::vector<double> out;
  self_timed(s, c, &out);
  return out;
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
