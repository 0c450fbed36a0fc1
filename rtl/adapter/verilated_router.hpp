// VerilatedMeshRouter: a Verilated rtl/router/sy_vc_router (or a router with its ports: the port
// contract of rtl/README.md) in the place of the C++ staged input-VC router, at the flit/credit
// boundary. NIs, links, traffic and statistics stay as they are: flits reach the router through
// accept_flit() as they reach a C++ router, and its credits come back into its output units;
// what the RTL sends goes to the next router's accept_flit(), to the NI's deliver_flit(), and
// into the upstream output units as credits, at the cycles the C++ router would use.
//
// Cycle c of the RTL's clock is the network's cycle c (rtl/README.md, "The router's port
// contract"):
//  - a flit that begins to arrive at cycle a is on in_* in cycle a - 1;
//  - a credit that the network makes usable at cycle c (it is in the output unit's count when
//    the router evaluates c) is on cr_in_* in cycle c; the output unit's count holds the credits
//    not yet handed to the RTL (one per port and cycle);
//  - after the edge that ends cycle c the registered outputs show cycle c + 1: a flit on out_*
//    begins to arrive at c + 2; a credit on cr_out_* is usable upstream at c + 1. sw_* shows
//    the flits that won the switch in c, which will be on out_* at c + OUT_STAGES: the adapter
//    hands them on from there, at the cycle the C++ router hands its flits on (with their
//    arrival c + OUT_STAGES + 1), so that links, NIs and the run's end see the same cycles;
//    the ejection buffer frees a flit's slot credit_delay cycles after it arrives at the NI.
// The router sleeps (the network stops evaluating it) when the RTL says idle, nothing waits on
// its inputs and every credit it sent a flit for is back; a flit for the cycle before it wakes
// (the NI's, on in_* in the cycle it is injected) is played first. While awake, a cycle in which
// the RTL is idle and nothing is on its inputs is not evaluated (its state would not change).
//
// Waves (kTrace, a model Verilated with --trace; waves.rtl_nodes): the router dumps its insides
// into a VCD whose time is the network's cycle (1 ns = 1 cycle, as the network's VCD). The
// sample at time c is taken once cycle c's inputs have settled, before the edge that ends c:
// the registers of cycle c, its inputs and its combinational requests and grants. A cycle not
// evaluated (idle, asleep) is not sampled; the cycle after the last one evaluated is (its
// registers, no inputs), so the VCD holds true values across the gap. The extra evaluations
// are with the clock low: they settle the logic and change no state. rtl_<node>.gtkw beside
// the VCD (rtl_waves.hpp) opens on the router's ports, VC states, grants and credit counters.
//
// The network's VCD (waves.enable, a RouterProbe): what crosses the ports, as the C++ router
// shows it at the same cycles. A flit that starts arriving (accept_flit: in_<p>.valid, its
// packet and VC, at the cycle the upstream router or NI hands it on); the flits that won the
// switch (sw_*, in the cycle they won it: out_<p>.pkt, sw_gnt, xbar, and the input's vc_gnt);
// the occupancy of each input VC (flits handed in and not yet out, as the C++ router's buffer
// holds them from their hand-over); the credits of each output VC (the depth, less the flits
// sent, plus the credits back: those handed to the RTL and those waiting in the output unit).
// The input port and VC of a flit that leaves are found by its packet and sequence number
// among the fronts of the input VCs (flits leave a VC in order). The allocators' requests do
// not cross the ports: the VCD has no vc_req and sw_req for this router (probes_requests).
// Nothing of this runs without a probe.
#pragma once
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "switchyard/network/fabric.hpp"
#include "switchyard/network/network_interface.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/router/router.hpp"
#include "rtl_waves.hpp"

