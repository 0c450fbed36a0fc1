// InjectionGate: a rule over when a node's NI may start its next packet, beyond its own
// injection ports: the hardware meaning is a network-wide admission signal (a barrier, a token)
// that each NI samples before it begins a packet. The core knows no scheme: an idling scheme
// (schemes/greedy/rounds.hpp) implements it and installs it with Network::set_injection_gate.
// With a gate installed, an NI asks it once per cycle while its oldest packet is ready (all-port:
// requested alpha cycles ago; serial: a channel is free) and starts that packet only on a yes; a
// packet to the node itself (traffic.self: deliver_locally) waits for its yes too and is then
// delivered at once. Every packet so started is reported when it has been received whole.
// One thread (the network's clock process calls it; simulation.threads falls back to 1).
#pragma once
#include "switchyard/base/common.hpp"

namespace sy {

class InjectionGate {
 public:
  virtual ~InjectionGate() = default;
  // May `node` start its oldest waiting packet at cycle t? True: it does, at t.
  virtual bool take(int node, Cycle t) = 0;
  // A packet started under the gate has been received whole at its destination at cycle
  // `done` (told in cycle `done` for a zero-hop packet, earlier for one through the network).
  virtual void finished(Cycle done) = 0;
};

}  // namespace sy
