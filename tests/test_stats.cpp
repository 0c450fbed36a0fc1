// Streaming statistics (SampleSet): the mean, count and max exact; p50 and p99 exact for integer
// values below 1,024 and within the documented 1/128 above; batch means from time bins close to
// the exact equal-count batches; bounded memory whatever the number of samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "switchyard/base/rng.hpp"
#include "switchyard/network/stats.hpp"

using namespace sy;

namespace {
double exact_pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const std::size_t k = static_cast<std::size_t>(std::ceil(q * v.size()));
  return v[k == 0 ? 0 : k - 1];
}
}  // namespace

TEST(SampleSet, IntegerValuesBelowTheExactRangeGiveExactQuantiles) {
  Rng rng(3);
  SampleSet s(100);
  std::vector<double> v;
  for (int i = 0; i < 100000; ++i) {
    const double x = static_cast<double>(rng.below(900));
    s.add(100 + static_cast<Cycle>(i), x);
    v.push_back(x);
  }
  const Summary m = s.summarize(20);
  double sum = 0;
  for (double x : v) sum += x;
  EXPECT_EQ(m.count, v.size());
  EXPECT_DOUBLE_EQ(m.mean, sum / v.size());
  EXPECT_EQ(m.p50, exact_pct(v, 0.5));
  EXPECT_EQ(m.p90, exact_pct(v, 0.9));
  EXPECT_EQ(m.p95, exact_pct(v, 0.95));
  EXPECT_EQ(m.p99, exact_pct(v, 0.99));
  EXPECT_EQ(m.p999, exact_pct(v, 0.999));
  EXPECT_EQ(m.max, *std::max_element(v.begin(), v.end()));
}

TEST(SampleSet, LargeValuesWithinTheDocumentedRelativeError) {
  Rng rng(5);
  SampleSet s(0);
  std::vector<double> v;
  for (int i = 0; i < 50000; ++i) {
    const double x = std::floor(1000 + 1e6 * rng.uniform() * rng.uniform());
    s.add(static_cast<Cycle>(i), x);
    v.push_back(x);
  }
  const Summary m = s.summarize(20);
  // Every quantile within 1/128 of the exact one and never below it (the bin's upper edge).
  const std::pair<double, double> qs[] = {
      {0.5, m.p50}, {0.9, m.p90}, {0.95, m.p95}, {0.99, m.p99}, {0.999, m.p999}};
  for (const auto& [q, got] : qs) {
    const double exact = exact_pct(v, q);
    EXPECT_NEAR(got, exact, exact / 128) << q;
    EXPECT_GE(got, exact) << q;
  }
}

TEST(SampleSet, BatchMeansMatchExactEqualCountBatches) {
  // An autocorrelated series (AR(1)) created in order over a long run: the time bins merge many
  // times; the interval from the grouped bins is close to the one from exact batches.
  Rng rng(7);
  SampleSet s(0);
  std::vector<double> v;
  double x = 0;
  for (int i = 0; i < 2000000; ++i) {
    x = 0.9 * x + (rng.uniform() - 0.5);
    s.add(static_cast<Cycle>(i) * 3, 100 + x);
    v.push_back(100 + x);
  }
  const Summary m = s.summarize(20);
  const std::size_t B = 20, per = v.size() / B;
  std::vector<double> means(B, 0);
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t i = b * per; i < (b + 1) * per; ++i) means[b] += v[i];
    means[b] /= per;
  }
  double mm = 0, var = 0;
  for (double y : means) mm += y;
  mm /= B;
  for (double y : means) var += (y - mm) * (y - mm);
  const double ci = student_t975(B - 1) * std::sqrt(var / (B - 1) / B);
  EXPECT_NEAR(m.ci95, ci, 0.1 * ci);
  EXPECT_GT(m.ci95, 0);
}
