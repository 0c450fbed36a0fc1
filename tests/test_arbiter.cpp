#include <gtest/gtest.h>

#include <vector>

#include "switchyard/base/rng.hpp"
#include "switchyard/router/arbiter.hpp"

using sy::Arbiter;
using sy::ArbPolicy;

TEST(Arbiter, GrantsOnlyRequestersAndTheHighestClass) {
  Arbiter a(7, 3);
  sy::Rng rng(3);
  std::uint8_t cls[7];
  for (int it = 0; it < 20000; ++it) {
    const std::uint64_t req = rng.below(128);
    for (auto& c : cls) c = static_cast<std::uint8_t>(rng.below(3));
    const int g = a.arbitrate(req, cls, nullptr);
    if (!req) {
      EXPECT_EQ(g, -1);
      continue;
    }
    ASSERT_GE(g, 0);
    EXPECT_TRUE(req >> g & 1) << "granted a non-requester";
    for (int i = 0; i < 7; ++i) {
      if (req >> i & 1) {
        EXPECT_LE(cls[g], cls[i]) << "a higher class was waiting";
      }
    }
    a.update(g, cls[g]);
  }
}

TEST(Arbiter, RoundRobinIsFairWithinAClass) {
  Arbiter a(5, 2);
  std::uint8_t cls[5] = {1, 1, 1, 1, 1};
  std::vector<int> wins(5, 0);
  for (int it = 0; it < 5000; ++it) {
    const int g = a.arbitrate(0b11111, cls, nullptr);
    ++wins[g];
    a.update(g, cls[g]);
  }
  for (int w : wins) EXPECT_EQ(w, 1000);
  // With requesters 1 and 3 only, they alternate.
  int last = -1;
  for (int it = 0; it < 10; ++it) {
    const int g = a.arbitrate(0b01010, cls, nullptr);
    EXPECT_NE(g, last);
    last = g;
    a.update(g, cls[g]);
  }
}

TEST(Arbiter, OldestFirstPicksSmallestAge) {
  Arbiter a(4, 1, ArbPolicy::OldestFirst);
  std::uint8_t cls[4] = {0, 0, 0, 0};
  sy::Cycle age[4] = {50, 20, 20, 10};
  EXPECT_EQ(a.arbitrate(0b1111, cls, age), 3);
  EXPECT_EQ(a.arbitrate(0b0111, cls, age), 1);
  a.update(1, 0);  // the tie now goes round-robin: 2 comes after 1
  EXPECT_EQ(a.arbitrate(0b0111, cls, age), 2);
}

TEST(Arbiter, HoldKeepsTheGrant) {
  Arbiter a(4, 1);
  std::uint8_t cls[4] = {0, 0, 0, 0};
  int g = a.arbitrate(0b1111, cls, nullptr);
  a.update(g, 0);
  for (int it = 0; it < 5; ++it) {
    EXPECT_EQ(a.arbitrate(0b1111, cls, nullptr, /*hold=*/true), g);
    a.update(g, 0);
  }
  EXPECT_NE(a.arbitrate(0b1111, cls, nullptr, false), g);
}
