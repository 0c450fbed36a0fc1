// The units' energy, power and area models (power/power_model.hpp), in the ORION 2.0 / DSENT
// style: each unit is built from standard cells (an inverter, NAND2, AND2/OR2, MUX2, XOR2, a
// master-slave flip-flop, a tristate driver) whose capacitances, leakage and area follow from
// the technology's device parameters (config/tech.hpp); wires from its per-length figures.
//
// The cells are X1 (no transistor folding: the N and P widths fill the cell's transistor
// height). Their node capacitances are counted in three units of the technology:
//   cin  = Cg x (Wn + Wp)                 the input of an X1 gate,
//   cout = Cd x (Wn + Wp) + C_m1 x height an X1 gate's output node (diffusion + local wire),
//   cmin = Cg x 2 Wmin                    a pair of minimum-width gates (flip-flop pins).
// A node that rises from 0 to 1 draws C x Vdd^2 from the supply; a data node does so with
// probability activity / 2 per event, a clock node once a cycle. Leakage: an off transistor of
// width W leaks Vdd x max(W x Ioff, Ioff_min) x 10^((T - T_char) / S_T); a cell leaks its
// average number of off devices over its input states. Area: a cell's gate pitches x height.
//
// Energies here are in fJ, capacitances in fF, leakage in nW, areas in um^2; the results are
// converted to the interface's pJ, mW and mm^2 at the end.
#include "switchyard/power/power_model.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace sy {

namespace {

// The clock tree (clock_tree below): an H-tree of at least kClockLevels levels over the
// router (DSENT's router clock has 5). Every buffer in it, a branch's repeater or a leaf's
// driver, is the smallest library inverter whose output's 20-80% transition (ln 4 x the RC
// it sees) is at most kClockSlewPs (40 ps: DSENT's clock slew target, so that the two trees
// are sized to the same specification).
constexpr int kClockLevels = 5;
constexpr double kClockSlewPs = 40;
// An SRAM read discharges one bitline of each pair by this fraction of Vdd before the sense
// amplifier fires.
constexpr double kSramReadSwing = 0.1;
// The cell library's inverter sizes (X1 units): link repeaters and clock buffers.
constexpr double kRepeaterSizes[] = {1, 1.4, 2, 3, 4, 6, 8, 10, 12, 16};

int log2_ceil(int n) {
  int b = 0;
  while ((1 << b) < n) ++b;
  return b;
}

// The X1 standard cells of one technology.
struct Lib {
  double v2 = 0;                       // Vdd^2
  double cin = 0, cout = 0, cmin = 0;  // fF (see the file comment)
  double r_inv = 0;                    // an X1 inverter's average drive resistance, kohm
  double wn = 0, wp = 0;               // an X1 inverter's widths, um
  const Tech* tech = nullptr;
  double pitch_area = 0;  // one gate pitch x cell height, um^2
  // Leakage of one cell (nW), averaged over its input states, counted in off transistors of
  // X1 width (n1, p1) or of minimum width (n0, p0).
  double inv_leak = 0, nand2_leak = 0, and2_leak = 0, mux2_leak = 0, dff_leak = 0, tbuf_leak = 0;

  // Areas (um^2): gate pitches of each cell.
  double inv_area() const { return 2 * pitch_area; }
  // An inverter of size s (s x the X1 widths): folded into ceil(s) fingers of the X1 height,
  // one pitch each, plus the cell's shared end pitch; of each finger's two devices one is off
  // (each finger a device of its own, with its own off-current floor).
  double inv_area(double s) const { return (std::ceil(s - 1e-9) + 1) * pitch_area; }
  double inv_leak_s(double s) const;
  double nand2_area() const { return 3 * pitch_area; }
  double and2_area() const { return 4 * pitch_area; }  // NAND2/NOR2 + inverter (AND2, OR2)
  double mux2_area() const { return 7 * pitch_area; }  // also XOR2
  double dff_area() const { return 15 * pitch_area; }
  double tbuf_area() const { return 4 * pitch_area; }  // tristate inverter (crosspoint)

