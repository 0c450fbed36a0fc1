#include "switchyard/schemes/pmnb/mnb.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/base/json.hpp"

namespace sy {
namespace {

int rotr(int x, int c, int d) {
  const int m = (1 << d) - 1;
  c %= d;
  return c == 0 ? x : ((x >> c) | (x << (d - c))) & m;
}
int rotl(int x, int c, int d) {
  return rotr(x, (d - c % d) % d, d);
}

}  // namespace

Schedule mnb_schedule(int d, int packet_flits) {
  if (d < 2 || d > 16) throw UnsupportedSchedule("mnb: hypercube dimension 2..16");
  std::vector<int> all(static_cast<std::size_t>(1) << d);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  Schedule s = pmnb_iii_schedule(d, all, 0, packet_flits);
  s.algorithm = "mnb";
  s.variant = "new MNB (algorithm III, M = N)";
  return s;
}

int optimal_mnb_slots(int k) {
  return k <= 0 ? 0 : ((1 << k) - 1 + k - 1) / k;
}

std::vector<MnbTreeEdge> optimal_mnb_tree(int k) {
  if (k < 1 || k > 16) throw UnsupportedSchedule("optimal MNB: cube dimension 1..16");
  const int n = 1 << k;
  std::vector<int> reached(static_cast<std::size_t>(n), 0);  // 1: in the tree before this slot
  reached[0] = 1;
  // Not yet reached nodes next to the tree, lightest first: (weight << 16) | id.
  std::set<int> ready;
  auto key = [](int x) { return (__builtin_popcount(static_cast<unsigned>(x)) << 16) | x; };
  for (int i = 0; i < k; ++i) ready.insert(key(1 << i));
  std::vector<MnbTreeEdge> edges;
  edges.reserve(static_cast<std::size_t>(n - 1));
  std::vector<int> owner(static_cast<std::size_t>(k));  // node matched to each dimension
  std::vector<char> seen(static_cast<std::size_t>(k));
  // An augmenting path from node v: a dimension whose far end is in the tree, free or freed by
  // moving its node to another of its dimensions.
  auto augment = [&](auto&& self, int v) -> bool {
    for (int i = 0; i < k; ++i) {
      if (seen[static_cast<std::size_t>(i)] || !reached[static_cast<std::size_t>(v ^ (1 << i))])
        continue;
      seen[static_cast<std::size_t>(i)] = 1;
      const int o = owner[static_cast<std::size_t>(i)];
      if (o < 0 || self(self, o)) {
        owner[static_cast<std::size_t>(i)] = v;
        return true;
      }
    }
    return false;
  };
  for (int slot = 0; !ready.empty(); ++slot) {
    std::fill(owner.begin(), owner.end(), -1);
    int matched = 0;
    for (auto it = ready.begin(); it != ready.end() && matched < k; ++it) {
      std::fill(seen.begin(), seen.end(), 0);
      if (augment(augment, *it & 0xffff)) ++matched;
    }
    for (int i = 0; i < k; ++i) {
      const int v = owner[static_cast<std::size_t>(i)];
      if (v < 0) continue;
      edges.push_back({v, i, slot});
      ready.erase(key(v));
      reached[static_cast<std::size_t>(v)] = 1;
    }
    for (int i = 0; i < k; ++i) {
      const int v = owner[static_cast<std::size_t>(i)];
      if (v < 0) continue;
      for (int j = 0; j < k; ++j)
        if (!reached[static_cast<std::size_t>(v ^ (1 << j))]) ready.insert(key(v ^ (1 << j)));
    }
  }
  const int depth = edges.empty() ? 0 : edges.back().slot + 1;
  if (static_cast<int>(edges.size()) != n - 1 || depth != optimal_mnb_slots(k))
    throw std::logic_error(
        "optimal MNB tree: " + std::to_string(depth) + " slots on the " + std::to_string(k) +
        "-cube, not ceil((2^k - 1)/k) = " + std::to_string(optimal_mnb_slots(k)));
  return edges;
}

namespace {

void pmnb_header(Schedule& s, int d, int item_flits, int unit_flits) {
  s.kind = Topology::Kind::Hypercube;
  s.dims.assign(static_cast<std::size_t>(d), 2);
  s.timing = ScheduleTiming::Slots;
  s.message_flits = s.packet_flits = item_flits;
  s.unit_flits = unit_flits;
  s.returns_allowed = true;
}

}  // namespace

ScanGrid scan_grid(double tp, int packet_flits, int item_flits) {
  const double flits = tp * packet_flits;
  const long long whole = std::llround(flits);
  if (tp < 0 || std::fabs(flits - static_cast<double>(whole)) > 1e-9 * std::max(1.0, flits))
    throw UnsupportedSchedule("pmnb: a scan step of t_p = " + Json::number(tp) + " slots is " +
                              Json::number(flits) + " flits of a " + std::to_string(packet_flits) +
                              "-flit packet: t_p times the packet's flits must be whole flits");
  ScanGrid g;
  g.unit = whole == 0 ? item_flits : std::gcd(item_flits, static_cast<int>(whole));
  g.packet = item_flits / g.unit;
  g.scan = static_cast<int>(whole / g.unit);
  return g;
}

std::string ScanGrid::note() const {
  return packet == 1
             ? std::string()
             : ", on a grid of " + std::to_string(unit) + "-flit slots (" + std::to_string(packet) +
                   " a packet, " + std::to_string(scan) + " a scan step)";
}

namespace {

std::vector<int> checked_sources(int d, std::vector<int> sources, const char* who) {
  if (d < 2 || d > 16) throw UnsupportedSchedule(std::string(who) + ": hypercube dimension 2..16");
  const int N = 1 << d;
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  if (sources.empty() || sources.front() < 0 || sources.back() >= N)
    throw UnsupportedSchedule(std::string(who) + ": 1..N distinct source nodes");
  return sources;
}

// A compact plan in the making (CompactSlotPlan): the generators run twice, first counting the
// hops of each (slot, dimension, item chunk) group, then writing each hop at its place.
class CompactBuilder {
 public:
  void add(int from, int item, int dim, int slot) {
    if (slot < 0 || slot >= (1 << 20) || from < 0 || from >= (1 << 16) || dim < 0 || dim >= 16 ||
        item < 0 || item >= (1 << 30))
      throw UnsupportedSchedule("compact plan: slot " + std::to_string(slot) + ", node " +
                                std::to_string(from) + ", item " + std::to_string(item) +
                                " outside its fields (slots < 2^20, nodes < 2^16, items < 2^30)");
    const std::size_t k = static_cast<std::size_t>(slot) * 16 + static_cast<std::size_t>(dim);
    const std::size_t chunk = static_cast<std::size_t>(item) >> 16;
    if (!plan_) {
      if (count_.size() <= k) count_.resize(k + 1);
      std::vector<std::uint64_t>& c = count_[k];
      if (c.size() <= chunk) c.resize(chunk + 1, 0);
      ++c[chunk];
      return;
    }
    std::uint64_t& at = count_[k][chunk];  // (the fill pass makes the same hops: in range)
    plan_->hops[at++] =
        static_cast<std::uint32_t>(from) << 16 | (static_cast<unsigned>(item) & 0xffff);
  }
  // After the counting pass: the plan's groups and its hops, allocated at their exact size; the
  // counts become each group's next free place.
  void start_filling(CompactSlotPlan& p) {
    std::uint64_t n = 0;
    for (std::size_t k = 0; k < count_.size(); ++k)
      for (std::size_t chunk = 0; chunk < count_[k].size(); ++chunk) {
        std::uint64_t& c = count_[k][chunk];
        if (c == 0) continue;
        const std::uint64_t start = n;
        n += c;
        c = start;
        p.groups.push_back({n, static_cast<std::int32_t>(k / 16),
                            static_cast<std::uint16_t>(k % 16), static_cast<std::uint16_t>(chunk)});
      }
    p.hops.assign(n, 0);
    plan_ = &p;
  }
  // After the fill pass: each group's hops by sender, then item.
  void finish() {
    std::uint64_t i = 0;
    for (const CompactSlotPlan::Group& g : plan_->groups) {
      std::sort(plan_->hops.begin() + static_cast<std::ptrdiff_t>(i),
                plan_->hops.begin() + static_cast<std::ptrdiff_t>(g.end));
      i = g.end;
    }
    count_.clear();
    count_.shrink_to_fit();
  }
  bool counting() const { return plan_ == nullptr; }

