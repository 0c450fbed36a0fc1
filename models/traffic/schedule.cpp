#include "switchyard/traffic/schedule.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace sy {

int Schedule::num_nodes() const {
  if (dims.empty()) return 0;
  long long n = 1;
  for (int d : dims) n *= d;
  return static_cast<int>(n);
}

std::string size_name(const std::vector<int>& dims) {
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
  return s.empty() ? "(no dimensions)" : s;
}

void set_message_flits(Schedule& s, int message_flits) {
  const int items = s.items();
  if (items < 1) throw std::invalid_argument("schedule has no items");
  if (message_flits < items)
    throw std::invalid_argument(s.algorithm + ": a message of " + std::to_string(message_flits) +
                                " flits cannot fill " + std::to_string(items) + " parts");
  for (int p = 0; p < items; ++p)
    s.item_flits[p] = message_flits / items + (p < message_flits % items);
  s.message_flits = message_flits;
  s.packet_flits = *std::max_element(s.item_flits.begin(), s.item_flits.end());
}

int packets_per_stream(int message_flits, int packet_flits, int streams) {
  const int share = (message_flits + streams - 1) / streams;
  return std::max(1, (share + packet_flits - 1) / packet_flits);
}

void set_packet_flits(Schedule& s, int message_flits, int packet_flits) {
  const int items = s.items(), S = std::max(1, s.streams);
  if (items < 1 || items % S != 0)
    throw std::invalid_argument(s.algorithm + ": " + std::to_string(items) +
                                " parts do not make whole packets of " + std::to_string(S) +
                                " streams");
  const int P = items / S, B = packet_flits;
  for (int t = 0; t < S; ++t) {
    const int share = message_flits / S + (t < message_flits % S);
    const int last = share - (P - 1) * B;
    if (B < 1 || last < 1 || last > B)
      throw std::invalid_argument(s.algorithm + ": a message of " + std::to_string(message_flits) +
                                  " flits in " + std::to_string(S) +
                                  (S == 1 ? " stream" : " streams") + " of " + std::to_string(P) +
                                  " packets of " + std::to_string(B) + " flits leaves stream " +
                                  std::to_string(t) + "'s last packet " + std::to_string(last) +
                                  " flits (it must hold 1 to " + std::to_string(B) + ")");
    for (int j = 0; j < P; ++j)
      s.item_flits[static_cast<std::size_t>(j * S + t)] = j < P - 1 ? B : last;
  }
  s.message_flits = message_flits;
  s.packet_flits = *std::max_element(s.item_flits.begin(), s.item_flits.end());
}

namespace {

std::string node_label(const Topology& t, int node) {
  std::string s = "node " + std::to_string(node) + " (";
  for (int d = 0; d < t.num_dims(); ++d) s += (d ? "," : "") + std::to_string(t.coord(node, d));
  return s + ")";
}

}  // namespace

