// The deterministic servers of the greedy paper's §3.3 (Stamoulis & Tsitsiklis, Lemmas 7-10),
// as exact references beside the model's links: the FIFO server with unit service (Lemma 8's
// recursion D_k = max(D_{k-1}, t_k) + S), the processor-sharing server with unit work (every
// present customer served at rate 1/n; exact, in rationals), and the "delayed version" test of
// two streams (tau'_k >= tau_k for every k, the streams sorted). Times are in cycles, S cycles
// one packet time. The model's links are checked against these in tests/test_fifo_servers.cpp
// and `python3 tb/paper_checks.py lemmas`.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <numeric>
#include <vector>

namespace sy::greedy {

// An exact rational (PS departures have denominators up to the lcm of the queue lengths).
struct Ratio {
  __int128 n = 0, d = 1;
  Ratio() = default;
  Ratio(std::int64_t v) : n(v) {}  // NOLINT: an integer is a ratio
  Ratio(__int128 num, __int128 den) : n(num), d(den) {
    if (d < 0) n = -n, d = -d;
    const __int128 g = gcd(n < 0 ? -n : n, d);
    if (g > 1) n /= g, d /= g;
  }
  static __int128 gcd(__int128 a, __int128 b) {
    while (b) {
      const __int128 t = a % b;
      a = b;
      b = t;
    }
    return a ? a : 1;
  }
  friend Ratio operator+(Ratio a, Ratio b) { return {a.n * b.d + b.n * a.d, a.d * b.d}; }
  friend Ratio operator-(Ratio a, Ratio b) { return {a.n * b.d - b.n * a.d, a.d * b.d}; }
  friend Ratio operator*(Ratio a, std::int64_t k) { return {a.n * k, a.d}; }
  friend Ratio operator/(Ratio a, std::int64_t k) { return {a.n, a.d * k}; }
  friend bool operator<(Ratio a, Ratio b) { return a.n * b.d < b.n * a.d; }
  friend bool operator<=(Ratio a, Ratio b) { return !(b < a); }
  friend bool operator==(Ratio a, Ratio b) { return a.n == b.n && a.d == b.d; }
  double value() const { return static_cast<double>(n) / static_cast<double>(d); }
};

// FIFO server, service S: departure times in order, for arrival times in any order.
inline std::vector<std::int64_t> fifo_departures(std::vector<std::int64_t> t, std::int64_t S) {
  std::sort(t.begin(), t.end());
  std::vector<std::int64_t> d(t.size());
  for (std::size_t k = 0; k < t.size(); ++k) d[k] = std::max(k ? d[k - 1] : t[k], t[k]) + S;
  return d;
}

// Processor-sharing server, work S per customer: departure times (in arrival order, which a
// deterministic PS server keeps), exact.
inline std::vector<Ratio> ps_departures(std::vector<std::int64_t> t, std::int64_t S) {
  std::sort(t.begin(), t.end());
  std::vector<Ratio> out;
  std::deque<Ratio> finish;  // virtual finish times (attained service per customer)
  Ratio now = 0, V = 0;
  std::size_t i = 0;
  while (i < t.size() || !finish.empty()) {
    if (!finish.empty()) {
      const auto m = static_cast<std::int64_t>(finish.size());
      const Ratio dep = now + (finish.front() - V) * m;
      if (i >= t.size() || dep <= Ratio(t[i])) {
        V = finish.front();
        finish.pop_front();
        now = dep;
        out.push_back(dep);
        continue;
      }
      V = V + (Ratio(t[i]) - now) / m;
    }
    now = t[i++];
    finish.push_back(V + S);
  }
  return out;
}

// The k (0-based) where `later` is not a delayed version of `ref`: later_k < ref_k, both streams
// sorted (equal lengths; a longer stream is compared on the common prefix).
template <class A, class B>
std::vector<std::size_t> earlier_than(std::vector<A> ref, std::vector<B> later) {
  std::sort(ref.begin(), ref.end());
  std::sort(later.begin(), later.end());
  std::vector<std::size_t> bad;
  for (std::size_t k = 0; k < std::min(ref.size(), later.size()); ++k)
    if (later[k] < ref[k]) bad.push_back(k);
  return bad;
}

}  // namespace sy::greedy
