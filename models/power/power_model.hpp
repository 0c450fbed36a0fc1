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
  UnitStatic total() const {
    return {buffers.leakage_mw + crossbar_unit.leakage_mw + allocators.leakage_mw +
                clock_unit.leakage_mw,
            buffers.area_mm2 + crossbar_unit.area_mm2 + allocators.area_mm2 + clock_unit.area_mm2};
  }
};

// A link: a bundle of flit_bits repeated wires length_mm long.
struct LinkModel {
  double flit = 0;  // pJ per flit crossing (all its bits, at the shape's activity)
  double bit = 0;   // pJ per bit that toggles, per mm
  UnitStatic stat;
};

RouterModel model_router(const RouterShape& shape, const Tech& tech);
LinkModel model_link(double length_mm, const RouterShape& shape, const Tech& tech);

}  // namespace sy
