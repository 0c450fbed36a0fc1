#include "switchyard/base/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

namespace sy {

namespace {
#ifndef MADV_COLLAPSE
constexpr int MADV_COLLAPSE = 25;  // (Linux 6.1; older headers do not name it)
#endif
constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
constexpr std::uintptr_t kWorthIt = std::uintptr_t{8} << 20;  // smaller heaps fit the TLB
}  // namespace

std::size_t use_huge_pages_for_heap() {
  if (const char* off = std::getenv("SWITCHYARD_NO_HUGE_PAGES"); off && *off && *off != '0')
    return 0;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("[heap]") == std::string::npos) continue;
    const std::size_t dash = line.find('-');
    const std::uintptr_t lo = std::stoull(line.substr(0, dash), nullptr, 16);
    const std::uintptr_t hi = std::stoull(line.substr(dash + 1), nullptr, 16);
    const std::uintptr_t a = (lo + kHuge - 1) & ~(kHuge - 1), b = hi & ~(kHuge - 1);
    if (b <= a || b - a < kWorthIt) return 0;
    void* p = reinterpret_cast<void*>(a);
    if (madvise(p, b - a, MADV_HUGEPAGE) != 0) return 0;
    madvise(p, b - a, MADV_COLLAPSE);  // (refused by older kernels: the advice above remains)
    return b - a;
  }
  return 0;
}

}  // namespace sy
