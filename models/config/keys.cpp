// `switchyard keys`: the config's keys as the parser reads them.
//
// How every key is reached: the section readers (config/section.hpp) record each key they take,
// with the type, default and range they check it against, while a KeyRecording is alive. The
// parsers branch (butterfly keys only on a butterfly, the pipeline's only when it is given, trace
// messages only in a trace, each schedule algorithm its own keys), so one document cannot reach
// them all: config_keys() parses the small probe documents below, each a valid config that
// switches on some branches, and takes the union of what they record (a key once, by path; list
// elements as traffic.messages[].src). A branch no probe reaches would leave its keys out of the
// listing, and the user guide's reference then names keys the listing lacks: the guide's test
// (tests/test_keys.cpp) catches that, and a new branch needs a probe here.
//
// Defaults and ranges that depend on the config (the node count, the priority classes) are named
// by the parser where it reads them (section.hpp's Int, Real, choice's def_name): two probes that
// record different numbers for one key are a problem that config_keys() reports.
#include "switchyard/config/keys.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "switchyard/base/json.hpp"
#include "switchyard/config/section.hpp"

namespace sy {

using namespace config_detail;

namespace {

// Each a valid config; together they reach every branch of the parsers.
const char* const kProbes[] = {
    // Every default: an 8x8 torus, input_vc routers, synthetic uniform traffic.
    "",
    // Traffic classes.
    "router: {priority_classes: 2}\n"
    "traffic: {classes: [{name: a, share: 0.5, packet_flits: 1}, {share: 0.5, priority: 1}]}\n",
    // The staged pipeline; the load by the throughput factor.
    "router: {pipeline: {}}\n"
    "traffic: {load: {rho: 0.2}}\n",
    // A hypercube; router broadcasts with their own rate; waves of some routers.
    "topology: {type: hypercube, dim: 3}\n"
    "router: {priority_classes: 2}\n"
    "traffic: {broadcast: {scheme: priority_star, rate: 0.01}}\n"
    "waves: {routers: [0]}\n",
    // A butterfly.
    "topology: {type: butterfly, k: 2, n: 2}\n",
    // A concentrated mesh; a fat tree.
    "topology: {type: cmesh, dims: [2, 2], concentration: 2}\n",
    "topology: {type: fat_tree, k: 2, n: 2}\n",
    // A dragonfly with link latencies (staged pipeline) and its worst-case traffic.
    "topology: {type: dragonfly, p: 1, a: 2, h: 1, g: 3, local_latency: 2, global_latency: 5}\n"
    "router: {vcs: 3, pipeline: {}}\n"
    "routing: {algorithm: ugal}\n"
    "traffic: {pattern: adversarial}\n",
    // A flattened butterfly.
    "topology: {type: flatfly, k: 2, n: 2, concentration: 2}\n",
    // A trace of inline messages.
    "topology: {dims: [4, 4]}\n"
    "traffic: {type: trace, messages: [{time: 0, src: 0, dst: 1}]}\n",
    // The routers' own total exchange.
    "topology: {dims: [4]}\n"
    "traffic: {type: total_exchange}\n",
    // A circuit-switched broadcast schedule.
    "topology: {dims: [5, 5]}\n"
    "router: {switching: direct_connect}\n"
    "traffic: {type: none}\n"
    "schedule: {algorithm: tiling}\n",
    // Explicit schedules, in slots and in phases.
    "topology: {type: hypercube, dim: 2}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "traffic: {type: none}\n"
    "schedule: {algorithm: explicit, packets: [{source: 0, destination: 1}],\n"
    "           transmissions: [{packet: 0, from: 0, route: [d0], slots: [0]}]}\n",
    "topology: {type: hypercube, dim: 2}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "traffic: {type: none}\n"
    "schedule: {algorithm: explicit, timing: phases, packets: [{source: 0, destination: 1}],\n"
    "           transmissions: [{packet: 0, from: 0, route: [d0], phase: 0}]}\n",
    // The slot schedules of the exchange and PMNB papers: pmnb, octr on a neighbourhood task
    // with k links, greedy on a task of tags.
    "topology: {type: hypercube, dim: 3}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "traffic: {type: none}\n"
    "schedule: {algorithm: pmnb, packets: 2}\n",
    "topology: {type: hypercube, dim: 3}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "traffic: {type: none}\n"
    "schedule: {algorithm: octr, task: neighbourhood, near: 1, far: 2, links: 1}\n",
    "topology: {type: hypercube, dim: 3}\n"
    "router: {buffering: output_queued, switching: store_and_forward}\n"
    "network_interface: {injection: all_port}\n"
    "traffic: {type: none}\n"
    "schedule: {algorithm: greedy, task: tags, tags: [1]}\n",
};

std::string parent_of(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos) return "";
  std::string p = path.substr(0, dot);
  if (p.size() > 2 && p.compare(p.size() - 2, 2, "[]") == 0) p.resize(p.size() - 2);
  return p;
}

// Adds one record to the variants of its path (one per type): a record with no type (a key only
// taken) adds nothing; one type with two defaults or ranges is a problem.
void add_variant(std::vector<KeyRecord>& variants, const KeyRecord& r,
                 std::vector<std::string>& problems) {
  if (r.type.empty()) return;
  for (const KeyRecord& v : variants) {
    if (v.type != r.type) continue;
    if (v.def != r.def || v.allowed != r.allowed)
      problems.push_back(r.path + ": recorded with default '" + v.def + "', allowed '" + v.allowed +
                         "' and with default '" + r.def + "', allowed '" + r.allowed +
                         "': name the bound or default that depends on the config where the "
                         "parser reads it (section.hpp: Int, Real, choice's def_name)");
    return;
  }
  variants.push_back(r);
}

// One key from its variants. A type that contains another (waves.routers: "all | list of
// integers" as raw notes it, "list of integers" as int_list reads it) is the key's, with its
// default and range, the narrower one's filling what it lacks; unrelated types (schedule.packets:
// pmnb's count, explicit's list) are listed both, with both defaults and ranges.
void combine(ConfigKey& k, const std::vector<KeyRecord>& variants) {
  for (const KeyRecord& r : variants) {
    if (k.type.empty()) {
      k.type = r.type;
      k.def = r.def;
      k.allowed = r.allowed;
      continue;
    }
    const bool wider = r.type.find(k.type) != std::string::npos;
    const bool narrower = k.type.find(r.type) != std::string::npos;
    auto fill = [&](std::string& have, const std::string& add) {
      if (have.empty())
        have = add;
      else if (!narrower && !add.empty() && have != add)
        have += " | " + add;
    };
    if (wider) {
      // r's fields win; k's fill what r lacks.
      const ConfigKey old = k;
      k.type = r.type;
      k.def = r.def.empty() ? old.def : r.def;
      k.allowed = r.allowed.empty() ? old.allowed : r.allowed;
      continue;
    }
    if (!narrower) k.type += " | " + r.type;
    fill(k.def, r.def);
    fill(k.allowed, r.allowed);
  }
}

}  // namespace

