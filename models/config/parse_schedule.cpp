// schedule: {algorithm, message_flits, packet_flits, root, variant, barrier}: a static
// algorithm the nodes execute (circuit-switched broadcast schedules).
#include <algorithm>

#include "config/section.hpp"
#include "schemes/circuit/circuit_schedule.hpp"

namespace sy {
namespace config_detail {

void parse_schedule(Section& s, Config& c) {
  const int N = c.topology.make().num_nodes();
  const TrafficConfig& t = c.traffic;
  ScheduleConfig& sch = c.schedule;
  if (s.has("algorithm")) {
    const std::string alg = s.text("algorithm", "");
    static const char* const kAlgs[] = {"tiling", "divide_and_conquer", "h_trees",
                                        "store_and_forward_trees"};
    bool known = false;
    for (const char* a : kAlgs) known |= alg == a;
    if (!known)
      fail(c.source, s.raw("algorithm"), s.path("algorithm"),
           "unknown value '" + alg +
               "' (expected one of: tiling, divide_and_conquer, h_trees, store_and_forward_trees)");
    sch.algorithm = alg;
    sch.message_flits = static_cast<int>(s.integer("message_flits", 1, 1, 1 << 24));
    sch.packet_flits = static_cast<int>(s.integer("packet_flits", 0, 0, 1 << 24));
    sch.root = static_cast<int>(s.integer("root", 0, 0, N - 1));
    sch.variant = s.choice<std::string>("variant", "slanting",
                                        {{"slanting", "slanting"},
                                         {"boss_blocks", "boss_blocks"},
                                         {"blocks_first", "blocks_first"}});
    sch.barrier = s.boolean("barrier", false);
    if (c.topology.kind != Topology::Kind::Torus || c.topology.dims.size() != 2)
      fail(c.source, s.raw("algorithm"), s.path("algorithm"),
           "the circuit-switched broadcast schedules are for 2-D tori");
    if (!t.none)
      fail(c.source, s.raw("algorithm"), s.path("algorithm"),
           "a schedule drives the network itself: set traffic: {type: none}");
    if (c.router.buffering != Buffering::Circuit)
      fail(c.source, s.raw("algorithm"), s.path("algorithm"),
           "the schedules send along source routes of circuits: set router.switching: "
           "direct_connect (or buffering: circuit)");
    // The construction must exist for this size (the generators say which sizes they have).
    try {
      Schedule probe;
      const int L = sch.message_flits;
      const int B = sch.packet_flits > 0 ? std::min(sch.packet_flits, L) : L;
      const int parts = (L + B - 1) / B;
      if (alg == "tiling")
        probe = tiling(c.topology.dims, sch.root, L);
      else if (alg == "divide_and_conquer")
        probe = divide_and_conquer(c.topology.dims, sch.root, parts, L);
      else if (alg == "h_trees")
        probe = h_trees(c.topology.dims, sch.root, parts, L);
      else
        probe = store_and_forward_trees(c.topology.dims, sch.root, parts, L);
    } catch (const std::invalid_argument& e) {
      fail(c.source, s.raw("algorithm"), s.path("algorithm"), e.what());
    }
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
