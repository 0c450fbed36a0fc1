#include "switchyard/schemes/star/star_plugin.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/router/output_queued_router.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy {
namespace {

std::vector<double> ending_dimension_shares(const Config& cfg, const Topology& topo) {
  const BroadcastConfig& bc = cfg.traffic.broadcast;
  if (bc.balanced)
    return star_balance(topo.dims(), bc.rate, cfg.traffic.packets_per_cycle(),
                        bc.paper_hops ? StarHops::Paper : StarHops::Exact);
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
  if (!bc.enabled() || bc.pmnb() || bc.scheme == BroadcastScheme::DimensionOrder) return nullptr;
  return std::make_unique<StarPlugin>();
}

void StarPlugin::attach(Network& net) {
  const Config& cfg = net.config();
  rule_ = std::make_unique<StarReplication>(cfg, net.topology());
  net.set_replication(rule_.get());
  const BroadcastConfig& bc = cfg.traffic.broadcast;
  paper_hops_ = bc.balanced && bc.paper_hops;
  unicast_high_ = bc.hop_class(false, false) == 0;
  dims_ = net.topology().dims();
  // Rates per packet time (the paper's time unit).
  const double slot = static_cast<double>(cfg.traffic.packet_flits) * cfg.timing.tau;
  lambda_b_ = bc.rate * slot;
  lambda_r_ = cfg.traffic.packets_per_cycle() * slot;
  loads_ = star_link_loads(dims_, lambda_b_, lambda_r_, rule_->x());
  rho_ = star_throughput_factor(dims_, lambda_b_, lambda_r_);
  if (cfg.router.buffering != Buffering::OutputQueued) return;
  // A packet is in its output queue at most delta + its transmission (store-and-forward) before
  // it is ready.
  const Cycle lookahead =
      static_cast<Cycle>(cfg.timing.delta) +
      static_cast<Cycle>(std::max(cfg.traffic.packet_flits, cfg.traffic.max_packet_flits)) *
          static_cast<Cycle>(cfg.timing.tau);
  const Stats& st = net.stats();
  if (st.window_end() <= st.window_start()) return;
  for (int n = 0; n < net.topology().num_nodes(); ++n) {
    auto* oq = dynamic_cast<OutputQueuedRouter*>(&net.router(n));
    if (!oq) return;
    waits_.push_back(std::make_unique<QueueWaits>(
        net.topology().num_ports(), cfg.router.priority_classes, st.window_start(), st.window_end(),
        static_cast<Cycle>(slot), 20, lookahead));
    oq->track_waits(waits_.back().get());
  }
}

void StarPlugin::collect(const Network&, const Results&) {
  if (waits_.empty()) return;
  for (auto& w : waits_) w->finish();
  const QueueWaits& w0 = *waits_.front();
  const int K = w0.classes(), B = w0.batches(), P = w0.ports();
  const double S = w0.window_slots(), slot = static_cast<double>(w0.slot());
  std::vector<double> n(static_cast<std::size_t>(K), 0.0);  // arrivals per class
  for (const auto& w : waits_)
    for (int p = 0; p < P; ++p)
      for (int c = 0; c < K; ++c) n[static_cast<std::size_t>(c)] += w->arrivals(p, c);
  int used = K;  // classes up to the last with arrivals
  while (used > 1 && n[static_cast<std::size_t>(used - 1)] == 0) --used;
  Queues q;
  q.on = true;
  q.slot_cycles = slot;
  const double queues = static_cast<double>(waits_.size()) * P;
  // Per class prefix 0..c: the paper's G/D/1 wait per queue from its measured per-slot mean and
  // variance, weighted by its arrivals; the mean variance over the queues.
  std::vector<double> wait_cum(static_cast<std::size_t>(used), 0.0);
  for (int c = 0; c < used; ++c) {
    double weight = 0, wsum = 0, vsum = 0;
    for (const auto& w : waits_)
      for (int p = 0; p < P; ++p) {
        double a = 0;
        for (int k = 0; k <= c; ++k) a += static_cast<double>(w->arrivals(p, k));
        const double m = a / S, var = static_cast<double>(w->sq_cum(p, c)) / S - m * m;
        vsum += var;
        if (a == 0) continue;
        wsum += a * star_gd1_wait(m, std::max(0.0, var));
        weight += a;
      }
    wait_cum[static_cast<std::size_t>(c)] = weight > 0 ? wsum / weight : std::nan("");
    q.var_cum.push_back(vsum / queues);
    q.rho.push_back(n[static_cast<std::size_t>(c)] / (S * queues));
  }
  q.wait_paper = star_class_waits(q.rho, wait_cum);
  q.W_paper = wait_cum.back();
  double all = 0;
  for (int c = 0; c < used; ++c) all += n[static_cast<std::size_t>(c)];
  q.rho_all = all / (S * queues);
  q.V_all = q.var_cum.back();
  // Measured waits: per class and over all classes, means with batch-means 95% intervals.
  auto measure = [&](int c0, int c1, double& mean, double& ci) {
    double sum = 0, cnt = 0;
    std::vector<double> means;
    for (int b = 0; b < B; ++b) {
      double bs = 0, bn = 0;
      for (const auto& w : waits_)
        for (int c = c0; c < c1; ++c) {
          bs += static_cast<double>(w->wait_sum(b, c));
          bn += static_cast<double>(w->waited(b, c));
        }
      sum += bs;
      cnt += bn;
      if (bn > 0) means.push_back(bs / bn / slot);
    }
    mean = cnt > 0 ? sum / cnt / slot : std::nan("");
    ci = std::nan("");
    const std::size_t M = means.size();
    if (M >= 2) {
      double mm = 0, var = 0;
      for (double v : means) mm += v / static_cast<double>(M);
      for (double v : means) var += (v - mm) * (v - mm) / static_cast<double>(M - 1);
      ci = student_t975(static_cast<int>(M - 1)) * std::sqrt(var / static_cast<double>(M));
    }
    return cnt;
  };
  for (int c = 0; c < used; ++c) {
    double m, ci;
    measure(c, c + 1, m, ci);
    q.wait_model.push_back(m);
    q.wait_model_ci95.push_back(ci);
  }
  q.waits = static_cast<std::uint64_t>(measure(0, used, q.W_model, q.W_model_ci95));
  // The share of transmissions in class 0: measured, and expected (broadcast hops off the ending
  // dimension, and the unicast hops when unicast is high too).
  q.high_share_model = all > 0 ? n[0] / all : std::nan("");
  double N = 1, D = 0;
  for (int d : dims_) N *= d;
  for (double h : star_unicast_hops(dims_)) D += h;
  const double hb = used > 1 ? star_high_share(dims_, rule_->x()) : 1.0;
  const double tb = lambda_b_ * (N - 1), tr = lambda_r_ * D;
  q.high_share_paper =
      tb + tr > 0 ? (tb * hb + (unicast_high_ || used == 1 ? tr : 0.0)) / (tb + tr) : std::nan("");
  q_ = std::move(q);
}

void StarPlugin::json(Json& j) const {
  j.open("star")
      .kv_list("x", rule_->x())
      .kv("balance_hops", paper_hops_ ? "paper" : "exact")
      .kv("rho", rho_)
      .kv_list("link_loads", loads_)
      .kv("max_link_load", *std::max_element(loads_.begin(), loads_.end()));
  if (q_.on) {
    j.open("queues")
        .kv("slot_cycles", q_.slot_cycles)
        .kv("waits", q_.waits)
        .kv_list("rho", q_.rho)
        .kv_list("var_cum", q_.var_cum)
        .kv_list("wait_model", q_.wait_model)
        .kv_list("wait_model_ci95", q_.wait_model_ci95)
        .kv_list("wait_paper", q_.wait_paper);
    if (q_.rho.size() > 1)
      j.kv("W_H_model", q_.wait_model.front())
          .kv("W_H_paper", q_.wait_paper.front())
          .kv("W_L_model", q_.wait_model.back())
          .kv("W_L_paper", q_.wait_paper.back());
    j.kv("W_model", q_.W_model)
        .kv("W_model_ci95", q_.W_model_ci95)
        .kv("W_paper", q_.W_paper)
        .kv("rho_all", q_.rho_all)
        .kv("V_all", q_.V_all)
        .kv("high_share_model", q_.high_share_model)
        .kv("high_share_paper", q_.high_share_paper)
        .close();
  }
  j.close();
}

// STAR's ending-dimension fractions, after the broadcast lines.
void StarPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place == SummaryPlace::Tail) return summary_tail(o);
  o << "star x          ";
  char b[32];
  for (double x : rule_->x()) {
    std::snprintf(b, sizeof b, " %.4f", x);
    o << b;
  }
  o << "\n";
}

// STAR's checks, after the link line: the link loads the balance predicts, and §3.2's waits per
// hop, the model's beside the paper's (G/D/1 on the measured arrivals + conservation law).
void StarPlugin::summary_tail(std::ostream& o) const {
  char b[160];
  std::snprintf(b, sizeof b,
                "star loads       rho %.4f, balance (%s hops) predicts max link load %.4f\n", rho_,
                paper_hops_ ? "paper" : "exact", *std::max_element(loads_.begin(), loads_.end()));
  o << b;
  if (!q_.on) return;
  o << "star waits      ";
  for (std::size_t c = 0; c < q_.rho.size(); ++c) {
    std::snprintf(b, sizeof b, " class %zu %.4f (paper %.4f),", c, q_.wait_model[c],
                  q_.wait_paper[c]);
    o << b;
  }
  std::snprintf(b, sizeof b, " all %.4f +- %.4f (paper %.4f) packet times per hop\n", q_.W_model,
                q_.W_model_ci95, q_.W_paper);
  o << b;
}

}  // namespace sy
