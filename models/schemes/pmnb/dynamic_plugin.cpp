#include "switchyard/schemes/pmnb/dynamic_plugin.hpp"

#include <cstdio>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"

namespace sy {

std::unique_ptr<Plugin> DynamicPmnbPlugin::make(const Config& cfg) {
  if (!cfg.traffic.broadcast.pmnb()) return nullptr;
  return std::make_unique<DynamicPmnbPlugin>();
}

void DynamicPmnbPlugin::attach(Network& net) {
  pmnb_ = new DynamicPmnb("pmnb", net.config(), net, net.stats());
  DynamicPmnb* p = pmnb_;
  net.set_broadcast_request(
      [p](int node, int flits, Cycle at, bool measured) { p->arrival(node, flits, at, measured); });
  net.add_backlog([p] { return p->waiting(); });
}

void DynamicPmnbPlugin::collect(const Network& net, const Results&) {
  result = pmnb_->result();
  broadcast_delay = net.stats().broadcast_delay();
  reception_delay = net.stats().reception_delay();
}

void DynamicPmnbPlugin::json(Json& j) const {
  // Slots: a whole packet over one link (delta + L tau cycles). The model's delays first, the
  // theorem's beside them.
  const DynamicPmnbResult& p = result;
  const double S = p.slot_cycles;
  j.open("pmnb")
      .kv("algorithm", p.algorithm)
      .kv("period", p.period)
      .kv("d", p.d)
      .kv("scan_slots", p.scan_slots)
      .kv("slot_cycles", S)
      .kv("periods", p.periods)
      .kv("empty_periods", p.empty_periods)
      .kv("mean_M", p.mean_M)
      .kv("mean_M2", p.mean_M2)
      .kv("mean_period_slots", p.mean_period_slots)
      .kv("a_measured", p.a_measured)
      .kv("delay_to_period_end_slots", p.period_end_delay.mean / S)
      .kv("delay_to_period_end_ci95_slots", p.period_end_delay.ci95 / S)
      .kv("delay_to_last_reception_slots", broadcast_delay.mean / S)
      .kv("delay_to_last_reception_ci95_slots", broadcast_delay.ci95 / S)
      .kv("reception_delay_slots", reception_delay.mean / S)
      .kv("waiting_at_end", p.waiting_at_end)
      .open("theorem")
      .kv("lambda_per_slot", p.lambda)
      .kv("rho", p.rho_thm)
      .kv("rho_17", p.rho_17)
      .kv("X", p.X)
      .kv("V", p.V)
      .kv("stable", p.theorem_stable)
      .kv("stability_limit_rho", p.limit_rho)
      .kv("W", p.W)
      .kv("T", p.T)
      .kv("T_a_low", p.T_lo)
      .kv("T_a_high", p.T_hi)
      .close()
      .close();
}

void DynamicPmnbPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Head) return;
  char b[512];
  const DynamicPmnbResult& p = result;
  const double S = p.slot_cycles;
  std::snprintf(b, sizeof b,
                "pmnb periods     %llu (%llu empty), algorithm %s, periods %s, mean M %.3f, "
                "mean length %.3f slots\n",
                (unsigned long long)p.periods, (unsigned long long)p.empty_periods,
                p.algorithm.c_str(), p.period.c_str(), p.mean_M, p.mean_period_slots);
  o << b;
  if (p.theorem_stable)
    std::snprintf(b, sizeof b,
                  "pmnb delay       to period end %.3f ±%.3f slots (model)   theorem T %.3f "
                  "(a %.4f measured; %.3f .. %.3f over a's range)\n",
                  p.period_end_delay.mean / S, p.period_end_delay.ci95 / S, p.T, p.a_measured,
                  p.T_lo, p.T_hi);
  else
    std::snprintf(b, sizeof b,
                  "pmnb delay       to period end %.3f ±%.3f slots (model)   theorem T unbounded "
                  "(rho over the theorem's stability limit; a %.4f measured)\n",
                  p.period_end_delay.mean / S, p.period_end_delay.ci95 / S, p.a_measured);
  o << b;
  std::snprintf(b, sizeof b,
                "pmnb load        rho %.4f (theorem, lambda N X), %.4f (lambda (N-1)/d); "
                "stable below %.4f by the theorem\n",
                p.rho_thm, p.rho_17, p.limit_rho);
  o << b;
}

}  // namespace sy
