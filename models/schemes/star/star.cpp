#include "switchyard/schemes/star/star.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sy {

// --- StarRule -----------------------------------------------------------------------------------

StarRule::StarRule(const Topology& topo) {
  if (topo.kind() == Topology::Kind::Mesh)
    throw std::invalid_argument("STAR broadcast trees need a torus or a hypercube, not a mesh");
  const int d = topo.num_dims();
  int stride = 1;
  for (int k = 0; k < d; ++k) {
    const int n = topo.size(k);
    if (n == 2 && !topo.single_link(k))
      throw std::invalid_argument(
          "STAR broadcast trees: a size-2 dimension of one link (not size2_links 2)");
    n_.push_back(n);
    stride_.push_back(stride);
    stride *= n;
    if (n == 2) {
      plus_.push_back(topo.port_of(k, 0));
      minus_.push_back(topo.port_of(k, 0));
    } else if (n >= 3) {
      plus_.push_back(topo.port_of(k, +1));
      minus_.push_back(topo.port_of(k, -1));
    } else {
      plus_.push_back(-1);
      minus_.push_back(-1);
    }
    reach_lo_.push_back((n - 1) / 2);  // an odd ring's side, or the even ring's short side
    reach_hi_.push_back(n / 2);        // the even ring's side that reaches the antipode
  }
  for (int p = 0; p < topo.num_ports(); ++p) {
    port_dim_.push_back(topo.port(p).dim);
    port_dir_.push_back(topo.port(p).dir);
  }
}

int StarRule::children(int node, int src, int ending_dim, int in_port, int* out_ports,
                       int antipode_dir) const {
  const int d = num_dims();
  int count = 0;
  int q = 0;  // rotation position of the first dimension to start: l+1 -> 0, ..., l -> d-1
  if (in_port >= 0 && in_port < num_ports()) {
    const int k = port_dim_[in_port];
    const int n = n_[k];
    if (n >= 3) {
      // The copy arrived on the port facing the upstream node: it travels the other way.
      const int travel = -port_dir_[in_port];
      const int c = (node / stride_[k]) % n, s = (src / stride_[k]) % n;
      int off = (c - s) * travel % n;  // hops already made along this ring
      if (off < 0) off += n;
      const bool antipode_side = (n % 2 == 0) && (travel > 0) == (antipode_dir > 0);
      if (off < (antipode_side ? reach_hi_[k] : reach_lo_[k]))
        out_ports[count++] = travel > 0 ? plus_[k] : minus_[k];
    }
    q = k - ending_dim - 1;
    if (q < 0) q += d;
    ++q;
  }
  int j = ending_dim + 1 + q;
  if (j >= d) j -= d;
  for (; q < d; ++q) {
    const int n = n_[j];
    if (n >= 3) {
      out_ports[count++] = plus_[j];
      out_ports[count++] = minus_[j];
    } else if (n == 2) {
      out_ports[count++] = plus_[j];
    }
    if (++j == d) j = 0;
  }
  return count;
}

// --- Balance ------------------------------------------------------------------------------------

