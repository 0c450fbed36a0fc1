#include "switchyard/topology/fat_tree.hpp"

#include <stdexcept>
#include <string>

namespace sy {

FatTree::FatTree(int k, int n) : k_(k), n_(n) {
  if (k < 2 || k > 32 || n < 1 || n > 20)
    throw std::invalid_argument("fat tree needs 2 <= k <= 32 and 1 <= n <= 20");
  for (int i = 0; i + 1 < n; ++i) {
    pow_[i] = width_;
    if (width_ > (1 << 22) / k / k) throw std::invalid_argument("fat tree: too many routers");
    width_ *= k;
  }
  pow_[n - 1] = width_;
}

int FatTree::nca_level(int a, int b) const {
  int m = 0;
  for (int i = 0; i + 1 < n_; ++i)
    if (digit(a, i) != digit(b, i)) m = i + 1;
  return m;
}

int FatTree::neighbor(int router, int port) const {
  const int l = level(router), w = word(router);
  if (port >= k_) {  // up
    if (l == n_ - 1) return -1;
    const int j = port - k_;
    return (l + 1) * width_ + w + (j - digit(w, l)) * pow_[l];
  }
  if (l == 0) return -1;  // a leaf's down ports are its terminals'
  return (l - 1) * width_ + w + (port - digit(w, l - 1)) * pow_[l - 1];
}

int FatTree::in_port(int router, int port) const {
  const int l = level(router), w = word(router);
  return port >= k_ ? digit(w, l) : k_ + digit(w, l - 1);
}

int FatTree::route(int router, int dst) const {
  const int l = level(router), w = word(router), leaf = dst / k_;
  bool ancestor = true;
  for (int i = l; i + 1 < n_ && ancestor; ++i) ancestor = digit(w, i) == digit(leaf, i);
  if (!ancestor) return k_ + dst / pow_[l] % k_;  // digit l of the destination terminal
  return l == 0 ? -1 : digit(leaf, l - 1);
}

// Over ordered terminal pairs: from a terminal, k - 1 others at its leaf (0 hops) and
// (k - 1) k^m terminals whose leaves meet it at level m (2m hops), m = 1 .. n - 1.
double FatTree::average_distance(bool include_self) const {
  double sum = 0, count = k_;  // the k terminals at the leaf, itself included
  double at = k_;
  for (int m = 1; m < n_; ++m) {
    const double c = (k_ - 1.0) * at;  // terminals first meeting at level m
    sum += c * 2 * m;
    count += c;
    at *= k_;
  }
  return include_self ? sum / count : count > 1 ? sum / (count - 1) : 0.0;
}

std::string FatTree::router_name(int router) const {
  return "(" + std::to_string(word(router)) + "," + std::to_string(level(router)) + ")";
}

std::string FatTree::port_name(int port) const {
  return port >= k_ ? "up" + std::to_string(port - k_) : "down" + std::to_string(port);
}

std::string FatTree::link_class_name(int cls) const {
  return "level" + std::to_string(cls / 2) + (cls % 2 ? ".down" : ".up");
}

}  // namespace sy
