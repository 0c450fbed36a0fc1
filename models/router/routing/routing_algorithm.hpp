// RoutingAlgorithm: a unicast routing function beside dimension order, chosen by name
// (routing.algorithm). For a header at a router it gives the candidate (output port, output VC
// range) pairs in preference order; the switch allocator selects among the usable ones each cycle
// until the header holds an output VC (selection by free credits: the candidate whose free
// output VCs hold the most credits; an escape candidate only when no other is usable). Oblivious
// algorithms (Valiant, ROMM) give one candidate and draw their intermediate node at injection.
// One virtual call per header, none per flit. Each algorithm is one file in this folder.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

struct Candidate {
  int port;
  int vc_lo, vc_hi;
};

// The candidate with the fewest flits held downstream, queue(port), ties to the first (BookSim2's
// route functions compare GetUsedCredit this way): the choice made once per hop when the
// algorithm selects_once().
template <class Queue>
int least_loaded(const Candidate* c, int n, Queue queue) {
  int best = 0;
  long qbest = queue(c[0].port);
  for (int i = 1; i < n; ++i) {
    const long q = queue(c[i].port);
    if (q < qbest) best = i, qbest = q;
  }
  return best;
}

// VC classes as equal slices of n VCs: class c of C is [c * n / C, (c + 1) * n / C); the class
// of VC v (0 <= v < n).
inline int vc_slice_of(int v, int n, int C) {
  int c = 0;
  while (c + 1 < C && v >= (c + 1) * n / C) ++c;
  return c;
}

class RoutingAlgorithm {
 public:
  RoutingAlgorithm(const Topology& topo, int vcs, TieBreak tie)
      : topo_(topo), vcs_(vcs), tie_(tie) {}
  virtual ~RoutingAlgorithm() = default;
  // The header of `pk` at `node`, arrived on in_port (-1: injection) in VC in_vc: fills `out`
  // (room for candidate_capacity()) and returns how many; the last is the escape when
  // has_escape(). A packet at its destination (after its intermediate node) is never routed.
  virtual int candidates(int node, int in_port, int in_vc, Packet& pk, Candidate* out) const = 0;
  virtual bool has_escape() const { return false; }
  // Every packet on a shortest path (checked at delivery): false for Valiant, ROMM, UGAL.
  virtual bool minimal() const { return true; }
  // At the source NI: draw what the packet needs (an intermediate node).
  virtual void on_inject(Packet&, Rng&) const {}
  // The routing section's options an algorithm reads (once, after it is built).
  virtual void configure(const RoutingConfig&) {}
  // At the source router, before the header's first candidates: a choice that needs the
  // router's state (UGAL: minimal or Valiant by queue length x hops, legs() below). queue(port)
  // is the occupancy of that output's downstream VCs (flits).
  virtual bool decides_at_source() const { return false; }
  template <class Queue>
  void at_source(int node, Packet& pk, Queue queue) const {
    if (pk.mid < 0) return;
    Leg min, val;
    if (!legs(node, pk, &min, &val) || min.port < 0) return;
    const long qmin = queue(min.port), qval = val.port < 0 ? qmin : queue(val.port);
    // Minimal when its queue x hops is no worse (+1: an empty network goes minimal); with a
    // threshold (BookSim2's rule), when queue x hops is at most the other's plus the threshold.
    if (threshold_rule_ ? qmin * min.hops <= qval * val.hops + threshold_
                        : (qmin + 1) * min.hops <= (qval + 1) * val.hops) {
      pk.mid = -1;
      pk.phase = 1;  // the second leg's VCs: dimension order to the destination
    }
  }
  // UGAL's two choices at the source router: the first port and the hop count of the minimal
  // route and of the route through the packet's intermediate (pk.mid); false: no choice to make.
  // (The default: dimension order on a direct network, pk.mid a node.)
  struct Leg {
    int port, hops;
  };
  virtual bool legs(int node, const Packet& pk, Leg* min, Leg* val) const {
    min->hops = topo_.distance(node, pk.dst);
    val->hops = topo_.distance(node, pk.mid) + topo_.distance(pk.mid, pk.dst);
    min->port = dor_port(node, pk.dst);
    val->port = pk.mid == node ? min->port : dor_port(node, pk.mid);
    return true;
  }
  int candidate_capacity() const { return capacity_; }
  // The router keeps only the candidate with the fewest flits downstream when it routes the
  // header (once per hop), rather than letting the switch allocator select every cycle.
  bool selects_once() const { return selects_once_; }

 protected:
  // Dimension order toward `target` from `node` (shortest direction per ring, ties by tie_):
  // the output port, -1 at the target.
  int dor_port(int node, int target) const;
  // The minimal direction in dimension d from node toward target: +1/-1 (0 for a size-2
  // dimension), or 2 when already aligned; on an even ring at exactly n/2, `both` is set.
  int min_dir(int node, int target, int d, bool* both = nullptr) const;
  // Dateline VC class range inside [lo, lo + n): lower half until the packet crosses its ring's
  // wraparound link (continuing in the same dimension on the upper half), upper half after.
  Candidate dateline(int node, int in_port, int in_vc, int port, int lo, int n) const;
  // VC class c of C (equal slices of the router's VCs) on `port`, and the class of VC v.
  Candidate vc_class(int port, int c, int C) const {
    return {port, c * vcs_ / C, (c + 1) * vcs_ / C};
  }
  int class_of(int v, int C) const { return vc_slice_of(v, vcs_, C); }
  const Topology& topo_;
  const int vcs_;
  const TieBreak tie_;
  int capacity_ = topo_.num_dims() + 1;  // the most candidates a header gets
  bool selects_once_ = false;
  bool threshold_rule_ = false;  // at_source: BookSim2's UGAL rule, with threshold_
  long threshold_ = 0;
};

// Whether the named algorithm routes this topology, and the topologies it routes (for errors).
bool routing_supported(const std::string& algorithm, const Topology& topo);
std::string routing_topologies(const std::string& algorithm);
// The VCs an algorithm needs on this topology (a config error below it, naming the number).
int routing_vcs_needed(const std::string& algorithm, const Topology& topo);
// Builds the named algorithm (not dimension_order: the RoutingUnit's own fast path).
std::unique_ptr<RoutingAlgorithm> make_routing(const std::string& algorithm, const Topology& topo,
                                               int vcs, TieBreak tie);
// The algorithm names, for the config's error message.
const std::vector<std::string>& routing_names();

// The mesh turn models, for the per-hop checker (apart from the routing functions).
enum class TurnModel { None, WestFirst, NorthLast, NegativeFirst, OddEven };
TurnModel turn_model(const std::string& algorithm);  // None: not a turn model
// May a packet that arrived on in_port (-1: injection) at `node` leave on out_port?
bool turn_allowed(TurnModel model, const Topology& topo, int node, int in_port, int out_port);

}  // namespace sy
