#include <gtest/gtest.h>

#include "helpers.hpp"
#include "traffic/traffic.hpp"

using namespace sy;

TEST(Traffic, PermutationPatterns) {
  const Config t =
      test::cfg("topology: {type: torus, dims: [4, 4, 4]}\ntraffic: {pattern: transpose}\n");
  const Topology topo = t.topology.make();
  Traffic tr("tr", t, topo);
  Rng rng(1);
  const int src = topo.node_at({1, 2, 3});
  EXPECT_EQ(tr.destination(src, rng), topo.node_at({3, 2, 1}));
  const Config b =
      test::cfg("topology: {type: mesh, dims: [4, 3]}\ntraffic: {pattern: bit_complement}\n");
  const Topology mb = b.topology.make();
  Traffic tb("tb", b, mb);
  EXPECT_EQ(tb.destination(mb.node_at({1, 0}), rng), mb.node_at({2, 2}));
  EXPECT_EQ(tb.destination(mb.node_at({0, 2}), rng), mb.node_at({3, 0}));
}

TEST(Traffic, UniformExcludesSelfAndCoversEveryOtherNode) {
  const Config c = test::cfg("topology: {type: torus, dims: [3, 3]}\n");
  const Topology topo = c.topology.make();
  Traffic tr("tr", c, topo);
  Rng rng(2);
  std::vector<int> hits(9, 0);
  for (int i = 0; i < 8000; ++i) ++hits[tr.destination(4, rng)];
  EXPECT_EQ(hits[4], 0);
  for (int n = 0; n < 9; ++n) {
    if (n != 4) {
      EXPECT_NEAR(hits[n], 1000, 150) << n;
    }
  }
}
