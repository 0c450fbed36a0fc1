// Router: one SystemC module per node. Ports 0..P-1 are the topology's network ports, ports P and
// up are injection ports from the node's NetworkInterface (one per injection channel in input-VC
// routers; packet-level routers take every injected packet at port P). Ejection needs no output
// port in the ideal models: a flit whose destination is this node goes to the NI as it arrives
// (all-port reception, one ejection channel per input); the staged input-VC pipeline ejects
// through its own outputs P.. (router.pipeline.ejection_ports). Two microarchitectures derive from
// it: InputVcRouter (finite VCs, credits, allocators) and OutputQueuedRouter (the papers' ideal
// per-output FIFOs).
#pragma once
#include <systemc>
#include <vector>

#include "switchyard/network/fabric.hpp"
#include "switchyard/router/activity.hpp"
#include "switchyard/router/output_unit.hpp"

namespace sy {

class NetworkInterface;
struct RouterProbe;

class Router : public sc_core::sc_module {
 public:
  // nis: the NIs of the terminals delivered to at this router, ejection_terminal(node) on (null
  // where none is: the inner levels of an indirect network; several with concentration).
  Router(sc_core::sc_module_name name, int node, Fabric& fabric, NetworkInterface* const* nis)
      : sc_core::sc_module(name),
        outputs_(fabric.topo.num_ports()),
        fabric_(fabric),
        nis_(nis),
        node_(node),
        terminal_(fabric.topo.ejection_terminal(node)),
        here_(nis ? fabric.topo.ejection_count(node) : 0) {}
  int node() const { return node_; }  // the router id
  // Injection port of channel `channel` of the terminal in injection group `group` (its index
  // among the terminals that inject here: 0 without concentration).
  int injection_port(int channel = 0, int group = 0) const {
    return fabric_.topo.num_ports() + group * fabric_.cfg.interface.injection_channels + channel;
  }
  bool is_injection(int port) const { return port >= fabric_.topo.num_ports(); }
  OutputUnit& output(int port) { return outputs_[port]; }
  // Work for this cycle; returns false when the router has nothing buffered (it then sleeps
  // until a flit or packet arrives).
  virtual bool evaluate(Cycle t) = 0;
  // A flit starts arriving on in_port/vc at cycle t (input_vc buffering).
  virtual void accept_flit(int in_port, int vc, Flit f, Cycle t) = 0;
  // How an NI hands this router an injected flit: accept_flit as a plain function (an input-VC
  // router's without the virtual call, and without the test of power's counting: the one that
  // applies, asked again when counting starts).
  using FlitSink = void (*)(Router*, int, int, Flit, Cycle);
  virtual FlitSink flit_sink() const {
    return [](Router* r, int p, int v, Flit f, Cycle t) { r->accept_flit(p, v, f, t); };
  }
  // A packet's head starts arriving at cycle t; its flits follow every tau (output_queued).
  virtual void accept_packet(int in_port, std::uint32_t packet, Cycle t) = 0;
  // Sets the credit return path of an input port (upstream output unit). evaluated_before: its
  // owner's work of a cycle is done before this router's (an NI, or a router of lower id).
  virtual void connect_upstream(int in_port, OutputUnit* up, bool evaluated_before) = 0;

  // Waveform probe (null unless waves are on for this router) and its per-cycle state sample.
  virtual void set_probe(RouterProbe* p) {
    probe_ = p;
    probed_ = p != nullptr;
  }
  virtual void sample(RouterProbe& p) const = 0;
  // Whether the probe gets the allocators' requests (vc_req, sw_req): a router that shows only
  // what crosses its ports (an RTL router) does not, and the VCD leaves them out for it.
  virtual bool probes_requests() const { return true; }
  // The run is over: a router that writes waves of its own (an RTL router of waves.rtl_nodes)
  // writes its last sample and closes them.
  virtual void close_waves() {}
  // Power on: the record where this router counts what its units do (null: off).
  virtual void count_activity(RouterActivity* a) {
    activity_ = a;
    counting_ = a != nullptr;
  }
  const RouterActivity* activity() const { return activity_; }

  // The next hop of a source-routed packet, which it then leaves behind (its route position
  // moves on); null when the packet has no route or has used it up (it is then home).
  const Fabric::RouteHop* take_route_hop(Packet& p) {
    if (p.route < 0) return nullptr;
    const auto& r = fabric_.routes[static_cast<std::size_t>(p.route)];
    if (p.route_pos >= static_cast<std::int32_t>(r.size())) return nullptr;
    return &r[static_cast<std::size_t>(p.route_pos++)];
  }

 protected:
  // (Threads: the lane's list, while the lanes receive their flits. kBranchless: without a
  // branch on whether the router was asleep (IdList::push_if), for the paths where that is a coin
  // toss to the branch predictor.)
  template <bool kBranchless = false>
  void wake() {
    if constexpr (kBranchless) {
      Lane* ln = current_lane;
      (ln ? ln->woke : fabric_.woke).push_if(!active, node_);
      active = true;
    } else if (!active) {
      active = true;
      if (Lane* ln = current_lane)
        ln->woke.push_back(node_);
      else
        fabric_.woke.push_back(node_);
    }
  }
  std::vector<OutputUnit> outputs_;
  RouterProbe* probe_ = nullptr;
  RouterActivity* activity_ = nullptr;

 public:
  bool again_queued = false;  // on the list of routers to run again this cycle (delta = 0)

 protected:
  // (From here on, what a flit's passage reads: one cache line, which the derived router's
  // first fields complete (they start in this class's tail padding). With thousands of routers
  // a cycle's cost is mostly the lines of router state it touches; the SystemC module before
  // these fields is not touched per cycle.)
  alignas(64) Fabric& fabric_;
  NetworkInterface* const* nis_;  // the NIs of terminals terminal_ .. terminal_ + here_ - 1
  int node_;
  int terminal_;  // the first terminal delivered to here (-1: none); = node_ in direct networks
  int here_;      // terminals delivered to here (0, 1, or the concentration)
  // Is dst one of the terminals delivered to here? (Its NI: ni_of(dst).)
  bool delivered_here(int dst) const {
    return static_cast<unsigned>(dst - terminal_) < static_cast<unsigned>(here_);
  }
  NetworkInterface* ni_of(int dst) const { return nis_[dst - terminal_]; }

 public:
  bool active = false;  // on the kernel's active list

 protected:
  bool probed_ = false;    // probe_ is set
  bool counting_ = false;  // activity_ is set
};

}  // namespace sy
