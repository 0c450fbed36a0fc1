// waves: {enable, file, routers, from_cycle, to_cycle, packet, power, power_window, rtl_nodes} (VCD
// and GTKWave save file)
#include <algorithm>
#include <filesystem>

#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

void parse_waves(Section& s, Config& c) {
  const int N = c.topology.make().num_routers();
  WavesConfig& w = c.waves;
  w.enable = s.boolean("enable", false);
  w.file = s.text("file", w.file);
  if (w.file.empty()) fail(c.source, s.at("file"), s.path("file"), "needs a file name");
  // The VCD goes inside the run's output folder (--out): a relative path that stays there, so a
  // config cannot write anywhere else.
  const std::filesystem::path f(w.file);
  if (f.is_absolute())
    fail(c.source, s.at("file"), s.path("file"),
         "is a path inside the run's output folder (--out), not an absolute path");
  for (const auto& part : f)
    if (part == "..")
      fail(c.source, s.at("file"), s.path("file"),
           "is a path inside the run's output folder (--out): no '..'");
  for (char ch : w.file)
    if (static_cast<unsigned char>(ch) < 0x20)
      fail(c.source, s.at("file"), s.path("file"), "contains a control character");
  {
    YAML::Node rn = s.raw("routers", {"all | list of integers", "all"});
    if (rn && !(rn.IsScalar() && rn.Scalar() == "all"))
      w.routers = s.int_list("routers", {}, 0, {N - 1, "routers - 1"});
  }
  w.from_cycle = static_cast<std::uint64_t>(s.integer("from_cycle", 0, 0, kMaxCycles));
  w.to_cycle = static_cast<std::uint64_t>(s.integer("to_cycle", kMaxCycles, 0, kMaxCycles));
  if (w.to_cycle < w.from_cycle)
    fail(c.source, s.at("to_cycle"), s.path("to_cycle"), "is before from_cycle");
  // A packet id as the VCD's pkt signals show it (1, 2, ... in creation order); 0: none.
  w.packet = static_cast<std::uint64_t>(s.integer("packet", 0, 0, kMaxCycles));
  w.power = s.boolean("power", false);
  w.power_window = static_cast<int>(s.integer("power_window", 100, 1, 1 << 30));
  // waves.rtl_nodes: Verilator waves of the insides of these RTL routers (router.rtl_nodes).
  if (s.raw("rtl_nodes", {"list of integers", "[]", "RTL routers (router.rtl_nodes)"})) {
    w.rtl_nodes = s.int_list("rtl_nodes", {}, 0, {N - 1, "routers - 1"});
    if (!c.router.rtl)
      fail(c.source, s.at("rtl_nodes"), s.path("rtl_nodes"),
           "names RTL routers: needs router.model: rtl");
    for (std::size_t i = 0; i < w.rtl_nodes.size(); ++i)
      if (!c.router.rtl_at(w.rtl_nodes[i]))
        fail(c.source, s.at("rtl_nodes").IsSequence() ? s.at("rtl_nodes")[i] : s.at("rtl_nodes"),
             s.path("rtl_nodes") + "[" + std::to_string(i) + "]",
             "router " + std::to_string(w.rtl_nodes[i]) +
                 " is not an RTL router (router.rtl_nodes)");
    std::sort(w.rtl_nodes.begin(), w.rtl_nodes.end());
    w.rtl_nodes.erase(std::unique(w.rtl_nodes.begin(), w.rtl_nodes.end()), w.rtl_nodes.end());
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
