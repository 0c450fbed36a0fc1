// Energy, power and area (power/, issue 30): the routers' counted events against what the
// network did (every flit's buffer write and read, crossbar traversal, link, allocation), the
// prices applied to them, energy that scales with activity, idle routers that cost only leakage
// and clock, a run whose results do not change when power is on, and bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "helpers.hpp"

using namespace sy;
using nlohmann::json;

namespace {

// A trace of `count` messages of `flits` flits on a k x k mesh, drawn from a fixed recurrence,
// every message delivered (the window is the whole run): the counts are exact. `router` and
// `power` are those sections' values.
std::string trace_config(int k, int count, int flits,
                         const std::string& router = "{vcs: 2, vc_depth: 4}",
                         const std::string& power = "{tech: 45nm}") {
  std::ostringstream y;
  y << "topology: {type: mesh, dims: [" << k << ", " << k << "]}\n"
    << "router: " << router << "\n"
    << "traffic:\n  type: trace\n  messages:\n";
  unsigned x = 12345;
  const int n = k * k;
  for (int i = 0; i < count; ++i) {
    x = x * 1103515245u + 12345u;
    const int src = static_cast<int>((x >> 8) % n);
    x = x * 1103515245u + 12345u;
    int dst = static_cast<int>((x >> 8) % n);
    if (dst == src) dst = (dst + 1) % n;
    y << "    - {time: " << i / 3 << ", src: " << src << ", dst: " << dst << ", flits: " << flits
      << "}\n";
  }
  y << "power: " << power << "\n";
  return y.str();
}

json power_of(const std::string& name, const std::string& yaml) {
  std::string out;
  const std::string js = test::cli_results(name, yaml, &out);
  EXPECT_FALSE(js.empty()) << out;
  if (js.empty()) return json::object();
  return json::parse(js);
}

double cls(const json& p, const char* name, const char* what) {
  for (const json& c : p["by_class"])
    if (c["class"] == name) return c[what].get<double>();
  ADD_FAILURE() << "no class " << name;
  return -1;
}

}  // namespace

TEST(Power, EventsAreWhatTheIdealNetworkDid) {
  const json r = power_of("power_ideal", trace_config(4, 60, 4));
  const json& e = r["power"]["events"];
  const double delivered = r["flits"]["delivered"].get<double>();
  const double injected = r["flits"]["injected"].get<double>();
  // Every buffered flit is read again (the network is empty at the end); each crosses the
  // crossbar onto a link (the ideal pipeline ejects as a flit arrives: ejected, not buffered).
  EXPECT_EQ(e["buffer_writes"], e["buffer_reads"]);
  EXPECT_EQ(e["crossbar"], e["buffer_reads"]);
  EXPECT_EQ(e["link_flits"].get<double>(), e["crossbar"].get<double>());
  EXPECT_EQ(e["crossbar"].get<double>(), r["flits"]["hops"].get<double>());
  EXPECT_EQ(e["ejected"].get<double>(), delivered);
  // What arrives at a router (injected or over a link) is buffered or ejected.
  EXPECT_EQ(e["buffer_writes"].get<double>() + e["ejected"].get<double>(),
            injected + e["link_flits"].get<double>());
  // One output VC per header per hop; every stage-2 arbitration grants (one flit each).
  EXPECT_EQ(e["crossbar"].get<double>(), 4 * e["va"].get<double>());
  EXPECT_EQ(e["sa_stage2"], e["crossbar"]);
  EXPECT_GE(e["sa_stage2_requests"].get<double>(), e["sa_stage2"].get<double>());
  EXPECT_GE(e["sa_stage1_requests"].get<double>(), e["sa_stage1"].get<double>());
  EXPECT_GT(e["router_cycles_active"].get<double>(), 0);
  EXPECT_EQ(e["credits"].get<double>(),
            e["buffer_reads"].get<double>() + e["ejected"].get<double>());
}

TEST(Power, EventsAreWhatTheStagedNetworkDid) {
  const json s = power_of(
      "power_staged",
      trace_config(4, 60, 4,
                   "{vcs: 2, vc_depth: 4, pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1}}"));
  const json& e = s["power"]["events"];
  const double delivered = s["flits"]["delivered"].get<double>();
  // The staged pipeline buffers every flit and ejects it through the crossbar.
  EXPECT_EQ(e["ejected"].get<double>(), 0);
  EXPECT_EQ(e["buffer_writes"], e["buffer_reads"]);
  EXPECT_EQ(e["crossbar"].get<double>(), e["link_flits"].get<double>() + delivered);
  EXPECT_EQ(e["crossbar"].get<double>(), 4 * e["va"].get<double>());
}

