// Helpers shared by the tests: configs from YAML text, one simulation, running the CLI.
#pragma once
#include <cstdio>
#include <string>

#include "config.hpp"
#include "simulation.hpp"

namespace sy::test {

inline Config cfg(const std::string& yaml) {
  return parse_config(yaml, "<test>");
}

inline Results run(const std::string& yaml, bool records = false) {
  RunOptions o;
  o.record_packets = records;
  return run_simulation(cfg(yaml), o);
}

struct CliResult {
  int rc;
  std::string output;  // stdout and stderr
};

inline CliResult cli(const std::string& args) {
  const std::string cmd = std::string(SWITCHYARD_BIN) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  CliResult r{-1, ""};
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string("/tmp/switchyard-test-") + name;
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(text.c_str(), f);
  std::fclose(f);
  return path;
}

}  // namespace sy::test
