// ScheduleDriver: runs a static communication algorithm (a Schedule) on the cycle model.
// Each node executes its program: its transmissions in phase order; it starts a phase when it
// holds every part the phase sends and all its earlier transmissions have been released (the
// paper's phase: a node is in one phase at a time). With schedule.barrier the phases are
// synchronous instead: phase p starts everywhere when the last transmission of p-1 is in.
// Transmissions go through the node's NI target socket as messages with a source route; receptions
// come back through the NIs' receive callbacks. The broadcast time is when the last node holds the
// whole message — from the model, with the paper's closed form printed beside it.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "base/common.hpp"
#include "config/config.hpp"
#include "network/noc_extension.hpp"
#include "schemes/circuit/circuit_schedule.hpp"
#include "topology/topology.hpp"

namespace sy {

class Network;

struct ScheduleResult {
  std::string algorithm, variant;
  Cycle completion = 0;  // last node holds every part
  int phases = 0, parts = 0;
  int nodes_informed = 0;           // nodes (root excluded) that got every part
  int receptions_per_node_max = 0;  // most receptions at one node (= parts when nothing repeats)
  std::uint64_t duplicates = 0;     // receptions of a part a node already had
  std::uint64_t transmissions = 0, refused = 0;
  CircuitTerms terms;  // the schedule's phase sum as alpha/delta/flit-time terms
  double formula = 0;  // the paper's closed form for this algorithm and size
  double alpha_terms = 0, delta_terms = 0, ltau_terms = 0;  // the formula's coefficients
  std::string formula_text;
  double lower_bound = 0;  // Proposition 1 for the same torus and parameters
};

class ScheduleDriver : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ScheduleDriver);
  // Builds the schedule from cfg.schedule (throws UnsupportedSchedule with a clear message) and
  // binds one initiator per node to the network's NIs.
  ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net);
  ~ScheduleDriver() override;
  const Schedule& schedule() const { return s_; }
  ScheduleResult result() const;

 private:
  void kick();
  void received(const Delivery& d);
  void try_start(int node);
  void start_phase(int phase, Cycle at);
  void send(int id, Cycle start);
  const Config& cfg_;
  const Topology topo_;
  Schedule s_;
  const bool barrier_;            // synchronous phases: all start when the last ended
  std::vector<int> phase_left_;   // barrier: transmissions of each phase not yet in
  std::vector<Cycle> phase_end_;  // barrier: when each phase's last one was in
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<ScheduleDriver>>> out_;
  std::vector<std::vector<int>> program_;  // per node: its transmissions by phase
  std::vector<std::size_t> next_;          // per node: next transmission to start
  std::vector<int> outstanding_;           // per node: its transmissions not yet released
  std::vector<Cycle> released_;            // per node: when its last transmission was released
  std::vector<std::vector<Cycle>> have_;   // [node][part]: when the node holds it (kNever: not)
  std::vector<int> receptions_;
  std::uint64_t duplicates_ = 0, sent_ = 0, refused_ = 0;
  tlm::tlm_generic_payload gp_;
  NocExtension ext_;
};

}  // namespace sy