 private:
  std::vector<std::vector<std::uint64_t>> count_;  // slot * 16 + dim -> per chunk
  CompactSlotPlan* plan_ = nullptr;
};

// Where the generators put their transmissions: the schedule's own list, or a compact plan
// (CompactSlotPlan: the d = 16 sizes).
struct Out {
  Schedule& s;
  CompactBuilder* packed = nullptr;
};

void add_hop(Out& o, int from, int item, int dim, int slot) {
  if (o.packed) {
    o.packed->add(from, item, dim, slot);
    return;
  }
  Schedule& s = o.s;
  Transmission t;
  t.sender = from;
  t.item = item;
  t.path.push_back({dim, 0});
  t.slots.push_back(slot);
  s.transmissions.push_back(std::move(t));
}

int add_item(Schedule& s, int flits, int src, int dest) {
  s.item_flits.push_back(flits);
  s.item_source.push_back(src);
  s.item_dest.push_back(dest);
  return s.items() - 1;
}

// The optimal MNB in the k-subcube of the nodes whose other bits are `high`: each (local node,
// item) of `held` sends its item along the tree translated to that node. Returns the slot after
// the last.
// Slots are `scale` schedule slots each (a packet's length on the grid).
int tree_mnb(Out& s, int k, int high, const std::vector<MnbTreeEdge>& tree,
             const std::vector<std::pair<int, int>>& held, int base, int scale) {
  for (const MnbTreeEdge& e : tree)
    for (const auto& [r, item] : held)
      add_hop(s, ((e.node ^ (1 << e.dim)) ^ r) | high, item, e.dim, base + e.slot * scale);
  return base + optimal_mnb_slots(k) * scale;
}

// A parallel-prefix scan as real messages: d up-sweep and d down-sweep steps, in each of which
// every node sends a message of `units` schedule slots to its neighbour across one dimension. With
// `lanes` > 1, that many scans run in lockstep on distinct dimensions (lane c rotated by c).
int add_scan(Out& o, int d, int lanes, int units, int flits, int slot) {
  Schedule& s = o.s;
  const int N = 1 << d;
  for (int step = 0; step < 2 * d; ++step) {
    const int dim0 = step < d ? step : 2 * d - 1 - step;
    for (int c = 0; c < lanes; ++c) {
      const int dim = (dim0 + c) % d;
      for (int v = 0; v < N; ++v)
        add_hop(o, v, add_item(s, flits * units, v, v ^ (1 << dim)), dim, slot);
    }
    slot += units;
  }
  return slot;
}

// The broadcast phase of pack_and_broadcast for a compact plan, the same hops without the lists
// of what every node holds in every subphase (at N = 2^16 for II, 4 GB and a copy of it): node
// v's list in subphase l + 1 is its list of subphase l, then that of v ^ b_l (b_l the dimension
// of subphase l), so a copy at place j of node v's list in subphase l is at place j of v's list
// and at place len_l(v ^ b_l) + j of v ^ b_l's in subphase l + 1. Only the lists' lengths are
// kept (k x 2^k a class), and every item's copies are followed from where it was packed.
int compact_broadcast(Out& s, int k, int high,
                      const std::vector<std::vector<std::vector<int>>>& held, int slot, int scale) {
  const std::size_t n = std::size_t{1} << k;
  const std::size_t classes = held.size();
  std::vector<std::vector<int>> len(static_cast<std::size_t>(k) + 1, std::vector<int>(n, 0));
  auto lengths = [&](std::size_t c) {
    for (std::size_t v = 0; v < n; ++v) len[1][v] = static_cast<int>(held[c][v].size());
    for (int l = 1; l < k; ++l) {
      const std::size_t b = std::size_t{1} << ((k - l + static_cast<int>(c)) % k);
      for (std::size_t v = 0; v < n; ++v)
        len[static_cast<std::size_t>(l) + 1][v] =
            len[static_cast<std::size_t>(l)][v] + len[static_cast<std::size_t>(l)][v ^ b];
    }
  };
  // Subphase l starts when the fullest node of any class has sent its list of subphase l - 1.
  std::vector<int> start(static_cast<std::size_t>(k) + 2, slot);
  std::vector<int> longest(static_cast<std::size_t>(k) + 1, 0);
  for (std::size_t c = 0; c < classes; ++c) {
    lengths(c);
    for (int l = 1; l <= k; ++l)
      for (std::size_t v = 0; v < n; ++v)
        longest[static_cast<std::size_t>(l)] =
            std::max(longest[static_cast<std::size_t>(l)], len[static_cast<std::size_t>(l)][v]);
  }
  for (int l = 1; l <= k; ++l)
    start[static_cast<std::size_t>(l) + 1] =
        start[static_cast<std::size_t>(l)] + longest[static_cast<std::size_t>(l)] * scale;
  for (std::size_t c = 0; c < classes; ++c) {
    lengths(c);
    auto follow = [&](auto&& self, int item, int l, std::size_t v, int j) -> void {
      const int dim = (k - l + static_cast<int>(c)) % k;
      add_hop(s, static_cast<int>(v) | high, item, dim,
              start[static_cast<std::size_t>(l)] + j * scale);
      if (l == k) return;
      const std::size_t w = v ^ (std::size_t{1} << dim);
      self(self, item, l + 1, v, j);
      self(self, item, l + 1, w, len[static_cast<std::size_t>(l)][w] + j);
    };
    for (std::size_t v = 0; v < n; ++v)
      for (std::size_t j = 0; j < held[c][v].size(); ++j)
        follow(follow, held[c][v][j], 1, v, static_cast<int>(j));
  }
  return start[static_cast<std::size_t>(k) + 1];
}

// The building block A_c for k classes in lockstep on a k-cube (dimensions 0..k-1 of the
// schedule's cube, the other bits of every node fixed to `high`): classes[c] lists class c's
// items in rank order (ranked by the holder's local id rotated right by c); at[item] is the node
// that holds it. Pack: rank q goes to local node L^c(q) = q rotated left by c, step i (slot
// base + i) correcting dimension (i + c) mod k. Broadcast: subphase l = 1..k, every node sends
// each class-c item it holds across dimension (k - l + c) mod k, one per slot; the subphase lasts
// as long as the fullest node needs. Slots are `scale` schedule slots each (an item's length on
// the grid). Returns the schedule slot after the last.
int pack_and_broadcast(Out& s, int k, int high, const std::vector<std::vector<int>>& classes,
                       const std::vector<int>& at, int base, int scale) {
  const int n = 1 << k;
  std::vector<std::vector<std::vector<int>>> held(
      static_cast<std::size_t>(k), std::vector<std::vector<int>>(static_cast<std::size_t>(n)));
  for (int c = 0; c < k && c < static_cast<int>(classes.size()); ++c) {
    const std::vector<int>& members = classes[static_cast<std::size_t>(c)];
    for (std::size_t q = 0; q < members.size(); ++q) {
      const int item = members[q], target = rotl(static_cast<int>(q), c, k);
      int v = at[static_cast<std::size_t>(item)] & (n - 1);
      for (int i = 0; i < k; ++i) {
        const int dim = (i + c) % k;
        if (((v ^ target) >> dim) & 1) {
          add_hop(s, v | high, item, dim, base + i * scale);
          v ^= 1 << dim;
        }
      }
      held[static_cast<std::size_t>(c)][static_cast<std::size_t>(target)].push_back(item);
    }
  }
  int slot = base + k * scale;
  if (s.packed) return compact_broadcast(s, k, high, held, slot, scale);
  for (int l = 1; l <= k; ++l) {
    int len = 0;
    std::vector<std::vector<std::vector<int>>> next = held;
    for (int c = 0; c < k; ++c) {
      const int dim = (k - l + c) % k;
      for (int v = 0; v < n; ++v) {
        const auto& mine = held[static_cast<std::size_t>(c)][static_cast<std::size_t>(v)];
        len = std::max(len, static_cast<int>(mine.size()));
        for (std::size_t j = 0; j < mine.size(); ++j) {
          add_hop(s, v | high, mine[j], dim, slot + static_cast<int>(j) * scale);
          next[static_cast<std::size_t>(c)][static_cast<std::size_t>(v ^ (1 << dim))].push_back(
              mine[j]);
        }
      }
    }
    held.swap(next);
    slot += len * scale;
  }
  return slot;
}

// Class c's members sorted by their holder's id rotated right by c (k bits).
void rank_rotated(std::vector<int>& members, const std::vector<int>& at, int c, int k) {
  std::sort(members.begin(), members.end(), [&](int a, int b) {
    return rotr(at[static_cast<std::size_t>(a)], c, k) <
           rotr(at[static_cast<std::size_t>(b)], c, k);
  });
}

// (stream: the header only, without its hops, for a streamed compact plan: CompactSlotPlan::tree.)
Schedule mnb_optimal_build(int d, int packet_flits, CompactBuilder* packed, bool stream = false) {
  if (d < 2 || d > 16) throw UnsupportedSchedule("mnb_optimal: hypercube dimension 2..16");
  Schedule s;
  Out o{s, packed};
  s.algorithm = "mnb_optimal";
  s.variant =
      "optimal MNB (Bertsekas et al. 1991): one spanning tree translated to every node, "
      "each dimension once per slot";
  pmnb_header(s, d, packet_flits, packet_flits);
  s.returns_allowed = false;  // a tree reaches every node once
  std::vector<std::pair<int, int>> held;
  for (int v = 0; v < (1 << d); ++v) held.emplace_back(v, add_item(s, packet_flits, v, -1));
  s.phases = stream ? optimal_mnb_slots(d) : tree_mnb(o, d, 0, optimal_mnb_tree(d), held, 0, 1);
  return s;
}

Schedule pmnb_iii_build(int d, std::vector<int> sources, double tp, int packet_flits,
                        CompactBuilder* packed) {
  sources = checked_sources(d, std::move(sources), "pmnb");
  const int M = static_cast<int>(sources.size());
  const ScanGrid g = scan_grid(tp, packet_flits, packet_flits);
  Schedule s;
  Out o{s, packed};
  s.algorithm = "pmnb";
  s.variant = "algorithm III, M = " + std::to_string(M) + ", scans of " + Json::number(tp) +
              " slot(s) per step" + g.note();
  pmnb_header(s, d, packet_flits, g.unit);
  for (int src : sources) add_item(s, packet_flits, src, -1);  // items 0..M-1
  // Two scans (the natural-order rank, then the rank within each class in rotated order).
  int slot = 0;
  if (g.scan > 0)
    for (int scan = 0; scan < 2; ++scan) slot = add_scan(o, d, 1, g.scan, g.unit, slot);
  // Class c: the sources whose natural rank is c mod d.
  std::vector<std::vector<int>> classes(static_cast<std::size_t>(d));
  for (int r = 0; r < M; ++r) classes[static_cast<std::size_t>(r % d)].push_back(r);
  for (int c = 0; c < d; ++c) rank_rotated(classes[static_cast<std::size_t>(c)], sources, c, d);
  s.phases = pack_and_broadcast(o, d, 0, classes, sources, slot, g.packet);
  return s;
}

Schedule pmnb_ii_build(int d, std::vector<int> sources, double tp, int packet_flits,
                       CompactBuilder* packed) {
  sources = checked_sources(d, std::move(sources), "pmnb_ii");
  if (packet_flits % d != 0)
    throw UnsupportedSchedule("pmnb_ii: message_flits (" + std::to_string(packet_flits) +
                              ") must be a multiple of d = " + std::to_string(d) +
                              " (d mini-packets per packet)");
  const int M = static_cast<int>(sources.size()), mini = packet_flits / d;
  const ScanGrid g = scan_grid(tp, packet_flits, mini);
  Schedule s;
  Out o{s, packed};
  s.algorithm = "pmnb_ii";
  s.variant = "algorithm II, M = " + std::to_string(M) + ", " + std::to_string(d) +
              " mini-packets of " + std::to_string(mini) + " flits, scans of " + Json::number(tp) +
              " slot(s) per step" + g.note();
  pmnb_header(s, d, mini, g.unit);
  // Items: mini-packet c of packet p is item p * d + c; class c = the c-th mini-packets.
  std::vector<int> at;
  for (int src : sources)
    for (int c = 0; c < d; ++c) {
      add_item(s, mini, src, -1);
      at.push_back(src);
    }
  // One scan per class, in lockstep on distinct dimensions, each step a message of t_p whole
  // slots (t_p L flits = d t_p mini-slots).
  int slot = 0;
  if (g.scan > 0) slot = add_scan(o, d, d, g.scan, g.unit, slot);
  std::vector<std::vector<int>> classes(static_cast<std::size_t>(d));
  for (int p = 0; p < M; ++p)
    for (int c = 0; c < d; ++c) classes[static_cast<std::size_t>(c)].push_back(p * d + c);
  for (int c = 0; c < d; ++c) rank_rotated(classes[static_cast<std::size_t>(c)], at, c, d);
  s.phases = pack_and_broadcast(o, d, 0, classes, at, slot, g.packet);
  return s;
}

// A_0 alone (the paper's Lemma 2, the suboptimal algorithm II is built from): one rank scan,
// the M packets (natural rank) packed to nodes 0..M-1 in ascending dimensions and broadcast over
// dimensions d-1, ..., 0, one class using one dimension a slot.
Schedule pmnb_a0_build(int d, std::vector<int> sources, double tp, int packet_flits,
                       CompactBuilder* packed) {
  sources = checked_sources(d, std::move(sources), "pmnb_a0");
  const int M = static_cast<int>(sources.size());
  const ScanGrid g = scan_grid(tp, packet_flits, packet_flits);
  Schedule s;
  Out o{s, packed};
  s.algorithm = "pmnb_a0";
  s.variant = "A_0 alone (Lemma 2), M = " + std::to_string(M) + ", scans of " + Json::number(tp) +
              " slot(s) per step" + g.note();
  pmnb_header(s, d, packet_flits, g.unit);
  for (int src : sources) add_item(s, packet_flits, src, -1);
  int slot = 0;
  if (g.scan > 0) slot = add_scan(o, d, 1, g.scan, g.unit, slot);
  std::vector<std::vector<int>> classes(1);
  for (int r = 0; r < M; ++r) classes[0].push_back(r);
  s.phases = pack_and_broadcast(o, d, 0, classes, sources, slot, g.packet);
  return s;
}

Schedule pmnb_i_build(int d, std::vector<int> sources, double tp, int packet_flits,
                      CompactBuilder* packed) {
  sources = checked_sources(d, std::move(sources), "pmnb_i");
  const int M = static_cast<int>(sources.size());
  int m = 0;
  while ((1 << m) < M) ++m;
  Schedule s;
  Out o{s, packed};
  s.algorithm = "pmnb_i";
  s.variant = "algorithm I, M = " + std::to_string(M) + ", m = " + std::to_string(m) +
              ", subcube MNB: the optimal MNB (translated trees), scans of " + Json::number(tp) +
              " slot(s) per step";
  const ScanGrid g = scan_grid(tp, packet_flits, packet_flits);
  s.variant += g.note();
  pmnb_header(s, d, packet_flits, g.unit);
  for (int src : sources) add_item(s, packet_flits, src, -1);
  int slot = 0;
  if (g.scan > 0) slot = add_scan(o, d, 1, g.scan, g.unit, slot);
  // 1. Pack packet r (natural rank) to node r (A_0's packing: ascending dimensions).
  for (int r = 0; r < M; ++r) {
    int v = sources[static_cast<std::size_t>(r)];
    for (int i = 0; i < d; ++i)
      if (((v ^ r) >> i) & 1) {
        add_hop(o, v, r, i, slot + i * g.packet);
        v ^= 1 << i;
      }
  }
  slot += d * g.packet;
  // 2. Single-node broadcast of node r's packet over dimensions m..d-1 (binomial: d - m slots).
  for (int r = 0; r < M; ++r)
    for (int i = m; i < d; ++i)
      for (int h = 0; h < (1 << (i - m)); ++h) {
        const int v = r | (h << m);
        add_hop(o, v, r, i, slot + (i - m) * g.packet);
      }
  slot += (d - m) * g.packet;
  // 3. In every m-subcube, the optimal MNB of the M packets (local node r holds packet r; the
  // padding's nodes r >= M have nothing to send).
  if (m > 0) {
    const std::vector<MnbTreeEdge> tree = optimal_mnb_tree(m);
    std::vector<std::pair<int, int>> held;
    for (int r = 0; r < M; ++r) held.emplace_back(r, r);
    for (int h = 0; h < (1 << (d - m)); ++h) tree_mnb(o, m, h << m, tree, held, slot, g.packet);
    slot += optimal_mnb_slots(m) * g.packet;
  }
  s.phases = slot;
  return s;
}
}  // namespace

Schedule pmnb_scans_schedule(int d, bool split, double tp, int packet_flits) {
  CompactBuilder* packed = nullptr;
  Schedule s;
  Out o{s, packed};
  s.algorithm = split ? "pmnb_ii" : "pmnb";
  s.variant = "scans only (M = 0)";
  const int item = split ? packet_flits / d : packet_flits;
  const ScanGrid g = scan_grid(tp, packet_flits, item);
  pmnb_header(s, d, item, g.unit);
  int slot = 0;
  if (g.scan > 0) {
    if (split)
      slot = add_scan(o, d, d, g.scan, g.unit, slot);
    else
      for (int scan = 0; scan < 2; ++scan) slot = add_scan(o, d, 1, g.scan, g.unit, slot);
  }
  s.phases = slot;
  return s;
}

Schedule mnb_optimal_schedule(int d, int packet_flits) {
  return mnb_optimal_build(d, packet_flits, nullptr);
}
Schedule pmnb_iii_schedule(int d, std::vector<int> sources, double tp, int packet_flits) {
  return pmnb_iii_build(d, std::move(sources), tp, packet_flits, nullptr);
}
Schedule pmnb_ii_schedule(int d, std::vector<int> sources, double tp, int packet_flits) {
  return pmnb_ii_build(d, std::move(sources), tp, packet_flits, nullptr);
}
Schedule pmnb_a0_schedule(int d, std::vector<int> sources, double tp, int packet_flits) {
  return pmnb_a0_build(d, std::move(sources), tp, packet_flits, nullptr);
}
Schedule pmnb_i_schedule(int d, std::vector<int> sources, double tp, int packet_flits) {
  return pmnb_i_build(d, std::move(sources), tp, packet_flits, nullptr);
}

std::uint64_t CompactSlotPlan::pack(int slot, int sender, int dim, int item) {
  if (slot < 0 || slot >= (1 << 20) || sender < 0 || sender >= (1 << 16) || dim < 0 || dim >= 16 ||
      item < 0 || item >= (1 << 24))
    throw UnsupportedSchedule("compact plan key: slot " + std::to_string(slot) + ", node " +
                              std::to_string(sender) + ", item " + std::to_string(item) +
                              " outside its fields (slots < 2^20, nodes < 2^16, items < 2^24)");
  return static_cast<std::uint64_t>(slot) << 44 | static_cast<std::uint64_t>(sender) << 28 |
         static_cast<std::uint64_t>(dim) << 24 | static_cast<std::uint64_t>(item);
}

namespace {
Schedule compact_build(const std::string& algorithm, int d, std::vector<int> sources, double tp,
                       int packet_flits, CompactBuilder* out) {
  if (algorithm == "pmnb") return pmnb_iii_build(d, std::move(sources), tp, packet_flits, out);
  if (algorithm == "pmnb_a0") return pmnb_a0_build(d, std::move(sources), tp, packet_flits, out);
  if (algorithm == "pmnb_i") return pmnb_i_build(d, std::move(sources), tp, packet_flits, out);
  if (algorithm == "pmnb_ii") return pmnb_ii_build(d, std::move(sources), tp, packet_flits, out);
  if (algorithm == "mnb") {
    std::vector<int> all(static_cast<std::size_t>(1) << d);
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    Schedule s = pmnb_iii_build(d, all, 0, packet_flits, out);
    s.algorithm = "mnb";
    s.variant = "new MNB (algorithm III, M = N)";
    return s;
  }
  if (algorithm == "mnb_optimal") return mnb_optimal_build(d, packet_flits, out);
  throw UnsupportedSchedule(
      "compact plans: pmnb, pmnb_i, pmnb_ii, pmnb_a0, mnb, mnb_optimal (not " + algorithm + ")");
}
}  // namespace

CompactSlotPlan compact_slot_plan(const std::string& algorithm, int d, std::vector<int> sources,
                                  double tp, int packet_flits) {
  CompactSlotPlan p;
  if (algorithm == "mnb_optimal") {  // streamed: the tree, by slot then dimension
    p.header = mnb_optimal_build(d, packet_flits, nullptr, true);
    p.tree = optimal_mnb_tree(d);
    std::sort(p.tree.begin(), p.tree.end(), [](const MnbTreeEdge& a, const MnbTreeEdge& b) {
      return a.slot != b.slot ? a.slot < b.slot : a.dim < b.dim;
    });
    p.tree_nodes = 1 << d;
    return p;
  }
  CompactBuilder b;
  compact_build(algorithm, d, sources, tp, packet_flits, &b);  // counts (its items dropped)
  b.start_filling(p);
  p.header = compact_build(algorithm, d, std::move(sources), tp, packet_flits, &b);
  b.finish();
  return p;
}

double pmnb_iii_exact(int d, int M, double scan_slots) {
  const double m = std::ceil(static_cast<double>(M) / d);
  double t = 4.0 * d * scan_slots + d;
  for (int j = 1; j <= d; ++j) t += std::ceil(m / std::pow(2.0, j));
  return t;
}
double pmnb_iii_bound(int d, int M, double scan_slots) {
  return std::ceil(static_cast<double>(M) / d) + 2 * d + 4.0 * d * scan_slots - 1;
}

double pmnb_ii_exact_minislots(int d, int M, double scan_slots) {
  double t = 2.0 * d * scan_slots * d + d;
  for (int j = 1; j <= d; ++j) t += std::ceil(M / std::pow(2.0, j));
  return t;
}
double pmnb_ii_bound(int d, int M, double scan_slots) {
  const double N = std::pow(2.0, d);
  return static_cast<double>(M) / d * (N - 1) / N + 2.0 * d * scan_slots + 2;
}
int pmnb_i_m(int M) {
  int m = 0;
  while ((1 << m) < M) ++m;
  return m;
}
double pmnb_i_exact(int d, int M, double scan_slots) {
  const int m = pmnb_i_m(M);
  return 2.0 * d * scan_slots + d + (d - m) + optimal_mnb_slots(m);
}
double pmnb_i_bound(int d, int M, double scan_slots) {
  // The paper's, with M replaced by 2^m when it is not a power of 2 (its own rule); m = 0 (one
  // packet): no subcube MNB, (M - 1)/m read as 0.
  const int m = pmnb_i_m(M);
  const double mnb = m == 0 ? 0.0 : std::ceil(((1 << m) - 1.0) / m);
  return mnb + 2 * d + 2.0 * d * scan_slots - m;
}

double pmnb_a0_exact(int d, int M, double scan_slots) {
  double t = 2.0 * d * scan_slots + d;
  for (int j = 1; j <= d; ++j) t += std::ceil(M / std::pow(2.0, j));
  return t;
}
double pmnb_a0_bound(int d, int M, double scan_slots) {
  const double N = std::pow(2.0, d);
  return M * (N - 1) / N + 2.0 * d * scan_slots + 2.0 * d;
}

double mnb_exact(int d) {
  const double m = std::ceil(static_cast<double>(1 << d) / d);
  double t = d;
  for (int j = 1; j <= d; ++j) t += std::ceil(m / std::pow(2.0, j));
  return t;
}
double mnb_bound(int d) {
  return std::ceil(static_cast<double>(1 << d) / d) + 2 * d - 1;
}
double mnb_lower_bound(int d) {
  return std::ceil(((1 << d) - 1.0) / d);
}

std::vector<PmnbExampleRow> pmnb_example(int d, int M) {
  const double N = std::pow(2.0, d);
  int m = 0;
  while ((1 << m) < M) ++m;
  auto I = [&](int tp) { return pmnb_i_bound(d, M, tp); };
  auto II = [&](int tp) {
    return std::ceil(M / static_cast<double>(d) * (N - 1) / N + 2.0 * d * tp + 2);
  };
  return {{"full MNB", std::ceil((N - 1) / d), std::ceil((N - 1) / d)},
          {"I (bound)", I(1), I(0)},
          {"II (bound)", II(1), II(0)},
          {"III (bound)", pmnb_iii_bound(d, M, 1), pmnb_iii_bound(d, M, 0)},
          {"III (exact phase sum)", pmnb_iii_exact(d, M, 1), pmnb_iii_exact(d, M, 0)},
          {"lower bound", std::ceil((M - 1.0) / d), std::ceil((M - 1.0) / d)}};
}

}  // namespace sy
