#include "switchyard/topology/topology.hpp"

#include <cstdlib>
#include <stdexcept>

#include "switchyard/topology/butterfly.hpp"
#include "switchyard/topology/cmesh.hpp"
#include "switchyard/topology/fat_tree.hpp"

namespace sy {

Topology Topology::indirect(Kind kind, std::shared_ptr<const IndirectNetwork> net) {
  Topology t(Kind::Torus, {1});
  t.kind_ = kind;
  t.dims_.clear();
  t.stride_.clear();
  t.ports_.clear();
  t.ind_ = std::move(net);
  t.nodes_ = t.ind_->num_terminals();
  return t;
}

Topology Topology::butterfly(int k, int n) {
  return indirect(Kind::Butterfly, std::make_shared<Butterfly>(k, n));
}

Topology Topology::fat_tree(int k, int n) {
  return indirect(Kind::FatTree, std::make_shared<FatTree>(k, n));
}

Topology Topology::cmesh(std::vector<int> dims, int concentration) {
  return indirect(Kind::CMesh, std::make_shared<CMesh>(std::move(dims), concentration));
}

Topology::Topology(Kind kind, std::vector<int> dims, int size2_links)
    : kind_(kind), dims_(std::move(dims)), size2_links_(size2_links) {
  if (kind != Kind::Torus && kind != Kind::Mesh && kind != Kind::Hypercube)
    throw std::invalid_argument("an indirect network is built by Topology::indirect");
  if (size2_links != 1 && size2_links != 2)
    throw std::invalid_argument("size2_links: 1 or 2 links each way in a size-2 dimension");
  if (size2_links == 2 && kind != Kind::Torus)
    throw std::invalid_argument("size2_links 2: a torus's (two links each way in a size-2 ring)");
  if (dims_.empty()) throw std::invalid_argument("topology needs at least one dimension");
  for (int n : dims_) {
    if (n < 1) throw std::invalid_argument("dimension sizes must be >= 1");
    stride_.push_back(nodes_);
    if (!checked_mul(nodes_, n, nodes_))
      throw std::invalid_argument("topology: the product of the dimension sizes overflows");
  }
  for (int d = 0; d < num_dims(); ++d) {
    if (dims_[d] == 2 && size2_links_ == 1) {
      ports_.push_back({d, 0});
    } else if (dims_[d] >= 2) {
      ports_.push_back({d, +1});
      ports_.push_back({d, -1});
    }
  }
  port_of_.assign(3 * dims_.size(), -1);
  for (int d = 0; d < num_dims(); ++d)
    for (int dir = -1; dir <= 1; ++dir)
      for (int p = 0; p < num_ports(); ++p)
        if (ports_[p].dim == d && (ports_[p].dir == dir || ports_[p].dir == 0)) {
          port_of_[static_cast<std::size_t>(3 * d + dir + 1)] = p;
          break;
        }
}

const char* Topology::kind_name() const {
  switch (kind_) {
    case Kind::Torus:
      return "torus";
    case Kind::Mesh:
      return "mesh";
    case Kind::Hypercube:
      return "hypercube";
    case Kind::Butterfly:
    case Kind::CMesh:
    case Kind::FatTree:
    case Kind::Dragonfly:
    case Kind::FlatFly:
    case Kind::AnyNet:
      return ind_->kind_name();
  }
  return "?";
}

std::string Topology::router_name(int router) const {
  if (ind_) return ind_->router_name(router);
  std::string s = "(";
  for (int d = 0; d < num_dims(); ++d) s += (d ? "," : "") + std::to_string(coord(router, d));
  return s + ")";
}

std::string Topology::link_class_name(int cls) const {
  return ind_ ? ind_->link_class_name(cls) : "d" + std::to_string(cls);
}

std::vector<int> Topology::coords(int node) const {
  std::vector<int> c(dims_.size());
  for (int d = 0; d < num_dims(); ++d) c[d] = coord(node, d);
  return c;
}

int Topology::node_at(const std::vector<int>& c) const {
  int n = 0;
  for (int d = 0; d < num_dims(); ++d) n += c[d] * stride_[d];
  return n;
}

std::string Topology::port_name(int p) const {
  if (ind_) return ind_->port_name(p);
  const Port& q = ports_[p];
  std::string s = "d" + std::to_string(q.dim);
  return s + (q.dir > 0 ? "+" : q.dir < 0 ? "-" : "");
}

int Topology::neighbor(int node, int p) const {
  if (ind_) return ind_->neighbor(node, p);
  const Port& q = ports_[p];
  const int n = dims_[q.dim], c = coord(node, q.dim);
  if (q.dir == 0) return with_coord(node, q.dim, 1 - c);
  int nc = c + q.dir;
  if (nc < 0 || nc >= n) {
    if (!wraps(q.dim)) return -1;
    nc = (nc + n) % n;
  }
  return with_coord(node, q.dim, nc);
}

int Topology::reverse_port(int p) const {
  const Port& q = ports_[p];
  return q.dir == 0 ? p : port_of(q.dim, -q.dir);
}

int Topology::dim_distance(int dim, int a, int b) const {
  const int n = dims_[dim];
  const int diff = std::abs(coord(a, dim) - coord(b, dim));
  return wraps(dim) ? std::min(diff, n - diff) : diff;
}

int Topology::distance(int a, int b) const {
  if (ind_) return ind_->distance(a, b);
  int h = 0;
  for (int d = 0; d < num_dims(); ++d) h += dim_distance(d, a, b);
  return h;
}

int Topology::diameter() const {
  if (ind_) return ind_->diameter();
  int h = 0;
  for (int d = 0; d < num_dims(); ++d) h += wraps(d) ? dims_[d] / 2 : dims_[d] - 1;
  return h;
}

double Topology::average_distance(bool include_self) const {
  if (ind_) return ind_->average_distance(include_self);
  // Sum over ordered pairs factorizes by dimension: total = sum_d S_d * N / n_d * N / n_d ...
  // computed as sum_d (mean distance in dim d over all coordinate pairs) * N^2.
  double total = 0.0;  // sum over all ordered pairs (a, b) of distance(a, b), divided by N^2
  for (int d = 0; d < num_dims(); ++d) {
    const int n = dims_[d];
    double s = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const int diff = std::abs(i - j);
        s += wraps(d) ? std::min(diff, n - diff) : diff;
      }
    total += s / (static_cast<double>(n) * n);
  }
  const double N = nodes_;
  if (include_self) return total;
  return N > 1 ? total * N / (N - 1) : 0.0;
}

int Topology::num_links() const {
  long long links = 0;
  if (ind_) {
    for (int v = 0; v < num_routers(); ++v)
      for (int p = 0; p < num_ports(); ++p) links += neighbor(v, p) >= 0;
    return static_cast<int>(links);
  }
  // A direct network: a port's link exists or not by the node's coordinate in the port's
  // dimension alone, so one line of nodes along that dimension counts for all N / n of them
  // (O(ports x n), not O(N x ports): a 2^20-node hypercube is counted at once).
  for (int p = 0; p < num_ports(); ++p) {
    const int d = port(p).dim, n = dims_[d];
    long long line = 0;
    for (int c = 0; c < n; ++c) line += neighbor(with_coord(0, d, c), p) >= 0;
    links += line * (nodes_ / n);
  }
  return static_cast<int>(links);
}

}  // namespace sy
