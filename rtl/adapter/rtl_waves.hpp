// The GTKWave save file of an RTL router's waves (waves.rtl_nodes): rtl_<node>.gtkw beside
// rtl_<node>.vcd. It is made from the VCD's own declarations, so it fits any router with the
// port contract of rtl/README.md: the top module's ports, then, for the names a router
// following rtl/router/sy_vc_router.sv's naming has, its input VCs' states, its allocators'
// requests and grants and its output VCs' credit counters (groups a router without such names
// leaves empty and out). Everything else is in GTKWave's signal tree.
#pragma once
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sy::rtl {

struct VcdVar {
  std::string scope;  // dotted, e.g. TOP.r5.sy_vc_router
  std::string name;   // e.g. cred_q[0][1]
  std::string range;  // e.g. [2:0], or empty
  int width = 1;
};

// The variables the VCD declares (its header, up to $enddefinitions).
inline std::vector<VcdVar> read_vcd_vars(const std::string& vcd) {
  std::ifstream f(vcd);
  if (!f) throw std::runtime_error("waves: cannot read " + vcd);
  std::vector<VcdVar> vars;
  std::vector<std::string> scope;
  std::string tok;
  while (f >> tok) {
    if (tok == "$scope") {
      std::string kind, name;
      f >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      if (!scope.empty()) scope.pop_back();
    } else if (tok == "$var") {
      VcdVar v;
      std::string type, id;
      f >> type >> v.width >> id >> v.name;
      std::string t;
      while (f >> t && t != "$end") v.range += t;
      for (std::size_t k = 0; k < scope.size(); ++k) v.scope += (k ? "." : "") + scope[k];
      vars.push_back(v);
    } else if (tok == "$enddefinitions") {
      break;
    }
  }
  return vars;
}

// Writes <vcd without .vcd>.gtkw for cycles [first, last] of the VCD.
inline void write_rtl_gtkw(const std::string& vcd, std::uint64_t first, std::uint64_t last) {
  const std::vector<VcdVar> vars = read_vcd_vars(vcd);
  std::string gtkw = vcd;
  if (gtkw.size() > 4 && gtkw.compare(gtkw.size() - 4, 4, ".vcd") == 0) gtkw.resize(gtkw.size() - 4);
  gtkw += ".gtkw";
  std::ofstream g(gtkw);
  if (!g) throw std::runtime_error("waves: cannot write " + gtkw);
  // The router's own scope: the deepest that declares sw_valid_o (a port of the contract; the
  // top module's, or its core's when the top wraps a core with the same ports).
  std::string top;
  std::size_t depth = 0;
  for (const VcdVar& v : vars) {
    const std::size_t d = static_cast<std::size_t>(std::count(v.scope.begin(), v.scope.end(), '.'));
    if (v.name == "sw_valid_o" && (top.empty() || d > depth)) {
      top = v.scope;
      depth = d;
    }
  }
  const std::string file = vcd.substr(vcd.find_last_of('/') == std::string::npos
                                          ? 0
                                          : vcd.find_last_of('/') + 1);
  g << "[*] Switchyard RTL waves: gtkwave " << vcd << " " << gtkw << "\n";
  g << "[*] time unit = 1 cycle (the network's); sampled cycles " << first << " to " << last
    << "\n";
  g << "[dumpfile] \"" << file << "\"\n[timestart] " << first << "\n";
  g << "[size] 1400 860\n[pos] -1 -1\n";
  // (GTKWave shows 2^-zoom time units per 200 pixels: about 100 cycles fill the pane.)
  g << "*-4.321928 " << first << "\n[sst_expanded] 1\n[signals_width] 300\n";
  auto base = [](const std::string& n) { return n.substr(0, n.find('[')); };
  auto port = [](const std::string& b, const char* prefix) {
    const std::size_t n = b.size();
    return b.rfind(prefix, 0) == 0 && n > 2 && b[n - 2] == '_' && (b[n - 1] == 'i' || b[n - 1] == 'o');
  };
  struct Group {
    const char* title;
    std::vector<std::string> names;  // names, or port prefixes (ending in _)
  };
  const Group groups[] = {
      {"ports: flits in (arriving at the next cycle)", {"in_"}},
      {"ports: flits out (sw_*: won the switch the cycle before; out_*: a cycle later)",
       {"sw_", "out_"}},
      {"ports: credits in and out", {"cr_"}},
      {"ports: idle", {"idle_o"}},
      {"input VC states (0 idle, 1 routed, 2 active), output port, VC class (torus) and VC",
       {"vc_state_q", "vc_port_q", "vc_mask_q", "vc_ovc_q", "buf_empty"}},
      {"allocators: VC requests and grants, switch grants",
       {"va_req", "va_gnt", "va_win", "in_gnt", "out_req", "out_gnt", "out_gnt_valid"}},
      {"output VCs: credit counters, owned, tail sent", {"cred_q", "owned_q", "tsent_q"}},
  };
  for (const Group& gr : groups) {
    std::vector<const VcdVar*> pick;
    for (const VcdVar& v : vars) {
      if (v.scope != top) continue;
      const std::string b = base(v.name);
      bool in = false;
      for (const std::string& n : gr.names)
        in |= n.back() == '_' ? port(b, n.c_str()) : b == n;
      if (in) pick.push_back(&v);
    }
    if (pick.empty()) continue;
    g << "@800200\n-" << gr.title << "\n";
    for (const VcdVar* v : pick)
      g << (v->width == 1 ? "@28" : "@22") << "\n" << v->scope << "." << v->name << v->range
        << "\n";
    g << "@1000200\n-" << gr.title << "\n";
  }
  if (!g) throw std::runtime_error("waves: cannot write " + gtkw);
}

}  // namespace sy::rtl
