// Link: one direction of a physical channel between two routers (or NI and router). A flit
// occupies it for tau cycles; the link counts what it carried and its busy cycles inside the
// measurement window, for utilization.
#pragma once
#include <cstdint>

#include "switchyard/base/common.hpp"

namespace sy {

class Router;

struct Link {
  int src_node = -1, src_port = -1;
  int dst_node = -1, dst_port = -1;
  Router* dst = nullptr;
  std::uint64_t flits = 0;        // all flits ever carried
  std::uint64_t busy_window = 0;  // busy cycles that started inside the measurement window
  // Output-queued routers: packets that left on this link inside the window and the sum of
  // their sojourns at it (ready in its queue -> last flit on the link), for queue lengths.
  std::uint64_t departures_window = 0, sojourn_window = 0;
};

}  // namespace sy