TEST(Power, ClassesAreTheEventsPriced) {
  const json r = power_of("power_priced", trace_config(4, 40, 4));
  const json& p = r["power"];
  const json& e = p["events"];
  const json& x = p["per_event_pj"];
  for (const char* k : {"buffer_write", "buffer_read", "crossbar", "sa_stage1", "sa_stage2", "va",
                        "clock_cycle", "link_flit"})
    EXPECT_GT(x[k].get<double>(), 0) << k;
  const double writes = e["buffer_writes"].get<double>() + e["ejected"].get<double>();
  const double reads = e["buffer_reads"].get<double>() + e["ejected"].get<double>();
  EXPECT_NEAR(cls(p, "buffers", "dynamic_pj"),
              writes * x["buffer_write"].get<double>() + reads * x["buffer_read"].get<double>(),
              1e-6 * cls(p, "buffers", "dynamic_pj"));
  EXPECT_NEAR(cls(p, "links", "dynamic_pj"),
              e["link_flits"].get<double>() * x["link_flit"].get<double>(),
              1e-6 * cls(p, "links", "dynamic_pj"));
  const double routers = 16, window = p["window_cycles"].get<double>();
  EXPECT_NEAR(cls(p, "clock", "dynamic_pj"), routers * window * x["clock_cycle"].get<double>(),
              1e-6 * cls(p, "clock", "dynamic_pj"));
  // Power is energy over the window's time (1 GHz: pJ per cycle is mW).
  EXPECT_NEAR(p["total"]["dynamic_mw"].get<double>(),
              p["total"]["dynamic_pj"].get<double>() / window,
              1e-8 * p["total"]["dynamic_mw"].get<double>());  // (10 digits in results.json)
  EXPECT_GT(p["total"]["leakage_mw"].get<double>(), 0);
  EXPECT_GT(p["total"]["area_mm2"].get<double>(), 0);
  EXPECT_GT(p["energy_per_flit_pj"].get<double>(), 0);
  EXPECT_EQ(p["routers_dynamic_mw"].size(), 16u);
  EXPECT_EQ(p["links_dynamic_mw"].size(), r["links"]["utilization"].size());
}

// Twice the flits over the same routes: twice the data path's dynamic energy (buffers,
// crossbar, links), exactly.
TEST(Power, DataPathEnergyScalesWithTheFlits) {
  const json a = power_of("power_l4", trace_config(4, 30, 4))["power"];
  const json b = power_of("power_l8", trace_config(4, 30, 8))["power"];
  for (const char* c : {"buffers", "crossbar", "links"})
    EXPECT_NEAR(cls(b, c, "dynamic_pj"), 2 * cls(a, c, "dynamic_pj"),
                1e-9 * cls(b, c, "dynamic_pj"))
        << c;
}

// One message from router 0 to its neighbour: every other router has no event, and its
// dynamic power is its clock alone (clock gating: nothing).
TEST(Power, IdleRoutersCostOnlyClockAndLeakage) {
  const std::string one =
      "topology: {type: mesh, dims: [4, 4]}\n"
      "traffic: {type: trace, messages: [{time: 0, src: 0, dst: 1, flits: 4}]}\n";
  const json p = power_of("power_idle", one + "power: {tech: 45nm}\n")["power"];
  const double clock_mw = p["per_event_pj"]["clock_cycle"].get<double>();  // (1 GHz)
  for (int r = 2; r < 16; ++r)
    EXPECT_NEAR(p["routers_dynamic_mw"][r].get<double>(), clock_mw, 1e-12) << r;
  EXPECT_GT(p["routers_dynamic_mw"][0].get<double>(), clock_mw);
  const json g =
      power_of("power_gated", one + "power: {tech: 45nm, clock_gating: true}\n")["power"];
  for (int r = 2; r < 16; ++r) EXPECT_EQ(g["routers_dynamic_mw"][r].get<double>(), 0) << r;
  EXPECT_EQ(g["total"]["leakage_mw"], p["total"]["leakage_mw"]);
}

// Counting changes nothing the network does: results.json without the power section and the
// config's echo of it is the same, and the same on two threads.
TEST(Power, CountingLeavesTheRunAsItWas) {
  const auto config = [](const std::string& router, const std::string& power, int threads) {
    return "topology: {type: torus, dims: [6, 6]}\n"
           "traffic: {rate: 0.12, packet_flits: 4}\n"
           "simulation: {warmup: 300, measure: 1000, seed: 9, threads: " +
           std::to_string(threads) + "}\n" + router + power;
  };
  const auto results = [](const std::string& name, const std::string& yaml) {
    std::string out;
    const std::string js = test::cli_results(name, yaml, &out);
    EXPECT_FALSE(js.empty()) << out;
    return js.empty() ? json::object() : json::parse(js);
  };
  for (const std::string router :
       {"", "router: {pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1}}\n"}) {
    json off = results("power_off", config(router, "", 1));
    json on = results("power_on", config(router, "power: {tech: 22nm}\n", 1));
    ASSERT_TRUE(on.contains("power"));
    EXPECT_FALSE(off.contains("power"));
    const json p = on["power"];
    on.erase("power");
    on["config"].erase("power");
    for (json* j : {&on, &off}) j->erase("wall_seconds");
    EXPECT_EQ(on.dump(), off.dump()) << router;
    json two = results("power_two", config(router, "power: {tech: 22nm}\n", 2));
    EXPECT_EQ(two["power"].dump(), p.dump());
  }
}

