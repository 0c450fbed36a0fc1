#include <algorithm>

#include "switchyard/router/allocators/matcher.hpp"

namespace sy {

namespace {

class Wavefront : public Matcher {
 public:
  Wavefront(int inputs, int outputs) : Matcher(inputs, outputs), n_(std::max(inputs, outputs)) {}

  // Diagonal k holds the cells (i, (i + k) mod n); the sweep starts at the priority diagonal,
  // which moves on by one every cycle, so no cell keeps the lowest priority.
  void match(const std::uint64_t* req, int* grant) override {
    for (int i = 0; i < inputs_; ++i) grant[i] = -1;
    std::uint64_t used_out = 0;
    for (int d = 0; d < n_; ++d) {
      const int k = (priority_ + d) % n_;
      for (int i = 0; i < inputs_; ++i) {
        if (grant[i] >= 0) continue;
        const int o = (i + k) % n_;
        if (o >= outputs_ || !(req[i] >> o & 1) || (used_out >> o & 1)) continue;
        grant[i] = o;
        used_out |= std::uint64_t{1} << o;
      }
    }
    priority_ = priority_ + 1 == n_ ? 0 : priority_ + 1;
  }

 private:
  const int n_;
  int priority_ = 0;
};

}  // namespace

std::unique_ptr<Matcher> make_wavefront(int inputs, int outputs) {
  return std::make_unique<Wavefront>(inputs, outputs);
}

}  // namespace sy
