// Flattened butterfly (Kim, Dally and Abts), as BookSim2's flatfly: k^n routers, router r at
// coordinates (r mod k, r / k mod k, ...) (dimension 0 the fastest), each dimension fully
// connected: a router links to the k - 1 routers that differ from it in that coordinate only.
// Router r serves the c terminals r*c .. r*c + c - 1 (concentration c; Kim's k-ary n-flat is
// k^(n-1) routers of k terminals: here n - 1 dimensions and c = k). Ports: k per dimension by
// the coordinate they lead to, port d*k + j to coordinate j of dimension d ("d<d>:<j>"); the
// port of the router's own coordinate is unconnected. route(): dimension order, one hop per
// differing dimension (the lowest first), acyclic on one VC; a link class per dimension.
#pragma once
#include <vector>

#include "switchyard/topology/indirect.hpp"

namespace sy {

class FlatFly : public IndirectNetwork {
 public:
  FlatFly(int k, int n, int c);
  int k() const { return k_; }
  int n() const { return n_; }
  int c() const { return c_; }
  int coord(int router, int d) const { return router / pow_[d] % k_; }
  int with_coord(int router, int d, int x) const {
    return router + (x - coord(router, d)) * pow_[d];
  }
  // Router-to-router hops: the dimensions in which they differ.
  int router_distance(int a, int b) const;
  // Dimension order from router a toward router b: the port, -1 at b.
  int dor_port(int a, int b) const;

  const char* kind_name() const override { return "flatfly"; }
  int num_routers() const override { return routers_; }
  int num_terminals() const override { return routers_ * c_; }
  int num_ports() const override { return n_ * k_; }
  int neighbor(int router, int port) const override;
  int in_port(int router, int port) const override {
    return port / k_ * k_ + coord(router, port / k_);
  }
  int injection_router(int terminal) const override { return terminal / c_; }
  int ejection_router(int terminal) const override { return terminal / c_; }
  int ejection_terminal(int router) const override { return router * c_; }
  int ejection_count(int) const override { return c_; }
  int injection_index(int terminal) const override { return terminal % c_; }
  int concentration() const override { return c_; }
  int route(int router, int dst) const override { return dor_port(router, dst / c_); }
  int distance(int src, int dst) const override { return router_distance(src / c_, dst / c_); }
  int diameter() const override { return n_; }
  double average_distance(bool include_self) const override;
  double uniform_link_share(bool exclude_self) const override;
  // Every terminal of router r sends to a random terminal of the router one step further in
  // dimension 0 ((x0 + 1) mod k, the other coordinates the same): under minimal routing all c
  // terminals' traffic crosses that one link.
  int adversarial_destination(int terminal, std::uint64_t draw) const override {
    const int r = terminal / c_;
    return with_coord(r, 0, (coord(r, 0) + 1) % k_) * c_ +
           static_cast<int>((draw >> 32) * static_cast<std::uint64_t>(c_) >> 32);
  }
  std::string router_name(int router) const override;
  std::string port_name(int port) const override;
  int num_link_classes() const override { return n_; }
  int link_class(int, int port) const override { return port / k_; }
  std::string link_class_name(int cls) const override { return "d" + std::to_string(cls); }

 private:
  int k_, n_, c_, routers_ = 1;
  std::vector<int> pow_;  // k^d
};

}  // namespace sy
