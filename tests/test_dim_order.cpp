// Dimension-ordered broadcasting (traffic.broadcast.scheme dimension_order,
// schemes/dimorder/dim_order.hpp): the tree reaches every node exactly once along shortest
// paths on tori, meshes and hypercubes; its analytic saturation load (2(N-1)/(N d) on a
// hypercube, [12]'s 2/d); a short run below it is stable, one above it is not; config errors.
#include <gtest/gtest.h>

#include <deque>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/schemes/dimorder/dim_order.hpp"

using namespace sy;

namespace {

struct TreeCase {
  Topology::Kind kind;
  std::vector<int> dims;
};
std::ostream& operator<<(std::ostream& o, const TreeCase& c) {
  o << (c.kind == Topology::Kind::Mesh    ? "mesh"
        : c.kind == Topology::Kind::Torus ? "torus"
                                          : "cube");
  for (int n : c.dims) o << "_" << n;
  return o;
}

std::string yaml(const std::string& topo, double rho, const std::string& extra = "") {
  std::ostringstream y;
  y << "topology: " << topo << "\n"
    << "router: {buffering: output_queued, switching: store_and_forward}\n"
    << "network_interface: {injection: all_port}\n"
    << "timing: {alpha: 0, delta: 0, tau: 1}\n"
    << "traffic:\n  process: poisson\n  packet_flits: 1\n"
    << "  broadcast: {scheme: dimension_order" << extra << "}\n"
    << "  load: {rho: " << rho << ", broadcast_share: 1.0}\n"
    << "simulation: {warmup: 1000, measure: 3000, drain_limit: 20000, seed: 5}\n";
  return y.str();
}

}  // namespace

class DimOrderTree : public ::testing::TestWithParam<TreeCase> {};

