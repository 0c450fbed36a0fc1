// --set key.path=value overrides, applied to the YAML document before it is validated.
#include <sstream>

#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

// A copy of n built without source marks, so errors in a --set value are reported as "--set".
// The copy follows aliases, so it makes a node for every node the value expands to: at most
// `budget` of them (false beyond: the value expands further than its text could write out).
static bool without_marks(const YAML::Node& n, long& budget, YAML::Node& out) {
  if (--budget < 0) return false;
  if (n.IsScalar()) {
    out = YAML::Node(n.Scalar());
    return true;
  }
  if (n.IsSequence()) {
    out = YAML::Node(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < n.size(); ++i) {
      YAML::Node c;
      if (!without_marks(n[i], budget, c)) return false;
      out.push_back(c);
    }
    return true;
  }
  if (n.IsMap()) {
    out = YAML::Node(YAML::NodeType::Map);
    for (auto it = n.begin(); it != n.end(); ++it) {
      YAML::Node c;
      if (!without_marks(it->second, budget, c)) return false;
      out[it->first.as<std::string>()] = c;
    }
    return true;
  }
  out = YAML::Node(YAML::NodeType::Null);
  return true;
}

void apply_override(YAML::Node& root, const std::string& ov) {
  const auto eq = ov.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + ov + ": expected key.path=value");
  const std::string keypath = ov.substr(0, eq), value = ov.substr(eq + 1);
  std::vector<std::string> parts;
  std::stringstream ss(keypath);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw ConfigError("--set " + ov + ": empty key in path");
    parts.push_back(p);
  }
  // The value is read like a config file (load_document: control characters, aliases that
  // expand beyond a bound, duplicate keys, ... are refused before without_marks copies it).
  // A value written out takes at least two characters a node ("x," or "[]"): one that expands
  // to more nodes than 4 a character, plus 64, does so by aliases of aliases, which the copy
  // would follow node by node (a 400-byte value expanding to 900,000 nodes took 1.5 s and
  // 0.5 GB each; found by the fuzz target's corpus, 2026-11-28): refused.
  YAML::Node v;
  try {
    long budget = 4 * static_cast<long>(value.size()) + 64;
    if (!without_marks(load_document(value, "--set " + keypath), budget, v))
      throw ConfigError("--set " + keypath + ": the value expands to more than " +
                        std::to_string(4 * value.size() + 64) +
                        " nodes through its aliases (4 a character of its text): write it out");
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + ov + ": cannot parse value: " + e.msg);
  }
  // Walk with fresh handles (yaml-cpp node assignment rebinds, so recurse by copy).
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node cur = chain.back();
    if (cur.IsDefined() && !cur.IsNull() && !cur.IsMap())
      throw ConfigError("--set " + ov + ": '" + (i ? parts[i - 1] : std::string("<top>")) +
                        "' is not a mapping");
    YAML::Node next = cur[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next = cur[parts[i]];
    }
    chain.push_back(next);
  }
  YAML::Node last = chain.back();
  if (!last.IsMap() && last.IsDefined() && !last.IsNull())
    throw ConfigError("--set " + ov + ": parent of '" + parts.back() + "' is not a mapping");
  last[parts.back()] = v;
}

}  // namespace config_detail
}  // namespace sy
