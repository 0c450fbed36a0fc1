#include "switchyard/network/network.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "switchyard/base/clock.hpp"
#include "switchyard/base/json.hpp"
#include "switchyard/network/network_interface_step.hpp"
#include "switchyard/router/circuit_router.hpp"
#include "switchyard/router/input_vc_router.hpp"
#include "switchyard/router/output_queued_router.hpp"
#include "switchyard/router/rtl_registry.hpp"

namespace sy {

namespace {
// No SystemC banner on stdout by default, for a program that links the library too (its own
// sc_main, SystemC's main): set while the library initializes, before SystemC's main prints it,
// unless the environment already says (then the environment decides).
const bool kQuietSystemC = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

// waves.rtl_nodes: router n's Verilator VCD, rtl_<n>.vcd in the folder of waves.file (made
// if missing).
std::string Network::rtl_vcd_path(const std::string& out_dir, int n) const {
  std::filesystem::path dir = std::filesystem::path(cfg_.waves.file).parent_path();
  if (!out_dir.empty()) dir = std::filesystem::path(out_dir) / dir;
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("waves: cannot create directory " + dir.string());
  return (dir / ("rtl_" + std::to_string(n) + ".vcd")).string();
}

void Network::close_router_waves() {
  for (Router* r : routers_) r->close_waves();
}

Network::Network(sc_core::sc_module_name name, const Config& cfg, const std::string& out_dir,
                 Ranks* ranks)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      routing_(topo_, cfg.routing.tie_break, cfg.router.vcs - vc_plan(cfg).ucast_lo,
               vc_plan(cfg).ucast_lo, cfg.routing.dateline_on_entry),
      stats_(cfg.traffic.trace ? 0 : cfg.simulation.warmup,
             cfg.traffic.trace ? kNever : cfg.simulation.warmup + cfg.simulation.measure,
             cfg.simulation.batches),
      fabric_(cfg_, topo_, routing_, stats_),
      traffic_("traffic", cfg_, topo_) {
  (void)kQuietSystemC;
  set_cycle_period_ps(cfg_.interface.clock_ps);
  fabric_.wake = &wake_;
  if (const char* log = std::getenv("SWITCHYARD_HOP_LOG")) {
    fabric_.hop_log = std::fopen(log, "w");
    if (!fabric_.hop_log) throw std::runtime_error(std::string("cannot write ") + log);
  }
  if (cfg_.routing.algorithm != "dimension_order") {
    auto algo =
        make_routing(cfg_.routing.algorithm, topo_, cfg_.router.vcs, cfg_.routing.tie_break);
    algo->configure(cfg_.routing);
    routing_.set_algorithm(std::move(algo));
  }
  // One NI per terminal, one router per router id (the same ids in a direct network).
  const int N = topo_.num_nodes(), R = topo_.num_routers();
  for (int n = 0; n < N; ++n) {
    ni_store_.emplace_back(new NetworkInterface(("ni" + std::to_string(n)).c_str(), n, fabric_));
    nis_.push_back(ni_store_.back().get());
  }
  active_ni_bits_.assign((static_cast<std::size_t>(N) + 63) / 64, 0);
  for (int n = 0; n < R; ++n) {
    const std::string id = "r" + std::to_string(n);
    const int t = topo_.ejection_terminal(n);
    NetworkInterface* const* ni = t >= 0 ? &nis_[static_cast<std::size_t>(t)] : nullptr;
    Router* r;
    if (cfg_.router.rtl_at(n)) {  // (a Verilated RTL router: checked by the config)
      const RtlRouterBuild* b =
          find_rtl_router(cfg_.router.rtl_name, cfg_.router.vcs, cfg_.router.vc_depth);
      const auto& traced = cfg_.waves.rtl_nodes;
      if (std::binary_search(traced.begin(), traced.end(), n))  // (waves.rtl_nodes)
        r = b->make_traced(id.c_str(), n, fabric_, ni, rtl_vcd_path(out_dir, n));
      else
        r = b->make(id.c_str(), n, fabric_, ni);
    } else if (cfg_.router.buffering == Buffering::InputVc)
      r = new InputVcRouter(id.c_str(), n, fabric_, ni);
    else if (cfg_.router.buffering == Buffering::Circuit)
      r = new CircuitRouter(id.c_str(), n, fabric_, ni);
    else
      r = new OutputQueuedRouter(id.c_str(), n, fabric_, ni);
    router_store_.emplace_back(r);
    routers_.push_back(r);
  }
  active_bits_.assign((routers_.size() + 63) / 64, 0);
  input_vc_ = cfg_.router.buffering == Buffering::InputVc;
  cpp_input_vc_ = input_vc_ && !cfg_.router.rtl;
  inject_now_ = input_vc_ && cfg_.router.pipeline.staged && cfg_.router.pipeline.ni_lt == 0;
  link_edge_ = input_vc_ ? stats_.window_start() : kNever;
  // (Below about a thousand routers their state stays in the caches: the prefetch only costs.)
  prefetch_ = cpp_input_vc_ && routers_.size() >= 1024;
  near_vcs_ = cfg_.router.vcs <= OutputUnit::kNearVcs;
  // Links: one per connected (router, port), in its output unit.
  links_.reserve(static_cast<std::size_t>(R) * topo_.num_ports());
  for (int n = 0; n < R; ++n)
    for (int p = 0; p < topo_.num_ports(); ++p) {
      const int m = topo_.neighbor(n, p);
      if (m < 0) continue;
      OutputUnit& ou = routers_[n]->output(p);
      const int in = topo_.in_port(n, p);
      if (in > 63) throw std::runtime_error("a router has more than 64 input ports");
      ou.link.src_node = n;
      ou.link.src_port = p;
      ou.link.dst_node = m;
      ou.dst_port = static_cast<std::int8_t>(in);
      ou.dst = routers_[m];
      // (An InputVcRouter downstream: its input unit, for the direct call and the prefetch; a
      // Verilated one (router.rtl_nodes) leaves dst_input null: its virtual accept_flit.)
      if (input_vc_ && !cfg_.router.rtl_at(m)) {
        auto* dst = static_cast<InputVcRouter*>(routers_[m]);
        ou.dst_input = &dst->input(in);
        dst->set_upstream_node(in, n);
      }
      links_.push_back(&ou);
      routers_[m]->connect_upstream(in, &ou, n < m);
    }
  for (int n = 0; n < N; ++n) {
    nis_[n]->attach(routers_[topo_.injection_router(n)]);
    traffic_.out[static_cast<std::size_t>(n)].bind(nis_[n]->target);
  }
  if (cfg_.waves.enable)
    waves_.reset(new Waves(cfg_, topo_, routers_, fabric_.pool, out_dir, nis_));
  if (cfg_.traffic.trace && !cfg_.traffic.messages.empty())
    last_trace_time_ = cfg_.traffic.messages.back().time;
  set_patience();
  // Per class: priority classes (not under a broadcast scheme, whose classes are its hops') and
  // traffic classes.
  stats_.track_classes(cfg_.traffic.broadcast.enabled() ? 1 : cfg_.router.priority_classes,
                       cfg_.traffic.traffic_class_limit());
  if (ranks && ranks->size() > 1)
    set_up_ranks(ranks);
  else if (cfg_.simulation.threads > 1)
    set_up_lanes(cfg_.simulation.threads);
  SC_METHOD(clock);
}

Network::~Network() {
  if (fabric_.hop_log) std::fclose(fabric_.hop_log);
}

namespace {
// The items of the set bits of words [w0, w1), in index order: keep(item) false drops its bit.
// Returns how many were dropped.
template <class T, class Keep>
[[gnu::always_inline]] inline std::size_t sweep(std::uint64_t* bits, std::size_t w0, std::size_t w1,
                                                T* const* items, Keep&& keep) {
  std::size_t dropped = 0;
  for (std::size_t w = w0; w < w1; ++w)
    for (std::uint64_t m = bits[w]; m; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      if (!keep(items[w * 64 + static_cast<std::size_t>(i)])) {
        bits[w] &= ~(std::uint64_t{1} << i);
        ++dropped;
      }
    }
  return dropped;
}

// Keeps node order among active NIs, so injection order does not depend on wake-up order: the few
// woken ones sorted, then merged into the (sorted) active list; `woke` is left empty.
void join_woken(std::vector<NetworkInterface*>& active, std::vector<NetworkInterface*>& woke,
                std::vector<NetworkInterface*>& scratch) {
  if (woke.empty()) return;
  const auto by_node = [](const NetworkInterface* a, const NetworkInterface* b) {
    return a->node() < b->node();
  };
  std::sort(woke.begin(), woke.end(), by_node);
  scratch.resize(active.size() + woke.size());
  std::merge(active.begin(), active.end(), woke.begin(), woke.end(), scratch.begin(), by_node);
  active.swap(scratch);
  woke.clear();
}
}  // namespace

void Network::report_lane_profile() const {
  if (lane_profile_)
    std::fprintf(stderr,
                 "switchyard: threads %zu: parallel parts %.3f s, completions and counters "
                 "%.3f s, the rest of the cycles %.3f s\n",
                 lanes_.size(), lane_parallel_s_, lane_serial_s_, lane_between_s_);
  if (lane_profile_ && ranks_)
    std::fprintf(stderr,
                 "switchyard: rank %d: evaluate %.3f s, flits packed and exchanged %.3f s, "
                 "unpacked and received %.3f s, credits and counters packed %.3f s, gathered "
                 "%.3f s, unpacked %.3f s\n",
                 rank_, rank_parts_s_[0], rank_parts_s_[1], rank_parts_s_[2], rank_parts_s_[3],
                 rank_parts_s_[4], rank_parts_s_[5]);
}

// The run's patience, scaled by the timing so that a slow but moving run (a large delta, long
// packets) is neither a deadlock nor undrained: `still` is the longest a moving packet can keep
// every flit still (its start-up, a header's switching, a whole packet's serialization, a
// circuit's acknowledgment); `zero_load` the longest one packet takes alone (store-and-forward
// over the diameter). The watchdog waits simulation.deadlock_cycles beyond `still`; the drains
// wait simulation.drain_limit beyond `zero_load`.
void Network::set_patience() {
  const Config& c = cfg_;
  const double D = topo_.diameter();
  // (One hop's worth, and the circuit's acknowledgment over the diameter.)
  const double still = lone_message_cycles(c, 1) + c.timing.ack_per_hop * 2.0 * (D - 1);
  const double zero_load = lone_message_cycles(c, topo_.diameter());
  zero_load_ = zero_load;
  constexpr double kCap = static_cast<double>(std::uint64_t{1} << 62);
  const auto cycles = [&](double x) {
    return x >= kCap ? static_cast<Cycle>(kCap) : static_cast<Cycle>(x);
  };
  watchdog_ = cycles(static_cast<double>(c.simulation.deadlock_cycles) + still);
  drain_ = cycles(static_cast<double>(c.simulation.drain_limit) + zero_load);
}

// The active routers of the active set's words [w0, w1), in node order; those that went idle
// leave the set (their count is returned). (Input-VC routers: their own loop, with evaluate()
// inline and the next router prefetched.)
std::size_t Network::evaluate_routers(std::size_t w0, std::size_t w1, Cycle t) {
  if (cpp_input_vc_)
    return InputVcRouter::evaluate_words(routers_.data(), active_bits_.data(), w0, w1, t,
                                         prefetch_);
  return sweep(active_bits_.data(), w0, w1, routers_.data(), [t](Router* r) {
    if (r->evaluate(t)) return true;
    r->active = false;
    return false;
  });
}

// Lane k's share of the network: the routers of a contiguous range of the active set's words (so
// lanes in order are node order), and the NIs that inject into them.
std::pair<std::size_t, std::size_t> Network::lane_words(int k) const {
  const std::size_t W = active_bits_.size(), L = lanes_.size();
  return {W * static_cast<std::size_t>(k) / L, W * static_cast<std::size_t>(k + 1) / L};
}

void Network::set_up_lanes(int lanes) {
  const std::size_t L = static_cast<std::size_t>(lanes);
  lanes_.resize(L);
  lane_of_word_.assign(active_bits_.size(), 0);
  for (std::size_t k = 0; k < L; ++k) {
    const auto [w0, w1] = lane_words(static_cast<int>(k));
    for (std::size_t w = w0; w < w1; ++w) lane_of_word_[w] = static_cast<std::uint8_t>(k);
    Lane& ln = lanes_[k];
    ln.deliveries_to.resize(L);
    ln.credits_to[0].resize(L);
    ln.credits_to[1].resize(L);
    for (int par = 0; par < 2; ++par) {
      ln.packets_back[par].resize(L);
      ln.messages_back[par].resize(L);
    }
    ln.lane_of_word = lane_of_word_.data();
    ln.key_base = (std::uint64_t{2} << 62) | (static_cast<std::uint64_t>(k) << 32);
    ln.ni_key_base = (std::uint64_t{1} << 62) | (static_cast<std::uint64_t>(k) << 32);
    ln.gen_key_base = static_cast<std::uint64_t>(k) << 32;
    ln.node_lo = static_cast<int>(w0 * 64);
    ln.node_hi = static_cast<int>(w1 * 64);
    ln.classes = stats_.tracks_classes();
    if (cfg_.router.pipeline.staged) {
      ln.wheel_to.assign(L, std::vector<CreditList>(fabric_.credit_wheel.size()));
      ln.wheel_mask = fabric_.credit_mask;
    }
  }
  // An NI is on its injection router's lane, with its sources.
  std::vector<std::uint8_t> ni_lane(nis_.size());
  for (std::size_t n = 0; n < nis_.size(); ++n) {
    ni_lane[n] =
        lane_of_word_[static_cast<std::size_t>(topo_.injection_router(static_cast<int>(n))) / 64];
    nis_[n]->set_lane(ni_lane[n]);
  }
  fabric_.pool.set_lanes(lanes);
  fabric_.messages.set_lanes(lanes);
  lane_sources_ = traffic_.set_lanes(ni_lane, lanes);
  if (!ranks_) threads_ = std::make_unique<RouterThreads>(lanes);
  lane_profile_ = std::getenv("SWITCHYARD_LANE_PROFILE") != nullptr;
}

// The first parallel part of a cycle on lane k: last step's credits for its output units, its
// NIs' injection, its routers' evaluation (flits to its own routers received at once).
void Network::evaluate_lane(int k) {
  Lane& ln = lanes_[static_cast<std::size_t>(k)];
  current_lane = &ln;
  const Cycle t = lane_cycle_;
  for (Lane& from : lanes_) {
    CreditList& cl = from.credits_to[lane_parity_ ^ 1][static_cast<std::size_t>(k)];
    if (cl.empty()) continue;
    apply_credits(cl);
  }
  if (!ln.wheel_to.empty()) {  // (the staged pipeline's later credits due this cycle)
    const std::size_t b = static_cast<std::size_t>(t & ln.wheel_mask);
    for (Lane& from : lanes_) {
      CreditList& cl = from.wheel_to[static_cast<std::size_t>(k)][b];
      if (cl.empty()) continue;
      ln.wheel_applied += cl.size();
      apply_credits(cl);
    }
  }
  ln.credits_now = ln.credits_to[lane_parity_].data();
  // The packet and message ids finished on the lanes last step, back to this lane's free lists.
  for (Lane& from : lanes_) {
    std::vector<std::uint32_t>& ps =
        from.packets_back[lane_parity_ ^ 1][static_cast<std::size_t>(k)];
    for (const std::uint32_t id : ps) fabric_.pool.release(id);
    ps.clear();
    std::vector<std::uint32_t>& ms =
        from.messages_back[lane_parity_ ^ 1][static_cast<std::size_t>(k)];
    for (const std::uint32_t id : ms) fabric_.messages.release(id);
    ms.clear();
  }
  ln.packets_back_now = ln.packets_back[lane_parity_].data();
  ln.messages_back_now = ln.messages_back[lane_parity_].data();
  ln.gen_sent = 0;
  if (lane_sources_) traffic_.generate_lane(t, k);
  join_woken(ln.nis, ln.woke_nis, ln.merged_nis);
  ln.ni_sent = 0;
  std::size_t keep = 0;
  for (NetworkInterface* ni : ln.nis) {
    if (ni->step_lane(t, ln))
      ln.nis[keep++] = ni;
    else
      ni->active = false;
  }
  ln.nis.resize(keep);
  if (inject_now_) join_lane_woken(ln);  // (routers its NIs woke: this cycle's, inject_now_)
  ln.ni_ejections = ln.ejections.size();
  ln.sent = 0;
  const auto [w0, w1] = lane_words(k);
  ln.deactivated += evaluate_routers(w0, w1, t);
  current_lane = nullptr;
}

// The second parallel part on lane k: the flits other lanes sent to its routers, received in
// the one-thread order (lane by lane, each in sending order, its own sends in their place); then
// the per-flit part of every ejection to its NIs in that order; then the routers that woke join
// its part of the active set for the next cycle.
void Network::receive_lane(int k) {
  constexpr std::size_t kAhead = 4;
  Lane& ln = lanes_[static_cast<std::size_t>(k)];
  current_lane = &ln;
  ln.own_ejections.swap(ln.ejections);
  ln.ejections.assign(ln.own_ejections.begin(),
                      ln.own_ejections.begin() + static_cast<std::ptrdiff_t>(ln.ni_ejections));
  for (std::size_t j = 0; j < lanes_.size(); ++j) {
    if (j == static_cast<std::size_t>(k)) {
      ln.ejections.insert(ln.ejections.end(),
                          ln.own_ejections.begin() + static_cast<std::ptrdiff_t>(ln.ni_ejections),
                          ln.own_ejections.end());
      continue;
    }
    std::vector<Lane::Delivery>& ds = lanes_[j].deliveries_to[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < ds.size(); ++i) {
      const Lane::Delivery& d = ds[i];
      if (prefetch_ && i + kAhead < ds.size()) {
        // (A delivery a few ahead: the lines its receive reads.)
        const Lane::Delivery& a = ds[i + kAhead];
        if (a.dst_input) InputVcRouter::prefetch_arrival(a.dst, a.dst_input, a.vc);
      }
      ln.key = d.key;
      static_cast<InputVcRouter*>(d.dst)->receive_delivery(d.port, d.vc, d.flit, d.t);
    }
    ds.clear();
  }
  ln.own_ejections.clear();
  for (const Lane::Ejection& e : ln.ejections) e.ni->take_flit(e.flit, e.t, ln, e.key);
  ln.ejections.clear();
  join_lane_woken(ln);
  current_lane = nullptr;
}

// The routers lane ln woke (all its own) join its part of the active set.
void Network::join_lane_woken(Lane& ln) {
  for (const int n : ln.woke) {
    const std::size_t i = static_cast<std::size_t>(n);
    std::uint64_t& w = active_bits_[i / 64];
    const std::uint64_t b = std::uint64_t{1} << (i % 64);
    if (!(w & b)) {
      w |= b;
      ++ln.activated;
    }
  }
  ln.woke.clear();
}

// A cycle on several threads, after its messages are taken (step()): the NIs woken join their
// lanes; the two parallel parts; then what is shared, in the one-thread order: the packets
// completed (merged by key), and the lanes' counters. This is the same run as on one thread
// because with delta >= 1 (config.cpp allows threads only then) a flit that reaches a router in
// a cycle cannot leave it in that cycle, so a router's evaluation does not depend on flits sent
// to it in the same cycle; a router's receptions commute (each touches its own input VC); credits
// are applied next cycle; an NI's flits come in their order and the statistics that depend on
// order (completions) are kept in it.
void Network::step_in_parallel(Cycle t) {
  // (NIs woken by the messages taken before the parallel part join their lane's list there.)
  for (NetworkInterface* ni : fabric_.woke_nis)
    lanes_[static_cast<std::size_t>(ni->lane())].woke_nis.push_back(ni);
  fabric_.woke_nis.clear();
  fabric_.accept_from = t + 1;
  lane_cycle_ = t;
  lane_parity_ ^= 1;
  // (Per-packet records need the completions in the one-thread order; so do the waves, which
  // run on one thread anyway.)
  const bool fast = !stats_.ordered() && !waves_;
  for (Lane& ln : lanes_) ln.fast_completions = fast;
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0;
  if (lane_profile_) t0 = Clock::now();
  if (ranks_) {
    step_across_ranks();
  } else {
    threads_->run([](void* self, int k) { static_cast<Network*>(self)->evaluate_lane(k); }, this);
    threads_->run([](void* self, int k) { static_cast<Network*>(self)->receive_lane(k); }, this);
  }
  Clock::time_point t1;
  if (lane_profile_) t1 = Clock::now();
  // The completed packets in the order one thread completes them (each lane's list is in key
  // order, so this is a merge).
  for (;;) {
    Lane* next = nullptr;
    for (Lane& ln : lanes_)
      if (ln.next_completion < ln.completions.size() &&
          (!next ||
           ln.completions[ln.next_completion].key < next->completions[next->next_completion].key))
        next = &ln;
    if (!next) break;
    const Lane::Completion& c = next->completions[next->next_completion++];
    c.ni->complete_packet(c.packet, c.t);
  }
  lanes_busy_ = lane_nis_ = false;
  lane_ids_back_ = lane_message_ids_back_ = 0;
  for (Lane& ln : lanes_) {
    ln.completions.clear();
    ln.next_completion = 0;
    stats_.on_lane_delivered(ln.packets_done, ln.last_delivery, ln.measured);
    ln.measured.clear();
    ln.packets_done = 0;
    ln.last_delivery = 0;
    fabric_.nonminimal_packets += ln.nonminimal;
    fabric_.intermediate_missed += ln.intermediate_missed;
    ln.nonminimal = ln.intermediate_missed = 0;
    lane_ids_back_ += ln.ids_back;
    lane_message_ids_back_ += ln.message_ids_back;
    ln.ids_back = ln.message_ids_back = 0;
    fabric_.flit_hops += ln.flit_hops;
    fabric_.forbidden_turns += ln.forbidden_turns;
    fabric_.max_flit_wait = std::max(fabric_.max_flit_wait, ln.max_flit_wait);
    fabric_.last_progress = std::max(fabric_.last_progress, ln.progress);
    fabric_.flits_in_network += ln.flits_injected;
    fabric_.flits_in_network -= ln.flits_delivered;
    stats_.flits_injected += ln.flits_injected;
    stats_.flits_delivered += ln.flits_delivered;
    stats_.accepted_flits_window += ln.accepted_window;
    stats_.order_errors += ln.order_errors;
    stats_.packets_created += ln.packets_created;
    stats_.flits_created += ln.flits_created;
    stats_.measured_created += ln.measured_created;
    stats_.offered_flits_window += ln.offered_window;
    stats_.zero_hop += ln.zero_hop;
    if (ln.classes) {
      stats_.add_class_counts(ln.class_offered, ln.class_accepted);
      std::fill(&ln.class_offered[0][0], &ln.class_offered[0][0] + 2 * kMaxClasses, 0);
      std::fill(&ln.class_accepted[0][0], &ln.class_accepted[0][0] + 2 * kMaxClasses, 0);
    }
    stats_.flits_delivered += ln.local_flits;
    ln.packets_created = ln.flits_created = ln.measured_created = ln.offered_window = 0;
    ln.zero_hop = ln.local_flits = 0;
    active_count_ += ln.activated;
    active_count_ -= ln.deactivated;
    lane_nis_ |= ln.injecting();
    lanes_busy_ |= ln.credits_sent > 0 || ln.injecting();
    ln.flit_hops = ln.forbidden_turns = 0;
    ln.flits_injected = ln.flits_delivered = ln.accepted_window = ln.order_errors = 0;
    ln.credits_sent = 0;
    // (What a lane applied was in the wheels before this step: no underflow lane by lane.)
    fabric_.credits_in_wheel += ln.wheel_sent;
    fabric_.credits_in_wheel -= ln.wheel_applied;
    ln.wheel_sent = ln.wheel_applied = 0;
    ln.max_flit_wait = 0;
    ln.progress = 0;
    ln.activated = ln.deactivated = 0;
  }
  if (lane_profile_) {
    const Clock::time_point t2 = Clock::now();
    lane_parallel_s_ += std::chrono::duration<double>(t1 - t0).count();
    lane_serial_s_ += std::chrono::duration<double>(t2 - t1).count();
    if (lane_last_ != Clock::time_point{})
      lane_between_s_ += std::chrono::duration<double>(t0 - lane_last_).count();
    lane_last_ = t2;
  }
}

std::uint64_t Network::backlog() const {
  std::uint64_t b = 0;
  for (auto* ni : nis_) b += ni->backlog();
  if (ranks_) b = ranks_->sum(b);  // (another rank's NIs hold nothing here)
  return b + held_by_plugins();
}

std::uint64_t Network::held_by_plugins() const {
  std::uint64_t n = 0;
  for (const auto& f : backlogs_) n += f();
  return n;
}

std::uint64_t Network::credit_violations() const {
  std::uint64_t v = 0;
  for (auto* ni : nis_)
    for (int c = 0; c < ni->injection_channels(); ++c) v += ni->injection(c).violations;
  for (auto* r : routers_)
    for (int p = 0; p < topo_.num_ports(); ++p) v += r->output(p).violations;
  return v;
}

namespace {
// The SystemC processes (methods and threads) among objs and their descendants.
int processes_in(const std::vector<sc_core::sc_object*>& objs) {
  int n = 0;
  for (const sc_core::sc_object* o : objs) {
    const std::string kind = o->kind();
    n += kind == "sc_method_process" || kind == "sc_thread_process" || kind == "sc_cthread_process";
    n += processes_in(o->get_child_objects());
  }
  return n;
}
}  // namespace

void Network::start_of_simulation() {
  for (auto* ni : nis_) external_ |= ni->target.size() > 1;
  // Alone: the clock is the only process (no initiator, schedule driver, dynamic broadcast
  // period, testbench or co-simulated model), and no waveforms (traced at the kernel's time).
  // SWITCHYARD_CYCLE_PER_ACTIVATION=1 turns it off (tests compare the two).
  alone_ = !external_ && !waves_ && processes_in(sc_core::sc_get_top_level_objects()) == 1 &&
           !std::getenv("SWITCHYARD_CYCLE_PER_ACTIVATION");
}

// The earliest cycle something is due while the network is idle (kNever: nothing).
Cycle Network::next_due(Cycle t) const {
  Cycle due = traffic_.next_time();  // (ranks: this rank's sources; the earliest of all below)
  if (ranks_) due = ranks_->min(due);
  if (!fabric_.pending.empty()) due = std::min(due, fabric_.pending.top().cycle);
  if (!fabric_.ni_timers.empty()) due = std::min(due, fabric_.ni_timers.top().first);
  if (!fabric_.router_timers.empty()) due = std::min(due, fabric_.router_timers.top().first);
  if (!cfg_.traffic.trace) {
    const Cycle w0 = stats_.window_start(), w1 = stats_.window_end();
    if (t < w0)
      due = std::min(due, w0);
    else if (t < w1)
      due = std::min(due, w1);
  }
  // Waves: step every cycle until what is already scheduled (circuits held, messages still
  // arriving) is over, so the VCD shows it when it happens.
  if (waves_ && t <= std::max(fabric_.horizon, stats_.last_delivery)) due = std::min(due, t);
  return due;
}

void Network::idle_end(Cycle t) {
  end_cycle_ = std::max({end_cycle_, t, stats_.last_delivery});
}

// (An exception out of a cycle, a refused request or a broken invariant, ends the run and reaches
// run_simulation's caller as itself, not as SystemC's report of an uncaught exception.)
void Network::clock() {
  try {
    run_cycles();
  } catch (...) {
    failure_ = std::current_exception();
    state_.done = true;
    sc_core::sc_stop();
  }
}

void Network::run_cycles() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (state_.done) {
    // SystemC writes a time step's trace values only once time moves on: run two more (empty)
    // cycles so the VCD shows the last events end.
    if (waves_ && waves_tail_ < 2) {
      ++waves_tail_;
      waves_->begin_cycle(cycle_ceil(now));
      next_trigger(cycle_period());
    }
    return;
  }
  // A new cycle: last cycle's waveform events end (valid, requests, grants read 0 again).
  if (waves_ && cycle_ceil(now) >= next_eval_) waves_->begin_cycle(cycle_ceil(now));
  Cycle t = std::max(cycle_ceil(now), next_eval_);
  // Alone (no other process, see start_of_simulation), the cycles follow one another in this
  // activation: nothing else could run between them, and the kernel's time stays at the first
  // (the sources' requests carry their cycle as the TLM delay). The same cycles are evaluated
  // in the same order; only the kernel's activations are saved.
  for (;;) {
    const bool busy = active_count_ > 0 || active_ni_count_ > 0 || lanes_busy_ ||
                      !fabric_.credits_next.empty() || !fabric_.woke_nis.empty() ||
                      fabric_.credits_in_wheel > 0;
    if (!busy) {
      const Cycle due = next_due(t);
      if (due == kNever) {
        // Nothing left to do. Without outside initiators the run is over; with them, sleep until
        // one requests a message.
        idle_end(next_eval_);
        if (!external_) {
          state_.done = true;
          if (waves_) next_trigger(cycle_period());
        } else {
          next_trigger(wake_);
        }
        return;
      }
      t = std::max(t, due);
    }
    const sc_core::sc_time at = time_of(t);
    if (at > now && !alone_) {
      next_trigger(at - now, wake_);
      return;
    }
    if (external_ && !deferred_) {
      // Let initiators that woke at this time make their requests first.
      deferred_ = true;
      next_trigger(sc_core::SC_ZERO_TIME);
      return;
    }
    deferred_ = false;
    fabric_.in_clock = true;
    step(t);
    fabric_.in_clock = false;
    if (waves_) waves_->end_cycle();
    next_eval_ = t + 1;
    if (progress_ && (t & progress_mask_) == 0) progress_(*this, t, progress_arg_);
    if (over_limits(t)) {
      state_.done = true;
      end_cycle_ = t + 1;
      sc_core::sc_stop();  // outside initiators too: the run ends here
      return;
    }
    if (check_end(t)) {
      state_.done = true;
      end_cycle_ = std::max(t + 1, stats_.last_delivery);
      if (waves_) next_trigger(cycle_period());
      return;
    }
    idle_end(t + 1);
    if (!alone_) {
      next_trigger(cycle_period());
      return;
    }
    t = next_eval_;
  }
}

namespace {
// Pops the timers (cycle, node) due by cycle t, oldest first, waking each node.
template <class Timers, class Wake>
void wake_due(Timers& timers, Cycle t, Wake wake) {
  while (!timers.empty() && timers.top().first <= t) {
    const int n = timers.top().second;
    timers.pop();
    wake(n);
  }
}
}  // namespace

void Network::step(Cycle t) {
  fabric_.accept_from = t;
  if (t >= link_edge_) link_window(t);
  // 1. Credits sent last cycle arrive.
  credits_now_.swap(fabric_.credits_next);
  apply_credits(credits_now_);
  if (fabric_.credits_in_wheel) {
    auto& bucket = fabric_.credit_wheel[t & fabric_.credit_mask];
    fabric_.credits_in_wheel -= bucket.size();
    apply_credits(bucket);
  }
  // 2. Messages requested for this cycle: earlier requests first, then the built-in sources.
  while (!fabric_.pending.empty() && fabric_.pending.top().cycle <= t) {
    const std::uint32_t id = fabric_.pending.top().message;
    fabric_.pending.pop();
    nis_[fabric_.messages[id].src]->send(id);
  }
  if (threads_ || ranks_) {
    // (A lane's synthetic sources are its own: they request in its first part.)
    if (!lane_sources_ && traffic_.next_time() <= t) traffic_.generate(t);
    step_in_parallel(t);
    return;
  }
  if (traffic_.next_time() <= t) traffic_.generate(t);
  for (const NetworkInterface* ni : fabric_.woke_nis) {
    const auto n = static_cast<std::size_t>(ni->node());
    active_ni_bits_[n / 64] |= std::uint64_t{1} << (n % 64);
  }
  active_ni_count_ += fabric_.woke_nis.size();
  fabric_.woke_nis.clear();
  // All-port NIs whose start-up is over wake (those a message woke meanwhile are active
  // already); then circuit routers asleep until a header's cycle, before the NIs inject (a
  // header an NI brings then finds its router awake, as when it was evaluated each cycle).
  wake_due(fabric_.ni_timers, t, [this](int n) {
    NetworkInterface* ni = nis_[static_cast<std::size_t>(n)];
    if (ni->active) return;
    ni->active = true;
    active_ni_bits_[static_cast<std::size_t>(n) / 64] |= std::uint64_t{1} << (n % 64);
    ++active_ni_count_;
  });
  wake_due(fabric_.router_timers, t, [this](int n) {
    Router* r = routers_[static_cast<std::size_t>(n)];
    if (r->active) return;
    r->active = true;
    set_active(n);
  });
  // 3. NIs inject, in terminal order (a scan of the active NIs' bits).
  if (active_ni_count_)
    active_ni_count_ -= sweep(active_ni_bits_.data(), 0, active_ni_bits_.size(), nis_.data(),
                              [t](NetworkInterface* ni) {
                                if (ni->step(t)) return true;
                                ni->active = false;
                                return false;
                              });
  fabric_.accept_from = t + 1;
  if (inject_now_) {  // (routers the NIs woke: this cycle's, see inject_now_)
    for (const int n : fabric_.woke) set_active(n);
    fabric_.woke.clear();
  }
  // 4. Routers, in node order (a scan of the active set's bits: idle routers cost nothing);
  // then routers that got a flit they can forward this same cycle.
  active_count_ -= evaluate_routers(0, active_bits_.size(), t);
  const bool again = !fabric_.again.empty();
  while (!fabric_.again.empty()) {
    again_scratch_.swap(fabric_.again);
    for (auto* r : again_scratch_) {
      r->again_queued = false;
      if (!r->evaluate(t) && r->active) {
        r->active = false;
        clear_active(r);
      }
    }
    again_scratch_.clear();
  }
  // Routers woken this cycle join the set for the next one (by id, without reading them: only
  // a run again this cycle can have put a woken router back to sleep).
  for (const int n : fabric_.woke)
    if (!again || routers_[static_cast<std::size_t>(n)]->active) set_active(n);
  fabric_.woke.clear();
}

void Network::link_window(Cycle t) {
  // (The counter wraps modulo 2^64 while open: minus tau times the flits before, plus tau times
  // the flits at the close, is tau times the flits between; a window of no cycles gives 0.)
  const std::uint64_t tau = static_cast<std::uint64_t>(cfg_.timing.tau);
  if (link_window_ == 0 && t >= stats_.window_start()) {
    if (input_vc_)
      for (std::size_t i = 0; i < links_.size(); ++i)
        links_.at(i).link.busy_window -= tau * links_.at(i).flits;
    if (!activity_.empty()) {
      activity_window_ = activity_;
      for (std::size_t i = 0; i < links_.size(); ++i) link_flits_window_[i] = links_.at(i).flits;
    }
    link_window_ = 1;
  }
  if (link_window_ == 1 && t >= stats_.window_end()) settle_link_window();
  link_edge_ = link_window_ == 1 ? stats_.window_end() : kNever;
}

void Network::count_activity() {
  activity_.assign(routers_.size(), RouterActivity{});
  activity_window_.assign(routers_.size(), RouterActivity{});
  link_flits_window_.assign(links_.size(), 0);
  for (std::size_t i = 0; i < routers_.size(); ++i) routers_[i]->count_activity(&activity_[i]);
  for (NetworkInterface* ni : nis_) ni->refresh_sink();
  // (The window's edges are where the counts are taken, for every router kind.)
  if (link_window_ == 0) link_edge_ = std::min(link_edge_, stats_.window_start());
}

void Network::settle_link_window() {
  if (link_window_ != 1) return;
  const std::uint64_t tau = static_cast<std::uint64_t>(cfg_.timing.tau);
  if (input_vc_)
    for (std::size_t i = 0; i < links_.size(); ++i)
      links_.at(i).link.busy_window += tau * links_.at(i).flits;
  for (std::size_t i = 0; i < activity_window_.size(); ++i) {
    RouterActivity a = activity_[i];
    activity_window_[i] = a -= activity_window_[i];
  }
  for (std::size_t i = 0; i < link_flits_window_.size(); ++i)
    link_flits_window_[i] = links_.at(i).flits - link_flits_window_[i];
  link_window_ = 2;
  link_edge_ = kNever;
}

std::uint64_t Network::live_packets() const {
  // A message waits at its source before its packets exist; a broadcast is one message and many
  // packet copies: the larger count of the two stands for what is queued.
  // (Threads: less the ids finished on the lanes in the last step, given back in the next.)
  std::uint64_t live[2] = {fabric_.pool.live(), fabric_.messages.live()};
  if (ranks_) ranks_->sum(live, 2);  // (each rank counts the ids of its own lane)
  return std::max<std::uint64_t>(live[0] - lane_ids_back_, live[1] - lane_message_ids_back_) +
         held_by_plugins();
}

bool Network::over_limits(Cycle t) {
  if ((++evaluations_ & 255) != 0) return false;
  const RunLimits& l = limits_;
  if (l.max_live) {
    const std::uint64_t live = live_packets();
    if (live > l.max_live) {
      state_.stable = false;
      state_.stopped_early = true;
      state_.stop_kind = "saturation";
      state_.stop_cycle = t;
      state_.stop_live_packets = live;
      state_.reason = "saturation: " + std::to_string(live) +
                      " packets queued at the sources or in the network at cycle " +
                      std::to_string(t) + ", more than " + std::to_string(l.max_live) + " (" +
                      l.max_live_source +
                      "): the offered load is above what the network accepts; stopped early, "
                      "the result is partial";
      return true;
    }
  }
  if (l.max_wall_seconds > 0) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - l.start).count();
    // (Ranks: all stop when one is past the limit, at the same cycle.)
    if (ranks_ ? ranks_->any(s > l.max_wall_seconds) : s > l.max_wall_seconds) {
      state_.stable = false;
      state_.stopped_early = true;
      state_.stop_kind = "wall_time";
      state_.stop_cycle = t;
      state_.stop_wall_seconds = s;
      state_.stop_live_packets = live_packets();
      state_.reason = "wall-time limit of " + Json::number(l.max_wall_seconds) +
                      " s reached at cycle " + std::to_string(t) +
                      ": stopped early, the result is partial";
      return true;
    }
  }
  return false;
}

