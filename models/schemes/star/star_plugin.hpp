// Priority STAR as a plug-in (traffic.broadcast.scheme priority_star, fcfs_direct or indirect):
// StarReplication is the ReplicationRule the routers replicate broadcast copies by (the SDC tree
// of schemes/star/star.hpp, with the ending dimension drawn from the balance x at the source),
// and StarPlugin installs it and reports x ("star": {"x": [...]}, the summary's "star x" line),
// the per-dimension link loads the balance predicts, and on output-queued routers §3.2's queueing
// analysis beside the model: per class the measured wait per hop and the paper's G/D/1 wait and
// conservation law computed from the measured arrivals ("star": {"queues": {...}}, the summary's
// "star waits" line).
#pragma once
#include <memory>
#include <vector>

#include "switchyard/router/queue_waits.hpp"
#include "switchyard/router/replication_rule.hpp"
#include "switchyard/schemes/star/star.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

class StarReplication final : public ReplicationRule {
 public:
  // x: the balance (traffic.broadcast.balanced) or equal shares of the dimensions of size > 1.
  StarReplication(const Config& cfg, const Topology& topo);
  const std::vector<double>& x() const { return x_; }

  void plan(BroadcastRecord& b, int src, Rng& rng) const override;
  int children(int node, int root, int tree, int in_port, int* out_ports,
               int antipode_dir) const override {
    return rule_.children(node, root, tree, in_port, out_ports, antipode_dir);
  }
  int vc_class(int tree, int out_port) const override { return rule_.vc_class(tree, out_port); }
  bool low_priority(int tree, int out_port) const override {
    return rule_.low_priority(tree, out_port);
  }

 private:
  StarRule rule_;
  std::vector<double> x_;
  bool indirect_;  // first to the root (bc.root + ending dimension), then down its tree
  int root_, nodes_;
};

class StarPlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void attach(Network& net) override;
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;
  const std::vector<double>& x() const { return rule_->x(); }

  // §3.2 at the output queues (output-queued routers; times in packet times, rates per link per
  // packet time). Per class c (0 = highest; trailing classes without arrivals left out): the
  // arrival rate rho[c], the variance var_cum[c] of the arrivals of classes 0..c per slot (mean
  // over the queues), the measured wait per hop wait_model[c] (+- wait_model_ci95[c], batch
  // means), and the paper's wait_paper[c]: the G/D/1 wait of classes 0..c (per queue, from its
  // measured rate and variance, weighted by its arrivals) split by the conservation law
  // (star_class_waits). W_*: class 0 (H), the last class (L), all classes (W: the conservation
  // law's side, the FCFS-equivalent G/D/1 wait). The paper's analysis is slotted: it fits runs
  // where a packet takes one cycle (packet_flits 1, tau 1); with longer packets a high-priority
  // packet also waits for the residual of a low-priority one, which it does not count.
  struct Queues {
    bool on = false;
    double slot_cycles = 1;
    std::vector<double> rho, var_cum, wait_model, wait_model_ci95, wait_paper;
    double W_model = 0, W_model_ci95 = 0, W_paper = 0, rho_all = 0, V_all = 0;
    double high_share_model = 0, high_share_paper = 0;
    std::uint64_t waits = 0;  // hops measured
  };
  const Queues& queues() const { return q_; }
  // The balance's expected utilisation of a link of each dimension (star_link_loads, exact
  // hops) and the throughput factor, both per packet time.
  const std::vector<double>& link_loads() const { return loads_; }
  double rho() const { return rho_; }

 private:
  void summary_tail(std::ostream& o) const;
  std::unique_ptr<StarReplication> rule_;
  std::vector<std::unique_ptr<QueueWaits>> waits_;  // one per output-queued router
  bool paper_hops_ = false;
  bool unicast_high_ = false;  // unicast packets in class 0 (two-class priority STAR)
  std::vector<int> dims_;
  std::vector<double> loads_;
  double rho_ = 0, lambda_b_ = 0, lambda_r_ = 0;
  Queues q_;
};

}  // namespace sy
