// Plug-ins (sim/plugin.hpp): a scheme that exists only in this file -- a "ring broadcast" that
// sends every broadcast once around dimension 0 in the + direction -- plugs into the network
// through the core's interfaces (a ReplicationRule) and reports through a section of its own,
// with no edit to the core, to Results or to run_simulation. And the registry's sections appear
// exactly when they apply, in results.json and the summary.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "helpers.hpp"
#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "tlm_initiator.hpp"

using namespace sy;

namespace {

// The tree: the source's copy goes to its + neighbour, each node forwards it to its own +
// neighbour until the next one would be the source. N-1 hops in a row, one copy per node.
class RingRule final : public ReplicationRule {
 public:
  explicit RingRule(const Topology& t) : topo_(t), plus_(t.port_of(0, +1)) {}
  void plan(BroadcastRecord& b, int src, Rng&) const override {
    b.ending_dim = 0;
    b.tree_src = src;
    b.antipode_dir = 1;
  }
  int children(int node, int root, int, int, int* out_ports, int) const override {
    if (topo_.neighbor(node, plus_) == root) return 0;
    out_ports[0] = plus_;
    return 1;
  }
  int vc_class(int, int) const override { return 0; }
  bool low_priority(int, int) const override { return false; }

 private:
  const Topology& topo_;
  const int plus_;
};

class RingBroadcast : public Plugin {
 public:
  static std::unique_ptr<Plugin> make(const Config& c) {
    if (!c.traffic.broadcast.enabled() || c.topology.dims.size() != 1) return nullptr;
    return std::make_unique<RingBroadcast>();
  }
  void attach(Network& net) override {
    rule_ = std::make_unique<RingRule>(net.topology());
    net.set_replication(rule_.get());  // (after the registry's STAR: this rule is the one used)
  }
  void collect(const Network& net, const Results&) override {
    nodes = net.topology().num_nodes();
    broadcasts = net.stats().broadcasts_done;
    transmissions = net.stats().broadcast_transmissions;
  }
  void json(Json& j) const override {
    j.open("ring_broadcast").kv("broadcasts", broadcasts).kv("transmissions", transmissions);
    j.close();
  }
  void summary(std::ostream& o, SummaryPlace place) const override {
    if (place == SummaryPlace::Head)
      o << "ring broadcast   " << broadcasts << " broadcasts, " << transmissions
        << " transmissions\n";
  }
  std::string unstable_reason() const override {
    return transmissions == broadcasts * static_cast<std::uint64_t>(nodes - 1)
               ? ""
               : "ring broadcast: a broadcast did not take N-1 transmissions";
  }
  int nodes = 0;
  std::uint64_t broadcasts = 0, transmissions = 0;

 private:
  std::unique_ptr<RingRule> rule_;
};

}  // namespace

TEST(Plugins, ARingBroadcastOfTheTestsOwnRunsOnTheModelAndReportsItsSection) {
  const Config cfg = test::cfg(
      "topology: {type: torus, dims: [8]}\n"
      "router: {buffering: output_queued, switching: store_and_forward}\n"
      "timing: {alpha: 0, delta: 1, tau: 1}\n"
      "traffic: {type: none, broadcast: {scheme: fcfs_direct}}\n");
  const int N = 8;
  std::map<int, Cycle> in;  // node -> the cycle it had the broadcast
  std::unique_ptr<test::Initiator> sender;
  RunOptions opt;
  opt.plugins.push_back({"ring_broadcast", &RingBroadcast::make, {}});
  opt.attach = [&](Network& net) {
    sender = std::make_unique<test::Initiator>("s0", [](test::Initiator& i) {
      NocExtension ext;
      ext.broadcast = true;
      EXPECT_EQ(i.send(0, 8, nullptr, &ext), tlm::TLM_OK_RESPONSE);
    });
    sender->out.bind(net.ni(0).target);
    for (int n = 0; n < N; ++n)
      net.ni(n).on_receive([&](const Delivery& d) { in[d.dst] = d.delivered; });
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const RingBroadcast* ring = r.find<RingBroadcast>();
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(ring->broadcasts, 1u);
  EXPECT_EQ(ring->transmissions, 7u);
  // Once around: node k has it k hops after node 1 had it one hop from the source (STAR's tree
  // would reach node 7 first, by the - link).
  ASSERT_EQ(in.size(), 7u);
  const Cycle hop = in[1];
  ASSERT_GT(hop, 0u);
  for (int k = 1; k < N; ++k) EXPECT_EQ(in[k], k * hop) << "node " << k;
  // Its own section, after the registry's, in results.json and the summary.
  const std::string js = r.to_json();
  const auto own = js.find("\n  \"ring_broadcast\": {");
  ASSERT_NE(own, std::string::npos);
  EXPECT_LT(js.find("\n  \"broadcast\": {"), own);
  EXPECT_NE(r.summary().find("ring broadcast   1 broadcasts, 7 transmissions"), std::string::npos);
  // sweep.csv keeps the registry's columns.
  EXPECT_EQ(Results::csv_header().find("ring"), std::string::npos);
}

// The registry's sections appear exactly when their plug-in applies: a plain unicast run has
// none of them, and its sweep row leaves their columns empty.
TEST(Plugins, AUnicastRunHasOnlyTheCoresSections) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {rate: 0.05, packet_flits: 2}\n"
      "simulation: {warmup: 200, measure: 1000, seed: 1}\n");
  EXPECT_TRUE(r.sections.empty());
  const std::string js = r.to_json();
  // (Top-level members: two spaces in; the config's echo is deeper.)
  for (const char* k : {"schedule", "exchange", "broadcast", "star", "greedy", "pmnb"})
    EXPECT_EQ(js.find("\n  \"" + std::string(k) + "\": {"), std::string::npos) << k;
  const std::string row = r.csv_row();
  const std::string head = Results::csv_header();
  EXPECT_EQ(std::count(row.begin(), row.end(), ','), std::count(head.begin(), head.end(), ','));
  // (Every plug-in column empty: collect leaves out a column empty in every run.)
  std::size_t plugin_columns = 0;
  for (const PluginKind& k : plugin_kinds()) plugin_columns += k.csv_columns.size();
  ASSERT_GT(row.size(), plugin_columns);
  EXPECT_EQ(row.substr(row.size() - plugin_columns), std::string(plugin_columns, ',')) << row;
  EXPECT_NE(row[row.size() - plugin_columns - 1], ',') << row;  // (packet_time has its value)
}

// Every registry kind has a name and a factory; the names
// are unique (results.json keys and sweep.csv columns come from them).
TEST(Plugins, TheRegistryIsWellFormed) {
  std::set<std::string> names;
  for (const PluginKind& k : plugin_kinds()) {
    ASSERT_NE(k.name, nullptr);
    EXPECT_NE(k.make, nullptr) << k.name;
    EXPECT_TRUE(names.insert(k.name).second) << "duplicate " << k.name;
  }
  EXPECT_GE(names.size(), 5u);
}
