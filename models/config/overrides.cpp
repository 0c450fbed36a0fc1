// --set key.path=value overrides, applied to the YAML document before it is validated.
#include <sstream>

#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {

// A copy of n built without source marks, so errors in a --set value are reported as "--set".
static YAML::Node without_marks(const YAML::Node& n) {
  if (n.IsScalar()) return YAML::Node(n.Scalar());
  if (n.IsSequence()) {
    YAML::Node s(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < n.size(); ++i) s.push_back(without_marks(n[i]));
    return s;
  }
  if (n.IsMap()) {
    YAML::Node m(YAML::NodeType::Map);
    for (auto it = n.begin(); it != n.end(); ++it)
      m[it->first.as<std::string>()] = without_marks(it->second);
    return m;
  }
  return YAML::Node(YAML::NodeType::Null);
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
  YAML::Node v;
  try {
    v = without_marks(load_document(value, "--set " + keypath));
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