  // Dynamic energies (fJ). p: probability that the cell's output rises in the event; load: fF
  // it drives outside the cell.
  double inv(double p, double load) const { return p * (cout + load) * v2; }
  double nand2(double p, double load) const { return p * (2 * cout + load) * v2; }
  // AND2/OR2: the NAND2/NOR2 node (2 cout, the inverter's input) and the output.
  double and2(double p, double load) const { return p * (3.4 * cout + load) * v2; }
  // MUX2: the internal (inverted) output and the output's inverter; the select pin and its
  // complement, switching when the select changes.
  double mux2_data(double p, double load) const { return p * (4.65 * cout + load) * v2; }
  double mux2_sel(double p) const { return p * (0.8 * cin + 1.1 * cout) * v2; }
  // Flip-flop (transmission-gate master-slave): the local clock inverters and the gates they
  // drive, once per load; the master latch following D; the slave latch and Q.
  double dff_clock() const { return (2 * cout + 3.5 * cmin) * v2; }
  double dff_d(double p) const { return p * (5 * cout + 1.2 * cmin) * v2; }
  double dff_q(double p, double load) const { return p * (6 * cout + load) * v2; }
  // One flip-flop loading a new value (toggling with probability 2p) whose Q drives qload.
  double dff_load(double p, double qload) const { return dff_clock() + dff_d(p) + dff_q(p, qload); }
};

// Leakage power (nW) of one off transistor of width w um.
double off_leak(const Tech& t, double w_um, double ioff_na_per_um, double ioff_min_na) {
  const double temp = std::pow(10.0, (t.temperature_k - t.leak_char_temp_k) / t.leak_temp_swing_k);
  return t.vdd * std::max(w_um * ioff_na_per_um, ioff_min_na) * temp;
}

double Lib::inv_leak_s(double s) const {
  const Tech& t = *tech;
  const double fingers = std::ceil(s - 1e-9), w = s / fingers;  // each finger a device
  return fingers * 0.5 *
         (off_leak(t, w * wn, t.ioff_n_na_per_um, t.ioff_min_n_na) +
          off_leak(t, w * wp, t.ioff_p_na_per_um, t.ioff_min_p_na));
}

Lib make_lib(const Tech& t) {
  Lib l;
  l.tech = &t;
  l.v2 = t.vdd * t.vdd;
  const double height = t.cell_tracks * t.m1_pitch_um;      // cell height, um
  const double active = height / t.cell_height_overhead;    // Wn + Wp of an X1 cell, um
  const double beta = t.rp_kohm_um / t.rn_kohm_um;          // P/N width ratio: equal drive
  const double wn = active / (1 + beta), wp = active - wn;  // X1 widths, um
  l.cin = t.cg_ff_per_um * active;
  l.cout = t.cd_ff_per_um * active + t.local_wire_ff_per_um * height;
  l.cmin = t.cg_ff_per_um * 2 * t.min_width_um;
  l.r_inv = 0.5 * (t.rn_kohm_um / wn + t.rp_kohm_um / wp);
  l.wn = wn;
  l.wp = wp;
  l.pitch_area = t.gate_pitch_um * height;
  const double n1 = off_leak(t, wn, t.ioff_n_na_per_um, t.ioff_min_n_na);
  const double p1 = off_leak(t, wp, t.ioff_p_na_per_um, t.ioff_min_p_na);
  const double n0 = off_leak(t, t.min_width_um, t.ioff_n_na_per_um, t.ioff_min_n_na);
  const double p0 = off_leak(t, t.min_width_um, t.ioff_p_na_per_um, t.ioff_min_p_na);
  l.inv_leak = 0.5 * (n1 + p1);         // one of its two devices off
  l.nand2_leak = 0.75 * n1 + 0.5 * p1;  // the series NMOS pair off in 3 of 4 states
  l.and2_leak = 1.25 * n1 + p1;
  l.mux2_leak = 2 * (n0 + p0);
  l.dff_leak = 5 * (n0 + p0);
  l.tbuf_leak = 0.75 * (n1 + p1);
  return l;
}

// Static figures (nW, um^2) as they are summed, converted at the end.
struct Stat {
  double leak_nw = 0, area_um2 = 0;
  void add(double count, double leak_nw_each, double area_each) {
    leak_nw += count * leak_nw_each;
    area_um2 += count * area_each;
  }
  Stat& operator+=(const Stat& o) {
    leak_nw += o.leak_nw;
    area_um2 += o.area_um2;
    return *this;
  }
  UnitStatic out() const { return {leak_nw * 1e-6, area_um2 * 1e-6}; }
};

struct Arbiter {
  double energy_fj = 0;
  Stat stat;
  int dffs = 0;
};

// A matrix arbiter of n requesters: a priority flip-flop per pair of requesters (n(n-1)/2),
// each with its update gates (OR2, AND2, inverter) and the two AND2 that let the older of the
// pair disable the younger; per requester an OR tree of the n-1 disables (n-2 OR2), an
// inverter and the grant AND2. An arbitration clocks the pair flip-flops that update (all,
// as the granted row and column change) and toggles the logic with probability 1/4 (random
// requests).
Arbiter matrix_arbiter(int n, const Lib& l) {
  Arbiter a;
  if (n <= 1) return a;
  const double pairs = n * (n - 1) / 2.0;
  const double p = 0.25, pin = 0.5 * l.cin;
  a.energy_fj = pairs * (l.dff_load(p, 2 * pin) + 4 * l.and2(p, pin) + 2 * l.inv(p, pin)) +
                n * (l.inv(p, pin) + l.and2(p, pin) + (n - 2) * l.and2(p, pin));
  a.stat.add(pairs, l.dff_leak, l.dff_area());
  a.stat.add(pairs * 4, l.and2_leak, l.and2_area());
  a.stat.add(pairs * 2, l.inv_leak, l.inv_area());
  a.stat.add(n, l.inv_leak + l.and2_leak, l.inv_area() + l.and2_area());
  a.stat.add(n * (n - 2), l.and2_leak, l.and2_area());
  a.dffs = static_cast<int>(pairs);
  return a;
}

// A round-robin arbiter of n requesters (for the VC allocator's wide second stage, where a
// matrix arbiter's n^2 flip-flops would dwarf the router): a one-hot priority pointer of n
// flip-flops (all clocked, one bit rising and one falling an arbitration), the requests
// masked by it, two fixed-priority chains (masked and plain: per requester a prefix OR2 and a
// grant AND2, and an inverter), and an OR2 per requester merging them. The logic toggles with
// probability 1/4.
Arbiter round_robin_arbiter(int n, const Lib& l) {
  Arbiter a;
  if (n <= 1) return a;
  const double p = 0.25, pin = 0.5 * l.cin;
  const double gates = 6.0 * n - 2;  // mask AND2, 2 x (prefix OR2, grant AND2), merge OR2
  a.energy_fj = n * l.dff_clock() + 2 * (l.dff_d(0.5) + l.dff_q(0.5, pin)) +
                gates * l.and2(p, pin) + 2.0 * n * l.inv(p, pin);
  a.stat.add(n, l.dff_leak, l.dff_area());
  a.stat.add(gates, l.and2_leak, l.and2_area());
  a.stat.add(2.0 * n, l.inv_leak, l.inv_area());
  a.dffs = n;
  return a;
}

// The smallest library inverter whose output makes its transition within kClockSlewPs when
// it drives a wire (distributed: r_w kohm, c_w fF) into c_load fF; 0 if none does. The clock
// wire's resistance is the global layer's (the same minimum width; only its spacing is wider).
double clock_buffer_size(const Lib& l, double c_load, double c_w, double r_w) {
  for (double s : kRepeaterSizes) {
    const double rc = l.r_inv / s * (s * l.cout + c_w + c_load) + r_w * (0.5 * c_w + c_load);
    if (std::log(4.0) * rc <= kClockSlewPs) return s;
  }
  return 0;
}

// An H-tree over a router of area_um2 (side = its square root), its leaves loaded by pins_ff.
// Level k (0 = the root) has 2^k branches of side / 2^(k+1) of clock wire (side / 2 a level),
// each branch ending in the two branches of level k+1; each branch of the last level ends in a
// leaf, which drives its share of the pins. A leaf's driver is a chain of inverters sized
// back from the pins (each the smallest that drives the next stage's input within the slew)
// until an X1 heads it. A branch's repeater is sized for its wire and what the branch ends in
// (the next level's two repeaters, or the leaf's head); a branch too long for the largest
// inverter is cut into segments with a repeater each. Levels are added to kClockLevels while
// a leaf's pins are too many for the largest inverter. Every buffer's input and output
// switch once a cycle.
struct ClockTree {
  int levels = 0;
  double pins_ff = 0, wire_ff = 0, buffers_ff = 0, wire_um = 0;
  Stat stat;  // the buffers
  double energy_pj(double v2) const { return (pins_ff + wire_ff + buffers_ff) * v2 * 1e-3; }
};

ClockTree clock_tree(const Lib& l, const Tech& t, double pins_ff, double area_um2) {
  ClockTree c;
  const double side = std::sqrt(area_um2);
  const double largest = kRepeaterSizes[std::size(kRepeaterSizes) - 1];
  c.levels = kClockLevels;
  while (c.levels < 30 && clock_buffer_size(l, pins_ff / std::ldexp(1.0, c.levels - 1), 0, 0) == 0)
    ++c.levels;
  const double leaves = std::ldexp(1.0, c.levels - 1);
  c.pins_ff = pins_ff;
  c.wire_um = c.levels * side / 2;
  c.wire_ff = c.wire_um * 1e-3 * t.clock_wire_ff_per_mm;
  auto add = [&](double count, double size) {
    c.stat.add(count, l.inv_leak_s(size), l.inv_area(size));
    c.buffers_ff += count * size * (l.cin + l.cout);
  };
  // The leaf's chain, from the pins back to its X1 head.
  double load = pins_ff / leaves, size = 0;
  do {
    size = clock_buffer_size(l, load, 0, 0);
    if (size == 0) size = largest;
    add(leaves, size);
    load = size * l.cin;
  } while (size > 1);
  // The branches, from the last level back to the root.
  for (int k = c.levels - 1; k >= 0; --k) {
    const double len_mm = side / std::ldexp(1.0, k + 1) * 1e-3;
    const double c_w = len_mm * t.clock_wire_ff_per_mm;
    const double r_w = len_mm * t.global_wire_ohm_per_mm * 1e-3;
    int segments = 1;
    while ((size = clock_buffer_size(l, load, c_w / segments, r_w / segments)) == 0 &&
           segments < 64)
      ++segments;
    if (size == 0) size = largest;
    add(std::ldexp(1.0, k) * segments, size);
    load = 2 * size * l.cin;
  }
  return c;
}

}  // namespace

