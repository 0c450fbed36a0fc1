// arbiter_cosim: rtl/prio_rr_arbiter.sv, Verilated (--sc) in every configuration of
// tb/cosim/cosim_top.sv, against the C++ sy::Arbiter (models/router/arbiter.hpp, .cpp), cycle by
// cycle with identical stimulus. One SystemC process, one elaboration; the harness steps the clock
// itself:
//
//   t = 2c     : clock low; the stimulus of cycle c is written to the RTL inputs (and a reset
//                cycle rebuilds the C++ arbiter, like the asynchronous reset of the RTL)
//   t = 2c + 1 : inputs have settled -> RTL gnt_o / gnt_valid_o / gnt_idx_o are compared with
//                sy::Arbiter::arbitrate(req, cls, nullptr, hold); then the clock rises, the RTL
//                updates on the edge, and the C++ side calls update(g, cls[g]) when en is high.
//
// On the first mismatch the cycle, the inputs, both outputs and the C++ pointer/last state are
// printed, the last kHistory cycles are written to a VCD, and the exit status is 1. RTL assertion
// failures (Verilator --assert) are reported the same way. Usage: arbiter_cosim --help.
#include <verilated.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "Vcosim_top.h"
#include "switchyard/base/rng.hpp"
#include "switchyard/router/arbiter.hpp"