ConfigKeys config_keys() {
  ConfigKeys out;
  std::map<std::string, ConfigKey> by_path;
  std::map<std::string, std::vector<KeyRecord>> variants;
  // Each key's children in the order they were first read; the listing is this tree depth first
  // (a key a later probe reaches goes after its section's keys read before it).
  std::map<std::string, std::vector<std::string>> children;
  int n = 0;
  for (const char* probe : kProbes) {
    const std::string source = "<keys probe " + std::to_string(n++) + ">";
    KeyRecording rec;
    try {
      parse_config(probe, source);
    } catch (const ConfigError& e) {
      out.problems.push_back(std::string("a probe document was refused: ") + e.what());
    }
    for (const KeyRecord& r : rec.records) {
      auto it = by_path.find(r.path);
      if (it == by_path.end()) {
        it = by_path.emplace(r.path, ConfigKey{r.path, "", "", "", ""}).first;
        std::string parent = parent_of(r.path);
        if (parent.size() && !by_path.count(parent)) parent.clear();
        children[parent].push_back(r.path);
      }
      add_variant(variants[r.path], r, out.problems);
    }
  }
  for (auto& [path, key] : by_path) combine(key, variants[path]);
  std::vector<std::string> stack(children[""].rbegin(), children[""].rend());
  while (!stack.empty()) {
    const std::string p = stack.back();
    stack.pop_back();
    out.keys.push_back(by_path[p]);
    const auto& c = children[p];
    stack.insert(stack.end(), c.rbegin(), c.rend());
  }
  std::map<std::string, std::string> meaning;
  for (const auto& [path, text] : key_meanings())
    if (!meaning.emplace(path, text).second)
      out.problems.push_back(path + ": two meanings in config/key_docs.cpp");
  for (ConfigKey& k : out.keys) {
    if (k.type.empty())
      out.problems.push_back(k.path + ": read with no type (Section::raw needs a KeyNote)");
    auto it = meaning.find(k.path);
    if (it == meaning.end())
      out.problems.push_back(k.path + ": no meaning in config/key_docs.cpp");
    else
      k.meaning = it->second;
  }
  for (const auto& [path, text] : meaning)
    if (!by_path.count(path))
      out.problems.push_back(path +
                             ": config/key_docs.cpp describes it, the parser reads no such key");
  return out;
}

