// Butterfly (k-ary n-fly, unidirectional): n + 1 levels of k^n routers, router (row x, level l)
// at id l * k^n + x. Router (x, l < n) has k output ports: port v goes to (x with base-k digit l
// set to v, l + 1); v = digit l of x is the straight arc, the others cross (k = 2: the paper's
// straight and vertical arcs [x; j] -> [x; j+1] and [x; j] -> [x ^ e_j; j+1], with j = l + 1).
// Terminal x injects at (x, 0) and is delivered to at (x, n): the paper's separate source and
// sink of row x are one terminal here, since sources never receive and sinks never send.
// Destination-tag routing: at level l take port = digit l of the destination row; every packet
// makes exactly n hops, a packet to its own row included.
#pragma once
#include "switchyard/topology/indirect.hpp"

namespace sy {

class Butterfly : public IndirectNetwork {
 public:
  Butterfly(int k, int n);
  int k() const { return k_; }
  int n() const { return n_; }
  int rows() const { return rows_; }
  int row(int router) const { return router % rows_; }
  int level(int router) const { return router / rows_; }
  int digit(int row, int l) const { return row / pow_[l] % k_; }

  const char* kind_name() const override { return "butterfly"; }
  int num_routers() const override { return rows_ * (n_ + 1); }
  int num_terminals() const override { return rows_; }
  int num_ports() const override { return k_; }
  int neighbor(int router, int port) const override;
  int in_port(int router, int) const override { return digit(row(router), level(router)); }
  int injection_router(int terminal) const override { return terminal; }
  int ejection_router(int terminal) const override { return n_ * rows_ + terminal; }
  int ejection_terminal(int router) const override {
    return level(router) == n_ ? row(router) : -1;
  }
  int route(int router, int dst) const override {
    const int l = level(router);
    return l == n_ ? -1 : digit(dst, l);
  }
  int distance(int, int) const override { return n_; }
  int diameter() const override { return n_; }
  // Every arc carries 1/k of the packets entering its router (N/(N - 1) of them without self).
  double uniform_link_share(bool exclude_self) const override {
    const double N = rows_;
    return exclude_self && N > 1 ? N / (k_ * (N - 1.0)) : 1.0 / k_;
  }
  std::string router_name(int router) const override;
  std::string port_name(int port) const override;
  int num_link_classes() const override { return 2 * n_; }
  int link_class(int router, int port) const override {
    return 2 * level(router) + (port == digit(row(router), level(router)) ? 0 : 1);
  }
  std::string link_class_name(int cls) const override;

 private:
  int k_, n_, rows_;
  int pow_[32];
};

}  // namespace sy
