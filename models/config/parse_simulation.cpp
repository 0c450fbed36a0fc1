// simulation: {warmup, measure, drain_limit, deadlock_cycles, seed, batches} (cycles),
// {max_memory_gb, max_wall_seconds, max_backlog_packets} (the run's limits), flows_csv (the
// per-flow latency CSV), threads (routers evaluated in parallel)
#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

void parse_simulation(Section& s, Config& c) {
  SimulationConfig& sim = c.simulation;
  sim.warmup = static_cast<std::uint64_t>(s.integer("warmup", 1000, 0, kMaxCycles));
  sim.measure = static_cast<std::uint64_t>(s.integer("measure", 10000, 1, kMaxCycles));
  sim.drain_limit = static_cast<std::uint64_t>(s.integer("drain_limit", 50000, 1, kMaxCycles));
  sim.deadlock_cycles =
      static_cast<std::uint64_t>(s.integer("deadlock_cycles", 20000, 1, kMaxCycles));
  sim.seed = static_cast<std::uint64_t>(s.integer("seed", 1, 0, std::int64_t{1} << 62));
  sim.batches = static_cast<int>(s.integer("batches", 20, 2, 1000));
  // The limits: 0 (the default, written out or not) is "none given"; else at least the minimum.
  const auto limit = [&](const char* key, double lo, double hi) {
    const double v = s.real(key, 0, 0, hi);
    if (v > 0 && v < lo)
      fail(c.source, s.at(key), s.path(key),
           "is " + Json::number(v) + ": 0 (no limit of its own) or at least " + Json::number(lo));
    return v;
  };
  sim.max_memory_gb = limit("max_memory_gb", 1e-3, 1e6);
  sim.max_wall_seconds = limit("max_wall_seconds", 1e-3, 1e9);
  sim.max_backlog_packets =
      static_cast<std::uint64_t>(s.integer("max_backlog_packets", 0, 0, std::int64_t{1} << 40));
  sim.flows_csv = s.boolean("flows_csv", false);
  sim.threads = static_cast<int>(s.integer("threads", 1, 1, 64));
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