namespace sy::rtl {

// Bits [lsb, lsb + w) (w <= 64) of a Verilated port: an integer or a VlWide.
template <class T>
std::uint64_t get_bits(const T& v, int lsb, int w) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t x = static_cast<std::uint64_t>(v) >> lsb;
    return w >= 64 ? x : x & ((std::uint64_t{1} << w) - 1);
  } else {
    std::uint64_t r = 0;
    for (int got = 0; got < w;) {
      const int b = lsb + got, word = b / 32, off = b % 32, take = std::min(32 - off, w - got);
      const std::uint64_t chunk =
          (static_cast<std::uint64_t>(v[word]) >> off) & ((std::uint64_t{1} << take) - 1);
      r |= chunk << got;
      got += take;
    }
    return r;
  }
}
template <class T>
void set_bits(T& v, int lsb, int w, std::uint64_t x) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t m = (w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1) << lsb;
    v = static_cast<T>((static_cast<std::uint64_t>(v) & ~m) | ((x << lsb) & m));
  } else {
    for (int got = 0; got < w;) {
      const int b = lsb + got, word = b / 32, off = b % 32, take = std::min(32 - off, w - got);
      const std::uint32_t m = static_cast<std::uint32_t>(((std::uint64_t{1} << take) - 1) << off);
      const std::uint32_t chunk = static_cast<std::uint32_t>(((x >> got) << off) & m);
      v[word] = (v[word] & ~m) | chunk;
      got += take;
    }
  }
}

// A router with the contract's torus ports (torus_i, x_last_i, y_last_i, tie_break_i): it routes
// 2-D tori too (sy_vc_router: dimension order with dateline VC classes). A router without them
// (a designer's mesh-only router) is refused on a torus by the config (RtlRouterBuild::tori).
template <class M, class = void>
struct has_torus_ports : std::false_type {};
template <class M>
struct has_torus_ports<
    M, std::void_t<decltype(std::declval<M&>().torus_i), decltype(std::declval<M&>().x_last_i),
                   decltype(std::declval<M&>().y_last_i), decltype(std::declval<M&>().tie_break_i)>>
    : std::true_type {};

// The shared Verilator context of the routers (one thread).
inline VerilatedContext& context() {
  static VerilatedContext ctx;
  return ctx;
}

// The trace of a router of waves.rtl_nodes (nothing for the others).
template <bool kOn>
struct RtlTrace {};
template <>
struct RtlTrace<true> {
  std::unique_ptr<VerilatedVcdC> vcd;
  std::string path;
  Cycle dumped = ~Cycle{0};  // the last sample's time (none yet)
  Cycle first = ~Cycle{0};
};

// M: the Verilated model; FLIT_W, CW: its payload and coordinate widths. A header's payload
// carries the destination's coordinates in its low bits ([CW-1:0] x, [2CW-1:CW] y) and its
// packet's priority class above them (bits 2CW.., where the other flits carry their sequence
// number: a header's is 0); the adapter fills the rest with the flit's packet (bits 32..63) and,
// but for a header, its sequence number (bits 2CW..31).
template <class M, int kFlitW = 64, int kCw = 4, int kOutStages = 2, bool kTrace = false>
class VerilatedMeshRouter final : public Router {
  static_assert(kFlitW == 64, "the adapter packs a flit into 64 bits");

