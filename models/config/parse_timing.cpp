// timing: {alpha, delta, tau, ack_per_hop} (the linear cost model, in cycles)
#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

void parse_timing(Section& s, Config& c) {
  c.timing.alpha = static_cast<int>(s.integer("alpha", 0, 0, 1 << 24));
  c.timing.delta = static_cast<int>(s.integer("delta", 1, 0, 1 << 24));
  c.timing.tau = static_cast<int>(s.integer("tau", 1, 1, 1 << 16));
  c.timing.ack_per_hop = static_cast<int>(s.integer("ack_per_hop", 0, 0, 1 << 20));
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
