// network_interface: {flit_bytes, injection: serial | all_port, injection_channels,
//                     discipline: greedy | rounds, clock_ns}
#include <algorithm>
#include <cmath>

#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

void parse_interface(Section& s, Config& c) {
  InterfaceConfig& ni = c.interface;
  ni.flit_bytes = static_cast<int>(s.integer("flit_bytes", 16, 1, 1 << 20));
  const bool circuit = c.router.buffering == Buffering::Circuit;
  ni.injection =
      s.choice<Injection>("injection", circuit ? Injection::AllPort : Injection::Serial,
                          {{"serial", Injection::Serial}, {"all_port", Injection::AllPort}},
                          "serial (circuit routers: all_port)");
  if (circuit && ni.injection != Injection::AllPort)
    fail(c.source, s.at("injection"), s.path("injection"),
         "circuit NIs are all-port (one circuit per outgoing link): use all_port or leave it out");
  if (c.router.buffering == Buffering::InputVc && ni.injection == Injection::AllPort)
    fail(c.source, s.at("injection"), s.path("injection"),
         "input-VC routers take packets through injection channels: use injection: serial "
         "with injection_channels: k");
  // Input ports of a router are bit positions in the allocator's 64-bit request vectors.
  const int ports = c.topology.make().num_ports();
  const int max_channels = std::max(1, std::min(16, 64 - ports));
  ni.injection_channels = static_cast<int>(
      s.integer("injection_channels", 1, 1, {max_channels, "min(16, 64 - router ports)"}));
  if (ni.injection == Injection::AllPort && s.has("injection_channels") &&
      ni.injection_channels != 1)
    fail(c.source, s.at("injection_channels"), s.path("injection_channels"),
         "all_port injection has no channels to count (every packet enters at once)");
  ni.discipline = s.choice<Discipline>(
      "discipline", Discipline::Greedy,
      {{"greedy", Discipline::Greedy}, {"rounds", Discipline::Rounds}}, "greedy");
  const double ns = s.real("clock_ns", 1.0, 0.001, 1e6);
  const double ps = std::round(ns * 1000.0);
  if (std::fabs(ps - ns * 1000.0) > 1e-6 * std::max(1.0, ps))
    fail(c.source, s.at("clock_ns"), s.path("clock_ns"),
         "must be a whole number of picoseconds (SystemC's time resolution)");
  ni.clock_ps = static_cast<std::uint64_t>(ps);
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