namespace {

void check_dims(const std::vector<int>& dims) {
  if (dims.empty()) throw std::invalid_argument("star: a torus needs at least one dimension");
  for (int n : dims)
    if (n < 1) throw std::invalid_argument("star: dimension sizes must be >= 1");
}

void check_rates(double lambda_b, double lambda_r) {
  if (!(lambda_b >= 0) || !(lambda_r >= 0) || !std::isfinite(lambda_b) || !std::isfinite(lambda_r))
    throw std::invalid_argument("star: rates must be finite and >= 0");
}

double num_nodes(const std::vector<int>& dims) {
  double N = 1;
  for (int n : dims) N *= n;
  return N;
}

// Solves A x = b (A square, row-major) by Gaussian elimination with partial pivoting.
// Returns false when A is (numerically) singular.
bool solve_linear(std::vector<std::vector<double>> A, std::vector<double> b,
                  std::vector<double>& x) {
  const int m = static_cast<int>(b.size());
  double scale = 0;
  for (const auto& row : A)
    for (double v : row) scale = std::max(scale, std::abs(v));
  for (int c = 0; c < m; ++c) {
    int piv = c;
    for (int r = c + 1; r < m; ++r)
      if (std::abs(A[r][c]) > std::abs(A[piv][c])) piv = r;
    if (std::abs(A[piv][c]) <= 1e-13 * scale) return false;
    std::swap(A[piv], A[c]);
    std::swap(b[piv], b[c]);
    for (int r = c + 1; r < m; ++r) {
      const double f = A[r][c] / A[c][c];
      if (f == 0) continue;
      for (int k = c; k < m; ++k) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  x.assign(m, 0.0);
  for (int r = m - 1; r >= 0; --r) {
    double s = b[r];
    for (int k = r + 1; k < m; ++k) s -= A[r][k] * x[k];
    x[r] = s / A[r][r];
  }
  return true;
}

// Minimax over the probability simplex: the x (x >= 0, sum x = 1) minimising max_i (M x)_i for
// a matrix M with positive entries. As a matrix game: with y = x / v (v the game value),
// maximise sum y subject to M y <= 1, y >= 0, whose origin is feasible, so a one-phase
// simplex from the slack basis suffices (Bland's rule: no cycling).
std::vector<double> minimax_simplex(std::vector<std::vector<double>> M) {
  const int m = static_cast<int>(M.size());
  double mx = 0;
  for (const auto& row : M)
    for (double v : row) mx = std::max(mx, v);
  for (auto& row : M)
    for (double& v : row) v /= mx;  // scale-free: x does not depend on it
  const int cols = 2 * m + 1, rhs = 2 * m;
  std::vector<std::vector<double>> T(m, std::vector<double>(cols, 0.0));
  std::vector<int> basis(m);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) T[i][j] = M[i][j];
    T[i][m + i] = 1;
    T[i][rhs] = 1;
    basis[i] = m + i;
  }
  std::vector<double> cost(cols, 0.0);  // reduced costs of the maximisation
  for (int j = 0; j < m; ++j) cost[j] = 1;
  const double eps = 1e-12;
  for (int iter = 0; iter < 100000; ++iter) {
    int e = -1;
    for (int j = 0; j < 2 * m && e < 0; ++j)
      if (cost[j] > eps) e = j;
    if (e < 0) break;
    int r = -1;
    double best = 0;
    for (int i = 0; i < m; ++i) {
      if (T[i][e] <= eps) continue;
      const double ratio = T[i][rhs] / T[i][e];
      if (r < 0 || ratio < best - eps || (ratio <= best + eps && basis[i] < basis[r])) {
        r = i;
        best = ratio;
      }
    }
    if (r < 0) break;  // unbounded: impossible for positive M
    const double p = T[r][e];
    for (double& v : T[r]) v /= p;
    for (int i = 0; i < m; ++i) {
      if (i == r || T[i][e] == 0) continue;
      const double f = T[i][e];
      for (int j = 0; j < cols; ++j) T[i][j] -= f * T[r][j];
    }
    const double f = cost[e];
    for (int j = 0; j < cols; ++j) cost[j] -= f * T[r][j];
    basis[r] = e;
  }
  std::vector<double> y(m, 0.0);
  for (int i = 0; i < m; ++i)
    if (basis[i] < m) y[basis[i]] = std::max(0.0, T[i][rhs]);
  double sum = 0;
  for (double v : y) sum += v;
  for (double& v : y) v /= sum;
  return y;
}

struct BalanceSystem {
  std::vector<int> active;             // dimensions of size >= 2
  std::vector<std::vector<double>> A;  // A[i][j] = a_{active[i], active[j]} (Eq. (1))
  std::vector<double> D, links;        // per active dimension
  double N = 1, D_ave = 0, d_ave = 0;
};

BalanceSystem make_system(const std::vector<int>& dims, StarHops hops = StarHops::Exact) {
  check_dims(dims);
  BalanceSystem s;
  s.N = num_nodes(dims);
  const std::vector<int> lk = star_links_per_node(dims);
  const std::vector<double> D =
      hops == StarHops::Paper ? star_unicast_hops_paper(dims) : star_unicast_hops(dims);
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    s.d_ave += lk[i];
    s.D_ave += D[i];
    if (dims[i] >= 2) s.active.push_back(i);
  }
  const int m = static_cast<int>(s.active.size());
  s.A.assign(m, std::vector<double>(m, 0.0));
  for (int j = 0; j < m; ++j) {
    const std::vector<double> col = star_dim_transmissions(dims, s.active[j]);
    for (int i = 0; i < m; ++i) s.A[i][j] = col[s.active[i]];
  }
  for (int i : s.active) {
    s.D.push_back(D[i]);
    s.links.push_back(lk[i]);
  }
  return s;
}

}  // namespace

