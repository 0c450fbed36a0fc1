// The linear cost model, exactly: an isolated L-flit message over h hops takes alpha + h*delta +
// L*tau cycles (wormhole, virtual cut-through) or alpha + h*(delta + L*tau) (store-and-forward),
// from its request at the source NI to its last flit at the destination NI — on the cycle model.
#include <gtest/gtest.h>

#include <sstream>

#include "helpers.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/topology/topology.hpp"

using namespace sy;

struct ZeroLoadCase {
  std::string topology;
  std::string buffering, switching;
  int alpha, delta, tau, flits;
};

std::ostream& operator<<(std::ostream& o, const ZeroLoadCase& c) {
  return o << c.topology << " " << c.buffering << " " << c.switching << " a" << c.alpha << " d"
           << c.delta << " t" << c.tau << " L" << c.flits;
}

class ZeroLoad : public ::testing::TestWithParam<ZeroLoadCase> {};

TEST_P(ZeroLoad, EveryIsolatedMessageTakesTheFormulaExactly) {
  const ZeroLoadCase& c = GetParam();
  std::ostringstream y;
  y << "topology: " << c.topology << "\n"
    << "router: {buffering: " << c.buffering << ", switching: " << c.switching
    << ", vcs: 2, vc_depth: " << std::max(c.flits, c.delta + 2) << "}\n"
    << "timing: {alpha: " << c.alpha << ", delta: " << c.delta << ", tau: " << c.tau << "}\n"
    << "traffic:\n  type: trace\n  messages:\n";
  const Config probe = test::cfg(y.str() + "    - {time: 0, src: 0, dst: 0, flits: 1}\n");
  const Topology topo = probe.topology.make();
  // One message from node 0 to every node, and from the last node to every node, each alone in
  // the network: spaced further apart than any of them takes.
  const long long gap = 4 * (c.alpha + (topo.diameter() + 1) * (c.delta + c.flits * c.tau)) + 16;
  test::expect_isolated_messages_exact(y.str(), topo.num_nodes(), gap, c.flits, [&](int s, int d) {
    return zero_load_latency(probe, topo.distance(s, d), c.flits);
  });
}

namespace {
std::vector<ZeroLoadCase> cases() {
  std::vector<ZeroLoadCase> v;
  const char* topos[] = {"{type: torus, dims: [6, 5]}", "{type: mesh, dims: [4, 3, 2]}",
                         "{type: hypercube, dim: 5}"};
  const int timings[][4] = {{0, 1, 1, 8}, {4, 2, 3, 5}, {2, 0, 1, 4}, {0, 3, 2, 1}, {7, 1, 4, 3}};
  for (const char* t : topos)
    for (const char* buf : {"input_vc", "output_queued"})
      for (const char* sw : {"wormhole", "virtual_cut_through", "store_and_forward"})
        for (const auto& tm : timings) v.push_back({t, buf, sw, tm[0], tm[1], tm[2], tm[3]});
  // Circuit switching: direct_connect (acknowledgment 0, as in the paper) and wormhole circuits.
  for (const char* t : topos)
    for (const char* sw : {"direct_connect", "wormhole"})
      for (const auto& tm : timings) v.push_back({t, "circuit", sw, tm[0], tm[1], tm[2], tm[3]});
  return v;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(Formula, ZeroLoad, ::testing::ValuesIn(cases()));