namespace {

using sc_core::sc_in;
using sc_core::sc_out;
using sc_core::sc_signal;

constexpr int kMaxN = 64;
constexpr int kMaxClasses = 8;    // sy::Arbiter's limit
constexpr int kHistory = 64;      // cycles kept per configuration for the mismatch VCD
constexpr int kPrintHistory = 8;  // of which printed as text

// Bits of a field holding 0..values-1, at least 1 (the RTL's CW / IW).
int field_bits(int values) {
  int w = 1;
  while ((1 << w) < values) ++w;
  return w;
}

std::uint64_t low_mask(int bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

std::string binary(std::uint64_t v, int bits) {
  std::string s;
  for (int b = bits - 1; b >= 0; --b) s += (v >> b & 1) ? '1' : '0';
  return s;
}

// ---------------------------------------------------------------------------------------------
// One cycle of stimulus and what both sides did with it.

struct Inputs {
  bool rst_n = true;
  std::uint64_t req = 0;
  std::array<std::uint8_t, kMaxN> cls{};  // cls[i] of requester i; idle ones may be >= P
  bool hold = false;
  bool en = false;
};

struct Sample {
  std::uint64_t cycle = 0;
  Inputs in;
  std::uint64_t rtl_gnt = 0;
  bool rtl_valid = false;
  int rtl_idx = 0;
  int cpp_gnt = -1;   // sy::Arbiter::arbitrate
  int cpp_last = -1;  // sy::Arbiter state the grant was computed from (before the edge)
  std::array<int, kMaxClasses> cpp_ptr{};
  bool mismatch = false;
};

// ---------------------------------------------------------------------------------------------
// Stimulus: segments of a few to a few hundred cycles, each in one mode with its own densities.
// The first segments run every mode once, so that even a short run covers the directed cases.

class Stimulus {
 public:
  Stimulus(int n, int p, std::uint64_t seed) : n_(n), p_(p), cw_(field_bits(p)), rng_(seed) {
    for (int i = 0; i < n_; ++i) cls_[i] = draw_class();
  }

  // The next cycle's inputs. The C++ arbiter is consulted only to aim directed cases at the
  // current holder (the RTL receives the very same inputs).
  Inputs next(const sy::Arbiter& model) {
    if (left_ == 0) new_segment();
    --left_;
    Inputs in;
    const int last = model.last_grant();
    switch (mode_) {
      case Mode::Random:
        draw_requests(p_req_);
        in.hold = rng_.bernoulli(p_hold_);
        in.en = rng_.bernoulli(p_en_);
        break;
      case Mode::AllRequest:
        req_ = all();
        in.hold = rng_.bernoulli(p_hold_);
        in.en = rng_.bernoulli(p_en_);
        break;
      case Mode::Walk:  // one requester walking round, sometimes with a second one
        if (++walk_count_ >= walk_step_) {
          walk_count_ = 0;
          walk_pos_ = (walk_pos_ + 1) % n_;
        }
        req_ = std::uint64_t{1} << walk_pos_;
        if (rng_.bernoulli(0.25)) req_ |= std::uint64_t{1} << rng_.below(n_);
        in.hold = rng_.bernoulli(p_hold_);
        in.en = rng_.bernoulli(p_en_);
        break;
      case Mode::HoldClassChange:  // holder keeps requesting while classes change around it
        draw_requests(p_req_);
        if (last >= 0) req_ |= std::uint64_t{1} << last;
        in.hold = true;
        in.en = rng_.bernoulli(p_en_);
        break;
      case Mode::HoldDrop:  // hold asserted, the holder drops its request now and then
        draw_requests(p_req_);
        if (last >= 0 && rng_.bernoulli(p_drop_)) req_ &= ~(std::uint64_t{1} << last);
        in.hold = rng_.bernoulli(0.9);
        in.en = rng_.bernoulli(p_en_);
        break;
      case Mode::EnLow:  // grants not used: the state must not move
        draw_requests(p_req_);
        in.hold = rng_.bernoulli(p_hold_);
        in.en = rng_.bernoulli(0.03);
        break;
      case Mode::Idle:  // mostly nobody requests; used "no grant" clears the last grant
        req_ = rng_.bernoulli(0.8) ? 0 : std::uint64_t{1} << rng_.below(n_);
        in.hold = rng_.bernoulli(0.5);
        in.en = rng_.bernoulli(0.5);
        break;
      case Mode::Reset:
        draw_requests(p_req_);
        in.rst_n = false;
        in.hold = rng_.bernoulli(0.5);
        in.en = rng_.bernoulli(0.5);
        break;
    }
    update_classes();
    if (mode_ == Mode::HoldClassChange && last >= 0 && p_ > 1 && rng_.bernoulli(0.3)) {
      // A strictly higher class turns up beside the holder.
      cls_[last] = static_cast<std::uint8_t>(p_ - 1);
      cls_[rng_.below(n_)] = 0;
    }
    in.req = req_;
    for (int i = 0; i < n_; ++i) {
      in.cls[i] = cls_[i];
      // Idle requesters carry don't-care classes, out of range when P is not a power of two.
      if (!(req_ >> i & 1) && rng_.bernoulli(0.3))
        in.cls[i] = static_cast<std::uint8_t>(rng_.below(std::uint64_t{1} << cw_));
    }
    return in;
  }

 private:
  enum class Mode { Random, AllRequest, Walk, HoldClassChange, HoldDrop, EnLow, Idle, Reset };
  enum class ClassMix { Uniform, Sticky, Single, Skewed };

  std::uint64_t all() const { return low_mask(n_); }
  std::uint8_t draw_class() { return static_cast<std::uint8_t>(rng_.below(p_)); }
  template <class T, std::size_t K>
  T pick(const std::array<T, K>& a) {
    return a[rng_.below(K)];
  }

  void new_segment() {
    static constexpr std::array<Mode, 10> kFirst = {
        Mode::Reset,    Mode::Random, Mode::AllRequest, Mode::Walk,  Mode::HoldClassChange,
        Mode::HoldDrop, Mode::EnLow,  Mode::Idle,       Mode::Reset, Mode::Random};
    if (segment_ < kFirst.size()) {
      mode_ = kFirst[segment_];
    } else {
      const auto r = rng_.below(100);
      mode_ = r < 40   ? Mode::Random
              : r < 50 ? Mode::AllRequest
              : r < 58 ? Mode::Walk
              : r < 68 ? Mode::HoldClassChange
              : r < 78 ? Mode::HoldDrop
              : r < 86 ? Mode::EnLow
              : r < 94 ? Mode::Idle
                       : Mode::Reset;
    }
    p_req_ = pick(std::array<double, 7>{0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0});
    p_flip_ = rng_.bernoulli(0.5) ? 1.0 : pick(std::array<double, 3>{0.05, 0.2, 0.5});
    mix_ = static_cast<ClassMix>(rng_.below(4));
    single_cls_ = draw_class();
    p_hold_ = pick(std::array<double, 6>{0.0, 0.0, 0.2, 0.5, 0.9, 1.0});
    p_en_ = pick(std::array<double, 5>{1.0, 1.0, 0.9, 0.7, 0.4});
    p_drop_ = pick(std::array<double, 3>{0.05, 0.2, 0.5});
    walk_step_ = 1 + static_cast<int>(rng_.below(3));
    if (mode_ == Mode::HoldClassChange) {
      p_req_ = pick(std::array<double, 3>{0.6, 0.8, 1.0});
      mix_ = ClassMix::Uniform;
      p_en_ = rng_.bernoulli(0.5) ? 1.0 : 0.9;
    }
    if (mode_ == Mode::Reset)
      left_ = (segment_ == 0 ? 2 : 1) + static_cast<long>(rng_.below(3));
    else if (segment_ < kFirst.size())
      left_ = 48;
    else
      left_ = (16L << rng_.below(6)) + static_cast<long>(rng_.below(16));
    ++segment_;
  }

  // Each request bit is redrawn with probability p_flip_ (1: independent every cycle).
  void draw_requests(double p) {
    for (int i = 0; i < n_; ++i) {
      if (!rng_.bernoulli(p_flip_)) continue;
      const std::uint64_t bit = std::uint64_t{1} << i;
      req_ = rng_.bernoulli(p) ? req_ | bit : req_ & ~bit;
    }
  }

  void update_classes() {
    for (int i = 0; i < n_; ++i) {
      switch (mix_) {
        case ClassMix::Uniform:
          cls_[i] = draw_class();
          break;
        case ClassMix::Sticky:
          if (rng_.bernoulli(0.05)) cls_[i] = draw_class();
          break;
        case ClassMix::Single:
          if (i == 0 && rng_.bernoulli(0.02)) single_cls_ = draw_class();
          cls_[i] = single_cls_;
          break;
        case ClassMix::Skewed:
          cls_[i] = rng_.bernoulli(0.1) ? draw_class() : static_cast<std::uint8_t>(p_ - 1);
          break;
      }
    }
  }

  int n_, p_, cw_;
  sy::Rng rng_;
  std::size_t segment_ = 0;
  Mode mode_ = Mode::Reset;
  long left_ = 0;
  double p_req_ = 0.5, p_flip_ = 1.0, p_hold_ = 0.0, p_en_ = 1.0, p_drop_ = 0.2;
  ClassMix mix_ = ClassMix::Uniform;
  std::uint8_t single_cls_ = 0;
  int walk_pos_ = 0, walk_step_ = 1, walk_count_ = 0;
  std::uint64_t req_ = 0;
  std::array<std::uint8_t, kMaxN> cls_{};
};

// ---------------------------------------------------------------------------------------------
// The RTL side of one configuration: SystemC signals bound to its cosim_top ports. Verilator
// picks bool / uint32_t / uint64_t per port width; the template follows whatever it picked.

struct Outputs {
  std::uint64_t gnt = 0;
  bool valid = false;
  int idx = 0;
};

class DutPorts {
 public:
  virtual ~DutPorts() = default;
  virtual void drive(const Inputs& in, std::uint64_t cls_packed) = 0;
  virtual Outputs read() const = 0;
};

template <class T>
T to_port(std::uint64_t v) {
  if constexpr (std::is_same_v<T, bool>)
    return (v & 1) != 0;
  else
    return static_cast<T>(v);
}

template <class Req, class Cls, class Gnt, class Idx>
class DutPortsT final : public DutPorts {
 public:
  DutPortsT(const std::string& nm, sc_in<bool>& rst_ni, sc_in<Req>& req_i, sc_in<Cls>& cls_i,
            sc_in<bool>& hold_i, sc_in<bool>& en_i, sc_out<Gnt>& gnt_o, sc_out<bool>& valid_o,
            sc_out<Idx>& idx_o)
      : rst_n_((nm + "_rst_n").c_str(), true),  // high at start: cycle 0 gives a real negedge
        req_((nm + "_req").c_str()),
        cls_((nm + "_cls").c_str()),
        hold_((nm + "_hold").c_str()),
        en_((nm + "_en").c_str()),
        gnt_((nm + "_gnt").c_str()),
        valid_((nm + "_gnt_valid").c_str()),
        idx_((nm + "_gnt_idx").c_str()) {
    rst_ni(rst_n_);
    req_i(req_);
    cls_i(cls_);
    hold_i(hold_);
    en_i(en_);
    gnt_o(gnt_);
    valid_o(valid_);
    idx_o(idx_);
  }
  void drive(const Inputs& in, std::uint64_t cls_packed) override {
    rst_n_.write(in.rst_n);
    req_.write(to_port<Req>(in.req));
    cls_.write(to_port<Cls>(cls_packed));
    hold_.write(in.hold);
    en_.write(in.en);
  }
  Outputs read() const override {
    return {static_cast<std::uint64_t>(gnt_.read()), valid_.read(), static_cast<int>(idx_.read())};
  }

 private:
  sc_signal<bool> rst_n_;
  sc_signal<Req> req_;
  sc_signal<Cls> cls_;
  sc_signal<bool> hold_, en_;
  sc_signal<Gnt> gnt_;
  sc_signal<bool> valid_;
  sc_signal<Idx> idx_;
};

template <class Req, class Cls, class Gnt, class Idx>
std::unique_ptr<DutPorts> bind_ports(const char* nm, sc_in<bool>& rst_ni, sc_in<Req>& req_i,
                                     sc_in<Cls>& cls_i, sc_in<bool>& hold_i, sc_in<bool>& en_i,
                                     sc_out<Gnt>& gnt_o, sc_out<bool>& valid_o,
                                     sc_out<Idx>& idx_o) {
  return std::make_unique<DutPortsT<Req, Cls, Gnt, Idx>>(nm, rst_ni, req_i, cls_i, hold_i, en_i,
                                                         gnt_o, valid_o, idx_o);
}

// ---------------------------------------------------------------------------------------------
// One configuration: the RTL ports, the C++ twin, its stimulus, history and coverage.

struct Coverage {
  std::uint64_t cycles = 0, grants = 0, held = 0, held_over_higher = 0, hold_released = 0,
                class_decisions = 0, en_low = 0, empty_updates = 0, reset_cycles = 0;
};

struct Config {
  Config(const char* port_prefix, int n_, int p_, std::unique_ptr<DutPorts> ports)
      : port(port_prefix),
        name("N" + std::to_string(n_) + "_P" + std::to_string(p_)),
        n(n_),
        p(p_),
        cw(field_bits(p_)),
        iw(field_bits(n_)),
        dut(std::move(ports)),
        model(n_, p_),
        stim(n_, p_, 1),
        history(kHistory) {}

  std::string port, name;
  int n, p, cw, iw;
  std::unique_ptr<DutPorts> dut;
  sy::Arbiter model;
  Stimulus stim;
  bool selected = false;
  Inputs in;        // this cycle
  int expect = -1;  // this cycle's C++ grant
  std::vector<Sample> history;
  std::uint64_t recorded = 0;
  Coverage cov;

  std::uint64_t pack_cls(const Inputs& x) const {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t{x.cls[i]} << (i * cw);
    return v;
  }
  Sample& slot(std::uint64_t k) { return history[k % kHistory]; }
};

// ---------------------------------------------------------------------------------------------
// A small VCD writer: value changes only, times in ns (a cycle is 2 ns: inputs at 2c, edge at
// 2c+1), one scope per configuration with the inputs, both outputs and the C++ state.

class Vcd {
 public:
  explicit Vcd(const std::string& path) : out_(path) {
    out_ << "$date arbiter_cosim $end\n$timescale 1ns $end\n$scope module cosim $end\n";
    clk_ = add("clk", 1);
  }
  bool ok() const { return static_cast<bool>(out_); }

  void declare(const Config& c) {
    Ids ids;
    out_ << "$scope module " << c.name << " $end\n";
    ids.rst_n = add("rst_n", 1);
    ids.req = add("req", c.n);
    ids.cls = add("cls", c.n * c.cw);
    ids.hold = add("hold", 1);
    ids.en = add("en", 1);
    ids.rtl_gnt = add("rtl_gnt", c.n);
    ids.rtl_valid = add("rtl_gnt_valid", 1);
    ids.rtl_idx = add("rtl_gnt_idx", c.iw);
    ids.cpp_gnt = add("cpp_gnt", c.n);
    ids.cpp_valid = add("cpp_gnt_valid", 1);
    ids.cpp_idx = add("cpp_gnt_idx", c.iw);
    ids.cpp_last_valid = add("cpp_last_valid", 1);
    ids.cpp_last = add("cpp_last", c.iw);
    for (int k = 0; k < c.p; ++k) ids.ptr[k] = add("cpp_ptr" + std::to_string(k), c.iw);
    ids.mismatch = add("mismatch", 1);
    out_ << "$upscope $end\n";
    ids_.push_back(ids);
  }
  void end_header() { out_ << "$upscope $end\n$enddefinitions $end\n"; }

  void begin_cycle(std::uint64_t cycle) {
    out_ << '#' << 2 * cycle << '\n';
    set(clk_, 0);
  }
  // k: the position of the configuration in declare() order.
  void sample(std::size_t k, const Config& c, const Sample& s) {
    const Ids& ids = ids_[k];
    const auto onehot = [](int g) { return g >= 0 ? std::uint64_t{1} << g : 0; };
    set(ids.rst_n, s.in.rst_n);
    set(ids.req, s.in.req);
    set(ids.cls, c.pack_cls(s.in));
    set(ids.hold, s.in.hold);
    set(ids.en, s.in.en);
    set(ids.rtl_gnt, s.rtl_gnt);
    set(ids.rtl_valid, s.rtl_valid);
    set(ids.rtl_idx, static_cast<std::uint64_t>(s.rtl_idx));
    set(ids.cpp_gnt, onehot(s.cpp_gnt));
    set(ids.cpp_valid, s.cpp_gnt >= 0);
    set(ids.cpp_idx, s.cpp_gnt >= 0 ? static_cast<std::uint64_t>(s.cpp_gnt) : 0);
    set(ids.cpp_last_valid, s.cpp_last >= 0);
    set(ids.cpp_last, s.cpp_last >= 0 ? static_cast<std::uint64_t>(s.cpp_last) : 0);
    for (int q = 0; q < c.p; ++q) set(ids.ptr[q], static_cast<std::uint64_t>(s.cpp_ptr[q]));
    set(ids.mismatch, s.mismatch);
  }
  void end_cycle(std::uint64_t cycle) {
    out_ << '#' << 2 * cycle + 1 << '\n';
    set(clk_, 1);
  }
  void finish(std::uint64_t cycle) { out_ << '#' << 2 * cycle << '\n'; }

 private:
  struct Ids {
    int rst_n, req, cls, hold, en, rtl_gnt, rtl_valid, rtl_idx, cpp_gnt, cpp_valid, cpp_idx,
        cpp_last_valid, cpp_last, mismatch;
    std::array<int, kMaxClasses> ptr;
  };
  struct Var {
    std::string code;
    int width;
    std::string last;
  };

  int add(const std::string& name, int width) {
    std::string code;
    for (std::size_t k = vars_.size();; k /= 94) {
      code += static_cast<char>('!' + k % 94);
      if (k < 94) break;
    }
    out_ << "$var wire " << width << ' ' << code << ' ' << name;
    if (width > 1) out_ << " [" << width - 1 << ":0]";
    out_ << " $end\n";
    vars_.push_back({code, width, ""});
    return static_cast<int>(vars_.size()) - 1;
  }
  void set(int id, std::uint64_t value) {
    Var& v = vars_[id];
    std::string text =
        v.width == 1 ? std::string(1, (value & 1) ? '1' : '0') : 'b' + binary(value, v.width) + ' ';
    if (text == v.last) return;
    out_ << text << v.code << '\n';
    v.last = std::move(text);
  }

  std::ofstream out_;
  int clk_;
  std::vector<Var> vars_;
  std::vector<Ids> ids_;
};

// ---------------------------------------------------------------------------------------------

struct Options {
  std::uint64_t cycles = 100000;
  std::uint64_t seed = 1;
  std::vector<std::string> configs;  // empty: all
  std::string vcd;                   // full-run trace, optional
  std::string mismatch_vcd = "arbiter_cosim_mismatch.vcd";
  bool list = false;
};

void usage(std::FILE* f) {
  std::fprintf(f,
               "usage: arbiter_cosim [--cycles N] [--seed S] [--config N,P]... [--vcd FILE]\n"
               "                     [--mismatch-vcd FILE] [--list]\n"
               "  Drives rtl/prio_rr_arbiter.sv (Verilated) and sy::Arbiter with the same seeded\n"
               "  stimulus and compares the grant every cycle. --config picks configurations\n"
               "  (repeatable; 'all' or absent: every one of --list). --vcd traces the whole run;\n"
               "  on a mismatch the last %d cycles go to --mismatch-vcd (default\n"
               "  arbiter_cosim_mismatch.vcd). Exit: 0 all equal, 1 mismatch or RTL assertion,\n"
               "  2 usage error.\n",
               kHistory);
}

bool parse_u64(const char* s, std::uint64_t& out) {
  if (!s || !*s) return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || *end || *s == '-') return false;
  out = v;
  return true;
}

// 0: go on, 1: done (help/list handled by the caller), 2: usage error.
int parse(int argc, char** argv, Options& opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 1;
    } else if (a == "--list") {
      opt.list = true;
    } else if (a == "--cycles" && parse_u64(v, opt.cycles)) {
      ++i;
    } else if (a == "--seed" && parse_u64(v, opt.seed)) {
      ++i;
    } else if (a == "--config" && v) {
      if (std::string(v) != "all") opt.configs.push_back(v);
      ++i;
    } else if (a == "--vcd" && v) {
      opt.vcd = v;
      ++i;
    } else if (a == "--mismatch-vcd" && v) {
      opt.mismatch_vcd = v;
      ++i;
    } else {
      std::fprintf(stderr, "arbiter_cosim: bad argument '%s'%s\n", a.c_str(),
                   v ? "" : " (missing value?)");
      usage(stderr);
      return 2;
    }
  }
  return 0;
}