 public:
  // vcd (kTrace only): the VCD this router dumps its insides into.
  VerilatedMeshRouter(const char* name, int node, Fabric& fabric, NetworkInterface* const* nis,
                      const std::string& vcd = "")
      : Router(name, node, fabric, nis),
        np_(fabric.topo.num_ports()),
        vw_(vc_width(fabric.cfg.router.vcs)),
        eject_credit_delay_(fabric.cfg.router.pipeline.ni_credit_delay()),
        m_(make_model(name)) {
    const RouterConfig& rc = fabric.cfg.router;
    outputs_.resize(static_cast<std::size_t>(np_ + 1));
    for (auto& o : outputs_) {
      o = OutputUnit(rc.vcs, rc.vc_depth);
      for (int v = 0; v < rc.vcs; ++v) o.vc(v).credits = 0;  // (credits not yet handed over)
    }
    upstream_.assign(static_cast<std::size_t>(np_ + 1), nullptr);
    in_q_.resize(static_cast<std::size_t>(np_ + 1));
    m_->x_i = static_cast<std::uint8_t>(fabric.topo.coord(node, 0));
    m_->y_i = static_cast<std::uint8_t>(fabric.topo.coord(node, 1));
    m_->wait_tail_credit_i = rc.wait_for_tail_credit;
    m_->credit_delay_i = static_cast<std::uint8_t>(rc.pipeline.credit_delay);
    if constexpr (has_torus_ports<M>::value) {
      const bool torus = fabric.topo.wraps(0) || fabric.topo.wraps(1);
      m_->torus_i = torus;
      m_->x_last_i = static_cast<std::uint8_t>(torus ? fabric.topo.size(0) - 1 : 0);
      m_->y_last_i = static_cast<std::uint8_t>(torus ? fabric.topo.size(1) - 1 : 0);
      const TieBreak tb = fabric.cfg.routing.tie_break;
      m_->tie_break_i = tb == TieBreak::Positive ? 0 : tb == TieBreak::Negative ? 1 : 2;
    }
    m_->clk_i = 0;
    m_->rst_ni = 1;  // (a falling edge: the reset is asynchronous)
    m_->eval();
    m_->rst_ni = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
    if constexpr (kTrace) {
      tr_.path = vcd;
      tr_.vcd.reset(new VerilatedVcdC);
      m_->trace(tr_.vcd.get(), 99);
      tr_.vcd->set_time_unit("1ns");  // (1 ns = 1 cycle: the network's VCD)
      tr_.vcd->set_time_resolution("1ns");
      tr_.vcd->open(vcd.c_str());
      if (!tr_.vcd->isOpen()) throw std::runtime_error("waves: cannot write " + vcd);
    }
  }
  ~VerilatedMeshRouter() override {
    try {
      close_waves();  // (a run that ended early: what was sampled)
    } catch (const std::exception&) {
    }
    m_->final();
  }

  void close_waves() override {
    if constexpr (kTrace) {
      if (!tr_.vcd) return;
      const bool sampled = tr_.dumped != ~Cycle{0};
      if (sampled) settle_sample(tr_.dumped + 1);
      tr_.vcd->close();  // (the save file reads the VCD's declarations back)
      tr_.vcd.reset();
      if (sampled) write_rtl_gtkw(tr_.path, tr_.first, tr_.dumped);
    }
  }

  bool evaluate(Cycle t) override {
    // A flit queued for a cycle before t (the one this router woke for): play from there.
    Cycle from = t;
    for (const auto& q : in_q_)
      if (!q.empty() && q.front().cycle < from) from = q.front().cycle;
    if (from < next_) throw std::logic_error(std::string(name()) + ": a flit came too late");
    for (Cycle c = from; c <= t; ++c) cycle(c, c == t);
    next_ = t + 1;
    bool waiting = owed_ != 0;
    for (const auto& q : in_q_) waiting |= !q.empty();
    return waiting || !m_->idle_o;
  }

  void accept_flit(int in_port, int vc, Flit f, Cycle t) override {
    auto& q = in_q_[static_cast<std::size_t>(in_port)];
    if (!q.empty() && q.back().cycle >= t - 1)
      throw std::logic_error(std::string(name()) + ": two flits on one input in a cycle");
    q.push_back({t - 1, vc, f});
    if (probed_) probe_in(in_port, vc, f);
    wake();
  }
  void accept_packet(int, std::uint32_t, Cycle) override {}
  void connect_upstream(int in_port, OutputUnit* up, bool) override {
    upstream_[static_cast<std::size_t>(in_port)] = up;
  }
  void set_probe(RouterProbe* p) override {
    Router::set_probe(p);
    if (!p) return;
    // (Before the run: what the probe shows from the first cycle on.)
    const int vcs = fabric_.cfg.router.vcs, depth = fabric_.cfg.router.vc_depth;
    held_.assign(static_cast<std::size_t>((np_ + 1) * vcs), Held{});
    for (Held& h : held_) h.q.assign(static_cast<std::size_t>(depth), {0, 0});
    cred_.assign(static_cast<std::size_t>((np_ + 1) * vcs), depth);
  }
  bool probes_requests() const override { return false; }
  void sample(RouterProbe& p) const override {
    const int vcs = fabric_.cfg.router.vcs;
    if (held_.empty()) return;
    for (std::size_t i = 0; i < std::min(p.in.size(), static_cast<std::size_t>(np_ + 1)); ++i)
      for (int v = 0; v < vcs; ++v) {
        const Held& h = held_[i * static_cast<std::size_t>(vcs) + static_cast<std::size_t>(v)];
        p.in[i].occ[static_cast<std::size_t>(v)] = static_cast<unsigned>(h.n);
        if (p.follow_slot >= 0)  // (waves.packet: its flits here)
          for (int k = 0; k < h.n; ++k)
            p.held += h.q[(h.h + k) % h.q.size()].first == static_cast<std::uint32_t>(p.follow_slot);
      }
    for (std::size_t o = 0; o < std::min(p.out.size(), static_cast<std::size_t>(np_)); ++o)
      for (int v = 0; v < vcs; ++v)
        p.out[o].credit[static_cast<std::size_t>(v)] = static_cast<unsigned>(
            std::max(0, cred_[o * static_cast<std::size_t>(vcs) + static_cast<std::size_t>(v)] +
                            int{outputs_[o].vc(v).credits}));
  }

