// Matcher: the matching step of a switch allocator other than separable input-first. Given this
// cycle's request matrix (req[i]: the outputs input i has a ready VC for), it grants at most one
// output per input and one input per output (grant[i]: the output, or -1). The switch allocator
// then picks which of the input's VCs bidding for that output goes (its VC arbiter). Matchers
// arbitrate round-robin and see no priority classes; the config refuses them with
// priority_classes > 1 or oldest_first. Chosen by router.switch_allocator; one file each:
//   islip (islip.cpp): iSLIP with `iterations` request-grant-accept rounds; pointers move only
//     for grants accepted in the first round. separable_output_first is iSLIP with one round:
//     each output's round-robin arbiter grants one requesting input, each input's accepts one
//     granting output, and an arbiter's pointer moves past a winner only when the grant is used.
//   wavefront (wavefront.cpp): the cells of the request matrix in diagonal order from a priority
//     diagonal that advances every cycle; a cell is granted when its row and column are free.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sy {

class Matcher {
 public:
  Matcher(int inputs, int outputs) : inputs_(inputs), outputs_(outputs) {}
  virtual ~Matcher() = default;
  virtual void match(const std::uint64_t* req, int* grant) = 0;

 protected:
  // The first set bit of m at or after position from (wrapping), or -1.
  static int round_robin(std::uint64_t m, int from) {
    if (!m) return -1;
    const std::uint64_t hi = from >= 64 ? 0 : m & (~std::uint64_t{0} << from);
    return __builtin_ctzll(hi ? hi : m);
  }
  const int inputs_, outputs_;
};

// Every router.switch_allocator name, in the registry's order (matcher.cpp; the config's
// allowed values).
const std::vector<std::string>& switch_allocator_names();
// The allocator by name: null for "separable_input_first" (the SwitchAllocator's own path).
std::unique_ptr<Matcher> make_matcher(const std::string& name, int inputs, int outputs,
                                      int iterations);

}  // namespace sy