bool matches(const Config& c, const std::string& sel) {
  return sel == std::to_string(c.n) + "," + std::to_string(c.p) || sel == c.name || sel == c.port;
}

void print_sample_line(const Config& c, const Sample& s) {
  std::string cls;
  for (int i = 0; i < c.n; ++i) cls += std::to_string(s.in.cls[i]) + (i + 1 < c.n ? " " : "");
  std::printf("    %8llu  rst_n=%d hold=%d en=%d req=%s cls=[%s]  rtl=%s  c++=%d  last=%d%s\n",
              static_cast<unsigned long long>(s.cycle), s.in.rst_n, s.in.hold, s.in.en,
              binary(s.in.req, c.n).c_str(), cls.c_str(),
              s.rtl_valid ? std::to_string(s.rtl_idx).c_str() : "-", s.cpp_gnt, s.cpp_last,
              s.mismatch ? "  <== MISMATCH" : "");
}

// The last kHistory cycles of the given configurations, into one VCD.
bool write_history_vcd(const std::string& path, std::vector<Config*> cs, std::uint64_t upto) {
  Vcd vcd(path);
  for (const Config* c : cs) vcd.declare(*c);
  vcd.end_header();
  const std::uint64_t first = upto + 1 > kHistory ? upto + 1 - kHistory : 0;
  for (std::uint64_t k = first; k <= upto; ++k) {
    vcd.begin_cycle(k);
    for (std::size_t j = 0; j < cs.size(); ++j) vcd.sample(j, *cs[j], cs[j]->slot(k));
    vcd.end_cycle(k);
  }
  vcd.finish(upto + 1);
  return vcd.ok();
}

