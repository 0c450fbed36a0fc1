// The command line end to end: determinism, sweeps.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "helpers.hpp"

namespace {
std::string read_without_wall(const std::string& path) {
  std::ifstream f(path);
  std::string line, out;
  while (std::getline(f, line))
    if (line.find("wall_seconds") == std::string::npos) out += line + "\n";
  return out;
}
const std::string kQuick = std::string(SWITCHYARD_SOURCE_DIR) + "/configs/quickstart.yaml";
}  // namespace

TEST(Determinism, SameSeedSameResultsDifferentSeedDifferent) {
  const std::string sets = " --set simulation.measure=5000 --quiet";
  ASSERT_EQ(sy::test::cli("run " + kQuick + sets + " --seed 7 --out /tmp/sy-det-a").rc, 0);
  ASSERT_EQ(sy::test::cli("run " + kQuick + sets + " --seed 7 --out /tmp/sy-det-b").rc, 0);
  ASSERT_EQ(sy::test::cli("run " + kQuick + sets + " --seed 8 --out /tmp/sy-det-c").rc, 0);
  const std::string a = read_without_wall("/tmp/sy-det-a/results.json");
  EXPECT_GT(a.size(), 500u);
  EXPECT_EQ(a, read_without_wall("/tmp/sy-det-b/results.json"));
  EXPECT_NE(a, read_without_wall("/tmp/sy-det-c/results.json"));
}

TEST(Sweep, WritesOneRowPerPoint) {
  const auto r = sy::test::cli("sweep " + kQuick +
                               " --param traffic.rate --values 0.05,0.1,0.2 --jobs 2"
                               " --set simulation.measure=3000 --out /tmp/sy-sweep");
  ASSERT_EQ(r.rc, 0) << r.output;
  std::ifstream f("/tmp/sy-sweep/sweep.csv");
  std::string line;
  std::vector<std::string> rows;
  while (std::getline(f, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].rfind("param,value,stable,offered,accepted", 0), 0u);
  EXPECT_EQ(rows[1].rfind("traffic.rate,0.05,true,", 0), 0u) << rows[1];
  EXPECT_EQ(rows[3].rfind("traffic.rate,0.2,true,", 0), 0u) << rows[3];
}

TEST(Configs, EveryShippedConfigPassesCheck) {
  const auto r =
      sy::test::cli("check " + std::string(SWITCHYARD_SOURCE_DIR) + "/configs/quickstart.yaml");
  ASSERT_EQ(r.rc, 0) << r.output;
  // Every YAML under configs/ (found by the shell) must load and validate.
  const std::string cmd = "cd " + std::string(SWITCHYARD_SOURCE_DIR) +
                          " && for f in $(find configs -name '*.yaml' | sort); do " +
                          SWITCHYARD_BIN + " check $f >/dev/null 2>&1 || echo BAD $f; done";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  EXPECT_EQ(out, "");
}