std::vector<int> star_links_per_node(const std::vector<int>& dims) {
  check_dims(dims);
  std::vector<int> l;
  for (int n : dims) l.push_back(n >= 3 ? 2 : n == 2 ? 1 : 0);
  return l;
}

std::vector<double> star_dim_transmissions(const std::vector<int>& dims, int ending_dim) {
  check_dims(dims);
  const int d = static_cast<int>(dims.size());
  if (ending_dim < 0 || ending_dim >= d) throw std::invalid_argument("star: bad ending dimension");
  // Eq. (1): walking the rotated order, dimension j is covered from prod (sizes before it)
  // nodes, each sending n_j - 1 copies along its ring.
  std::vector<double> a(d, 0.0);
  double covered = 1;
  for (int q = 0; q < d; ++q) {
    const int j = (ending_dim + 1 + q) % d;
    a[j] = (dims[j] - 1) * covered;
    covered *= dims[j];
  }
  return a;
}

std::vector<double> star_unicast_hops(const std::vector<int>& dims) {
  check_dims(dims);
  const double N = num_nodes(dims);
  std::vector<double> D;
  for (int n : dims) {
    double s = 0;  // sum over offsets of the ring distance = n * mean over all pairs
    for (int k = 0; k < n; ++k) s += std::min(k, n - k);
    D.push_back(N > 1 ? (s / n) * N / (N - 1) : 0.0);
  }
  return D;
}

std::vector<double> star_unicast_hops_paper(const std::vector<int>& dims) {
  check_dims(dims);
  std::vector<double> D;
  for (int n : dims) D.push_back(n / 4);
  return D;
}

std::vector<double> star_balance_unprojected(const std::vector<int>& dims, double lambda_b,
                                             double lambda_r, StarHops hops) {
  check_rates(lambda_b, lambda_r);
  const BalanceSystem s = make_system(dims, hops);
  if (lambda_b <= 0) lambda_b = 1, lambda_r = 0;
  const int m = static_cast<int>(s.active.size());
  std::vector<double> x(dims.size(), 0.0);
  if (m == 0) {  // a single node: nothing to balance
    x[0] = 1;
    return x;
  }
  // Eq. (4) per link (Eq. (2) when lambda_r = 0), divided by lambda_b:
  //   sum_j a_{i,j} x_j = (l_i/d_ave) ((N-1) + (lambda_r/lambda_b) D_ave) - (lambda_r/lambda_b) D_i
  const double r = lambda_r / lambda_b;
  std::vector<double> b(m);
  for (int i = 0; i < m; ++i) b[i] = s.links[i] / s.d_ave * ((s.N - 1) + r * s.D_ave) - r * s.D[i];
  std::vector<double> xa;
  if (!solve_linear(s.A, b, xa)) throw std::runtime_error("star: singular balance system");
  for (int i = 0; i < m; ++i) x[s.active[i]] = xa[i];
  return x;
}

std::vector<double> star_balance(const std::vector<int>& dims, double lambda_b, double lambda_r,
                                 StarHops hops) {
  check_rates(lambda_b, lambda_r);
  const BalanceSystem s = make_system(dims, hops);
  const int m = static_cast<int>(s.active.size());
  std::vector<double> x(dims.size(), 0.0);
  if (m == 0) {
    x[0] = 1;
    return x;
  }
  // n-ary d-cube (all active sizes equal): x = 1/d by symmetry (§3.1, §4), exactly.
  bool equal = true;
  for (int i : s.active) equal = equal && dims[i] == dims[s.active[0]];
  if (equal) {
    for (int i : s.active) x[i] = 1.0 / m;
    return x;
  }
  x = star_balance_unprojected(dims, lambda_b, lambda_r, hops);
  const double tol = 1e-12;
  bool feasible = true;
  for (double v : x) feasible = feasible && v >= -tol && v <= 1 + tol;
  if (feasible) {
    for (double& v : x) v = std::min(1.0, std::max(0.0, v));
    return x;
  }
  // §4 projection, generalised: minimise the largest per-link utilisation over the simplex.
  // (lambda_b > 0 here: with lambda_b = 0 the unprojected solution is Eq. (2)'s, feasible or not.)
  const double lb = lambda_b > 0 ? lambda_b : 1.0, lr = lambda_b > 0 ? lambda_r : 0.0;
  std::vector<std::vector<double>> M(m, std::vector<double>(m));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) M[i][j] = (lb * s.A[i][j] + lr * s.D[i]) / s.links[i];
  const std::vector<double> xa = minimax_simplex(M);
  std::fill(x.begin(), x.end(), 0.0);
  for (int i = 0; i < m; ++i) x[s.active[i]] = xa[i];
  return x;
}

