#include "switchyard/schemes/greedy/rounds_plugin.hpp"

#include <cstdio>
#include <limits>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/schemes/greedy/greedy.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy {

std::unique_ptr<Plugin> RoundsPlugin::make(const Config& cfg) {
  if (cfg.interface.discipline != Discipline::Rounds) return nullptr;
  return std::make_unique<RoundsPlugin>();
}

void RoundsPlugin::attach(Network& net) {
  gate_ = std::make_unique<RoundsGate>(net.topology().num_nodes(), net.stats());
  net.set_injection_gate(gate_.get());
}

void RoundsPlugin::collect(const Network& net, const Results& core) {
  gate_->flush();
  const Config& cfg = net.config();
  // A packet time: L tau, L the mean packet length (a trace's: its messages' mean length).
  double S = core.packet_time;
  if (cfg.traffic.trace && !cfg.traffic.messages.empty()) {
    double flits = 0;
    for (const TraceMessage& m : cfg.traffic.messages) flits += m.flits;
    S = flits / static_cast<double>(cfg.traffic.messages.size()) * cfg.timing.tau;
  }
  if (!(S > 0)) S = 1.0;
  packet_time = S;
  const RoundLengths& a = gate_->all();
  const RoundLengths& f = gate_->full();
  rounds = a.count;
  full_rounds = f.count;
  rounds_total = gate_->rounds_total();
  mean_participants = gate_->mean_participants();
  mean = a.mean() / S;
  ci95 = a.ci95() / S;
  max = static_cast<double>(a.max) / S;
  full_mean = f.mean() / S;
  full_ci95 = f.ci95() / S;
  full_min = static_cast<double>(f.min) / S;
  full_max = static_cast<double>(f.max) / S;
  diameter = net.topology().diameter();
  R = f.count && diameter > 0 ? full_mean / diameter : 0.0;
  lambda = cfg.traffic.trace || cfg.traffic.none ? 0.0 : cfg.traffic.packets_per_cycle() * S;
  rho = core.rho;
  lambda_limit = full_mean > 0 ? 1.0 / full_mean : 0.0;
  rho_limit = lambda > 0 && full_mean > 0 ? rho * lambda_limit / lambda : 0.0;
  load_of_rounds = lambda * full_mean;
  T = core.latency.mean / S;
  T_ci95 = core.latency.ci95 / S;
  T_network = core.network_latency.mean / S;
  hypercube = cfg.topology.kind == Topology::Kind::Hypercube &&
              cfg.traffic.pattern == Pattern::BitFlip && lambda > 0;
  if (hypercube) {
    d = net.topology().num_dims();
    p = cfg.traffic.bit_flip_probability;
    const GreedyBounds g = greedy_bounds(false, d, p, lambda, 1.0 / S);
    greedy_upper = g.stable() ? g.upper : std::numeric_limits<double>::infinity();
    any_lower = g.prop2_lower_any;
  }
}

void RoundsPlugin::json(Json& j) const {
  j.open("rounds")
      .kv("packet_time_cycles", packet_time)
      .kv("rounds", rounds)
      .kv("rounds_total", rounds_total)
      .kv("mean_participants", mean_participants)
      .kv("mean", mean)
      .kv("mean_ci95", ci95)
      .kv("max", max)
      .kv("full_rounds", full_rounds);
  // (What the full rounds give is measured only where there were some: absent, not 0, else.)
  if (full_rounds > 0)
    j.kv("full_mean", full_mean)
        .kv("full_ci95", full_ci95)
        .kv("full_min", full_min)
        .kv("full_max", full_max);
  j.kv("diameter", diameter);
  if (full_rounds > 0) j.kv("R", R);
  j.kv("lambda", lambda).kv("rho", rho);
  if (full_rounds > 0) {
    j.kv("lambda_limit", lambda_limit);
    if (lambda > 0) j.kv("rho_limit", rho_limit);
    j.kv("lambda_times_full_mean", load_of_rounds);
  }
  j.kv("T_model", T).kv("T_model_ci95", T_ci95).kv("T_network_model", T_network);
  if (hypercube) {
    j.kv("d", d).kv("p", p).kv("prop2_lower_any", any_lower);
    if (greedy_upper < std::numeric_limits<double>::infinity()) j.kv("greedy_upper", greedy_upper);
  }
  j.close();
}

void RoundsPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Tail) return;
  char b[512];
  std::snprintf(b, sizeof b,
                "rounds           %llu in the window, %.2f nodes each, mean %.3f ±%.3f packet "
                "times (max %.4g)\n",
                (unsigned long long)rounds, mean_participants, mean, ci95, max);
  o << b;
  if (full_rounds > 0) {
    std::snprintf(b, sizeof b,
                  "rounds full      %llu (every node), mean %.3f ±%.3f packet times (%.4g .. "
                  "%.4g), R = mean/diameter %.4f\n",
                  (unsigned long long)full_rounds, full_mean, full_ci95, full_min, full_max, R);
    o << b;
    if (lambda > 0) {
      std::snprintf(b, sizeof b,
                    "rounds limit     lambda E[full round] = %.3f; stable only for lambda <= "
                    "%.5f, rho <= %.5f%s\n",
                    load_of_rounds, lambda_limit, rho_limit,
                    hypercube && p == 0.5 ? " = 1/(2Rd) (paper, measured R)" : "");
      o << b;
    }
  } else {
    o << "rounds full      none in the window (no round had every node)\n";
  }
  char greedy[160] = "";
  char upper[32] = "inf";
  if (greedy_upper < std::numeric_limits<double>::infinity())
    std::snprintf(upper, sizeof upper, "%.3f", greedy_upper);
  if (hypercube)
    std::snprintf(greedy, sizeof greedy,
                  "   greedy at this rho: T <= %s (Prop. 12); any scheme: T >= %.3f (Prop. 2)",
                  upper, any_lower);
  std::snprintf(b, sizeof b,
                "rounds delay     T %.3f ±%.3f packet times (model; in the network %.3f)%s\n", T,
                T_ci95, T_network, greedy);
  o << b;
}

}  // namespace sy
