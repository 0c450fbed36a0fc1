// Static schedules as a plug-in (schedule.algorithm set): builds the algorithm's schedule
// (schemes/schedules.hpp), runs it on the model through a ScheduleDriver bound to the NIs, and
// reports its completion from the model beside the paper's closed form ("schedule" in
// results.json), and for an isotropic task by a slot schedule the task's numbers beside the
// paper's formulas ("exchange"). A schedule that does not deliver every item exactly once makes
// the run not stable.
#pragma once
#include <optional>
#include <string>

#include "switchyard/schemes/pmnb/compact_driver.hpp"
#include "switchyard/schemes/schedules.hpp"
#include "switchyard/sim/plugin.hpp"
#include "switchyard/traffic/schedule_driver.hpp"

namespace sy {

// An isotropic task by a slot schedule (schedule.algorithm total_exchange | octr | oadd |
// greedy): the model's completion and average delay in slots, and link utilization from the
// links' own counters, beside the paper's formulas (schemes/schedules.hpp ExchangeFormulas).
struct ExchangeResult {
  std::string algorithm, task;
  int h = 0, h_rows = 0, h_cols = 0;  // the task matrix's critical, largest row, column sums
  long long sigma = 0;                // its total sum (hops per node)
  int links = 0;                      // the k-link limit (0: all-port)
  double completion_time = 0;         // slots until the last packet is in (model)
  double average_delay = 0;  // mean over the packets of the slot each is in, 1-based (model)
  double utilization = 0;    // link-slots used / link-slots up to completion (model's links)
  ExchangeFormulas formulas;
};

class SchedulePlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void attach(Network& net) override;
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;
  std::string unstable_reason() const override;

  ScheduleResult result;
  std::optional<ExchangeResult> exchange;  // isotropic tasks (slot schedules) only

 private:
  ScheduleDriver* driver_ = nullptr;      // a SystemC module: lives as long as the process
  CompactSlotDriver* compact_ = nullptr;  // schedule.compact_plan (the same, for big plans)
};

}  // namespace sy