 private:
  struct Queued {
    Cycle cycle;
    int vc;
    Flit f;
  };
  // A fixed ring per input (no allocation per flit): flits wait there at most a cycle or two.
  class Ring {
   public:
    bool empty() const { return n_ == 0; }
    const Queued& front() const { return q_[h_]; }
    const Queued& back() const { return q_[(h_ + n_ - 1) % kCap]; }
    void pop() {
      h_ = (h_ + 1) % kCap;
      --n_;
    }
    void push_back(const Queued& x) {
      if (n_ == kCap) throw std::logic_error("rtl router: input queue overflow");
      q_[(h_ + n_) % kCap] = x;
      ++n_;
    }

   private:
    static constexpr int kCap = 8;
    Queued q_[kCap];
    int h_ = 0, n_ = 0;
  };

  // The network's VCD (a probe): a flit handed to input in_port, VC vc (it is in that VC from
  // now until it wins the switch).
  [[gnu::cold, gnu::noinline]] void probe_in(int in_port, int vc, const Flit& f) {
    Held& h = held_[static_cast<std::size_t>(in_port * fabric_.cfg.router.vcs + vc)];
    if (h.n == static_cast<int>(h.q.size()))
      throw std::logic_error(std::string(name()) + ": more flits in an input VC than its depth");
    h.q[(h.h + h.n++) % h.q.size()] = {f.packet, f.seq};
    if (probe_->on) probe_->flit_in(in_port, vc, f.packet, f.head, f.tail);
  }
  // f won the switch for output o, VC vc: the input VC it leaves (the one with f at its
  // front), the output VC's credit, and the grant.
  [[gnu::cold, gnu::noinline]] void probe_out(int o, int vc, const Flit& f) {
    const int vcs = fabric_.cfg.router.vcs;
    int in = -1;
    for (int k = 0; k < (np_ + 1) * vcs && in < 0; ++k) {
      const Held& h = held_[static_cast<std::size_t>(k)];
      if (h.n && h.q[static_cast<std::size_t>(h.h)] == std::make_pair(f.packet, f.seq)) in = k;
    }
    if (in < 0)
      throw std::logic_error(std::string(name()) +
                             ": a flit left that is at the front of no input VC");
    Held& h = held_[static_cast<std::size_t>(in)];
    h.h = (h.h + 1) % static_cast<int>(h.q.size());
    --h.n;
    --cred_[static_cast<std::size_t>(o * vcs + vc)];
    // (As the C++ router: no grant shown for an ejection output, which the VCD does not have.)
    if (probe_->on && o < np_) probe_->grant(in / vcs, in % vcs, o, f.packet);
  }

  static M* make_model(const char* name) {
    if constexpr (kTrace) context().traceEverOn(true);  // (before the model: its trace code)
    return new M(&context(), name);
  }

  // (kTrace) A sample at cycle c of the registers as they are, with no inputs: the logic
  // settles with the clock low (no state changes).
  void settle_sample(Cycle c) {
    M& m = *m_;
    m.in_valid_i = 0;
    m.cr_in_valid_i = 0;
    m.eval();
    dump(c);
  }
  void dump(Cycle c) {
    if constexpr (kTrace) {
      if (tr_.first == ~Cycle{0}) tr_.first = c;
      tr_.vcd->dump(static_cast<std::uint64_t>(c));
      tr_.dumped = c;
    }
  }

