// Dynamic broadcasting by PMNB periods as a plug-in (traffic.broadcast.scheme pmnb_iii or
// pmnb_ii): attaches a DynamicPmnb (schemes/pmnb/dynamic.hpp) that takes the broadcasts at the
// NIs and runs the periods, and reports them ("pmnb" in results.json, three summary lines): the
// model's delays in slots beside the theorem's.
#pragma once
#include "switchyard/schemes/pmnb/dynamic.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

class DynamicPmnbPlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void attach(Network& net) override;
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;

  DynamicPmnbResult result;
  Summary broadcast_delay, reception_delay;  // cycles (the network's broadcast statistics)

 private:
  DynamicPmnb* pmnb_ = nullptr;  // a SystemC module: lives as long as the process, as the network
};

}  // namespace sy