std::vector<ConfigKey> keys_under(const std::vector<ConfigKey>& keys, const std::string& prefix) {
  std::vector<ConfigKey> v;
  for (const ConfigKey& k : keys) {
    const std::string& p = k.path;
    if (prefix.empty() || p == prefix ||
        (p.size() > prefix.size() && p.compare(0, prefix.size(), prefix) == 0 &&
         (p[prefix.size()] == '.' || p[prefix.size()] == '[')))
      v.push_back(k);
  }
  return v;
}

namespace {

// Words of s in lines of at most width characters (a longer word on a line of its own).
std::vector<std::string> wrap(const std::string& s, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  std::string line;
  for (std::string w; in >> w;) {
    if (!line.empty() && line.size() + 1 + w.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string keys_table(const std::vector<ConfigKey>& keys) {
  // Type, default and allowed wrapped at their caps; each column as wide as its widest line.
  const char* head[] = {"key", "type", "default", "allowed", "meaning"};
  const std::size_t cap[4] = {1000, 24, 20, 40};
  auto cells = [&](const ConfigKey& k) {
    return std::vector<std::vector<std::string>>{{k.path},
                                                 wrap(k.type, cap[1]),
                                                 wrap(k.def.empty() ? "-" : k.def, cap[2]),
                                                 wrap(k.allowed.empty() ? "-" : k.allowed, cap[3]),
                                                 {k.meaning}};
  };
  std::size_t width[4] = {3, 4, 7, 7};
  for (const ConfigKey& k : keys) {
    const auto c = cells(k);
    for (int i = 0; i < 4; ++i)
      for (const std::string& line : c[static_cast<std::size_t>(i)])
        width[i] = std::max(width[i], line.size());
  }
  std::ostringstream o;
  auto row = [&](const std::vector<std::vector<std::string>>& cols) {
    std::size_t lines = 0;
    for (const auto& c : cols) lines = std::max(lines, c.size());
    for (std::size_t l = 0; l < lines; ++l) {
      std::string text;
      for (std::size_t i = 0; i < cols.size(); ++i) {
        const std::string cell = l < cols[i].size() ? cols[i][l] : "";
        text += cell;
        if (i + 1 < cols.size())
          text += std::string(width[i] - std::min(width[i], cell.size()) + 2, ' ');
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      o << text << "\n";
    }
  };
  row({{head[0]}, {head[1]}, {head[2]}, {head[3]}, {head[4]}});
  for (const ConfigKey& k : keys) row(cells(k));
  return o.str();
}

std::string keys_json(const std::vector<ConfigKey>& keys) {
  Json j(2);
  j.open_array();
  for (const ConfigKey& k : keys) {
    j.open().kv("key", k.path).kv("type", k.type);
    if (!k.def.empty()) j.kv("default", k.def);
    if (!k.allowed.empty()) j.kv("allowed", k.allowed);
    j.kv("meaning", k.meaning).close();
  }
  j.close();
  return j.str() + "\n";
}

}  // namespace sy
