// The energy, power and area models (power/power_model.hpp) against hand-computed values for a
// technology of round numbers, their scaling (width, ports, length, activity, off current), and
// the built-in technology files (configs/tech/*.yaml) against the parameter table (tech_keys()).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>
#include <string>

#include "switchyard/config/tech.hpp"
#include "switchyard/power/power_model.hpp"

namespace {

using sy::BufferKind;
using sy::CrossbarKind;
using sy::RouterShape;
using sy::Tech;

// Round numbers: an X1 cell's transistors are 1 um wide in all (0.5 N + 0.5 P: rn = rp), so
// cin = 1 fF, cout = 0.5 fF (no local wire), cmin = 2 x 0.25 um x 1 fF/um = 0.5 fF; Vdd = 1 V;
// a gate pitch column is 0.1 um^2; an off transistor leaks 100 nA/um at the operating
// temperature (no floor): 50 nW at X1 width, 25 nW at minimum width.
Tech simple_tech() {
  Tech t;
  t.name = "simple";
  t.node_nm = 45;
  t.vdd = 1.0;
  t.temperature_k = 300;
  t.gate_pitch_um = 0.1;
  t.min_width_um = 0.25;
  t.cg_ff_per_um = 1.0;
  t.cd_ff_per_um = 0.5;
  t.rn_kohm_um = 1.0;
  t.rp_kohm_um = 1.0;
  t.ioff_n_na_per_um = 100;
  t.ioff_p_na_per_um = 100;
  t.ioff_min_n_na = 0;
  t.ioff_min_p_na = 0;
  t.leak_char_temp_k = 300;
  t.leak_temp_swing_k = 100;
  t.cell_tracks = 10;
  t.m1_pitch_um = 0.1;
  t.cell_height_overhead = 1.0;
  t.local_wire_ff_per_um = 0;
  t.inter_wire_ff_per_mm = 100;
  t.inter_wire_pitch_um = 1.0;
  t.global_wire_ff_per_mm = 100;
  t.global_wire_ohm_per_mm = 100;
  t.global_wire_pitch_um = 0.5;
  t.clock_wire_ff_per_mm = 100;
  t.clock_wire_pitch_um = 1.0;
  t.sram_cell_um2 = 0.5;
  return t;
}

Tech builtin(const std::string& name) {
  for (const auto& b : sy::builtin_techs()) {
    if (name != b.name) continue;
    const YAML::Node doc = YAML::Load(b.text);
    Tech t;
    t.name = b.name;
    t.file = b.file;
    for (const auto& k : sy::tech_keys()) t.*k.field = doc[k.key].as<double>();
    return t;
  }
  ADD_FAILURE() << "no built-in technology " << name;
  return {};
}

// The cells of simple_tech() in fJ (power_model.cpp's Lib): a flip-flop loading a value that
// rises with probability p, its Q driving qload fF; AND2, inverter, MUX2 (data, select).
double dff_load(double p, double qload) {
  return 2.75 + p * 3.1 + p * (3 + qload);
}
double and2(double p, double load) {
  return p * (1.7 + load);
}
double inv(double p, double load) {
  return p * (0.5 + load);
}
double mux2_data(double p, double load) {
  return p * (2.325 + load);
}
double mux2_sel(double p) {
  return p * (0.8 + 0.55);
}

TEST(PowerModels, MatrixArbiterByHand) {
  // Two requesters: one priority flip-flop (Q to two AND2 pins), four AND2/OR2, two inverters;
  // per requester an inverter and the grant AND2 (no OR tree); all logic at probability 1/4.
  const double pin = 0.5;
  const double fj = dff_load(0.25, 2 * pin) + 4 * and2(0.25, pin) + 2 * inv(0.25, pin) +
                    2 * (inv(0.25, pin) + and2(0.25, pin));
  const auto a = sy::model_matrix_arbiter(2, simple_tech());
  EXPECT_NEAR(a.arbitrate, fj * 1e-3, 1e-12);
  // Leakage: flip-flop 5 x (25 + 25) nW, AND2 1.25 x 50 + 50, inverter 50.
  const double nw = 250 + 4 * 112.5 + 2 * 50 + 2 * (50 + 112.5);
  EXPECT_NEAR(a.stat.leakage_mw, nw * 1e-6, 1e-12);
  // Area: 15 + 4 x 4 + 2 x 2 + 2 x (2 + 4) gate pitches of 0.1 um^2.
  EXPECT_NEAR(a.stat.area_mm2, 47 * 0.1 * 1e-6, 1e-15);
  EXPECT_EQ(sy::model_matrix_arbiter(1, simple_tech()).arbitrate, 0);
}

TEST(PowerModels, FlipFlopBufferAndMuxCrossbarByHand) {
  RouterShape s;
  s.in_ports = s.out_ports = 2;
  s.vcs = 1;
  s.depth = 2;
  s.flit_bits = 1;
  s.activity = 0.5;  // a bit rises with probability 1/4
  s.buffer = BufferKind::FlipFlop;
  s.crossbar = CrossbarKind::MuxTree;
  const auto m = sy::model_router(s, simple_tech());
  // Write: the input register (Q on both entries' D pins, 2 x 0.5 fF); both entries' master
  // latches, the written entry's clock and Q (on a MUX2 data pin, 0.5 fF); its clock gate
  // (NAND2 on an inverter's input, the inverter on one clock pin); two word-select AND2.
  const double in_reg = dff_load(0.25, 1.0);
  const double write =
      2 * 0.25 * 3.1 + 2.75 + 0.25 * (3 + 0.5) + (1.0 + 1.0) + (0.5 + 0.5) + 2 * and2(0.5, 1.0);
  EXPECT_NEAR(m.buffer_write, (in_reg + write) * 1e-3, 1e-12);
  // Read: one MUX2 (select, data), the 1-bit read address register, the output register (Q on
  // two crossbar MUX2 data pins).
  const double read =
      mux2_sel(0.25) + mux2_data(0.25, 0.5) + dff_load(0.25, 0) + dff_load(0.25, 2 * 0.5);
  EXPECT_NEAR(m.buffer_read, read * 1e-3, 1e-12);
  // Crossbar: the selected tree's MUX2, half of the other tree's leaf MUX2 (its select picks
  // this input half the time), the selected MUX2's select; the select register; the output
  // register (Q on a link driver, 1 fF).
  const double xbar = mux2_data(0.25, 0.5) + 0.5 * mux2_data(0.25, 0.5) + mux2_sel(0.25) +
                      dff_load(0.25, 0) + dff_load(0.25, 1.0);
  EXPECT_NEAR(m.crossbar, xbar * 1e-3, 1e-12);
  // Switch allocator: stage 1 has one VC (no arbiter), stage 2 two inputs.
  EXPECT_EQ(m.sa_stage1, 0);
  EXPECT_NEAR(m.sa_stage2, sy::model_matrix_arbiter(2, simple_tech()).arbitrate, 1e-15);
}

TEST(PowerModels, LinkByHand) {
  RouterShape s;
  s.flit_bits = 128;
  s.activity = 0.5;
  const auto k = sy::model_link(1.0, s, simple_tech());
  // 100 fF and 100 ohm of wire against a 1 ns cycle: two X1 repeaters (2 kohm) are enough.
  EXPECT_EQ(k.repeaters, 2);
  EXPECT_EQ(k.repeater_size, 1);
  const double toggle_fj = 0.5 * (100 + 2 * (1.0 + 0.5));
  EXPECT_NEAR(k.bit, toggle_fj * 1e-3, 1e-12);
  EXPECT_NEAR(k.flit, 128 * 0.5 * toggle_fj * 1e-3, 1e-12);
  EXPECT_NEAR(k.stat.leakage_mw, 128 * 2 * 50 * 1e-6, 1e-12);
  EXPECT_NEAR(k.stat.area_mm2, 128 * 2 * 0.2 * 1e-6, 1e-15);
  EXPECT_NEAR(k.wire_area_mm2, 128 * 1000 * 0.5 * 1e-6, 1e-12);
}

TEST(PowerModels, ClockTreeByHand) {
  // The default router (5 x 5, 2 VCs of 4, 128 bits, flip-flop buffers). Clock pins, 0.5 fF
  // each: 1280 input and output register bits, 15 read-address bits, 655 crossbar output and
  // select bits, 55 switch-allocator, 10 + 100 VC-allocator and 30 credit-counter flip-flops
  // (2145), plus 5 register-file clock gates of 1 fF.
  const auto m = sy::model_router(RouterShape{}, simple_tech());
  EXPECT_NEAR(m.clock_pins_ff, 2145 * 0.5 + 5, 1e-9);
  // The H-tree over the logic (side 651.3 um): 5 levels of side / 2 of wire at 100 fF/mm.
  const double area_um2 =
      (m.buffers.area_mm2 + m.crossbar_unit.area_mm2 + m.allocators.area_mm2) * 1e6;
  const double side = std::sqrt(area_um2);
  EXPECT_NEAR(side, 651.3, 0.1);
  EXPECT_EQ(m.clock_levels, 5);
  EXPECT_NEAR(m.clock_wire_ff, 5 * side / 2 * 1e-3 * 100, 1e-9);
  // Buffers (r_inv = 2 kohm; a 20-80% transition is ln 4 x RC, within 40 ps). A leaf drives
  // 1077.5 / 16 = 67.3 fF: X6 (1.386 x 2/6 x (3 + 67.3) = 32.5 ps; X4 50 ps), headed by an X1
  // (6 fF: 18 ps). Levels 4, 3, 2 (20, 41, 81 um of wire into 1 or 2 fF): X1. Level 1 (163 um,
  // 16.3 fF, into 2 fF): X1.4 (38 ps; X1 52 ps). The root (326 um, 32.6 fF, into 2.8 fF): X3
  // (35 ps; X2 50 ps). Leakage: X6 = 6 fingers x 50 nW, X1.4 = 2 fingers of 0.7 (35 nW),
  // X3 = 150 nW. Area: ceil(s) + 1 pitches of 0.1 um^2.
  EXPECT_NEAR(m.clock_unit.leakage_mw, (16 * 300 + 44 * 50 + 2 * 70 + 150) * 1e-6, 1e-12);
  EXPECT_NEAR(m.clock_unit.area_mm2, (16 * 0.7 + 44 * 0.2 + 2 * 0.3 + 0.4) * 1e-6, 1e-12);
  // Each buffer switches its input and output (1.5 fF a size) once a cycle.
  EXPECT_NEAR(m.clock_buffers_ff, (16 * 6 + 44 + 2 * 1.4 + 3) * 1.5, 1e-9);
  EXPECT_NEAR(m.clock, (m.clock_pins_ff + m.clock_wire_ff + m.clock_buffers_ff) * 1e-3, 1e-12);
  // The VC allocator's registers do not change the buffers' sizes here.
  EXPECT_EQ(m.clock_unit_va.leakage_mw, 0);
  // 512-bit flits: 3957.5 fF of pins, 247 fF a leaf for 16 leaves, more than an X16 drives in
  // 40 ps (223 fF): a sixth level (32 leaves).
  RouterShape wide;
  wide.flit_bits = 512;
  EXPECT_EQ(sy::model_router(wide, simple_tech()).clock_levels, 6);
}

TEST(PowerModels, LinkEnergyGrowsWithLengthAndActivity) {
  RouterShape s;
  const Tech t = builtin("45nm");
  const auto k1 = sy::model_link(1.0, s, t), k2 = sy::model_link(2.0, s, t);
  const auto k4 = sy::model_link(4.0, s, t);
  EXPECT_GT(k2.flit, 1.8 * k1.flit);
  EXPECT_LT(k2.flit, 2.2 * k1.flit);
  EXPECT_GT(k4.flit, 3.6 * k1.flit);
  EXPECT_GE(k4.repeaters * k4.repeater_size, k1.repeaters * k1.repeater_size);
  RouterShape busy = s;
  busy.activity = 1.0;
  EXPECT_NEAR(sy::model_link(1.0, busy, t).flit, 2 * k1.flit, 1e-9);
  EXPECT_EQ(sy::model_link(0, s, t).flit, 0);
}

TEST(PowerModels, DataPathEnergyIsLinearInActivityAndClockIsNot) {
  const Tech t = builtin("45nm");
  RouterShape s;
  auto at = [&](double a) {
    RouterShape x = s;
    x.activity = a;
    return sy::model_router(x, t);
  };
  const auto m0 = at(0), m5 = at(0.5), m10 = at(1.0);
  for (auto f : {&sy::RouterModel::buffer_write, &sy::RouterModel::buffer_read,
                 &sy::RouterModel::crossbar}) {
    EXPECT_NEAR(m10.*f - m5.*f, m5.*f - m0.*f, 1e-9);
    EXPECT_GT(m10.*f, m5.*f);
  }
  // With nothing toggling a flit still clocks its registers; the clock tree ticks regardless.
  EXPECT_GT(m0.buffer_write, 0);
  EXPECT_EQ(m0.clock, m10.clock);
  EXPECT_GT(m0.clock, 0);
  EXPECT_EQ(m0.total().leakage_mw, m10.total().leakage_mw);
}

TEST(PowerModels, ScalingWithWidthPortsAndDepth) {
  const Tech t = builtin("45nm");
  RouterShape s;
  s.crossbar = CrossbarKind::Matrix;
  const auto m = sy::model_router(s, t);
  RouterShape wide = s;
  wide.flit_bits = 256;
  const auto mw = sy::model_router(wide, t);
  EXPECT_GT(mw.buffer_write, 1.9 * m.buffer_write);
  EXPECT_GT(mw.buffer_read, 1.9 * m.buffer_read);
  EXPECT_GT(mw.buffers.leakage_mw, 1.95 * m.buffers.leakage_mw);
  EXPECT_LT(mw.buffers.leakage_mw, 2.0 * m.buffers.leakage_mw + 1e-9);
  // The matrix crossbar's footprint is its wire grid, (ports x width)^2 pitches: twice the
  // width or twice the ports, about 4x the area (the output registers grow only 2x).
  EXPECT_GT(mw.crossbar_unit.area_mm2, 3.5 * m.crossbar_unit.area_mm2);
  EXPECT_LT(mw.crossbar_unit.area_mm2, 4.0 * m.crossbar_unit.area_mm2);
  RouterShape ports = s;
  ports.in_ports = ports.out_ports = 10;
  const auto mp = sy::model_router(ports, t);
  EXPECT_GT(mp.crossbar_unit.area_mm2, 3.5 * m.crossbar_unit.area_mm2);
  EXPECT_LT(mp.crossbar_unit.area_mm2, 4.0 * m.crossbar_unit.area_mm2);
  EXPECT_GT(mp.crossbar, 1.5 * m.crossbar);  // longer lines, more crosspoints on them
  EXPECT_GT(mp.sa_stage2, m.sa_stage2);
  // Deeper buffers: a write drives more D pins, a read climbs a deeper tree; more area.
  RouterShape deep = s;
  deep.depth = 8;
  const auto md = sy::model_router(deep, t);
  EXPECT_GT(md.buffer_write, m.buffer_write);
  EXPECT_GT(md.buffer_read, m.buffer_read);
  EXPECT_GT(md.buffers.area_mm2, 1.8 * m.buffers.area_mm2);
  // More VCs: wider stage-1 and VC-allocator arbiters.
  RouterShape vcs = s;
  vcs.vcs = 4;
  const auto mv = sy::model_router(vcs, t);
  EXPECT_GT(mv.sa_stage1, m.sa_stage1);
  EXPECT_GT(mv.va, m.va);
  EXPECT_GT(mv.allocators.area_mm2, m.allocators.area_mm2);
  EXPECT_NEAR(m.allocators.area_mm2, m.sa_unit.area_mm2 + m.va_unit.area_mm2, 1e-15);
}

TEST(PowerModels, LeakageIsProportionalToOffCurrent) {
  Tech t = builtin("22nm");
  RouterShape s;
  const auto m = sy::model_router(s, t);
  const auto k = sy::model_link(1.0, s, t);
  t.ioff_n_na_per_um *= 2;
  t.ioff_p_na_per_um *= 2;
  t.ioff_min_n_na *= 2;
  t.ioff_min_p_na *= 2;
  const auto m2 = sy::model_router(s, t);
  EXPECT_NEAR(m2.total().leakage_mw, 2 * m.total().leakage_mw, 1e-9);
  EXPECT_NEAR(sy::model_link(1.0, s, t).stat.leakage_mw, 2 * k.stat.leakage_mw, 1e-12);
  EXPECT_EQ(m2.buffer_write, m.buffer_write);  // dynamic energy unchanged
  // Leakage grows a decade per leak_temp_swing_k.
  t.temperature_k += t.leak_temp_swing_k;
  EXPECT_NEAR(sy::model_router(s, t).total().leakage_mw, 20 * m.total().leakage_mw, 1e-6);
}

TEST(PowerModels, SramBuffersAreSmallerThanFlipFlops) {
  const Tech t = builtin("32nm");
  RouterShape s;
  s.vcs = 4;
  s.depth = 8;
  RouterShape sram = s;
  sram.buffer = BufferKind::Sram;
  const auto ff = sy::model_router(s, t), sr = sy::model_router(sram, t);
  EXPECT_GT(sr.buffer_write, 0);
  EXPECT_GT(sr.buffer_read, 0);
  EXPECT_LT(sr.buffers.area_mm2, ff.buffers.area_mm2);
  EXPECT_LT(sr.buffer_write, ff.buffer_write);
  EXPECT_EQ(sr.crossbar, ff.crossbar);
}

TEST(PowerModels, NodesScaleDown) {
  RouterShape s;
  const auto m45 = sy::model_router(s, builtin("45nm"));
  const auto m32 = sy::model_router(s, builtin("32nm"));
  const auto m22 = sy::model_router(s, builtin("22nm"));
  EXPECT_GT(m45.buffer_write, m32.buffer_write);
  EXPECT_GT(m32.buffer_write, m22.buffer_write);
  EXPECT_GT(m45.total().area_mm2, m32.total().area_mm2);
  EXPECT_GT(m32.total().area_mm2, m22.total().area_mm2);
  EXPECT_GT(m45.clock, m22.clock);
}

TEST(PowerTech, KeysAreUniqueWithSaneRanges) {
  std::set<std::string> seen;
  for (const auto& k : sy::tech_keys()) {
    EXPECT_TRUE(seen.insert(k.key).second) << k.key;
    EXPECT_LT(k.lo, k.hi) << k.key;
    EXPECT_NE(std::string(k.unit), "") << k.key;
    EXPECT_NE(std::string(k.doc), "") << k.key;
  }
}

TEST(PowerTech, BuiltinFilesGiveEveryKeyInRangeAndNoOther) {
  std::set<std::string> names;
  for (const auto& b : sy::builtin_techs()) {
    names.insert(b.name);
    SCOPED_TRACE(b.file);
    const YAML::Node doc = YAML::Load(b.text);
    ASSERT_TRUE(doc.IsMap());
    std::set<std::string> keys;
    for (const auto& k : sy::tech_keys()) {
      keys.insert(k.key);
      ASSERT_TRUE(doc[k.key]) << "missing " << k.key;
      const double v = doc[k.key].as<double>();
      EXPECT_GE(v, k.lo) << k.key;
      EXPECT_LE(v, k.hi) << k.key;
    }
    for (const auto& kv : doc) EXPECT_TRUE(keys.count(kv.first.as<std::string>())) << kv.first;
  }
  for (const char* n : {"45nm", "32nm", "22nm"}) EXPECT_TRUE(names.count(n)) << n;
}

}  // namespace
