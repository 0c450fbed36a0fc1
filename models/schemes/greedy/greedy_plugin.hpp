// Greedy routing as a plug-in (traffic.pattern bit_flip on a hypercube or a 2-ary butterfly,
// no broadcast, no trace): the paper's bounds on the delay T (greedy's own; Props. 2, 3, 14 for
// any or oblivious schemes), the M/D/1 sojourn at the first arcs and the bound on the packets in
// the network, beside the model's ("greedy" in results.json, summary lines after the links).
#pragma once
#include <vector>

#include "switchyard/schemes/greedy/greedy.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

class GreedyPlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;
  void csv(std::vector<double>& values) const override;

  GreedyBounds bounds;
  bool ideal = false;  // the paper's model: output queues, store-and-forward, all-port, no alpha
                       // or delta (and every packet through the network)
  // The model's, in cycles: the packet latency (mean, 95% CI) and the first link classes' mean
  // sojourn (output queues only; empty otherwise).
  double T_mean = 0, T_ci95 = 0, packet_time = 1;
  std::vector<double> first_sojourn;
  // The model's mean number of packets in the network over the window (Props. 11-12, or 11 and
  // 17 on the butterfly, beside it): every arc's time-averaged queue, waiting + in transmission
  // (Little's law per arc on the packets whose transmission starts in the window; output queues
  // only, -1 otherwise), and, for a cross-check, Little's law on the whole network, lambda 2^d
  // T_model (packets a hypercube node delivers to itself count with delay 0, as in the paper's T).
  double N_arcs = -1, N_little = 0;
  // (The summary and results.json give them in packet times.)
};

}  // namespace sy
