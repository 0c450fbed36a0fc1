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
#pragma once
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "switchyard/network/fabric.hpp"
#include "switchyard/network/network_interface.hpp"
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
    wake();
  }
  void accept_packet(int, std::uint32_t, Cycle) override {}
  void connect_upstream(int in_port, OutputUnit* up, bool) override {
    upstream_[static_cast<std::size_t>(in_port)] = up;
  }
  void sample(RouterProbe&) const override {}

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
};

}  // namespace sy::rtl
