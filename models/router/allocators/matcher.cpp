#include "switchyard/router/allocators/matcher.hpp"

namespace sy {

std::unique_ptr<Matcher> make_islip(int inputs, int outputs, int iterations);
std::unique_ptr<Matcher> make_wavefront(int inputs, int outputs);

namespace {

// The registry: every router.switch_allocator, one line each (adding one: its file in this
// folder and a line here). `make` builds its Matcher (null: separable_input_first, the switch
// allocator's own path, which alone has priority classes and oldest-first).
struct AllocatorKind {
  const char* name;
  std::unique_ptr<Matcher> (*make)(int inputs, int outputs, int iterations);
};

const AllocatorKind kAllocators[] = {
    {"separable_input_first", nullptr},
    {"separable_output_first", [](int i, int o, int) { return make_islip(i, o, 1); }},
    {"islip", &make_islip},
    {"wavefront", [](int i, int o, int) { return make_wavefront(i, o); }},
};

}  // namespace

const std::vector<std::string>& switch_allocator_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const AllocatorKind& k : kAllocators) n.push_back(k.name);
    return n;
  }();
  return names;
}

std::unique_ptr<Matcher> make_matcher(const std::string& name, int inputs, int outputs,
                                      int iterations) {
  for (const AllocatorKind& k : kAllocators)
    if (name == k.name) return k.make ? k.make(inputs, outputs, iterations) : nullptr;
  return nullptr;
}

}  // namespace sy
