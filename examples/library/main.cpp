// A program of your own on the installed library: a config from a string, one simulation, the
// numbers it reports (find_package(Switchyard) in CMakeLists.txt; or pkg-config switchyard).
#include <cstdio>

#include "switchyard/config/config.hpp"
#include "switchyard/sim/simulation.hpp"

int sc_main(int, char**) {
  const sy::Config cfg = sy::parse_config(
      "topology: {type: torus, dims: [4, 4]}\n"
      "router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\n"
      "traffic: {rate: 0.1, packet_flits: 4}\n"
      "simulation: {warmup: 500, measure: 3000, seed: 1}\n",
      "<example>");
  const sy::Results r = sy::run_simulation(cfg);
  std::printf("latency %.3f cycles, accepted %.4f flits/node/cycle, stable %s\n", r.latency.mean,
              r.accepted, r.stable ? "true" : "false");
  return r.stable ? 0 : 3;
}
