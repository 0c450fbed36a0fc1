// A small VCD reader for the tests: every variable's full dotted name (without the top "SystemC"
// scope) and its value changes in time order. A value with an x or z bit reads kZ (a port with
// no packet on it shows z).
#pragma once
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sy::test {

struct Vcd {
  struct Change {
    std::uint64_t time, value;
  };
  static constexpr std::uint64_t kZ = ~std::uint64_t{0} - 1;
  std::map<std::string, std::vector<Change>> signals;  // by name
  std::string timescale;                               // as written, e.g. "1 ns"
  std::uint64_t end = 0;                               // the last time stamp
  bool ok = false;

  explicit Vcd(const std::string& path) {
    std::ifstream in(path);
    if (!in) return;
    std::map<std::string, std::string> by_id;
    std::vector<std::string> scope;
    std::uint64_t t = 0;
    std::string line;
    bool defs = true;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string w;
      if (!(ls >> w)) continue;
      if (defs) {
        if (w == "$scope") {
          std::string kind, name;
          ls >> kind >> name;
          scope.push_back(name);
        } else if (w == "$upscope") {
          scope.pop_back();
        } else if (w == "$var") {
          std::string type, width, id, name;
          ls >> type >> width >> id >> name;
          std::string full;
          for (std::size_t i = 1; i < scope.size(); ++i) full += scope[i] + ".";
          by_id[id] = full + name;
          signals[full + name];
        } else if (w == "$timescale") {
          // Its words up to $end, on this line or the next ones.
          for (std::string x;;) {
            if (!(ls >> x)) {
              if (!std::getline(in, line)) break;
              ls.clear();
              ls.str(line);
              continue;
            }
            if (x == "$end") break;
            timescale += (timescale.empty() ? "" : " ") + x;
          }
        } else if (w == "$enddefinitions") {
          defs = false;
        }
        continue;
      }
      if (w[0] == '#') {
        t = end = std::stoull(w.substr(1));
      } else if (w[0] == 'b') {
        std::string id;
        ls >> id;
        auto it = by_id.find(id);
        const std::string bits = w.substr(1);
        const bool z = bits.find_first_of("xXzZ") != std::string::npos;
        if (it != by_id.end())
          signals[it->second].push_back({t, z ? kZ : std::stoull(bits, nullptr, 2)});
      } else if ((w[0] == '0' || w[0] == '1') && w.size() > 1) {
        auto it = by_id.find(w.substr(1));
        if (it != by_id.end()) signals[it->second].push_back({t, std::uint64_t(w[0] - '0')});
      }
    }
    ok = !defs;
  }
  bool has(const std::string& name) const { return signals.count(name) > 0; }
  // The value at time t (the last change at or before t).
  std::uint64_t at(const std::string& name, std::uint64_t t) const {
    std::uint64_t v = 0;
    auto it = signals.find(name);
    if (it == signals.end()) return ~std::uint64_t{0};
    for (const auto& c : it->second) {
      if (c.time > t) break;
      v = c.value;
    }
    return v;
  }
  // The times the signal is 1 (cycles are 1 time unit), up to `until`.
  std::vector<std::uint64_t> high_cycles(const std::string& name, std::uint64_t until) const {
    std::vector<std::uint64_t> v;
    for (std::uint64_t t = 0; t <= until; ++t)
      if (at(name, t) == 1) v.push_back(t);
    return v;
  }
};

}  // namespace sy::test
