// The library as a caller meets it (docs/api.md): a config built in code or from YAML text,
// errors as typed exceptions with their message (never SystemC's report of an uncaught
// exception), results read back. One run per process: each test below runs at most once.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "helpers.hpp"
#include "switchyard/network/network.hpp"

namespace sy {
namespace {

const char* kSmall =
    "topology: {type: torus, dims: [4, 4]}\n"
    "traffic: {rate: 0.1, packet_flits: 4}\n"
    "simulation: {warmup: 100, measure: 500}\n";

std::string error_of(const Config& c) {
  try {
    run_simulation(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// A field set out of range in code: a ConfigError naming the key, before anything is built.
TEST(Api, ACodeBuiltConfigOutOfRangeIsAConfigError) {
  Config c = test::cfg(kSmall);
  c.router.vcs = 0;
  EXPECT_EQ(error_of(c), "config (in code): router.vcs: 0 is not in 1 .. 32");
  c = test::cfg(kSmall);
  c.traffic.priority = 3;
  EXPECT_NE(error_of(c).find("traffic.priority: 3 is not in 0 .. 0"), std::string::npos);
  c = test::cfg(kSmall);
  c.topology.dims = {};
  EXPECT_NE(error_of(c).find("topology.dims: needs 1 to 20 dimensions"), std::string::npos);
  // (None of these ran: the one run of this process is still to come.)
  c = test::cfg(kSmall);
  c.traffic.rate = 0.05;
  const Results r = run_simulation(c);
  EXPECT_TRUE(r.stable);
  EXPECT_GT(r.latency.count, 0u);
}

// A trace message built in code to a node that does not exist: refused, named.
TEST(Api, ACodeBuiltTraceToANodeThatDoesNotExistIsAConfigError) {
  Config c = test::cfg(
      "topology: {type: torus, dims: [4, 4]}\n"
      "traffic: {type: trace, messages: [{time: 0, src: 0, dst: 5, flits: 2}]}\n");
  c.traffic.messages.push_back({3, 1, 16, 2, 0});
  EXPECT_EQ(error_of(c), "config (in code): traffic.messages[].dst: 16 is not in 0 .. 15");
}

// An exception thrown inside a cycle (here by a caller's hook on a delivery) reaches the caller
// as itself, with its message.
TEST(Api, AnExceptionInsideTheRunReachesTheCallerAsItself) {
  Config c = test::cfg(kSmall);
  RunOptions opt;
  opt.attach = [](Network& net) {
    net.ni(5).on_receive([](const Delivery&) { throw std::out_of_range("the caller's own"); });
  };
  try {
    run_simulation(c, opt);
    ADD_FAILURE() << "no exception";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "the caller's own");
  }
}

}  // namespace
}  // namespace sy
