// Stats: per-packet latencies and counters of one run. Warm-up, measurement window [w0, w1),
// drain: packets created inside the window are "measured"; their latency (creation -> tail
// delivered) and network latency (head enters the source router -> tail delivered) are kept.
// Summaries: mean with a 95% confidence interval from batch means (measured packets in creation
// order, split into batches of about equal counts; Student t on the batch means), p50, p99, max;
// in bounded memory (SampleSet), no per-packet record unless keep_records. Per flow (source,
// destination), on request: running sums of the measured packets' latencies (track_flows).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/base/flit.hpp"
#include "switchyard/base/message.hpp"

namespace sy {

// Quantiles (nearest rank): exact for whole values below 1,024, above that the upper edge of
// their histogram bin, so they err high, by less than 1/128 (0.8%), never low.
struct Summary {
  double mean = 0, ci95 = 0, p50 = 0, p99 = 0, max = 0;
  double p90 = 0, p95 = 0, p999 = 0;
  double lag1 = 0;  // lag-1 autocorrelation of the batch means (large: batches too short)
  std::uint64_t count = 0;
  bool batched = false;  // ci95 and lag1 come from 2 or more batch means
};

// The measured packets of one flow (source, destination): count, latency sums, extremes.
struct FlowAccumulator {
  std::uint64_t packets = 0;
  std::uint64_t latency_sum = 0, network_latency_sum = 0;  // cycles
  Cycle latency_min = std::numeric_limits<Cycle>::max(), latency_max = 0;
};

// One measure's samples (creation cycle, value >= 0), summarized in bounded memory, whatever the
// run's length: the count, sum and maximum exactly; the batch means from 1,024 time bins (sum
// and count per bin of creation time, bins merged pairwise as the run grows), grouped into
// batches of equal counts in creation order; the quantiles from a histogram exact to the unit
// below 1,024 and within 1/128 (0.8%) above (the bin's upper edge: never below the true value).
class SampleSet {
 public:
  explicit SampleSet(Cycle origin = 0);
  void add(Cycle created, double value);
  std::uint64_t size() const { return n_; }
  Summary summarize(int batches) const;
  // Counts in bins of `bin` (>= 1) units, `bins` of them and one for everything above.
  std::vector<std::uint64_t> histogram(double bin, int bins) const;

 private:
  static constexpr int kTimeBins = 1024;
  static constexpr int kExact = 1024, kSub = 128;
  static int value_bin(double v);
  static double bin_value(int b);
  Cycle origin_;
  int width_log2_ = 0;  // a time bin is 2^width_log2_ cycles
  std::vector<double> tsum_;
  std::vector<std::uint64_t> tcount_;
  std::vector<std::uint64_t> vhist_;
  std::uint64_t n_ = 0;
  double sum_ = 0, max_ = 0;
};

// The measures of one class of packets (a priority class or a traffic class): the measured
// packets' latencies, and the flits offered and accepted in the window.
struct ClassStats {
  explicit ClassStats(Cycle w0) : lat(w0), net(w0) {}
  SampleSet lat, net;
  std::uint64_t offered_window = 0, accepted_window = 0;
};

class Stats {
 public:
  Stats(Cycle w0, Cycle w1, int batches)
      : w0_(w0), w1_(w1), batches_(batches), lat_(w0), net_(w0), broadcast_(w0), reception_(w0) {}
  bool in_window(Cycle t) const { return t >= w0_ && t < w1_; }
  Cycle window_start() const { return w0_; }
  Cycle window_end() const { return w1_; }