  static int vc_width(int vcs) {
    int w = 1;
    while ((1 << w) < vcs) ++w;
    return w;
  }

  // One clock cycle c of the RTL. last: the cycle the network is in (an earlier one is played
  // while waking up, and may not send anything).
  void cycle(Cycle c, bool last) {
    M& m = *m_;
    const int nin = np_ + 1, nout = np_ + 1;
    // (Waves: the cycles since the last sample were not evaluated; the first of them shows the
    // registers the last evaluated edge left, which hold through the gap.)
    if constexpr (kTrace)
      if (tr_.dumped != ~Cycle{0} && tr_.dumped + 1 < c) settle_sample(tr_.dumped + 1);
    // Inputs: this cycle's flits and credits.
    m.in_valid_i = 0;
    for (int p = 0; p < nin; ++p) {
      auto& q = in_q_[static_cast<std::size_t>(p)];
      if (q.empty() || q.front().cycle != c) continue;
      const Queued& x = q.front();
      const Packet& pk = fabric_.pool[x.f.packet];
      std::uint64_t data = static_cast<std::uint64_t>(x.f.packet) << 32 |
                           (static_cast<std::uint64_t>(x.f.seq) & 0xffffffu) << (2 * kCw);
      if (x.f.head)  // (seq 0: the class takes its place)
        data |= static_cast<std::uint64_t>(fabric_.topo.coord(pk.dst, 0)) |
                static_cast<std::uint64_t>(fabric_.topo.coord(pk.dst, 1)) << kCw |
                static_cast<std::uint64_t>(pk.priority) << (2 * kCw);
      set_bits(m.in_valid_i, p, 1, 1);
      set_bits(m.in_vc_i, p * vw_, vw_, static_cast<std::uint64_t>(x.vc));
      set_bits(m.in_head_i, p, 1, x.f.head);
      set_bits(m.in_tail_i, p, 1, x.f.tail);
      set_bits(m.in_data_i, p * kFlitW, kFlitW, data);
      q.pop();
    }
    m.cr_in_valid_i = 0;
    for (int o = 0; o < nout; ++o) {
      OutputUnit& ou = outputs_[static_cast<std::size_t>(o)];
      for (int v = 0; v < ou.num_vcs(); ++v) {
        if (ou.vc(v).credits <= 0) continue;
        --ou.vc(v).credits;
        --owed_;
        set_bits(m.cr_in_valid_i, o, 1, 1);
        set_bits(m.cr_in_vc_i, o * vw_, vw_, static_cast<std::uint64_t>(v));
        if (probed_) ++cred_[static_cast<std::size_t>(o * ou.num_vcs() + v)];
        break;  // (one a cycle: the rest next cycle)
      }
    }
    // An idle RTL with nothing on its inputs keeps its state through the edge: not evaluated.
    if (idle_ && get_bits(m.in_valid_i, 0, nin) == 0 && get_bits(m.cr_in_valid_i, 0, nout) == 0)
      return;
    m.eval();  // (the inputs settle, clock low)
    if constexpr (kTrace) dump(c);
    m.clk_i = 1;
    m.eval();
    idle_ = m.idle_o;
    // The registered outputs now show cycle c + 1: the flits that won the switch in c (sw_*)
    // and the credits usable upstream at c + 1.
    const std::uint64_t sw = get_bits(m.sw_valid_o, 0, nout);
    const std::uint64_t cr = get_bits(m.cr_out_valid_o, 0, nin);
    if (!last && (sw | cr))
      throw std::logic_error(std::string(name()) + ": output while waking up");
    check_out(m, nout, sw);
    for (std::uint64_t b = sw; b; b &= b - 1) {
      const int o = __builtin_ctzll(b);
      const int vc = static_cast<int>(get_bits(m.sw_vc_o, o * vw_, vw_));
      const std::uint64_t data = get_bits(m.sw_data_o, o * kFlitW, kFlitW);
      Flit f;
      f.packet = static_cast<std::uint32_t>(data >> 32);
      f.head = get_bits(m.sw_head_o, o, 1) != 0;
      f.seq = f.head ? 0 : static_cast<std::uint32_t>((data >> (2 * kCw)) & 0xffffffu);
      f.tail = get_bits(m.sw_tail_o, o, 1) != 0;
      if (probed_) probe_out(o, vc, f);
      // On out_* from c + kOutStages, at the next router or the NI from the cycle after.
      const Cycle arrival = c + kOutStages + 1;
      ++owed_;
      fabric_.last_progress = c;
      if (fabric_.hop_log) fabric_.log_hop(arrival, node_, o, vc, f.packet, f.seq);
      if (o < np_) {
        OutputUnit& ou = outputs_[static_cast<std::size_t>(o)];
        ++ou.flits;
        ++fabric_.flit_hops;
        ou.dst->accept_flit(ou.dst_port, vc, f, arrival);
      } else {
        nis_[0]->deliver_flit(f, arrival);
        fabric_.credit_at(&outputs_[static_cast<std::size_t>(o)], vc, c,
                          arrival + eject_credit_delay_);
      }
    }
    for (std::uint64_t b = cr; b; b &= b - 1) {
      const int p = __builtin_ctzll(b);
      const int vc = static_cast<int>(get_bits(m.cr_out_vc_o, p * vw_, vw_));
      fabric_.credit_at(upstream_[static_cast<std::size_t>(p)], vc, c, c + 1);
    }
    m.clk_i = 0;
  }

