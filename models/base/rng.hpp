// Deterministic random numbers: xoshiro256** seeded by splitmix64, and the few distributions the
// traffic sources need, written out so results repeat bit for bit on any standard library.
#pragma once
#include <cmath>
#include <cstdint>

namespace sy {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) { reseed(seed); }
  void reseed(std::uint64_t seed) {
    for (auto& w : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      w = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t r = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return r;
  }
  // Uniform in [0, 1).
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>(uniform() * n); }
  bool bernoulli(double p) { return uniform() < p; }
  // Exponential with rate lambda (mean 1/lambda).
  double exponential(double lambda) { return -std::log1p(-uniform()) / lambda; }
  // Trials up to and including the first success, p in (0, 1]: >= 1.
  std::uint64_t geometric(double p) { return p >= 1.0 ? 1 : geometric_log(std::log1p(-p)); }
  // The same draw with log1p(-p) given (a source's rate is fixed: its logarithm is kept); p < 1.
  std::uint64_t geometric_log(double log1p_minus_p) {
    const double u = uniform();
    return 1 + static_cast<std::uint64_t>(std::floor(std::log1p(-u) / log1p_minus_p));
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace sy
