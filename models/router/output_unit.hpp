// OutputUnit: one router output port (or an NI's injection channel): the state of each downstream
// VC (free or owned, credits left), when the channel can start its next flit, the arbiter that
// picks which input gets the output (switch allocation's second stage), and the link.
#pragma once
#include <cstdint>
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/base/out_of_line.hpp"
#include "switchyard/router/arbiter.hpp"
#include "switchyard/router/link.hpp"

namespace sy {

class Router;

struct OutputVc {
  std::int16_t credits = 0;  // (vc_depth <= 4,096)
  bool owned = false;        // allocated to a packet
  bool tail_sent = false;    // the owner's tail has gone; free once every credit is back
};

// (Two lines, 64-aligned. The first is all that a bid reads and a grant writes: when the channel
// is free, the arbiter, the link's destination and flit count, and the first four downstream
// VCs; the next two VCs begin the second line, and more than six are on the heap. The rest of
// the second line is what only reports read: the link's record, the violations. With 4,096
// routers a cycle's cost is the lines it touches: a passing flit reads one line here.)
class alignas(64) OutputUnit {
 public:
  static constexpr int kNearVcs = 6;
  explicit OutputUnit(int vcs = 0, int depth = 0);

  Cycle free_at = 0;  // the channel may start a flit at this cycle or later
  // The link's hot part: where it goes (an input-VC dst: also its input unit, prefetched by
  // forward()) and the flits it has carried (busy cycles: from these counts at the window's
  // edges, or in Link for packet-level routers).
  Router* dst = nullptr;
  const void* dst_input = nullptr;
  std::uint64_t flits = 0;
  Arbiter arbiter;  // set by the router's switch allocation (input-VC routers)
  std::int16_t depth;
  std::int8_t dst_port = -1;  // the input port of dst it arrives at (< 64: the arbiters' limit)

 private:
  std::uint8_t nvcs_ : 7;

 public:
  // router.wait_for_tail_credit: false frees a VC as its tail leaves (the next packet may follow
  // it into the downstream buffer); true (default) once every credit is back as well.
  bool free_on_tail : 1;

 private:
  OutputVc near_[kNearVcs];               // VCs 0..5 (0..3 in the first line)
  OutOfLine<std::vector<OutputVc>> far_;  // VCs 6.. (one pointer; copies copy them)

 public:
  std::uint64_t violations = 0;  // credit count left [0, depth]: must stay 0
  Link link;                     // the link's record for reports

  int num_vcs() const { return nvcs_; }
  // VC v. kNear: the caller knows v < kNearVcs (its network has at most six VCs: the hot paths);
  // otherwise a branch on the VC, which reads no other line.
  template <bool kNear = false>
  OutputVc& vc(int v) {
    if (kNear || __builtin_expect(v < kNearVcs, 1)) return near_[v];
    return far_.made()[static_cast<std::size_t>(v - kNearVcs)];
  }
  template <bool kNear = false>
  const OutputVc& vc(int v) const {
    return const_cast<OutputUnit*>(this)->vc<kNear>(v);
  }

  // VcAllocator's choice: the lowest free VC in [lo, hi), or -1.
  int find_free(int lo, int hi) const {
    for (int v = lo; v < hi; ++v)
      if (!vc(v).owned) return v;
    return -1;
  }
  // Switch allocation with VC allocation folded in (the ideal pipeline): the lowest free VC in
  // [lo, hi) that has a credit (a free VC has all its credits unless free_on_tail), or -1.
  template <bool kNear = false>
  int find_free_with_credit(int lo, int hi) const {
    for (int v = lo; v < hi; ++v) {
      const OutputVc& o = vc<kNear>(v);
      if (!o.owned && o.credits > 0) return v;
    }
    return -1;
  }
  // A flit leaves on VC v (o: vc(v)): one credit fewer.
  void consume(int v) { consume(vc(v)); }
  void consume(OutputVc& o) {
    if (--o.credits < 0) ++violations;
  }
  void take(int v) {
    OutputVc& o = vc(v);
    o.owned = true;
    o.tail_sent = false;
  }
  // The owner's tail left on VC v (o: vc(v)).
  void tail_sent(int v) { tail_sent(vc(v)); }
  void tail_sent(OutputVc& o) {
    if (free_on_tail)
      o.owned = false;
    else
      o.tail_sent = true;
  }
  template <bool kNear = false>
  void credit(int v) {
    OutputVc& o = vc<kNear>(v);
    if (++o.credits > depth) ++violations;
    // (Without a branch: whether this credit is the last one back is a coin toss to the branch
    // predictor; measured, 5% of the time of the 8x8 rows, ideal and staged.)
    const bool released = o.tail_sent & (o.credits == depth);
    o.owned &= !released;
    o.tail_sent &= !released;
  }
};
static_assert(sizeof(OutputUnit) == 128, "an output unit is two cache lines");

// The network's links in order, each where it lives (its source's output unit).
class LinkList {
 public:
  struct Iterator {
    const OutputUnit* const* p;
    const OutputUnit& operator*() const { return **p; }
    Iterator& operator++() {
      ++p;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return p != o.p; }
  };
  void push_back(OutputUnit* u) { units_.push_back(u); }
  void reserve(std::size_t n) { units_.reserve(n); }
  std::size_t size() const { return units_.size(); }
  bool empty() const { return units_.empty(); }
  const OutputUnit& operator[](std::size_t i) const { return *units_[i]; }
  OutputUnit& at(std::size_t i) { return *units_[i]; }
  Iterator begin() const { return {units_.data()}; }
  Iterator end() const { return {units_.data() + units_.size()}; }

 private:
  std::vector<OutputUnit*> units_;
};

}  // namespace sy
