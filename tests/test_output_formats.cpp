// Output formats: results.json written through nlohmann-json keeps the schema and the values of
// the hand-written writer it replaced (a run of the quick start, same seed, against the file
// that writer produced), the bytes repeat run to run, and CSV fields quote as RFC 4180 says.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/base/json.hpp"
#include "switchyard/sim/csv.hpp"

using namespace sy;
using nlohmann::ordered_json;

namespace {

const char* kQuickstart = R"(name: quickstart
topology: {type: torus, dims: [8, 8]}
router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4, arbitration: round_robin}
timing: {alpha: 0, delta: 1, tau: 1}
routing: {algorithm: dimension_order, tie_break: balanced}
traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}
simulation: {warmup: 2000, measure: 20000, seed: 1}
)";

// Every key of `before` is in `after` in the same order with the same value (numbers equal to 10
// significant digits); keys the writer gained since are allowed only where listed.
void same(const ordered_json& before, const ordered_json& after, const std::string& path) {
  if (before.is_object()) {
    ASSERT_TRUE(after.is_object()) << path;
    auto it = after.begin();
    for (auto b = before.begin(); b != before.end(); ++b) {
      while (it != after.end() && it.key() != b.key()) ++it;  // new keys may come between
      ASSERT_NE(it, after.end()) << path << "." << b.key() << " is missing or out of order";
      if (b.key() != "wall_seconds") same(b.value(), it.value(), path + "." + b.key());
      ++it;
    }
  } else if (before.is_array()) {
    ASSERT_TRUE(after.is_array()) << path;
    ASSERT_EQ(before.size(), after.size()) << path;
    for (std::size_t i = 0; i < before.size(); ++i)
      same(before[i], after[i], path + "[" + std::to_string(i) + "]");
  } else if (before.is_number()) {
    ASSERT_TRUE(after.is_number()) << path;
    EXPECT_EQ(Json::number(before.get<double>()), Json::number(after.get<double>())) << path;
  } else {
    EXPECT_EQ(before, after) << path;
  }
}

}  // namespace

TEST(OutputFormats, ResultsKeepTheHandWrittenWritersSchemaAndValues) {
  std::ifstream f(std::string(sy::test::kSourceDir) +
                  "/tests/data/quickstart_results_handwritten_writer.json");
  ASSERT_TRUE(f);
  const ordered_json before = ordered_json::parse(f);
  std::string out;
  const std::string now = test::cli_results("format_qs", kQuickstart, &out);
  ASSERT_FALSE(now.empty()) << out;
  const ordered_json after = ordered_json::parse(now);
  same(before, after, "");
  // And the same bytes when run again (but the wall time).
  const std::string again = test::cli_results("format_qs2", kQuickstart, &out);
  ordered_json a = ordered_json::parse(now), b = ordered_json::parse(again);
  a.erase("wall_seconds");
  b.erase("wall_seconds");
  EXPECT_EQ(a.dump(2), b.dump(2));
}

TEST(OutputFormats, JsonBuilderWritesValidJson) {
  Json j;
  j.open()
      .kv("s", std::string("a\"b\\c\n\x01"))
      .kv("bad", std::string("x\xff"))
      .kv("d", 1.0 / 3)
      .kv("nan", std::nan(""))
      .kv_list("l", std::vector<int>{1, 2})
      .raw("r", "{\"k\": [true, null]}")
      .open("empty")
      .close()
      .close();
  const ordered_json p = ordered_json::parse(j.str());
  EXPECT_EQ(p["s"], "a\"b\\c\n\x01");
  EXPECT_EQ(p["bad"], "x\xEF\xBF\xBD");
  EXPECT_EQ(Json::number(p["d"].get<double>()), "0.3333333333");
  EXPECT_TRUE(p["nan"].is_null());
  EXPECT_EQ(p["l"][1], 2);
  EXPECT_TRUE(p["r"]["k"][0].get<bool>());
  EXPECT_TRUE(p["empty"].is_object());
}

TEST(OutputFormats, CsvFieldsQuoteAndSplitBack) {
  EXPECT_EQ(csv_quote("plain"), "plain");
  EXPECT_EQ(csv_quote("[4,4]"), "\"[4,4]\"");
  EXPECT_EQ(csv_quote("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_quote("two\nlines"), "\"two\nlines\"");
  const std::vector<std::string> v = {"[4,4]", "a\"b", "", "x"};
  std::string line;
  for (std::size_t i = 0; i < v.size(); ++i) line += (i ? "," : "") + csv_quote(v[i]);
  EXPECT_EQ(csv_fields(line), v);
}
