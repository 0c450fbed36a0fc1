// The BookSim2 traffic knobs: on/off (bursty) sources (traffic.process: on_off with
// traffic.burst: {alpha, beta}) and packet lengths drawn per packet (traffic.packet_sizes with
// packet_size_weights). The long-run load is the rate, the on- and off-periods have their means
// 1/beta and 1/alpha, the lengths follow their weights, bad input is an error with file, line and
// key, and a run repeats bit for bit (on any thread count).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace sy {
namespace {

constexpr std::uint64_t kWarmup = 1000, kMeasure = 20000;

// Each source's creation cycles in the window [warmup, warmup + measure), sorted (every packet
// created in the window is measured, so delivered before the run ends).
std::map<int, std::vector<Cycle>> created_by_source(const Results& r) {
  std::map<int, std::vector<Cycle>> by;
  for (const Stats::Record& p : r.packets)
    if (p.created >= kWarmup && p.created < kWarmup + kMeasure) by[p.src].push_back(p.created);
  for (auto& [src, v] : by) std::sort(v.begin(), v.end());
  return by;
}

// With r1 = 1 (rate = alpha / (alpha + beta) packets) a source makes a packet in every on-cycle
// and none in an off-cycle: its runs of consecutive creation cycles are its on-periods, the gaps
// between them its off-periods. alpha 0.1, beta 0.3: on 1/0.3 = 3.33 cycles, off 10 cycles.
TEST(OnOff, OnAndOffPeriodsHaveTheirMeansAndTheLoadIsTheRate) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {process: on_off, burst: {alpha: 0.1, beta: 0.3}, rate: 0.25,\n"
      "          rate_unit: packets, packet_flits: 1}\n"
      "simulation: {warmup: 1000, measure: 20000, seed: 7}\n",
      true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  std::vector<double> on, off;
  std::uint64_t packets = 0, same_cycle = 0;
  for (const auto& [src, v] : created_by_source(r)) {
    packets += v.size();
    std::size_t start = 0;
    for (std::size_t i = 1; i <= v.size(); ++i) {
      if (i < v.size() && v[i] == v[i - 1]) ++same_cycle;
      if (i < v.size() && v[i] == v[i - 1] + 1) continue;
      // A run v[start..i-1]; those touching the window's edges are cut: left out.
      if (start > 0 && i < v.size()) on.push_back(static_cast<double>(i - start));
      if (i < v.size()) off.push_back(static_cast<double>(v[i] - v[i - 1] - 1));
      start = i;
    }
  }
  EXPECT_EQ(same_cycle, 0u);  // at most one packet a cycle
  auto mean = [](const std::vector<double>& x) {
    double s = 0;
    for (double v : x) s += v;
    return s / static_cast<double>(x.size());
  };
  // Geometric lengths: mean 1/p, standard deviation sqrt(1 - p) / p; 5 standard errors.
  ASSERT_GT(on.size(), 10000u);
  std::printf(
      "on-periods %zu, mean %.4f (1/beta 3.3333); off-periods mean %.4f (1/alpha 10); "
      "packets %llu (expected %.0f)\n",
      on.size(), mean(on), mean(off), static_cast<unsigned long long>(packets),
      0.25 * 16 * kMeasure);
  EXPECT_NEAR(mean(on), 1 / 0.3, 5 * std::sqrt(0.7) / 0.3 / std::sqrt(double(on.size())));
  EXPECT_NEAR(mean(off), 1 / 0.1, 5 * std::sqrt(0.9) / 0.1 / std::sqrt(double(off.size())));
  // The long-run load: 0.25 packets per node per cycle. The on-cycles of a two-state chain
  // (lambda = 1 - alpha - beta = 0.6, pi = 0.25) over n node-cycles have variance
  // n pi (1 - pi) (1 + lambda) / (1 - lambda); 5 standard deviations.
  const double n = 16.0 * kMeasure;
  const double sd = std::sqrt(n * 0.25 * 0.75 * 1.6 / 0.4);
  EXPECT_NEAR(static_cast<double>(packets), 0.25 * n, 5 * sd);
  EXPECT_NEAR(r.offered, 0.25, 5 * sd / n);
  // Not a Bernoulli source at 0.25: runs would average 1 / 0.75 = 1.33 cycles.
  EXPECT_GT(mean(on), 3.0);
  EXPECT_TRUE(std::regex_search(
      r.config_json,
      std::regex("\"burst\":\\s*\\{\\s*\"alpha\":\\s*0.1,\\s*\"beta\":\\s*0.3\\s*\\}")))
      << r.config_json;
}

// r1 below 1, the rate in flits: the offered load in the window is the rate. alpha 0.05,
// beta 0.1: the source is on a third of the time, at r1 = 0.05 * 3 = 0.15 packets a cycle.
TEST(OnOff, OfferedFlitsAreTheRateInFlits) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {process: on_off, burst: {alpha: 0.05, beta: 0.1}, rate: 0.2, packet_flits: 4}\n"
      "simulation: {warmup: 1000, measure: 30000, seed: 3}\n");
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  // Packet count variance per node-cycle: r1^2 pi (1 - pi) (1 + lambda) / (1 - lambda) +
  // pi r1 (1 - r1) = 0.104 (lambda = 0.85, pi = 1/3); 5 standard deviations, in flits.
  const double n = 16.0 * 30000;
  const double sd_flits = 4 * std::sqrt(0.104 * n) / n;
  std::printf("offered %.4f flits/node/cycle (0.2, sd %.4f)\n", r.offered, sd_flits);
  EXPECT_NEAR(r.offered, 0.2, 5 * sd_flits);
}

