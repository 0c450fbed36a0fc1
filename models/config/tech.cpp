// The technology files' parameters (config/tech.hpp).
#include "switchyard/config/tech.hpp"

namespace sy {

const std::vector<TechKey>& tech_keys() {
  static const std::vector<TechKey> keys = {
      {"node_nm", &Tech::node_nm, 1, 1000, "nm", "feature size"},
      {"vdd", &Tech::vdd, 0.1, 5, "V", "supply voltage"},
  };
  return keys;
}

}  // namespace sy
