// Technology parameters for the energy, power and area models (power.tech): plain data read from
// a technology file (configs/tech/<name>.yaml, built into the program, or a user's own file),
// each parameter with its published source in a comment there. tech_keys() lists every
// parameter a file must give, with its unit and range: the config parser reads a file with it,
// and a missing, unknown, mistyped or out-of-range parameter is a config error naming the file,
// line and key.
#pragma once
#include <string>
#include <vector>

namespace sy {

struct Tech {
  std::string name;  // "45nm", or the file's stem for a user's file
  std::string file;  // where it was read ("configs/tech/45nm.yaml" for a built-in one)
  // (The parameters: see tech_keys() and configs/tech/*.yaml.)
  double node_nm = 0;        // feature size
  double vdd = 0;            // supply voltage, V
  double temperature_k = 0;  // operating (junction) temperature, for leakage
  // Transistors and standard cells.
  double gate_pitch_um = 0;         // contacted gate pitch: one column of a standard cell
  double min_width_um = 0;          // minimum transistor width
  double cg_ff_per_um = 0;          // gate capacitance per width
  double cd_ff_per_um = 0;          // source/drain (diffusion) capacitance per width
  double rn_kohm_um = 0;            // NMOS effective on-resistance x width
  double rp_kohm_um = 0;            // PMOS effective on-resistance x width
  double ioff_n_na_per_um = 0;      // NMOS off current per width at leak_char_temp_k, V_DS = Vdd
  double ioff_p_na_per_um = 0;      // PMOS off current per width
  double ioff_min_n_na = 0;         // NMOS off current floor (narrow devices)
  double ioff_min_p_na = 0;         // PMOS off current floor
  double leak_char_temp_k = 0;      // temperature the off currents are given at
  double leak_temp_swing_k = 0;     // kelvin per decade of off current
  double cell_tracks = 0;           // standard cell height in metal-1 tracks
  double m1_pitch_um = 0;           // metal-1 track pitch
  double cell_height_overhead = 0;  // cell height / transistor (active) height
  double local_wire_ff_per_um = 0;  // metal-1 wiring inside a cell, per um (one cell height a node)
  // Wires: intermediate (crossbar), global (links), global at 3x spacing (clock tree).
  double inter_wire_ff_per_mm = 0;
  double inter_wire_pitch_um = 0;
  double global_wire_ff_per_mm = 0;
  double global_wire_ohm_per_mm = 0;
  double global_wire_pitch_um = 0;
  double clock_wire_ff_per_mm = 0;
  double clock_wire_pitch_um = 0;
  // SRAM buffers.
  double sram_cell_um2 = 0;  // area of one 6T SRAM bit cell
};

// One parameter of a technology file: its key, the member it sets, its valid range (inclusive),
// its unit and a one-line meaning (for `switchyard keys` and error messages).
struct TechKey {
  const char* key;
  double Tech::*field;
  double lo, hi;
  const char* unit;
  const char* doc;
};
const std::vector<TechKey>& tech_keys();

// The technology files built into the program: {name, file name, YAML text}.
struct BuiltinTech {
  const char* name;
  const char* file;
  const char* text;
};
const std::vector<BuiltinTech>& builtin_techs();

}  // namespace sy
