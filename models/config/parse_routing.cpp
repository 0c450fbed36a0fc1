// routing: {algorithm, tie_break, allow_deadlock, selection, dateline, ugal_threshold}
#include <algorithm>

#include "switchyard/config/section.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"

namespace sy {
namespace config_detail {

void parse_routing(Section& s, Config& c) {
  std::vector<std::pair<std::string, std::string>> names;
  for (const std::string& n : routing_names()) names.emplace_back(n, n);
  const std::string algo = s.choice<std::string>("algorithm", "dimension_order", names);
  c.routing.algorithm = algo;
  c.routing.allow_deadlock = s.boolean("allow_deadlock", false);
  c.routing.random_selection =
      s.choice<bool>("selection", false, {{"credits", false}, {"random", true}});
  if (algo != "dimension_order") {
    const Topology topo = c.topology.make();
    auto refuse = [&](const std::string& why) {
      fail(c.source, s.at("algorithm"), s.path("algorithm"), algo + ": " + why);
    };
    if (c.router.buffering != Buffering::InputVc)
      refuse("routing algorithms other than dimension_order run on input_vc routers");
    if (!routing_supported(algo, topo)) {
      std::string here;
      for (const std::string& n : routing_names())
        if (n != "dimension_order" && routing_supported(n, topo)) here += ", " + n;
      refuse("routes " + routing_topologies(algo) + ", not a " + topo.kind_name() +
             (here.empty() ? std::string(" (it routes by its own tables: dimension_order)")
                           : " (its algorithms: dimension_order" + here + ")"));
    }
    const bool turn = turn_model(algo) != TurnModel::None;
    if (turn && (c.topology.kind != Topology::Kind::Mesh || c.topology.dims.size() != 2))
      refuse("a turn model for 2-D meshes (x = dimension 0, y = dimension 1)");
  }
  if (algo != "dimension_order" || c.topology.kind >= Topology::Kind::Butterfly) {
    const Topology topo = c.topology.make();
    const int need = routing_vcs_needed(algo, topo);
    if (c.router.vcs < need) {
      const std::string msg = algo + " needs router.vcs >= " + std::to_string(need) +
                              " on this topology to be deadlock free (has " +
                              std::to_string(c.router.vcs) + ")" +
                              (c.topology.kind == Topology::Kind::AnyNet
                                   ? ": topology.deadlock: layers needs " + std::to_string(need) +
                                         " VC layers on this network's shortest paths (up_down: 1)"
                                   : std::string());
      if (!c.routing.allow_deadlock)
        fail(c.source, s.at("algorithm"), s.path("algorithm"),
             msg + "; routing.allow_deadlock: true runs it anyway");
      c.warnings.push_back(msg + ": it may deadlock (the watchdog will say so)");
    }
  }
  c.routing.tie_break = s.choice<TieBreak>("tie_break", TieBreak::Balanced,
                                           {{"positive", TieBreak::Positive},
                                            {"negative", TieBreak::Negative},
                                            {"balanced", TieBreak::Balanced}});
  if (s.has("dateline") && algo != "dimension_order")
    fail(c.source, s.at("dateline"), s.path("dateline"),
         "chooses the dateline classes of dimension_order routing (" + algo +
             " has its own VC classes)");
  c.routing.dateline_on_entry =
      s.choice<bool>("dateline", false, {{"wraparound", false}, {"ring_entry", true}});
  if (s.has("ugal_threshold") && algo != "ugal_threshold")
    fail(c.source, s.at("ugal_threshold"), s.path("ugal_threshold"),
         "is the threshold of ugal_threshold (a dragonfly's BookSim2 UGAL), not of " + algo);
  c.routing.ugal_threshold = static_cast<int>(s.integer("ugal_threshold", 30, -(1 << 20), 1 << 20));
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
