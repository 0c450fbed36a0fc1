// NetworkInterface: the node's port to the network. Takes messages (destination, length, class),
// cuts them into packets, and injects them into its router's injection port: one message at a
// time, a start-up of alpha cycles before the first flit of each message, then one flit every tau
// cycles as credits for the router's injection VCs allow. On the way out it reassembles what the
// router ejects, checks every flit arrives once and in order, and reports each delivered packet.
#pragma once
#include <systemc>

#include "fabric.hpp"
#include "output_unit.hpp"
#include "ring.hpp"

namespace sy {

class Router;

class NetworkInterface : public sc_core::sc_module {
 public:
  NetworkInterface(sc_core::sc_module_name name, int node, Fabric& fabric);
  void attach(Router* router);
  int node() const { return node_; }

  // A message requested at cycle t: split into packets and queued for injection.
  void send(int dst, int flits, int priority, Cycle t, bool measured, std::uint32_t message);
  // Injection work for cycle t; false when there is nothing left to inject.
  bool step(Cycle t);
  void deliver_flit(const Flit& f, Cycle t);
  void deliver_packet(std::uint32_t packet, Cycle t);

  OutputUnit& injection() { return inj_; }
  std::size_t backlog() const { return queue_.size() + (cur_ >= 0 ? 1 : 0); }
  bool active = false;

 private:
  void finish_packet(std::uint32_t id, Cycle delivered);
  int node_;
  Fabric& fabric_;
  Router* router_ = nullptr;
  OutputUnit inj_;
  Link inj_link_;
  Ring<std::uint32_t> queue_{16};
  long cur_ = -1;  // packet being injected
  std::uint32_t seq_ = 0;
  int vc_ = -1;
  Cycle next_ = 0;  // cycle the next flit (or the packet) may go
  const bool oq_;
  const int alpha_, tau_, max_packet_;
};

}  // namespace sy
