#include "switchyard/topology/cmesh.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace sy {

CMesh::CMesh(std::vector<int> dims, int concentration) : dims_(std::move(dims)), c_(concentration) {
  if (dims_.empty()) throw std::invalid_argument("cmesh needs at least one dimension");
  if (c_ < 1 || c_ > 64) throw std::invalid_argument("cmesh: concentration must be 1..64");
  for (int n : dims_) {
    if (n < 1) throw std::invalid_argument("cmesh: dimension sizes must be >= 1");
    stride_.push_back(routers_);
    if (routers_ > (1 << 22) / n) throw std::invalid_argument("cmesh: more than 2^22 routers");
    routers_ *= n;
  }
  if (static_cast<long long>(routers_) * c_ > (1 << 22))
    throw std::invalid_argument("cmesh: more than 2^22 terminals");
  for (int d = 0; d < static_cast<int>(dims_.size()); ++d) {
    plus_port_.push_back(dims_[d] >= 2 ? static_cast<int>(port_dim_.size()) : -1);
    if (dims_[d] >= 2) {
      port_dim_.push_back(d);
      port_dim_.push_back(d);
    }
  }
}

int CMesh::neighbor(int router, int port) const {
  const int d = port_dim_[port];
  const int c = coord(router, d) + ((port & 1) ? -1 : 1);
  if (c < 0 || c >= dims_[d]) return -1;
  return router + ((port & 1) ? -stride_[d] : stride_[d]);
}

int CMesh::route(int router, int dst) const {
  const int to = dst / c_;
  for (int d = 0; d < static_cast<int>(dims_.size()); ++d) {
    const int a = coord(router, d), b = coord(to, d);
    if (a != b) return plus_port_[d] + (b < a ? 1 : 0);
  }
  return -1;
}

int CMesh::distance(int src, int dst) const {
  const int a = src / c_, b = dst / c_;
  int h = 0;
  for (int d = 0; d < static_cast<int>(dims_.size()); ++d) h += std::abs(coord(a, d) - coord(b, d));
  return h;
}

int CMesh::diameter() const {
  int h = 0;
  for (int n : dims_) h += n - 1;
  return h;
}

// Over ordered terminal pairs: the mean router distance, which factorizes by dimension (a pair
// of terminals at one router is at distance 0).
double CMesh::average_distance(bool include_self) const {
  double mean = 0;  // over all ordered pairs of terminals, self included
  for (int n : dims_) {
    double s = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) s += std::abs(i - j);
    mean += s / (static_cast<double>(n) * n);
  }
  const double T = num_terminals();
  if (include_self) return mean;
  return T > 1 ? mean * T / (T - 1) : 0.0;
}

// Dimension order on the router mesh: the link from i to i + 1 in dimension d carries the pairs
// whose source (terminals of a router with coordinate <= i on the line the packet travels) and
// destination (coordinate > i) straddle it: (i + 1)(n_d - i - 1) R / n_d router pairs of c^2
// terminal pairs each.
double CMesh::uniform_link_share(bool exclude_self) const {
  double pairs = 0;
  for (int n : dims_)
    for (int i = 0; i + 1 < n; ++i)
      pairs = std::max(pairs, (i + 1.0) * (n - i - 1.0) * routers_ / n * c_ * c_);
  const double T = num_terminals();
  return pairs / (exclude_self ? T - 1.0 : T);
}

std::string CMesh::router_name(int router) const {
  std::string s = "(";
  for (int d = 0; d < static_cast<int>(dims_.size()); ++d)
    s += (d ? "," : "") + std::to_string(coord(router, d));
  return s + ")";
}

std::string CMesh::port_name(int port) const {
  return "d" + std::to_string(port_dim_[port]) + ((port & 1) ? "-" : "+");
}

}  // namespace sy