void report_mismatch(Config& c, const Sample& s, const Options& opt) {
  std::printf("MISMATCH %s (N=%d P=%d) at cycle %llu, seed %llu\n", c.name.c_str(), c.n, c.p,
              static_cast<unsigned long long>(s.cycle), static_cast<unsigned long long>(opt.seed));
  std::printf("  inputs : rst_n=%d hold=%d en=%d req[%d:0]=%s\n", s.in.rst_n, s.in.hold, s.in.en,
              c.n - 1, binary(s.in.req, c.n).c_str());
  std::printf("           cls[0..%d]=", c.n - 1);
  for (int i = 0; i < c.n; ++i) {
    const bool r = s.in.req >> i & 1;
    std::printf("%s%s%d%s", i ? " " : "", r ? "" : "(", s.in.cls[i], r ? "" : ")");
  }
  std::printf("   (parenthesized: not requesting, don't care)\n");
  std::printf("  RTL    : gnt[%d:0]=%s gnt_valid=%d gnt_idx=%d\n", c.n - 1,
              binary(s.rtl_gnt, c.n).c_str(), s.rtl_valid, s.rtl_idx);
  std::printf("  C++    : arbitrate()=%d -> gnt[%d:0]=%s\n", s.cpp_gnt, c.n - 1,
              binary(s.cpp_gnt >= 0 ? std::uint64_t{1} << s.cpp_gnt : 0, c.n).c_str());
  std::printf("  C++ state before the edge: last_grant=%d ptr[0..%d]=", s.cpp_last, c.p - 1);
  for (int k = 0; k < c.p; ++k) std::printf("%s%d", k ? " " : "", s.cpp_ptr[k]);
  std::printf("\n  last cycles (oldest first):\n");
  const std::uint64_t first = s.cycle + 1 > kPrintHistory ? s.cycle + 1 - kPrintHistory : 0;
  for (std::uint64_t k = first; k <= s.cycle; ++k) print_sample_line(c, c.slot(k));
  if (write_history_vcd(opt.mismatch_vcd, {&c}, s.cycle))
    std::printf("  VCD of the last %d cycles of both: %s\n", kHistory, opt.mismatch_vcd.c_str());
  else
    std::printf("  (could not write %s)\n", opt.mismatch_vcd.c_str());
}

