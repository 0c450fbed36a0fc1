// The idling scheme in rounds as a plug-in (network_interface.discipline: rounds): installs the
// RoundsGate (schemes/greedy/rounds.hpp) and reports the rounds the model ran ("rounds" in
// results.json, summary lines after the links): their mean length in packet times, the full
// rounds' (every node took part) and R = full / diameter, the stability limit the paper's
// argument gives with that measured R (lambda E[full round] <= 1: rho <= 1/(2Rd) on the
// hypercube at p = 1/2), and for contrast the greedy scheme's bound at the same rho (Prop. 12,
// hypercube with bit_flip). The stable verdict is the core's (the backlog's growth), not this
// limit.
#pragma once
#include <memory>
#include <vector>

#include "switchyard/schemes/greedy/rounds.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

class RoundsPlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void attach(Network& net) override;
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;

  // In packet times (S = L tau cycles), rounds begun in the measurement window.
  double packet_time = 1;
  std::uint64_t rounds = 0, full_rounds = 0, rounds_total = 0;
  double mean_participants = 0;
  double mean = 0, ci95 = 0, max = 0;  // every round
  double full_mean = 0, full_ci95 = 0, full_min = 0, full_max = 0;
  int diameter = 0;
  double R = 0;  // full_mean / diameter (0: no full round)
  // The offered load: lambda (packets per node per packet time) and the core's rho; the limit
  // from the measured full round: lambda_limit = 1/full_mean, rho_limit = rho lambda_limit /
  // lambda (0 where unknown), and lambda full_mean (> 1: past it).
  double lambda = 0, rho = 0, lambda_limit = 0, rho_limit = 0, load_of_rounds = 0;
  // The model's delay (from creation: waiting for a round included) and its time in the network
  // (from injection), packet times.
  double T = 0, T_ci95 = 0, T_network = 0;
  // Hypercube, bit_flip: the greedy scheme's upper bound at this rho (Prop. 12) and the bound
  // for any scheme (Prop. 2), which the rounds must respect too; d and p.
  bool hypercube = false;
  int d = 0;
  double p = 0, greedy_upper = 0, any_lower = 0;

 private:
  std::unique_ptr<RoundsGate> gate_;
};

}  // namespace sy
