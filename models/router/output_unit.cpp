#include "switchyard/router/output_unit.hpp"

#include <stdexcept>

namespace sy {

OutputUnit::OutputUnit(int vcs, int depth)
    : depth(static_cast<std::int16_t>(depth)), nvcs_(0), free_on_tail(false) {
  if (vcs < 0 || vcs > 64 || depth < 0 || depth > 4096)
    throw std::invalid_argument("output unit: 0..64 VCs of depth 0..4096");
  nvcs_ = static_cast<std::uint8_t>(vcs);
  if (vcs > kNearVcs) far_.get().resize(static_cast<std::size_t>(vcs - kNearVcs));
  for (int v = 0; v < vcs; ++v) vc(v).credits = static_cast<std::int16_t>(depth);
}

}  // namespace sy
