// Energy, power and area as a plug-in (power: in the config; GUIDE §11): before the run it has
// every router count its units' events (Network::count_activity); after it, it prices the
// events of the measurement window with the units' models (power/power_model.hpp) for the
// configured technology, adds leakage over the window's time and the area, and reports them:
// "power" in results.json (per unit class and in total; per router and per link), a summary
// line, sweep.csv columns.
#pragma once
#include <array>
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/power/power_model.hpp"
#include "switchyard/router/activity.hpp"
#include "switchyard/sim/plugin.hpp"

namespace sy {

class Router;

class PowerPlugin : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& cfg);
  void attach(Network& net) override;
  void collect(const Network& net, const Results& core) override;
  void json(Json& j) const override;
  void summary(std::ostream& o, SummaryPlace place) const override;
  void csv(std::vector<double>& values) const override;

  // One unit class's totals over the network and the window.
  struct Class {
    const char* name;
    double dynamic_pj = 0, dynamic_mw = 0, leakage_mw = 0, area_mm2 = 0;
  };
  enum { kBuffers, kCrossbar, kAllocators, kClock, kLinks, kClasses };
  Class classes[kClasses] = {{"buffers"}, {"crossbar"}, {"allocators"}, {"clock"}, {"links"}};
  Class total{"total"};
  RouterShape shape;
  RouterModel router;
  LinkModel link;  // a link_length_mm long one
  // Per topology link class: its length, model, links and their flits in the window.
  struct LinkClass {
    std::string name;
    double length_mm;
    LinkModel model;
    int links;
    double flits;
  };
  std::vector<LinkClass> link_classes;
  std::string tech;
  bool buffered = true;  // not a circuit router
  bool clock_gating = false;
  double window_cycles = 0, window_ns = 0;
  double flits_delivered = 0;      // in the window
  double pj_per_flit = 0;          // dynamic + leakage energy over the window per delivered flit
  double dynamic_pj_per_flit = 0;  // the dynamic part
  double pj_per_bit = 0;           // pj_per_flit / flit bits
  // The window's events, summed over the routers (router/activity.hpp) and the links' flits.
  RouterActivity events;
  double link_flits = 0;
  std::uint64_t router_cycles = 0;  // the window's cycles times the routers
  // Per router (dynamic, leakage) and per link (dynamic; leakage is the same for every link),
  // in mW; links in the order of links.utilization.
  std::vector<double> router_dynamic_mw, link_dynamic_mw;
  double router_leakage_mw = 0, link_leakage_mw = 0;  // (links: the mean)

 private:
  void price(const Config& cfg, const Topology& topo);
  std::array<double, 4> energy(const RouterActivity& a, double cycles) const;
  void wave_update(Cycle t);
  // waves.power: the traced routers, their values and counts at the last update.
  std::vector<Router*> wave_routers_;
  std::vector<std::uint32_t> wave_uw_;
  std::vector<RouterActivity> wave_last_;
  Cycle wave_from_ = 0;
  bool wave_valid_ = false;
  int wave_window_ = 100;
  double wave_ghz_ = 1;
};

}  // namespace sy
