#include "switchyard/topology/flatfly.hpp"

#include <stdexcept>
#include <string>

namespace sy {

FlatFly::FlatFly(int k, int n, int c) : k_(k), n_(n), c_(c) {
  if (k < 2 || k > 64 || n < 1 || n > 20 || c < 1 || c > 64)
    throw std::invalid_argument("flatfly needs 2 <= k <= 64, 1 <= n <= 20, 1 <= c <= 64");
  for (int d = 0; d < n; ++d) {
    pow_.push_back(routers_);
    if (routers_ > (1 << 20) / k / c) throw std::invalid_argument("flatfly: too many terminals");
    routers_ *= k;
  }
}

int FlatFly::router_distance(int a, int b) const {
  int h = 0;
  for (int d = 0; d < n_; ++d) h += coord(a, d) != coord(b, d);
  return h;
}

int FlatFly::dor_port(int a, int b) const {
  for (int d = 0; d < n_; ++d) {
    const int t = coord(b, d);
    if (coord(a, d) != t) return d * k_ + t;
  }
  return -1;
}

int FlatFly::neighbor(int router, int port) const {
  const int d = port / k_, j = port % k_;
  return coord(router, d) == j ? -1 : with_coord(router, d, j);
}

// Over ordered terminal pairs, the routers are independent and uniform: each dimension differs
// with probability (k - 1) / k. The N self pairs (0 hops) out: the sum over N (N - 1) pairs.
double FlatFly::average_distance(bool include_self) const {
  const double mean = n_ * (k_ - 1.0) / k_, N = num_terminals();
  return include_self ? mean : N > 1 ? mean * N / (N - 1) : 0.0;
}

// Dimension order: the link from a to b in dimension d carries the packets from the k^d routers
// that agree with a in dimensions d.. to the k^(n-1-d) routers that agree with b in dimensions
// ..d: k^(n-1) router pairs, c x c terminal pairs, each 1/N (1/(N-1)) of a terminal's load.
double FlatFly::uniform_link_share(bool exclude_self) const {
  const double N = num_terminals();
  return double(c_) * c_ * (routers_ / k_) / (exclude_self ? N - 1.0 : N);
}

std::string FlatFly::router_name(int router) const {
  std::string s = "(";
  for (int d = 0; d < n_; ++d) s += (d ? "," : "") + std::to_string(coord(router, d));
  return s + ")";
}

std::string FlatFly::port_name(int port) const {
  return "d" + std::to_string(port / k_) + ":" + std::to_string(port % k_);
}

}  // namespace sy
