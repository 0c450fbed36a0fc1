// OutputUnit: one router output port (or an NI's injection channel): the state of each downstream
// VC (free or owned, credits left), when the channel can start its next flit, the arbiter that
// picks which input gets the output (switch allocation's second stage), and the link.
#pragma once
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/base/small_vec.hpp"
#include "switchyard/router/arbiter.hpp"
#include "switchyard/router/link.hpp"

namespace sy {

struct OutputVc {
  int credits = 0;
  bool owned = false;      // allocated to a packet
  bool tail_sent = false;  // the owner's tail has gone; free once every credit is back
};

// (Three lines, 64-aligned: what switch allocation reads, then what a grant writes — the
// arbiter and the link's destination and counters — then what only reports read.)
class alignas(64) OutputUnit {
 public:
  OutputUnit(int vcs = 0, int depth = 0)
      : vcs(static_cast<std::size_t>(vcs), OutputVc{depth, false, false}), depth(depth) {}
  Cycle free_at = 0;  // the channel may start a flit at this cycle or later
  // The downstream VCs (up to 4 in the object).
  SmallVec<OutputVc, 4> vcs;
  int depth;
  // router.wait_for_tail_credit: false frees a VC as its tail leaves (the next packet may follow
  // it into the downstream buffer); true (default) once every credit is back as well.
  bool free_on_tail = false;
  Arbiter arbiter;               // set by the router's switch allocation (input-VC routers)
  Link link;                     // the channel (in the unit: a traversal touches no other object)
  std::uint64_t violations = 0;  // credit count left [0, depth]: must stay 0

  // VcAllocator's choice: the lowest free VC in [lo, hi), or -1.
  int find_free(int lo, int hi) const {
    for (int v = lo; v < hi; ++v)
      if (!vcs[v].owned) return v;
    return -1;
  }
  // Switch allocation with VC allocation folded in (the ideal pipeline): the lowest free VC in
  // [lo, hi) that has a credit (a free VC has all its credits unless free_on_tail), or -1.
  int find_free_with_credit(int lo, int hi) const {
    for (int v = lo; v < hi; ++v)
      if (!vcs[v].owned && vcs[v].credits > 0) return v;
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
  // The owner's tail left on VC v.
  void tail_sent(int v) {
    if (free_on_tail)
      vcs[v].owned = false;
    else
      vcs[v].tail_sent = true;
  }
  void credit(int v) {
    OutputVc& o = vcs[v];
    if (++o.credits > depth) ++violations;
    if (o.tail_sent && o.credits == depth) o.owned = o.tail_sent = false;
  }
};

}  // namespace sy
