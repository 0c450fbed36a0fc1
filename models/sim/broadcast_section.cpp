#include "switchyard/sim/broadcast_section.hpp"

#include <cstdio>
#include <limits>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy {

std::unique_ptr<Plugin> BroadcastSection::make(const Config& cfg) {
  if (!cfg.traffic.broadcast.enabled()) return nullptr;
  return std::make_unique<BroadcastSection>();
}

void BroadcastSection::collect(const Network& net, const Results& core) {
  const Stats& st = net.stats();
  scheme = to_string(net.config().traffic.broadcast.scheme);
  broadcasts = st.broadcasts_created;
  broadcasts_done = st.broadcasts_done;
  broadcast_delay = st.broadcast_delay();
  reception_delay = st.reception_delay();
  unicast_delay = core.latency;
  transmissions_per_broadcast = st.broadcasts_done
                                    ? static_cast<double>(st.broadcast_transmissions) /
                                          static_cast<double>(st.broadcasts_done)
                                    : 0;
  packet_time = core.packet_time;
}

void BroadcastSection::json(Json& j) const {
  j.open("broadcast")
      .kv("scheme", scheme)
      .kv("broadcasts", broadcasts)
      .kv("completed", broadcasts_done)
      .kv("packet_time", packet_time);
  summary_json(j, "broadcast_delay", broadcast_delay, packet_time);
  summary_json(j, "reception_delay", reception_delay, packet_time);
  j.kv("transmissions_per_broadcast", transmissions_per_broadcast).close();
  j.open("unicast");
  summary_json(j, "delay", unicast_delay, packet_time);
  j.close();
}

void BroadcastSection::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Head) return;
  char b[512];
  std::snprintf(b, sizeof b,
                "broadcasts       %llu created, %llu completed (%s), %.3f transmissions each\n",
                (unsigned long long)broadcasts, (unsigned long long)broadcasts_done, scheme.c_str(),
                transmissions_per_broadcast);
  o << b;
  std::snprintf(b, sizeof b,
                "reception delay  mean %.3f ±%.3f  p99 %.0f cycles  (%.3f packet times)\n",
                reception_delay.mean, reception_delay.ci95, reception_delay.p99,
                reception_delay.mean / packet_time);
  o << b;
  std::snprintf(b, sizeof b,
                "broadcast delay  mean %.3f ±%.3f  p99 %.0f cycles  (%.3f packet times)\n",
                broadcast_delay.mean, broadcast_delay.ci95, broadcast_delay.p99,
                broadcast_delay.mean / packet_time);
  o << b;
}

void BroadcastSection::csv(std::vector<double>& values) const {
  const double none = std::numeric_limits<double>::quiet_NaN();
  for (const Summary* s : {&reception_delay, &broadcast_delay}) {
    values.push_back(s->count ? s->mean : none);
    values.push_back(s->count && s->batched ? s->ci95 : none);
  }
}

}  // namespace sy
