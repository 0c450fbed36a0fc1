// Huge pages for the network's state (Linux transparent huge pages). At 4,096 routers the state a
// cycle touches spans tens of megabytes of heap; with 4 KB pages most of those accesses also miss
// the TLB. Once the network is built, the heap is advised (MADV_HUGEPAGE: what it grows into
// later) and collapsed into 2 MB pages (MADV_COLLAPSE, Linux 6.1 and later). Best effort: a
// kernel or setting that refuses leaves the pages as they are. Results never depend on it (only
// where memory lies). SWITCHYARD_NO_HUGE_PAGES=1 turns it off (to measure what it buys).
#pragma once
#include <cstddef>

namespace sy {

// Returns the bytes of heap advised (0: none, too small to matter, or off).
std::size_t use_huge_pages_for_heap();

}  // namespace sy