  void on_created(const Packet& p, Cycle t) {
    ++packets_created;
    flits_created += p.flits;
    if (p.measured) ++measured_created;
    if (in_window(t)) {
      offered_flits_window += p.flits;
      if (classes_) on_class_offered(p.priority, p.traffic_class, p.flits);
    }
  }
  // Per class (track_classes): flits offered and accepted in the window by the packets of a
  // priority class and a traffic class (the threads' lanes add theirs in the serial part).
  void on_class_offered(int priority, int traffic_class, std::uint64_t flits) {
    if (!by_priority_.empty())
      by_priority_[static_cast<std::size_t>(priority)].offered_window += flits;
    if (!by_traffic_.empty())
      by_traffic_[static_cast<std::size_t>(traffic_class)].offered_window += flits;
  }
  // A lane's counts ([0] by priority, [1] by traffic class).
  void add_class_counts(const std::uint64_t offered[2][kMaxClasses],
                        const std::uint64_t accepted[2][kMaxClasses]) {
    for (std::size_t c = 0; c < by_priority_.size(); ++c) {
      by_priority_[c].offered_window += offered[0][c];
      by_priority_[c].accepted_window += accepted[0][c];
    }
    for (std::size_t c = 0; c < by_traffic_.size(); ++c) {
      by_traffic_[c].offered_window += offered[1][c];
      by_traffic_[c].accepted_window += accepted[1][c];
    }
  }
  void on_class_accepted(int priority, int traffic_class, std::uint64_t flits) {
    if (!by_priority_.empty())
      by_priority_[static_cast<std::size_t>(priority)].accepted_window += flits;
    if (!by_traffic_.empty())
      by_traffic_[static_cast<std::size_t>(traffic_class)].accepted_window += flits;
  }
  void on_injected(int flits) { flits_injected += flits; }
  void on_flits_delivered(int flits, Cycle done) {
    flits_delivered += flits;
    if (in_window(done)) accepted_flits_window += flits;
  }
  // Flits of packet p (its classes counted when tracked).
  void on_flits_delivered(int flits, Cycle done, const Packet& p) {
    flits_delivered += flits;
    if (in_window(done)) {
      accepted_flits_window += flits;
      if (classes_)
        on_class_accepted(p.priority, p.traffic_class, static_cast<std::uint64_t>(flits));
    }
  }
  // A measured packet's times, all the statistics need of it (the threads' lanes collect
  // these and add them after the parallel part: the sums are of whole cycles, exact in any order).
  struct Measured {
    Cycle created, injected, delivered;
    int src, dst;
    std::uint8_t priority, traffic_class;
    static Measured of(const Packet& p) {  // (p.delivered set)
      return {p.created,      p.injected, p.delivered,
              p.src,          p.dst,      static_cast<std::uint8_t>(p.priority),
              p.traffic_class};
    }
  };
  void on_delivered(const Packet& p) {
    ++packets_delivered;
    last_delivery = p.delivered > last_delivery ? p.delivered : last_delivery;
    if (keep_records_)
      records_.push_back({p.src, p.dst, p.flits, p.priority, p.created, p.injected, p.delivered});
    if (p.measured) on_measured(Measured::of(p));
  }
  void on_measured(const Measured& m) {
    ++measured_delivered;
    lat_.add(m.created, static_cast<double>(m.delivered - m.created));
    net_.add(m.created, static_cast<double>(m.delivered - m.injected));
    if (classes_) on_class_delivered(m);
    if (!flows_.empty() && m.dst >= 0) {
      FlowAccumulator& f =
          flows_[static_cast<std::size_t>(m.src) * flow_nodes_ + static_cast<std::size_t>(m.dst)];
      const Cycle lat = m.delivered - m.created;
      ++f.packets;
      f.latency_sum += lat;
      f.network_latency_sum += m.delivered - m.injected;
      f.latency_min = lat < f.latency_min ? lat : f.latency_min;
      f.latency_max = lat > f.latency_max ? lat : f.latency_max;
    }
  }
  // A lane's packets finished on it (threads): counted, the latest delivery, the measured ones.
  void on_lane_delivered(std::uint64_t packets, Cycle last, const std::vector<Measured>& measured) {
    packets_delivered += packets;
    last_delivery = last > last_delivery ? last : last_delivery;
    for (const Measured& m : measured) on_measured(m);
  }
  // Whether delivered packets must reach the statistics in the one-thread order (per-packet
  // records kept).
  bool ordered() const { return keep_records_; }
  void on_order_error() { ++order_errors; }
  void on_zero_hop() { ++zero_hop; }
  // Broadcasts: one reception per node other than the source; done after the last one.
  void on_reception(const BroadcastRecord& b, Cycle t) {
    if (b.measured) reception_.add(b.created, static_cast<double>(t - b.created));
  }
  void on_broadcast_done(const BroadcastRecord& b) {
    ++broadcasts_done;
    ++packets_delivered;
    broadcast_transmissions += static_cast<std::uint64_t>(b.transmissions);
    last_delivery = b.last_reception > last_delivery ? b.last_reception : last_delivery;
    if (!b.measured) return;
    ++measured_delivered;
    broadcast_.add(b.created, static_cast<double>(b.last_reception - b.created));
  }
  // A broadcast of an L-flit packet owes L flits to each of `receivers` nodes.
  void on_broadcast_created(bool measured, int flits, int receivers, Cycle t) {
    ++broadcasts_created;
    ++packets_created;
    flits_created += static_cast<std::uint64_t>(flits) * receivers;
    if (measured) ++measured_created;
    if (in_window(t)) offered_flits_window += static_cast<std::uint64_t>(flits) * receivers;
  }
  Summary broadcast_delay() const { return broadcast_.summarize(batches_); }
  Summary reception_delay() const { return reception_.summarize(batches_); }
  // Keep every delivered packet's record (tests and traces that check individual messages).
  struct Record {
    int src, dst, flits, priority;
    Cycle created, injected, delivered;
  };
  void keep_records(bool on) { keep_records_ = on; }
  // Per-flow accumulators for `nodes` terminals (nodes^2 of them, source-major); 0: none.
  void track_flows(int nodes) {
    flow_nodes_ = static_cast<std::size_t>(nodes);
    flows_.assign(flow_nodes_ * flow_nodes_, FlowAccumulator{});
  }
  // flows()[src * nodes + dst]; empty unless track_flows.
  const std::vector<FlowAccumulator>& flows() const { return flows_; }
  const std::vector<Record>& records() const { return records_; }
  std::uint64_t measured_outstanding() const { return measured_created - measured_delivered; }

