#include "traffic/schedule_driver.hpp"

#include <algorithm>
#include <cmath>

#include "base/clock.hpp"
#include "network/network.hpp"
#include "schemes/circuit/closed_forms.hpp"

namespace sy {
namespace {

Schedule build(const Config& cfg) {
  const ScheduleConfig& sc = cfg.schedule;
  const std::vector<int>& dims = cfg.topology.dims;
  const int L = sc.message_flits;
  const int B = sc.packet_flits > 0 ? std::min(sc.packet_flits, L) : L;
  const int parts = (L + B - 1) / B;
  if (sc.algorithm == "tiling") {
    const TilingVariant v = sc.variant == "boss_blocks"    ? TilingVariant::BossBlocks
                            : sc.variant == "blocks_first" ? TilingVariant::BlocksFirst
                                                           : TilingVariant::Slanting;
    return tiling(dims, sc.root, L, v);
  }
  if (sc.algorithm == "divide_and_conquer") return divide_and_conquer(dims, sc.root, parts, L);
  if (sc.algorithm == "h_trees") return h_trees(dims, sc.root, parts, L);
  return store_and_forward_trees(dims, sc.root, parts, L);
}

}  // namespace

ScheduleDriver::ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      s_(build(cfg)),
      barrier_(cfg.schedule.barrier) {
  require_valid(s_);
  const int N = s_.num_nodes();
  program_.assign(N, {});
  for (std::size_t i = 0; i < s_.transmissions.size(); ++i)
    program_[s_.transmissions[i].sender].push_back(static_cast<int>(i));
  for (auto& p : program_)
    std::stable_sort(p.begin(), p.end(), [&](int a, int b) {
      return s_.transmissions[a].phase < s_.transmissions[b].phase;
    });
  next_.assign(N, 0);
  outstanding_.assign(N, 0);
  released_.assign(N, 0);
  have_.assign(N, std::vector<Cycle>(s_.items(), kNever));
  for (int k = 0; k < s_.items(); ++k) have_[s_.root][k] = 0;
  receptions_.assign(N, 0);
  phase_left_.assign(static_cast<std::size_t>(s_.phases), 0);
  phase_end_.assign(static_cast<std::size_t>(s_.phases), 0);
  for (const Transmission& tr : s_.transmissions) ++phase_left_[static_cast<std::size_t>(tr.phase)];
  for (int n = 0; n < N; ++n) {
    out_.emplace_back(new tlm_utils::simple_initiator_socket<ScheduleDriver>(
        ("out" + std::to_string(n)).c_str()));
    out_.back()->bind(net.ni(n).target);
    net.ni(n).on_receive([this](const Delivery& d) { received(d); });
  }
  gp_.set_extension(&ext_);
  SC_METHOD(kick);
}

ScheduleDriver::~ScheduleDriver() {
  gp_.clear_extension(&ext_);
}

void ScheduleDriver::kick() {
  if (barrier_)
    start_phase(0, 0);
  else
    try_start(s_.root);
}

// Barrier mode: every transmission of the phase starts at the same cycle.
void ScheduleDriver::start_phase(int phase, Cycle at) {
  for (std::size_t i = 0; i < s_.transmissions.size(); ++i)
    if (s_.transmissions[i].phase == phase) send(static_cast<int>(i), at);
}

// Transmission `id` through its sender's NI: a message of the part's size along its path,
// requested at cycle `start` (annotated delay from now).
void ScheduleDriver::send(int id, Cycle start) {
  const Transmission& tr = s_.transmissions[static_cast<std::size_t>(id)];
  int dst = tr.sender;
  ext_.route.clear();
  for (const ScheduleHop& h : tr.path) {
    ext_.route.push_back({h.dim, h.dir});
    dst = topo_.neighbor(dst, topo_.port_of(h.dim, h.dir));
  }
  ext_.tag = static_cast<std::uint64_t>(id);
  ext_.priority = 0;
  const unsigned bytes = static_cast<unsigned>(s_.item_flits[tr.item]) *
                         static_cast<unsigned>(cfg_.interface.flit_bytes);
  gp_.set_command(tlm::TLM_WRITE_COMMAND);
  gp_.set_address(static_cast<sc_dt::uint64>(dst));
  gp_.set_data_ptr(nullptr);
  gp_.set_data_length(bytes);
  gp_.set_streaming_width(bytes);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = time_of(start) - now;
  (*out_[static_cast<std::size_t>(tr.sender)])->b_transport(gp_, delay);
  ++sent_;
  if (gp_.is_response_ok())
    ++outstanding_[tr.sender];
  else
    ++refused_;
}

// Starts the node's next phase if it can: all its parts held, its earlier transmissions
// released. The start is annotated into the future when those times are ahead of now.
void ScheduleDriver::try_start(int node) {
  std::vector<int>& prog = program_[node];
  const sc_core::sc_time now_t = sc_core::sc_time_stamp();
  const Cycle now = cycle_ceil(now_t);
  while (next_[node] < prog.size() && outstanding_[node] == 0) {
    const int phase = s_.transmissions[prog[next_[node]]].phase;
    std::size_t end = next_[node];
    Cycle start = std::max(now, released_[node]);
    bool ready = true;
    while (end < prog.size() && s_.transmissions[prog[end]].phase == phase) {
      const Cycle h = have_[node][s_.transmissions[prog[end]].item];
      if (h == kNever)
        ready = false;
      else
        start = std::max(start, h);
      ++end;
    }
    if (!ready) return;
    for (std::size_t i = next_[node]; i < end; ++i) send(prog[i], start);
    next_[node] = end;
  }
}

void ScheduleDriver::received(const Delivery& d) {
  if (d.tag >= s_.transmissions.size()) return;
  const Transmission& tr = s_.transmissions[d.tag];
  std::vector<Cycle>& h = have_[d.dst];
  if (h[tr.item] == kNever) {
    h[tr.item] = d.delivered;
    ++receptions_[d.dst];
  } else {
    ++duplicates_;
  }
  // The sender's circuit is released when the last flit is in (direct connect).
  --outstanding_[tr.sender];
  released_[tr.sender] = std::max(released_[tr.sender], d.delivered);
  if (barrier_) {
    const std::size_t ph = static_cast<std::size_t>(tr.phase);
    phase_end_[ph] = std::max(phase_end_[ph], d.delivered);
    if (--phase_left_[ph] == 0 && ph + 1 < phase_left_.size())
      start_phase(static_cast<int>(ph) + 1, phase_end_[ph]);
    return;
  }
  try_start(d.dst);
  try_start(tr.sender);
}

ScheduleResult ScheduleDriver::result() const {
  ScheduleResult r;
  r.algorithm = s_.algorithm;
  r.variant = s_.variant;
  r.phases = s_.phases;
  r.parts = s_.items();
  r.duplicates = duplicates_;
  r.transmissions = sent_;
  r.refused = refused_;
  for (int n = 0; n < s_.num_nodes(); ++n) {
    r.receptions_per_node_max = std::max(r.receptions_per_node_max, receptions_[n]);
    if (n == s_.root) continue;
    bool all = true;
    for (Cycle c : have_[n]) {
      if (c == kNever)
        all = false;
      else
        r.completion = std::max(r.completion, c);
    }
    r.nodes_informed += all;
  }
  r.terms = phase_sum_terms(s_);
  const CircuitCost c{static_cast<double>(cfg_.timing.alpha),
                      static_cast<double>(cfg_.timing.delta), static_cast<double>(cfg_.timing.tau)};
  const ScheduleConfig& sc = cfg_.schedule;
  const double L = sc.message_flits;
  const double B = sc.packet_flits > 0 ? std::min(sc.packet_flits, sc.message_flits) : L;
  const std::vector<int>& dims = cfg_.topology.dims;
  TimeTerms f;
  if (s_.algorithm == "tiling") {
    const TilingVariant v = sc.variant == "boss_blocks"    ? TilingVariant::BossBlocks
                            : sc.variant == "blocks_first" ? TilingVariant::BlocksFirst
                                                           : TilingVariant::Slanting;
    try {
      f = paper_tiling(dims, v, L);
      r.formula_text = "paper §4 (Theorem 2 / block expansions)";
    } catch (const std::exception&) {
      f = tiling_terms(dims, v, L);
      r.formula_text = "this construction's per-level formula (the paper gives none for this size)";
    }
  } else if (s_.algorithm == "divide-and-conquer") {
    f = dc_terms(circuit_detail::log2_ceil(dims[0]), L, B);
    r.formula_text = "paper §5 T(B)";
  } else if (s_.algorithm == "h-trees") {
    f = htrees_terms(circuit_detail::log2_ceil(dims[0] + 1), L, B);
    r.formula_text = "paper §5 T(B)";
  } else {
    f = sf_terms(store_and_forward_depth(s_), L, B);
    r.formula_text = "(h - 1 + L/4B)(beta + B tau), h = this tree depth";
  }
  r.formula = f.eval(c);
  r.alpha_terms = f.alpha_terms;
  r.delta_terms = f.delta_terms;
  r.ltau_terms = L > 0 ? f.tau_flits / L : 0;
  r.lower_bound = proposition1(dims, c, L).value();
  return r;
}

}  // namespace sy
