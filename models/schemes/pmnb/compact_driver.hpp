// CompactSlotDriver: runs a CompactSlotPlan (schemes/pmnb/mnb.hpp: one-hop transmissions packed 4
// bytes each, grouped by slot and dimension) on the cycle model, for the sizes whose Schedule would
// not fit in memory (the PMNB paper's Example, N = 2^16). Same semantics as ScheduleDriver's slots
// timing: a transmission is requested when its sender holds its item, at the start of its slot at
// the earliest (slot s starts at cycle s * S, S = delta + U tau), its hop not before the slot's
// start
// + delta. It walks the plan slot by slot (an SC_THREAD woken at each slot's start) instead of
// linking every transmission to the one that feeds it: a sender that does not hold the item yet
// (its reception is in at that very cycle, or the model is late) waits for it, and sends when it
// is in. What the nodes hold is a bitset (broadcast items x nodes). Before the run the plan is
// checked for a link used twice in one slot (the only plan error the run itself cannot show);
// that every node got every item it is owed is the run's result, as with ScheduleDriver.
// A streamed plan (the optimal MNB's tree, CompactSlotPlan::tree) is walked the same way, its
// hops made slot by slot from the tree in the same order: nothing is held per hop.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "switchyard/config/config.hpp"
#include "switchyard/network/noc_extension.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/schedule_driver.hpp"

namespace sy {

class Network;

class CompactSlotDriver : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CompactSlotDriver);
  // Throws std::runtime_error when the plan uses a link twice in a slot.
  CompactSlotDriver(sc_core::sc_module_name name, const Config& cfg, Network& net,
                    CompactSlotPlan plan);
  ~CompactSlotDriver() override;
  const Schedule& schedule() const { return plan_.header; }
  ScheduleResult result() const;
  std::uint64_t waited() const { return waited_; }  // sends that waited for their item

 private:
  void run();
  using Hop = CompactSlotPlan::Hop;
  void issue(const Hop& h);
  void send(const Hop& h, Cycle start);
  void received(const Delivery& d);
  bool held(int item, int node) const {
    const std::uint64_t b = static_cast<std::uint64_t>(item) * N_ + static_cast<unsigned>(node);
    return held_[b >> 6] >> (b & 63) & 1;
  }
  const Config& cfg_;
  const Topology topo_;
  CompactSlotPlan plan_;
  int N_ = 0, B_ = 0;  // nodes; broadcast items (items 0..B-1; the rest point to point)
  Cycle S_ = 1;        // cycles per slot
  std::vector<std::uint64_t> held_;
  // Sends waiting for their item: (item, node) -> a chain in waiting_ (index, -1 ends).
  std::unordered_map<std::uint64_t, int> wait_head_;
  struct Waiting {
    Hop hop;
    int next;
  };
  std::vector<Waiting> waiting_;
  std::vector<int> got_;     // per item: destinations that have it
  std::vector<Cycle> last_;  // per item: when its last destination got it
  std::vector<int> receptions_, expected_;
  std::uint64_t returns_ = 0, sent_ = 0, sent_broadcast_ = 0, refused_ = 0, waited_ = 0;
  std::uint64_t unexpected_ = 0;  // point-to-point items at a node they are not for
  Cycle completion_ = 0;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<CompactSlotDriver>>> out_;
  tlm::tlm_generic_payload gp_;
  NocExtension ext_;
};

}  // namespace sy
