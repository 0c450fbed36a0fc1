// Dynamic broadcasting by repeated partial multinode broadcasts (Varvarigos & Bertsekas), on the
// model: traffic.broadcast.scheme pmnb_iii or pmnb_ii on a hypercube of ideal store-and-forward
// all-port nodes. Broadcast packets arrive at the nodes (the same Poisson sources as every other
// broadcast scheme) and wait in a FIFO per node. PMNB periods run back to back: at a period's
// start every node with a waiting packet that arrived before it contributes its oldest one
// (gated), and the period runs the static algorithm (its scans as real messages, then packing and
// broadcast) as a slot schedule through the ScheduleDriver; the next period starts when its last
// reception is in (period: exact) or, as the theorem assumes, when V + M X slots have passed
// (period: theorem, the default: the schedule always fits, f(M) <= V + M X). A period with no
// packet still runs its scans (the reservation); exact with no scans (t_p = 0): one slot.
//
// Measured (all from the model): per packet the delay from its arrival to the end of its period
// (the paper's T) and to its last reception; per period M (mean and second moment, hence the
// paper's a) and the length. Beside them: the theorem's rho, V, X, W and T (with the measured a
// and with its bounds) and the stability limit.
#pragma once
#include <deque>
#include <memory>
#include <systemc>
#include <vector>

#include "switchyard/base/message.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/network/stats.hpp"
#include "switchyard/topology/topology.hpp"

namespace sy {

class Network;
class ScheduleDriver;
struct Schedule;

struct DynamicPmnbResult {
  std::string algorithm;  // "III" or "II"
  std::string period;     // "theorem" (V + M X) or "exact"
  int d = 0, N = 0;
  double scan_slots = 0;      // t_p
  double slot_cycles = 0;     // a whole-packet slot: delta + L tau
  std::uint64_t periods = 0;  // periods started
  std::uint64_t empty_periods = 0;
  double mean_M = 0, mean_M2 = 0;    // per period (all periods started)
  double mean_period_slots = 0;      // of finished periods
  double a_measured = 0;             // E[M^2] / (2 N E[M]) - 1/(2N)
  double lambda = 0;                 // arrivals per node per slot (offered)
  double rho_thm = 0;                // lambda N X
  double rho_17 = 0;                 // lambda (N - 1) / d (the load key)
  double X = 0, V = 0;               // the theorem's per-packet and reservation times (slots)
  double limit_rho = 0;              // stable iff rho_thm < 1 / (1 + V / (N X))
  double W = 0, T = 0;               // the theorem's waiting and total delay, with a measured
  double T_lo = 0, T_hi = 0;         // T with a at its lower bound and at 1/2 - 1/(2N)
  bool theorem_stable = false;       // rho_thm + lambda V < 1
  Summary period_end_delay;          // arrival -> end of its period (cycles)
  std::uint64_t waiting_at_end = 0;  // packets still in the FIFOs when the run ended
};

class DynamicPmnb : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(DynamicPmnb);
  DynamicPmnb(sc_core::sc_module_name name, const Config& cfg, Network& net, Stats& stats);
  ~DynamicPmnb() override;
  // A broadcast packet of `flits` arrives at `node` at cycle `at` (from its NI).
  void arrival(int node, int flits, Cycle at, bool measured);
  std::uint64_t waiting() const { return waiting_; }
  DynamicPmnbResult result() const;

 private:
  struct Packet {
    Cycle created;
    bool measured;
  };
  void start_period();  // SC_METHOD on start_ev_
  void item_in(int batch, int item, int node, Cycle t);
  void period_done(int batch, Cycle t);
  void finish_period(Cycle t);  // its last reception is in at t: the next one starts
  Schedule period_schedule(const std::vector<int>& sources) const;
  double theorem_X() const;
  double theorem_V() const;
  const Config& cfg_;
  const Topology topo_;
  Stats& stats_;
  std::unique_ptr<ScheduleDriver> driver_;
  const int d_, N_, L_;
  const double tp_;
  const bool split_;   // algorithm II
  const bool padded_;  // period: theorem (V + M X) rather than exact (the schedule's length)
  const Cycle slot_;   // a whole-packet slot, cycles
  std::vector<std::deque<Packet>> fifo_;
  std::uint64_t waiting_ = 0;
  bool running_ = false;  // a period is running or its start is scheduled
  sc_core::sc_event start_ev_;
  Cycle next_start_ = 0;
  // The running period: its packets (by item), their records, pieces still owed per node.
  int batch_ = -1;
  Cycle period_start_ = 0;
  std::vector<int> item_packet_;  // item -> index into rec_ (-1: a scan message)
  std::vector<BroadcastRecord> rec_;
  std::vector<std::uint16_t> pieces_left_;  // [packet * N + node]
  // Statistics.
  std::uint64_t periods_ = 0, empty_ = 0, periods_done_ = 0;
  double sum_M_ = 0, sum_M2_ = 0, sum_len_ = 0;
  SampleSet period_end_;
  int batches_;
};

}  // namespace sy