std::vector<double> star_link_loads(const std::vector<int>& dims, double lambda_b, double lambda_r,
                                    const std::vector<double>& x) {
  check_dims(dims);
  check_rates(lambda_b, lambda_r);
  const int d = static_cast<int>(dims.size());
  if (static_cast<int>(x.size()) != d)
    throw std::invalid_argument("star: x needs one entry per dimension");
  const std::vector<int> lk = star_links_per_node(dims);
  const std::vector<double> D = star_unicast_hops(dims);
  std::vector<double> per_node(d, 0.0);  // dimension-i transmissions per node per unit time
  for (int l = 0; l < d; ++l) {
    if (x[l] == 0) continue;
    const std::vector<double> a = star_dim_transmissions(dims, l);
    for (int i = 0; i < d; ++i) per_node[i] += lambda_b * a[i] * x[l];
  }
  std::vector<double> u(d, 0.0);
  for (int i = 0; i < d; ++i)
    if (lk[i] > 0) u[i] = (per_node[i] + lambda_r * D[i]) / lk[i];
  return u;
}

double star_throughput_factor(const std::vector<int>& dims, double lambda_b, double lambda_r) {
  check_rates(lambda_b, lambda_r);
  const BalanceSystem s = make_system(dims);
  if (s.d_ave == 0) return 0;
  return lambda_b * (s.N - 1) / s.d_ave + lambda_r * s.D_ave / s.d_ave;
}

std::pair<double, double> star_rates(const std::vector<int>& dims, double rho,
                                     double broadcast_share) {
  if (!(rho >= 0) || !std::isfinite(rho)) throw std::invalid_argument("star: rho must be >= 0");
  if (!(broadcast_share >= 0 && broadcast_share <= 1))
    throw std::invalid_argument("star: broadcast share must be in [0,1]");
  const BalanceSystem s = make_system(dims);
  const double lb = s.N > 1 ? broadcast_share * rho * s.d_ave / (s.N - 1) : 0.0;
  const double lr = s.D_ave > 0 ? (1 - broadcast_share) * rho * s.d_ave / s.D_ave : 0.0;
  return {lb, lr};
}

int star_pick_ending_dim(const std::vector<double>& x, double u) {
  double cum = 0;
  int last = 0;
  for (int i = 0; i < static_cast<int>(x.size()); ++i) {
    if (!(x[i] > 0)) continue;
    last = i;
    cum += x[i];
    if (u < cum) return i;
  }
  return last;
}

double star_gd1_wait(double rho, double var) {
  if (!(rho > 0 && rho < 1) || !(var >= 0)) return std::nan("");
  return var / (2 * rho * (1 - rho)) - 0.5;
}

std::vector<double> star_class_waits(const std::vector<double>& rho,
                                     const std::vector<double>& wait_cum) {
  if (rho.size() != wait_cum.size())
    throw std::invalid_argument("star: one rate and one cumulative wait per class");
  std::vector<double> w;
  double before = 0, w_before = 0;  // rate and wait of the classes above c
  for (std::size_t c = 0; c < rho.size(); ++c) {
    const double upto = before + rho[c];
    if (!(rho[c] > 0)) {
      w.push_back(std::nan(""));
      continue;
    }
    w.push_back(before > 0 ? (upto * wait_cum[c] - before * w_before) / rho[c] : wait_cum[c]);
    before = upto;
    w_before = wait_cum[c];
  }
  return w;
}

double star_high_share(const std::vector<int>& dims, const std::vector<double>& x) {
  check_dims(dims);
  const int d = static_cast<int>(dims.size());
  if (static_cast<int>(x.size()) != d)
    throw std::invalid_argument("star: x needs one entry per dimension");
  const double N = num_nodes(dims);
  if (N <= 1) return 0;
  double high = 0;
  for (int l = 0; l < d; ++l)
    if (x[l] > 0) high += x[l] * (N - 1 - star_dim_transmissions(dims, l)[l]) / (N - 1);
  return high;
}

}  // namespace sy
