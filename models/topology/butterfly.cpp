#include "switchyard/topology/butterfly.hpp"

#include <stdexcept>
#include <string>

namespace sy {

Butterfly::Butterfly(int k, int n) : k_(k), n_(n), rows_(1) {
  if (k < 2 || n < 1 || n > 30)
    throw std::invalid_argument("butterfly needs k >= 2 and 1 <= n <= 30");
  for (int l = 0; l < n; ++l) {
    pow_[l] = rows_;
    if (rows_ > (1 << 22) / k) throw std::invalid_argument("butterfly: more than 2^22 rows");
    rows_ *= k;
  }
}

int Butterfly::neighbor(int router, int port) const {
  const int l = level(router), x = row(router);
  if (l == n_ || port < 0 || port >= k_) return -1;
  const int y = x + (port - digit(x, l)) * pow_[l];
  return (l + 1) * rows_ + y;
}

std::string Butterfly::router_name(int router) const {
  return "(" + std::to_string(row(router)) + "," + std::to_string(level(router)) + ")";
}

std::string Butterfly::port_name(int port) const {
  return "v" + std::to_string(port);
}

std::string Butterfly::link_class_name(int cls) const {
  return "level" + std::to_string(cls / 2) +
         (cls % 2 ? (k_ == 2 ? ".vertical" : ".cross") : ".straight");
}

}  // namespace sy
