// The plug-ins a run may have, one line each, in the order their sections are written in
// results.json and the summary (sim/plugin.hpp). Adding one: its class in its own file(s)
// (a scheme under schemes/<name>/), and a line here.

#include "switchyard/power/power_plugin.hpp"
#include "switchyard/schemes/dimorder/dim_order.hpp"
#include "switchyard/schemes/greedy/greedy_plugin.hpp"
#include "switchyard/schemes/greedy/rounds_plugin.hpp"
#include "switchyard/schemes/pmnb/dynamic_plugin.hpp"
#include "switchyard/schemes/schedule_plugin.hpp"
#include "switchyard/schemes/star/star_plugin.hpp"
#include "switchyard/sim/broadcast_section.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

const std::vector<PluginKind>& plugin_kinds() {
  static const std::vector<PluginKind> kinds = {
      {"schedule", &SchedulePlugin::make, {}},
      {"pmnb", &DynamicPmnbPlugin::make, {}},
      {"broadcast",
       &BroadcastSection::make,
       {"reception_delay_mean", "reception_delay_ci95", "broadcast_delay_mean",
        "broadcast_delay_ci95"}},
      {"star", &StarPlugin::make, {}},
      {"dimension_order", &DimOrderPlugin::make, {}},
      {"greedy", &GreedyPlugin::make, {"greedy_lower", "greedy_upper", "greedy_exact"}},
      // (No sweep.csv columns: a column more would change every sweep's header.)
      {"rounds", &RoundsPlugin::make, {}},
      {"power",
       &PowerPlugin::make,
       {"power_mw", "power_dynamic_mw", "power_leakage_mw", "energy_per_flit_pj", "area_mm2"}},
  };
  return kinds;
}

}  // namespace sy
