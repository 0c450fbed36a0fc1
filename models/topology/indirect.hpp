// IndirectNetwork: a topology whose terminals are not its routers (butterflies; a fat tree or a
// dragonfly is one more subclass). Routers are numbered 0..R-1, each with the same number of
// output ports and as many input ports; a link goes from (router, output port) to (neighbor,
// in_port). Terminal t (one NI and its sources) injects at injection_router(t) and is delivered
// to at ejection_router(t). route() is the network's minimal routing: the output port a packet
// for dst takes at a router, -1 where it leaves to its terminal. Topology wraps one of these and
// answers the generic questions (routers, ports, neighbours, terminals, distances) through it.
#pragma once
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
  virtual int distance(int src_terminal, int dst_terminal) const = 0;  // router-to-router hops
  virtual int diameter() const = 0;
  // Mean router-to-router hops over ordered terminal pairs (self pairs in or out).
  virtual double average_distance(bool) const { return diameter(); }
  // Uniform traffic under route(): the load of the busiest link per unit of one terminal's
  // injection rate (each terminal to every terminal, itself in or out). The throughput factor.
  virtual double uniform_link_share(bool exclude_self) const = 0;
  virtual std::string router_name(int router) const = 0;
  virtual std::string port_name(int port) const = 0;
  // Links grouped for utilization and queue statistics (butterfly: level x straight/cross).
  virtual int num_link_classes() const = 0;
  virtual int link_class(int router, int port) const = 0;
  virtual std::string link_class_name(int cls) const = 0;
};

}  // namespace sy
