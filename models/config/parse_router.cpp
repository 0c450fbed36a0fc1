// router: {buffering, switching, vcs, vc_depth, arbitration, priority_classes, pipeline,
//          switch_allocator, allocator_iterations, vc_allocator, wait_for_tail_credit,
//          hold_switch_for_packet, input_speedup, output_speedup, output_buffer_size,
//          vc_request, vc_busy_when_full, vc_prioritize_empty, model, rtl, rtl_nodes}
#include <algorithm>

#include "switchyard/config/section.hpp"
#include "switchyard/router/allocators/matcher.hpp"

namespace sy {
namespace config_detail {

void parse_router(Section& s, Config& c) {
  const bool buffering_given = s.has("buffering");
  c.router.buffering = s.choice<Buffering>("buffering", Buffering::InputVc,
                                           {{"input_vc", Buffering::InputVc},
                                            {"output_queued", Buffering::OutputQueued},
                                            {"circuit", Buffering::Circuit}});
  c.router.switching = s.choice<Switching>("switching", Switching::Wormhole,
                                           {{"wormhole", Switching::Wormhole},
                                            {"virtual_cut_through", Switching::VirtualCutThrough},
                                            {"store_and_forward", Switching::StoreAndForward},
                                            {"direct_connect", Switching::DirectConnect}});
  // Circuit switching: the crossbar holds paths, nothing is buffered. direct_connect implies it;
  // buffering: circuit with switching: wormhole is the wormhole flavour (no acknowledgment).
  if (c.router.switching == Switching::DirectConnect) {
    if (buffering_given && c.router.buffering != Buffering::Circuit)
      fail(c.source, s.at("buffering"), s.path("buffering"),
           "direct_connect is circuit switching: use buffering: circuit (or leave it out)");
    c.router.buffering = Buffering::Circuit;
  }
  if (c.router.buffering == Buffering::Circuit && c.router.switching != Switching::DirectConnect &&
      c.router.switching != Switching::Wormhole)
    fail(c.source, s.at("switching"), s.path("switching"),
         "circuits are direct_connect or wormhole");
  c.router.vcs = static_cast<int>(s.integer("vcs", 2, 1, 32));
  c.router.vc_depth = static_cast<int>(s.integer("vc_depth", 4, 1, 4096));
  c.router.arbitration = s.choice<ArbPolicy>(
      "arbitration", ArbPolicy::RoundRobin,
      {{"round_robin", ArbPolicy::RoundRobin}, {"oldest_first", ArbPolicy::OldestFirst}});
  c.router.priority_classes = static_cast<int>(s.integer("priority_classes", 1, 1, 8));
  const bool input_vc = c.router.buffering == Buffering::InputVc;
  if (s.has("switch_allocator") && !input_vc)
    fail(c.source, s.at("switch_allocator"), s.path("switch_allocator"),
         "allocators are part of input_vc routers (buffering: input_vc)");
  std::vector<std::pair<std::string, std::string>> allocators;
  for (const std::string& n : switch_allocator_names()) allocators.emplace_back(n, n);
  c.router.switch_allocator =
      s.choice<std::string>("switch_allocator", "separable_input_first", allocators);
  if (c.router.switch_allocator != "separable_input_first" &&
      (c.router.priority_classes > 1 || c.router.arbitration != ArbPolicy::RoundRobin))
    fail(c.source, s.at("switch_allocator"), s.path("switch_allocator"),
         c.router.switch_allocator +
             " arbitrates round-robin in one class: priority_classes > 1 and oldest_first "
             "need separable_input_first");
  if (s.has("allocator_iterations") && c.router.switch_allocator != "islip")
    fail(c.source, s.at("allocator_iterations"), s.path("allocator_iterations"),
         "is the number of iSLIP rounds: it needs switch_allocator: islip");
  c.router.allocator_iterations = static_cast<int>(s.integer("allocator_iterations", 1, 1, 8));
  // pipeline: ideal (the same as leaving it out: delta per hop, free ejection), or the stages.
  const bool ideal =
      !s.has("pipeline") || (s.at("pipeline").IsScalar() && s.at("pipeline").Scalar() == "ideal");
  if (s.has("vc_allocator") && ideal)
    fail(c.source, s.at("vc_allocator"), s.path("vc_allocator"),
         "the ideal pipeline folds VC allocation into switch allocation: a separate VC "
         "allocator needs router.pipeline");
  c.router.vc_allocator =
      s.choice<std::string>("vc_allocator", "separable_input_first",
                            {{"separable_input_first", "separable_input_first"},
                             {"separable_output_first", "separable_output_first"}});
  if (s.has("wait_for_tail_credit") && (!input_vc || c.router.switching != Switching::Wormhole))
    fail(c.source, s.at("wait_for_tail_credit"), s.path("wait_for_tail_credit"),
         "is a choice of wormhole input_vc routers (buffering: input_vc, switching: wormhole)");
  c.router.wait_for_tail_credit = s.boolean("wait_for_tail_credit", true);
  // BookSim2's switch knobs: the staged pipeline's separable input-first switch allocator.
  for (const char* k :
       {"hold_switch_for_packet", "input_speedup", "output_speedup", "output_buffer_size"}) {
    if (!s.has(k)) continue;
    if (!input_vc || ideal)
      fail(c.source, s.at(k), s.path(k),
           "is a knob of the staged pipeline of input_vc routers (buffering: input_vc with "
           "router.pipeline)");
    if (c.router.switch_allocator != "separable_input_first")
      fail(c.source, s.at(k), s.path(k),
           "is modelled with switch_allocator: separable_input_first only");
  }
  c.router.hold_switch_for_packet = s.boolean("hold_switch_for_packet", false);
  c.router.input_speedup = static_cast<int>(s.integer("input_speedup", 1, 1, 8));
  c.router.output_speedup = static_cast<int>(s.integer("output_speedup", 1, 1, 8));
  if (s.has("output_buffer_size") && c.router.output_speedup == 1)
    fail(c.source, s.at("output_buffer_size"), s.path("output_buffer_size"),
         "bounds the output buffer that output_speedup > 1 fills (with output_speedup 1 a flit "
         "never waits there)");
  c.router.output_buffer_size = static_cast<int>(s.integer("output_buffer_size", 0, 0, 4096));
  // BookSim2's VC allocation knobs: the staged pipeline's VC allocator.
  for (const char* k : {"vc_request", "vc_busy_when_full", "vc_prioritize_empty"})
    if (s.has(k) && (!input_vc || ideal))
      fail(c.source, s.at(k), s.path(k),
           "is a choice of the staged pipeline's VC allocator (buffering: input_vc with "
           "router.pipeline); the ideal pipeline folds VC allocation into switch allocation");
  if (s.has("vc_request") && c.router.vc_allocator != "separable_input_first")
    fail(c.source, s.at("vc_request"), s.path("vc_request"),
         "is a choice of vc_allocator: separable_input_first (" + c.router.vc_allocator +
             " requests every free VC of the range)");
  c.router.vc_request_all_free =
      s.choice<bool>("vc_request", false, {{"lowest", false}, {"all_free", true}});
  c.router.vc_busy_when_full = s.boolean("vc_busy_when_full", false);
  c.router.vc_prioritize_empty = s.boolean("vc_prioritize_empty", false);
  for (const auto& [k, on] :
       {std::pair<const char*, bool>{"vc_busy_when_full", c.router.vc_busy_when_full},
        {"vc_prioritize_empty", c.router.vc_prioritize_empty}})
    if (on && c.router.wait_for_tail_credit)
      fail(c.source, s.at(k), s.path(k),
           "has no effect with router.wait_for_tail_credit: true (a free VC then has every "
           "credit back: never full, always empty); set wait_for_tail_credit: false");
  // The C++ router or a Verilated RTL one (what the RTL implements: config.cpp's cross-checks).
  c.router.rtl = s.choice<bool>("model", false, {{"cpp", false}, {"rtl", true}});
  if (c.router.rtl &&
      (c.router.buffering != Buffering::InputVc || c.router.switching != Switching::Wormhole))
    fail(c.source, s.at("model"), s.path("model"),
         "rtl: the RTL router is a wormhole input-VC router (buffering: input_vc, switching: "
         "wormhole); there is no RTL output_queued or circuit router");
  if (s.has("rtl") && !c.router.rtl)
    fail(c.source, s.at("rtl"), s.path("rtl"), "names the RTL router of router.model: rtl");
  c.router.rtl_name = s.text("rtl", "sy_vc_router");
  // router.rtl_nodes: all (default) or the routers that get the RTL router (a mixed network: the
  // C++ staged router at the others). The ids are checked here; what the RTL implements, with
  // the topology, in config.cpp.
  if (YAML::Node rn = s.raw("rtl_nodes", {"all | list of router ids", "all", "0 .. routers - 1"});
      rn) {
    if (!c.router.rtl)
      fail(c.source, rn, s.path("rtl_nodes"),
           "names the routers of router.model: rtl (set model: rtl, or leave rtl_nodes out)");
    if (!(rn.IsScalar() && rn.Scalar() == "all")) {
      if (!rn.IsSequence())
        fail(c.source, rn, s.path("rtl_nodes"), "expected all or a list of router ids");
      if (rn.size() == 0)
        fail(c.source, rn, s.path("rtl_nodes"),
             "is empty: name at least one router (or use router.model: cpp)");
      const int R = c.topology.make().num_routers();
      std::vector<bool> seen(static_cast<std::size_t>(R), false);
      for (std::size_t i = 0; i < rn.size(); ++i) {
        const std::string at = s.path("rtl_nodes") + "[" + std::to_string(i) + "]";
        const int id =
            static_cast<int>(s.as_int(rn[i], at, -(std::int64_t{1} << 30), std::int64_t{1} << 30));
        if (id < 0 || id >= R)
          fail(c.source, rn[i], at,
               "router " + std::to_string(id) + " does not exist (this network has routers 0 .. " +
                   std::to_string(R - 1) + ")");
        if (seen[static_cast<std::size_t>(id)])
          fail(c.source, rn[i], at, "router " + std::to_string(id) + " is named twice");
        seen[static_cast<std::size_t>(id)] = true;
        c.router.rtl_nodes.push_back(id);
      }
      std::sort(c.router.rtl_nodes.begin(), c.router.rtl_nodes.end());
    }
  }
  if (ideal && s.has("pipeline")) {
    s.raw("pipeline",
          {"ideal | {rc, va, sa, st, lt, ni_lt, credit_delay, speculative, ejection_ports}",
           "ideal", "ideal, or a mapping of the stages"});
  } else if (s.has("pipeline")) {
    if (s.at("pipeline").IsScalar())
      fail(c.source, s.at("pipeline"), s.path("pipeline"),
           "expected ideal or a mapping of the stages {rc, va, sa, st, lt, ...}");
    if (c.router.buffering != Buffering::InputVc)
      fail(c.source, s.at("pipeline"), s.path("pipeline"),
           "the staged pipeline is a model of input_vc routers (buffering: input_vc)");
    Section ps = s.sub("pipeline");
    PipelineConfig& p = c.router.pipeline;
    p.staged = true;
    p.rc = static_cast<int>(ps.integer("rc", 1, 0, 8));
    p.va = static_cast<int>(ps.integer("va", 1, 0, 8));
    p.sa = static_cast<int>(ps.integer("sa", 1, 1, 8));
    p.st = static_cast<int>(ps.integer("st", 1, 0, 8));
    p.lt = static_cast<int>(ps.integer("lt", 1, 0, 8));
    p.ni_lt = static_cast<int>(ps.integer("ni_lt", p.lt, 0, 8));
    p.credit_delay = static_cast<int>(ps.integer("credit_delay", 1, 1, 16));
    p.speculative = ps.boolean("speculative", false);
    p.ejection_ports = static_cast<int>(ps.integer("ejection_ports", 1, 1, 8));
    ps.finish();
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
