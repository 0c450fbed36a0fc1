// The long variant of the random-config properties (label long): 2,000 seeds beyond the fast
// suite's 40, windows of 1,000..10,000 cycles, every fourth seed run twice for determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

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

// A fresh round of random configs (issue 34's 10,000): SWITCHYARD_ROUND_FIRST and
// SWITCHYARD_ROUND_COUNT pick the seeds (skipped when unset), with the fast suite's windows;
// SWITCHYARD_ROUND_RERUN=K reruns every K-th seed on 2 to 4 threads, which must give the same
// results.json (0 or unset: none).
TEST(RandomConfigsRound, PropertiesHold) {
  const char* first = std::getenv("SWITCHYARD_ROUND_FIRST");
  const char* count = std::getenv("SWITCHYARD_ROUND_COUNT");
  if (!first || !count) GTEST_SKIP() << "set SWITCHYARD_ROUND_FIRST and SWITCHYARD_ROUND_COUNT";
  const char* rerun = std::getenv("SWITCHYARD_ROUND_RERUN");
  const int n = std::atoi(count);
  const int ran = prop::check_seeds(std::strtoull(first, nullptr, 10), n, prop::Scale{},
                                    rerun ? std::max(0, std::atoi(rerun)) : 0, 60);
  EXPECT_GE(ran, n * 9 / 10);
}
