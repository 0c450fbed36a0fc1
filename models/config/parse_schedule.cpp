// schedule: a static algorithm the nodes execute.
//  - circuit-switched broadcasts: {algorithm: tiling | divide_and_conquer | h_trees |
//    store_and_forward_trees, message_flits, packet_flits, root, variant, barrier};
//  - a user's own: {algorithm: explicit, timing: slots | phases, message_flits, packets: [{source,
//    destination}], transmissions: [{packet, from, route: [d0+, d1-, ...], slots: [...] | phase}],
//    shortest_paths, allow_returns, links_per_slot, barrier}, checked here (the checker names
//    the link and slot of a conflict);
//  - isotropic tasks (Varvarigos & Bertsekas) on output-queued store-and-forward nodes:
//    {algorithm: total_exchange | octr | oadd | greedy, task: total_exchange | neighbourhood |
//    tags, near, far, tags: [...], links, message_flits}.
#include <algorithm>
#include <cmath>
#include <limits>

#include "switchyard/base/json.hpp"
#include "switchyard/config/section.hpp"
#include "switchyard/router/routing_unit.hpp"
#include "switchyard/schemes/pmnb/mnb.hpp"
#include "switchyard/schemes/schedules.hpp"
#include "switchyard/sim/estimate.hpp"

