// Traffic classes (traffic.classes) and the per-class results: by priority class and by
// traffic class, in results.json and the summary; no value where nothing was measured.
#include <gtest/gtest.h>

#include <cmath>

#include "helpers.hpp"

namespace sy {
namespace {

const char* kTwoClasses =
    "topology: {type: torus, dims: [4, 4]}\n"
    "router: {vcs: 2, vc_depth: 4, priority_classes: 2}\n"
    "traffic:\n"
    "  rate: 0.2\n"
    "  classes:\n"
    "    - {name: ctl, share: 0.2, packet_flits: 1, priority: 0}\n"
    "    - {name: data, share: 0.8, packet_flits: 8, priority: 1}\n"
    "simulation: {warmup: 500, measure: 6000, seed: 4}\n";

TEST(Classes, EachClassOffersItsShareAndTheClassesAddUpToTheTotal) {
  const Results r = test::run(kTwoClasses);
  ASSERT_EQ(r.by_traffic_class.size(), 2u);
  ASSERT_EQ(r.by_priority.size(), 2u);
  const ClassResult& ctl = r.by_traffic_class[0];
  const ClassResult& data = r.by_traffic_class[1];
  EXPECT_EQ(ctl.name, "ctl");
  EXPECT_EQ(data.packet_flits, 8);
  // Shares of the flits offered (Bernoulli sources: within a few percent over 6,000 cycles).
  EXPECT_NEAR(ctl.offered, 0.2 * 0.2, 0.2 * 0.2 * 0.1);
  EXPECT_NEAR(data.offered, 0.8 * 0.2, 0.8 * 0.2 * 0.05);
  // The classes partition the packets: offered, accepted and measured add up to the totals.
  EXPECT_NEAR(ctl.offered + data.offered, r.offered, 1e-12);
  EXPECT_NEAR(ctl.accepted + data.accepted, r.accepted, 1e-12);
  EXPECT_EQ(ctl.latency.count + data.latency.count, r.latency.count);
  // Here each traffic class is its own priority class: the same numbers.
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(r.by_priority[c].latency.count, r.by_traffic_class[c].latency.count);
    EXPECT_EQ(r.by_priority[c].accepted, r.by_traffic_class[c].accepted);
  }
  // One-flit packets at the higher priority wait less than 8-flit ones (L*tau alone is 7 more).
  EXPECT_LT(ctl.latency.mean + 7, data.latency.mean);
  // The mean packet length enters the zero-load check: alpha + h*delta + mean L * tau.
  const double L = (0.04 / 1 * 1 + 0.16 / 8 * 8) / (0.04 / 1 + 0.16 / 8);
  EXPECT_NEAR(r.packet_time, L, 1e-9);
  const std::string js = r.to_json();
  EXPECT_NE(js.find("\"by_traffic_class\": ["), std::string::npos);
  EXPECT_NE(js.find("\"name\": \"data\""), std::string::npos);
  EXPECT_NE(r.summary().find("class ctl (1 flit, priority 0)"), std::string::npos) << r.summary();
}

// Four classes: every class's sources are in the arrival calendar (it once held 2N streams,
// enough for two classes and broadcasts: with more classes the sources wrote past it, which
// crashed or hung the run; the sanitizer build reports it at once).
TEST(Classes, FourClassesEachOfferTheirShare) {
  const Results r = test::run(
      "topology: {type: mesh, dims: [4, 4]}\n"
      "router: {vcs: 2, vc_depth: 4, priority_classes: 4}\n"
      "traffic:\n"
      "  rate: 0.2\n"
      "  classes:\n"
      "    - {share: 0.25, packet_flits: 1, priority: 0}\n"
      "    - {share: 0.25, packet_flits: 2, priority: 1}\n"
      "    - {share: 0.25, packet_flits: 3, priority: 2}\n"
      "    - {share: 0.25, packet_flits: 4, priority: 3}\n"
      "simulation: {warmup: 500, measure: 6000, seed: 7}\n");
  ASSERT_EQ(r.by_traffic_class.size(), 4u);
  double offered = 0;
  for (int c = 0; c < 4; ++c) {
    EXPECT_NEAR(r.by_traffic_class[c].offered, 0.25 * 0.2, 0.25 * 0.2 * 0.1) << c;
    EXPECT_GT(r.by_traffic_class[c].latency.count, 0u) << c;
    offered += r.by_traffic_class[c].offered;
  }
  EXPECT_NEAR(offered, r.offered, 1e-12);
}

TEST(Classes, OneClassRunsHaveNoClassSections) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {rate: 0.1, packet_flits: 4}\n"
      "simulation: {warmup: 200, measure: 1000}\n");
  EXPECT_TRUE(r.by_priority.empty());
  EXPECT_TRUE(r.by_traffic_class.empty());
  EXPECT_EQ(r.to_json().find("by_traffic_class"), std::string::npos);
}

// Nothing measured: null, not 0, in results.json; the counts stay numbers.
TEST(Classes, NoSamplesAreNullNotZero) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {rate: 0}\n"
      "simulation: {warmup: 100, measure: 500}\n");
  EXPECT_EQ(r.latency.count, 0u);
  const std::string js = r.to_json();
  const auto at = js.find("\n  \"latency\": {");
  ASSERT_NE(at, std::string::npos);
  const std::string lat = js.substr(at, js.find('}', at) - at);
  for (const char* k : {"mean", "ci95", "p50", "p99", "p99_9", "max", "batch_lag1"})
    EXPECT_NE(lat.find("\"" + std::string(k) + "\": null"), std::string::npos) << k << lat;
  EXPECT_NE(lat.find("\"count\": 0"), std::string::npos) << lat;
  // The sweep row leaves the latency fields empty.
  EXPECT_NE(r.csv_row().find(",,,,,"), std::string::npos) << r.csv_row();
}

TEST(Classes, BadClassListsAreConfigErrors) {
  const std::string head =
      "topology: {type: torus, dims: [4, 4]}\nrouter: {priority_classes: 2}\ntraffic:\n";
  const std::pair<const char*, const char*> cases[] = {
      {"  classes: [{share: 0.5}, {share: 0.4}]\n", "add up to 0.9, not 1"},
      {"  classes: [{share: 1}]\n", "2 to 8 classes"},
      {"  packet_flits: 4\n  classes: [{share: 0.5}, {share: 0.5}]\n",
       "traffic.packet_flits: given per class"},
      {"  classes: [{name: a, share: 0.5}, {name: a, share: 0.5}]\n", "a second class named 'a'"},
      {"  classes: [{name: 'a b', share: 0.5}, {share: 0.5}]\n", "1 to 32 letters"},
      {"  classes: [{share: 0.5, priority: 2}, {share: 0.5}]\n", "traffic.classes[0].priority"},
      {"  classes: [{share: 0.5, colour: red}, {share: 0.5}]\n", "colour"},
  };
  for (const auto& [yaml, want] : cases) {
    const std::string e = test::config_error(head + yaml);
    EXPECT_NE(e.find(want), std::string::npos) << yaml << ": " << e;
  }
}

}  // namespace
}  // namespace sy
