#include "traffic/schedule_driver.hpp"

#include <algorithm>
#include <numeric>

#include "base/clock.hpp"
#include "network/network.hpp"
#include "schemes/schedules.hpp"

namespace sy {

ScheduleDriver::ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      s_(build_schedule(cfg)),
      barrier_(cfg.schedule.barrier),
      slots_(s_.timing == ScheduleTiming::Slots) {
  require_valid(s_);
  const int N = s_.num_nodes(), I = s_.items();
  const std::size_t T = s_.transmissions.size();
  slot_cycles_ = static_cast<Cycle>(cfg.timing.delta) +
                 static_cast<Cycle>(s_.slot_flits()) * static_cast<Cycle>(cfg.timing.tau);

  // Where each transmission ends and when (in phases or slots) its item is in.
  std::vector<int> end(T), arrival(T);
  for (std::size_t i = 0; i < T; ++i) {
    const Transmission& t = s_.transmissions[i];
    int v = t.sender;
    for (const ScheduleHop& h : t.path) v = topo_.neighbor(v, topo_.port_of(h.dim, h.dir));
    end[i] = v;
    arrival[i] = slots_ ? t.slots.back() + s_.units(t.item) : t.phase + 1;
  }
  // The first transmission to bring each item to each node: it feeds that node's sends of it.
  std::vector<int> order(T);
  std::iota(order.begin(), order.end(), 0);
  auto key_less = [&](int a, int b) {
    const Transmission &x = s_.transmissions[a], &y = s_.transmissions[b];
    if (x.item != y.item) return x.item < y.item;
    if (end[a] != end[b]) return end[a] < end[b];
    return arrival[a] < arrival[b];
  };
  std::sort(order.begin(), order.end(), key_less);
  first_.assign(T, 0);
  to_dest_.assign(T, 0);
  for (std::size_t k = 0; k < T; ++k) {
    const int i = order[k];
    const Transmission& t = s_.transmissions[i];
    const bool first =
        k == 0 || s_.transmissions[order[k - 1]].item != t.item || end[order[k - 1]] != end[i];
    first_[i] = first && end[i] != s_.source(t.item);
    const int to = s_.dest(t.item);
    to_dest_[i] = first_[i] && (to < 0 || to == end[i]);
  }
  feed_.assign(T, -1);
  for (std::size_t i = 0; i < T; ++i) {
    const Transmission& t = s_.transmissions[i];
    if (t.sender == s_.source(t.item)) continue;
    const auto it = std::lower_bound(order.begin(), order.end(), -1, [&](int a, int) {
      const Transmission& x = s_.transmissions[a];
      return x.item != t.item ? x.item < t.item : end[a] < t.sender;
    });
    feed_[i] = *it;  // require_valid: the sender receives the item
  }
  fed_start_.assign(T + 1, 0);
  for (std::size_t i = 0; i < T; ++i)
    if (feed_[i] >= 0) ++fed_start_[static_cast<std::size_t>(feed_[i]) + 1];
  std::partial_sum(fed_start_.begin(), fed_start_.end(), fed_start_.begin());
  fed_.assign(T, 0);
  {
    std::vector<int> at(fed_start_.begin(), fed_start_.end() - 1);
    for (std::size_t i = 0; i < T; ++i)
      if (feed_[i] >= 0) fed_[static_cast<std::size_t>(at[feed_[i]]++)] = static_cast<int>(i);
  }
  // Items addressed to each node: broadcast items to all but their source.
  expected_.assign(N, 0);
  int broadcasts = 0;
  for (int i = 0; i < I; ++i) {
    const int to = s_.dest(i), src = s_.source(i);
    if (to < 0) {
      ++broadcasts;
      --expected_[src];
    } else if (to != src) {
      ++expected_[to];
    }
  }
  for (int& e : expected_) e += broadcasts;
  receptions_.assign(N, 0);
  delivered_.assign(T, kNever);
  sent_flag_.assign(T, 0);

  if (!slots_) {
    program_.assign(N, {});
    for (std::size_t i = 0; i < T; ++i)
      program_[s_.transmissions[i].sender].push_back(static_cast<int>(i));
    for (auto& p : program_)
      std::stable_sort(p.begin(), p.end(), [&](int a, int b) {
        return s_.transmissions[a].phase < s_.transmissions[b].phase;
      });
    next_.assign(N, 0);
    outstanding_.assign(N, 0);
    released_.assign(N, 0);
    phase_left_.assign(static_cast<std::size_t>(s_.phases), 0);
    phase_end_.assign(static_cast<std::size_t>(s_.phases), 0);
    for (const Transmission& tr : s_.transmissions)
      ++phase_left_[static_cast<std::size_t>(tr.phase)];
  }
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

Cycle ScheduleDriver::held_since(int tx) const {
  const int f = feed_[static_cast<std::size_t>(tx)];
  return f < 0 ? 0 : delivered_[static_cast<std::size_t>(f)];
}

void ScheduleDriver::kick() {
  if (slots_) {
    for (std::size_t i = 0; i < s_.transmissions.size(); ++i)
      if (feed_[i] < 0)
        send(static_cast<int>(i), static_cast<Cycle>(s_.transmissions[i].slots[0]) * slot_cycles_);
  } else if (barrier_) {
    start_phase(0, 0);
  } else {
    for (int n = 0; n < s_.num_nodes(); ++n) try_start(n);
  }
}

// Barrier mode: every transmission of the phase starts at the same cycle.
void ScheduleDriver::start_phase(int phase, Cycle at) {
  for (std::size_t i = 0; i < s_.transmissions.size(); ++i)
    if (s_.transmissions[i].phase == phase) send(static_cast<int>(i), at);
}

// Transmission `id` through its sender's NI: a message of the item's size along its path,
// requested at cycle `start` (annotated delay from now), each hop held until its slot.
void ScheduleDriver::send(int id, Cycle start) {
  const Transmission& tr = s_.transmissions[static_cast<std::size_t>(id)];
  sent_flag_[static_cast<std::size_t>(id)] = 1;
  int dst = tr.sender;
  ext_.route.clear();
  for (std::size_t k = 0; k < tr.path.size(); ++k) {
    const ScheduleHop& h = tr.path[k];
    // Slot s spans [s S, (s+1) S): the header is switched (delta) and the packet's B flits
    // cross the link (B tau), so it is in at the next node when the slot ends.
    const Cycle nb =
        slots_ ? static_cast<Cycle>(tr.slots[k]) * slot_cycles_ + cfg_.timing.delta : 0;
    ext_.route.push_back({h.dim, h.dir, nb});
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
  if (!gp_.is_response_ok())
    ++refused_;
  else if (!slots_)
    ++outstanding_[tr.sender];
}

// Phases: starts the node's next phase if it can: all its items held, its earlier transmissions
// released. The start is annotated into the future when those times are ahead of now.
void ScheduleDriver::try_start(int node) {
  std::vector<int>& prog = program_[node];
  const Cycle now = cycle_ceil(sc_core::sc_time_stamp());
  while (next_[node] < prog.size() && outstanding_[node] == 0) {
    const int phase = s_.transmissions[prog[next_[node]]].phase;
    std::size_t end = next_[node];
    Cycle start = std::max(now, released_[node]);
    bool ready = true;
    while (end < prog.size() && s_.transmissions[prog[end]].phase == phase) {
      const Cycle h = held_since(prog[end]);
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
  const std::size_t tx = static_cast<std::size_t>(d.tag);
  const Transmission& tr = s_.transmissions[tx];
  delivered_[tx] = d.delivered;
  if (!first_[tx])
    ++duplicates_;
  else if (to_dest_[tx])
    ++receptions_[d.dst];
  if (slots_) {
    // The transmissions this one feeds: their sender now holds the item.
    for (int k = fed_start_[tx]; k < fed_start_[tx + 1]; ++k) {
      const int f = fed_[static_cast<std::size_t>(k)];
      if (sent_flag_[static_cast<std::size_t>(f)]) continue;
      const Cycle slot =
          static_cast<Cycle>(s_.transmissions[static_cast<std::size_t>(f)].slots[0]) * slot_cycles_;
      send(f, std::max(d.delivered, slot));
    }
    return;
  }
  // Phases: the sender's circuit is released when the last flit is in (direct connect).
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
  r.slots = slots_;
  r.slot_cycles = slots_ ? slot_cycles_ : 0;
  r.phases = s_.phases;
  r.parts = s_.items();
  (s_.returns_allowed ? r.returns : r.duplicates) = duplicates_;
  r.transmissions = sent_;
  r.refused = refused_;
  const int N = s_.num_nodes(), I = s_.items();
  for (int n = 0; n < N; ++n) {
    r.receptions_per_node_max = std::max(r.receptions_per_node_max, receptions_[n]);
    r.nodes_expected += expected_[n] > 0;
    r.nodes_informed += expected_[n] > 0 && receptions_[n] == expected_[n];
  }
  // Per item: when its last destination had it.
  std::vector<int> got(I, 0);
  r.item_delivered.assign(I, 0);
  for (std::size_t i = 0; i < s_.transmissions.size(); ++i) {
    if (!to_dest_[i] || delivered_[i] == kNever) continue;
    const int item = s_.transmissions[i].item;
    ++got[item];
    r.item_delivered[item] = std::max(r.item_delivered[item], delivered_[i]);
    r.completion = std::max(r.completion, delivered_[i]);
  }
  double sum = 0, sum_slots = 0;
  for (int i = 0; i < I; ++i) {
    const int to = s_.dest(i);
    const int want = to < 0 ? N - 1 : to == s_.source(i) ? 0 : 1;
    if (got[i] < want) r.item_delivered[i] = kNever;
    sum += static_cast<double>(r.item_delivered[i]);
    if (slots_)
      sum_slots += static_cast<double>((r.item_delivered[i] + slot_cycles_ - 1) / slot_cycles_);
  }
  r.mean_delivery = I > 0 ? sum / I : 0;
  r.mean_delivery_slots = I > 0 ? sum_slots / I : 0;
  const CircuitCost c{static_cast<double>(cfg_.timing.alpha),
                      static_cast<double>(cfg_.timing.delta), static_cast<double>(cfg_.timing.tau)};
  if (!slots_) r.terms = phase_sum_terms(s_);
  r.planned = slots_ ? static_cast<double>(s_.phases) * static_cast<double>(slot_cycles_)
                     : phase_sum_time(s_, c);
  const ScheduleFormula f = schedule_formula(cfg_, s_, r.planned);
  r.formula = f.value;
  r.alpha_terms = f.alpha_terms;
  r.delta_terms = f.delta_terms;
  r.ltau_terms = f.ltau_terms;
  r.formula_text = f.text;
  r.lower_bound = f.lower_bound;
  return r;
}

}  // namespace sy