TEST(Power, BadInputIsAConfigErrorWithFileLineAndKey) {
  const std::string base = "topology: {type: mesh, dims: [4, 4]}\n";
  std::string e = test::config_error(base + "power: {tech: 7nm}\n");
  EXPECT_NE(e.find("power.tech"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown technology"), std::string::npos) << e;
  e = test::config_error(base + "power: {flit_width_bits: -8}\n");
  EXPECT_NE(e.find(":2:"), std::string::npos) << e;
  EXPECT_NE(e.find("power.flit_width_bits"), std::string::npos) << e;
  e = test::config_error(base + "power: {frequency_ghz: -1}\n");
  EXPECT_NE(e.find("power.frequency_ghz"), std::string::npos) << e;
  e = test::config_error(base + "power: {link_length_mm: -0.5}\n");
  EXPECT_NE(e.find("power.link_length_mm"), std::string::npos) << e;
  e = test::config_error(base + "power: {tech: 45nm, watts: 3}\n");
  EXPECT_NE(e.find("power.watts"), std::string::npos) << e;
  // A technology file of one's own: a missing, unknown, mistyped or out-of-range parameter.
  std::string text;
  for (const BuiltinTech& b : builtin_techs())
    if (std::string(b.name) == "45nm") text = b.text;
  ASSERT_FALSE(text.empty());
  const std::string cfg_path =
      test::write_temp("power_cfg.yaml", base + "power: {tech: mine.yaml}\n");
  const std::string dir = cfg_path.substr(0, cfg_path.rfind('/'));
  const auto own = [&](const std::string& tech_text) {
    test::write_temp("mine.yaml", tech_text);
    std::rename((dir + "/switchyard-test-mine.yaml").c_str(), (dir + "/mine.yaml").c_str());
    try {
      load_config(cfg_path);
    } catch (const ConfigError& x) {
      return std::string(x.what());
    }
    return std::string();
  };
  EXPECT_EQ(own(text), "");
  const std::string first = tech_keys().front().key;
  const auto at = text.find("\n" + first + ":");
  ASSERT_NE(at, std::string::npos) << first;
  std::string missing = text;
  missing.erase(at + 1, missing.find('\n', at + 1) - at);
  e = own(missing);
  EXPECT_NE(e.find("mine.yaml"), std::string::npos) << e;
  EXPECT_NE(e.find(first + ": missing"), std::string::npos) << e;
  e = own(text + "leakage_fudge: 2\n");
  EXPECT_NE(e.find("mine.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("leakage_fudge"), std::string::npos) << e;
  std::string typo = text;
  typo.replace(at + 1 + first.size() + 1, 0, " abc #");
  e = own(typo);
  EXPECT_NE(e.find("mine.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("expected a number"), std::string::npos) << e;
  e = own(text + "vdd_extra: 1\n");
  EXPECT_NE(e.find("unknown key"), std::string::npos) << e;
}

// The packet-level routers count too: an output-queued router queues each flit once and sends
// it on once; a circuit router has no buffers, its crossbar carries each flit once per hop.
TEST(Power, OutputQueuedAndCircuitRoutersCountTheirEvents) {
  const json r =
      power_of("power_oq",
               trace_config(4, 40, 4, "{buffering: output_queued, switching: store_and_forward}"));
  const json& e = r["power"]["events"];
  EXPECT_EQ(e["buffer_writes"], e["buffer_reads"]);
  EXPECT_EQ(e["crossbar"], e["buffer_writes"]);
  EXPECT_EQ(e["link_flits"].get<double>(), e["crossbar"].get<double>());
  EXPECT_EQ(e["link_flits"].get<double>(), r["flits"]["hops"].get<double>());
  EXPECT_EQ(e["ejected"].get<double>(), r["flits"]["delivered"].get<double>());
  EXPECT_EQ(e["credits"].get<double>(), 0);
  EXPECT_GT(cls(r["power"], "buffers", "dynamic_pj"), 0);
  const json c = power_of("power_circuit", trace_config(4, 40, 4, "{switching: direct_connect}"));
  const json& x = c["power"]["events"];
  EXPECT_EQ(x["buffer_writes"].get<double>(), 0);
  EXPECT_EQ(x["crossbar"].get<double>(), x["link_flits"].get<double>());
  EXPECT_EQ(x["link_flits"].get<double>(), c["flits"]["hops"].get<double>());
  EXPECT_EQ(x["ejected"].get<double>(), c["flits"]["delivered"].get<double>());
  EXPECT_EQ(x["va"].get<double>(), x["sa_stage2"].get<double>());  // (a circuit's hop each)
  EXPECT_EQ(cls(c["power"], "buffers", "dynamic_pj"), 0);
  EXPECT_EQ(cls(c["power"], "buffers", "area_mm2"), 0);
  EXPECT_GT(cls(c["power"], "crossbar", "dynamic_pj"), 0);
}

// waves.power: a traced router's power over each window, r<n>.power_uw in the VCD and in the
// .gtkw's router summary, for the traced routers only; without power it is a config error.
TEST(Power, WavesShowEachTracedRoutersPower) {
  std::string out;
  const std::string js =
      test::cli_results("power_waves",
                        trace_config(4, 40, 4) +
                            "waves: {enable: true, routers: [0, 15], power: true, "
                            "power_window: 10}\n",
                        &out);
  ASSERT_FALSE(js.empty()) << out;
  const std::string dir = "/tmp/switchyard-test-power_waves-" + std::to_string(getpid());
  std::ifstream vf(dir + "/run.vcd"), gf(dir + "/run.gtkw");
  std::stringstream vcd, gtkw;
  vcd << vf.rdbuf();
  gtkw << gf.rdbuf();
  // The two traced routers' variables, and their values: the id of each, then its changes.
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(vcd, line))
    if (line.find(" power_uw ") != std::string::npos) {
      std::istringstream w(line);
      std::string var, kind, width, id;
      w >> var >> kind >> width >> id;
      ids.push_back(id);
    }
  ASSERT_EQ(ids.size(), 2u) << "power_uw declared for routers 0 and 15 only";
  EXPECT_NE(gtkw.str().find("switchyard.r0.power_uw"), std::string::npos);
  EXPECT_NE(gtkw.str().find("switchyard.r15.power_uw"), std::string::npos);
  // Values: at least one above the idle level (leakage + clock) for router 0, which sends.
  vcd.clear();
  vcd.seekg(0);
  std::vector<unsigned long> values[2];
  while (std::getline(vcd, line)) {
    if (line.empty() || line[0] != 'b' || line[1] == 'z') continue;  // (z: no window yet)
    const auto sp = line.find(' ');
    for (int k = 0; k < 2; ++k)
      if (line.substr(sp + 1) == ids[k])
        values[k].push_back(std::stoul(line.substr(1, sp - 1), nullptr, 2));
  }
  ASSERT_FALSE(values[0].empty());
  ASSERT_FALSE(values[1].empty());
  const unsigned long lo = *std::min_element(values[0].begin(), values[0].end());
  const unsigned long hi = *std::max_element(values[0].begin(), values[0].end());
  EXPECT_GT(lo, 0u);  // leakage and clock
  EXPECT_GT(hi, lo);  // and flits through it
  EXPECT_NE(test::config_error("topology: {type: mesh, dims: [4, 4]}\nwaves: {power: true}\n")
                .find("waves.power"),
            std::string::npos);
}

// Links of a class of their own length (a dragonfly's global links; here a torus dimension):
// each class priced at its length; a class the topology has not is a config error.
TEST(Power, LinkClassesHaveTheirOwnLengths) {
  const json r =
      power_of("power_lengths",
               trace_config(4, 40, 4, "{vcs: 2, vc_depth: 4}",
                            "{tech: 45nm, link_length_mm: 1.0, link_lengths_mm: {d1: 3.0}}"));
  const json& p = r["power"];
  ASSERT_EQ(p["link_classes"].size(), 2u);
  const json& d0 = p["link_classes"][0];
  const json& d1 = p["link_classes"][1];
  EXPECT_EQ(d0["class"], "d0");
  EXPECT_EQ(d1["length_mm"].get<double>(), 3.0);
  EXPECT_GT(d1["flit_pj"].get<double>(), 2.5 * d0["flit_pj"].get<double>());
  const double sum = d0["flits"].get<double>() * d0["flit_pj"].get<double>() +
                     d1["flits"].get<double>() * d1["flit_pj"].get<double>();
  EXPECT_NEAR(cls(p, "links", "dynamic_pj"), sum, 1e-9 * sum);
  EXPECT_EQ(r["config"]["power"]["link_lengths_mm"]["d1"].get<double>(), 3.0);
  const std::string e = test::config_error(
      "topology: {type: mesh, dims: [4, 4]}\npower: {link_lengths_mm: {global: 5}}\n");
  EXPECT_NE(e.find("power.link_lengths_mm.global"), std::string::npos) << e;
  EXPECT_NE(e.find("d0, d1"), std::string::npos) << e;
}