ArbiterModel model_round_robin_arbiter(int n, const Tech& tech) {
  const Arbiter a = round_robin_arbiter(n, make_lib(tech));
  return {a.energy_fj * 1e-3, a.stat.out()};
}

ArbiterModel model_matrix_arbiter(int n, const Tech& tech) {
  const Arbiter a = matrix_arbiter(n, make_lib(tech));
  return {a.energy_fj * 1e-3, a.stat.out()};
}

RouterModel model_router(const RouterShape& s, const Tech& tech) {
  const Lib l = make_lib(tech);
  const double p = s.activity / 2;  // a data bit's probability of rising per flit
  const int B = s.flit_bits, P = s.in_ports, Q = s.out_ports;
  const int E = s.vcs * s.depth;  // buffer entries per input port
  const int abits = log2_ceil(E);
  const int sel_bits = log2_ceil(P);  // a crossbar output's select
  double dffs = 0;                    // flip-flops whose clock pin is on the clock tree
  RouterModel m;

  // --- Crossbar: what an input bit drives, so that the buffer's output register sees it.
  // Matrix: each input drives a line across all outputs' columns (out_ports x flit_bits wire
  // pitches) with out_ports crosspoints on it, through a driver sized for a fanout of 4.
  const double pitch_i = tech.inter_wire_pitch_um;
  const double in_line = Q * B * pitch_i * 1e-3 * tech.inter_wire_ff_per_mm + Q * l.cin;
  const double out_line = P * B * pitch_i * 1e-3 * tech.inter_wire_ff_per_mm + P * 2 * l.cout;
  const double drv = std::max(1.0, in_line / (4 * l.cin));  // line driver size (X1 units)
  const double xbar_in_load = s.crossbar == CrossbarKind::MuxTree ? Q * 0.5 * l.cin : drv * l.cin;

  // --- Input buffers (per input port), with the input register (the flit latched off the
  // link) and the output register (the flit read out, driving the crossbar's input).
  Stat buf;
  const double in_reg = B * l.dff_load(p, s.buffer == BufferKind::FlipFlop ? E * l.cmin : l.cin);
  const double out_reg = B * l.dff_load(p, xbar_in_load);
  buf.add(2.0 * B * P, l.dff_leak, l.dff_area());
  dffs += 2.0 * B * P;
  if (s.buffer == BufferKind::FlipFlop) {
    // A register file of E words: a write puts the word on a bus to every word's D pins (each
    // word's master latch follows it: their clocks are gated off), and clocks one word (its
    // clock gate, NAND2 + inverter, drives flit_bits clock pins). A read selects a word
    // through a tree of E-1 MUX2 per bit; its select (the read address register) changes.
    const double write = B * (E * l.dff_d(p) + l.dff_clock() + l.dff_q(p, 0.5 * l.cin)) +
                         l.nand2(1, l.cin) + l.inv(1, B * l.cmin) + 2 * l.and2(0.5, l.cin);
    const double read = B * (E - 1) * (l.mux2_sel(0.25) + l.mux2_data(p, 0.5 * l.cin)) +
                        abits * l.dff_load(0.25, 0);
    m.buffer_write = (in_reg + write) * 1e-3;
    m.buffer_read = (read + out_reg) * 1e-3;
    buf.add(1.0 * P * E * B, l.dff_leak, l.dff_area());
    buf.add(1.0 * P * B * (E - 1), l.mux2_leak, l.mux2_area());
    buf.add(1.0 * P * E, l.and2_leak, l.and2_area());  // write address decoder
    buf.add(1.0 * P * (E + 1), l.nand2_leak + l.inv_leak, l.nand2_area() + l.inv_area());
    buf.add(1.0 * P * abits, l.dff_leak, l.dff_area());
    dffs += 1.0 * P * abits;
  } else {
    // A 6T SRAM array of E rows x flit_bits columns (cells twice as wide as tall). A bitline
    // carries E access-transistor drains and its wire; a wordline 2 access gates a column and
    // its wire. A write drives one line of each pair to 0 and restores it; a read lets one
    // line of each pair fall by kSramReadSwing x Vdd, fires a sense amplifier per column
    // (two cross-coupled inverters and their outputs), and restores it.
    const double h = std::sqrt(tech.sram_cell_um2 / 2), w = 2 * h;
    const double c_bl =
        E * (tech.cd_ff_per_um * tech.min_width_um + tech.local_wire_ff_per_um * h) + 2 * l.cout;
    const double c_wl =
        B * (2 * tech.cg_ff_per_um * tech.min_width_um + tech.local_wire_ff_per_um * w) + l.cout;
    const double decode = 2 * l.and2(0.5, l.cin) + abits * l.dff_load(0.25, 0);
    const double write = c_wl * l.v2 + B * (c_bl * l.v2 + l.inv(p, 0)) + decode;
    const double sense = 2 * (l.cout + l.cin) * l.v2;
    const double read = c_wl * l.v2 + B * (c_bl * kSramReadSwing * l.v2 + sense) + decode;
    m.buffer_write = (in_reg + write) * 1e-3;
    m.buffer_read = (read + out_reg) * 1e-3;
    // Cells: per bit one pull-down, one pull-up and one access transistor off.
    const double cell_leak =
        off_leak(tech, tech.min_width_um, tech.ioff_n_na_per_um, tech.ioff_min_n_na) * 2 +
        off_leak(tech, tech.min_width_um, tech.ioff_p_na_per_um, tech.ioff_min_p_na);
    buf.add(1.0 * P * E * B, cell_leak, tech.sram_cell_um2);
    buf.add(1.0 * P * B, 2 * l.inv_leak + l.mux2_leak, 2 * l.inv_area() + l.mux2_area());
    buf.add(1.0 * P * E, l.and2_leak + l.inv_leak, l.and2_area() + l.inv_area());
    buf.add(1.0 * P * abits * 2, l.dff_leak, l.dff_area());
    dffs += 2.0 * P * abits;
  }
  m.buffers = buf.out();

  // --- Crossbar, with each output's register (the flit leaving, driving the link).
  Stat xb;
  const double grid = (P * B * pitch_i) * (Q * B * pitch_i);  // the wires' footprint, um^2
  const double out_reg2 = B * l.dff_load(p, l.cin);
  if (s.crossbar == CrossbarKind::MuxTree) {
    // A tree of in_ports-1 MUX2 per output and bit. A flit's bit toggles its path through the
    // selected tree (sel_bits levels) and the leaf it reaches in every other tree, climbing
    // there while that tree's select happens to pick it (1/2 per level); the selected tree's
    // select bits change (every MUX2's select pin, probability 1/2). The wires between the
    // trees are not charged (as DSENT's multiplexer crossbar): Matrix charges them.
    const double climb = 1 - std::pow(0.5, sel_bits);
    const double per_bit = sel_bits * l.mux2_data(p, 0.5 * l.cin) +
                           (Q - 1) * climb * l.mux2_data(p, 0.5 * l.cin) +
                           (P - 1) * l.mux2_sel(0.25);
    m.crossbar = (B * per_bit + sel_bits * l.dff_load(0.25, 0) + out_reg2) * 1e-3;
    const double mux_area = 1.0 * Q * B * (P - 1) * l.mux2_area();
    xb.leak_nw += 1.0 * Q * B * (P - 1) * l.mux2_leak;
    xb.area_um2 += std::max(mux_area, grid);
  } else {
    // A grid of in_ports x flit_bits input lines and out_ports x flit_bits output lines with a
    // tristate crosspoint at each crossing. A bit charges its input line (wire, crosspoint
    // inputs, driver), the output line (wire, every crosspoint's drain); a traversal turns on
    // its crosspoints' enable line (flit_bits enables along a row) with probability 1/2.
    const double enable = B * l.cin + B * pitch_i * 1e-3 * tech.inter_wire_ff_per_mm;
    const double per_bit = p * (in_line + drv * l.cout + out_line + l.cmin) * l.v2;
    m.crossbar =
        (B * per_bit + 0.5 * enable * l.v2 + sel_bits * l.dff_load(0.25, 0) + out_reg2) * 1e-3;
    const double cells = 1.0 * P * Q * B * l.tbuf_area() + 1.0 * P * B * drv * l.inv_area();
    xb.leak_nw += 1.0 * P * Q * B * l.tbuf_leak + 1.0 * P * B * drv * l.inv_leak;
    xb.area_um2 += std::max(cells, grid);
  }
  xb.add(1.0 * Q * (B + sel_bits), l.dff_leak, l.dff_area());
  dffs += 1.0 * Q * (B + sel_bits);
  m.crossbar_unit = xb.out();

  // --- Allocators. Switch allocator: per input a vcs:1 matrix arbiter (stage 1), per output
  // an in_ports:1 matrix arbiter (stage 2). Separable VC allocator: per input VC a vcs:1 matrix
  // arbiter among its output port's VCs, per output VC an (in_ports x vcs):1 round-robin
  // arbiter. Credits: per output VC a counter of the free slots downstream
  // (ceil(log2(depth+1)) bits: flip-flops and half adders).
  const Arbiter a1 = matrix_arbiter(s.vcs, l), a2 = matrix_arbiter(P, l);
  const Arbiter av = round_robin_arbiter(P * s.vcs, l);
  m.sa_stage1 = a1.energy_fj * 1e-3;
  m.sa_stage2 = a2.energy_fj * 1e-3;
  m.va = (a1.energy_fj + av.energy_fj) * 1e-3;
  Stat sa, va, cr;
  sa.add(P, a1.stat.leak_nw, a1.stat.area_um2);
  sa.add(Q, a2.stat.leak_nw, a2.stat.area_um2);
  va.add(1.0 * P * s.vcs, a1.stat.leak_nw, a1.stat.area_um2);
  va.add(1.0 * Q * s.vcs, av.stat.leak_nw, av.stat.area_um2);
  const int cbits = log2_ceil(s.depth + 1);
  m.credit =
      cbits * (l.dff_load(0.25, l.cin) + l.mux2_data(0.25, l.cin) + l.and2(0.25, l.cin)) * 1e-3;
  cr.add(1.0 * Q * s.vcs * cbits, l.dff_leak + l.mux2_leak + l.and2_leak,
         l.dff_area() + l.mux2_area() + l.and2_area());
  const double va_dffs =
      1.0 * P * s.vcs * a1.dffs + 1.0 * Q * s.vcs * av.dffs + 1.0 * Q * s.vcs * cbits;
  dffs += 1.0 * P * a1.dffs + 1.0 * Q * a2.dffs + va_dffs;
  m.sa_unit = sa.out();
  Stat vac = va;
  vac += cr;
  m.va_unit = vac.out();
  Stat alloc = sa;
  alloc += vac;
  m.allocators = alloc.out();

  // --- Clock (clock_tree above), loading every flip-flop's clock pin and the register file's
  // clock gates. A flip-flop's internal clock nodes switch only when it loads (charged to that
  // event). The VC allocator's and credit counters' share is what a tree without their
  // registers and area would save.
  const double gates = s.buffer == BufferKind::FlipFlop ? P * l.cin : 0;
  const double logic_area = buf.area_um2 + xb.area_um2 + alloc.area_um2;
  const ClockTree full = clock_tree(l, tech, dffs * l.cmin + gates, logic_area);
  const ClockTree no_va =
      clock_tree(l, tech, (dffs - va_dffs) * l.cmin + gates, logic_area - vac.area_um2);
  m.clock_pins_ff = full.pins_ff;
  m.clock_wire_ff = full.wire_ff;
  m.clock_buffers_ff = full.buffers_ff;
  m.clock_levels = full.levels;
  m.clock = full.energy_pj(l.v2);
  m.clock_va = full.energy_pj(l.v2) - no_va.energy_pj(l.v2);
  m.clock_unit = full.stat.out();
  m.clock_unit_va = {m.clock_unit.leakage_mw - no_va.stat.out().leakage_mw,
                     m.clock_unit.area_mm2 - no_va.stat.out().area_mm2};
  m.clock_wire_area_mm2 = full.wire_um * tech.clock_wire_pitch_um * 1e-6;
  return m;
}

