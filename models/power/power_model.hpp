// The energy, power and area models of a router's units and of a link, in the ORION 2.0 / DSENT
// style (written here; GUIDE §11): from the router's shape and a technology (config/tech.hpp),
// the dynamic energy of one event of each unit, and each unit's leakage power and area. The
// power plug-in (power/power_plugin.*) multiplies the events the cycle model counted by these.
#pragma once
#include <string>

#include "switchyard/config/tech.hpp"

namespace sy {

enum class BufferKind { FlipFlop, Sram };
enum class CrossbarKind { Matrix, MuxTree };

// What the models need of a router: its ports, VCs and buffers, and the implementation choices.
struct RouterShape {
  int in_ports = 5, out_ports = 5;  // including the injection / ejection ports
  int vcs = 2, depth = 4;           // per input port: vcs buffers of depth flits
  int flit_bits = 128;
  BufferKind buffer = BufferKind::FlipFlop;
  CrossbarKind crossbar = CrossbarKind::Matrix;
  double frequency_ghz = 1.0;
  double activity = 0.5;  // the probability that a data bit toggles from one flit to the next
};

// One unit class's static figures.
struct UnitStatic {
  double leakage_mw = 0;
  double area_mm2 = 0;
};

// A router's per-event dynamic energies (pJ) and its units' leakage and area.
struct RouterModel {
  double buffer_write = 0;  // one flit written into an input VC buffer
  double buffer_read = 0;   // one flit read out of it
  double crossbar = 0;      // one flit across the crossbar to one output
  double sa_stage1 = 0;     // one input's arbitration among its VCs (switch allocation, stage 1)
  double sa_stage2 = 0;     // one output's arbitration among the inputs (stage 2)
  double va = 0;            // one output-VC allocation (a header taking a VC)
  double credit = 0;        // one credit returned upstream (its counter update)
  double clock = 0;         // one cycle of the clock tree and every clocked register's pin
  UnitStatic buffers, crossbar_unit, allocators, clock_unit;
  // The allocators split: the switch allocator (in_ports V:1 and out_ports in_ports:1
  // arbiters) and the separable VC allocator (allocators = sa_unit + va_unit).
  UnitStatic sa_unit, va_unit;
  // What clock adds up: the clocked registers' clock-pin capacitance, the H-tree's wire and
  // its buffers (fF, switched once a cycle), and the tree's wire tracks (mm^2, not in area).
  double clock_pins_ff = 0, clock_wire_ff = 0, clock_buffers_ff = 0, clock_wire_area_mm2 = 0;
  // The part of clock (pJ a cycle) that the VC allocator's and the credit counters' registers
  // add (their clock pins and the buffers driving them): what a router without them (DSENT's)
  // would not spend.
  double clock_va = 0;
  // Likewise the clock buffers' leakage and area that their share of the tree adds, and the
  // H-tree's levels.
  UnitStatic clock_unit_va;
  int clock_levels = 0;
  UnitStatic total() const {
    return {buffers.leakage_mw + crossbar_unit.leakage_mw + allocators.leakage_mw +
                clock_unit.leakage_mw,
            buffers.area_mm2 + crossbar_unit.area_mm2 + allocators.area_mm2 + clock_unit.area_mm2};
  }
};

// A link: a bundle of flit_bits repeated wires length_mm long.
struct LinkModel {
  double flit = 0;           // pJ per flit crossing (all its bits, at the shape's activity)
  double bit = 0;            // pJ per bit that toggles, per mm
  UnitStatic stat;           // the repeaters' leakage and area (the wires are in wire_area_mm2)
  double wire_area_mm2 = 0;  // the bundle's wire tracks (global layer), over the logic
  int repeaters = 0;         // repeaters per wire (an even count: the bit keeps its polarity)
  double repeater_size = 0;  // their size, in X1 inverters
};

// One arbiter of n requesters (the allocators' building blocks: matrix for the switch
// allocator and the VC allocator's first stage, round-robin for its (in_ports x vcs):1 second
// stage): pJ per arbitration, and its leakage and area.
struct ArbiterModel {
  double arbitrate = 0;
  UnitStatic stat;
};
ArbiterModel model_matrix_arbiter(int n, const Tech& tech);
ArbiterModel model_round_robin_arbiter(int n, const Tech& tech);

RouterModel model_router(const RouterShape& shape, const Tech& tech);
LinkModel model_link(double length_mm, const RouterShape& shape, const Tech& tech);

}  // namespace sy
