// power: {enable, tech, frequency_ghz, flit_width_bits, link_length_mm, buffer, crossbar,
// activity, clock_gating}, and the technology file it names (config/tech.hpp): every parameter
// of tech_keys() given, a number in its range, no other key.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

namespace {

// The technology named by power.tech: a built-in name, or a YAML file (a path ending in .yaml,
// relative to the config's folder). Its text and the name errors give its file by.
void read_tech(const std::string& value, const std::string& config_source, Section& s, Tech& tech) {
  std::string text, file;
  const bool is_file = value.size() > 5 && value.compare(value.size() - 5, 5, ".yaml") == 0;
  if (!is_file) {
    std::string names;
    for (const BuiltinTech& b : builtin_techs()) {
      names += std::string(names.empty() ? "" : ", ") + b.name;
      if (value == b.name) {
        text = b.text;
        file = b.file;
      }
    }
    if (file.empty())
      fail(config_source, s.at("tech"), s.path("tech"),
           "unknown technology '" + value + "' (built in: " + names +
               "; or a technology file: a path ending in .yaml)");
    tech.name = value;
  } else {
    std::string path = value;
    const auto slash = config_source.rfind('/');
    if (path[0] != '/' && slash != std::string::npos)
      path = config_source.substr(0, slash) + "/" + path;
    const std::string why = unreadable_file(path);
    if (!why.empty())
      fail(config_source, s.at("tech"), s.path("tech"),
           "cannot read technology file '" + path + "': it " + why);
    if (std::filesystem::file_size(path) > (std::uintmax_t{1} << 20))
      fail(config_source, s.at("tech"), s.path("tech"),
           "'" + path + "' is longer than 1 MiB: not a technology file");
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    file = path;
    tech.name = std::filesystem::path(path).stem().string();
  }
  tech.file = file;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(file + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": YAML: " + e.msg);
  }
  if (!root || root.IsNull() || !root.IsMap())
    throw ConfigError(file + ": a technology file is a mapping of parameters (key: number)");
  // (The file's own keys, read with the config's readers: errors name the file, line and key.)
  Section t(root, "", file);
  for (const TechKey& k : tech_keys()) {
    if (!t.has(k.key))
      throw ConfigError(file + ": " + k.key + ": missing (" + k.doc + ", " + k.unit + ")");
    tech.*k.field = t.real(k.key, 0, k.lo, k.hi);
  }
  t.finish();
}

}  // namespace

void parse_power(Section& s, Config& c) {
  PowerConfig& p = c.power;
  p.enable = s.boolean("enable", s.present());
  const std::string tech = s.text("tech", "45nm");
  p.frequency_ghz = s.real("frequency_ghz", 1.0, 0.001, 100);
  p.flit_width_bits = static_cast<int>(s.integer("flit_width_bits", 128, 1, 4096));
  p.link_length_mm = s.real("link_length_mm", 1.0, 0, 1000);
  {
    const Topology topo = c.topology.make();
    p.class_length_mm.assign(static_cast<std::size_t>(topo.num_link_classes()), -1.0);
    std::string names;
    for (int k = 0; k < topo.num_link_classes(); ++k)
      names += (names.empty() ? "" : ", ") + topo.link_class_name(k);
    Section ls = s.sub("link_lengths_mm");
    if (ls.present() && s.at("link_lengths_mm").IsMap())
      for (auto it = s.at("link_lengths_mm").begin(); it != s.at("link_lengths_mm").end(); ++it) {
        const std::string k = it->first.as<std::string>();
        int cls = -1;
        for (int x = 0; x < topo.num_link_classes(); ++x)
          if (topo.link_class_name(x) == k) cls = x;
        if (cls < 0)
          fail(c.source, it->first, ls.path(k.c_str()),
               "no such link class in this topology (its classes: " + names + ")");
        p.class_length_mm[static_cast<std::size_t>(cls)] = ls.real(k.c_str(), 1.0, 0, 1000);
      }
    ls.finish();
  }
  p.sram_buffers = s.choice<bool>("buffer", false, {{"flip_flop", false}, {"sram", true}});
  p.mux_crossbar = s.choice<bool>("crossbar", false, {{"matrix", false}, {"mux_tree", true}});
  p.activity = s.real("activity", 0.5, 0, 1);
  p.clock_gating = s.boolean("clock_gating", false);
  if (p.enable) read_tech(tech, c.source, s, p.tech);
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
