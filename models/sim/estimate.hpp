// Estimate: what a run will cost before it is built — memory (the network's routers, NIs and
// links, the samples kept for the latency statistics, the trace and the traffic matrix) and wall
// time (flit hops at the speed `switchyard bench` measures) — and the machine's memory, which
// sets the default for simulation.max_memory_gb. parse_config refuses a config whose estimate is
// above the limit; `check` and `run` print it.
#pragma once
#include <string>
#include <vector>

#include "switchyard/config/config.hpp"

namespace sy {

struct Estimate {
  struct Part {
    std::string what;  // "routers and links", "latency samples", ...
    std::string key;   // the config key that sets it ("topology", "simulation.measure", ...)
    double bytes = 0;
  };
  std::vector<Part> parts;
  double bytes = 0;          // sum of the parts plus the process's base
  double flit_hops = 0;      // expected flit-link traversals (0 when unknown: schedules)
  double wall_seconds = 0;   // expected wall time of the run
  double build_seconds = 0;  // of it, building the schedule where that is long (H-trees' fill)
  double vcd_bytes = 0;      // the VCD file written (waves.enable; on disk, not in memory)
  // One line for `check` and `run`: "memory about 41 MB, wall time about 0.2 s (...)".
  std::string line() const;
};

// Bytes per flit-hop and per node-cycle of work, calibrated on `switchyard bench` (Release build).
Estimate estimate_run(const Config& c);

// The machine's physical memory in bytes (MemTotal of /proc/meminfo; 0 when unknown).
double machine_memory_bytes();
// What this process may really take: the smallest of the machine's memory, its cgroup's limit
// (memory.max) and the address space left under RLIMIT_AS (ulimit -v); 0 when none is known.
double process_memory_bytes();
// The memory limit of a run in bytes: 80% of process_memory_bytes(), or
// simulation.max_memory_gb when that is smaller (0: no limit known).
double memory_limit_bytes(const SimulationConfig& s);

// "1.5 GB", "41 MB", "12 KB".
std::string human_bytes(double b);
// "0.2 s", "3.1 min", "5.2 h", "12 days".
std::string human_seconds(double s);

}  // namespace sy
