#include "sim/stats.hpp"

#include <algorithm>
#include <cmath>

namespace sy {

double student_t975(int df) {
  static const double table[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                 2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                 2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                 2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) return 0.0;
  if (df <= 30) return table[df];
  // Cornish-Fisher expansion around the normal quantile; error < 1e-3 for df > 30.
  const double z = 1.959964, n = df;
  return z + (z * z * z + z) / (4 * n) +
         (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

namespace {
// Batch means in creation order, then percentiles of the sorted values.
Summary summarize_values(std::vector<double>& v, int batches) {
  Summary s;
  s.count = v.size();
  if (v.empty()) return s;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / v.size();
  const std::size_t B = std::min<std::size_t>(batches, v.size());
  if (B >= 2) {
    const std::size_t per = v.size() / B;
    std::vector<double> means(B, 0.0);
    for (std::size_t b = 0; b < B; ++b) {
      double bs = 0;
      for (std::size_t i = b * per; i < (b + 1) * per; ++i) bs += v[i];
      means[b] = bs / per;
    }
    double m = 0, var = 0;
    for (double x : means) m += x;
    m /= B;
    double lag = 0;
    for (std::size_t b = 0; b < B; ++b) {
      var += (means[b] - m) * (means[b] - m);
      if (b + 1 < B) lag += (means[b] - m) * (means[b + 1] - m);
    }
    // Lag-1 autocorrelation of the batch means: near 0 when the batches are long against the
    // correlation time of the delays (then the CI is honest).
    s.lag1 = var > 0 ? lag / var : 0.0;
    var /= (B - 1);
    s.ci95 = student_t975(static_cast<int>(B - 1)) * std::sqrt(var / B);
  }
  std::sort(v.begin(), v.end());
  auto pct = [&](double q) {
    const std::size_t k = static_cast<std::size_t>(std::ceil(q * v.size()));
    return v[k == 0 ? 0 : k - 1];
  };
  s.p50 = pct(0.50);
  s.p99 = pct(0.99);
  s.max = v.back();
  return s;
}
}  // namespace

Summary SampleSet::summarize(int batches) const {
  std::vector<S> by_time = v_;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const S& a, const S& b) { return a.created < b.created; });
  std::vector<double> v(by_time.size());
  for (std::size_t i = 0; i < by_time.size(); ++i) v[i] = by_time[i].value;
  return summarize_values(v, batches);
}

std::vector<std::uint64_t> Stats::latency_histogram(double bin, int bins) const {
  std::vector<std::uint64_t> h(static_cast<std::size_t>(bins) + 1, 0);  // the last: overflow
  for (const Sample& s : samples_) {
    const double k = static_cast<double>(s.latency) / bin;
    ++h[k >= bins ? static_cast<std::size_t>(bins) : static_cast<std::size_t>(k)];
  }
  return h;
}

Summary Stats::summarize(bool network) const {
  std::vector<Sample> by_time = samples_;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const Sample& a, const Sample& b) { return a.created < b.created; });
  std::vector<double> v(by_time.size());
  for (std::size_t i = 0; i < by_time.size(); ++i)
    v[i] = static_cast<double>(network ? by_time[i].net_latency : by_time[i].latency);
  return summarize_values(v, batches_);
}

}  // namespace sy