namespace sy {
namespace {
// The most link crossings a schedule may plan (each costs tens of bytes as data, more as
// messages in flight): about 33 million, so that total exchange on the 2^11 hypercube (23
// million, d = 11 prime: the paper's OADD) runs. Measured (issue 36, /usr/bin/time -v, total
// exchange, one-flit packets): 2^9 152 MB, 2^10 570 MB, 2^11 2.14 GB of RSS (OADD, 4 minutes),
// about 93 bytes a crossing; beyond the cap (2^12: 101 million), or above the memory limit
// (the estimate counts 520 bytes a crossing), a config error.
constexpr double kMaxScheduleEntries = 1 << 25;
// The same for a compact plan (4 bytes a crossing, allocated at its exact size: 8.6 GB at the
// cap): about 2.1 billion, so that algorithm II of the PMNB paper's Example (N = 2^16, M = 2^10:
// 1.1 billion mini-packet crossings) runs; the memory check below refuses it where it would not
// fit.
constexpr double kMaxCompactEntries = 2147483648.0;  // 2^31
bool compact_plan_algorithm(const std::string& a) {
  return a == "pmnb" || a == "pmnb_i" || a == "pmnb_ii" || a == "pmnb_a0" || a == "mnb" ||
         a == "mnb_optimal";
}
}  // namespace

namespace config_detail {
namespace {

// A plan of `tx` link crossings must fit the memory limit beside the network (sim/estimate.hpp):
// refused before it is built, at `key`, with what it would need.
// (The estimate holds the plan: schemes/schedules.hpp planned_crossings.)
void check_plan_memory(const Config& c, const Section& s, const char* key) {
  // A compact plan (schedule.compact_plan) takes 4 bytes a crossing: 64 times as many.
  // (The optimal MNB's compact plan is streamed, nothing held per crossing: no cap.)
  const double cap = !c.schedule.compact_plan ? kMaxScheduleEntries
                     : c.schedule.algorithm == "mnb_optimal"
                         ? std::numeric_limits<double>::infinity()
                         : kMaxCompactEntries;
  if (planned_crossings(c) > cap)
    fail(c.source, s.at(key), s.path(key),
         c.schedule.algorithm + " on " + std::to_string(c.topology.make().num_nodes()) +
             " nodes would plan about " +
             std::to_string(static_cast<long long>(planned_crossings(c))) +
             " link crossings (more than " + std::to_string(static_cast<long long>(cap)) +
             ", several GB): " +
             (std::string(key) == "packet_flits" ? "use larger packets"
              : compact_plan_algorithm(c.schedule.algorithm) && !c.schedule.compact_plan
                  ? "set schedule.compact_plan: true (up to " +
                        std::to_string(static_cast<long long>(kMaxCompactEntries)) +
                        " crossings, 4 bytes each), or use a smaller network or fewer packets"
                  : "use a smaller network, fewer packets or tags"));
  const double tx = planned_crossings(c);
  const double limit = memory_limit_bytes(c.simulation);
  const double plan = tx * bytes_per_planned_crossing(c);
  const double need = estimate_run(c).bytes;
  if (limit <= 0 || need <= limit) return;
  fail(c.source, s.at(key), s.path(key),
       c.schedule.algorithm + " would plan about " + std::to_string(static_cast<long long>(tx)) +
           " link crossings, about " + human_bytes(plan) + " (" + human_bytes(need) +
           " with the network), more than " + human_bytes(limit) + ": " +
           (c.simulation.max_memory_gb > 0
                ? "simulation.max_memory_gb = " + Json::number(c.simulation.max_memory_gb)
                : std::string("80% of what this process may take (simulation.max_memory_gb)")) +
           "; use a smaller network, fewer packets or larger packets");
}

// "d0+", "d1-", or "d2" (the single link of a size-2 dimension) -> a hop.
ScheduleHop parse_hop(const Section& s, const YAML::Node& n, const std::string& path,
                      const Topology& topo) {
  std::string ports;
  for (int p = 0; p < topo.num_ports(); ++p) ports += (p ? ", " : "") + topo.port_name(p);
  if (n.IsScalar())
    for (int p = 0; p < topo.num_ports(); ++p)
      if (topo.port_name(p) == n.Scalar()) return {topo.port(p).dim, topo.port(p).dir};
  fail(s.source(), n, path,
       "expected a port name, got '" + (n.IsScalar() ? n.Scalar() : std::string("?")) +
           "' (ports: " + ports + ")");
}

void parse_explicit(Section& s, Config& c) {
  const Topology topo = c.topology.make();
  const int N = topo.num_nodes();
  auto sch = std::make_shared<Schedule>();
  Schedule& x = *sch;
  x.algorithm = "explicit";
  x.kind = c.topology.kind;
  x.dims = c.topology.dims;
  x.size2_links = c.topology.size2_links;
  x.timing = s.choice<ScheduleTiming>(
      "timing", ScheduleTiming::Slots,
      {{"slots", ScheduleTiming::Slots}, {"phases", ScheduleTiming::Phases}});
  const bool slots = x.timing == ScheduleTiming::Slots;
  x.message_flits = x.packet_flits = c.schedule.message_flits;
  x.shortest_paths = s.boolean("shortest_paths", false);
  x.returns_allowed = s.boolean("allow_returns", false);
  x.links_per_slot =
      static_cast<int>(s.integer("links_per_slot", 0, 0, {topo.num_ports(), "router ports"}));

  YAML::Node pk = s.raw("packets", {"list of {source, destination}"});
  if (!pk || !pk.IsSequence() || pk.size() == 0)
    fail(c.source, s.at("packets"), s.path("packets"),
         "needs a list of packets {source, destination: node | all}");
  for (std::size_t i = 0; i < pk.size(); ++i) {
    Section p(pk[i], s.path("packets") + "[" + std::to_string(i) + "]", c.source);
    x.item_source.push_back(static_cast<int>(p.integer("source", 0, 0, {N - 1, "nodes - 1"})));
    YAML::Node d = p.raw("destination", {"integer | all", nullptr, "0 .. nodes - 1 | all"});
    if (!d) fail(c.source, pk[i], p.path("destination"), "needed (a node, or all)");
    x.item_dest.push_back(d.IsScalar() && d.Scalar() == "all"
                              ? -1
                              : static_cast<int>(p.as_int(d, p.path("destination"), 0, N - 1)));
    p.finish();
  }
  x.item_flits.assign(pk.size(), x.message_flits);

  YAML::Node tx = s.raw("transmissions", {"list of {packet, from, route, slots | phase}"});
  if (!tx || !tx.IsSequence() || tx.size() == 0)
    fail(c.source, s.at("transmissions"), s.path("transmissions"),
         "needs a list of transmissions {packet, from, route, slots | phase}");
  const int P = static_cast<int>(pk.size());
  for (std::size_t i = 0; i < tx.size(); ++i) {
    Section t(tx[i], s.path("transmissions") + "[" + std::to_string(i) + "]", c.source);
    Transmission tr;
    tr.item = static_cast<int>(t.integer("packet", 0, 0, {P - 1, "packets - 1"}));
    tr.sender = static_cast<int>(t.integer("from", 0, 0, {N - 1, "nodes - 1"}));
    YAML::Node route = t.raw("route", {"list of port names", nullptr,
                                       "d0+ | d0- | d1+ | ... (hypercube: d0 | d1 | ...)"});
    if (!route || !route.IsSequence() || route.size() == 0)
      fail(c.source, route ? route : tx[i], t.path("route"),
           "needs a list of ports (d0+, d1-, ...)");
    for (std::size_t k = 0; k < route.size(); ++k)
      tr.path.push_back(
          parse_hop(t, route[k], t.path("route") + "[" + std::to_string(k) + "]", topo));
    if (slots) {
      if (t.has("phase"))
        fail(c.source, t.at("phase"), t.path("phase"), "timing: slots takes slots, not phase");
      tr.slots = t.int_list("slots", {}, 0, 1 << 24);
      if (tr.slots.size() != tr.path.size())
        fail(c.source, t.has("slots") ? t.at("slots") : tx[i], t.path("slots"),
             "needs one slot per hop of the route (" + std::to_string(tr.path.size()) + ")");
    } else {
      if (t.has("slots"))
        fail(c.source, t.at("slots"), t.path("slots"), "timing: phases takes phase, not slots");
      tr.phase = static_cast<int>(t.integer("phase", 0, 0, 1 << 24));
    }
    t.finish();
    // Input-VC routers take only the routes their dateline VC classes keep deadlock free.
    if (c.router.buffering == Buffering::InputVc) {
      std::vector<int> ports;
      for (const ScheduleHop& h : tr.path) ports.push_back(topo.port_of(h.dim, h.dir));
      if (!dimension_ordered(topo, ports))
        fail(c.source, route, t.path("route"),
             "input-VC routers take dimension-ordered routes only (dimensions in increasing "
             "order, one direction each, less than once around a ring)");
    }
    x.transmissions.push_back(std::move(tr));
  }
  for (const Transmission& t : x.transmissions)
    x.phases = std::max(x.phases, slots ? t.slots.back() + 1 : t.phase + 1);
  const ScheduleCheck r = check(x);
  if (!r.ok) {
    std::string msg = "the schedule is not valid:";
    for (std::size_t i = 0; i < r.errors.size() && i < 5; ++i) msg += "\n  " + r.errors[i];
    fail(c.source, tx, s.path("transmissions"), msg);
  }
  c.schedule.explicit_schedule = sch;
}

// The isotropic task of octr / oadd / greedy: task, near, far, tags.
void parse_task(Section& s, Config& c) {
  ScheduleConfig& sch = c.schedule;
  sch.task = s.choice<std::string>(
      "task", "total_exchange",
      {{"total_exchange", "total_exchange"}, {"neighbourhood", "neighbourhood"}, {"tags", "tags"}});
  const Topology topo = c.topology.make();
  const int D = topo.num_dims();
  int diameter = 0;
  for (int j = 0; j < D; ++j) diameter += topo.size(j) / 2;
  for (const char* k : {"near", "far"})
    if (s.has(k) && sch.task != "neighbourhood")
      fail(c.source, s.raw(k), s.path(k), "belongs to task: neighbourhood");
  if (s.has("tags") && sch.task != "tags")
    fail(c.source, s.raw("tags"), s.path("tags"), "belongs to task: tags");
  if (sch.task == "neighbourhood") {
    sch.near = static_cast<int>(s.integer("near", 1, 1, {diameter, "diameter"}));
    sch.far = static_cast<int>(
        s.integer("far", {diameter, "diameter"}, {sch.near, "near"}, {diameter, "diameter"}));
  }
  if (sch.task != "tags") return;
  YAML::Node tg =
      s.raw("tags", {"list", nullptr,
                     "hypercube: each 1 .. nodes - 1; torus: lists of one offset per dimension"});
  const bool cube = c.topology.kind == Topology::Kind::Hypercube;
  const int n = topo.num_nodes();
  if (!tg || !tg.IsSequence() || tg.size() == 0)
    fail(c.source, tg ? tg : s.raw("task"), s.path("tags"),
         cube ? "needs a list of tags, each src xor dst (1.." + std::to_string(n - 1) + ")"
              : "needs a list of tags, each a list of " + std::to_string(D) +
                    " offsets (one per dimension)");
  sch.tags.clear();
  for (std::size_t i = 0; i < tg.size(); ++i) {
    const std::string p = s.path("tags") + "[" + std::to_string(i) + "]";
    if (cube) {
      sch.tags.push_back({static_cast<int>(s.as_int(tg[i], p, 1, n - 1))});
      continue;
    }
    if (!tg[i].IsSequence() || static_cast<int>(tg[i].size()) != D)
      fail(c.source, tg[i], p,
           "expected a list of " + std::to_string(D) + " offsets (one per dimension)");
    std::vector<int> off;
    bool zero = true;
    for (int j = 0; j < D; ++j) {
      const int size = topo.size(j);
      off.push_back(
          static_cast<int>(s.as_int(tg[i][static_cast<std::size_t>(j)],
                                    p + "[" + std::to_string(j) + "]", -(size - 1), size - 1)));
      zero = zero && off.back() == 0;
    }
    if (zero) fail(c.source, tg[i], p, "a node does not send to itself (all offsets 0)");
    sch.tags.push_back(std::move(off));
  }
}

}  // namespace

void check_scan_slots(const Config& c, const Section& s, double tp, int packet_flits, int pieces) {
  if (packet_flits % pieces != 0) return;  // refused with its own message (message_flits)
  ScanGrid g;
  try {
    g = scan_grid(tp, packet_flits, packet_flits / pieces);
  } catch (const std::invalid_argument& e) {
    fail(c.source, s.at("scan_slots"), s.path("scan_slots"), e.what());
  }
  if (g.packet > 1 && c.timing.delta != 0)
    fail(c.source, s.at("scan_slots"), s.path("scan_slots"),
         "a scan step of " + Json::number(tp) + " slots cuts the " +
             std::to_string(packet_flits / pieces) +
             "-flit slot into smaller ones: that needs timing.delta = 0 (a slot of delta + L tau "
             "cycles does not divide)");
}

void parse_schedule(Section& s, Config& c) {
  const int N = c.topology.make().num_nodes();
  ScheduleConfig& sch = c.schedule;
  if (!s.has("algorithm")) {
    s.finish();
    return;
  }
  sch.algorithm = s.choice<std::string>("algorithm", "",
                                        {{"tiling", "tiling"},
                                         {"divide_and_conquer", "divide_and_conquer"},
                                         {"h_trees", "h_trees"},
                                         {"store_and_forward_trees", "store_and_forward_trees"},
                                         {"explicit", "explicit"},
                                         {"total_exchange", "total_exchange"},
                                         {"octr", "octr"},
                                         {"oadd", "oadd"},
                                         {"greedy", "greedy"},
                                         {"mnb", "mnb"},
                                         {"mnb_optimal", "mnb_optimal"},
                                         {"pmnb", "pmnb"},
                                         {"pmnb_iii", "pmnb"},
                                         {"pmnb_ii", "pmnb_ii"},
                                         {"pmnb_i", "pmnb_i"},
                                         {"pmnb_a0", "pmnb_a0"}});
  if (!c.traffic.none)
    fail(c.source, s.at("algorithm"), s.path("algorithm"),
         "a schedule drives the network itself: set traffic: {type: none}");
  if (c.topology.make().indirect())
    fail(c.source, s.at("algorithm"), s.path("algorithm"),
         "schedules run on tori, meshes and hypercubes (not on an indirect network)");
  if (c.topology.two_link_size2() && sch.algorithm != "explicit" &&
      !exchange_algorithm(sch.algorithm))
    fail(c.source, s.at("algorithm"), s.path("algorithm"),
         sch.algorithm +
             " uses one link of a size-2 dimension: with topology.size2_links: 2 the schedules "
             "are explicit, total_exchange, octr, oadd and greedy");
  sch.message_flits = static_cast<int>(s.integer("message_flits", 1, 1, 1 << 24));
  sch.barrier = s.boolean("barrier", false);
  if (sch.algorithm == "explicit") {
    parse_explicit(s, c);
    if (sch.barrier && sch.explicit_schedule->timing == ScheduleTiming::Slots)
      fail(c.source, s.at("barrier"), s.path("barrier"), "slots are already synchronous");
    if (sch.explicit_schedule->timing == ScheduleTiming::Slots) {
      if (c.router.buffering == Buffering::Circuit)
        fail(c.source, s.at("timing"), s.path("timing"),
             "circuits run phases (timing: phases); slots are for store-and-forward routers");
      if (c.timing.alpha != 0)
        fail(c.source, s.at("timing"), s.path("timing"),
             "slot schedules assume the slotted model: timing.alpha = 0 (a slot is delta + B tau)");
    }
    s.finish();
    return;
  }
  const bool pmnb = sch.algorithm == "pmnb" || sch.algorithm == "pmnb_ii" ||
                    sch.algorithm == "pmnb_i" || sch.algorithm == "pmnb_a0";
  if (pmnb) {
    const int N = c.topology.make().num_nodes();
    if (s.has("sources") && s.has("packets"))
      fail(c.source, s.at("packets"), s.path("packets"), "give sources or packets, not both");
    sch.sources = s.int_list("sources", {}, 0, {N - 1, "nodes - 1"});
    sch.packets = static_cast<int>(s.integer("packets", 0, 1, {N, "nodes"}));
    if (sch.sources.empty() && sch.packets == 0)
      fail(c.source, s.at("algorithm"), s.path("algorithm"),
           "pmnb needs sources: [nodes] or packets: M (drawn from the seed)");
    sch.scan_slots = s.real("scan_slots", 1, 0, 64);
    check_scan_slots(c, s, sch.scan_slots, sch.message_flits,
                     sch.algorithm == "pmnb_ii" ? static_cast<int>(c.topology.dims.size()) : 1);
  }
  const bool isotropic =
      sch.algorithm == "octr" || sch.algorithm == "oadd" || sch.algorithm == "greedy";
  if (isotropic) parse_task(s, c);
  if (sch.algorithm == "total_exchange" || sch.algorithm == "octr") {
    const int ports = c.topology.make().num_ports();
    sch.links = static_cast<int>(s.integer("links", 0, 1, {ports, "router ports"}));
  }
  if (isotropic || sch.algorithm == "total_exchange" || sch.algorithm == "mnb" ||
      sch.algorithm == "mnb_optimal" || pmnb) {
    // Slot schedules on the model's store-and-forward routers (the paper's slotted model:
    // alpha = 0, a slot is delta + L tau): OCTR, OADD, greedy, (P)MNB.
    if (c.router.buffering == Buffering::Circuit)
      fail(c.source, s.at("algorithm"), s.path("algorithm"),
           sch.algorithm + " is a slot schedule: use output_queued routers");
    if (c.router.buffering == Buffering::InputVc)
      fail(c.source, s.at("algorithm"), s.path("algorithm"),
           sch.algorithm +
               " routes out of dimension order (input-VC routers refuse such "
               "routes): use output_queued routers");
    if (c.timing.alpha != 0)
      fail(c.source, s.at("algorithm"), s.path("algorithm"),
           "slot schedules assume the slotted model: timing.alpha = 0");
    if (compact_plan_algorithm(sch.algorithm))
      sch.compact_plan = s.boolean("compact_plan", false);
    else if (s.has("compact_plan"))
      fail(c.source, s.at("compact_plan"), s.path("compact_plan"),
           "a compact plan is for pmnb, pmnb_i, pmnb_ii, pmnb_a0, mnb and mnb_optimal");
    // Bound the plan before building it (issue 16, finding 5): a schedule holds one entry per
    // link crossing; a broadcast of M packets about M N, an exchange about N^2 D / 2.
    { check_plan_memory(c, s, isotropic && sch.task == "tags" ? "tags" : "algorithm"); }
    try {
      // (A compact plan of millions of hops is built once, by the run.)
      if (sch.compact_plan && planned_crossings(c) > (1 << 20)) {
        s.finish();
        return;
      }
      if (sch.compact_plan)
        build_compact_plan(c);
      else
        build_schedule(c);
    } catch (const std::invalid_argument& e) {
      fail(c.source, s.at("algorithm"), s.path("algorithm"), e.what());
    }
    s.finish();
    return;
  }
  sch.packet_flits = static_cast<int>(s.integer("packet_flits", 0, 0, 1 << 24));
  sch.root = static_cast<int>(s.integer("root", 0, 0, {N - 1, "nodes - 1"}));
  sch.variant = s.choice<std::string>("variant", "slanting",
                                      {{"slanting", "slanting"},
                                       {"boss_blocks", "boss_blocks"},
                                       {"blocks_first", "blocks_first"},
                                       {"pinwheel", "pinwheel"},
                                       {"deferred_fill", "deferred_fill"}});
  if (s.has("variant")) {
    // (The tiling's variants, and h_trees' one; no other schedule has any.)
    const bool fill = sch.variant == "deferred_fill";
    const char* why =
        sch.algorithm == "h_trees"
            ? (fill ? nullptr
                    : "h_trees has one variant, deferred_fill (slanting, boss_blocks, "
                      "blocks_first and pinwheel are the tiling's)")
        : sch.algorithm == "tiling"
            ? (fill ? "deferred_fill is h_trees' variant (the tiling's: slanting, "
                      "boss_blocks, blocks_first, pinwheel)"
                    : nullptr)
            : "only tiling and h_trees have variants";
    if (why) fail(c.source, s.at("variant"), s.path("variant"), why);
  }
  if (c.topology.kind != Topology::Kind::Torus || c.topology.dims.size() != 2)
    fail(c.source, s.at("algorithm"), s.path("algorithm"),
         "the circuit-switched broadcast schedules are for 2-D tori");
  if (c.router.buffering != Buffering::Circuit)
    fail(c.source, s.at("algorithm"), s.path("algorithm"),
         "the schedules send along source routes of circuits: set router.switching: "
         "direct_connect (or buffering: circuit)");
  // Packets of B flits, the last of each stream shorter: refused where one would be empty.
  {
    const std::string why = circuit_packets_problem(c);
    const char* key = s.has("packet_flits") ? "packet_flits" : "message_flits";
    if (!why.empty()) fail(c.source, s.at(key), s.path(key), why);
  }
  // Bound the plan before building it: every part of the message crosses about every node.
  check_plan_memory(c, s, "packet_flits");
  // The construction must exist for this size (the generators say which sizes they have; the
  // H-trees' without their fill search, which the run does once).
  try {
    check_schedule(c);
  } catch (const std::invalid_argument& e) {
    fail(c.source, s.at("algorithm"), s.path("algorithm"), e.what());
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
