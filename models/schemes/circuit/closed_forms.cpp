#include "switchyard/schemes/circuit/closed_forms.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace sy {

namespace {

double pow2(int e) {
  return std::ldexp(1.0, e);
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

}  // namespace

TimeTerms paper_tiling_5k(int k, double L) {
  require(k >= 1, "paper_tiling_5k: k >= 1");
  return {2.0 * k, std::pow(5.0, k) - 1, 2.0 * k * L};
}

TimeTerms paper_tiling(const std::vector<int>& dims, TilingVariant v, double L) {
  require(dims.size() == 2, "paper_tiling: two dimensions");
  const int a = std::min(dims[0], dims[1]), b = std::max(dims[0], dims[1]);
  if (a == 10 && b == 10) {
    const double d = v == TilingVariant::Slanting ? 10 : v == TilingVariant::BossBlocks ? 11 : 14;
    return {3, d, 3 * L};
  }
  if (a == 5 && b == 10) return {3, 8, 3 * L};
  int k = 0, n = 1;
  while (n < a) n *= 5, ++k;
  if (a == b && n == a && k >= 1) return paper_tiling_5k(k, L);
  throw std::invalid_argument(
      "paper_tiling: the paper prices 5^k x 5^k, 10x10 and 5x10 only, not " +
      circuit_detail::size_name(dims));
}

TimeTerms tiling_terms(const std::vector<int>& dims, TilingVariant v, double L) {
  int a = 0, b0 = 0, a1 = 0, b1 = 0;
  int n0 = dims.size() == 2 ? dims[0] : 0, n1 = dims.size() == 2 ? dims[1] : 0;
  while (n0 > 0 && n0 % 5 == 0) n0 /= 5, ++a;
  while (n0 > 0 && n0 % 2 == 0) n0 /= 2, ++b0;
  while (n1 > 0 && n1 % 5 == 0) n1 /= 5, ++a1;
  while (n1 > 0 && n1 % 2 == 0) n1 /= 2, ++b1;
  if (n0 != 1 || n1 != 1 || a != a1 || dims[0] < 3 || dims[1] < 3)
    tiling(dims, 0, 1, v);  // throws the generator's UnsupportedSchedule
  const int blocks = std::min(b0, b1);
  std::vector<int> twos;
  for (int i = 0; i < b0 - blocks; ++i) twos.push_back(2);
  for (int i = 0; i < b1 - blocks; ++i) twos.push_back(3);
  for (int i = 0; i < blocks; ++i) twos.push_back(1);
  std::vector<int> kinds;  // innermost first: 0 S level, 1 2x2 block, 2/3 1x2 pair in dim 0/1
  if (v == TilingVariant::BlocksFirst) {
    kinds.assign(a, 0);
    kinds.insert(kinds.end(), twos.rbegin(), twos.rend());
  } else {
    kinds = twos;
    kinds.insert(kinds.end(), a, 0);
  }
  TimeTerms t;
  int s0 = 1, s1 = 1;
  for (int kind : kinds) {
    switch (kind) {
      case 0:
        t.alpha_terms += 2;
        t.delta_terms += std::max(s0 + 2 * s1, 2 * s0 + s1) + std::max(s0, s1);
        s0 *= 5, s1 *= 5;
        break;
      case 1:
        t.alpha_terms += 1;
        t.delta_terms += v == TilingVariant::BossBlocks ? 2 * s0 + s1 : s0 + s1;
        s0 *= 2, s1 *= 2;
        break;
      case 2:
        t.alpha_terms += 1, t.delta_terms += s0, s0 *= 2;
        break;
      case 3:
        t.alpha_terms += 1, t.delta_terms += s1, s1 *= 2;
        break;
    }
  }
  t.tau_flits = t.alpha_terms * L;
  return t;
}

TimeTerms dc_terms(int k, double L, double B) {
  const double P = L / B;
  return {k + P - 1, pow2(k - 1) * (P + 1), (k + P - 1) * B};
}

double dc_time(int k, const CircuitCost& c, double L, double B) {
  return dc_terms(k, L, B).eval(c);
}

double dc_optimal_packet(int k, const CircuitCost& c, double L) {
  require(k >= 2, "dc_optimal_packet: k >= 2");
  return std::sqrt((c.alpha + pow2(k - 1) * c.delta) * L / ((k - 1) * c.tau));
}

double dc_optimal_time(int k, const CircuitCost& c, double L) {
  const double r = std::sqrt((k - 1) * (c.alpha + pow2(k - 1) * c.delta)) + std::sqrt(L * c.tau);
  return r * r - (k - 2) * pow2(k - 1) * c.delta;
}

TimeTerms htrees_terms(int k, double L, double B) {
  const double P = L / (2 * B);
  return {2.0 * k + P - 2, pow2(k - 2) * (P + 3) - 1, (2.0 * k + P - 2) * B};
}

double htrees_time(int k, const CircuitCost& c, double L, double B) {
  return htrees_terms(k, L, B).eval(c);
}

TimeTerms htrees_late_terms(const TimeTerms& tb, int late, double b, const CircuitCost& c) {
  const TimeTerms relaxed{tb.alpha_terms - 1, tb.delta_terms + late, tb.tau_flits - b};
  return late > 0 && relaxed.eval(c) > tb.eval(c) ? relaxed : tb;
}

double htrees_optimal_packet(int k, const CircuitCost& c, double L) {
  require(k >= 2, "htrees_optimal_packet: k >= 2");
  return std::sqrt((c.alpha + pow2(k - 2) * c.delta) * L / (4.0 * (k - 1) * c.tau));
}

double htrees_optimal_time(int k, const CircuitCost& c, double L) {
  const double r =
      std::sqrt(2.0 * (k - 1) * (c.alpha + pow2(k - 2) * c.delta)) + std::sqrt(L * c.tau / 2);
  return r * r - ((2 * k - 5) * pow2(k - 2) + 1) * c.delta;
}

TimeTerms sf_terms(int h, double L, double B) {
  const double phases = h - 1 + L / (4 * B);
  return {phases, phases, phases * B};
}

double sf_time(int h, const CircuitCost& c, double L, double B) {
  return sf_terms(h, L, B).eval(c);
}

double sf_optimal_packet(int h, const CircuitCost& c, double L) {
  require(h >= 2, "sf_optimal_packet: h >= 2");
  return std::sqrt((c.alpha + c.delta) * L / (4.0 * (h - 1) * c.tau));
}

double sf_optimal_time(int h, const CircuitCost& c, double L) {
  const double r = std::sqrt((h - 1) * (c.alpha + c.delta)) + std::sqrt(L * c.tau / 4);
  return r * r;
}

TimeTerms pipeline_last_terms(const std::vector<int>& level_hops, int P, double B, double b,
                              const CircuitCost& c) {
  require(!level_hops.empty() && P >= 1 && b >= 1 && b <= B,
          "pipeline_last_terms: levels, P >= 1, 1 <= b <= B");
  const int n = static_cast<int>(level_hops.size());
  double rest = 0;  // h_2 + ... + h_n
  for (int m = 1; m < n; ++m) rest += level_hops[static_cast<std::size_t>(m)];
  int best = 0;
  double best_value = -1;
  for (int m = 0; m < n; ++m) {  // 0-based: level m + 1
    const double v = m * (B - b) * c.tau + level_hops[static_cast<std::size_t>(m)] * c.delta;
    if (v > best_value) best_value = v, best = m;
  }
  const double h1 = level_hops.front();
  return {P - 1.0 + n, (P - 1.0) * h1 + rest + level_hops[static_cast<std::size_t>(best)],
          (P - 1.0) * B + n * b + best * (B - b)};
}

std::vector<int> dc_level_hops(int k) {
  require(k >= 2, "dc_level_hops: k >= 2");
  std::vector<int> h;
  for (int i = 1; i <= k - 1; ++i) h.push_back(1 << (k - i));
  h.push_back(2);
  return h;
}

std::vector<int> htrees_level_hops(int k) {
  require(k >= 2, "htrees_level_hops: k >= 2");
  std::vector<int> h;
  for (int s = k - 2; s >= 0; --s) h.insert(h.end(), 2, 1 << s);
  h.push_back(1);
  return h;
}

std::vector<int> sf_level_hops(int h) {
  require(h >= 1, "sf_level_hops: h >= 1");
  return std::vector<int>(static_cast<std::size_t>(h), 1);
}

int torus_diameter(const std::vector<int>& dims) {
  int d = 0;
  for (int n : dims) d += n / 2;
  return d;
}

double paper_sf_time(const std::vector<int>& dims, const CircuitCost& c, double L) {
  return sf_optimal_time(torus_diameter(dims) + 1, c, L);
}

int min_phases(const std::vector<int>& dims) {
  long long N = 1;
  for (int n : dims) N *= n;
  int k = 0;
  for (long long reach = 1; reach < N; reach *= 5) ++k;  // ceil(log_5 N), exactly
  return k;
}

double LowerBound::value() const {
  return std::max({startup, switching, propagation, reach});
}

LowerBound proposition1(const std::vector<int>& dims, const CircuitCost& c, double L) {
  require(dims.size() == 2 && dims[0] >= 3 && dims[1] >= 3,
          "proposition1: a 2-D torus, sides >= 3");
  const int D = torus_diameter(dims);
  LowerBound b;
  b.startup = min_phases(dims) * c.alpha;
  b.switching = D * c.delta;
  b.propagation = L * c.tau / 4;
  b.reach = c.alpha + D * c.delta + L * c.tau / 4;
  return b;
}

double corollary1(int n, const CircuitCost& c, double L) {
  const LowerBound b = proposition1({n, n}, c, L);
  return std::max(b.startup, b.reach);
}

}  // namespace sy
