#include "schemes/pmnb/mnb.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

Schedule pmnb_iii_schedule(int d, std::vector<int> sources, int scan_slots, int packet_flits) {
  if (d < 2 || d > 16) throw UnsupportedSchedule("pmnb: hypercube dimension 2..16");
  const int N = 1 << d;
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  if (sources.empty() || sources.front() < 0 || sources.back() >= N)
    throw UnsupportedSchedule("pmnb: 1..N distinct source nodes");
  const int M = static_cast<int>(sources.size());
  Schedule s;
  s.algorithm = "pmnb";
  s.variant = "algorithm III, M = " + std::to_string(M) + ", scans of " +
              std::to_string(scan_slots) + " slot(s) per step";
  s.kind = Topology::Kind::Hypercube;
  s.dims.assign(static_cast<std::size_t>(d), 2);
  s.timing = ScheduleTiming::Slots;
  s.message_flits = s.packet_flits = packet_flits;
  s.unit_flits = packet_flits;
  s.returns_allowed = true;
  // Items: the M broadcast packets, then the scan messages (one per node and step).
  for (int src : sources) {
    s.item_flits.push_back(packet_flits);
    s.item_source.push_back(src);
    s.item_dest.push_back(-1);
  }
  auto hop = [&](int from, int item, int dim, int slot) {
    Transmission t;
    t.sender = from;
    t.item = item;
    t.path.push_back({dim, 0});
    t.slots.push_back(slot);
    s.transmissions.push_back(std::move(t));
  };
  // Two parallel-prefix scans (the natural-order rank, then the rank within each class in
  // rotated order), each d up-sweep and d down-sweep steps in which every node sends a message
  // of scan_slots slots to its neighbour across one dimension: real messages on the model.
  int slot = 0;
  if (scan_slots > 0) {
    for (int scan = 0; scan < 2; ++scan)
      for (int step = 0; step < 2 * d; ++step) {
        const int dim = step < d ? step : 2 * d - 1 - step;
        for (int v = 0; v < N; ++v) {
          s.item_flits.push_back(packet_flits * scan_slots);
          s.item_source.push_back(v);
          s.item_dest.push_back(v ^ (1 << dim));
          hop(v, static_cast<int>(s.item_flits.size()) - 1, dim, slot);
        }
        slot += scan_slots;
      }
  }
  const int base = slot;
  // held[c][node]: the class-c packets a node holds (items), after packing and each subphase.
  // Class c: the sources whose natural rank is c mod d; ranked within the class by the id
  // rotated right by c, packed to the rank rotated left by c, dimension (i + c) mod d at step i.
  std::vector<std::vector<std::vector<int>>> held(
      static_cast<std::size_t>(d), std::vector<std::vector<int>>(static_cast<std::size_t>(N)));
  for (int c = 0; c < d; ++c) {
    std::vector<int> members;  // items
    for (int r = c; r < M; r += d) members.push_back(r);
    std::sort(members.begin(), members.end(), [&](int a, int b) {
      return rotr(sources[static_cast<std::size_t>(a)], c, d) <
             rotr(sources[static_cast<std::size_t>(b)], c, d);
    });
    for (std::size_t q = 0; q < members.size(); ++q) {
      const int item = members[q], target = rotl(static_cast<int>(q), c, d);
      int v = sources[static_cast<std::size_t>(item)];
      for (int i = 0; i < d; ++i) {
        const int dim = (i + c) % d;
        if (((v ^ target) >> dim) & 1) {
          hop(v, item, dim, base + i);
          v ^= 1 << dim;
        }
      }
      held[static_cast<std::size_t>(c)][static_cast<std::size_t>(target)].push_back(item);
    }
  }
  slot = base + d;
  for (int l = 1; l <= d; ++l) {
    int len = 0;
    std::vector<std::vector<std::vector<int>>> next = held;
    for (int c = 0; c < d; ++c) {
      const int dim = (d - l + c) % d;
      for (int v = 0; v < N; ++v) {
        const auto& mine = held[static_cast<std::size_t>(c)][static_cast<std::size_t>(v)];
        len = std::max(len, static_cast<int>(mine.size()));
        for (std::size_t j = 0; j < mine.size(); ++j) {
          hop(v, mine[j], dim, slot + static_cast<int>(j));
          next[static_cast<std::size_t>(c)][static_cast<std::size_t>(v ^ (1 << dim))].push_back(
              mine[j]);
        }
      }
    }
    held.swap(next);
    slot += len;
  }
  s.phases = slot;
  return s;
}

double pmnb_iii_exact(int d, int M, int scan_slots) {
  const double m = std::ceil(static_cast<double>(M) / d);
  double t = 4.0 * d * scan_slots + d;
  for (int j = 1; j <= d; ++j) t += std::ceil(m / std::pow(2.0, j));
  return t;
}
double pmnb_iii_bound(int d, int M, int scan_slots) {
  return std::ceil(static_cast<double>(M) / d) + 2 * d + 4.0 * d * scan_slots - 1;
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
  auto I = [&](int tp) { return std::ceil((M - 1.0) / m) + 2 * d + 2.0 * d * tp - m; };
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
