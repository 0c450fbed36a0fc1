// The YAML document before any key is read: yaml-cpp accepts forms the key reader cannot name,
// so they are refused here, each with file:line:col — a key that is not a plain scalar (`? [a]`),
// a duplicate key (yaml-cpp keeps the first: both lines are named), a merge key `<<`, a quoted
// string that never ends (yaml-cpp reads it to the end of the file), more than one document, and
// documents nested too deep or expanded by aliases beyond a bound. Anchors and aliases are
// allowed: an alias reads as a copy of its anchor's node.
#include <cstdio>
#include <map>
#include <sstream>

#include "switchyard/config/section.hpp"
#include "yaml-cpp/eventhandler.h"

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

// A path dozens of levels deep (aliases of aliases, an alias inside its own anchor) named by its
// ends and its depth.
std::string short_path(const std::string& path, int depth) {
  if (path.size() <= 64) return path;
  return path.substr(0, 24) + "..." + path.substr(path.size() - 24) + " (" + std::to_string(depth) +
         " levels down)";
}

void walk(Walk& w, const YAML::Node& n, const std::string& path, int depth) {
  if (++w.nodes > kMaxNodes)
    fail(w.source, n, short_path(path, depth),
         "the document expands to more than " + std::to_string(kMaxNodes) +
             " nodes (aliases of aliases?)");
  if (depth > kMaxDepth)
    fail(w.source, n, short_path(path, depth),
         "nested deeper than " + std::to_string(kMaxDepth) + " levels");
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

// A YAML stream holds printable characters only (YAML 1.2, 5.1): of the C0 controls tab, line
// feed and carriage return, and not DEL. yaml-cpp reads some of the others oddly (a NUL ends a
// plain scalar as an "unknown escape character"); a config file with them is most likely not
// text: refused first, with the line and column.
void check_characters(const std::string& text, const std::string& source) {
  int line = 1, col = 1;
  for (const char ch : text) {
    const unsigned char u = static_cast<unsigned char>(ch);
    if ((u < 0x20 && u != '\t' && u != '\n' && u != '\r') || u == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", u);
      throw ConfigError(source + ":" + std::to_string(line) + ":" + std::to_string(col) +
                        ": control character " + hex +
                        ": a YAML file holds printable characters only (a binary file?)");
    }
    if (u == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
}

namespace {

// yaml-cpp 0.7 loops on some inputs, emitting events (and building nodes) until memory runs out:
// a ',' outside a flow collection (", L", "- a\n, b"; found by the fuzz target, issue 16). A
// document of n bytes has at most about n + 2 events (every node but an implicit null takes a
// character), so a first pass over the events, without building anything, stops at 4 n + 64.
class EventBound : public YAML::EventHandler {
 public:
  EventBound(const std::string& source, std::size_t bytes)
      : source_(source), limit_(4 * bytes + 64) {}
  void OnDocumentStart(const YAML::Mark& m) override { tick(m); }
  void OnDocumentEnd() override { tick(last_); }
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { tick(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { tick(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    tick(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    tick(m);
  }
  void OnSequenceEnd() override { tick(last_); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    tick(m);
  }
  void OnMapEnd() override { tick(last_); }

 private:
  void tick(const YAML::Mark& m) {
    last_ = m;
    if (++events_ <= limit_) return;
    throw ConfigError(source_ + ":" + std::to_string(m.line + 1) + ":" +
                      std::to_string(m.column + 1) +
                      ": YAML syntax error: the YAML parser does not end here (a ',' outside "
                      "[ ] or { }?)");
  }
  const std::string& source_;
  std::size_t limit_, events_ = 0;
  YAML::Mark last_;
};

}  // namespace

YAML::Node load_document(const std::string& text, const std::string& source) {
  check_characters(text, source);
  std::vector<YAML::Node> docs;
  try {
    {
      std::istringstream in(text);
      YAML::Parser parser(in);
      EventBound bound(source, text.size());
      while (parser.HandleNextDocument(bound)) {
      }
    }
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