// A queue loaded to exactly its capacity (load 1) is not stable, but grows only like sqrt(t):
// too slowly for the growth checks at the window's end. Its mark is a backlog that rises from
// quarter to quarter of the window: every quarter's mean above the one before, the last over
// 1.25 times the first and by more than two packets per node. A stationary queue's quarters
// rise four times in a row by chance only, and then not by that much.
bool Network::backlog_keeps_growing(Cycle t) {
  const std::vector<std::uint64_t>& v = state_.live_samples;
  if (v.size() < 16) return false;
  double q[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < 16; ++i) q[i / 4] += static_cast<double>(v[i]) / 4;
  const bool rising = q[0] < q[1] && q[1] < q[2] && q[2] < q[3];
  if (!rising || q[3] <= 1.25 * q[0] || q[3] - q[0] <= 2.0 * topo_.num_nodes()) return false;
  char b[160];
  std::snprintf(b, sizeof b, "%.0f, %.0f, %.0f, %.0f", q[0], q[1], q[2], q[3]);
  state_.stable = false;
  state_.reason =
      std::string("the backlog rose through every quarter of the measurement window (") + b +
      " packets alive on average) up to cycle " + std::to_string(t) +
      ": the load is at or above what the network accepts (a queue at load 1 grows "
      "like sqrt(t)), or just below it the backlog had not settled after the warm-up (a longer "
      "simulation.warmup and simulation.measure tell the two apart)";
  return true;
}

