// Link: one direction of a physical channel between two routers (or NI and router). A flit
// occupies it for tau cycles; the link counts what it carried and its busy cycles inside the
// measurement window, for utilization.
#pragma once
#include <cstdint>
#include <vector>

#include "switchyard/base/common.hpp"

namespace sy {

class Router;

struct Link {
  // (What a traversal reads and writes first: a link lives in its source's output unit, in the
  // line a grant writes anyway, after the output's arbiter.)
  Router* dst = nullptr;
  const void* dst_input = nullptr;  // an input-VC dst: its input unit (prefetched: forward())
  std::uint64_t flits = 0;          // all flits ever carried
  std::uint64_t busy_window = 0;    // busy cycles that started inside the measurement window
  int dst_port = -1;
  int dst_node = -1;
  int src_node = -1, src_port = -1;
  // Output-queued routers: packets that left on this link inside the window and the sum of
  // their sojourns at it (ready in its queue -> last flit on the link), for queue lengths.
  std::uint64_t departures_window = 0, sojourn_window = 0;
};

// The network's links in order, each where it lives (its source's output unit).
class LinkList {
 public:
  struct Iterator {
    const Link* const* p;
    const Link& operator*() const { return **p; }
    Iterator& operator++() {
      ++p;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return p != o.p; }
  };
  void push_back(Link* l) { links_.push_back(l); }
  void reserve(std::size_t n) { links_.reserve(n); }
  std::size_t size() const { return links_.size(); }
  bool empty() const { return links_.empty(); }
  const Link& operator[](std::size_t i) const { return *links_[i]; }
  Link& at(std::size_t i) { return *links_[i]; }
  Iterator begin() const { return {links_.data()}; }
  Iterator end() const { return {links_.data() + links_.size()}; }

 private:
  std::vector<Link*> links_;
};

}  // namespace sy
