// Random-config properties (issue 16): 40 seeded configs over small networks (2..64 nodes;
// tori, meshes, hypercubes, butterflies; input-VC and output-queued routers; every switching
// mode, VCs and depth, the routing algorithms with the VCs they need, the patterns, loads below
// and beyond saturation, traces, broadcasts, the staged pipeline), each run for a few hundred
// cycles in its own process. Every run ends within its bounds with results (exit 0 or 3) or a
// clear config error; flits are conserved; no order error, credit violation or forbidden turn; no
// packet beats the zero-load time of its hops; the same seed gives the same results.json. The
// `long` label runs 2,000 more seeds with longer windows (long/test_properties_long.cpp).
#include <gtest/gtest.h>

#include "properties.hpp"

using namespace sy;

// The generator's configs are valid and varied: they differ by seed and the validator takes
// nearly all of them (a config error is reported by the runs, not silently skipped).
TEST(Properties, GeneratorIsDeterministicAndValid) {
  EXPECT_EQ(prop::random_config(7), prop::random_config(7));
  EXPECT_NE(prop::random_config(7), prop::random_config(8));
  int errors = 0;
  for (std::uint64_t s = 0; s < 400; ++s) {
    try {
      parse_config(prop::random_config(s), "generated.yaml");
    } catch (const ConfigError& e) {
      ADD_FAILURE() << "seed " << s << ": " << e.what() << "\n" << prop::random_config(s);
      if (++errors > 5) break;
    }
  }
}

class RandomConfigs : public ::testing::TestWithParam<int> {};

// Four blocks of ten seeds (ctest runs the blocks in parallel); every fifth seed twice.
TEST_P(RandomConfigs, PropertiesHold) {
  const int block = GetParam();
  const int ran =
      prop::check_seeds(static_cast<std::uint64_t>(block) * 10, 10, prop::Scale{}, 5, 60);
  EXPECT_GE(ran, 8);
}

INSTANTIATE_TEST_SUITE_P(Properties, RandomConfigs, ::testing::Range(0, 4));
