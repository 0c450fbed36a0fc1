#include "switchyard/network/waves.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "switchyard/router/router.hpp"

namespace sy {
std::string port_label(const Topology& topo, int p) {
  if (p == topo.num_ports()) return "inj";
  if (p > topo.num_ports()) return "inj" + std::to_string(p - topo.num_ports());
  std::string s = topo.port_name(p);
  for (char& c : s) c = c == '+' ? 'p' : c == '-' ? 'm' : c;
  return s;
}

std::string router_label(const Topology& topo, int router) {
  if (!topo.indirect()) return "r" + std::to_string(router);
  // Butterfly: r<row>_<level>, the (row, level) of the router.
  std::string s = topo.router_name(router);  // "(row,level)"
  for (char& c : s) c = c == ',' ? '_' : c;
  return "r" + s.substr(1, s.size() - 2);
}

RouterProbe::RouterProbe(int inputs, int outputs, int vcs) : in(inputs), out(outputs) {
  for (auto& i : in) i.occ.assign(vcs, 0);
  for (auto& o : out) o.credit.assign(vcs, 0);
}

void RouterProbe::clear_events() {
  for (auto& i : in) {
    i.valid = i.head = i.tail = false;
    i.vc_req = i.vc_gnt = 0;
  }
  for (auto& o : out) o.sw_req = o.sw_gnt = o.xbar = 0;
}

Waves::Waves(const Config& cfg, const Topology& topo, const std::vector<Router*>& routers)
    : from_(cfg.waves.from_cycle), to_(cfg.waves.to_cycle) {
  vcd_ = cfg.waves.file;
  std::string base = vcd_;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
    base.resize(base.size() - 4);
  else
    vcd_ += ".vcd";  // sc_create_vcd_trace_file always appends it
  gtkw_ = base + ".gtkw";
  const std::filesystem::path dir = std::filesystem::path(vcd_).parent_path();
  std::error_code ec;
  // One level only (the config checked its parent exists).
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    std::filesystem::create_directory(dir, ec);
  if (ec) throw std::runtime_error("waves: cannot create directory " + dir.string());
  {
    std::ofstream probe(vcd_);
    if (!probe) throw std::runtime_error("waves: cannot write " + vcd_);
  }
  if (cfg.waves.routers.empty()) {
    traced_ = routers;
  } else {
    for (int n : cfg.waves.routers) traced_.push_back(routers[n]);
  }
  tf_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
  tf_->set_time_unit(1, sc_core::SC_NS);
  const int P = topo.num_ports(), V = cfg.router.vcs;
  const bool oq = cfg.router.buffering != Buffering::InputVc;     // no VCs: output queues only
  const int I = P + (oq ? 1 : cfg.interface.injection_channels);  // input ports
  inputs_ = I;
  for (Router* r : traced_) {
    probes_.emplace_back(new RouterProbe(I, P, oq ? 0 : V));
    RouterProbe& pr = *probes_.back();
    r->set_probe(&pr);
    const std::string rn = router_label(topo, r->node()) + ".";
    for (int p = 0; p < I; ++p) {
      RouterProbe::In& w = pr.in[p];
      const std::string n = rn + "in_" + port_label(topo, p) + ".";
      sc_core::sc_trace(tf_, w.valid, n + "valid");
      sc_core::sc_trace(tf_, w.pkt, n + "pkt", 32);
      sc_core::sc_trace(tf_, w.head, n + "head");
      sc_core::sc_trace(tf_, w.tail, n + "tail");
      if (oq) continue;
      sc_core::sc_trace(tf_, w.vc, n + "vc", 8);
      for (int v = 0; v < V; ++v)
        sc_core::sc_trace(tf_, w.occ[v], n + "occ" + std::to_string(v), 16);
      sc_core::sc_trace(tf_, w.vc_req, n + "vc_req", V);
      sc_core::sc_trace(tf_, w.vc_gnt, n + "vc_gnt", V);
    }
    for (int p = 0; p < P; ++p) {
      RouterProbe::Out& w = pr.out[p];
      const std::string n = rn + "out_" + port_label(topo, p) + ".";
      sc_core::sc_trace(tf_, w.xbar, n + "xbar", I);
      if (oq) {
        sc_core::sc_trace(tf_, w.queued, n + "queued", 16);
        continue;
      }
      sc_core::sc_trace(tf_, w.sw_req, n + "sw_req", I);
      sc_core::sc_trace(tf_, w.sw_gnt, n + "sw_gnt", I);
      for (int v = 0; v < V; ++v)
        sc_core::sc_trace(tf_, w.credit[v], n + "credit" + std::to_string(v), 16);
    }
  }
  for (std::size_t i = 0; i < traced_.size(); ++i) traced_[i]->sample(*probes_[i]);
  write_gtkw(topo, V, oq);
}

Waves::~Waves() {
  close();
}

void Waves::close() {
  if (!tf_) return;
  sc_core::sc_close_vcd_trace_file(tf_);
  tf_ = nullptr;
  for (Router* r : traced_) r->set_probe(nullptr);
}

void Waves::begin_cycle(Cycle t) {
  const bool on = t >= from_ && t <= to_;
  for (std::size_t i = 0; i < probes_.size(); ++i) {
    probes_[i]->clear_events();
    probes_[i]->on = on;
    // State that lasts (occupancy, credits, circuits held) is shown from the cycle's start.
    if (on) traced_[i]->sample(*probes_[i]);
  }
}

void Waves::end_cycle() {
  for (std::size_t i = 0; i < traced_.size(); ++i)
    if (probes_[i]->on) traced_[i]->sample(*probes_[i]);
}

// GTKWave save file: one collapsed group per router, one group per port inside it.
void Waves::write_gtkw(const Topology& topo, int vcs, bool oq) const {
  std::ofstream g(gtkw_);
  if (!g) throw std::runtime_error("waves: cannot write " + gtkw_);
  const std::string vcd_name = std::filesystem::path(vcd_).filename().string();
  g << "[*] Switchyard waves: gtkwave " << vcd_ << " " << gtkw_ << "\n";
  g << "[dumpfile] \"" << vcd_name << "\"\n[timestart] 0\n";
  const int P = topo.num_ports();
  auto bit = [&](const std::string& s) { g << "@28\n" << s << "\n"; };
  auto vec = [&](const std::string& s, int w, const char* fmt) {
    if (w == 1)
      g << fmt << "\n" << s << "\n";
    else
      g << fmt << "\n" << s << "[" << (w - 1) << ":0]\n";
  };
  auto open = [&](const std::string& n) { g << "@800200\n-" << n << "\n"; };
  auto close = [&](const std::string& n) { g << "@1000200\n-" << n << "\n"; };
  for (Router* r : traced_) {
    const std::string rn = router_label(topo, r->node());
    const std::string sp = "SystemC." + rn + ".";
    open(rn);
    for (int p = 0; p < inputs_; ++p) {
      const std::string pn = "in_" + port_label(topo, p);
      const std::string s = sp + pn + ".";
      open(rn + " " + pn);
      bit(s + "valid");
      vec(s + "pkt", 32, "@24");
      if (!oq) vec(s + "vc", 8, "@24");
      bit(s + "head");
      bit(s + "tail");
      if (!oq) {
        for (int v = 0; v < vcs; ++v) vec(s + "occ" + std::to_string(v), 16, "@24");
        vec(s + "vc_req", vcs, "@28");
        vec(s + "vc_gnt", vcs, "@28");
      }
      close(rn + " " + pn);
    }
    for (int p = 0; p < P; ++p) {
      const std::string pn = "out_" + port_label(topo, p);
      const std::string s = sp + pn + ".";
      open(rn + " " + pn);
      if (oq) {
        vec(s + "queued", 16, "@24");
      } else {
        vec(s + "sw_req", inputs_, "@28");
        vec(s + "sw_gnt", inputs_, "@28");
      }
      vec(s + "xbar", inputs_, "@28");
      if (!oq)
        for (int v = 0; v < vcs; ++v) vec(s + "credit" + std::to_string(v), 16, "@24");
      close(rn + " " + pn);
    }
    close(rn);
  }
}

}  // namespace sy
