#include <vector>

#include "switchyard/router/allocators/matcher.hpp"

namespace sy {

namespace {

class Islip : public Matcher {
 public:
  Islip(int inputs, int outputs, int iterations)
      : Matcher(inputs, outputs),
        iterations_(iterations),
        grant_ptr_(outputs, 0),
        accept_ptr_(inputs, 0),
        col_(outputs),
        granted_(inputs) {}

  void match(const std::uint64_t* req, int* grant) override {
    for (int i = 0; i < inputs_; ++i) grant[i] = -1;
    std::uint64_t free_in = inputs_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << inputs_) - 1;
    std::uint64_t free_out =
        outputs_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << outputs_) - 1;
    for (int it = 0; it < iterations_; ++it) {
      // Request: unmatched inputs to unmatched outputs (the matrix by column).
      bool any = false;
      for (int o = 0; o < outputs_; ++o) col_[o] = 0;
      for (std::uint64_t m = free_in; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        for (std::uint64_t r = req[i] & free_out; r; r &= r - 1) {
          col_[__builtin_ctzll(r)] |= std::uint64_t{1} << i;
          any = true;
        }
      }
      if (!any) break;
      // Grant: each output, round-robin from its pointer.
      for (int i = 0; i < inputs_; ++i) granted_[i] = 0;
      for (std::uint64_t m = free_out; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        const int i = round_robin(col_[o], grant_ptr_[o]);
        if (i >= 0) granted_[i] |= std::uint64_t{1} << o;
      }
      // Accept: each input, round-robin from its pointer; pointers move in the first round.
      for (std::uint64_t m = free_in; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        const int o = round_robin(granted_[i], accept_ptr_[i]);
        if (o < 0) continue;
        grant[i] = o;
        free_in &= ~(std::uint64_t{1} << i);
        free_out &= ~(std::uint64_t{1} << o);
        if (it == 0) {
          grant_ptr_[o] = i + 1 == inputs_ ? 0 : i + 1;
          accept_ptr_[i] = o + 1 == outputs_ ? 0 : o + 1;
        }
      }
    }
  }

 private:
  const int iterations_;
  std::vector<int> grant_ptr_, accept_ptr_;
  std::vector<std::uint64_t> col_, granted_;
};

}  // namespace

std::unique_ptr<Matcher> make_islip(int inputs, int outputs, int iterations) {
  return std::make_unique<Islip>(inputs, outputs, iterations);
}

}  // namespace sy