ScheduleCheck check(const Schedule& s) {
  ScheduleCheck r;
  // Up to 10 errors of each kind, so that one flood does not hide the others.
  enum Kind { kShape, kReceive, kHold, kArc, kCount };
  int counts[kCount] = {};
  Kind kind = kShape;
  auto fail = [&](const std::string& e) {
    r.ok = false;
    if (counts[kind]++ < 10) r.errors.push_back(e);
  };
  bool dims_ok = !s.dims.empty();
  for (int n : s.dims) dims_ok = dims_ok && n >= 1 && n <= (1 << 16);
  if (dims_ok && s.kind == Topology::Kind::Hypercube)
    for (int n : s.dims) dims_ok = dims_ok && n == 2;
  if (!dims_ok || s.num_nodes() > (1 << 22)) {
    fail("dims " + size_name(s.dims) + " do not make a " +
         (s.kind == Topology::Kind::Hypercube ? "hypercube" : "torus or mesh"));
    return r;
  }
  const Topology topo = s.topology();
  const int N = topo.num_nodes(), I = s.items(), P = topo.num_ports();
  const bool slots = s.timing == ScheduleTiming::Slots;
  const std::string unit_name = slots ? "slot" : "phase";
  auto in_unit = [&](int u) { return " in " + unit_name + " " + std::to_string(u); };
  if (I < 1) {
    fail("schedule has no items");
    return r;
  }
  if ((!s.item_source.empty() && static_cast<int>(s.item_source.size()) != I) ||
      (!s.item_dest.empty() && static_cast<int>(s.item_dest.size()) != I)) {
    fail("item sources/destinations do not match the " + std::to_string(I) + " items");
    return r;
  }
  if (s.item_source.empty() && (s.root < 0 || s.root >= N)) {
    fail("root " + std::to_string(s.root) + " is not a node");
    return r;
  }
  for (int i = 0; i < I; ++i) {
    if (s.source(i) < 0 || s.source(i) >= N) fail("packet " + std::to_string(i) + ": no source");
    if (s.dest(i) >= N || s.dest(i) < -1)
      fail("packet " + std::to_string(i) + ": destination is not a node");
  }
  if (!r.ok) return r;

  // Walk each path, checking its hops; where it ends and in which unit the item is in.
  const std::size_t T = s.transmissions.size();
  std::vector<int> dest(T, -1), arrival(T, 0);
  for (std::size_t i = 0; i < T; ++i) {
    const Transmission& t = s.transmissions[i];
    const std::string who = "transmission " + std::to_string(i) + " (" +
                            (slots && !t.slots.empty() ? "slot " + std::to_string(t.slots[0])
                                                       : "phase " + std::to_string(t.phase)) +
                            ", from " + std::to_string(t.sender) + ")";
    if (!slots && t.phase < 0) fail(who + ": negative phase");
    if (t.sender < 0 || t.sender >= N) {
      fail(who + ": sender is not a node");
      continue;
    }
    if (t.item < 0 || t.item >= I) {
      fail(who + ": packet " + std::to_string(t.item) + " out of range");
      continue;
    }
    if (t.path.empty()) {
      fail(who + ": empty path");
      continue;
    }
    const int span = s.units(t.item);  // slots an item holds each link for
    if (slots) {
      bool good = t.slots.size() == t.path.size() && t.slots[0] >= 0;
      for (std::size_t k = 1; good && k < t.slots.size(); ++k)
        good = t.slots[k] >= t.slots[k - 1] + span;
      if (!good) {
        fail(who + ": needs one slot per hop, from 0 on, each at least " + std::to_string(span) +
             " after the one before");
        continue;
      }
    }
    int v = t.sender;
    bool good = true;
    for (const ScheduleHop& h : t.path) {
      const bool dir_ok =
          h.dim >= 0 && h.dim < topo.num_dims() &&
          (topo.size(h.dim) == 2 ? h.dir >= -1 && h.dir <= 1 : h.dir == 1 || h.dir == -1);
      const int port = dir_ok ? topo.port_of(h.dim, h.dir) : -1;
      if (port < 0 || topo.neighbor(v, port) < 0) {
        fail(who + ": " + node_label(topo, v) + " has no link (dim " + std::to_string(h.dim) +
             ", dir " + std::to_string(h.dir) + ")");
        good = false;
        break;
      }
      v = topo.neighbor(v, port);
    }
    if (!good) continue;
    if (s.shortest_paths && static_cast<int>(t.path.size()) != topo.distance(t.sender, v))
      fail(who + ": " + std::to_string(t.path.size()) + " hops to " + node_label(topo, v) +
           ", a shortest path has " + std::to_string(topo.distance(t.sender, v)));
    dest[i] = v;
    arrival[i] = slots ? t.slots.back() + span : t.phase + 1;
    r.max_hops = std::max(r.max_hops, static_cast<int>(t.path.size()));
    r.total_hops += static_cast<long long>(t.path.size());
    r.phases = std::max(r.phases, arrival[i]);
  }
  if (r.phases != s.phases)
    fail("schedule says " + std::to_string(s.phases) + " " + unit_name + "s, transmissions use " +
         std::to_string(r.phases));

  // Receptions, sorted by (item, node, arrival): each destination once, sources never.
  kind = kReceive;
  struct Rec {
    int item, node, arrival, tx;
  };
  std::vector<Rec> recs;
  recs.reserve(T);
  for (std::size_t i = 0; i < T; ++i)
    if (dest[i] >= 0) {
      const Transmission& t = s.transmissions[i];
      if (dest[i] == t.sender) {
        fail("transmission " + std::to_string(i) + " from " + std::to_string(t.sender) +
             in_unit(s.start_unit(t)) + " returns to its sender");
        continue;
      }
      recs.push_back({t.item, dest[i], arrival[i], static_cast<int>(i)});
    }
  std::sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) {
    return a.item != b.item   ? a.item < b.item
           : a.node != b.node ? a.node < b.node
                              : a.arrival < b.arrival;
  });
  auto when = [&](const Rec& x) { return s.start_unit(s.transmissions[x.tx]); };
  std::size_t k = 0;
  for (int item = 0; item < I; ++item) {
    const int src = s.source(item), to = s.dest(item);
    int expect = 0;  // next node a broadcast item must reach
    bool reached = false;
    for (; k < recs.size() && recs[k].item == item; ++k) {
      const Rec& x = recs[k];
      const Transmission& t = s.transmissions[x.tx];
      const bool again = k > 0 && recs[k - 1].item == item && recs[k - 1].node == x.node;
      if (x.node == src || again) {
        if (s.returns_allowed) {
          ++r.returns;
        } else if (x.node == src) {
          fail("transmission " + std::to_string(x.tx) + " from " + std::to_string(t.sender) +
               in_unit(when(x)) + " delivers packet " + std::to_string(item) +
               (s.item_source.empty() ? " to the root" : " to its source"));
        } else {
          const Rec& y = recs[k - 1];
          fail(node_label(topo, x.node) + " receives packet " + std::to_string(item) +
               " twice: " + unit_name + " " + std::to_string(when(y)) + " from " +
               std::to_string(s.transmissions[y.tx].sender) + " and " + unit_name + " " +
               std::to_string(when(x)) + " from " + std::to_string(t.sender));
        }
        continue;
      }
      if (to >= 0) {
        reached = reached || x.node == to;
        continue;  // other receivers of a unicast item relay it
      }
      for (; expect < x.node; ++expect)
        if (expect != src)
          fail(node_label(topo, expect) + " never receives packet " + std::to_string(item));
      expect = x.node + 1;
    }
    if (to >= 0 && !reached && to != src)
      fail(node_label(topo, to) + " never receives packet " + std::to_string(item));
    if (to < 0)
      for (; expect < N; ++expect)
        if (expect != src)
          fail(node_label(topo, expect) + " never receives packet " + std::to_string(item));
  }
  // Senders hold what they send: their source, or received by the unit they send in.
  kind = kHold;
  for (std::size_t i = 0; i < T; ++i) {
    const Transmission& t = s.transmissions[i];
    if (dest[i] < 0 || t.sender == s.source(t.item)) continue;
    const Rec key{t.item, t.sender, -1, -1};
    const auto it = std::lower_bound(recs.begin(), recs.end(), key, [](const Rec& a, const Rec& b) {
      return a.item != b.item ? a.item < b.item : a.node < b.node;
    });
    const bool got = it != recs.end() && it->item == t.item && it->node == t.sender;
    const int start = s.start_unit(t);
    if (!got || it->arrival > start)
      fail(node_label(topo, t.sender) + " sends packet " + std::to_string(t.item) + in_unit(start) +
           " but " +
           (!got ? std::string("never receives it")
                 : "receives it only in " + unit_name + " " + std::to_string(it->arrival - 1)));
  }
  // Arcs: each directed link carries at most one transmission per phase or slot.
  kind = kArc;
  struct Use {
    int unit, arc, tx;
  };
  std::vector<Use> uses;
  uses.reserve(static_cast<std::size_t>(r.total_hops));
  std::vector<std::pair<long long, int>> sends, receives;  // (unit * N + node, count)
  r.phase_max_hops.assign(static_cast<std::size_t>(std::max(r.phases, 0)), 0);
  for (std::size_t i = 0; i < T; ++i) {
    if (dest[i] < 0) continue;
    const Transmission& t = s.transmissions[i];
    int& longest = r.phase_max_hops[static_cast<std::size_t>(s.start_unit(t))];
    longest = std::max<int>(longest, static_cast<int>(t.path.size()));
    int v = t.sender;
    const int span = s.units(t.item);
    for (std::size_t h = 0; h < t.path.size(); ++h) {
      const int port = topo.port_of(t.path[h].dim, t.path[h].dir);
      for (int u = 0; u < span; ++u) {
        uses.push_back({s.unit(t, h) + u, v * P + port, static_cast<int>(i)});
        // A sender starts a circuit per transmission; in slots every hop is a send.
        if (slots || h == 0) sends.push_back({static_cast<long long>(s.unit(t, h) + u) * N + v, 1});
      }
      v = topo.neighbor(v, port);
    }
    receives.push_back({static_cast<long long>(arrival[i] - 1) * N + dest[i], 1});
  }
  std::sort(uses.begin(), uses.end(), [](const Use& a, const Use& b) {
    return a.unit != b.unit ? a.unit < b.unit : a.arc != b.arc ? a.arc < b.arc : a.tx < b.tx;
  });
  for (std::size_t u = 1; u < uses.size(); ++u)
    if (uses[u].unit == uses[u - 1].unit && uses[u].arc == uses[u - 1].arc) {
      const int node = uses[u].arc / P, port = uses[u].arc % P;
      fail(node_label(topo, node) + " port " + topo.port_name(port) + in_unit(uses[u].unit) +
           ", by transmissions from " + std::to_string(s.transmissions[uses[u - 1].tx].sender) +
           " and " + std::to_string(s.transmissions[uses[u].tx].sender));
    }
  auto most = [](std::vector<std::pair<long long, int>>& v) {
    std::sort(v.begin(), v.end());
    int best = 0, run = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      run = i > 0 && v[i].first == v[i - 1].first ? run + 1 : 1;
      best = std::max(best, run);
    }
    return best;
  };
  r.max_sends = most(sends);
  r.max_receptions = most(receives);
  const int links = s.links_per_slot > 0 ? std::min(s.links_per_slot, P) : P;
  if (r.max_receptions > P)
    fail("a node receives " + std::to_string(r.max_receptions) + " packets in one " + unit_name +
         " (all-port: " + std::to_string(P) + ")");
  if (r.max_sends > links)
    fail("a node " + std::string(slots ? "sends on " : "starts ") + std::to_string(r.max_sends) +
         (slots ? " links" : " transmissions") + " in one " + unit_name + " (" +
         (s.links_per_slot > 0 ? "limit" : "all-port") + ": " + std::to_string(links) + ")");
  return r;
}

