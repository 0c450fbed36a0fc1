// NocExtension: the TLM-2.0 generic-payload extension of a Switchyard network message.
// On the way in (an initiator calling a NetworkInterface's target socket) it carries the message's
// priority class and, optionally, a multicast destination list or the broadcast flag, plus the
// initiator's own tag. On the way out (the NI calling its receiver) it reports the source node
// and the cycles the message was requested, injected and delivered.
#pragma once
#include <tlm>
#include <vector>

#include "switchyard/base/common.hpp"

namespace sy {

class NocExtension : public tlm::tlm_extension<NocExtension> {
 public:
  // Request side.
  int priority = 0;  // 0 = highest class; must be < router.priority_classes
  // The traffic class it is counted in (results' by_traffic_class), 0 to kMaxClasses - 1.
  int traffic_class = 0;
  bool broadcast = false;      // to every other node; the address is ignored
  std::vector<int> multicast;  // to each of these nodes when not empty; the address is ignored
  std::uint64_t tag = 0;       // the initiator's id for the message, handed back on delivery
  // A message of a protocol run by the nodes (the hops of a dynamic scheme's periods): carried
  // and counted as traffic, left out of the latency samples (its protocol reports its own).
  bool unmeasured = false;
  // Optional source route: the hops (dimension, direction +1/-1; 0 for the single link of a
  // size-2 dimension) from the source; it must end at the address. not_before holds the packet
  // in its queue at that hop until that cycle (a slot schedule's "send on link j in slot t").
  // Input-VC routers take only dimension-ordered routes (dimensions in increasing order, one
  // direction per dimension, less than one turn around a ring), which their dateline VC
  // classes keep deadlock free; others are refused.
  struct Hop {
    int dim, dir;
    Cycle not_before = 0;
  };
  std::vector<Hop> route;
  // Delivery side (set by the destination NI).
  int src = -1;
  Cycle created = 0, injected = 0, delivered = 0;

  tlm::tlm_extension_base* clone() const override { return new NocExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const NocExtension&>(other);
  }
};

// What a receive callback gets for each delivered message.
struct Delivery {
  int src = 0, dst = 0, priority = 0;
  std::uint32_t bytes = 0;
  std::uint64_t tag = 0;
  Cycle created = 0, injected = 0, delivered = 0;
  const unsigned char* data = nullptr;  // null when the message carried no data
};

}  // namespace sy
