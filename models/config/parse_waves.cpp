// waves: {enable, file, routers, from_cycle, to_cycle} (VCD and GTKWave save file)
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
  if (w.enable) {
    // The VCD's directory must exist, or at least its parent (then the run creates that one
    // directory, like the default waves/): a typo does not grow a tree of directories.
    const std::filesystem::path dir = std::filesystem::path(w.file).parent_path();
    const std::filesystem::path up = dir.parent_path();
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec) &&
        !(up.empty() || std::filesystem::is_directory(up, ec)))
      fail(c.source, s.at("file"), s.path("file"),
           "directory '" + up.string() +
               "' does not exist (the run creates at most the file's "
               "own directory)");
  }
  {
    YAML::Node rn = s.raw("routers");
    if (rn && !(rn.IsScalar() && rn.Scalar() == "all"))
      w.routers = s.int_list("routers", {}, 0, N - 1);
  }
  w.from_cycle = static_cast<std::uint64_t>(s.integer("from_cycle", 0, 0, kMaxCycles));
  w.to_cycle = static_cast<std::uint64_t>(s.integer("to_cycle", kMaxCycles, 0, kMaxCycles));
  if (w.to_cycle < w.from_cycle)
    fail(c.source, s.at("to_cycle"), s.path("to_cycle"), "is before from_cycle");
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
