// The YAML document before any key is read: yaml-cpp accepts forms the key reader cannot name,
// so they are refused here, each with file:line:col — a key that is not a plain scalar (`? [a]`),
// a duplicate key (yaml-cpp keeps the first: both lines are named), a merge key `<<`, a quoted
// string that never ends (yaml-cpp reads it to the end of the file), more than one document, and
// documents nested too deep or expanded by aliases beyond a bound. Anchors and aliases are
// allowed: an alias reads as a copy of its anchor's node.
#include <map>

#include "switchyard/config/section.hpp"

namespace sy {
namespace config_detail {
namespace {

constexpr int kMaxDepth = 64;
constexpr long kMaxNodes = 1000000;

struct Walk {
  const std::string& text;
  const std::string& source;
  long nodes = 0;
};

std::string line_of(const YAML::Node& n) {
  return std::to_string(n.Mark().line + 1);
}

// A quoted scalar (tag "!") must have its closing quote in the text.
void check_quotes(Walk& w, const YAML::Node& n, const std::string& path) {
  const YAML::Mark m = n.Mark();
  if (m.pos < 0 || static_cast<std::size_t>(m.pos) >= w.text.size()) return;
  const char q = w.text[static_cast<std::size_t>(m.pos)];
  if (q != '"' && q != '\'') return;
  for (std::size_t i = static_cast<std::size_t>(m.pos) + 1; i < w.text.size(); ++i) {
    if (q == '"' && w.text[i] == '\\') {
      ++i;
    } else if (w.text[i] == q) {
      if (q == '\'' && i + 1 < w.text.size() && w.text[i + 1] == '\'') {
        ++i;  // '' inside single quotes
        continue;
      }
      return;
    }
  }
  fail(w.source, n, path, std::string("a quoted string that never ends (no closing ") + q + ")");
}

void walk(Walk& w, const YAML::Node& n, const std::string& path, int depth) {
  if (++w.nodes > kMaxNodes)
    fail(w.source, n, path,
         "the document expands to more than " + std::to_string(kMaxNodes) +
             " nodes (aliases of aliases?)");
  if (depth > kMaxDepth)
    fail(w.source, n, path, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
  if (n.IsScalar()) {
    if (n.Tag() == "!") check_quotes(w, n, path);
  } else if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i)
      walk(w, n[i], path + "[" + std::to_string(i) + "]", depth + 1);
  } else if (n.IsMap()) {
    std::map<std::string, YAML::Node> seen;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const YAML::Node k = it->first;
      if (!k.IsScalar())
        fail(w.source, k, path.empty() ? "<key>" : path + ".<key>",
             std::string("a key must be a plain name, not a ") + (k.IsNull() || !k.IsDefined()
                                                                      ? "null value"
                                                                  : k.IsSequence() ? "list"
                                                                                   : "mapping"));
      const std::string name = k.Scalar();
      const std::string p = path.empty() ? name : path + "." + name;
      if (name == "<<" && k.Tag() != "!")
        fail(w.source, k, p, "merge keys (<<) are not supported: write the keys out");
      const auto first = seen.find(name);
      if (first != seen.end())
        fail(w.source, k, p,
             "duplicate key (first at line " + line_of(first->second) + ", again at line " +
                 line_of(k) + ")");
      seen.emplace(name, k);
      check_quotes(w, k, p);
      walk(w, it->second, p, depth + 1);
    }
  }
}

}  // namespace

YAML::Node load_document(const std::string& text, const std::string& source) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": YAML syntax error: " + e.msg);
  }
  for (std::size_t i = 1; i < docs.size(); ++i)
    if (docs[i] && !docs[i].IsNull())
      fail(source, docs[i], "", "a second YAML document ('---'): a config file holds one document");
  YAML::Node root = docs.empty() ? YAML::Node() : docs[0];
  if (root && !root.IsNull()) {
    Walk w{text, source};
    walk(w, root, "", 0);
  }
  return root;
}

}  // namespace config_detail
}  // namespace sy
