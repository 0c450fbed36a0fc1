#include "switchyard/power/power_plugin.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>

#include "switchyard/base/json.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/network/waves.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy {

std::unique_ptr<Plugin> PowerPlugin::make(const Config& cfg) {
  if (!cfg.power.enable) return nullptr;
  return std::make_unique<PowerPlugin>();
}

// The router every node has, and its units' and a link's models.
void PowerPlugin::price(const Config& cfg, const Topology& topo) {
  const PowerConfig& pc = cfg.power;
  const RouterConfig& rc = cfg.router;
  // The topology's ports, the NI's injection channels in and one ejection port out (the staged
  // pipeline's ejection outputs). Output-queued routers: a queue per output and priority class,
  // priced as a register file of vc_depth flits per class; circuit routers have no buffers
  // (nothing of them priced) and none has credits but the input-VC router.
  shape.in_ports = topo.num_ports() + topo.concentration() * cfg.interface.injection_channels;
  shape.out_ports = topo.num_ports() +
                    topo.concentration() * (rc.pipeline.staged ? rc.pipeline.ejection_ports : 1);
  const bool oq = rc.buffering == Buffering::OutputQueued;
  buffered = rc.buffering != Buffering::Circuit;
  shape.vcs = oq ? rc.priority_classes : buffered ? rc.vcs : 1;
  shape.depth = rc.vc_depth;
  shape.flit_bits = pc.flit_width_bits;
  shape.buffer = pc.sram_buffers ? BufferKind::Sram : BufferKind::FlipFlop;
  shape.crossbar = pc.mux_crossbar ? CrossbarKind::MuxTree : CrossbarKind::Matrix;
  shape.frequency_ghz = pc.frequency_ghz;
  shape.activity = pc.activity;
  tech = pc.tech.name;
  clock_gating = pc.clock_gating;
  router = model_router(shape, pc.tech);
  if (!buffered) {
    router.buffer_write = router.buffer_read = 0;
    router.buffers = UnitStatic{};
  }
  if (rc.buffering != Buffering::InputVc) router.credit = 0;
  link = model_link(pc.link_length_mm, shape, pc.tech);
  // Each link class's (power.link_lengths_mm; the others link_length_mm long).
  link_classes.clear();
  for (int k = 0; k < topo.num_link_classes(); ++k) {
    const double given = k < static_cast<int>(pc.class_length_mm.size())
                             ? pc.class_length_mm[static_cast<std::size_t>(k)]
                             : -1.0;
    const double mm = given >= 0 ? given : pc.link_length_mm;
    link_classes.push_back({topo.link_class_name(k), mm, model_link(mm, shape, pc.tech), 0, 0});
  }
}

// One router's dynamic energy (pJ) by class (buffers, crossbar, allocators, clock) for its
// events a over `cycles` cycles. (The ideal pipeline's ejection, a flit taken by the NI as it
// arrives, is priced as a buffered router's: one buffer write and read and one crossbar
// traversal to the ejection port; a circuit's: the crossbar traversal.)
std::array<double, 4> PowerPlugin::energy(const RouterActivity& a, double cycles) const {
  const double ej = buffered ? static_cast<double>(a.ejected) : 0;
  const double writes = static_cast<double>(a.buffer_writes) + ej;
  const double reads = static_cast<double>(a.buffer_reads) + ej;
  return {writes * router.buffer_write + reads * router.buffer_read,
          static_cast<double>(a.crossbar + a.ejected) * router.crossbar,
          static_cast<double>(a.sa_stage1 + a.sa_lone) * router.sa_stage1 +
              static_cast<double>(a.sa_stage2 + a.sa_lone) * router.sa_stage2 +
              static_cast<double>(a.va) * router.va + reads * router.credit,
          (clock_gating ? static_cast<double>(a.active_cycles) : cycles) * router.clock};
}

void PowerPlugin::attach(Network& net) {
  net.count_activity();
  const Config& cfg = net.config();
  if (!cfg.waves.power || !net.waves()) return;
  // waves.power: each traced router's power over the last window, as r<n>.power_uw.
  price(cfg, net.topology());
  Waves& w = *net.waves();
  const int R = net.topology().num_routers();
  wave_uw_.assign(static_cast<std::size_t>(R), 0);
  wave_last_.assign(static_cast<std::size_t>(R), RouterActivity{});
  for (int r = 0; r < R; ++r)
    if (w.traced(r)) {
      w.add_router_value(r, "power_uw", &wave_uw_[static_cast<std::size_t>(r)], &wave_valid_);
      wave_routers_.push_back(&net.router(r));
    }
  wave_window_ = cfg.waves.power_window;
  wave_ghz_ = cfg.power.frequency_ghz;
  w.on_end_cycle([this](Cycle t) { wave_update(t); });
}

