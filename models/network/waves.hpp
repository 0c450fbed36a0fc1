// Waves: VCD waveforms of chosen routers and their nodes' network interfaces. Each traced router
// gets a RouterProbe: plain values the router fills in as it works (no sc_signal, nothing per flit
// when waves are off: the router holds a null probe) and that the VCD writer samples once per
// cycle. Each NI gets an NiProbe (null when waves are off), which it fills in when sampled. Time
// in the VCD is the cycle number, whatever network_interface.clock_ns is (timescale 1 ns = 1
// cycle).
//
// Per router r<n> (top scope `switchyard`), a summary:
//   r<n>.busy_out_<p> / busy_in_<p>      one bit per port: the output is sending a flit (or held
//                                        by a circuit), the input is receiving one
//   r<n>.out_busy / in_busy              the same as bit masks (bit p = port p)
//   r<n>.buffered                        flits in the input VCs (packet-level routers: packets
//                                        queued for the outputs)
//   r<n>.follow                          waves.packet: a flit of that packet is on one of the
//                                        router's links or in its buffers
// Per input port <p> (network ports named d<dim>p / d<dim>m / d<dim>, and inj):
//   r<n>.in_<p>.valid/head/tail          a flit starts arriving on this input this cycle
//   r<n>.in_<p>.pkt/src/dst/vc           its packet (id unique over the run, source, destination)
//                                        and VC while the flit is on the link; z when none is
//   r<n>.in_<p>.occ<v>                   flits buffered in input VC v (end of cycle)
//   r<n>.in_<p>.vc_req / vc_gnt          the input's VC arbiter: requesting VCs, granted VC
//                                        (an RTL router, router.model rtl, has no vc_req or
//                                        sw_req: its requests do not cross its ports)
// Per output port <p>:
//   r<n>.out_<p>.pkt/src/dst             the packet whose flit crosses to this output, while the
//                                        flit is on the link (a circuit: while it holds the link)
//   r<n>.out_<p>.sw_req / sw_gnt         the output's switch arbiter: bidding inputs, granted input
//   r<n>.out_<p>.xbar                    inputs the crossbar connects to this output this cycle
//   r<n>.out_<p>.credit<v>               credits for downstream VC v (end of cycle)
//   r<n>.out_<p>.queued                  packets queued for the output (output_queued routers)
// Per network interface ni<m> of a node whose router is traced (end of cycle):
//   ni<m>.queued / queued_flits          its injection queue: packets not yet wholly injected,
//                                        and their flits not yet sent
//   ni<m>.head_pkt                       the packet at the queue's head (being injected, or next);
//                                        z when the queue is empty
//   ni<m>.rx_pkt                         the packet delivered (last flit received) this cycle
//   ni<m>.follow                         waves.packet waits or is being injected here, or has
//                                        begun to arrive here and is not yet delivered
// With waves.packet, a scope `follow`: follow.pkt (the id) and follow.stage (0 not yet created,
// 1 at the source NI, 2 in the network, 3 arriving at the destination NI, 4 delivered: where
// its head is).
// Events (valid, requests, grants, crossbar, rx_pkt) read 0 (z) in a cycle without them; state
// (occupancy, credits, queues) keeps its last value while the network is idle. Outside
// [from_cycle, to_cycle] nothing is recorded. A GTKWave save file (.gtkw) beside the VCD opens on
// a short view: the followed packet's lifetime, or the first cycles of the recorded window with
// traffic, with the summaries expanded and one collapsed group per router and port.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

class Router;
class NetworkInterface;

// The name of a router port in the VCD: d<k>p / d<k>m / d<k> (an indirect network's own port
// names), or inj (inj<k>: the NI's channel k) for the NI's ports; under concentration terminal t's
// injection ports are inj_t<t> (inj_t<t>_c<k> with several injection channels).
std::string port_label(const Topology& topo, int port, int channels = 1);
// The name of a router in the VCD: r<id>, or its router_name as an identifier in an indirect
// network (r<row>_<level> in a butterfly).
std::string router_label(const Topology& topo, int router);

