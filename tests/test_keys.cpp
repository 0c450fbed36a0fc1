// `switchyard keys` (issue 33, point 9): the listing is the parser's (every key it reads has a
// type and a meaning, every meaning a key), the command's table, JSON and prefix, and the user
// guide's config reference names exactly the keys the parser reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "helpers.hpp"
#include "switchyard/config/keys.hpp"

namespace {

using sy::test::cli;
using sy::test::CliResult;

bool has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

std::set<std::string> listed_paths() {
  std::set<std::string> s;
  for (const sy::ConfigKey& k : sy::config_keys().keys) s.insert(k.path);
  return s;
}

std::string trim(const std::string& x) {
  const auto a = x.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return x.substr(a, x.find_last_not_of(" \t") - a + 1);
}

// The keys of a flow mapping "{a: 1, b: [2, 3], c: {d: 4}}" (its own level only).
std::vector<std::string> flow_keys(const std::string& text) {
  std::vector<std::string> keys;
  int depth = 0;
  std::string cur;
  auto take = [&] {
    const auto colon = cur.find(':');
    if (colon != std::string::npos) keys.push_back(trim(cur.substr(0, colon)));
    cur.clear();
  };
  for (char ch : text) {
    if (ch == '{' || ch == '[') {
      if (depth++ == 0 && ch == '{') continue;
    } else if (ch == '}' || ch == ']') {
      if (--depth == 0) {
        take();
        break;
      }
    } else if (ch == ',' && depth == 1) {
      take();
      continue;
    }
    if (depth >= 1) cur += ch;
  }
  return keys;
}

// The keys the user guide's config reference names: the YAML block under "## Config reference",
// read by indentation. A line "key: value" is the key under the nearest less indented one; a
// flow mapping value ({a: .., b: ..}) names its keys under it; a list item "- {a: .., b: ..}"
// names key[].a and key[].b under the list's key. Comment lines, and what follows " #", name
// nothing (a key written only in a comment is not in the reference).
std::set<std::string> guide_paths(std::string* error) {
  std::ifstream f(std::string(sy::test::kSourceDir) + "/docs/user-guide.md");
  std::string line;
  bool section = false, block = false;
  std::vector<std::pair<std::size_t, std::string>> stack;  // indent, path
  std::set<std::string> paths;
  while (std::getline(f, line)) {
    if (!section) {
      section = line == "## Config reference";
      continue;
    }
    if (!block) {
      if (line.rfind("## ", 0) == 0) break;
      block = line == "```yaml";
      continue;
    }
    if (line.rfind("```", 0) == 0) return paths;
    const auto hash = line.find(" #");
    if (hash != std::string::npos) line.resize(hash);
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || line[indent] == '#') continue;
    std::string rest = line.substr(indent);
    while (!stack.empty() && stack.back().first >= indent) stack.pop_back();
    const std::string parent = stack.empty() ? "" : stack.back().second;
    if (rest.rfind("- ", 0) == 0) {
      rest = trim(rest.substr(2));
      if (rest.empty() || rest[0] != '{') continue;  // a list of plain values
      for (const std::string& k : flow_keys(rest)) paths.insert(parent + "[]." + k);
      continue;
    }
    const auto colon = rest.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = rest.substr(0, colon);
    const std::string path = parent.empty() ? key : parent + "." + key;
    paths.insert(path);
    stack.emplace_back(indent, path);
    const std::string value = trim(rest.substr(colon + 1));
    if (!value.empty() && value[0] == '{')
      for (const std::string& k : flow_keys(value)) paths.insert(path + "." + k);
  }
  *error = section ? "the config reference's ```yaml block does not end"
                   : "docs/user-guide.md has no '## Config reference'";
  return paths;
}

}  // namespace

TEST(Keys, TheListingIsTheParsersSchema) {
  const sy::ConfigKeys k = sy::config_keys();
  for (const std::string& p : k.problems) ADD_FAILURE() << p;
  EXPECT_GT(k.keys.size(), 100u);
  std::set<std::string> seen;
  for (const sy::ConfigKey& key : k.keys) {
    EXPECT_TRUE(seen.insert(key.path).second) << key.path << " listed twice";
    EXPECT_FALSE(key.type.empty()) << key.path;
    EXPECT_FALSE(key.meaning.empty()) << key.path;
  }
}