int run(int argc, char** argv) {
  Options opt;
  if (const int r = parse(argc, argv, opt)) return r == 1 ? 0 : 2;

  Vcosim_top top("cosim_top");
  top.contextp()->fatalOnError(false);  // an RTL assertion is reported below, not abort()ed
  sc_signal<bool> clk("clk", false);
  top.clk_i(clk);

  std::vector<std::unique_ptr<Config>> cfgs;
#define COSIM_CONFIG(NM, NV, PV)                                                        \
  static_assert((NV) >= 1 && (NV) <= kMaxN && (PV) >= 1 && (PV) <= kMaxClasses,         \
                "configuration out of the harness limits");                             \
  cfgs.push_back(std::make_unique<Config>(                                              \
      #NM, NV, PV,                                                                      \
      bind_ports(#NM, top.NM##_rst_ni, top.NM##_req_i, top.NM##_cls_i, top.NM##_hold_i, \
                 top.NM##_en_i, top.NM##_gnt_o, top.NM##_gnt_valid_o, top.NM##_gnt_idx_o)));
#include "configs.def"
#undef COSIM_CONFIG

  if (opt.list) {
    for (const auto& c : cfgs) std::printf("%s\t%d,%d\n", c->name.c_str(), c->n, c->p);
    return 0;
  }
  std::vector<Config*> sel;
  for (auto& c : cfgs) {
    if (c->n * c->cw > 64) {
      std::fprintf(stderr, "arbiter_cosim: %s: packed classes wider than 64 bits\n",
                   c->name.c_str());
      return 2;
    }
    c->selected = opt.configs.empty();
    for (const auto& s : opt.configs) c->selected = c->selected || matches(*c, s);
    if (!c->selected) continue;
    // Each configuration has its own stream: the same whether it runs alone or with others.
    c->stim = Stimulus(c->n, c->p, opt.seed * 0x9e3779b97f4a7c15ull + 1000u * c->n + c->p);
    sel.push_back(c.get());
  }
  for (const auto& s : opt.configs) {
    bool known = false;
    for (const auto& c : cfgs) known = known || matches(*c, s);
    if (!known) {
      std::fprintf(stderr, "arbiter_cosim: unknown configuration '%s' (see --list)\n", s.c_str());
      return 2;
    }
  }

  std::unique_ptr<Vcd> trace;
  if (!opt.vcd.empty()) {
    trace = std::make_unique<Vcd>(opt.vcd);
    for (const Config* c : sel) trace->declare(*c);
    trace->end_header();
  }

  std::printf(
      "arbiter_cosim: rtl/prio_rr_arbiter.sv vs sy::Arbiter, seed %llu, %llu cycles, "
      "%zu configuration(s)\n",
      static_cast<unsigned long long>(opt.seed), static_cast<unsigned long long>(opt.cycles),
      sel.size());
  std::fflush(stdout);

  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t cycle = 0; cycle < opt.cycles; ++cycle) {
    // Clock low: apply this cycle's inputs (a reset cycle resets the C++ twin at once, like
    // the asynchronous reset of the RTL).
    for (Config* c : sel) {
      c->in = c->stim.next(c->model);
      if (!c->in.rst_n) c->model = sy::Arbiter(c->n, c->p);
      c->dut->drive(c->in, c->pack_cls(c->in));
    }
    clk.write(false);
    sc_core::sc_start(1, sc_core::SC_NS);

    // Settled, before the edge: compare.
    if (trace) trace->begin_cycle(cycle);
    Config* bad = nullptr;
    for (std::size_t j = 0; j < sel.size(); ++j) {
      Config& c = *sel[j];
      const Outputs o = c.dut->read();
      c.expect = c.model.arbitrate(c.in.req, c.in.cls.data(), nullptr, c.in.hold);
      Sample& s = c.slot(cycle);
      s.cycle = cycle;
      s.in = c.in;
      s.rtl_gnt = o.gnt;
      s.rtl_valid = o.valid;
      s.rtl_idx = o.idx;
      s.cpp_gnt = c.expect;
      s.cpp_last = c.model.last_grant();
      for (int k = 0; k < c.p; ++k) s.cpp_ptr[k] = c.model.pointer(k);
      const std::uint64_t want = c.expect >= 0 ? std::uint64_t{1} << c.expect : 0;
      s.mismatch =
          o.gnt != want || o.valid != (c.expect >= 0) || o.idx != (c.expect >= 0 ? c.expect : 0);
      if (s.mismatch && !bad) bad = &c;
      if (trace) trace->sample(j, c, s);

      Coverage& v = c.cov;
      ++v.cycles;
      if (!c.in.rst_n) {
        ++v.reset_cycles;
        continue;
      }
      if (c.expect >= 0) ++v.grants;
      const int last = s.cpp_last;
      const bool last_req = last >= 0 && (c.in.req >> last & 1);
      if (c.in.hold && last_req) {
        ++v.held;
        for (int i = 0; i < c.n; ++i)
          if ((c.in.req >> i & 1) && c.in.cls[i] < c.in.cls[last]) {
            ++v.held_over_higher;
            break;
          }
      } else {
        if (c.in.hold && last >= 0 && c.in.req) ++v.hold_released;
        int lo = c.p, hi = -1;
        for (int i = 0; i < c.n; ++i)
          if (c.in.req >> i & 1) {
            lo = std::min<int>(lo, c.in.cls[i]);
            hi = std::max<int>(hi, c.in.cls[i]);
          }
        if (hi > lo) ++v.class_decisions;
      }
      if (!c.in.en) ++v.en_low;
      if (c.in.en && !c.in.req) ++v.empty_updates;
    }
    if (bad) {
      if (trace) trace->finish(cycle + 1);
      report_mismatch(*bad, bad->slot(cycle), opt);
      return 1;
    }

    // The edge: the RTL updates; the C++ twin does the same when the grant was used.
    clk.write(true);
    sc_core::sc_start(1, sc_core::SC_NS);
    if (trace) trace->end_cycle(cycle);
    if (top.contextp()->gotError()) {
      std::printf("RTL ASSERTION failed at the edge ending cycle %llu (message above), seed %llu\n",
                  static_cast<unsigned long long>(cycle),
                  static_cast<unsigned long long>(opt.seed));
      if (write_history_vcd(opt.mismatch_vcd, sel, cycle))
        std::printf("  VCD of the last %d cycles: %s\n", kHistory, opt.mismatch_vcd.c_str());
      return 1;
    }
    for (Config* c : sel) {
      if (c->in.rst_n && c->in.en)
        c->model.update(c->expect, c->expect >= 0 ? c->in.cls[c->expect] : 0);
    }
  }
  if (trace) trace->finish(opt.cycles);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::printf("  %-7s %10s %10s %9s %9s %9s %10s %9s %9s %7s\n", "config", "checked", "grants",
              "held", "held>hi", "released", "class-dec", "en=0", "upd(-1)", "resets");
  std::uint64_t total = 0;
  for (const Config* c : sel) {
    const Coverage& v = c->cov;
    total += v.cycles;
    std::printf("  %-7s %10llu %10llu %9llu %9llu %9llu %10llu %9llu %9llu %7llu\n",
                c->name.c_str(), static_cast<unsigned long long>(v.cycles),
                static_cast<unsigned long long>(v.grants), static_cast<unsigned long long>(v.held),
                static_cast<unsigned long long>(v.held_over_higher),
                static_cast<unsigned long long>(v.hold_released),
                static_cast<unsigned long long>(v.class_decisions),
                static_cast<unsigned long long>(v.en_low),
                static_cast<unsigned long long>(v.empty_updates),
                static_cast<unsigned long long>(v.reset_cycles));
  }
  std::printf(
      "PASS: %llu cycles x %zu configuration(s) = %llu checked, no mismatch; %.2f s, "
      "%.0f cycles/s (%.0f config-cycles/s)\n",
      static_cast<unsigned long long>(opt.cycles), sel.size(),
      static_cast<unsigned long long>(total), secs, secs > 0 ? opt.cycles / secs : 0.0,
      secs > 0 ? total / secs : 0.0);
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  return run(argc, argv);
}

// Own entry point (replaces the one in libsystemc) only to silence the SystemC banner, like
// tb/main.cpp; SystemC then calls sc_main above.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
