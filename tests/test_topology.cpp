#include <gtest/gtest.h>

#include <algorithm>

#include "switchyard/topology/topology.hpp"
#include "topology_oracle.hpp"

using sy::Topology;
using sy::test::bfs;

class TopologyP : public ::testing::TestWithParam<std::pair<Topology::Kind, std::vector<int>>> {};

TEST_P(TopologyP, DistancesMatchBreadthFirstSearch) {
  const Topology t(GetParam().first, GetParam().second);
  double sum = 0;
  int diam = 0;
  for (int s = 0; s < t.num_nodes(); ++s) {
    const auto d = bfs(t, s);
    for (int v = 0; v < t.num_nodes(); ++v) {
      ASSERT_EQ(d[v], t.distance(s, v)) << s << "->" << v;
      sum += d[v];
      diam = std::max(diam, d[v]);
    }
  }
  const double N = t.num_nodes();
  EXPECT_EQ(diam, t.diameter());
  EXPECT_NEAR(sum / (N * (N - 1)), t.average_distance(false), 1e-9);
  EXPECT_NEAR(sum / (N * N), t.average_distance(true), 1e-9);
}

TEST_P(TopologyP, LinksAreSymmetric) {
  const Topology t(GetParam().first, GetParam().second);
  for (int v = 0; v < t.num_nodes(); ++v)
    for (int p = 0; p < t.num_ports(); ++p) {
      const int w = t.neighbor(v, p);
      if (w < 0) continue;
      EXPECT_EQ(t.neighbor(w, t.reverse_port(p)), v);
      EXPECT_EQ(t.distance(v, w), 1);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TopologyP,
    ::testing::Values(std::make_pair(Topology::Kind::Torus, std::vector<int>{8, 8}),
                      std::make_pair(Topology::Kind::Torus, std::vector<int>{4, 5, 3}),
                      std::make_pair(Topology::Kind::Torus, std::vector<int>{7}),
                      std::make_pair(Topology::Kind::Mesh, std::vector<int>{4, 6}),
                      std::make_pair(Topology::Kind::Mesh, std::vector<int>{3, 3, 3}),
                      std::make_pair(Topology::Kind::Hypercube, std::vector<int>{2, 2, 2, 2, 2})));

TEST(Topology, HypercubeHasOnePortPerDimension) {
  const Topology h = Topology::hypercube(6);
  EXPECT_EQ(h.num_nodes(), 64);
  EXPECT_EQ(h.num_ports(), 6);
  EXPECT_EQ(h.diameter(), 6);
  EXPECT_DOUBLE_EQ(h.average_distance(true), 3.0);
  EXPECT_EQ(h.neighbor(0b101010, 2), 0b101110);
  EXPECT_EQ(h.num_links(), 64 * 6);
}

TEST(Topology, MeshEdgesAreUnconnectedTorusWraps) {
  const Topology m(Topology::Kind::Mesh, {4, 4});
  const Topology t(Topology::Kind::Torus, {4, 4});
  const int plus0 = m.port_of(0, +1);
  EXPECT_EQ(m.neighbor(3, plus0), -1);
  EXPECT_EQ(t.neighbor(3, plus0), 0);
  EXPECT_TRUE(t.is_wrap_hop(3, plus0));
  EXPECT_FALSE(t.is_wrap_hop(2, plus0));
  EXPECT_EQ(m.num_links(), 2 * 2 * 4 * 3);
  EXPECT_EQ(t.num_links(), 4 * 16);
}

// num_links counts one line of nodes per port and scales it (the estimate calls it for
// networks of a million nodes): the same count as every (node, port) pair checked.
TEST(Topology, NumLinksCountsEveryLink) {
  const std::vector<std::pair<Topology::Kind, std::vector<int>>> shapes = {
      {Topology::Kind::Torus, {5, 3}},
      {Topology::Kind::Torus, {2, 4, 1}},
      {Topology::Kind::Torus, {8}},
      {Topology::Kind::Mesh, {4, 6}},
      {Topology::Kind::Mesh, {2, 3, 1}},
      {Topology::Kind::Mesh, {7}},
      {Topology::Kind::Hypercube, {2, 2, 2, 2}},
      {Topology::Kind::Torus, {1}}};
  for (const auto& [kind, dims] : shapes) {
    const Topology t(kind, dims);
    int brute = 0;
    for (int v = 0; v < t.num_routers(); ++v)
      for (int p = 0; p < t.num_ports(); ++p) brute += t.neighbor(v, p) >= 0;
    EXPECT_EQ(t.num_links(), brute) << t.num_nodes() << " nodes";
  }
  const Topology fly = Topology::butterfly(3, 2);
  int brute = 0;
  for (int v = 0; v < fly.num_routers(); ++v)
    for (int p = 0; p < fly.num_ports(); ++p) brute += fly.neighbor(v, p) >= 0;
  EXPECT_EQ(fly.num_links(), brute);
}
