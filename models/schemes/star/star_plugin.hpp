// Priority STAR as a plug-in (traffic.broadcast.scheme priority_star, fcfs_direct or indirect):
// StarReplication is the ReplicationRule the routers replicate broadcast copies by (the SDC tree
// of schemes/star/star.hpp, with the ending dimension drawn from the balance x at the source),
// and StarPlugin installs it and reports x ("star": {"x": [...]}, the summary's "star x" line).
#pragma once
#include <vector>

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

 private:
  std::unique_ptr<StarReplication> rule_;
};

}  // namespace sy
