// IndirectNetwork: a topology whose terminals are not its routers (butterflies; a fat tree or a
// dragonfly is one more subclass). Routers are numbered 0..R-1, each with the same number of
// output ports and as many input ports; a link goes from (router, output port) to (neighbor,
// in_port). Terminal t (one NI and its sources) injects at injection_router(t) and is delivered
// to at ejection_router(t). route() is the network's minimal routing: the output port a packet
// for dst takes at a router, -1 where it leaves to its terminal. Topology wraps one of these and
// answers the generic questions (routers, ports, neighbours, terminals, distances) through it.
#pragma once
#include <cstdint>
#include <string>

namespace sy {

class IndirectNetwork {
 public:
  virtual ~IndirectNetwork() = default;
  virtual const char* kind_name() const = 0;
  virtual int num_routers() const = 0;
  virtual int num_terminals() const = 0;
  virtual int num_ports() const = 0;
  virtual int neighbor(int router, int port) const = 0;  // -1: unconnected
  virtual int in_port(int router, int port) const = 0;   // input port at the neighbor
  virtual int injection_router(int terminal) const = 0;
  virtual int ejection_router(int terminal) const = 0;
  virtual int ejection_terminal(int router) const = 0;  // -1: no terminal leaves here
  // Concentration: the terminals delivered to at a router are ejection_terminal(router) ..
  // + ejection_count(router) - 1; a terminal injects on its router's injection ports of group
  // injection_index(terminal); concentration() is the most terminals a router serves.
  virtual int ejection_count(int router) const { return ejection_terminal(router) >= 0 ? 1 : 0; }
  virtual int injection_index(int) const { return 0; }
  virtual int concentration() const { return 1; }
  virtual int route(int router, int dst_terminal) const = 0;
  // VC classes of route() (the routing unit's, routing.algorithm: dimension_order): the router's
  // VCs split into vc_classes() equal slices, class c the c-th; a header arriving in class
  // in_class on in_port (-1: injection, class 0) takes class vc_class(...) on out_port. A network
  // whose minimal routing is acyclic on one VC keeps the default (one class, every VC).
  virtual int vc_classes() const { return 1; }
  virtual int vc_class(int /*router*/, int /*in_port*/, int /*in_class*/, int /*out_port*/) const {
    return 0;
  }
  // Link latencies (the staged pipeline's lt for this link; 0: router.pipeline.lt): of the link
  // leaving (router, port), and of the one entering input port `port` of `router` (its credits
  // go back as long). has_link_latencies(): some link is not 0.
  virtual bool has_link_latencies() const { return false; }
  virtual int link_latency(int /*router*/, int /*port*/) const { return 0; }
  virtual int input_latency(int router, int port) const { return link_latency(router, port); }
  virtual int distance(int src_terminal, int dst_terminal) const = 0;  // router-to-router hops
  virtual int diameter() const = 0;
  // Mean router-to-router hops over ordered terminal pairs (self pairs in or out).
  virtual double average_distance(bool) const { return diameter(); }
  // Uniform traffic under route(): the load of the busiest link per unit of one terminal's
  // injection rate (each terminal to every terminal, itself in or out). The throughput factor.
  virtual double uniform_link_share(bool exclude_self) const = 0;
  // traffic.pattern: adversarial, the network's worst case for its minimal routing: the
  // destination of a packet from `terminal`, given a uniform random 64-bit draw (-1: the
  // network defines none; the config refuses the pattern).
  virtual int adversarial_destination(int /*terminal*/, std::uint64_t /*draw*/) const { return -1; }
  virtual std::string router_name(int router) const = 0;
  virtual std::string port_name(int port) const = 0;
  // Links grouped for utilization and queue statistics (butterfly: level x straight/cross).
  virtual int num_link_classes() const = 0;
  virtual int link_class(int router, int port) const = 0;
  virtual std::string link_class_name(int cls) const = 0;
};

}  // namespace sy
