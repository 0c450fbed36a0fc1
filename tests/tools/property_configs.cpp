// Writes the property test's random configs (tests/properties.hpp) as YAML files, so scripts can
// run them through the program: property_configs DIR FIRST COUNT -> DIR/prop<seed>.yaml.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <systemc>

#include "properties.hpp"

// (sc_main: the SystemC library brings main and calls it.)
int sc_main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: property_configs DIR FIRST COUNT\n");
    return 1;
  }
  const std::string dir = argv[1];
  const unsigned long long first = std::strtoull(argv[2], nullptr, 10);
  const unsigned long long count = std::strtoull(argv[3], nullptr, 10);
  for (unsigned long long s = first; s < first + count; ++s) {
    const std::string path = dir + "/prop" + std::to_string(s) + ".yaml";
    std::ofstream f(path);
    f << sy::prop::random_config(s);
    f.close();
    if (!f) {
      std::fprintf(stderr, "property_configs: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
