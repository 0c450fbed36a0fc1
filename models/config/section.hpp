// Reading a config: the YAML mapping reader (every key taken or reported unknown, errors with
// file:line:col and the key path), the --set overrides, and one parser per config section
// (config/parse_<section>.cpp). Internal to models/config/; units see only config.hpp.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "switchyard/base/json.hpp"
#include "switchyard/config/config.hpp"

namespace sy {
namespace config_detail {

// Where a node came from: "file:line:col", or "--set" for a value given on the command line.
// An absent key has no place of its own: readers point at its section (Section::at); a node
// that is not there at all is reported as the file.
inline std::string where(const std::string& source, const YAML::Node& n) {
  if (!n.IsDefined()) return source;
  const YAML::Mark m = n.Mark();
  if (m.line < 0) return "--set";
  return source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

[[noreturn]] inline void fail(const std::string& source, const YAML::Node& n,
                              const std::string& path, const std::string& msg) {
  throw ConfigError(where(source, n) + ": " + (path.empty() ? "the document" : path) + ": " + msg);
}

inline std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Recording mode, for `switchyard keys` (config/keys.cpp): while a KeyRecording is alive on this
// thread, every key a Section takes is appended to it with its type, default and allowed values,
// as the reader that takes it checks them. Off (no recording) in normal parsing: a reader then
// pays one test of a null pointer per key, and nothing it reads or returns changes.
struct KeyRecord {
  std::string path;     // list elements as [] ("traffic.messages[].src")
  std::string type;     // "" when the key was only taken (Section::raw without a note)
  std::string def;      // the default as YAML writes it; "" when none
  std::string allowed;  // a range ("0 .. 32"), the choices ("a | b"), or ""
};
inline thread_local std::vector<KeyRecord>* key_recording = nullptr;

class KeyRecording {
 public:
  KeyRecording() : outer_(key_recording) { key_recording = &records; }
  ~KeyRecording() { key_recording = outer_; }
  KeyRecording(const KeyRecording&) = delete;
  KeyRecording& operator=(const KeyRecording&) = delete;
  std::vector<KeyRecord> records;

 private:
  std::vector<KeyRecord>* outer_;
};

// A range end or default that depends on what is already parsed (the node count, the priority
// classes): the value the reader uses, and the name `switchyard keys` gives it ("nodes - 1").
// Converts from a plain number, so a constant bound is written as before.
struct Int {
  Int(std::int64_t v) : value(v) {}  // NOLINT: implicit, a constant bound
  Int(std::int64_t v, const char* n) : value(v), name(n) {}
  std::int64_t value;
  const char* name = nullptr;
};
struct Real {
  Real(double v) : value(v) {}  // NOLINT: implicit, a constant bound
  Real(double v, const char* n) : value(v), name(n) {}
  double value;
  const char* name = nullptr;
};
// What `switchyard keys` says of a key read by Section::raw (a list or a mixed value, checked by
// the parser itself).
struct KeyNote {
  const char* type;
  const char* def = nullptr;
  const char* allowed = nullptr;
};

// How the key listing writes a number: powers of two from 2^16 as 2^k.
inline std::string key_number(std::int64_t v) {
  if (v >= 65536 && (v & (v - 1)) == 0) {
    int k = 0;
    while ((std::int64_t{1} << k) != v) ++k;
    return "2^" + std::to_string(k);
  }
  if (v == std::numeric_limits<int>::max()) return "2^31 - 1";
  return std::to_string(v);
}
inline std::string key_number(const Int& v) {
  return v.name ? v.name : key_number(v.value);
}
inline std::string key_number(const Real& v) {
  return v.name ? v.name : Json::number(v.value);
}

// A YAML mapping being read: every key must be taken, or finish() reports it as unknown.
class Section {
 public:
  // anchor: where an error about an absent key of this section points when the section itself
  // is absent (its parent section).
  Section(const YAML::Node& node, std::string path, const std::string& source,
          const YAML::Node& anchor = YAML::Node(YAML::NodeType::Undefined))
      : node_(node),
        // (constructed, never assigned: assigning a YAML::Node rewrites the node it refers to)
        anchor_(node && !node.IsNull() ? node : anchor),
        path_(std::move(path)),
        source_(source),
        given_(node.IsDefined()) {
    if (node_ && node_.IsNull()) node_ = YAML::Node(YAML::NodeType::Undefined);
    if (node_ && !node_.IsMap()) fail(source_, node_, path_, "expected a mapping of keys");
  }
  // The node of key k for an error message: the value when given, else the section (or the
  // nearest enclosing one given): an absent key is located where it would go.
  YAML::Node at(const char* k) const {
    if (has(k)) return node_[k];
    return anchor_;
  }
  bool has(const char* k) const { return node_ && node_.IsMap() && node_[k]; }
  // The section is given (possibly empty: `power: {}`).
  bool present() const { return given_; }
  std::string path(const char* k) const { return path_.empty() ? k : path_ + "." + k; }
  // The value under k, or an undefined node when the key is absent. The note says what the key
  // takes for `switchyard keys` (a key read only through raw needs one).
  YAML::Node raw(const char* k, const KeyNote& note = {nullptr}) {
    if (key_recording)
      record(k, note.type ? note.type : "", note.def ? note.def : "",
             note.allowed ? note.allowed : "");
    return take(k);
  }
  YAML::Node take(const char* k) {
    taken_.insert(k);
    if (has(k)) {
      YAML::Node n = node_[k];
      if (n.IsNull()) fail(source_, n, path(k), "needs a value");
      return n;
    }
    return YAML::Node(YAML::NodeType::Undefined);
  }
  std::int64_t integer(const char* k, Int def, Int lo, Int hi) {
    if (key_recording)
      record(k, "integer", key_number(def), key_number(lo) + " .. " + key_number(hi));
    YAML::Node n = take(k);
    if (!n) return def.value;
    return as_int(n, path(k), lo.value, hi.value);
  }
  double real(const char* k, Real def, Real lo, Real hi) {
    if (key_recording)
      record(k, "number", key_number(def), key_number(lo) + " .. " + key_number(hi));
    YAML::Node n = take(k);
    if (!n) return def.value;
    return as_real(n, path(k), lo.value, hi.value);
  }
  bool boolean(const char* k, bool def) {
    if (key_recording) record(k, "boolean", def ? "true" : "false", "true | false");
    YAML::Node n = take(k);
    if (!n) return def;
    bool b;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, b))
      fail(source_, n, path(k), "expected true or false");
    return b;
  }
  std::string text(const char* k, const std::string& def) {
    if (key_recording) record(k, "string", def.empty() ? "\"\"" : def, "");
    YAML::Node n = take(k);
    if (!n) return def;
    if (!n.IsScalar()) fail(source_, n, path(k), "expected a string");
    return n.Scalar();
  }
  // def_name: the default as `switchyard keys` writes it when it depends on the config (else the
  // name of the option that is def).
  template <class E>
  E choice(const char* k, E def, const std::vector<std::pair<std::string, E>>& options,
           const char* def_name = nullptr) {
    if (key_recording) {
      std::string d = def_name ? def_name : "", names;
      for (const auto& o : options) {
        if (!def_name && d.empty() && o.second == def) d = o.first;
        names += (names.empty() ? "" : " | ") + o.first;
      }
      record(k, "choice", d, names);
    }
    YAML::Node n = take(k);
    if (!n) return def;
    std::vector<std::string> names;
    for (const auto& o : options) {
      if (n.IsScalar() && n.Scalar() == o.first) return o.second;
      names.push_back(o.first);
    }
    fail(source_, n, path(k),
         "unknown value '" + (n.IsScalar() ? n.Scalar() : std::string("<non-scalar>")) +
             "' (expected one of: " + join(names) + ")");
  }
  std::vector<int> int_list(const char* k, std::vector<int> def, Int lo, Int hi) {
    if (key_recording) {
      std::string d;
      for (int x : def) d += (d.empty() ? "" : ", ") + std::to_string(x);
      record(k, "list of integers", "[" + d + "]",
             "each " + key_number(lo) + " .. " + key_number(hi));
    }
    YAML::Node n = take(k);
    if (!n) return def;
    if (!n.IsSequence()) fail(source_, n, path(k), "expected a list of integers");
    std::vector<int> v;
    for (std::size_t i = 0; i < n.size(); ++i)
      v.push_back(static_cast<int>(
          as_int(n[i], path(k) + "[" + std::to_string(i) + "]", lo.value, hi.value)));
    return v;
  }
  Section sub(const char* k) { return Section(raw(k, {"section"}), path(k), source_, anchor_); }
  void finish() const {
    if (!node_) return;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      const std::string k = it->first.as<std::string>();
      if (!taken_.count(k)) {
        std::vector<std::string> known(taken_.begin(), taken_.end());
        fail(source_, it->first, path(k.c_str()), "unknown key (known here: " + join(known) + ")");
      }
    }
  }
  std::int64_t as_int(const YAML::Node& n, const std::string& p, std::int64_t lo,
                      std::int64_t hi) const {
    long long v;
    if (!n.IsScalar() || !YAML::convert<long long>::decode(n, v))
      fail(source_, n, p, "expected an integer, got '" + (n.IsScalar() ? n.Scalar() : "?") + "'");
    if (v < lo || v > hi)
      fail(source_, n, p,
           "value " + std::to_string(v) + " out of range [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "]");
    return v;
  }
  double as_real(const YAML::Node& n, const std::string& p, double lo, double hi) const {
    double v;
    if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v))
      fail(source_, n, p, "expected a number, got '" + (n.IsScalar() ? n.Scalar() : "?") + "'");
    if (v < lo || v > hi)
      fail(source_, n, p,
           "value " + Json::number(v) + " out of range [" + Json::number(lo) + ", " +
               Json::number(hi) + "]");
    return v;
  }
  const YAML::Node& node() const { return node_; }
  const std::string& source() const { return source_; }

 private:
  // Recording mode: appends key k of this section, its list indices written as [].
  void record(const char* k, std::string type, std::string def, std::string allowed) const {
    std::string p;
    const std::string full = path(k);
    for (std::size_t i = 0; i < full.size(); ++i) {
      if (full[i] == '[') {
        const std::size_t close = full.find(']', i);
        p += "[]";
        i = close == std::string::npos ? full.size() : close;
      } else {
        p += full[i];
      }
    }
    key_recording->push_back({std::move(p), std::move(type), std::move(def), std::move(allowed)});
  }

  YAML::Node node_, anchor_;
  std::string path_;
  const std::string& source_;
  bool given_;
  std::set<std::string> taken_;
};