TEST(Keys, TypesDefaultsAndRangesAreTheReaders) {
  std::map<std::string, sy::ConfigKey> by;
  for (const sy::ConfigKey& k : sy::config_keys().keys) by[k.path] = k;
  ASSERT_TRUE(by.count("router.vcs"));
  EXPECT_EQ(by["router.vcs"].type, "integer");
  EXPECT_EQ(by["router.vcs"].def, "2");
  EXPECT_EQ(by["router.vcs"].allowed, "1 .. 32");
  EXPECT_EQ(by["router.switching"].type, "choice");
  EXPECT_EQ(by["router.switching"].def, "wormhole");
  EXPECT_TRUE(has(by["router.switching"].allowed, "virtual_cut_through | store_and_forward"));
  EXPECT_EQ(by["traffic.rate"].type, "number");
  EXPECT_EQ(by["traffic.rate"].def, "0.1");
  EXPECT_EQ(by["waves.enable"].def, "false");
  EXPECT_EQ(by["topology.dims"].def, "[8, 8]");
  EXPECT_EQ(by["simulation.warmup"].allowed, "0 .. 2^50");
  // Bounds that depend on the config are named, not one probe's number.
  EXPECT_EQ(by["traffic.messages[].src"].allowed, "0 .. nodes - 1");
  EXPECT_EQ(by["schedule.far"].def, "diameter");
  // A key read as two types by two branches lists both.
  EXPECT_TRUE(has(by["schedule.packets"].type, "integer")) << by["schedule.packets"].type;
  EXPECT_TRUE(has(by["schedule.packets"].type, "list")) << by["schedule.packets"].type;
  // Each key after its section, the sections in the order the parser reads them.
  std::vector<std::string> order;
  for (const sy::ConfigKey& k : sy::config_keys().keys) order.push_back(k.path);
  auto at = [&](const std::string& p) {
    return std::find(order.begin(), order.end(), p) - order.begin();
  };
  EXPECT_LT(at("topology"), at("topology.k"));
  EXPECT_LT(at("topology.k"), at("router"));
  EXPECT_LT(at("router.pipeline"), at("router.pipeline.rc"));
  EXPECT_LT(at("router.pipeline.ejection_ports"), at("timing"));
}

TEST(Keys, CommandPrintsTheTableTheJsonAndAPrefix) {
  const CliResult all = cli("keys");
  ASSERT_EQ(all.rc, 0) << all.output;
  EXPECT_EQ(all.output.rfind("key ", 0), 0u) << all.output.substr(0, 200);
  for (const char* w : {"type", "default", "allowed", "meaning", "router.pipeline.credit_delay",
                        "traffic.messages[].src", "0 .. nodes - 1", "schedule.tags"})
    EXPECT_TRUE(has(all.output, w)) << w;

  const CliResult router = cli("keys router");
  ASSERT_EQ(router.rc, 0) << router.output;
  EXPECT_TRUE(has(router.output, "router.vc_depth"));
  EXPECT_FALSE(has(router.output, "routing.algorithm")) << "router is not a prefix of routing";
  EXPECT_FALSE(has(router.output, "timing.alpha"));

  const CliResult js = cli("keys traffic.broadcast --json");
  ASSERT_EQ(js.rc, 0) << js.output;
  const nlohmann::json j = nlohmann::json::parse(js.output);
  ASSERT_TRUE(j.is_array());
  ASSERT_GE(j.size(), 7u);
  EXPECT_EQ(j[0]["key"], "traffic.broadcast");
  for (const auto& k : j) {
    EXPECT_EQ(k["key"].get<std::string>().rfind("traffic.broadcast", 0), 0u);
    EXPECT_TRUE(k.contains("type") && k.contains("meaning")) << k.dump();
  }
  const CliResult full = cli("keys --json");
  ASSERT_EQ(full.rc, 0);
  EXPECT_EQ(nlohmann::json::parse(full.output).size(), sy::config_keys().keys.size());

  const CliResult none = cli("keys rooter");
  EXPECT_EQ(none.rc, 1) << none.output;
  EXPECT_TRUE(has(none.output, "no config key is 'rooter'")) << none.output;
  EXPECT_TRUE(has(none.output, "router")) << none.output;
  const CliResult bad = cli("keys --tabel");
  EXPECT_EQ(bad.rc, 1) << bad.output;
  const CliResult help = cli("keys --help");
  EXPECT_EQ(help.rc, 0);
  EXPECT_TRUE(has(help.output, "PREFIX") && has(help.output, "--json")) << help.output;
}

TEST(Keys, UserGuideReferenceNamesExactlyTheParsersKeys) {
  std::string error;
  const std::set<std::string> guide = guide_paths(&error);
  ASSERT_TRUE(error.empty()) << error;
  const std::set<std::string> listed = listed_paths();
  for (const std::string& k : listed)
    EXPECT_TRUE(guide.count(k)) << k
                                << ": switchyard keys lists it, docs/user-guide.md's config "
                                   "reference does not (a line or flow key in its YAML block)";
  for (const std::string& k : guide)
    EXPECT_TRUE(listed.count(k)) << k
                                 << ": the user guide's config reference names it, the parser "
                                    "reads no such key";
}

// Recording is off in normal parsing: the same config parses to the same resolved config
// whether or not a listing was made before it.
TEST(Keys, ListingLeavesParsingAlone) {
  const std::string yaml = "topology: {dims: [4, 4]}\ntraffic: {rate: 0.05}\n";
  const std::string before = sy::config_to_json(sy::test::cfg(yaml), 2);
  (void)sy::config_keys();
  EXPECT_EQ(sy::config_to_json(sy::test::cfg(yaml), 2), before);
}
