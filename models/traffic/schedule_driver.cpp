#include "switchyard/traffic/schedule_driver.hpp"

#include <algorithm>
#include <numeric>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/network.hpp"

namespace sy {

ScheduleDriver::ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      barrier_(cfg.schedule.barrier) {
  receptions_.assign(topo_.num_nodes(), 0);
  expected_.assign(topo_.num_nodes(), 0);
  bind(net);
}

ScheduleDriver::ScheduleDriver(sc_core::sc_module_name name, const Config& cfg, Network& net,
                               Schedule plan)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(cfg.topology.make()),
      barrier_(cfg.schedule.barrier) {
  const int N = topo_.num_nodes();
  receptions_.assign(N, 0);
  expected_.assign(N, 0);
  {
    batches_.emplace_back();
    batches_.back().s = std::move(plan);
    require_valid(batches_.back().s);
    prepare(batches_.back());
    const Schedule& s = batches_.back().s;
    if (s.timing == ScheduleTiming::Phases) {
      program_.assign(N, {});
      for (std::size_t i = 0; i < s.transmissions.size(); ++i)
        program_[s.transmissions[i].sender].push_back(static_cast<int>(i));
      for (auto& p : program_)
        std::stable_sort(p.begin(), p.end(), [&](int a, int b) {
          return s.transmissions[a].phase < s.transmissions[b].phase;
        });
      next_.assign(N, 0);
      outstanding_.assign(N, 0);
      released_.assign(N, 0);
      phase_left_.assign(static_cast<std::size_t>(s.phases), 0);
      phase_end_.assign(static_cast<std::size_t>(s.phases), 0);
      for (const Transmission& tr : s.transmissions)
        ++phase_left_[static_cast<std::size_t>(tr.phase)];
    }
  }
  bind(net);
}

// One initiator per node, bound to its NI's target socket; receptions come back through the NIs'
// receive callbacks.
void ScheduleDriver::bind(Network& net) {
  for (int n = 0; n < topo_.num_nodes(); ++n) {
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

Cycle ScheduleDriver::slot_cycles(const Schedule& s) const {
  return static_cast<Cycle>(cfg_.timing.delta) +
         static_cast<Cycle>(s.slot_flits()) * static_cast<Cycle>(cfg_.timing.tau);
}

// The per-transmission tables of a batch: who feeds whom, first receptions, destinations owed.
void ScheduleDriver::prepare(Batch& b) {
  const Schedule& s = b.s;
  const int N = s.num_nodes(), I = s.items();
  const std::size_t T = s.transmissions.size();
  const bool slots = s.timing == ScheduleTiming::Slots;
  b.tx_base = tx_total_;
  b.item_base = items_total_;
  tx_total_ += T;
  items_total_ += I;
  b.slot = slot_cycles(s);
  // Where each transmission ends and when (in phases or slots) its item is in.
  std::vector<int> end(T), arrival(T);
  for (std::size_t i = 0; i < T; ++i) {
    const Transmission& t = s.transmissions[i];
    int v = t.sender;
    for (const ScheduleHop& h : t.path) v = topo_.neighbor(v, topo_.port_of(h.dim, h.dir));
    end[i] = v;
    arrival[i] = slots ? t.slots.back() + s.units(t.item) : t.phase + 1;
  }
  // The first transmission to bring each item to each node: it feeds that node's sends of it.
  std::vector<int> order(T);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int c) {
    const Transmission &x = s.transmissions[a], &y = s.transmissions[c];
    if (x.item != y.item) return x.item < y.item;
    if (end[a] != end[c]) return end[a] < end[c];
    return arrival[a] < arrival[c];
  });
  b.first.assign(T, 0);
  b.to_dest.assign(T, 0);
  for (std::size_t k = 0; k < T; ++k) {
    const int i = order[k];
    const Transmission& t = s.transmissions[i];
    const bool first =
        k == 0 || s.transmissions[order[k - 1]].item != t.item || end[order[k - 1]] != end[i];
    b.first[i] = first && end[i] != s.source(t.item);
    const int to = s.dest(t.item);
    b.to_dest[i] = b.first[i] && (to < 0 || to == end[i]);
    b.dest_left += b.to_dest[i];
  }
  b.feed.assign(T, -1);
  for (std::size_t i = 0; i < T; ++i) {
    const Transmission& t = s.transmissions[i];
    if (t.sender == s.source(t.item)) continue;
    const auto it = std::lower_bound(order.begin(), order.end(), -1, [&](int a, int) {
      const Transmission& x = s.transmissions[a];
      return x.item != t.item ? x.item < t.item : end[a] < t.sender;
    });
    b.feed[i] = *it;  // require_valid: the sender receives the item
  }
  b.fed_start.assign(T + 1, 0);
  for (std::size_t i = 0; i < T; ++i)
    if (b.feed[i] >= 0) ++b.fed_start[static_cast<std::size_t>(b.feed[i]) + 1];
  std::partial_sum(b.fed_start.begin(), b.fed_start.end(), b.fed_start.begin());
  b.fed.assign(T, 0);
  std::vector<int> at(b.fed_start.begin(), b.fed_start.end() - 1);
  for (std::size_t i = 0; i < T; ++i)
    if (b.feed[i] >= 0) b.fed[static_cast<std::size_t>(at[b.feed[i]]++)] = static_cast<int>(i);
  // Items addressed to each node: broadcast items to all but their source.
  int broadcasts = 0;
  for (int i = 0; i < I; ++i) {
    const int to = s.dest(i), src = s.source(i);
    if (to < 0) {
      ++broadcasts;
      --expected_[src];
    } else if (to != src) {
      ++expected_[to];
    }
  }
  for (int n = 0; n < N; ++n) expected_[n] += broadcasts;
  b.delivered.assign(T, kNever);
  b.sent.assign(T, 0);
  b.tx_left = T;
}

int ScheduleDriver::append(Schedule s, Cycle start) {
  if (s.timing != ScheduleTiming::Slots)
    throw std::logic_error("ScheduleDriver::append runs slot schedules");
  require_valid(s);
  batches_.emplace_back();
  Batch& b = batches_.back();
  b.s = std::move(s);
  b.start = start;
  prepare(b);
  for (std::size_t i = 0; i < b.s.transmissions.size(); ++i)
    if (b.feed[i] < 0)
      send(b, static_cast<int>(i),
           start + static_cast<Cycle>(b.s.transmissions[i].slots[0]) * b.slot);
  if (b.dest_left == 0 && on_batch_done)
    on_batch_done(static_cast<int>(batches_.size()) - 1, start);
  return static_cast<int>(batches_.size()) - 1;
}

Cycle ScheduleDriver::held_since(const Batch& b, int tx) const {
  const int f = b.feed[static_cast<std::size_t>(tx)];
  return f < 0 ? b.start : b.delivered[static_cast<std::size_t>(f)];
}

void ScheduleDriver::kick() {
  if (batches_.empty()) return;
  Batch& b = batches_.front();
  if (b.s.timing == ScheduleTiming::Slots) {
    for (std::size_t i = 0; i < b.s.transmissions.size(); ++i)
      if (b.feed[i] < 0)
        send(b, static_cast<int>(i), static_cast<Cycle>(b.s.transmissions[i].slots[0]) * b.slot);
  } else if (barrier_) {
    start_phase(0, 0);
  } else {
    for (int n = 0; n < b.s.num_nodes(); ++n) try_start(n);
  }
}

// Barrier mode: every transmission of the phase starts at the same cycle.
void ScheduleDriver::start_phase(int phase, Cycle at) {
  Batch& b = batches_.front();
  for (std::size_t i = 0; i < b.s.transmissions.size(); ++i)
    if (b.s.transmissions[i].phase == phase) send(b, static_cast<int>(i), at);
}

// Transmission `id` of batch b through its sender's NI: a message of the item's size along its
// path, requested at cycle `start` (annotated delay from now), each hop held until its slot.
void ScheduleDriver::send(Batch& b, int id, Cycle start) {
  const Transmission& tr = b.s.transmissions[static_cast<std::size_t>(id)];
  const bool slots = b.s.timing == ScheduleTiming::Slots;
  b.sent[static_cast<std::size_t>(id)] = 1;
  int dst = tr.sender;
  ext_.route.clear();
  for (std::size_t k = 0; k < tr.path.size(); ++k) {
    const ScheduleHop& h = tr.path[k];
    // Slot s spans [start + s S, start + (s+1) S): the header is switched (delta) and the
    // packet's flits cross the link, so it is in at the next node when the slot ends.
    const Cycle nb =
        slots ? b.start + static_cast<Cycle>(tr.slots[k]) * b.slot + cfg_.timing.delta : 0;
    ext_.route.push_back({h.dim, h.dir, nb});
    dst = topo_.neighbor(dst, topo_.port_of(h.dim, h.dir));
  }
  ext_.tag = static_cast<std::uint64_t>(b.tx_base) + static_cast<std::uint64_t>(id);
  ext_.priority = 0;
  const unsigned bytes = static_cast<unsigned>(b.s.item_flits[tr.item]) *
                         static_cast<unsigned>(cfg_.interface.flit_bytes);
  gp_.set_command(tlm::TLM_WRITE_COMMAND);
  gp_.set_address(static_cast<sc_dt::uint64>(dst));
  gp_.set_data_ptr(nullptr);
  gp_.set_data_length(bytes);
  gp_.set_streaming_width(bytes);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = time_of(std::max(start, cycle_ceil(now))) - now;
  (*out_[static_cast<std::size_t>(tr.sender)])->b_transport(gp_, delay);
  ++sent_;
  if (b.s.broadcast(tr.item)) ++sent_broadcast_;
  if (!gp_.is_response_ok())
    ++refused_;
  else if (!slots)
    ++outstanding_[tr.sender];
}

// Phases: starts the node's next phase if it can: all its items held, its earlier transmissions
// released. The start is annotated into the future when those times are ahead of now.
void ScheduleDriver::try_start(int node) {
  Batch& b = batches_.front();
  std::vector<int>& prog = program_[node];
  const Cycle now = cycle_ceil(sc_core::sc_time_stamp());
  while (next_[node] < prog.size() && outstanding_[node] == 0) {
    const int phase = b.s.transmissions[prog[next_[node]]].phase;
    std::size_t end = next_[node];
    Cycle start = std::max(now, released_[node]);
    bool ready = true;
    while (end < prog.size() && b.s.transmissions[prog[end]].phase == phase) {
      const Cycle h = held_since(b, prog[end]);
      if (h == kNever)
        ready = false;
      else
        start = std::max(start, h);
      ++end;
    }
    if (!ready) return;
    for (std::size_t i = next_[node]; i < end; ++i) send(b, prog[i], start);
    next_[node] = end;
  }
}

void ScheduleDriver::received(const Delivery& d) {
  if (d.tag >= tx_total_) return;
  // The batch of this transmission: the last whose first id is <= the tag.
  std::size_t bi = batches_.size() - 1;
  while (batches_[bi].tx_base > d.tag) --bi;
  Batch& b = batches_[bi];
  const std::size_t tx = static_cast<std::size_t>(d.tag - b.tx_base);
  const Transmission& tr = b.s.transmissions[tx];
  b.delivered[tx] = d.delivered;
  if (!b.first[tx])
    ++duplicates_;
  else if (b.to_dest[tx])
    ++receptions_[d.dst];
  if (b.to_dest[tx] && on_item_in) on_item_in(static_cast<int>(bi), tr.item, d.dst, d.delivered);
  if (b.to_dest[tx] && --b.dest_left == 0 && on_batch_done)
    on_batch_done(static_cast<int>(bi), d.delivered);
  if (b.s.timing == ScheduleTiming::Slots) {
    // The transmissions this one feeds: their sender now holds the item.
    for (int k = b.fed_start[tx]; k < b.fed_start[tx + 1]; ++k) {
      const int f = b.fed[static_cast<std::size_t>(k)];
      if (b.sent[static_cast<std::size_t>(f)]) continue;
      const Cycle slot =
          b.start +
          static_cast<Cycle>(b.s.transmissions[static_cast<std::size_t>(f)].slots[0]) * b.slot;
      send(b, f, std::max(d.delivered, slot));
    }
    if (--b.tx_left == 0 && release_finished) {
      // Every transmission of the batch is in: its tables are no longer needed.
      std::vector<Transmission>().swap(b.s.transmissions);
      std::vector<int>().swap(b.feed);
      std::vector<int>().swap(b.fed_start);
      std::vector<int>().swap(b.fed);
      std::vector<char>().swap(b.first);
      std::vector<char>().swap(b.to_dest);
      std::vector<char>().swap(b.sent);
      std::vector<Cycle>().swap(b.delivered);
      std::vector<int>().swap(b.s.item_flits);
      std::vector<int>().swap(b.s.item_source);
      std::vector<int>().swap(b.s.item_dest);
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
  if (batches_.empty()) return r;
  const Schedule& s0 = batches_.front().s;
  const bool slots = s0.timing == ScheduleTiming::Slots;
  r.algorithm = s0.algorithm;
  r.variant = s0.variant;
  r.slots = slots;
  r.slot_cycles = slots ? batches_.front().slot : 0;
  r.phases = s0.phases;
  r.parts = items_total_;
  r.batches = static_cast<int>(batches_.size());
  (s0.returns_allowed ? r.returns : r.duplicates) = duplicates_;
  r.transmissions = sent_;
  r.broadcast_transmissions = sent_broadcast_;
  r.refused = refused_;
  const int N = topo_.num_nodes();
  for (int n = 0; n < N; ++n) {
    r.receptions_per_node_max = std::max(r.receptions_per_node_max, receptions_[n]);
    r.nodes_expected += expected_[n] > 0;
    r.nodes_informed += expected_[n] > 0 && receptions_[n] == expected_[n];
  }
  // Per item: when its last destination had it (from its batch's start, in slots).
  r.item_delivered.assign(static_cast<std::size_t>(items_total_), 0);
  double sum = 0, sum_slots = 0;
  for (const Batch& b : batches_) {
    const int I = b.s.items();
    std::vector<int> got(I, 0);
    for (std::size_t i = 0; i < b.s.transmissions.size(); ++i) {
      if (!b.to_dest[i] || b.delivered[i] == kNever) continue;
      const int item = b.s.transmissions[i].item;
      ++got[item];
      Cycle& at = r.item_delivered[static_cast<std::size_t>(b.item_base + item)];
      at = std::max(at, b.delivered[i]);
      r.completion = std::max(r.completion, b.delivered[i]);
    }
    for (int i = 0; i < I; ++i) {
      const int to = b.s.dest(i);
      const int want = to < 0 ? N - 1 : to == b.s.source(i) ? 0 : 1;
      Cycle& at = r.item_delivered[static_cast<std::size_t>(b.item_base + i)];
      if (got[i] < want) at = kNever;
      sum += static_cast<double>(at);
      if (slots && at != kNever)
        sum_slots += static_cast<double>((at - b.start + b.slot - 1) / b.slot);
    }
  }
  r.mean_delivery = items_total_ > 0 ? sum / items_total_ : 0;
  r.mean_delivery_slots = items_total_ > 0 ? sum_slots / items_total_ : 0;
  const CircuitCost c{static_cast<double>(cfg_.timing.alpha),
                      static_cast<double>(cfg_.timing.delta), static_cast<double>(cfg_.timing.tau)};
  r.planned = slots ? static_cast<double>(s0.phases) * static_cast<double>(batches_.front().slot)
                    : phase_sum_time(s0, c);
  return r;
}

}  // namespace sy
