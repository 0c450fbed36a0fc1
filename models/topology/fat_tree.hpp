// Fat tree (k-ary n-tree, Petrini and Vanneschi): n levels of k^(n-1) routers, level 0 the
// leaves; router (w, l), w a word of n - 1 base-k digits, has id l * k^(n-1) + w. Up port k + j
// of (w, l < n - 1) goes to (w with digit l set to j, l + 1), arriving at its down port = digit
// l of w; the roots' up ports are unconnected. Terminal t is served by leaf t / k (concentration
// k: its down port t mod k). Nearest-common-ancestor routing: up until the router is an
// ancestor of the destination's leaf (w agrees with it on digits l..n-2), taking up port
// k + (digit l of the destination terminal) (D-mod-k: deterministic; the k terminals of a leaf
// are reached through its k different parents, so every down link to a leaf carries one
// terminal's traffic), then down along the destination's digits. Up*/down*: deadlock-free with
// one VC. Link classes: per level pair, up and down.
#pragma once
#include "switchyard/topology/indirect.hpp"

namespace sy {

class FatTree : public IndirectNetwork {
 public:
  FatTree(int k, int n);
  int k() const { return k_; }
  int n() const { return n_; }
  int level(int router) const { return router / width_; }
  int word(int router) const { return router % width_; }
  int digit(int w, int i) const { return w / pow_[i] % k_; }
  // The level of the nearest common ancestor of two leaves (0: the same leaf).
  int nca_level(int leaf_a, int leaf_b) const;

  const char* kind_name() const override { return "fat_tree"; }
  int num_routers() const override { return width_ * n_; }
  int num_terminals() const override { return width_ * k_; }
  int num_ports() const override { return 2 * k_; }
  int neighbor(int router, int port) const override;
  int in_port(int router, int port) const override;
  int injection_router(int terminal) const override { return terminal / k_; }
  int ejection_router(int terminal) const override { return terminal / k_; }
  int ejection_terminal(int router) const override { return level(router) == 0 ? router * k_ : -1; }
  int ejection_count(int router) const override { return level(router) == 0 ? k_ : 0; }
  int injection_index(int terminal) const override { return terminal % k_; }
  int concentration() const override { return k_; }
  int route(int router, int dst) const override;
  int distance(int src, int dst) const override { return 2 * nca_level(src / k_, dst / k_); }
  int diameter() const override { return 2 * (n_ - 1); }
  double average_distance(bool include_self) const override;
  // The busiest links are a leaf's up links: its k terminals' packets to the other N - k
  // terminals, spread evenly over its k up links by destination digit (the links between higher
  // levels carry less: N - k^m of N per terminal below them).
  double uniform_link_share(bool exclude_self) const override {
    const double N = num_terminals();
    return (N - k_) / (exclude_self ? N - 1.0 : N);
  }
  std::string router_name(int router) const override;
  std::string port_name(int port) const override;
  int num_link_classes() const override { return 2 * (n_ - 1); }
  int link_class(int router, int port) const override {
    return port >= k_ ? 2 * level(router) : 2 * (level(router) - 1) + 1;
  }
  std::string link_class_name(int cls) const override;

 private:
  int k_, n_, width_ = 1;  // width_: routers per level, k^(n-1)
  int pow_[32];
};

}  // namespace sy
