// OutputUnit: one router output port (or an NI's injection channel): the state of each downstream
// VC (free or owned, credits left), when the channel can start its next flit, and the link.
#pragma once
#include <vector>

#include "base/common.hpp"
#include "router/link.hpp"

namespace sy {

struct OutputVc {
  int credits = 0;
  bool owned = false;      // allocated to a packet
  bool tail_sent = false;  // the owner's tail has gone; free once every credit is back
};

class OutputUnit {
 public:
  OutputUnit(int vcs = 0, int depth = 0) : vcs(vcs, OutputVc{depth, false, false}), depth(depth) {}
  std::vector<OutputVc> vcs;
  int depth;
  Cycle free_at = 0;  // the channel may start a flit at this cycle or later
  Link* link = nullptr;
  std::uint64_t violations = 0;  // credit count left [0, depth]: must stay 0

  // VcAllocator's choice: the lowest free VC in [lo, hi), or -1.
  int find_free(int lo, int hi) const {
    for (int v = lo; v < hi; ++v)
      if (!vcs[v].owned) return v;
    return -1;
  }
  // A flit leaves on VC v: one credit fewer.
  void consume(int v) {
    if (--vcs[v].credits < 0) ++violations;
  }
  void take(int v) {
    vcs[v].owned = true;
    vcs[v].tail_sent = false;
  }
  void credit(int v) {
    OutputVc& o = vcs[v];
    if (++o.credits > depth) ++violations;
    if (o.tail_sent && o.credits == depth) o.owned = o.tail_sent = false;
  }
};

}  // namespace sy
