#include "switchyard/schemes/star/star_plugin.hpp"

#include <cstdio>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"

namespace sy {
namespace {

std::vector<double> ending_dimension_shares(const Config& cfg, const Topology& topo) {
  const BroadcastConfig& bc = cfg.traffic.broadcast;
  if (bc.balanced) return star_balance(topo.dims(), bc.rate, cfg.traffic.packets_per_cycle());
  std::vector<double> x;
  int dims = 0;
  for (int n : topo.dims()) dims += n > 1;
  for (int n : topo.dims()) x.push_back(n > 1 ? 1.0 / dims : 0.0);
  return x;
}

}  // namespace

StarReplication::StarReplication(const Config& cfg, const Topology& topo)
    : rule_(topo),
      x_(ending_dimension_shares(cfg, topo)),
      indirect_(cfg.traffic.broadcast.scheme == BroadcastScheme::Indirect),
      root_(cfg.traffic.broadcast.root),
      nodes_(topo.num_nodes()) {}

void StarReplication::plan(BroadcastRecord& b, int src, Rng& rng) const {
  b.ending_dim = star_pick_ending_dim(x_, rng.uniform());
  b.tree_src = indirect_ ? (root_ + b.ending_dim) % nodes_ : src;
  b.antipode_dir = rng.uniform() < 0.5 ? 1 : -1;
}

std::unique_ptr<Plugin> StarPlugin::make(const Config& cfg) {
  const BroadcastConfig& bc = cfg.traffic.broadcast;
  if (!bc.enabled() || bc.pmnb()) return nullptr;
  return std::make_unique<StarPlugin>();
}

void StarPlugin::attach(Network& net) {
  rule_ = std::make_unique<StarReplication>(net.config(), net.topology());
  net.set_replication(rule_.get());
}

void StarPlugin::collect(const Network&, const Results&) {}

void StarPlugin::json(Json& j) const {
  j.open("star").kv_list("x", rule_->x()).close();
}

// STAR's ending-dimension fractions, after the broadcast lines.
void StarPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Head) return;
  o << "star x          ";
  char b[32];
  for (double x : rule_->x()) {
    std::snprintf(b, sizeof b, " %.4f", x);
    o << b;
  }
  o << "\n";
}

}  // namespace sy
