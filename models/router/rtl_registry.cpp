#include "switchyard/router/rtl_registry.hpp"

namespace sy {

namespace {
std::vector<RtlRouterBuild>& builds() {
  static std::vector<RtlRouterBuild> b;  // (filled by static initializers: made on first use)
  return b;
}
}  // namespace

void register_rtl_router(const RtlRouterBuild& b) {
  builds().push_back(b);
}

const std::vector<RtlRouterBuild>& rtl_router_builds() {
  return builds();
}

const RtlRouterBuild* find_rtl_router(const std::string& name, int vcs, int vc_depth) {
  for (const RtlRouterBuild& b : builds())
    if (b.name == name && b.vcs == vcs && b.vc_depth == vc_depth) return &b;
  return nullptr;
}

}  // namespace sy
