// The technology files' parameters (config/tech.hpp): key, member, valid range, unit, meaning.
// The ranges reject typing errors (a width in metres, a voltage in millivolts), not unusual
// processes.
#include "switchyard/config/tech.hpp"

namespace sy {

const std::vector<TechKey>& tech_keys() {
  static const std::vector<TechKey> keys = {
      {"node_nm", &Tech::node_nm, 1, 1000, "nm", "feature size"},
      {"vdd", &Tech::vdd, 0.1, 5, "V", "supply voltage"},
      {"temperature_k", &Tech::temperature_k, 200, 500, "K", "operating temperature (leakage)"},
      {"gate_pitch_um", &Tech::gate_pitch_um, 0.01, 10, "um", "contacted gate pitch"},
      {"min_width_um", &Tech::min_width_um, 0.005, 10, "um", "minimum transistor width"},
      {"cg_ff_per_um", &Tech::cg_ff_per_um, 0.01, 10, "fF/um", "gate capacitance per width"},
      {"cd_ff_per_um", &Tech::cd_ff_per_um, 0.01, 10, "fF/um",
       "drain (diffusion) capacitance per width"},
      {"rn_kohm_um", &Tech::rn_kohm_um, 0.01, 100, "kohm*um",
       "NMOS effective on-resistance times width"},
      {"rp_kohm_um", &Tech::rp_kohm_um, 0.01, 100, "kohm*um",
       "PMOS effective on-resistance times width"},
      {"ioff_n_na_per_um", &Tech::ioff_n_na_per_um, 1e-6, 1e5, "nA/um",
       "NMOS off current per width at leak_char_temp_k"},
      {"ioff_p_na_per_um", &Tech::ioff_p_na_per_um, 1e-6, 1e5, "nA/um",
       "PMOS off current per width at leak_char_temp_k"},
      {"ioff_min_n_na", &Tech::ioff_min_n_na, 0, 1e5, "nA", "NMOS off current floor"},
      {"ioff_min_p_na", &Tech::ioff_min_p_na, 0, 1e5, "nA", "PMOS off current floor"},
      {"leak_char_temp_k", &Tech::leak_char_temp_k, 200, 500, "K",
       "temperature the off currents are given at"},
      {"leak_temp_swing_k", &Tech::leak_temp_swing_k, 1, 1000, "K/decade",
       "temperature rise per decade of off current"},
      {"cell_tracks", &Tech::cell_tracks, 4, 30, "tracks", "standard cell height in M1 tracks"},
      {"m1_pitch_um", &Tech::m1_pitch_um, 0.005, 10, "um", "metal-1 track pitch"},
      {"cell_height_overhead", &Tech::cell_height_overhead, 1, 4, "ratio",
       "cell height over transistor height (rails, wells)"},
      {"local_wire_ff_per_um", &Tech::local_wire_ff_per_um, 0, 10, "fF/um",
       "metal-1 wiring capacitance inside a cell"},
      {"inter_wire_ff_per_mm", &Tech::inter_wire_ff_per_mm, 1, 10000, "fF/mm",
       "intermediate-layer wire capacitance (crossbar)"},
      {"inter_wire_pitch_um", &Tech::inter_wire_pitch_um, 0.005, 100, "um",
       "intermediate-layer wire pitch"},
      {"global_wire_ff_per_mm", &Tech::global_wire_ff_per_mm, 1, 10000, "fF/mm",
       "global-layer wire capacitance (links)"},
      {"global_wire_ohm_per_mm", &Tech::global_wire_ohm_per_mm, 0.1, 1e7, "ohm/mm",
       "global-layer wire resistance"},
      {"global_wire_pitch_um", &Tech::global_wire_pitch_um, 0.005, 100, "um",
       "global-layer wire pitch"},
      {"clock_wire_ff_per_mm", &Tech::clock_wire_ff_per_mm, 1, 10000, "fF/mm",
       "clock-tree wire capacitance (global layer, wide spacing)"},
      {"clock_wire_pitch_um", &Tech::clock_wire_pitch_um, 0.005, 100, "um",
       "clock-tree wire pitch"},
      {"sram_cell_um2", &Tech::sram_cell_um2, 1e-4, 100, "um^2", "6T SRAM bit cell area"},
  };
  return keys;
}

}  // namespace sy