void require_valid(const Schedule& s) {
  const ScheduleCheck r = check(s);
  if (r.ok) return;
  std::string msg = s.algorithm + " " + size_name(s.dims) + ": invalid schedule:";
  for (std::size_t i = 0; i < r.errors.size() && i < 5; ++i) msg += "\n  " + r.errors[i];
  throw std::runtime_error(msg);
}

std::string describe(const Schedule& s) {
  std::ostringstream o;
  o << s.algorithm;
  if (!s.variant.empty()) o << " (" << s.variant << ")";
  o << " on " << size_name(s.dims);
  if (s.item_source.empty()) o << ", root " << s.root;
  o << ", " << s.items() << (s.items() == 1 ? " part" : " parts") << " (L=" << s.message_flits
    << ", B=" << s.packet_flits << "), " << s.phases
    << (s.timing == ScheduleTiming::Slots ? " slots, " : " phases, ") << s.transmissions.size()
    << " transmissions";
  return o.str();
}

double phase_sum_time(const Schedule& s, const CircuitCost& c) {
  std::vector<double> longest(s.phases, 0.0);
  for (const Transmission& t : s.transmissions) {
    const double time =
        c.alpha + c.delta * static_cast<double>(t.path.size()) + c.tau * s.item_flits.at(t.item);
    longest.at(t.phase) = std::max(longest.at(t.phase), time);
  }
  return std::accumulate(longest.begin(), longest.end(), 0.0);
}

}  // namespace sy
