// The idling scheme in rounds (network_interface.discipline: rounds; the greedy-routing paper's
// section 2.3): a round's length and the barrier, to the cycle, on a 2-cube; the stability limit
// where the model's own measured round puts it; the config's refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/schemes/greedy/rounds_plugin.hpp"

using namespace sy;

namespace {

// The paper's ideal node on a 2^d hypercube: output-queued store-and-forward, unit packets of
// S = 3 cycles (tau 3: a slip of one cycle shows), e-cube routing.
std::string cube(int d, const std::string& injection, const std::string& discipline = "rounds") {
  std::ostringstream y;
  y << "topology: {type: hypercube, dim: " << d << "}\n"
    << "router: {buffering: output_queued, switching: store_and_forward}\n"
    << "network_interface: {injection: " << injection << ", discipline: " << discipline << "}\n"
    << "timing: {alpha: 0, delta: 0, tau: 3}\n";
  return y.str();
}

const Stats::Record* find(const Results& r, int src, int dst, Cycle created) {
  for (const Stats::Record& p : r.packets)
    if (p.src == src && p.dst == dst && p.created == created) return &p;
  return nullptr;
}

}  // namespace

class IdlingRoundsExact : public ::testing::TestWithParam<const char*> {};

// Round 1 (cycle 0): every node sends to its complement, 2 hops over arcs no two share: the
// round ends when all four are received, at 2 packet times = 6 cycles. Node 0's second packet
// (0 -> 1, created at 0) and node 2's packet to itself (created at 1) wait for it: round 2
// begins at 6 with those two (the zero-hop one delivered at once, at 6), and ends at 9. Node 1's
// packet created at 7 finds round 2 under way (its arcs idle: the scheme idles) and waits for
// round 3, from 9 to 12. Serial injection takes the same cycles (one packet per node and round).
TEST_P(IdlingRoundsExact, ARoundEndsAtItsLastReceptionAndTheNextBeginsThere) {
  const std::string yaml = cube(2, GetParam()) +
                           "traffic:\n  type: trace\n  self: deliver_locally\n  messages:\n"
                           "    - {time: 0, src: 0, dst: 3}\n"
                           "    - {time: 0, src: 1, dst: 2}\n"
                           "    - {time: 0, src: 2, dst: 1}\n"
                           "    - {time: 0, src: 3, dst: 0}\n"
                           "    - {time: 0, src: 0, dst: 1}\n"
                           "    - {time: 1, src: 2, dst: 2}\n"
                           "    - {time: 7, src: 1, dst: 0}\n"
                           "simulation: {warmup: 0, measure: 1000}\n";
  const Results r = test::run(yaml, /*records=*/true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(r.packets.size(), 7u);
  for (int x = 0; x < 4; ++x) {
    const Stats::Record* p = find(r, x, 3 - x, 0);
    ASSERT_NE(p, nullptr) << x;
    EXPECT_EQ(p->injected, 0u) << x;
    EXPECT_EQ(p->delivered, 6u) << x;
  }
  const Stats::Record* second = find(r, 0, 1, 0);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->injected, 6u);  // not before round 1 is over
  EXPECT_EQ(second->delivered, 9u);
  const Stats::Record* self = find(r, 2, 2, 1);
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->delivered, 6u);  // its turn, then at once
  const Stats::Record* late = find(r, 1, 0, 7);
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->injected, 9u);  // round 2 (begun at 6) was under way: it waits
  EXPECT_EQ(late->delivered, 12u);

  const auto* s = r.find<RoundsPlugin>();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(r.find<GreedyPlugin>(), nullptr);  // (the greedy section is the greedy scheme's)
  EXPECT_EQ(s->rounds, 3u);
  EXPECT_EQ(s->rounds_total, 3u);
  EXPECT_DOUBLE_EQ(s->mean, (2.0 + 1.0 + 1.0) / 3);  // packet times
  EXPECT_DOUBLE_EQ(s->max, 2.0);
  EXPECT_DOUBLE_EQ(s->mean_participants, (4.0 + 2.0 + 1.0) / 3);
  EXPECT_EQ(s->full_rounds, 1u);
  EXPECT_DOUBLE_EQ(s->full_mean, 2.0);
  EXPECT_EQ(s->diameter, 2);
  EXPECT_DOUBLE_EQ(s->R, 1.0);
}