constexpr std::int64_t kMaxI = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxCycles = std::int64_t{1} << 50;

// Refuses a control character other than tab, line feed and carriage return (source:line:col).
void check_characters(const std::string& text, const std::string& source);

// Parses the text into one YAML document and refuses what the key reader cannot name (keys that
// are not plain names, duplicate keys, merge keys, unterminated quotes, several documents).
YAML::Node load_document(const std::string& text, const std::string& source);

// Applies one "key.path=value" override to the parsed document (before validation).
void apply_override(YAML::Node& root, const std::string& ov);

// One parser per section. Each reads its keys from `s`, validates them against what is already
// parsed in `c` (sections are read in this order), and calls s.finish().
void parse_topology(Section& s, Config& c);
void parse_router(Section& s, Config& c);
void parse_timing(Section& s, Config& c);
void parse_routing(Section& s, Config& c);
void parse_interface(Section& s, Config& c);
void parse_traffic(Section& s, Config& c);
void parse_simulation(Section& s, Config& c);
void parse_waves(Section& s, Config& c);
void parse_power(Section& s, Config& c);
void parse_schedule(Section& s, Config& c);

// The PMNB scans' t_p (key scan_slots of s) for packets of packet_flits flits cut in `pieces`
// (algorithm II: d): t_p times the packet's flits must be whole flits, and a grid finer than a
// piece (schemes/pmnb/mnb.hpp ScanGrid) needs timing.delta = 0 (parse_schedule.cpp).
void check_scan_slots(const Config& c, const Section& s, double tp, int packet_flits, int pieces);

}  // namespace config_detail
}  // namespace sy
