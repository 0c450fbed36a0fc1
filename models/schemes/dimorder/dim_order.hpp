// Dimension-ordered broadcasting (traffic.broadcast.scheme dimension_order): the reference
// scheme the priority STAR paper compares with (Yeh, Varvarigos & Eshoul §1-§2, after Stamoulis
// & Tsitsiklis [12]). One fixed tree per source: the source sends its packet along dimension 0,
// every node reached (the source too) then along dimension 1, and so on up to dimension d-1;
// always the same order, never a rotation.
//
//  * torus: each ring covered in both directions along shortest paths (as STAR's rings: an odd
//    ring (n-1)/2 nodes per side; an even ring's antipode from the side the broadcast drew,
//    uniformly, so both directions carry the same mean load);
//  * mesh: a line covered in both directions from the node that starts it, to its two ends;
//  * hypercube (and any dimension of size 2): the single link of the dimension.
// Every node receives exactly one copy, after distance(src, node) hops; N-1 transmissions.
//
// Beside the model, the scheme's analytic saturation load (dim_order_link_loads): per dimension
// the most loaded link's utilisation. Dimension k is covered from P_k = n_0 ... n_(k-1) nodes of
// each line, so per unit broadcast rate a dimension-k link of a torus carries (n_k-1) P_k / 2
// copies (n_k >= 3; the last dimension the most: (n_d-1) N / (2 n_d)), of a hypercube P_k
// (the last: N/2, hence rho < 2 (N-1)/(N d) ~ 2/d, [12]); on a mesh the + link into coordinate
// c+1 carries the broadcasts of the c+1 sources before it, most at the line's ends: (n_k-1) P_k.
// Unicast traffic (uniform, dimension order, destinations other than the source) adds its own
// per-link load, on a mesh most at the line's centre.
#pragma once
#include <memory>
#include <vector>

#include "switchyard/router/replication_rule.hpp"
#include "switchyard/sim/plugin.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

class DimOrderRule final : public ReplicationRule {
 public:
  // Tori, meshes and hypercubes; throws std::invalid_argument for an indirect network.
  explicit DimOrderRule(const Topology& topo);

  // One tree (tree 0) from the source; the even rings' antipode side drawn uniformly.
  void plan(BroadcastRecord& b, int src, Rng& rng) const override;
  int children(int node, int root, int tree, int in_port, int* out_ports,
               int antipode_dir) const override;
  // One VC class (the order never wraps back to dimension 0) and one priority class.
  int vc_class(int, int) const override { return 0; }
  bool low_priority(int, int) const override { return false; }

 private:
  bool mesh_;
  std::vector<int> n_, stride_;
  std::vector<int> plus_, minus_;         // per dimension (equal for size 2, -1 for size 1)
  std::vector<int> reach_lo_, reach_hi_;  // torus: nodes a ring side covers
  std::vector<int> port_dim_, port_dir_;  // per port
};

// The analytic check: per dimension the utilisation of its most loaded link (per packet time)
// for lambda_b broadcast and lambda_r unicast packets per node per packet time (unicast:
// uniform over the other N-1 nodes, dimension order). Throws std::invalid_argument for an
// indirect network.
std::vector<double> dim_order_link_loads(const Topology& topo, double lambda_b, double lambda_r);
// The throughput factor (paper §2) of those rates: lambda_b (N-1)/d_ave + lambda_r D_ave/d_ave.
double dim_order_rho(const Topology& topo, double lambda_b, double lambda_r);
// The largest stable throughput factor of dimension-ordered broadcasting with this mix
// (broadcast_share of rho broadcast, the rest uniform unicast): rho / max link load.
double dim_order_saturation_rho(const Topology& topo, double broadcast_share = 1.0);
// Any scheme that delivers every broadcast to every node (no unicast): a node of degree g
// receives lambda_b (N-1) copies on g links, so rho <= g_min / d_ave (paper §2: 2 / (4 - 4/n)
// on an n x n mesh, 0.5 for large n; 1 on a torus).
double all_node_broadcast_bound(const Topology& topo);

class DimOrderPlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void attach(Network& net) override;
  void collect(const Network&, const Results&) override {}
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;

  double rho() const { return rho_; }
  double saturation_rho() const { return sat_; }
  const std::vector<double>& link_loads() const { return loads_; }

 private:
  std::unique_ptr<DimOrderRule> rule_;
  std::vector<double> loads_;
  double rho_ = 0, sat_ = 0, bound_ = 0;
  bool unicast_ok_ = true;  // the unicast part has the closed form (uniform, self excluded)
};

}  // namespace sy
