#include <gtest/gtest.h>

#include "switchyard/router/routing_unit.hpp"

using namespace sy;

namespace {
// Follows the routing unit hop by hop; returns the hop count, checks VC classes on the way.
int walk(const Topology& t, const RoutingUnit& r, int vcs, int src, int dst) {
  int node = src, in_port = -1, in_vc = 0, hops = 0;
  int dim = -1;
  bool wrapped = false;
  while (true) {
    const Route rt = r.route(node, in_port, in_vc, dst);
    if (rt.port < 0) break;
    const int d = t.port(rt.port).dim;
    EXPECT_GE(d, dim) << "dimension order violated";
    if (d != dim) wrapped = false;
    dim = d;
    wrapped |= t.is_wrap_hop(node, rt.port);
    if (r.uses_dateline_classes()) {
      EXPECT_EQ(rt.vc_lo, wrapped ? vcs / 2 : 0);
      EXPECT_EQ(rt.vc_hi, wrapped ? vcs : vcs / 2);
    }
    in_vc = rt.vc_lo;
    node = t.neighbor(node, rt.port);
    in_port = rt.port;  // route() only needs the dimension of the arrival link
    if (++hops > 1000) break;
  }
  EXPECT_EQ(node, dst);
  return hops;
}
}  // namespace

class RoutingP : public ::testing::TestWithParam<std::pair<Topology::Kind, std::vector<int>>> {};

TEST_P(RoutingP, DimensionOrderTakesShortestPaths) {
  const Topology t(GetParam().first, GetParam().second);
  for (TieBreak tb : {TieBreak::Positive, TieBreak::Negative, TieBreak::Balanced}) {
    const RoutingUnit r(t, tb, 4);
    for (int s = 0; s < t.num_nodes(); ++s)
      for (int d = 0; d < t.num_nodes(); ++d) ASSERT_EQ(walk(t, r, 4, s, d), t.distance(s, d));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RoutingP,
    ::testing::Values(std::make_pair(Topology::Kind::Torus, std::vector<int>{8, 8}),
                      std::make_pair(Topology::Kind::Torus, std::vector<int>{5, 4, 3}),
                      std::make_pair(Topology::Kind::Mesh, std::vector<int>{5, 4}),
                      std::make_pair(Topology::Kind::Hypercube, std::vector<int>{2, 2, 2, 2})));

TEST(Routing, TieBreakRules) {
  const Topology t(Topology::Kind::Torus, {8});
  const int plus = t.port_of(0, +1), minus = t.port_of(0, -1);
  EXPECT_EQ(RoutingUnit(t, TieBreak::Positive, 2).out_port(0, 4), plus);
  EXPECT_EQ(RoutingUnit(t, TieBreak::Negative, 2).out_port(0, 4), minus);
  const RoutingUnit bal(t, TieBreak::Balanced, 2);
  EXPECT_EQ(bal.out_port(0, 4), plus);
  EXPECT_EQ(bal.out_port(1, 5), minus);
}

TEST(Routing, HypercubeIsEcube) {
  const Topology t = Topology::hypercube(5);
  const RoutingUnit r(t, TieBreak::Balanced, 2);
  EXPECT_FALSE(r.uses_dateline_classes());
  EXPECT_EQ(r.out_port(0b00000, 0b10110), t.port_of(1, 0));
  EXPECT_EQ(r.out_port(0b00010, 0b10110), t.port_of(2, 0));
}
