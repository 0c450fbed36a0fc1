// Link: one direction of a physical channel between two routers (or NI and router). A flit
// occupies it for tau cycles. Where it goes and the flits it has carried are in its source's
// output unit (OutputUnit: dst, dst_input, dst_port, flits, in the line a grant writes); this is
// its record for reports: its ends, and its busy cycles inside the measurement window.
#pragma once
#include <cstdint>

namespace sy {

struct Link {
  std::uint64_t busy_window = 0;  // busy cycles that started inside the measurement window
  // Output-queued routers: packets that left on this link inside the window and the sum of
  // their sojourns at it (ready in its queue -> last flit on the link), for queue lengths.
  std::uint64_t departures_window = 0, sojourn_window = 0;
  int dst_node = -1;
  int src_node = -1, src_port = -1;
};

}  // namespace sy
