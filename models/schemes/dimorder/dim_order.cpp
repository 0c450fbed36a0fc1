#include "switchyard/schemes/dimorder/dim_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"

namespace sy {

// --- DimOrderRule -------------------------------------------------------------------------------

DimOrderRule::DimOrderRule(const Topology& topo) : mesh_(topo.kind() == Topology::Kind::Mesh) {
  if (topo.indirect())
    throw std::invalid_argument(
        "dimension-ordered broadcast trees need a torus, a mesh or a hypercube");
  int stride = 1;
  for (int k = 0; k < topo.num_dims(); ++k) {
    const int n = topo.size(k);
    if (n == 2 && !topo.single_link(k))
      throw std::invalid_argument(
          "dimension-ordered broadcast trees: a size-2 dimension of one link (not size2_links 2)");
    n_.push_back(n);
    stride_.push_back(stride);
    stride *= n;
    plus_.push_back(n >= 2 ? topo.port_of(k, n == 2 ? 0 : +1) : -1);
    minus_.push_back(n >= 2 ? topo.port_of(k, n == 2 ? 0 : -1) : -1);
    reach_lo_.push_back((n - 1) / 2);  // an odd ring's side, or the even ring's short side
    reach_hi_.push_back(n / 2);        // the even ring's side that reaches the antipode
  }
  for (int p = 0; p < topo.num_ports(); ++p) {
    port_dim_.push_back(topo.port(p).dim);
    port_dir_.push_back(topo.port(p).dir);
  }
}

void DimOrderRule::plan(BroadcastRecord& b, int src, Rng& rng) const {
  b.ending_dim = 0;
  b.tree_src = src;
  b.antipode_dir = rng.uniform() < 0.5 ? 1 : -1;
}

int DimOrderRule::children(int node, int src, int, int in_port, int* out_ports,
                           int antipode_dir) const {
  const int d = static_cast<int>(n_.size());
  const int P = static_cast<int>(port_dim_.size());
  int count = 0;
  int first = 0;  // the first dimension this node starts lines on
  if (in_port >= 0 && in_port < P) {
    const int k = port_dim_[in_port];
    const int n = n_[k];
    if (n >= 3) {
      // The copy came in on the port facing the upstream node: it travels the other way.
      const int travel = -port_dir_[in_port];
      const int c = (node / stride_[k]) % n;
      if (mesh_) {
        if (c + travel >= 0 && c + travel < n)
          out_ports[count++] = travel > 0 ? plus_[k] : minus_[k];
      } else {
        const int s = (src / stride_[k]) % n;
        int off = (c - s) * travel % n;  // hops already made along this ring
        if (off < 0) off += n;
        const bool antipode_side = n % 2 == 0 && (travel > 0) == (antipode_dir > 0);
        if (off < (antipode_side ? reach_hi_[k] : reach_lo_[k]))
          out_ports[count++] = travel > 0 ? plus_[k] : minus_[k];
      }
    }
    first = k + 1;
  }
  for (int j = first; j < d; ++j) {
    const int n = n_[j];
    if (n == 2) {
      out_ports[count++] = plus_[j];
    } else if (n >= 3) {
      const int c = (node / stride_[j]) % n;
      if (!mesh_ || c < n - 1) out_ports[count++] = plus_[j];
      if (!mesh_ || c > 0) out_ports[count++] = minus_[j];
    }
  }
  return count;
}

// --- The analytic check -------------------------------------------------------------------------

namespace {

void check_direct(const Topology& topo) {
  if (topo.indirect())
    throw std::invalid_argument("dimension-ordered broadcasting: a torus, a mesh or a hypercube");
}

}  // namespace

std::vector<double> dim_order_link_loads(const Topology& topo, double lambda_b, double lambda_r) {
  check_direct(topo);
  const double N = topo.num_nodes();
  const bool mesh = topo.kind() == Topology::Kind::Mesh;
  std::vector<double> u;
  double P = 1;  // nodes of each line that start lines of this dimension: n_0 ... n_(k-1)
  for (int k = 0; k < topo.num_dims(); ++k) {
    const int n = topo.size(k);
    double best = 0;
    if (n >= 2 && N > 1) {
      if (mesh || n == 2) {
        // The + link from coordinate c to c+1 (the - links mirror it): the broadcasts of the
        // c+1 sources before it on the line, and the unicast pairs it separates.
        for (int c = 0; c + 1 < n; ++c) {
          const double b = lambda_b * (c + 1) * P;
          const double r = lambda_r * (c + 1) * (n - 1 - c) * (N / n) / (N - 1);
          best = std::max(best, b + r);
        }
      } else {
        // A ring: n-1 copies per ring broadcast and the ring's mean distance per unicast pair,
        // over its 2 links per node (equal in the mean over the antipode draw).
        double ring = 0;  // sum over offsets of the ring distance
        for (int o = 0; o < n; ++o) ring += std::min(o, n - o);
        best = (lambda_b * (n - 1) * P + lambda_r * (ring / n) * N / (N - 1)) / 2;
      }
    }
    u.push_back(best);
    P *= n;
  }
  return u;
}

double dim_order_rho(const Topology& topo, double lambda_b, double lambda_r) {
  check_direct(topo);
  const double N = topo.num_nodes(), deg = topo.average_degree();
  if (N <= 1 || deg <= 0) return 0;
  return (lambda_b * (N - 1) + lambda_r * topo.average_distance(false)) / deg;
}

double dim_order_saturation_rho(const Topology& topo, double broadcast_share) {
  check_direct(topo);
  const double N = topo.num_nodes(), deg = topo.average_degree();
  if (N <= 1 || deg <= 0) return std::numeric_limits<double>::infinity();
  const double lb = broadcast_share * deg / (N - 1);
  const double lr = (1 - broadcast_share) * deg / topo.average_distance(false);
  const std::vector<double> u = dim_order_link_loads(topo, lb, lr);  // at rho = 1
  const double top = *std::max_element(u.begin(), u.end());
  return top > 0 ? 1 / top : std::numeric_limits<double>::infinity();
}

double all_node_broadcast_bound(const Topology& topo) {
  check_direct(topo);
  const double deg = topo.average_degree();
  int gmin = std::numeric_limits<int>::max();
  for (int v = 0; v < topo.num_nodes(); ++v) {
    int g = 0;
    for (int p = 0; p < topo.num_ports(); ++p) g += topo.neighbor(v, p) >= 0;
    gmin = std::min(gmin, g);
  }
  return deg > 0 ? gmin / deg : 0.0;
}

// --- The plug-in --------------------------------------------------------------------------------

std::unique_ptr<Plugin> DimOrderPlugin::make(const Config& cfg) {
  if (cfg.traffic.broadcast.scheme != BroadcastScheme::DimensionOrder) return nullptr;
  return std::make_unique<DimOrderPlugin>();
}

void DimOrderPlugin::attach(Network& net) {
  const Config& cfg = net.config();
  const Topology& topo = net.topology();
  rule_ = std::make_unique<DimOrderRule>(topo);
  net.set_replication(rule_.get());
  // Rates per packet time (the paper's time unit).
  const double slot = static_cast<double>(cfg.traffic.packet_flits) * cfg.timing.tau;
  const double lb = cfg.traffic.broadcast.rate * slot;
  double lr = cfg.traffic.trace ? 0.0 : cfg.traffic.packets_per_cycle() * slot;
  unicast_ok_ = lr == 0 || (cfg.traffic.pattern == Pattern::Uniform &&
                            cfg.traffic.self == SelfTraffic::Exclude &&
                            cfg.traffic.classes.empty() && cfg.traffic.packet_sizes.size() < 2);
  if (!unicast_ok_) lr = 0;  // the check then covers the broadcast part only
  rho_ = dim_order_rho(topo, lb, lr);
  loads_ = dim_order_link_loads(topo, lb, lr);
  const double b_rho = dim_order_rho(topo, lb, 0);
  sat_ = dim_order_saturation_rho(topo, rho_ > 0 ? b_rho / rho_ : 1.0);
  bound_ = all_node_broadcast_bound(topo);
}

void DimOrderPlugin::json(Json& j) const {
  j.open("dimension_order")
      .kv("rho", rho_)
      .kv_list("link_loads", loads_)
      .kv("max_link_load", loads_.empty() ? 0.0 : *std::max_element(loads_.begin(), loads_.end()))
      .kv("saturation_rho", sat_)
      .kv("unicast_in_check", unicast_ok_)
      .kv("all_node_bound_rho", bound_)
      .close();
}

// After the link line: the loads the tree predicts, and the rho at which its busiest link fills.
void DimOrderPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Tail) return;
  int top = 0;
  for (int k = 1; k < static_cast<int>(loads_.size()); ++k)
    if (loads_[k] > loads_[top]) top = k;
  char b[200];
  std::snprintf(b, sizeof b,
                "dimorder loads   rho %.4f, tree predicts max link load %.4f (dimension %d); "
                "saturates at rho %.4f%s (any all-node broadcast: %.4f)\n",
                rho_, loads_.empty() ? 0.0 : loads_[top], top, sat_,
                unicast_ok_ ? "" : " (broadcast part only)", bound_);
  o << b;
}

}  // namespace sy