// Walks the tree from every source (both antipode sides): each other node gets exactly one copy,
// after exactly distance(src, node) hops, on a connected port; N-1 transmissions.
TEST_P(DimOrderTree, ReachesEveryNodeOnceAlongShortestPaths) {
  const Topology topo(GetParam().kind, GetParam().dims);
  const DimOrderRule rule(topo);
  const int N = topo.num_nodes(), P = topo.num_ports();
  std::vector<int> out(static_cast<std::size_t>(P));
  for (int src = 0; src < N; ++src)
    for (int side : {+1, -1}) {
      std::vector<int> got(static_cast<std::size_t>(N), 0), hops(static_cast<std::size_t>(N), 0);
      struct Copy {
        int node, in_port, hops;
      };
      std::deque<Copy> q{{src, P, 0}};
      int sent = 0;
      while (!q.empty()) {
        const Copy c = q.front();
        q.pop_front();
        const int n = rule.children(c.node, src, 0, c.in_port, out.data(), side);
        ASSERT_LE(n, P);
        sent += n;
        for (int k = 0; k < n; ++k) {
          const int next = topo.neighbor(c.node, out[static_cast<std::size_t>(k)]);
          ASSERT_GE(next, 0) << "a child on an unconnected port at node " << c.node;
          ++got[static_cast<std::size_t>(next)];
          hops[static_cast<std::size_t>(next)] = c.hops + 1;
          q.push_back({next, topo.in_port(c.node, out[static_cast<std::size_t>(k)]), c.hops + 1});
        }
      }
      EXPECT_EQ(sent, N - 1) << "src " << src;
      for (int v = 0; v < N; ++v) {
        EXPECT_EQ(got[static_cast<std::size_t>(v)], v == src ? 0 : 1)
            << "src " << src << " node " << v;
        EXPECT_EQ(hops[static_cast<std::size_t>(v)], topo.distance(src, v))
            << "src " << src << " node " << v;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Topologies, DimOrderTree,
                         ::testing::Values(TreeCase{Topology::Kind::Torus, {8, 8}},
                                           TreeCase{Topology::Kind::Torus, {5, 5}},
                                           TreeCase{Topology::Kind::Torus, {4, 4, 4}},
                                           TreeCase{Topology::Kind::Torus, {3, 6}},
                                           TreeCase{Topology::Kind::Torus, {2, 3, 4}},
                                           TreeCase{Topology::Kind::Torus, {4, 1, 5}},
                                           TreeCase{Topology::Kind::Mesh, {8, 8}},
                                           TreeCase{Topology::Kind::Mesh, {5, 5}},
                                           TreeCase{Topology::Kind::Mesh, {5, 3, 2}},
                                           TreeCase{Topology::Kind::Mesh, {7}},
                                           TreeCase{Topology::Kind::Hypercube, {2, 2, 2, 2}}),
                         [](const ::testing::TestParamInfo<TreeCase>& i) {
                           std::ostringstream o;
                           o << i.param;
                           return o.str();
                         });

TEST(DimOrderAnalysis, SaturationLoads) {
  // Hypercube: the last dimension carries N/2 copies per broadcast on one link per node:
  // rho < 2 (N-1) / (N d), [12]'s 2/d.
  for (int d : {3, 6, 8}) {
    const Topology cube = Topology::hypercube(d);
    const double N = cube.num_nodes();
    EXPECT_NEAR(dim_order_saturation_rho(cube), 2 * (N - 1) / (N * d), 1e-12) << d;
    EXPECT_NEAR(all_node_broadcast_bound(cube), 1.0, 1e-12);
  }
  // Torus: (n_d - 1) N / n_d copies of the last dimension over 2N links:
  // rho < n_d (N-1) / ((n_d-1) N d).
  EXPECT_NEAR(dim_order_saturation_rho(Topology(Topology::Kind::Torus, {8, 8})),
              8.0 * 63 / (7 * 64 * 2), 1e-12);
  EXPECT_NEAR(dim_order_saturation_rho(Topology(Topology::Kind::Torus, {4, 4, 4})),
              4.0 * 63 / (3 * 64 * 3), 1e-12);
  // Mesh n x n: the link into a line's end carries (n-1) n of each unit rate; d_ave = 4 - 4/n.
  // Any all-node broadcast: a corner receives on 2 links, rho <= 2 / (4 - 4/n).
  const Topology mesh(Topology::Kind::Mesh, {8, 8});
  EXPECT_NEAR(dim_order_saturation_rho(mesh), 63.0 / (56 * 3.5), 1e-12);
  EXPECT_NEAR(all_node_broadcast_bound(mesh), 2 / 3.5, 1e-12);
  // The last dimension's links are the busiest.
  const std::vector<double> u = dim_order_link_loads(mesh, 1.0 / 56, 0);
  EXPECT_NEAR(u[1], 1.0, 1e-12);
  EXPECT_NEAR(u[0], 7.0 / 56, 1e-12);
}

// 4x4 mesh: the tree's limit is rho = 15 / (12 * 3) = 0.4167. (One simulation per process:
// two tests.)
TEST(DimOrderRun, StableBelowTheAnalyticLimit) {
  const Results r = test::run(yaml("{type: mesh, dims: [4, 4]}", 0.2));
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const auto* b = r.find<BroadcastSection>();
  ASSERT_NE(b, nullptr);
  EXPECT_GT(b->broadcasts_done, 1000u);
  EXPECT_DOUBLE_EQ(b->transmissions_per_broadcast, 15.0);
  const auto* p = r.find<DimOrderPlugin>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(r.find<StarPlugin>(), nullptr);
  EXPECT_NEAR(p->saturation_rho(), 15.0 / 36, 1e-12);
  EXPECT_NEAR(p->rho(), 0.2, 1e-9);
}

TEST(DimOrderRun, UnstableAboveTheAnalyticLimit) {
  const Results r = test::run(yaml("{type: mesh, dims: [4, 4]}", 0.6));
  EXPECT_FALSE(r.stable);
  ASSERT_NE(r.find<DimOrderPlugin>(), nullptr);
  EXPECT_GT(r.find<DimOrderPlugin>()->rho(), r.find<DimOrderPlugin>()->saturation_rho());
}

TEST(DimOrderConfig, Errors) {
  const std::string torus = "{type: torus, dims: [4, 4]}";
  EXPECT_EQ(test::config_error(yaml(torus, 0.2)), "");
  EXPECT_EQ(test::config_error(yaml("{type: hypercube, dim: 4}", 0.2)), "");
  EXPECT_EQ(test::config_error(yaml("{type: mesh, dims: [3, 5]}", 0.2)), "");
  EXPECT_NE(
      test::config_error(yaml(torus, 0.2, ", ending: uniform")).find("traffic.broadcast.ending"),
      std::string::npos);
  EXPECT_NE(test::config_error(yaml(torus, 0.2, ", classes: 3")).find("one class"),
            std::string::npos);
  // Priority STAR stays refused on a mesh; dimension_order on an indirect network too.
  const std::string star_mesh = test::config_error(yaml("{type: mesh, dims: [4, 4]}", 0.2),
                                                   {"traffic.broadcast.scheme=priority_star"});
  EXPECT_NE(star_mesh.find("not on a mesh"), std::string::npos) << star_mesh;
  EXPECT_NE(test::config_error(yaml("{type: butterfly, k: 2, n: 3}", 0.2)).find("not on a"),
            std::string::npos);
}

// The broadcast copies' VC warning names the dateline only where there is one: input-VC routers
// on a mesh (no wraparound) run dimension-order broadcasts on any number of VCs (one VC class,
// the order never wraps), a hypercube STAR's two rotation classes need two; a torus's rings
// need the dateline classes (4 VCs for the copies).
namespace {
std::string vc_warnings(const std::string& topo, const std::string& scheme, int vcs) {
  const Config c =
      test::cfg("topology: " + topo +
                "\nrouter: {buffering: input_vc, priority_classes: 2, vcs: " + std::to_string(vcs) +
                "}\ntraffic:\n  packet_flits: 4\n  broadcast: {scheme: " + scheme +
                "}\n  load: {rho: 0.2, broadcast_share: 1.0}\n");
  std::string w;
  for (const std::string& s : c.warnings)
    if (s.find("broadcast copies") != std::string::npos) w += s + "\n";
  return w;
}
}  // namespace

TEST(DimOrderConfig, DatelineWarningOnlyWhereARingHasOne) {
  const std::string mesh = "{type: mesh, dims: [4, 4]}", torus = "{type: torus, dims: [4, 4]}",
                    cube = "{type: hypercube, dim: 4}";
  for (int v : {1, 2, 3}) {
    EXPECT_EQ(vc_warnings(mesh, "dimension_order", v), "") << v << " VCs";
    EXPECT_EQ(vc_warnings(cube, "dimension_order", v), "") << v << " VCs";
    EXPECT_NE(vc_warnings(torus, "dimension_order", v).find("dateline classes inside each ring"),
              std::string::npos)
        << v << " VCs";
  }
  EXPECT_EQ(vc_warnings(torus, "dimension_order", 4), "");
  // STAR on a hypercube: its rotation classes, no dateline.
  EXPECT_EQ(vc_warnings(cube, "priority_star", 2), "");
  const std::string one = vc_warnings(cube, "priority_star", 1);
  EXPECT_NE(one.find("rotation classes"), std::string::npos) << one;
  EXPECT_EQ(one.find("dateline"), std::string::npos) << one;
}

// ... and the mesh's dimension-order broadcast on one VC runs (no deadlock, every copy in).
TEST(DimOrderRun, MeshInputVcOneVcBelowSaturation) {
  const Results r = test::run(
      "topology: {type: mesh, dims: [6, 6]}\n"
      "router: {buffering: input_vc, vcs: 1, vc_depth: 4}\n"
      "traffic:\n  packet_flits: 4\n  broadcast: {scheme: dimension_order}\n"
      "  load: {rho: 0.2, broadcast_share: 1.0}\n"
      "simulation: {warmup: 1000, measure: 5000, seed: 3}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  EXPECT_DOUBLE_EQ(r.find<BroadcastSection>()->transmissions_per_broadcast, 35.0);
  EXPECT_GE(r.find<BroadcastSection>()->broadcasts_done + 5,
            r.find<BroadcastSection>()->broadcasts);
}