// Why a backlog grew through the window: the load is above what the network accepts, unless
// the window is short against what a packet takes (no measured packet delivered in it, a
// broadcast's or a dynamic scheme's period included, or a window under twice one packet's
// zero-load time over the diameter): then the packets still on their way are no rising backlog
// and the window is too short to tell.
std::string Network::growth_cause() const {
  const double window = static_cast<double>(cfg_.simulation.measure);
  const std::uint64_t delivered = stats_.measured_delivered;
  if (delivered > 0 && window >= 2 * zero_load_) return " (offered load above saturation)";
  return ": the window of " + Json::number(window) +
         " cycles is too short to tell a rising backlog from packets on their way (" +
         (delivered ? "one packet's zero-load time over the diameter is " +
                          Json::number(zero_load_) + " cycles"
                    : std::string("no measured packet was delivered in it")) +
         "); lengthen simulation.measure";
}

bool Network::check_end(Cycle t) {
  const SimulationConfig& s = cfg_.simulation;
  if (fabric_.flits_in_network > 0 && t > fabric_.last_progress + watchdog_) {
    state_.stable = false;
    state_.reason = "deadlock: no flit moved for " + std::to_string(watchdog_) + " cycles with " +
                    std::to_string(fabric_.flits_in_network) + " flits in the network";
    return true;
  }
  if (cfg_.traffic.trace) {
    // With outside initiators the run lasts as long as they keep the kernel busy.
    if (external_) return false;
    const bool all = traffic_.exhausted() && stats_.packets_delivered == stats_.packets_created &&
                     active_ni_count_ == 0 && !lane_nis_;
    if (all) return true;
    if (t > last_trace_time_ + drain_) {
      state_.stable = false;
      state_.reason = "trace not delivered within " + std::to_string(drain_) +
                      " cycles after its last message (drain_limit and one packet's zero-load "
                      "time over the diameter)";
      return true;
    }
    return false;
  }
  if (t + 1 < check_from_) return false;  // (nothing below is due before)
  const Cycle w0 = stats_.window_start(), w1 = stats_.window_end();
  if (!state_.saw_window_start && t + 1 >= w0) {
    state_.saw_window_start = true;
    state_.backlog_window_start = backlog();
    state_.inflight_window_start = stats_.flits_created - stats_.flits_delivered;
  }
  if (!state_.saw_window_end && t + 1 >= w1) {
    state_.saw_window_end = true;
    state_.backlog_window_end = backlog();
    state_.inflight_window_end = stats_.flits_created - stats_.flits_delivered;
  }
  // The backlog (packets alive) at 16 points through the window, for its trend below.
  const Cycle span = std::max<Cycle>(1, s.measure / 16);
  while (state_.live_samples.size() < 16 && t + 1 >= w0 + (state_.live_samples.size() + 1) * span)
    state_.live_samples.push_back(live_packets());
  if (t + 1 < w1) {
    // The next cycle anything above is due: the window's start or end, or the next sample.
    check_from_ = w1;
    if (!state_.saw_window_start) check_from_ = std::min(check_from_, w0);
    if (state_.live_samples.size() < 16)
      check_from_ = std::min(check_from_, w0 + (state_.live_samples.size() + 1) * span);
    return false;
  }
  // Source queues that grew through the window by more than 5% of what was created in it (plus
  // one packet per node) mean the offered load is above what the network accepts: stop now,
  // rather than drain a backlog that only grows.
  const double grown = static_cast<double>(state_.backlog_window_end) -
                       static_cast<double>(state_.backlog_window_start);
  if (grown > 0.05 * static_cast<double>(stats_.measured_created) + topo_.num_nodes()) {
    state_.stable = false;
    state_.reason = "source queues grew by " + std::to_string(static_cast<long long>(grown)) +
                    " packets during the measurement window" + growth_cause();
    return true;
  }
  // The same for the work owed inside the network (unbounded output queues can absorb a load the
  // links cannot carry): flit deliveries owed — created and not yet delivered, broadcast
  // receptions included — grew during the window by over 2% of the flits offered in it (plus
  // one packet per node).
  const double inflight = static_cast<double>(state_.inflight_window_end) -
                          static_cast<double>(state_.inflight_window_start);
  const double L = cfg_.traffic.trace ? 1.0 : cfg_.traffic.packet_flits;
  if (inflight > 0.02 * static_cast<double>(stats_.offered_flits_window) + L * topo_.num_nodes()) {
    state_.stable = false;
    state_.reason = "flit deliveries owed grew by " +
                    std::to_string(static_cast<long long>(inflight)) +
                    " during the measurement window" + growth_cause();
    return true;
  }
  if (!state_.trend_checked) {
    state_.trend_checked = true;
    if (backlog_keeps_growing(t)) return true;
  }
  if (stats_.measured_outstanding() == 0) return true;
  if (t + 1 >= w1 + drain_) {
    state_.stable = false;
    state_.reason = "measured packets not delivered within " + std::to_string(drain_) +
                    " cycles after the window (drain_limit and one packet's zero-load time over "
                    "the diameter)";
    return true;
  }
  return false;
}

}  // namespace sy
