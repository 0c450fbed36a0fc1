// Plug-ins: what a scheme (and later an energy model or an RTL router) adds to one run, and the
// section of the results it owns. The core (router, network, topology, traffic) knows only small
// interfaces -- a replication rule for router-level broadcast, the NIs' sockets and receive
// callbacks for a driver of scheduled traffic, a broadcast request hook, a backlog count; a
// plug-in implements them in schemes/<name>/ and installs them in attach(). After the run it
// reads what it needs and writes its own part of results.json, of the printed summary and of
// sweep.csv.
//
// Adding one: a class derived from Plugin in its own file(s), and one line in the registry
// (sim/registry.cpp) with its name, its factory (null when it does not apply to the config) and
// its sweep.csv columns. The registry's order is the order of the sections in results.json and
// in the summary (docs/design.md, "Plug-ins").
#pragma once
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "switchyard/config/config.hpp"

namespace sy {

class Json;
class Network;
struct Results;

// Where a summary line goes: before the core's latency lines (what ran: a schedule, broadcasts)
// or after the core's link line (a paper's bounds beside the model's numbers).
enum class SummaryPlace { Head, Tail };

class Plugin {
 public:
  virtual ~Plugin() = default;
  // Before the run: the network is built and not started. Install what the plug-in needs
  // (a replication rule, a driver bound to the NIs, a broadcast hook).
  virtual void attach(Network& net) { (void)net; }
  // After the run: read its results from the network and from the core's results (which are
  // complete except the verdict: `stable` may still be changed by a plug-in's check).
  virtual void collect(const Network& net, const Results& core) = 0;
  // Its members of the top-level results.json object.
  virtual void json(Json& j) const = 0;
  // Its summary lines at `place` (each ending in a newline).
  virtual void summary(std::ostream& o, SummaryPlace place) const {
    (void)o;
    (void)place;
  }
  // Its sweep.csv values, one per column its kind declares (PluginKind::csv_columns); NaN for
  // none (an empty field).
  virtual void csv(std::vector<double>& values) const { (void)values; }
  // Why its check fails ("": nothing wrong): the run is then not stable.
  virtual std::string unstable_reason() const { return {}; }
};

struct PluginKind {
  const char* name;
  // The plug-in for this run, or null when it does not apply to the config.
  std::unique_ptr<Plugin> (*make)(const Config& cfg);
  // Its sweep.csv columns (empty fields in a run it does not apply to).
  std::vector<const char*> csv_columns;
};

// Every kind, in the order their sections are written (sim/registry.cpp).
const std::vector<PluginKind>& plugin_kinds();

}  // namespace sy