// An independent chain per traffic class, each at its share of the rate.
TEST(OnOff, WorksPerTrafficClass) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {priority_classes: 2}\n"
      "traffic:\n"
      "  process: on_off\n  burst: {alpha: 0.2, beta: 0.2}\n  rate: 0.2\n"
      "  classes:\n"
      "    - {name: ctl, share: 0.25, packet_flits: 1, priority: 0}\n"
      "    - {name: data, share: 0.75, packet_flits: 6, priority: 1}\n"
      "simulation: {warmup: 500, measure: 20000, seed: 2}\n");
  ASSERT_EQ(r.by_traffic_class.size(), 2u);
  EXPECT_NEAR(r.by_traffic_class[0].offered, 0.05, 0.05 * 0.06);
  EXPECT_NEAR(r.by_traffic_class[1].offered, 0.15, 0.15 * 0.06);
}

// packet_sizes [1, 8] weights [3, 1]: 3/4 of the packets 1 flit, 1/4 8 flits, a mean of 2.75
// flits, so 0.2 flits per node per cycle is 0.0727 packets (BookSim2's
// injection_rate_uses_flits).
TEST(PacketSizes, LengthsFollowTheWeightsAndTheRateCountsTheMean) {
  const Results r = test::run(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {rate: 0.2, packet_sizes: [1, 8], packet_size_weights: [3, 1]}\n"
      "simulation: {warmup: 1000, measure: 20000, seed: 5}\n",
      true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  std::uint64_t ones = 0, eights = 0, others = 0;
  for (const Stats::Record& p : r.packets) {
    if (p.created < kWarmup || p.created >= kWarmup + kMeasure) continue;
    (p.flits == 1 ? ones : p.flits == 8 ? eights : others)++;
  }
  EXPECT_EQ(others, 0u);
  const double n = static_cast<double>(ones + eights);
  std::printf("1-flit %llu, 8-flit %llu: share of 1-flit %.4f (0.75), offered %.4f (0.2)\n",
              static_cast<unsigned long long>(ones), static_cast<unsigned long long>(eights),
              ones / n, r.offered);
  EXPECT_NEAR(n, 0.2 / 2.75 * 16 * kMeasure, 5 * std::sqrt(0.2 / 2.75 * 16 * kMeasure));
  EXPECT_NEAR(ones / n, 0.75, 5 * std::sqrt(0.75 * 0.25 / n));
  EXPECT_NEAR(r.offered, 0.2, 0.2 * 0.04);
  // The packet time of the results: the mean length.
  EXPECT_NEAR(r.packet_time, 2.75, 1e-12);
  EXPECT_TRUE(
      std::regex_search(r.config_json, std::regex("\"packet_sizes\":\\s*\\[\\s*1,\\s*8\\s*\\]")))
      << r.config_json;
  EXPECT_TRUE(std::regex_search(r.config_json, std::regex("\"packet_flits\":\\s*8\\b")))
      << r.config_json;
}

// A weight of 0 leaves its size out; the default weights are equal.
TEST(PacketSizes, ZeroWeightsAndDefaultWeights) {
  const Config c = test::cfg("traffic: {rate: 0.3, packet_sizes: [2, 4, 9]}\n");
  EXPECT_EQ(c.traffic.packet_flits, 9);
  EXPECT_EQ(c.traffic.packet_size_weights, (std::vector<double>{1, 1, 1}));
  EXPECT_NEAR(c.traffic.mean_packet_flits(), 5.0, 1e-12);
  EXPECT_NEAR(c.traffic.packets_per_cycle(), 0.3 / 5, 1e-12);
  const Config z =
      test::cfg("traffic: {rate: 0.3, packet_sizes: [2, 4, 9], packet_size_weights: [1, 0, 1]}\n");
  EXPECT_NEAR(z.traffic.mean_packet_flits(), 5.5, 1e-12);
}

// The on/off source with mixed lengths, run twice, and on two threads: results.json byte for
// byte (but for the wall time); another seed differs.
TEST(TrafficKnobs, RunsRepeatBitForBitOnAnyThreadCount) {
  const std::string yaml =
      "topology: {type: torus, dims: [8, 8]}\n"
      "traffic: {process: on_off, burst: {alpha: 0.2, beta: 0.2}, rate: 0.3,\n"
      "          packet_sizes: [1, 8], packet_size_weights: [1, 1]}\n"
      "simulation: {SIM warmup: 100, measure: 600, seed: 9}\n";
  auto with = [&](const std::string& s) { return std::regex_replace(yaml, std::regex("SIM "), s); };
  auto strip = [](const std::string& js) {
    return std::regex_replace(js, std::regex("\"wall_seconds\": [-+0-9.eE]+"), "");
  };
  const std::string a = test::cli_results_any("knobs-a", with(""));
  const std::string b = test::cli_results_any("knobs-b", with(""));
  const std::string t = test::cli_results_any("knobs-t", with("threads: 2,"));
  const std::string s = test::cli_results_any(
      "knobs-s", std::regex_replace(with(""), std::regex("seed: 9"), "seed: 10"));
  ASSERT_FALSE(a.empty());
  EXPECT_GT(test::json_number(a, "packets", "delivered"), 500);
  EXPECT_EQ(strip(a), strip(b));
  EXPECT_EQ(strip(a), strip(t));
  EXPECT_NE(strip(a), std::regex_replace(strip(s), std::regex("\"seed\": 10"), "\"seed\": 9"));
}

struct Bad {
  const char* yaml;
  const char* error;  // a part of the message, after "cfg.yaml:LINE:COL: "
};

TEST(TrafficKnobs, BadInputIsAnErrorWithFileLineAndKey) {
  const Bad kBad[] = {
      {"traffic:\n  process: on_off\n", "traffic.process: on_off needs burst"},
      {"traffic:\n  process: on_off\n  burst: {beta: 0.2}\n", "traffic.burst.alpha: needs"},
      {"traffic:\n  process: on_off\n  burst: {alpha: 0, beta: 0.2}\n",
       "traffic.burst.alpha: must be above 0"},
      {"traffic:\n  process: on_off\n  burst: {alpha: 0.2, beta: 0}\n",
       "traffic.burst.beta: must be above 0"},
      {"traffic:\n  process: on_off\n  burst: {alpha: 1.5, beta: 0.2}\n",
       "traffic.burst.alpha: value 1.5 out of range"},
      {"traffic:\n  process: on_off\n  burst: {alpha: 0.2, beta: 0.2, gamma: 1}\n",
       "traffic.burst.gamma: unknown key"},
      {"traffic:\n  burst: {alpha: 0.2, beta: 0.2}\n", "traffic.burst: only with process: on_off"},
      {"traffic:\n  process: on_off\n  burst: {alpha: 0.1, beta: 0.3}\n  rate: 0.5\n"
       "  rate_unit: packets\n",
       "traffic.rate: the on-state rate r (alpha + beta) / alpha is 2 packets"},
      {"traffic:\n  type: trace\n  messages: [{time: 0, src: 0, dst: 1}]\n  process: on_off\n",
       "traffic.process: only with synthetic traffic"},
      {"traffic:\n  type: none\n  packet_sizes: [1, 8]\n",
       "traffic.packet_sizes: only with synthetic traffic"},
      {"topology: {type: hypercube, dim: 3}\nrouter: {priority_classes: 2}\n"
       "traffic:\n  process: on_off\n  burst: {alpha: 0.2, beta: 0.2}\n"
       "  broadcast: {scheme: priority_star, rate: 0.01}\n",
       "traffic.process: on_off drives the unicast sources"},
      {"traffic:\n  packet_flits: 4\n  packet_sizes: [1, 8]\n",
       "traffic.packet_flits: give either packet_flits or packet_sizes"},
      {"traffic:\n  packet_sizes: [1, 8]\n  packet_size_weights: [1]\n",
       "traffic.packet_size_weights: 1 weights for 2 packet sizes"},
      {"traffic:\n  packet_sizes: [1, 8]\n  packet_size_weights: [0, 0]\n",
       "traffic.packet_size_weights: at least one weight"},
      {"traffic:\n  packet_sizes: [1, 8]\n  packet_size_weights: [1, -1]\n",
       "traffic.packet_size_weights[1]: value -1 out of range"},
      {"traffic:\n  packet_size_weights: [1, 1]\n", "traffic.packet_size_weights: weights of"},
      {"traffic:\n  packet_sizes: [0, 8]\n", "traffic.packet_sizes[0]: value 0 out of range"},
      {"traffic:\n  packet_sizes: []\n", "traffic.packet_sizes: expected a list of 1 to 64"},
      {"traffic:\n  packet_sizes: [1, 8]\n  classes: [{share: 0.5}, {share: 0.5}]\n",
       "traffic.packet_sizes: packet sizes are drawn within the one traffic class"},
      {"traffic:\n  packet_sizes: [1, 8]\n  load: {rho: 0.2}\n",
       "traffic.load: load sets the rate from one packet length"},
      {"router: {switching: virtual_cut_through, vc_depth: 4}\n"
       "traffic:\n  packet_sizes: [1, 8]\n",
       "router.vc_depth: virtual cut-through and store-and-forward need vc_depth >= the largest "
       "packet (8 flits)"},
  };
  for (const Bad& b : kBad) {
    const std::string e = test::config_error(b.yaml);
    EXPECT_TRUE(std::regex_search(e, std::regex("^cfg\\.yaml:[0-9]+:[0-9]+: ")))
        << b.yaml << " -> " << e;
    EXPECT_NE(e.find(b.error), std::string::npos) << b.yaml << " -> " << e;
  }
  // A Config built in code: check_config holds the same ranges.
  Config c = test::cfg("traffic: {process: on_off, burst: {alpha: 0.2, beta: 0.2}}\n");
  c.traffic.burst_alpha = 0;
  EXPECT_THROW(check_config(c), ConfigError);
  c = test::cfg("traffic: {packet_sizes: [1, 8]}\n");
  c.traffic.packet_size_weights = {1};
  EXPECT_THROW(check_config(c), ConfigError);
}

}  // namespace
}  // namespace sy
