#include "switchyard/topology/dragonfly.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace sy {

namespace {
// How many x in [lo, lo + n) have x mod c == k.
std::int64_t count_mod(std::int64_t lo, std::int64_t n, std::int64_t c, std::int64_t k) {
  const auto below = [&](std::int64_t x) { return x / c + (x % c > k ? 1 : 0); };
  return below(lo + n) - below(lo);
}
}  // namespace

Dragonfly::Dragonfly(int p, int a, int h, int g, int local_latency, int global_latency)
    : p_(p), a_(a), h_(h), g_(g), local_lat_(local_latency), global_lat_(global_latency) {
  if (p < 1 || a < 1 || h < 1 || g < 2 || g > a * h + 1)
    throw std::invalid_argument("dragonfly needs p, a, h >= 1 and 2 <= g <= a*h + 1");
}

int Dragonfly::copies(int G, int D) const {
  const int m = D < G ? D : D - 1, mb = G < D ? G : G - 1;
  const int full = a_ * h_ / (g_ - 1), rem = a_ * h_ % (g_ - 1);
  return full + (m < rem && mb < rem ? 1 : 0);
}

void Dragonfly::global_link(int G, int D, int dst, int* src_index, int* dst_index) const {
  const int m = D < G ? D : D - 1, mb = G < D ? G : G - 1;
  const int k = dst % copies(G, D);
  const int j = k * (g_ - 1) + m, jb = k * (g_ - 1) + mb;
  *src_index = j;  // (the group's port numbers; the caller divides)
  *dst_index = jb;
}

int Dragonfly::neighbor(int router, int port) const {
  const int G = router / a_, i = router % a_;
  if (port < a_ - 1) return G * a_ + (port < i ? port : port + 1);
  const int j = i * h_ + (port - (a_ - 1));
  const int m = j % (g_ - 1), k = j / (g_ - 1);
  const int T = m < G ? m : m + 1;
  const int jb = k * (g_ - 1) + (G < T ? G : G - 1);
  if (jb >= a_ * h_) return -1;
  return T * a_ + jb / h_;
}

int Dragonfly::in_port(int router, int port) const {
  const int G = router / a_, i = router % a_;
  if (port < a_ - 1) {
    const int j = port < i ? port : port + 1;
    return local_port(j, i);
  }
  const int j = i * h_ + (port - (a_ - 1));
  const int m = j % (g_ - 1), k = j / (g_ - 1);
  const int T = m < G ? m : m + 1;
  const int jb = k * (g_ - 1) + (G < T ? G : G - 1);
  return a_ - 1 + jb % h_;
}

int Dragonfly::route(int router, int dst) const {
  const int rd = dst / p_;
  if (rd == router) return -1;
  const int G = router / a_, D = rd / a_, i = router % a_;
  if (G == D) return local_port(i, rd % a_);
  int j, jb;
  global_link(G, D, dst, &j, &jb);
  return j / h_ == i ? a_ - 1 + j % h_ : local_port(i, j / h_);
}

int Dragonfly::hops(int r, int dst) const {
  const int rd = dst / p_;
  if (r == rd) return 0;
  const int G = r / a_, D = rd / a_;
  if (G == D) return 1;
  int j, jb;
  global_link(G, D, dst, &j, &jb);
  return (j / h_ != r % a_) + 1 + (jb / h_ != rd % a_);
}

int Dragonfly::arrival_router(int r, int t) const {
  const int D = group_of_terminal(t);
  int j, jb;
  global_link(r / a_, D, t, &j, &jb);
  return D * a_ + jb / h_;
}

// Over ordered terminal pairs: p - 1 (or p) at 0 hops at the router, (a - 1) p at 1 hop in the
// group; to another group, by the link (copy) a destination takes, 1 hop plus one where the
// source is not at the link's router plus one where the destination is not at its end.
double Dragonfly::average_distance(bool include_self) const {
  const std::int64_t n = static_cast<std::int64_t>(a_) * p_, N = n * g_;
  double sum = static_cast<double>(g_) * a_ * (a_ - 1) * p_ * p_;
  for (int G = 0; G < g_; ++G)
    for (int D = 0; D < g_; ++D) {
      if (D == G) continue;
      const int c = copies(G, D);
      for (int k = 0; k < c; ++k) {
        int j, jb;
        global_link(G, D, k, &j, &jb);  // (copy k: any destination d with d mod c == k)
        const std::int64_t nk = count_mod(D * n, n, c, k);
        const std::int64_t at =
            count_mod((static_cast<std::int64_t>(D) * a_ + jb / h_) * p_, p_, c, k);
        sum += static_cast<double>(nk) * static_cast<double>(n + (a_ - 1) * p_) +
               static_cast<double>(nk - at) * static_cast<double>(n);
      }
    }
  const double pairs = include_self ? static_cast<double>(N) * N : static_cast<double>(N) * (N - 1);
  return pairs > 0 ? sum / pairs : 0.0;
}

// Every terminal sends one unit spread evenly over the destinations; the loads of every link
// under route(), the busiest one's.
double Dragonfly::uniform_link_share(bool exclude_self) const {
  const int P = num_ports();
  const std::int64_t n = static_cast<std::int64_t>(a_) * p_, N = n * g_;
  std::vector<double> load(static_cast<std::size_t>(num_routers()) * P, 0.0);
  const auto at = [&](int router, int port) -> double& {
    return load[static_cast<std::size_t>(router) * P + port];
  };
  for (int G = 0; G < g_; ++G) {
    for (int i = 0; i < a_; ++i)
      for (int j = 0; j < a_; ++j)
        if (i != j) at(G * a_ + i, local_port(i, j)) += static_cast<double>(p_) * p_;
    for (int D = 0; D < g_; ++D) {
      if (D == G) continue;
      const int c = copies(G, D);
      for (int k = 0; k < c; ++k) {
        int j, jb;
        global_link(G, D, k, &j, &jb);
        const int si = j / h_, di = jb / h_;
        const double nk = static_cast<double>(count_mod(D * n, n, c, k));
        for (int i = 0; i < a_; ++i)
          if (i != si) at(G * a_ + i, local_port(i, si)) += static_cast<double>(p_) * nk;
        at(G * a_ + si, a_ - 1 + j % h_) += static_cast<double>(n) * nk;
        for (int r = 0; r < a_; ++r)
          if (r != di)
            at(D * a_ + di, local_port(di, r)) +=
                static_cast<double>(n) *
                static_cast<double>(
                    count_mod((static_cast<std::int64_t>(D) * a_ + r) * p_, p_, c, k));
      }
    }
  }
  const double busiest = load.empty() ? 0.0 : *std::max_element(load.begin(), load.end());
  return busiest / static_cast<double>(exclude_self ? N - 1 : N);
}

std::string Dragonfly::router_name(int router) const {
  return "g" + std::to_string(router / a_) + "r" + std::to_string(router % a_);
}

std::string Dragonfly::port_name(int port) const {
  return port < a_ - 1 ? "l" + std::to_string(port) : "g" + std::to_string(port - (a_ - 1));
}

}  // namespace sy
