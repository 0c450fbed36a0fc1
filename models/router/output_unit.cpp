#include "switchyard/router/output_unit.hpp"

#include <stdexcept>

namespace sy {

OutputUnit::OutputUnit(int vcs, int depth)
    : depth(static_cast<std::int16_t>(depth)), nvcs_(0), free_on_tail(false) {
  if (vcs < 0 || vcs > 64 || depth < 0 || depth > 4096)
    throw std::invalid_argument("output unit: 0..64 VCs of depth 0..4096");
  nvcs_ = static_cast<std::uint8_t>(vcs);
  if (vcs > kNearVcs) far_ = new OutputVc[static_cast<std::size_t>(vcs - kNearVcs)];
  for (int v = 0; v < vcs; ++v) vc(v).credits = static_cast<std::int16_t>(depth);
}

OutputUnit::OutputUnit(const OutputUnit& o)
    : free_at(o.free_at),
      dst(o.dst),
      dst_input(o.dst_input),
      flits(o.flits),
      arbiter(o.arbiter),
      depth(o.depth),
      dst_port(o.dst_port),
      nvcs_(o.nvcs_),
      free_on_tail(o.free_on_tail),
      violations(o.violations),
      link(o.link) {
  copy_vcs(o);
}

OutputUnit& OutputUnit::operator=(const OutputUnit& o) {
  if (this == &o) return *this;
  free_at = o.free_at;
  dst = o.dst;
  dst_input = o.dst_input;
  flits = o.flits;
  arbiter = o.arbiter;
  depth = o.depth;
  dst_port = o.dst_port;
  nvcs_ = o.nvcs_;
  free_on_tail = o.free_on_tail;
  violations = o.violations;
  link = o.link;
  delete[] far_;
  far_ = nullptr;
  copy_vcs(o);
  return *this;
}

void OutputUnit::copy_vcs(const OutputUnit& o) {
  for (int v = 0; v < kNearVcs; ++v) near_[v] = o.near_[v];
  if (nvcs_ > kNearVcs) {
    far_ = new OutputVc[static_cast<std::size_t>(nvcs_ - kNearVcs)];
    for (int v = kNearVcs; v < nvcs_; ++v) far_[v - kNearVcs] = o.far_[v - kNearVcs];
  }
}

}  // namespace sy
