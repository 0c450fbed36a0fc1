// Every config key in one place (`switchyard keys`): its path, type, default, allowed values and
// one line of meaning. The list comes from the parser itself (config/keys.cpp: the section
// readers record what they read), the meanings from one table (config/key_docs.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace sy {

struct ConfigKey {
  std::string path;     // "router.vcs"; list elements as [] ("traffic.messages[].src")
  std::string type;     // integer | number | boolean | string | choice | list ... | section
  std::string def;      // the default as YAML writes it ("" when none)
  std::string allowed;  // "1 .. 32", "wormhole | virtual_cut_through | ...", or ""
  std::string meaning;  // one line (config/key_docs.cpp)
};

struct ConfigKeys {
  // In the order a config is read, each key after the section that holds it.
  std::vector<ConfigKey> keys;
  // What keeps the listing from being the schema's: a probe document the parser refused, a key
  // recorded with different defaults or ranges by different probes, a key with no meaning, a
  // meaning that names no key. Empty when all is well (a test holds it so).
  std::vector<std::string> problems;
};

ConfigKeys config_keys();

// The one-line meanings, by key path (config/key_docs.cpp).
const std::vector<std::pair<std::string, std::string>>& key_meanings();

// The keys whose path starts with prefix (a whole path component: "router" takes router.vcs,
// not routing.*; "" takes all).
std::vector<ConfigKey> keys_under(const std::vector<ConfigKey>& keys, const std::string& prefix);

// An aligned table (key, type, default, allowed, meaning), and the same as a JSON array.
std::string keys_table(const std::vector<ConfigKey>& keys);
std::string keys_json(const std::vector<ConfigKey>& keys);

}  // namespace sy