// At the end of cycle t, once a window has passed: each traced router's energy since the last
// update over the time since then, plus its leakage.
void PowerPlugin::wave_update(Cycle t) {
  if (t + 1 < wave_from_ + static_cast<Cycle>(wave_window_)) return;
  const double cycles = static_cast<double>(t + 1 - wave_from_);
  const double leak_uw = 1000 * router.total().leakage_mw;
  for (Router* r : wave_routers_) {
    const auto i = static_cast<std::size_t>(r->node());
    RouterActivity d = *r->activity();
    d -= wave_last_[i];
    wave_last_[i] = *r->activity();
    double pj = 0;
    for (double e : energy(d, cycles)) pj += e;
    const double uw = 1000 * pj * wave_ghz_ / cycles + leak_uw;  // pJ per ns is mW
    wave_uw_[i] = static_cast<std::uint32_t>(std::min(uw + 0.5, 4e9));
  }
  wave_from_ = t + 1;
  wave_valid_ = true;  // (z until the first window has passed)
}

void PowerPlugin::collect(const Network& net, const Results& core) {
  const Config& cfg = net.config();
  const PowerConfig& pc = cfg.power;
  const Topology& topo = net.topology();
  price(cfg, topo);
  window_cycles = core.window;
  window_ns = window_cycles / pc.frequency_ghz;
  const double to_mw = window_ns > 0 ? 1.0 / window_ns : 0;  // pJ over the window -> mW
  // Each router's events in the window, priced.
  const std::vector<RouterActivity>& acts = net.window_activity();
  router_dynamic_mw.assign(acts.size(), 0);
  events = RouterActivity{};
  for (std::size_t r = 0; r < acts.size(); ++r) {
    const RouterActivity& a = acts[r];
    const std::array<double, 4> e = energy(a, window_cycles);
    double sum = 0;
    for (int c = 0; c < 4; ++c) {
      classes[c].dynamic_pj += e[c];
      sum += e[c];
    }
    router_dynamic_mw[r] = sum * to_mw;
    events.active_cycles += a.active_cycles;
    events.buffer_writes += a.buffer_writes;
    events.buffer_reads += a.buffer_reads;
    events.crossbar += a.crossbar;
    events.ejected += a.ejected;
    events.sa_stage1 += a.sa_stage1 + a.sa_lone;  // (a lone requester: one at each stage)
    events.sa_stage1_requests += a.sa_stage1_requests + a.sa_lone;
    events.sa_stage2 += a.sa_stage2 + a.sa_lone;
    events.sa_stage2_requests += a.sa_stage2_requests + a.sa_lone;
    events.va += a.va;
  }
  router_cycles = static_cast<std::uint64_t>(window_cycles) * acts.size();
  // Links: each one's flits in the window.
  link_dynamic_mw.clear();
  link_flits = 0;
  std::size_t i = 0;
  for (const OutputUnit& ou : net.links()) {
    const double flits = static_cast<double>(net.window_link_flits()[i++]);
    LinkClass& lc =
        link_classes[static_cast<std::size_t>(topo.link_class(ou.link.src_node, ou.link.src_port))];
    ++lc.links;
    lc.flits += flits;
    link_flits += flits;
    classes[kLinks].dynamic_pj += flits * lc.model.flit;
    link_dynamic_mw.push_back(flits * lc.model.flit * to_mw);
  }
  // Static: every router and link.
  const double R = static_cast<double>(acts.size()), L = static_cast<double>(net.links().size());
  const UnitStatic* st[] = {&router.buffers, &router.crossbar_unit, &router.allocators,
                            &router.clock_unit};
  for (int c = 0; c < 4; ++c) {
    classes[c].leakage_mw = R * st[c]->leakage_mw;
    classes[c].area_mm2 = R * st[c]->area_mm2;
  }
  for (const LinkClass& lc : link_classes) {
    classes[kLinks].leakage_mw += lc.links * lc.model.stat.leakage_mw;
    classes[kLinks].area_mm2 += lc.links * lc.model.stat.area_mm2;
  }
  router_leakage_mw = router.total().leakage_mw;
  link_leakage_mw = L > 0 ? classes[kLinks].leakage_mw / L : 0;
  total = Class{"total"};
  for (Class& c : classes) {
    c.dynamic_mw = c.dynamic_pj * to_mw;
    total.dynamic_pj += c.dynamic_pj;
    total.dynamic_mw += c.dynamic_mw;
    total.leakage_mw += c.leakage_mw;
    total.area_mm2 += c.area_mm2;
  }
  flits_delivered = core.accepted * topo.num_nodes() * core.window;
  if (flits_delivered > 0) {
    dynamic_pj_per_flit = total.dynamic_pj / flits_delivered;
    pj_per_flit = (total.dynamic_pj + total.leakage_mw * window_ns) / flits_delivered;
    pj_per_bit = pj_per_flit / pc.flit_width_bits;
  }
}

