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
  const int N = 1 << d;
  Schedule s;
  s.algorithm = "mnb";
  s.variant = "new MNB (algorithm III, M = N)";
  s.kind = Topology::Kind::Hypercube;
  s.dims.assign(static_cast<std::size_t>(d), 2);
  s.timing = ScheduleTiming::Slots;
  s.message_flits = s.packet_flits = packet_flits;
  s.returns_allowed = true;
  s.item_flits.assign(static_cast<std::size_t>(N), packet_flits);
  s.item_source.resize(static_cast<std::size_t>(N));
  s.item_dest.assign(static_cast<std::size_t>(N), -1);
  for (int i = 0; i < N; ++i) s.item_source[static_cast<std::size_t>(i)] = i;
  auto hop = [&](int from, int item, int dim, int slot) {
    Transmission t;
    t.sender = from;
    t.item = item;
    t.path.push_back({dim, 0});
    t.slots.push_back(slot);
    s.transmissions.push_back(std::move(t));
  };
  // held[c][node]: the class-c packets a node holds (items), after packing and each subphase.
  std::vector<std::vector<std::vector<int>>> held(
      static_cast<std::size_t>(d), std::vector<std::vector<int>>(static_cast<std::size_t>(N)));
  for (int c = 0; c < d; ++c) {
    std::vector<int> members;
    for (int x = c; x < N; x += d) members.push_back(x);
    std::sort(members.begin(), members.end(),
              [&](int a, int b) { return rotr(a, c, d) < rotr(b, c, d); });
    for (std::size_t q = 0; q < members.size(); ++q) {
      const int item = members[q], target = rotl(static_cast<int>(q), c, d);
      int v = item;
      for (int i = 0; i < d; ++i) {
        const int dim = (i + c) % d;
        if (((v ^ target) >> dim) & 1) {
          hop(v, item, dim, i);
          v ^= 1 << dim;
        }
      }
      held[static_cast<std::size_t>(c)][static_cast<std::size_t>(target)].push_back(item);
    }
  }
  int slot = d;
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

}  // namespace sy
