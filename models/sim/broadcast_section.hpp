// The broadcast section (traffic.broadcast.scheme set, any scheme): broadcasts created and
// completed, their delays to the last reception and per reception, link transmissions per
// broadcast, and the unicast delay beside them, all from the network's statistics. The scheme's
// own section (STAR's ending dimensions, PMNB's periods) comes from the scheme's plug-in.
#pragma once
#include <string>

#include "switchyard/network/stats.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

class BroadcastSection : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;
  void csv(std::vector<double>& values) const override;

  std::string scheme;
  std::uint64_t broadcasts = 0, broadcasts_done = 0;
  Summary broadcast_delay, reception_delay, unicast_delay;  // cycles
  double transmissions_per_broadcast = 0;
  double packet_time = 1;  // cycles one packet takes over one link (L*tau)
};

}  // namespace sy