LinkModel model_link(double length_mm, const RouterShape& s, const Tech& tech) {
  const Lib l = make_lib(tech);
  LinkModel k;
  if (length_mm <= 0) return k;
  // Each wire is cut into n segments, each driven by an inverter of size r (X1 units), n even
  // so that the bit arrives with its polarity. The cheapest (smallest n x r) design whose
  // Elmore delay fits one clock cycle is taken; if none does, the fastest.
  const double cw = tech.global_wire_ff_per_mm * length_mm;          // fF
  const double rw = tech.global_wire_ohm_per_mm * length_mm * 1e-3;  // kohm
  const double budget_ps = 1000.0 / s.frequency_ghz;
  auto delay = [&](int n, double r) {
    const double rd = l.r_inv / r, cs = cw / n, rs = rw / n;
    return n * (0.69 * rd * (r * l.cout + cs + r * l.cin) + rs * (0.38 * cs + 0.69 * r * l.cin));
  };
  int best_n = 0;
  double best_r = 0, best_cost = 0, fastest = 0;
  int fast_n = 2;
  double fast_r = 1;
  for (int n = 2; n <= 400; n += 2) {
    for (double r : kRepeaterSizes) {
      const double d = delay(n, r);
      if (fastest == 0 || d < fastest) fastest = d, fast_n = n, fast_r = r;
      if (d <= budget_ps && (best_n == 0 || n * r < best_cost))
        best_n = n, best_r = r, best_cost = n * r;
    }
  }
  if (best_n == 0) best_n = fast_n, best_r = fast_r;
  k.repeaters = best_n;
  k.repeater_size = best_r;
  const double toggle_fj = 0.5 * (cw + best_n * best_r * (l.cin + l.cout)) * l.v2;
  k.bit = toggle_fj / length_mm * 1e-3;
  k.flit = s.flit_bits * s.activity * toggle_fj * 1e-3;
  Stat st;
  st.add(1.0 * s.flit_bits * best_n * best_r, l.inv_leak, l.inv_area());
  k.stat = st.out();
  k.wire_area_mm2 = s.flit_bits * length_mm * 1e3 * tech.global_wire_pitch_um * 1e-6;
  return k;
}

}  // namespace sy
