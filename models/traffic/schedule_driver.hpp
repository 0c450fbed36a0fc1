// ScheduleDriver: runs static communication algorithms (Schedules) on the cycle model. Each
// transmission goes through its sender's NI target socket as a message with a source route;
// receptions come back through the NIs' receive callbacks. The times it reports come from the
// model; the schedule's own plan and the paper's closed form are printed beside them.
//  - phases timing (circuit schedules): each node executes its program in phase order; it starts
//    a phase when it holds every item the phase sends and all its earlier transmissions have
//    been released (the paper's phase: a node is in one phase at a time). With schedule.barrier
//    the phases are synchronous instead: phase p starts everywhere when the last transmission of
//    p-1 is in.
//  - slots timing (store-and-forward slot schedules): a transmission is requested when its
//    sender holds its item, at the start of its first slot at the earliest (slot s starts at
//    cycle start + s * S, S = delta + U * tau, U = the schedule's slot_flits()); hop k carries a
//    not-before of its slot's start + delta (its header switched at the start of its slot), so
//    each packet crosses each link in its slot and is in at the next node when the slot ends
//    (when its last slot ends, for an item of several slots with delta = 0), unless the model
//    is slower than the plan.
// Slot schedules can be appended while the simulation runs (batches: the periods of a dynamic
// algorithm), each from its own start cycle; a callback says when a batch is complete.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/network/noc_extension.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

class Network;

struct ScheduleResult {
  std::string algorithm, variant;
  bool slots = false;     // slots timing (else phases)
  Cycle slot_cycles = 0;  // slots timing: cycles per slot
  Cycle completion = 0;   // the last destination holds the last item (cycles, from the model)
  int phases = 0, parts = 0;
  int batches = 1;                  // schedules run (periods of a dynamic algorithm)
  int nodes_informed = 0;           // nodes that got every item addressed to them
  int nodes_expected = 0;           // nodes some item is addressed to
  int receptions_per_node_max = 0;  // most items one node received
  std::uint64_t duplicates = 0;     // receptions of an item a node already held (not planned)
  std::uint64_t returns = 0;        // the same, planned (schedules that allow returns)
  std::uint64_t transmissions = 0, refused = 0;
  std::uint64_t broadcast_transmissions = 0;  // of those, sends of broadcast items (not scans)
  double mean_delivery = 0;           // mean over items of the cycle its last destination got it
  double mean_delivery_slots = 0;     // slots: the same in slots (in at the end of slot w: w + 1)
  std::vector<Cycle> item_delivered;  // per item (kNever: not delivered)
  double planned = 0;  // the schedule's own plan: phase sum (phases) or slots x S (slots)
  // Filled by the scheme that made the schedule (schemes/schedules.cpp), not by the driver:
  double formula = 0;  // the paper's closed form for this algorithm and size (or the plan)
  double alpha_terms = 0, delta_terms = 0, ltau_terms = 0;  // the formula's coefficients
  std::string formula_text;
  double lower_bound = 0;         // Proposition 1 for circuit broadcasts (0: none)
  double upper_bound = 0;         // the paper's stated bound, where it states one (0: none)
  double packet_slot_cycles = 0;  // slots of a whole packet (delta + L tau): PMNB's time unit
  // Pipelined circuit broadcasts with B not dividing the message: the last packet's flits (0:
  // every packet B), and the paper's real-valued B_opt and T(B_opt) (0: none).
  int last_packet_flits = 0;
  double paper_optimal_packet = 0, paper_optimal_time = 0;
};

class ScheduleDriver : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ScheduleDriver);
  // Binds one initiator per node to the network's NIs and runs `plan` (checked: throws
  // std::runtime_error when it is not valid) from cycle 0.
  ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net, Schedule plan);
  // The same, with no schedule yet: it waits for append().
  ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net);
  ~ScheduleDriver() override;
  const Schedule& schedule() const { return batches_.front().s; }
  ScheduleResult result() const;
  // Slots timing: runs `s` (checked) with its slot 0 at cycle `start` (>= now); returns its
  // batch id. Its first item is item `items_so_far` in the results.
  int append(Schedule s, Cycle start);
  // Called when a batch's last destination reception is in, with that cycle.
  std::function<void(int batch, Cycle done)> on_batch_done;
  // Called at each first reception of an item at one of its destinations (batch, item, node).
  std::function<void(int batch, int item, int node, Cycle t)> on_item_in;
  // Free a batch's tables once every transmission of it is in (long runs of many batches; the
  // per-item results of those batches are then not kept).
  bool release_finished = false;
  // Its messages left out of the latency samples (the hops of a dynamic scheme's periods).
  void unmeasured(bool on) { ext_.unmeasured = on; }
  Cycle slot_cycles(const Schedule& s) const;

 private:
  // One schedule being run: its transmissions are global ids tx_base .. tx_base + T - 1.
  struct Batch {
    Schedule s;
    std::size_t tx_base = 0;
    int item_base = 0;
    Cycle start = 0, slot = 1;
    std::size_t dest_left = 0;  // destination receptions still owed
    std::size_t tx_left = 0;    // transmissions not yet in
    // Per transmission: the transmission that first brings its item to its sender (-1: the
    // sender is the item's source), the ones it feeds (CSR), whether it is the first to bring
    // its item to the node it ends at (and that node a destination), when it was in.
    std::vector<int> feed, fed_start, fed;
    std::vector<char> first, to_dest, sent;
    std::vector<Cycle> delivered;
  };
  void bind(Network& net);
  void prepare(Batch& b);
  void kick();
  void received(const Delivery& d);
  void try_start(int node);
  void start_phase(int phase, Cycle at);
  void send(Batch& b, int id, Cycle start);
  Cycle held_since(const Batch& b, int tx) const;  // when tx's sender holds its item
  const Config& cfg_;
  const Topology topo_;
  std::vector<Batch> batches_;
  const bool barrier_;
  std::vector<int> phase_left_;   // barrier: transmissions of each phase not yet in
  std::vector<Cycle> phase_end_;  // barrier: when each phase's last one was in
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<ScheduleDriver>>> out_;
  std::vector<std::vector<int>> program_;   // phases: per node its transmissions by phase
  std::vector<std::size_t> next_;           // phases: per node next transmission to start
  std::vector<int> outstanding_;            // phases: per node transmissions not yet released
  std::vector<Cycle> released_;             // phases: per node when its last one was released
  std::vector<int> receptions_, expected_;  // per node: items received first time, addressed
  std::uint64_t duplicates_ = 0, sent_ = 0, refused_ = 0, sent_broadcast_ = 0;
  std::size_t tx_total_ = 0;
  int items_total_ = 0;
  tlm::tlm_generic_payload gp_;
  NocExtension ext_;
};

}  // namespace sy
