// network_interface: {flit_bytes}
#include "config/section.hpp"

namespace sy {
namespace config_detail {

void parse_interface(Section& s, Config& c) {
  c.interface.flit_bytes = static_cast<int>(s.integer("flit_bytes", 16, 1, 1 << 20));
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