INSTANTIATE_TEST_SUITE_P(Injection, IdlingRoundsExact, ::testing::Values("all_port", "serial"));

// The same trace without the rounds: node 0's second packet starts at once and node 1's at its
// creation (the greedy scheme never idles), so both are received earlier.
TEST(IdlingRounds, TheGreedyNodeDoesNotWait) {
  const std::string yaml = cube(2, "all_port", "greedy") +
                           "traffic:\n  type: trace\n  self: deliver_locally\n  messages:\n"
                           "    - {time: 0, src: 0, dst: 3}\n"
                           "    - {time: 0, src: 0, dst: 1}\n"
                           "    - {time: 7, src: 1, dst: 0}\n"
                           "simulation: {warmup: 0, measure: 1000}\n";
  const Results r = test::run(yaml, /*records=*/true);
  EXPECT_EQ(r.find<RoundsPlugin>(), nullptr);
  const Stats::Record* second = find(r, 0, 1, 0);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->injected, 0u);
  EXPECT_LE(second->delivered, 6u);  // behind the first on arc (0, d0) at most
  const Stats::Record* late = find(r, 1, 0, 7);
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->delivered, 10u);
}

// Stability flips where the model's own round says: a saturated run (every round full) gives
// the mean full round E (packet times) and the limit rho = p / E (1/(2Rd), p = 1/2); the same
// network is stable at 0.85 of it and not at 1.15 of it (the run ends, flagged).
// Rounds with input-VC wormhole routers on a torus (multi-flit packets, VCs, credits): the
// barrier holds in the records — a packet started after another has been received no earlier
// than that one (its round ended at its last reception or later), and a node starts at most one
// packet a round. The greedy NI on the same traffic breaks the first (so the check can fail).
// Returns the violations; `rounds_of_many`: the starting cycles at which several nodes started.
namespace {
std::size_t barrier_violations(const std::string& discipline, std::size_t& rounds_of_many) {
  const std::string yaml =
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
      "network_interface: {discipline: " +
      discipline +
      "}\n"
      "traffic: {process: bernoulli, rate: 0.05, packet_flits: 4, pattern: uniform}\n"
      "simulation: {warmup: 0, measure: 3000, seed: 3}\n";
  const Results r = test::run(yaml, /*records=*/true);
  EXPECT_TRUE(r.stable) << discipline << ": " << r.unstable_reason;
  std::vector<Stats::Record> ps = r.packets;
  EXPECT_GT(ps.size(), 100u) << discipline;
  std::sort(ps.begin(), ps.end(),
            [](const Stats::Record& a, const Stats::Record& b) { return a.injected < b.injected; });
  std::size_t bad = 0;
  Cycle latest_end = 0;  // the last reception of the packets started before this cycle
  rounds_of_many = 0;
  for (std::size_t i = 0; i < ps.size();) {
    std::size_t j = i;
    std::vector<int> srcs;
    Cycle end = 0;
    for (; j < ps.size() && ps[j].injected == ps[i].injected; ++j) {
      srcs.push_back(ps[j].src);
      end = std::max(end, ps[j].delivered);
    }
    if (ps[i].injected < latest_end) ++bad;  // started before an earlier round ended
    std::sort(srcs.begin(), srcs.end());
    if (std::adjacent_find(srcs.begin(), srcs.end()) != srcs.end()) ++bad;  // two from a node
    rounds_of_many += j - i > 1;
    latest_end = std::max(latest_end, end);
    i = j;
  }
  return bad;
}
}  // namespace

TEST(IdlingRounds, InputVcWormholeTorusKeepsTheBarrier) {
  std::size_t many = 0;
  EXPECT_EQ(barrier_violations("rounds", many), 0u);
  EXPECT_GT(many, 10u);  // (rounds where several nodes started: the check has something to see)
}

