// CircuitRouter: circuit switching with the linear cost model. There are no flit buffers: a
// message's header builds its path hop by hop — delta cycles at each router it is switched
// through, then the crossbar connects the input to the output and holds it (the link is the
// circuit's until released). A header that wants a held output waits (router contention),
// first come first served. When the header reaches the destination the circuit is complete:
//  - direct_connect: the destination acknowledges (ack_per_hop cycles per hop, 0 by default as
//    in the paper), then the L flits stream at tau per flit; every link is released as the last
//    flit passes (all at once: data crosses a circuit without per-hop delay);
//  - wormhole circuits: no acknowledgment; the flits follow the header at once and each link is
//    released as the tail passes it.
// Isolated: alpha + h*delta (+ h*ack_per_hop) + L*tau from request to last flit in. All-port:
// one circuit per outgoing link, full duplex; a source route (a list of hops) may fix the path.
#pragma once
#include <vector>

#include "switchyard/base/ring.hpp"
#include "switchyard/router/crossbar.hpp"
#include "switchyard/router/router.hpp"

namespace sy {

class CircuitRouter : public Router {
 public:
  CircuitRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                NetworkInterface* const* nis);
  bool evaluate(Cycle t) override;
  void accept_flit(int, int, Flit, Cycle) override {}
  void accept_packet(int in_port, std::uint32_t packet, Cycle t) override;
  void connect_upstream(int, OutputUnit*, bool) override {}
  void sample(RouterProbe& p) const override;
  // The circuit holding output `port` lets it go at cycle `at`.
  void release(int port, Cycle at);

 private:
  struct Header {
    std::uint32_t packet;
    int in_port;
    Cycle ready;
  };
  void establish(std::uint32_t packet, Cycle t);
  std::vector<Ring<Header>> waiting_;  // per output: headers waiting for it, by ready cycle
  std::vector<Cycle> busy_until_;      // per output: kNever while a circuit holds it
  Crossbar xbar_;
  int waiting_count_ = 0;
  const int delta_, tau_, ack_;
  const bool direct_;
};

}  // namespace sy
