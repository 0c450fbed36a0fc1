// Prints the energy, power and area models' figures (power/power_model.hpp) for one router shape
// and technology, one `key value unit` line each, for tb/peers/dsent_compare.sh and by hand:
//   power_table TECH [--in N] [--out N] [--vcs N] [--depth N] [--bits N] [--ghz F]
//               [--activity F] [--buffer ff|sram] [--crossbar matrix|mux] [--link MM]
// TECH: a built-in technology's name (45nm, 32nm, 22nm) or a technology file's path. The flat
// `key: number` file is read here with yaml-cpp, every key of tech_keys() required (the
// config parser's checks with file, line and key are the program's, not this tool's).
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <systemc>  // (sc_main's declaration)

#include "switchyard/config/tech.hpp"
#include "switchyard/power/power_model.hpp"

namespace {

int fail(const std::string& msg) {
  std::fprintf(stderr, "power_table: %s\n", msg.c_str());
  return 2;
}

bool load_tech(const std::string& name, sy::Tech& tech, std::string& err) {
  YAML::Node doc;
  tech.name = name;
  try {
    bool builtin = false;
    for (const auto& b : sy::builtin_techs())
      if (name == b.name) doc = YAML::Load(b.text), tech.file = b.file, builtin = true;
    if (!builtin) doc = YAML::LoadFile(name), tech.file = name;
  } catch (const YAML::Exception& e) {
    err = name + ": " + e.what();
    return false;
  }
  for (const auto& k : sy::tech_keys()) {
    if (!doc[k.key]) {
      err = tech.file + ": missing " + k.key;
      return false;
    }
    tech.*k.field = doc[k.key].as<double>();
  }
  return true;
}

}  // namespace

// (sc_main: the models' library links SystemC, which brings main and calls it.)
int sc_main(int argc, char** argv) {
  if (argc < 2) return fail("usage: power_table TECH [--in N] [--out N] [--vcs N] [--depth N] ...");
  sy::Tech tech;
  std::string err;
  if (!load_tech(argv[1], tech, err)) return fail(err);
  sy::RouterShape s;
  double link_mm = 1.0;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--in")
      s.in_ports = std::atoi(v.c_str());
    else if (k == "--out")
      s.out_ports = std::atoi(v.c_str());
    else if (k == "--vcs")
      s.vcs = std::atoi(v.c_str());
    else if (k == "--depth")
      s.depth = std::atoi(v.c_str());
    else if (k == "--bits")
      s.flit_bits = std::atoi(v.c_str());
    else if (k == "--ghz")
      s.frequency_ghz = std::atof(v.c_str());
    else if (k == "--activity")
      s.activity = std::atof(v.c_str());
    else if (k == "--link")
      link_mm = std::atof(v.c_str());
    else if (k == "--buffer")
      s.buffer = v == "sram" ? sy::BufferKind::Sram : sy::BufferKind::FlipFlop;
    else if (k == "--crossbar")
      s.crossbar = v == "mux" ? sy::CrossbarKind::MuxTree : sy::CrossbarKind::Matrix;
    else
      return fail("unknown option " + k);
  }
  const sy::RouterModel m = sy::model_router(s, tech);
  const sy::LinkModel k = sy::model_link(link_mm, s, tech);
  auto line = [](const char* key, double v, const char* unit) {
    std::printf("%-26s %.6g %s\n", key, v, unit);
  };
  std::printf("# %s (%s): %d in, %d out, %d VCs x %d flits, %d bits, %g GHz, activity %g\n",
              tech.name.c_str(), tech.file.c_str(), s.in_ports, s.out_ports, s.vcs, s.depth,
              s.flit_bits, s.frequency_ghz, s.activity);
  line("buffer_write", m.buffer_write, "pJ");
  line("buffer_read", m.buffer_read, "pJ");
  line("crossbar", m.crossbar, "pJ");
  line("sa_stage1", m.sa_stage1, "pJ");
  line("sa_stage2", m.sa_stage2, "pJ");
  line("va", m.va, "pJ");
  line("credit", m.credit, "pJ");
  line("clock", m.clock, "pJ");
  line("clock_va", m.clock_va, "pJ");
  line("clock_pins", m.clock_pins_ff, "fF");
  line("clock_wire", m.clock_wire_ff, "fF");
  line("clock_buffers", m.clock_buffers_ff, "fF");
  line("clock_levels", m.clock_levels, "");
  const std::pair<const char*, sy::UnitStatic> units[] = {{"buffers", m.buffers},
                                                          {"crossbar_unit", m.crossbar_unit},
                                                          {"allocators", m.allocators},
                                                          {"sa_unit", m.sa_unit},
                                                          {"va_unit", m.va_unit},
                                                          {"clock_unit", m.clock_unit},
                                                          {"clock_unit_va", m.clock_unit_va},
                                                          {"total", m.total()}};
  for (const auto& [name, u] : units) {
    line((std::string(name) + ".leakage").c_str(), u.leakage_mw, "mW");
    line((std::string(name) + ".area").c_str(), u.area_mm2, "mm2");
  }
  line("clock_wire.area", m.clock_wire_area_mm2, "mm2");
  std::printf("# link: %g mm, %d repeaters of X%g per wire\n", link_mm, k.repeaters,
              k.repeater_size);
  line("link.flit", k.flit, "pJ");
  line("link.bit", k.bit, "pJ/mm");
  line("link.leakage", k.stat.leakage_mw, "mW");
  line("link.area", k.stat.area_mm2, "mm2");
  line("link.wire_area", k.wire_area_mm2, "mm2");
  return 0;
}
