#include "switchyard/network/stats.hpp"

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

SampleSet::SampleSet(Cycle origin)
    : origin_(origin), tsum_(kTimeBins, 0.0), tcount_(kTimeBins, 0), vhist_(kExact, 0) {}

// Values below kExact: one bin per unit; above: kSub bins per power of two.
int SampleSet::value_bin(double v) {
  if (!(v > 0)) return 0;
  if (v < kExact) return static_cast<int>(v);
  int e = 0;
  double m = std::frexp(v / kExact, &e);  // v / kExact = m 2^e, m in [0.5, 1)
  const int sub = std::min(kSub - 1, static_cast<int>((m * 2 - 1) * kSub));
  return kExact + (e - 1) * kSub + sub;
}

double SampleSet::bin_value(int b) {
  if (b < kExact) return b;
  const int e = (b - kExact) / kSub, sub = (b - kExact) % kSub;
  return std::ldexp(kExact * (1.0 + static_cast<double>(sub) / kSub), e);
}

void SampleSet::add(Cycle created, double value) {
  ++n_;
  sum_ += value;
  if (value > max_) max_ = value;
  const int vb = value_bin(value);
  if (vb >= static_cast<int>(vhist_.size())) vhist_.resize(static_cast<std::size_t>(vb) + 1, 0);
  ++vhist_[static_cast<std::size_t>(vb)];
  const Cycle dt = created > origin_ ? created - origin_ : 0;
  while ((dt >> width_log2_) >= static_cast<Cycle>(kTimeBins)) {
    // The run outgrew the bins: merge them pairwise, twice as wide.
    for (int i = 0; i < kTimeBins / 2; ++i) {
      tsum_[i] = tsum_[2 * i] + tsum_[2 * i + 1];
      tcount_[i] = tcount_[2 * i] + tcount_[2 * i + 1];
    }
    std::fill(tsum_.begin() + kTimeBins / 2, tsum_.end(), 0.0);
    std::fill(tcount_.begin() + kTimeBins / 2, tcount_.end(), 0);
    ++width_log2_;
  }
  const std::size_t tb = static_cast<std::size_t>(dt >> width_log2_);
  tsum_[tb] += value;
  ++tcount_[tb];
}

Summary SampleSet::summarize(int batches) const {
  Summary s;
  s.count = n_;
  if (n_ == 0) return s;
  s.mean = sum_ / static_cast<double>(n_);
  s.max = max_;
  // Batch means: consecutive time bins grouped into B batches of about n/B samples each.
  const std::size_t B = std::min<std::uint64_t>(static_cast<std::uint64_t>(batches), n_);
  if (B >= 2) {
    std::vector<double> means;
    double bs = 0;
    std::uint64_t bc = 0, done = 0;
    for (int i = 0; i < kTimeBins && means.size() < B; ++i) {
      bs += tsum_[static_cast<std::size_t>(i)];
      bc += tcount_[static_cast<std::size_t>(i)];
      if (bc > 0 && (done + bc) * B >= n_ * (means.size() + 1)) {
        means.push_back(bs / static_cast<double>(bc));
        done += bc;
        bs = 0;
        bc = 0;
      }
    }
    const std::size_t M = means.size();
    if (M >= 2) {
      double m = 0, var = 0, lag = 0;
      for (double x : means) m += x;
      m /= static_cast<double>(M);
      for (std::size_t b = 0; b < M; ++b) {
        var += (means[b] - m) * (means[b] - m);
        if (b + 1 < M) lag += (means[b] - m) * (means[b + 1] - m);
      }
      // Lag-1 autocorrelation of the batch means: near 0 when the batches are long against the
      // correlation time of the values (then the interval is honest).
      s.lag1 = var > 0 ? lag / var : 0.0;
      s.batched = true;
      var /= static_cast<double>(M - 1);
      s.ci95 = student_t975(static_cast<int>(M - 1)) * std::sqrt(var / static_cast<double>(M));
    }
  }
  auto pct = [&](double q) {
    std::uint64_t k = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n_)));
    if (k == 0) k = 1;
    std::uint64_t c = 0;
    for (std::size_t b = 0; b < vhist_.size(); ++b) {
      c += vhist_[b];
      if (c >= k) {
        // (A bin of one whole value below kExact; above, the bin's upper edge: at or above
        // every value in it.)
        const int bi = static_cast<int>(b);
        return std::min(bi < kExact ? bin_value(bi) : bin_value(bi + 1), max_);
      }
    }
    return max_;
  };
  s.p50 = pct(0.50);
  s.p90 = pct(0.90);
  s.p95 = pct(0.95);
  s.p99 = pct(0.99);
  s.p999 = pct(0.999);
  return s;
}

std::vector<std::uint64_t> SampleSet::histogram(double bin, int bins) const {
  std::vector<std::uint64_t> h(static_cast<std::size_t>(bins) + 1, 0);  // the last: overflow
  for (std::size_t b = 0; b < vhist_.size(); ++b) {
    if (!vhist_[b]) continue;
    const double k = bin_value(static_cast<int>(b)) / bin;
    h[k >= bins ? static_cast<std::size_t>(bins) : static_cast<std::size_t>(k)] += vhist_[b];
  }
  return h;
}

void Stats::track_classes(int priorities, int traffic_classes) {
  by_priority_.assign(priorities > 1 ? static_cast<std::size_t>(priorities) : 0, ClassStats(w0_));
  by_traffic_.assign(traffic_classes > 1 ? static_cast<std::size_t>(traffic_classes) : 0,
                     ClassStats(w0_));
  classes_ = !by_priority_.empty() || !by_traffic_.empty();
}

void Stats::on_class_delivered(const Measured& p) {
  const double lat = static_cast<double>(p.delivered - p.created);
  const double net = static_cast<double>(p.delivered - p.injected);
  for (std::vector<ClassStats>* v : {&by_priority_, &by_traffic_}) {
    if (v->empty()) continue;
    ClassStats& c = (*v)[v == &by_priority_ ? static_cast<std::size_t>(p.priority)
                                            : static_cast<std::size_t>(p.traffic_class)];
    c.lat.add(p.created, lat);
    c.net.add(p.created, net);
  }
}

std::vector<std::uint64_t> Stats::latency_histogram(double bin, int bins) const {
  return lat_.histogram(bin, bins);
}

}  // namespace sy
