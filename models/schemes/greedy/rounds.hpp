// The idling scheme of the greedy-routing paper (Stamoulis & Tsitsiklis, section 2.3): the first
// phase of [VaB81] run again and again. At the start of a round every node that has a packet
// waiting starts one (its oldest); the packets are routed as the network routes them (e-cube on
// the hypercube: the greedy scheme's own paths, FIFO at every arc); when the last of them has
// been received, the next round begins and the nodes with packets waiting then start one each.
// Packets keep arriving by the configured process and wait at their source (their delay counts
// from their creation). The paper: each node is then an M/G/1 queue whose service is about a
// round, R d packet times, so it can be stable only for lambda R d <= 1, rho <= p/(R d) (1/(2Rd)
// at p = 1/2), while the greedy (non-idling) scheme is stable for every rho < 1.
// RoundsGate is that barrier as an InjectionGate (network/injection_gate.hpp): the model
// observes the round's end (the last reception), no formula does. A round takes at least one
// cycle (a round of zero-hop packets only ends in its own cycle; the next begins one later).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "switchyard/network/injection_gate.hpp"

namespace sy {

class Stats;

// Rounds' lengths in cycles: count, sum, sum of squares, extremes.
struct RoundLengths {
  std::uint64_t count = 0;
  double sum = 0, sum2 = 0;
  Cycle min = 0, max = 0;
  void add(Cycle len) {
    min = count == 0 ? len : std::min(min, len);
    max = std::max(max, len);
    ++count;
    sum += static_cast<double>(len);
    sum2 += static_cast<double>(len) * static_cast<double>(len);
  }
  double mean() const { return count ? sum / static_cast<double>(count) : 0.0; }
  // 1.96 standard errors of the mean (the rounds of a saturated network are independent: each
  // begins empty with a fresh packet at every node); 0 below two rounds.
  double ci95() const;
};

class RoundsGate : public InjectionGate {
 public:
  // nodes: the NIs; stats: its measurement window (rounds that begin inside it are counted).
  RoundsGate(int nodes, const Stats& stats);
  bool take(int node, Cycle t) override;
  void finished(Cycle done) override;
  // The run is over: the last round, if every packet of it has been received, is counted too.
  void flush();

  int nodes() const { return nodes_; }
  // Rounds begun in the window: all of them, and those every node took part in ("full": what a
  // node's service is when packets always wait there).
  const RoundLengths& all() const { return all_; }
  const RoundLengths& full() const { return full_; }
  double mean_participants() const {
    return all_.count ? participants_sum_ / static_cast<double>(all_.count) : 0.0;
  }
  std::uint64_t rounds_total() const { return round_; }  // every round begun, window or not

 private:
  void close_round();
  int nodes_;
  const Stats& stats_;
  std::vector<std::uint64_t> joined_;  // per node: the last round it started a packet in
  std::uint64_t round_ = 0;            // rounds begun (the current one's number; 0: none yet)
  Cycle start_ = kNever;               // the current round's first cycle
  Cycle end_ = 0;                      // its latest reception so far
  Cycle open_at_ = 0;                  // the next round may begin from this cycle
  std::uint64_t outstanding_ = 0;      // its packets not yet received
  int participants_ = 0;
  bool recorded_ = true;  // the current round is counted already (or there is none)
  RoundLengths all_, full_;
  double participants_sum_ = 0;
};

}  // namespace sy