struct RouterProbe {
  // How long a packet shows on a port after its flit (or packet) starts crossing.
  enum class Hold { Flit, Packet, Circuit };
  // The packet on a port while a flit of it is on the link (the VCD shows z when `on` is false).
  struct Carried {
    bool on = false;
    std::uint64_t pkt = 0;  // PacketPool::serial
    int src = 0, dst = 0;   // dst -1: a broadcast copy
    Cycle until = 0;        // shown while the cycle is before it
  };
  // (In and Out keep the fields the routers' hot paths touch small and first: their layout
  // shapes the code the compiler makes for those paths even while waves are off.)
  struct In {
    bool valid = false, head = false, tail = false;
    std::uint32_t slot = 0;  // the pool slot of the flit's packet (not traced)
    unsigned vc = 0;
    std::uint64_t vc_req = 0, vc_gnt = 0;
    std::vector<unsigned> occ;
  };
  struct Out {
    std::uint64_t sw_req = 0, sw_gnt = 0, xbar = 0;
    std::vector<unsigned> credit;
    unsigned queued = 0;
  };
  RouterProbe(int inputs, int outputs, int vcs, Hold hold, Cycle tau, const PacketPool& pool);
  bool on = false;  // inside the recorded window this cycle
  std::vector<In> in;
  std::vector<Out> out;
  std::vector<Carried> in_carried, out_carried;  // per input, per output
  Cycle now = 0;
  std::uint64_t in_busy = 0, out_busy = 0;  // the summary
  std::unique_ptr<bool[]> in_bit, out_bit;  // the same, one bit per port
  unsigned buffered = 0;
  // waves.packet: its pool slot while it lives (-1: not known or not alive); the router's
  // sample() counts its flits (packets) in the router's buffers in `held`.
  std::int64_t follow_slot = -1;
  std::uint64_t follow_pkt = 0;
  unsigned held = 0;
  bool follow = false;

  // A flit (packet-level routers: a packet's head) of pool slot `packet` starts arriving.
  // (Out of line and cold, grant inline: what costs the routers' hot paths least with waves off,
  // measured in instructions with callgrind.)
  [[gnu::cold, gnu::noinline]] void flit_in(int port, int vc, std::uint32_t packet, bool head,
                                            bool tail);
  // A flit of pool slot `packet` crosses the crossbar from in_port/vc to out_port.
  void grant(int in_port, int vc, int out_port, std::uint32_t packet) {
    in[in_port].vc_gnt = std::uint64_t{1} << vc;
    Out& o = out[out_port];
    o.sw_gnt = std::uint64_t{1} << in_port;
    o.xbar |= std::uint64_t{1} << in_port;
    // A flit holds the link tau cycles, a packet flits * tau; a circuit until it is released
    // (summarize() sees its crossbar connection go).
    const Cycle until = hold_ == Hold::Flit ? now + tau_
                        : hold_ == Hold::Packet
                            ? now + static_cast<Cycle>(pool_[packet].flits) * tau_
                            : kNever;
    show(out_carried[out_port], packet, until);
  }
  // A new cycle: last cycle's events end, and so do crossings that are over.
  void clear_events(Cycle t);
  // After the router's sample: circuits released, and the summary.
  void summarize();

 private:
  void show(Carried& c, std::uint32_t packet, Cycle until) const {
    const Packet& p = pool_[packet];
    c.on = true;
    c.pkt = pool_.serial(packet);
    c.src = p.src;
    c.dst = p.dst;
    c.until = until;
  }
  Hold hold_;
  Cycle tau_;
  const PacketPool& pool_;
};

// waves.packet as the NIs see it: its slot from its creation, its cycles.
struct FollowState {
  std::uint64_t pkt = 0;   // the id followed (0: none)
  std::int64_t slot = -1;  // its pool slot from creation until delivery (-1: none)
  int src = -1, dst = -1;
  Cycle created = kNever, injected = kNever, arrived = kNever, delivered = kNever;
  unsigned stage = 0;  // follow.stage
};

// What the VCD shows of one network interface; its hooks are called by the NI (cold: a packet
// created, a packet delivered), the rest filled in by NetworkInterface::sample.
struct NiProbe {
  NiProbe(FollowState& f, const PacketPool& pool) : follow_state(f), pool(pool) {}
  unsigned packets = 0, flits = 0;  // injection queue
  std::uint64_t head = 0, rx = 0;
  bool head_on = false, rx_on = false;
  bool follow = false;
  bool traced = false;
  // A packet (pool slot) was created at this NI / its last flit is received at cycle t.
  [[gnu::cold, gnu::noinline]] void created(std::uint32_t slot);
  [[gnu::cold, gnu::noinline]] void delivered(std::uint32_t slot, Cycle t);
  // At cycle t: rx_pkt shows the packet delivered in it (z: none).
  void settle(Cycle t);
  // A delivery to show at cycle t or later.
  bool due(Cycle t) const {
    for (const auto& d : rx_due_)
      if (d.first >= t) return true;
    return false;
  }
  FollowState& follow_state;
  const PacketPool& pool;

 private:
  std::vector<std::pair<Cycle, std::uint64_t>> rx_due_;  // (cycle, id) of deliveries to come
};