  // Measures per priority class (priorities > 1) and per traffic class (traffic_classes > 1);
  // none when both are 1.
  void track_classes(int priorities, int traffic_classes);
  bool tracks_classes() const { return classes_; }
  const std::vector<ClassStats>& by_priority() const { return by_priority_; }
  const std::vector<ClassStats>& by_traffic_class() const { return by_traffic_; }
  int batches() const { return batches_; }

  Summary latency() const { return lat_.summarize(batches_); }
  // Measured latencies in bins of `bin` cycles: bins + 1 counts, the last for everything above.
  std::vector<std::uint64_t> latency_histogram(double bin, int bins) const;
  Summary network_latency() const { return net_.summarize(batches_); }

  std::uint64_t packets_created = 0, packets_delivered = 0;
  std::uint64_t measured_created = 0, measured_delivered = 0;
  std::uint64_t flits_created = 0, flits_injected = 0, flits_delivered = 0;
  std::uint64_t offered_flits_window = 0, accepted_flits_window = 0;
  std::uint64_t order_errors = 0;
  std::uint64_t zero_hop = 0;  // packets to their own node delivered by the NI (delay 0)
  std::uint64_t broadcasts_created = 0, broadcasts_done = 0, broadcast_transmissions = 0;
  Cycle last_delivery = 0;

 private:
  Cycle w0_, w1_;
  int batches_;
  std::vector<Record> records_;
  std::vector<FlowAccumulator> flows_;
  std::size_t flow_nodes_ = 0;
  SampleSet lat_, net_, broadcast_, reception_;
  bool keep_records_ = false;
  bool classes_ = false;
  std::vector<ClassStats> by_priority_, by_traffic_;
  void on_class_delivered(const Measured& m);
};

// Two-sided 97.5% quantile of Student's t with df degrees of freedom.
double student_t975(int df);

}  // namespace sy
