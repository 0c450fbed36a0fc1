// The deterministic servers of the greedy paper's §3.3 (Stamoulis & Tsitsiklis, Lemmas 7-10),
// as references beside the model's links (test-only: the library has no PS server): the FIFO server
// with unit service (Lemma 8's recursion D_k = max(D_{k-1}, t_k) + S, exact), the processor-sharing
// server with unit work (every present customer served at rate 1/n; long double, see below), and
// the "delayed version" test of two streams (tau'_k >= tau_k for every k, the streams sorted).
// Times are in cycles, S cycles one packet time. The model's links are checked against these in
// tests/test_fifo_servers.cpp and `python3 tb/paper_checks.py lemmas`.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace sy::greedy {

// FIFO server, service S: departure times in order, for arrival times in any order.
inline std::vector<std::int64_t> fifo_departures(std::vector<std::int64_t> t, std::int64_t S) {
  std::sort(t.begin(), t.end());
  std::vector<std::int64_t> d(t.size());
  for (std::size_t k = 0; k < t.size(); ++k) d[k] = std::max(k ? d[k - 1] : t[k], t[k]) + S;
  return d;
}

// Processor-sharing server, work S per customer: departure times (in arrival order, which a
// deterministic PS server keeps). In long double: a busy period of n customers gives
// denominators up to lcm(1..n), past 64-bit (and 128-bit) rationals from n of about 40, so
// compare with a tolerance (kPsTolerance; the times are cycles, far apart from 1e-9).
constexpr long double kPsTolerance = 1e-9L;
inline std::vector<long double> ps_departures(std::vector<std::int64_t> t, std::int64_t S) {
  std::sort(t.begin(), t.end());
  std::vector<long double> out;
  std::deque<long double> finish;  // virtual finish times (attained service per customer)
  long double now = 0, V = 0;
  std::size_t i = 0;
  while (i < t.size() || !finish.empty()) {
    if (!finish.empty()) {
      const auto m = static_cast<long double>(finish.size());
      const long double dep = now + (finish.front() - V) * m;
      if (i >= t.size() || dep <= static_cast<long double>(t[i])) {
        V = finish.front();
        finish.pop_front();
        now = dep;
        out.push_back(dep);
        continue;
      }
      V += (static_cast<long double>(t[i]) - now) / m;
    }
    now = static_cast<long double>(t[i++]);
    finish.push_back(V + static_cast<long double>(S));
  }
  return out;
}

// The k (0-based) where `later` is not a delayed version of `ref`: later_k < ref_k - tol, both
// streams sorted (equal lengths; a longer stream is compared on the common prefix).
template <class A, class B>
std::vector<std::size_t> earlier_than(std::vector<A> ref, std::vector<B> later,
                                      long double tol = 0) {
  std::sort(ref.begin(), ref.end());
  std::sort(later.begin(), later.end());
  std::vector<std::size_t> bad;
  for (std::size_t k = 0; k < std::min(ref.size(), later.size()); ++k)
    if (static_cast<long double>(later[k]) < static_cast<long double>(ref[k]) - tol)
      bad.push_back(k);
  return bad;
}

}  // namespace sy::greedy