TEST(IdlingRounds, InputVcWormholeTorusGreedyBreaksTheBarrierCheck) {
  std::size_t many = 0;
  EXPECT_GT(barrier_violations("greedy", many), 0u);
}

TEST(IdlingRounds, StabilityFlipsAtTheLimitTheMeasuredRoundGives) {
  auto yaml = [](double rho, int measure) {
    std::ostringstream y;
    y << cube(3, "all_port")
      << "traffic: {process: poisson, packet_flits: 1, pattern: bit_flip, "
         "bit_flip_probability: 0.5, self: deliver_locally, load: {rho: "
      << rho << "}}\n"
      << "simulation: {warmup: " << measure / 10 << ", measure: " << measure
      << ", drain_limit: 100000, seed: 3}\n";
    return y.str();
  };
  const Results sat = test::run(yaml(0.6, 60000));
  EXPECT_FALSE(sat.stable);
  const auto* s = sat.find<RoundsPlugin>();
  ASSERT_NE(s, nullptr);
  ASSERT_GT(s->full_rounds, 1000u);
  EXPECT_EQ(s->full_rounds, s->rounds);  // saturated: every node in every round
  // A round takes at least the longest path of its packets and at most its packets' hops in
  // all (here, with eight packets of up to three hops, far less).
  EXPECT_GE(s->full_min, 1.0);
  EXPECT_LE(s->full_max, 3.0 * 8);
  EXPECT_GT(s->full_mean, 2.0);
  EXPECT_LT(s->full_mean, 4.0);
  EXPECT_NEAR(s->rho_limit, 0.5 / s->full_mean, 1e-12);
  EXPECT_NEAR(s->R, s->full_mean / 3, 1e-12);
  EXPECT_NEAR(s->load_of_rounds, s->lambda * s->full_mean, 1e-12);
  for (const double f : {0.85, 1.15}) {
    std::ostringstream name;
    name << "idling-flip-" << f;
    int rc = -1;
    const std::string js = test::cli_results_any(name.str(), yaml(f * s->rho_limit, 100000), &rc);
    ASSERT_FALSE(js.empty()) << f;
    const bool stable = js.find("\"stable\": true") != std::string::npos;
    EXPECT_EQ(stable, f < 1) << f << " of the limit " << s->rho_limit;
    EXPECT_EQ(rc, f < 1 ? 0 : 3) << f;
    // (The section's "rounds_total": the first "rounds" in the file is the config's discipline.)
    EXPECT_GT(test::json_number(js, "rounds", "rounds_total"), 1000) << f;
  }
}

TEST(IdlingRounds, ConfigRefusesWhatRoundsCannotGate) {
  const std::string head = "topology: {type: hypercube, dim: 3}\n";
  std::string e = test::config_error(head +
                                     "router: {switching: direct_connect}\n"
                                     "network_interface: {discipline: rounds}\n"
                                     "traffic: {type: none}\n");
  EXPECT_NE(e.find("cfg.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("network_interface.discipline"), std::string::npos) << e;
  EXPECT_NE(e.find("circuit"), std::string::npos) << e;
  e = test::config_error(head +
                         "router: {buffering: output_queued, priority_classes: 2}\n"
                         "network_interface: {discipline: rounds}\n"
                         "traffic: {process: poisson, rate: 0.01, broadcast: "
                         "{scheme: priority_star, rate: 0.01}}\n");
  EXPECT_NE(e.find("network_interface.discipline"), std::string::npos) << e;
  EXPECT_NE(e.find("broadcast"), std::string::npos) << e;
  e = test::config_error(head + "network_interface: {discipline: round}\n");
  EXPECT_NE(e.find("expected one of: greedy, rounds"), std::string::npos) << e;
  // Threads: one barrier over every node, so one thread, with a warning.
  const Config c = test::cfg(head +
                             "network_interface: {discipline: rounds}\n"
                             "simulation: {threads: 2}\n");
  EXPECT_EQ(c.simulation.threads, 1);
  ASSERT_FALSE(c.execution_warnings.empty());
  EXPECT_NE(c.execution_warnings.back().find("rounds"), std::string::npos);
}
