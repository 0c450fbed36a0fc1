// Waves: VCD waveforms of chosen routers, written with sc_trace. Each traced router gets a
// RouterProbe: plain values the router fills in as it works (no sc_signal, nothing per flit when
// waves are off: the router holds a null probe) and that the trace file samples once per cycle.
//
// Per router r<n> and input port <p> (network ports named d<dim>p / d<dim>m / d<dim>, and inj):
//   r<n>.in_<p>.valid/pkt/vc/head/tail   a flit starts arriving on this input this cycle
//   r<n>.in_<p>.occ<v>                   flits buffered in input VC v (end of cycle)
//   r<n>.in_<p>.vc_req / vc_gnt          the input's VC arbiter: requesting VCs, granted VC
// Per output port <p>:
//   r<n>.out_<p>.sw_req / sw_gnt         the output's switch arbiter: bidding inputs, granted input
//   r<n>.out_<p>.xbar                    inputs the crossbar connects to this output this cycle
//   r<n>.out_<p>.credit<v>               credits for downstream VC v (end of cycle)
//   r<n>.out_<p>.queued                  packets queued for the output (output_queued routers)
// Events (valid, requests, grants, crossbar) read 0 in a cycle without them; state (occupancy,
// credits, queues) keeps its last value while the network is idle. Outside [from_cycle,
// to_cycle] nothing is recorded. A GTKWave save file (.gtkw) beside the VCD groups the signals
// per router and port.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

class Router;

// The name of a router port in the VCD: d<k>p / d<k>m / d<k>, or inj for the NI's port.
std::string port_label(const Topology& topo, int port);
// The name of a router in the VCD: r<id>, or r<row>_<level> in a butterfly.
std::string router_label(const Topology& topo, int router);

struct RouterProbe {
  struct In {
    bool valid = false, head = false, tail = false;
    unsigned pkt = 0, vc = 0;
    sc_dt::uint64 vc_req = 0, vc_gnt = 0;
    std::vector<unsigned> occ;
  };
  struct Out {
    sc_dt::uint64 sw_req = 0, sw_gnt = 0, xbar = 0;
    std::vector<unsigned> credit;
    unsigned queued = 0;
  };
  RouterProbe(int inputs, int outputs, int vcs);
  bool on = false;  // inside the recorded window this cycle
  std::vector<In> in;
  std::vector<Out> out;

  void flit_in(int port, int vc, std::uint32_t packet, bool head, bool tail) {
    In& w = in[port];
    w.valid = true;
    w.pkt = packet;
    w.vc = static_cast<unsigned>(vc);
    w.head = head;
    w.tail = tail;
  }
  void grant(int in_port, int vc, int out_port) {
    in[in_port].vc_gnt = sc_dt::uint64{1} << vc;
    out[out_port].sw_gnt = sc_dt::uint64{1} << in_port;
    out[out_port].xbar |= sc_dt::uint64{1} << in_port;
  }
  void clear_events();
};

class Waves {
 public:
  Waves(const Config& cfg, const Topology& topo, const std::vector<Router*>& routers);
  ~Waves();
  Waves(const Waves&) = delete;
  Waves& operator=(const Waves&) = delete;
  // A new cycle begins: clear last cycle's events; record from now on if t is in the window.
  void begin_cycle(Cycle t);
  // The cycle's work is done: sample each traced router's state.
  void end_cycle();
  void close();
  const std::string& vcd_path() const { return vcd_; }
  const std::string& gtkw_path() const { return gtkw_; }

 private:
  void write_gtkw(const Topology& topo, int vcs, bool oq) const;
  Cycle from_, to_;
  std::vector<Router*> traced_;
  int inputs_ = 0;  // input ports per router: network ports and injection ports
  std::vector<std::unique_ptr<RouterProbe>> probes_;
  sc_core::sc_trace_file* tf_ = nullptr;
  std::string vcd_, gtkw_;
};

}  // namespace sy
