// The long variant of the random-config properties (label long): 2,000 seeds beyond the fast
// suite's 40, windows of 1,000..10,000 cycles, every fourth seed run twice for determinism.
#include <gtest/gtest.h>

#include "properties.hpp"

using namespace sy;

class RandomConfigsLong : public ::testing::TestWithParam<int> {};

TEST_P(RandomConfigsLong, PropertiesHold) {
  prop::Scale scale;
  scale.min_measure = 1000;
  scale.max_measure = 10000;
  scale.max_warmup = 2000;
  const std::uint64_t first = 1000 + static_cast<std::uint64_t>(GetParam()) * 250;
  const int ran = prop::check_seeds(first, 250, scale, 4, 600);
  EXPECT_GE(ran, 240);
}

INSTANTIATE_TEST_SUITE_P(Properties, RandomConfigsLong, ::testing::Range(0, 8));