// A small VCD writer: variables are plain values sampled at the end of each cycle; a value that
// has a presence flag reads z while the flag is false.
class VcdFile {
 public:
  enum class Kind { Bool, U32, U64, I32 };
  VcdFile(const std::string& path, const std::string& comment);
  ~VcdFile();
  VcdFile(const VcdFile&) = delete;
  VcdFile& operator=(const VcdFile&) = delete;
  // Declares a variable (before the first sample); `name` is dotted: scopes, then the variable.
  void add(const std::string& name, Kind kind, const void* value, int width,
           const bool* present = nullptr);
  // The values at the end of cycle t (the first call also writes the header and $dumpvars).
  void sample(Cycle t);
  // A time stamp with no change (the dump then lasts until t), unless t is not past the last.
  void stamp(Cycle t);
  void close();

 private:
  struct Var {  // as declared (the header's order)
    Kind kind;
    int width;
    std::string name, id;
  };
  struct Slot {  // what sample() reads, grouped by kind
    const void* value;
    const bool* present;
    std::uint64_t mask;  // the width's bits (I32: -1 reads all ones)
    std::uint64_t last;
    std::uint32_t var;
    bool last_z;
  };
  template <typename T>
  void sample_kind(std::vector<Slot>& slots, Cycle t, bool first, bool& stamped);
  void put_value(const Var& v, std::uint64_t x, bool z);
  void put_number(std::uint64_t x);
  void write_header();
  void flush();
  std::FILE* f_ = nullptr;
  std::string path_, comment_, buf_;
  std::vector<Var> vars_;
  std::vector<Slot> slots_[4];  // by Kind
  Cycle stamped_ = 0;           // the last time stamp written
  bool started_ = false;
};

class Waves {
 public:
  // The VCD is out_dir/waves.file (waves.file alone when out_dir is empty).
  Waves(const Config& cfg, const Topology& topo, const std::vector<Router*>& routers,
        const PacketPool& pool, const std::string& out_dir = "",
        const std::vector<NetworkInterface*>& nis = {});
  ~Waves();
  Waves(const Waves&) = delete;
  Waves& operator=(const Waves&) = delete;
  // A new cycle begins: the last one's values go to the VCD, its events are cleared; record from
  // now on if t is in the window.
  void begin_cycle(Cycle t);
  // The cycle's work is done: sample each traced router's state.
  void end_cycle();
  // Ends the VCD and writes the .gtkw (its view on the cycles recorded).
  void close();
  // A plug-in's own value per traced router (power: its power over the last window), before the
  // run: the VCD variable r<n>.<name> (32 bits, decimal in the .gtkw's router summary) reads
  // *value at the end of each recorded cycle, after every update(t) hook has run (z while
  // *present is false).
  bool traced(int router) const;
  void add_router_value(int router, const std::string& name, const std::uint32_t* value,
                        const bool* present = nullptr);
  void on_end_cycle(std::function<void(Cycle)> update) { updates_.push_back(std::move(update)); }
  const std::string& vcd_path() const { return vcd_; }
  const std::string& gtkw_path() const { return gtkw_; }
  // waves.packet's cycles, as seen (kNever: not seen).
  const FollowState& follow() const { return follow_; }
  // The default view of the .gtkw: [t0, t1] (its span a little wider) and the primary marker.
  static constexpr Cycle kViewCycles = 100;  // the cycles shown when no packet is followed
  static constexpr Cycle kViewLead = 2;      // cycles shown before the first event

 private:
  void sample(std::size_t i);
  void sample_nis();
  void track_follow();
  // The cycles the .gtkw shows: [t0, t1], and the span of its view.
  double view(Cycle& t0, Cycle& t1, Cycle* marker = nullptr) const;
  void write_gtkw() const;
  Cycle from_, to_;
  Cycle now_ = 0;
  Cycle first_ = kNever, last_ = 0;  // the cycles recorded
  bool on_ = false;                  // this cycle is recorded
  Cycle first_event_ = kNever;       // the first recorded cycle with a flit arriving
  const PacketPool& pool_;
  FollowState follow_;
  std::vector<std::string> nis_names_;  // ni<m> of the traced NIs
  std::vector<NetworkInterface*> nis_, traced_nis_;
  std::vector<std::unique_ptr<NiProbe>> ni_probes_;  // per NI (all of them), by node
  std::vector<NiProbe*> traced_ni_probes_;
  // When each traced router's and NI's follow bit was first on (the .gtkw lists them in order).
  std::vector<Cycle> router_follow_first_, ni_follow_first_;
  std::vector<std::string> routers_, ins_, outs_;  // names: r<n>, in_<p>, out_<p>
  int vcs_ = 0;
  bool oq_ = false;
  std::vector<Router*> traced_;
  std::vector<bool> requests_;  // per traced router: its probe gets vc_req and sw_req
  std::vector<std::unique_ptr<RouterProbe>> probes_;
  std::unique_ptr<VcdFile> vcd_file_;
  std::string vcd_, gtkw_;
  std::vector<std::function<void(Cycle)>> updates_;
  std::vector<std::vector<std::string>> router_values_;  // per traced router: the plug-ins' names
};

}  // namespace sy