  // The port contract: out_* shows what sw_* showed kOutStages - 1 cycles before (kOutStages
  // 2: the cycle before). (The flits are taken from sw_*; this keeps out_* honest.)
  void check_out(const M& m, int nout, std::uint64_t sw) {
    static_assert(kOutStages == 2, "the check keeps one cycle of sw_*");
    const std::uint64_t out = get_bits(m.out_valid_o, 0, nout);
    bool ok = out == prev_sw_;
    for (std::uint64_t b = out; ok && b; b &= b - 1) {
      const int o = __builtin_ctzll(b);
      const Seen& x = prev_[static_cast<std::size_t>(o)];
      ok = get_bits(m.out_data_o, o * kFlitW, kFlitW) == x.data &&
           get_bits(m.out_vc_o, o * vw_, vw_) == x.vc && get_bits(m.out_head_o, o, 1) == x.head &&
           get_bits(m.out_tail_o, o, 1) == x.tail;
    }
    if (!ok)
      throw std::logic_error(std::string(name()) +
                             ": out_* is not sw_* of the cycle before (the port contract)");
    prev_sw_ = sw;
    for (std::uint64_t b = sw; b; b &= b - 1) {
      const int o = __builtin_ctzll(b);
      prev_[static_cast<std::size_t>(o)] = {
          get_bits(m.sw_data_o, o * kFlitW, kFlitW), get_bits(m.sw_vc_o, o * vw_, vw_),
          get_bits(m.sw_head_o, o, 1), get_bits(m.sw_tail_o, o, 1)};
    }
  }
  struct Seen {
    std::uint64_t data = 0, vc = 0, head = 0, tail = 0;
  };
  std::vector<Seen> prev_ = std::vector<Seen>(64);
  std::uint64_t prev_sw_ = 0;
  bool idle_ = false;  // the RTL said idle after its last edge

  const int np_, vw_, eject_credit_delay_;
  std::unique_ptr<M> m_;
  std::vector<OutputUnit*> upstream_;
  std::vector<Ring> in_q_;
  Cycle next_ = 0;         // the first cycle not played yet
  std::int64_t owed_ = 0;  // credits for flits sent, not yet handed to the RTL
  RtlTrace<kTrace> tr_;
  // The network's VCD (a probe): per input port and VC the flits (packet, seq) handed in and
  // not yet out, a ring of the VC's depth; per output and VC the credits handed to the RTL less
  // the flits sent, from the depth.
  struct Held {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> q;
    int h = 0, n = 0;
  };
  std::vector<Held> held_;
  std::vector<int> cred_;
};

}  // namespace sy::rtl
