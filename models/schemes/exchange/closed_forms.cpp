#include "switchyard/schemes/exchange/closed_forms.hpp"

#include <algorithm>

namespace sy {
namespace {

double binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  double r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

}  // namespace

bool is_prime(int d) {
  if (d < 2) return false;
  for (int q = 2; q * q <= d; ++q)
    if (d % q == 0) return false;
  return true;
}

double hypercube_te_delay(int d) {
  const double n = static_cast<double>(1LL << d);
  std::vector<double> m(static_cast<std::size_t>(d) + 2, 0);
  for (int i = 1; i <= d; ++i) {
    double s = i;
    for (int j = 1; j < i; ++j) s += binom(d, j) * j / d;
    m[static_cast<std::size_t>(i)] = s;
  }
  double sum = 0;
  for (int i = 1; i <= d; ++i) {
    const double mi = m[static_cast<std::size_t>(i)];
    const double Mi = i < d ? m[static_cast<std::size_t>(i) + 1] - (i + 1) : n / 2 + d - 1;
    sum += binom(d, i) * (mi + Mi);
  }
  return sum / (2 * (n - 1));
}

double hypercube_te_delay_printed(int d) {
  const double n = static_cast<double>(1LL << d);
  double a = 0;
  for (int i = 1; i <= d; ++i) {
    double inner = 0;
    for (int j = 1; j <= i; ++j) inner += binom(d, j) * j;
    a += binom(d, i) * inner;
  }
  // (2d - 1)! / ((d - 1)!)^2 = d C(2d - 1, d - 1)... computed as a ratio of factorials.
  double f = 1;
  for (int k = d; k <= 2 * d - 1; ++k) f *= k;  // (2d-1)! / (d-1)!
  for (int k = 1; k <= d - 1; ++k) f /= k;      // / (d-1)!
  return a / (d * (n - 1)) - f / (2 * d * (n - 1)) + (2 * d - 1 + (n / 2 - 1) * d) / (2 * (n - 1));
}

double ring_te_delay(int n) {
  const double x = n;
  if (n % 2) return (x + 1) * (x + 3) / 24;
  return ((x - 2) * (x - 1) * x + 6 * x * x) / (24 * (x - 1));
}

double te_delay_formula(Topology::Kind kind, const std::vector<int>& dims) {
  if (kind == Topology::Kind::Hypercube) {
    const int d = static_cast<int>(dims.size());
    return is_prime(d) ? hypercube_te_delay(d) : -1;
  }
  if (kind == Topology::Kind::Torus && dims.size() == 1 && dims[0] >= 3)
    return ring_te_delay(dims[0]);
  return -1;
}

double neighbourhood_formula(int d, int near, int far) {
  double s = 0;
  for (int i = near; i <= far; ++i) s += binom(d, i) * i / d;
  return std::max<double>(far, s);
}

}  // namespace sy
