// AnyNet: an arbitrary network read from a file in BookSim2's anynet format (a BookSim2 file runs
// unchanged). Each line: `router R` or `node N`, then what it connects to: `router S [latency]`
// (a bidirectional router link; the latency, default 1, is of the direction R -> S; the reverse
// direction keeps 1 unless a line of S gives it) or `node M [latency]` (terminal M at router R;
// the latency is the terminal's injection and ejection channels'). '#' starts a comment.
// Routers are numbered 0..R-1 (each defined by a line of its own), terminals 0..T-1, each at one
// router, a router's terminals consecutive (Switchyard delivers a router's terminals as one
// range). Network ports: p0.. in the order of the neighbours' ids (BookSim2's order); every
// router has num_ports() = the largest degree, the ports above its own degree unconnected.
//
// Routing: next-port tables per (router, destination router), built once (uint8 port, uint16
// hops: 3 bytes per router pair, 3 MB for 1,000 routers). deadlock:
//  - layers (default): shortest paths (hop count; ties to the lowest port), one VC class per
//    layer. Channels are ranked up*/down* (a BFS from router 0 levels the routers, a link is up
//    towards a lower (level, id)): up channels first, then down channels, so an up*/down* route
//    ranks ascending; a hop to a lower-ranked channel than the one it came in on moves the packet
//    to the next layer. Each layer's dependencies ascend, so it is acyclic; vc_classes() = 1 +
//    the most such descents on a route.
//  - up_down: one class, up*/down* routes (no up hop after a down hop), destination-based: each
//    router takes the shortest legal route as if entered going up, except a router some route
//    enters by a down link, which must go on down-only (its shortest down-only path). Not always
//    the shortest legal path (results.json: mean_hops).
//  - none: shortest paths on one class (BookSim2's min_anynet); the config refuses it where their
//    channel dependency graph has a cycle unless routing.allow_deadlock: true (then it may
//    deadlock, as BookSim2's may; the watchdog says so).
// Every mode's channel dependency graph per class is built from the tables and checked acyclic
// at load time (a cycle is an error naming it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/topology/indirect.hpp"

namespace sy {

class AnyNet : public IndirectNetwork {
 public:
  enum class Deadlock { Layers, UpDown, None };
  static constexpr int kMaxRouters = 2048;
  static constexpr int kMaxPorts = 63;
  static constexpr int kMaxLatency = 1000;

  // Reads the file at `path` (errors: std::invalid_argument "path:line: ...").
  static AnyNet from_file(const std::string& path, Deadlock deadlock);
  // Reads the text of a file; `name` is what errors call it.
  AnyNet(const std::string& text, const std::string& name, Deadlock deadlock);

  Deadlock deadlock() const { return deadlock_; }
  // The terminals' channel latency (every node link's: they must agree; 1 by default).
  int node_latency() const { return node_latency_; }
  // The latency of the link leaving (router, port) as the file gives it (1 by default).
  int file_latency(int router, int port) const { return lat_[slot(router, port)]; }

  const char* kind_name() const override { return "anynet"; }
  int num_routers() const override { return R_; }
  int num_terminals() const override { return T_; }
  int num_ports() const override { return P_; }
  int neighbor(int router, int port) const override { return nbr_[slot(router, port)]; }
  int in_port(int router, int port) const override { return back_[slot(router, port)]; }
  int injection_router(int terminal) const override { return term_router_[terminal]; }
  int ejection_router(int terminal) const override { return term_router_[terminal]; }
  int ejection_terminal(int router) const override {
    return term_count_[router] ? term_first_[router] : -1;
  }
  int ejection_count(int router) const override { return term_count_[router]; }
  int injection_index(int terminal) const override {
    return terminal - term_first_[term_router_[terminal]];
  }
  int concentration() const override { return conc_; }
  int route(int router, int dst) const override {
    const int d = term_router_[dst];
    if (d == router) return -1;
    return next_[static_cast<std::size_t>(router) * R_ + d];
  }
  int vc_classes() const override { return classes_; }
  int vc_class(int router, int in_port, int in_class, int out_port) const override;
  bool has_link_latencies() const override { return latencies_; }
  int link_latency(int router, int port) const override {
    return latencies_ ? lat_[slot(router, port)] : 0;
  }
  int input_latency(int router, int port) const override {
    const int n = nbr_[slot(router, port)];
    return latencies_ && n >= 0 ? lat_[slot(n, back_[slot(router, port)])] : 0;
  }
  int distance(int src, int dst) const override {
    return hops_[static_cast<std::size_t>(term_router_[src]) * R_ + term_router_[dst]];
  }
  int diameter() const override { return diameter_; }
  double average_distance(bool include_self) const override;
  double uniform_link_share(bool exclude_self) const override;
  std::string router_name(int router) const override { return "(" + std::to_string(router) + ")"; }
  std::string port_name(int port) const override { return "p" + std::to_string(port); }
  // Link classes: one per latency the file's router links have ("lat1", "lat5", ...).
  int num_link_classes() const override { return static_cast<int>(class_lat_.size()); }
  int link_class(int router, int port) const override;
  std::string link_class_name(int cls) const override {
    return "lat" + std::to_string(class_lat_[cls]);
  }

  // The channel dependency graph of the tables (per VC class): "" when acyclic, else one cycle
  // written "r0.p1/c0 -> r1.p1/c0 -> ... -> r0.p1/c0".
  std::string dependency_cycle() const;
  // The one found at load ("" when acyclic; only deadlock: none may have one).
  const std::string& cycle() const { return cycle_; }

 private:
  std::size_t slot(int router, int port) const {
    return static_cast<std::size_t>(router) * P_ + port;
  }
  void build_tables();
  void build_layers();
  // The route's channels (router * P + port) from router s to router d, in order.
  void walk(int s, int d, std::vector<int>& chans) const;

  Deadlock deadlock_;
  int R_ = 0, T_ = 0, P_ = 0, conc_ = 0, classes_ = 1, diameter_ = 0;
  int node_latency_ = 1;
  bool latencies_ = false;
  std::vector<int> nbr_, back_, lat_;                 // per (router, port)
  std::vector<int> term_router_;                      // per terminal
  std::vector<int> term_first_, term_count_, level_;  // per router
  std::vector<int> rank_;                             // per channel: its up*/down* rank
  std::vector<std::uint8_t> next_;                    // per (router, destination router)
  std::vector<std::uint16_t> hops_;                   // per (router, destination router)
  std::vector<int> class_lat_;                        // per link class: its latency
  std::string cycle_;
  double pair_hops_ = 0, busiest_pairs_ = 0;  // over ordered terminal pairs
};

}  // namespace sy
