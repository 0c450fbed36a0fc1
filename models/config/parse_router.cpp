// router: {buffering, switching, vcs, vc_depth, arbitration, priority_classes, pipeline}
#include "config/section.hpp"

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
  if (s.has("pipeline")) {
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
    p.credit_delay = static_cast<int>(ps.integer("credit_delay", 1, 1, 16));
    p.speculative = ps.boolean("speculative", false);
    p.ejection_ports = static_cast<int>(ps.integer("ejection_ports", 1, 1, 8));
    ps.finish();
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
