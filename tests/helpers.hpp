// Helpers shared by the tests: configs from YAML text, one simulation, running the CLI.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "paths.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/schemes/circuit/circuit_schedule.hpp"
#include "switchyard/schemes/greedy/greedy_plugin.hpp"
#include "switchyard/schemes/pmnb/dynamic_plugin.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"
#include "switchyard/schemes/schedule_plugin.hpp"
#include "switchyard/schemes/star/star_plugin.hpp"
#include "switchyard/sim/broadcast_section.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy::test {

inline Config cfg(const std::string& yaml) {
  return parse_config(yaml, "<test>");
}

// The message of the ConfigError a config raises ("" when it loads).
inline std::string config_error(const std::string& yaml,
                                const std::vector<std::string>& sets = {}) {
  try {
    parse_config(yaml, "cfg.yaml", sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

inline Results run(const std::string& yaml, bool records = false, const std::string& out_dir = "") {
  RunOptions o;
  o.record_packets = records;
  o.out_dir = out_dir;
  return run_simulation(cfg(yaml), o);
}

struct CliResult {
  int rc;
  std::string output;  // stdout and stderr
};

// A shell command's exit status and output (stdout and stderr).
inline CliResult shell(const std::string& cmd) {
  CliResult r{-1, ""};
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline CliResult cli(const std::string& args) {
  return shell(std::string(sy::test::kBin) + " " + args);
}

// A second simulation in one test (SystemC elaborates once per process): runs the YAML through
// the CLI and returns its results.json text ("" when the run failed; `output` says why).
inline std::string cli_results(const std::string& name, const std::string& yaml,
                               std::string* output = nullptr);

// The number after "key": in the first occurrence following "section" (or from the start).
inline double json_number(const std::string& js, const std::string& section,
                          const std::string& key) {
  const auto at = section.empty() ? 0 : js.find("\"" + section + "\"");
  if (at == std::string::npos) return -1;
  const auto k = js.find("\"" + key + "\":", at);
  if (k == std::string::npos) return -1;
  return std::stod(js.substr(k + key.size() + 3));
}

// Tests reach some of these files by their fixed name, and CTest runs tests in parallel
// processes (two instances of a parameterized test write the same file with the same text), so
// the file is written beside it under a name of this process and renamed into place: a reader
// sees the whole old text or the whole new one, never a truncated file.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string("/tmp/switchyard-test-") + name;
  const std::string part = path + ".part-" + std::to_string(getpid());
  FILE* f = std::fopen(part.c_str(), "w");
  if (!f) return path;
  std::fputs(text.c_str(), f);
  std::fclose(f);
  std::rename(part.c_str(), path.c_str());
  return path;
}

// (The config file and the output folder carry the process id: two tests under CTest -j that
// share a name but not a config, such as one helper called with different sizes, must not run
// each other's config.)
inline std::string cli_results(const std::string& name, const std::string& yaml,
                               std::string* output) {
  const std::string mine = name + "-" + std::to_string(getpid());
  const std::string path = write_temp(mine + ".yaml", yaml);
  const std::string out = "/tmp/switchyard-test-" + mine;
  const CliResult c = cli("run " + path + " --quiet --out " + out);
  if (output) *output = c.output;
  if (c.rc != 0) return "";
  std::ifstream j(out + "/results.json");
  std::stringstream ss;
  ss << j.rdbuf();
  return ss.str();
}

// Runs the YAML through the CLI whatever its exit status (a saturated run exits 3 and still
// writes its results): results.json ("" when there is none), the exit status in *rc. env:
// variables set for the run ("NAME=value ").
inline std::string cli_results_any(const std::string& name, const std::string& yaml,
                                   int* rc = nullptr, const std::string& env = "") {
  const std::string mine = name + "-" + std::to_string(getpid());  // (as cli_results)
  const std::string out = "/tmp/switchyard-test-" + mine;
  const CliResult c = shell(env + sy::test::kBin + " run " + write_temp(mine + ".yaml", yaml) +
                            " --quiet --out " + out);
  if (rc) *rc = c.rc;
  std::ifstream j(out + "/results.json");
  std::stringstream ss;
  ss << j.rdbuf();
  return ss.str();
}

// What every loaded run must keep: no credit violated, every flit in order, and traffic
// delivered (at least min_delivered packets).
inline void expect_flow_intact(const std::string& js, double min_delivered,
                               const std::string& what) {
  ASSERT_FALSE(js.empty()) << what << ": no results";
  EXPECT_EQ(json_number(js, "flits", "credit_violations"), 0) << what;
  EXPECT_EQ(json_number(js, "flits", "order_errors"), 0) << what;
  EXPECT_GT(json_number(js, "packets", "delivered"), min_delivered) << what;
}

// The zero-load check of the linear cost models: the YAML `head` (ending in "messages:\n"),
// then one L-flit message from node 0 and from the last node to every node, `gap` cycles apart
// (each alone in the network); every delivered packet must take zero_load(h) exactly, h its
// source-destination distance.
template <class ZeroLoad>
void expect_isolated_messages_exact(const std::string& head, int nodes, long long gap, int flits,
                                    ZeroLoad zero_load) {
  std::ostringstream y;
  y << head;
  long long time = 5;
  int count = 0;
  for (int src : {0, nodes - 1})
    for (int dst = 0; dst < nodes; ++dst, time += gap, ++count)
      y << "    - {time: " << time << ", src: " << src << ", dst: " << dst << ", flits: " << flits
        << "}\n";
  const Results r = run(y.str(), /*records=*/true);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(static_cast<int>(r.packets.size()), count);
  EXPECT_EQ(r.credit_violations, 0u);
  for (const auto& p : r.packets)
    EXPECT_EQ(static_cast<long long>(p.delivered - p.created), zero_load(p.src, p.dst))
        << p.src << "->" << p.dst;
}

// The optimal MNB's tree on the k-cube checked from scratch: every node once, from a node reached
// in an earlier slot, each dimension at most once per slot, depth ceil((2^k - 1)/k). "" if so.
inline std::string optimal_mnb_tree_error(int k) {
  const std::vector<MnbTreeEdge> tree = optimal_mnb_tree(k);
  const int n = 1 << k, depth = optimal_mnb_slots(k);
  if (static_cast<int>(tree.size()) != n - 1) return "not n - 1 edges";
  std::vector<int> slot_of(static_cast<std::size_t>(n), -2);
  slot_of[0] = -1;
  std::vector<int> used(static_cast<std::size_t>(depth) * static_cast<std::size_t>(k), 0);
  for (const MnbTreeEdge& e : tree) {
    if (e.slot < 0 || e.slot >= depth) return "slot out of range";
    if (slot_of[static_cast<std::size_t>(e.node)] != -2) return "node twice";
    const int parent_slot = slot_of[static_cast<std::size_t>(e.node ^ (1 << e.dim))];
    if (parent_slot == -2 || parent_slot >= e.slot) return "parent not reached before";
    if (++used[static_cast<std::size_t>(e.slot) * static_cast<std::size_t>(k) +
               static_cast<std::size_t>(e.dim)] > 1)
      return "dimension twice in a slot";
    slot_of[static_cast<std::size_t>(e.node)] = e.slot;
  }
  return "";
}

// An n x n torus schedule's most streams on one arc (x, y, dim, dir): its transmissions of items
// below `items` (all: -1), each once along its path.
inline int max_arc_uses(const Schedule& s, int n, int items = -1) {
  std::vector<int> uses(static_cast<std::size_t>(n) * n * 4, 0);
  for (const Transmission& t : s.transmissions) {
    if (items >= 0 && t.item >= items) continue;
    int x = t.sender % n, y = t.sender / n;
    for (const ScheduleHop& h : t.path) {
      ++uses[static_cast<std::size_t>((x + n * y) * 4 + h.dim * 2 + (h.dir > 0 ? 0 : 1))];
      (h.dim == 0 ? x : y) = ((h.dim == 0 ? x : y) + h.dir + n) % n;
    }
  }
  return uses.empty() ? 0 : *std::max_element(uses.begin(), uses.end());
}

}  // namespace sy::test
