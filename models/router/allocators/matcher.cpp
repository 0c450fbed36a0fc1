#include "switchyard/router/allocators/matcher.hpp"

namespace sy {

std::unique_ptr<Matcher> make_islip(int inputs, int outputs, int iterations);
std::unique_ptr<Matcher> make_wavefront(int inputs, int outputs);

std::unique_ptr<Matcher> make_matcher(const std::string& name, int inputs, int outputs,
                                      int iterations) {
  if (name == "separable_output_first") return make_islip(inputs, outputs, 1);
  if (name == "islip") return make_islip(inputs, outputs, iterations);
  if (name == "wavefront") return make_wavefront(inputs, outputs);
  return nullptr;  // separable_input_first: the switch allocator's own path
}

}  // namespace sy
