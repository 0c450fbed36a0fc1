// Dragonfly (Kim, Dally, Scott and Abts, ISCA 2008): g groups of a routers, each router with p
// terminals (concentration), a - 1 local ports (the group is fully connected) and h global
// ports. Router (group G, index i) has id G * a + i; its terminals are id * p .. id * p + p - 1.
// Ports: l0 .. l(a-2) local, port l_j to router j of the group if j < i, else j + 1; then
// g0 .. g(h-1) global.
// Global links (the "absolute" arrangement of BookSim2's dragonflynew, generalized to any
// 2 <= g <= a*h + 1): a group's a*h global ports are numbered j = i * h + c (router i, port gc);
// port j goes to group m if m < G, else m + 1, where m = j mod (g - 1); it enters the port
// j' = (j div (g - 1)) (g - 1) + m' of that group, m' = G if G < the target, else G - 1. A port
// whose j' is not below a*h stays unconnected (only where (g - 1) does not divide a*h). With
// g = a*h + 1 (the default, the balanced maximum) every pair of groups has one link and the
// wiring is BookSim2's. Between groups with c links (copies) a packet for terminal d takes copy
// d mod c.
// Minimal routing (route()): local hop to the router holding the global link to the destination
// group, the global hop, local hop to the destination router (at most 3 hops). VC classes: 2,
// class 1 after the global hop (a class holds at most local -> global: acyclic). Link classes:
// local, global; link latencies local_latency / global_latency (0: router.pipeline.lt).
// Adversarial traffic: every terminal of group G to a random terminal of group G + 1 (mod g),
// BookSim2's bad_dragon.
#pragma once
#include <cstdint>
#include <string>

#include "switchyard/topology/indirect.hpp"

namespace sy {

class Dragonfly : public IndirectNetwork {
 public:
  Dragonfly(int p, int a, int h, int g, int local_latency = 0, int global_latency = 0);
  int p() const { return p_; }
  int a() const { return a_; }
  int h() const { return h_; }
  int g() const { return g_; }
  int group(int router) const { return router / a_; }
  int group_of_terminal(int t) const { return t / (a_ * p_); }
  bool is_global(int port) const { return port >= a_ - 1; }
  // Between groups G != D, for a packet to terminal dst: the router index (in G) that holds
  // the global link it takes, and the router index in D where it arrives.
  void global_link(int G, int D, int dst, int* src_index, int* dst_index) const;
  // Router-to-router hops of the minimal route from router r to terminal dst's router.
  int hops(int r, int dst) const;
  // The router (id) where a packet from router r, routed minimally toward terminal t of another
  // group, enters t's group.
  int arrival_router(int r, int t) const;

  const char* kind_name() const override { return "dragonfly"; }
  int num_routers() const override { return a_ * g_; }
  int num_terminals() const override { return a_ * g_ * p_; }
  int num_ports() const override { return a_ - 1 + h_; }
  int neighbor(int router, int port) const override;
  int in_port(int router, int port) const override;
  int injection_router(int terminal) const override { return terminal / p_; }
  int ejection_router(int terminal) const override { return terminal / p_; }
  int ejection_terminal(int router) const override { return router * p_; }
  int ejection_count(int) const override { return p_; }
  int injection_index(int terminal) const override { return terminal % p_; }
  int concentration() const override { return p_; }
  int route(int router, int dst) const override;
  int vc_classes() const override { return 2; }
  int vc_class(int, int in_port, int in_class, int) const override {
    const int c = in_class + (in_port >= 0 && is_global(in_port) ? 1 : 0);
    return c > 1 ? 1 : c;
  }
  bool has_link_latencies() const override { return local_lat_ > 0 || global_lat_ > 0; }
  int link_latency(int, int port) const override {
    return is_global(port) ? global_lat_ : local_lat_;
  }
  int distance(int src, int dst) const override { return hops(src / p_, dst); }
  int diameter() const override { return a_ == 1 ? 1 : 3; }
  double average_distance(bool include_self) const override;
  double uniform_link_share(bool exclude_self) const override;
  int adversarial_destination(int terminal, std::uint64_t draw) const override {
    const int n = a_ * p_;
    return (group_of_terminal(terminal) + 1) % g_ * n + static_cast<int>(draw % n);
  }
  std::string router_name(int router) const override;
  std::string port_name(int port) const override;
  int num_link_classes() const override { return 2; }
  int link_class(int, int port) const override { return is_global(port) ? 1 : 0; }
  std::string link_class_name(int cls) const override { return cls ? "global" : "local"; }

 private:
  // The global links from group G to D: how many (copies), and copy k's port index j in G and
  // j' in D.
  int copies(int G, int D) const;
  int local_port(int i, int j) const { return j < i ? j : j - 1; }  // router i to router j
  int p_, a_, h_, g_, local_lat_, global_lat_;
};

}  // namespace sy