void PowerPlugin::json(Json& j) const {
  const auto unit = [&](const Class& c) {
    j.kv("energy_pj", c.dynamic_pj + c.leakage_mw * window_ns)
        .kv("dynamic_pj", c.dynamic_pj)
        .kv("dynamic_mw", c.dynamic_mw)
        .kv("leakage_mw", c.leakage_mw)
        .kv("power_mw", c.dynamic_mw + c.leakage_mw)
        .kv("area_mm2", c.area_mm2);
  };
  j.open("power").kv("tech", tech).kv("window_cycles", window_cycles).kv("window_ns", window_ns);
  j.open_array("by_class");
  for (const Class& c : classes) {
    j.open().kv("class", c.name);
    unit(c);
    j.close();
  }
  j.close();
  j.open("total");
  unit(total);
  j.close();
  const bool have = flits_delivered > 0;
  j.kv("flits_delivered", flits_delivered);
  const double nan = std::numeric_limits<double>::quiet_NaN();  // (null: no flit delivered)
  j.kv("energy_per_flit_pj", have ? pj_per_flit : nan)
      .kv("dynamic_energy_per_flit_pj", have ? dynamic_pj_per_flit : nan)
      .kv("energy_per_bit_pj", have ? pj_per_bit : nan);
  j.open("router")
      .kv("in_ports", shape.in_ports)
      .kv("out_ports", shape.out_ports)
      .kv("vcs", shape.vcs)
      .kv("depth", shape.depth)
      .kv("flit_bits", shape.flit_bits)
      .kv("leakage_mw", router.total().leakage_mw)
      .kv("area_mm2", router.total().area_mm2)
      .close();
  j.open("per_event_pj")
      .kv("buffer_write", router.buffer_write)
      .kv("buffer_read", router.buffer_read)
      .kv("crossbar", router.crossbar)
      .kv("sa_stage1", router.sa_stage1)
      .kv("sa_stage2", router.sa_stage2)
      .kv("va", router.va)
      .kv("credit", router.credit)
      .kv("clock_cycle", router.clock)
      .kv("link_flit", link.flit)
      .close();
  j.open("events")
      .kv("buffer_writes", events.buffer_writes)
      .kv("buffer_reads", events.buffer_reads)
      .kv("crossbar", events.crossbar)
      .kv("ejected", events.ejected)
      .kv("sa_stage1", events.sa_stage1)
      .kv("sa_stage1_requests", events.sa_stage1_requests)
      .kv("sa_stage2", events.sa_stage2)
      .kv("sa_stage2_requests", events.sa_stage2_requests)
      .kv("va", events.va)
      .kv("credits", router.credit > 0 ? events.buffer_reads + events.ejected : 0)
      .kv("link_flits", link_flits)
      .kv("router_cycles_active", events.active_cycles)
      .kv("router_cycles_idle",
          router_cycles > events.active_cycles ? router_cycles - events.active_cycles : 0)
      .close();
  j.kv("router_leakage_mw", router_leakage_mw)
      .kv_list("routers_dynamic_mw", router_dynamic_mw)
      .kv("link_leakage_mw", link_leakage_mw)
      .kv_list("links_dynamic_mw", link_dynamic_mw);
  j.open_array("link_classes");
  for (const LinkClass& lc : link_classes)
    j.open()
        .kv("class", lc.name)
        .kv("length_mm", lc.length_mm)
        .kv("links", lc.links)
        .kv("flits", lc.flits)
        .kv("flit_pj", lc.model.flit)
        .kv("leakage_mw", lc.model.stat.leakage_mw)
        .kv("area_mm2", lc.model.stat.area_mm2)
        .close();
  j.close();
  j.close();
}

void PowerPlugin::summary(std::ostream& o, SummaryPlace place) const {
  if (place != SummaryPlace::Tail) return;
  char b[512];
  std::snprintf(b, sizeof b,
                "power            %s: %.4g mW (dynamic %.4g: buffers %.3g, crossbar %.3g, "
                "allocators %.3g, clock %.3g, links %.3g; leakage %.4g)\n",
                tech.c_str(), total.dynamic_mw + total.leakage_mw, total.dynamic_mw,
                classes[kBuffers].dynamic_mw, classes[kCrossbar].dynamic_mw,
                classes[kAllocators].dynamic_mw, classes[kClock].dynamic_mw,
                classes[kLinks].dynamic_mw, total.leakage_mw);
  o << b;
  if (flits_delivered > 0)
    std::snprintf(b, sizeof b,
                  "energy           %.4g pJ per delivered flit (dynamic %.4g), %.4g pJ/bit; area "
                  "%.4g mm^2 (routers %.4g, links %.4g)\n",
                  pj_per_flit, dynamic_pj_per_flit, pj_per_bit, total.area_mm2,
                  total.area_mm2 - classes[kLinks].area_mm2, classes[kLinks].area_mm2);
  else
    std::snprintf(b, sizeof b, "energy           no flit delivered in the window; area %.4g mm^2\n",
                  total.area_mm2);
  o << b;
}

void PowerPlugin::csv(std::vector<double>& values) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  values.push_back(total.dynamic_mw + total.leakage_mw);
  values.push_back(total.dynamic_mw);
  values.push_back(total.leakage_mw);
  values.push_back(flits_delivered > 0 ? pj_per_flit : nan);
  values.push_back(total.area_mm2);
}

}  // namespace sy
