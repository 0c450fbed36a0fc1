#include "switchyard/schemes/pmnb/compact_driver.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/network.hpp"

namespace sy {

CompactSlotDriver::CompactSlotDriver(sc_core::sc_module_name name, const Config& cfg, Network& net,
                                     CompactSlotPlan plan)
    : sc_core::sc_module(name), cfg_(cfg), topo_(cfg.topology.make()), plan_(std::move(plan)) {
  const Schedule& s = plan_.header;
  N_ = topo_.num_nodes();
  const int I = s.items(), d = topo_.num_dims();
  while (B_ < I && s.broadcast(B_)) ++B_;
  for (int i = B_; i < I; ++i)
    if (s.broadcast(i))
      throw std::logic_error("compact plan: broadcast items must come first (item " +
                             std::to_string(i) + ")");
  S_ = static_cast<Cycle>(cfg_.timing.delta) +
       static_cast<Cycle>(s.slot_flits()) * static_cast<Cycle>(cfg_.timing.tau);
  // No link twice in a slot (an item of U grid slots holds its link for U slots); every hop
  // from a node and along a dimension that exist, every item one of the plan's. (A streamed
  // plan: its tree uses each dimension at most once a slot, so each link carries one item.)
  if (plan_.streamed()) {
    if (plan_.tree_nodes != N_ || I != N_ || s.units(0) != 1)
      throw std::runtime_error("compact plan: a streamed tree for another network");
    for (std::size_t i = 0; i < plan_.tree.size(); ++i) {
      const MnbTreeEdge& e = plan_.tree[i];
      const MnbTreeEdge* prev = i > 0 ? &plan_.tree[i - 1] : nullptr;
      if (e.dim < 0 || e.dim >= d || e.node < 0 || e.node >= N_ || e.slot < 0 ||
          (prev && (prev->slot > e.slot || (prev->slot == e.slot && prev->dim >= e.dim))))
        throw std::runtime_error("compact plan: tree edge " + std::to_string(i) + " (node " +
                                 std::to_string(e.node) + ", dimension " + std::to_string(e.dim) +
                                 ", slot " + std::to_string(e.slot) +
                                 ") out of the network or of order, or a dimension twice a slot");
    }
  } else {
    std::vector<int> busy(static_cast<std::size_t>(N_) * static_cast<std::size_t>(d), 0);
    plan_.for_each([&](const CompactSlotPlan::Hop& h) {
      const int t = h.slot, v = h.sender, k = h.dim, item = h.item;
      if (v >= N_ || k >= d || item >= I)
        throw std::runtime_error("compact plan: a hop from node " + std::to_string(v) +
                                 " across dimension " + std::to_string(k) + " of item " +
                                 std::to_string(item) + " is outside the network or the items");
      int& b = busy[static_cast<std::size_t>(v) * static_cast<std::size_t>(d) +
                    static_cast<std::size_t>(k)];
      if (b > t)
        throw std::runtime_error("compact plan: node " + std::to_string(v) + " port d" +
                                 std::to_string(k) + " in slot " + std::to_string(t) +
                                 " carries two transmissions");
      b = t + s.units(item);
    });
  }
  held_.assign((static_cast<std::uint64_t>(B_) * static_cast<std::uint64_t>(N_) + 63) / 64, 0);
  got_.assign(static_cast<std::size_t>(I), 0);
  last_.assign(static_cast<std::size_t>(I), 0);
  receptions_.assign(static_cast<std::size_t>(N_), 0);
  expected_.assign(static_cast<std::size_t>(N_), 0);
  for (int i = 0; i < I; ++i) {
    const int src = s.source(i), to = s.dest(i);
    if (i < B_) {
      const std::uint64_t b = static_cast<std::uint64_t>(i) * N_ + static_cast<unsigned>(src);
      held_[b >> 6] |= std::uint64_t{1} << (b & 63);
      --expected_[static_cast<std::size_t>(src)];
    } else if (to != src) {
      ++expected_[static_cast<std::size_t>(to)];
    }
  }
  for (int& e : expected_) e += B_;
  for (int n = 0; n < N_; ++n) {
    out_.emplace_back(new tlm_utils::simple_initiator_socket<CompactSlotDriver>(
        ("out" + std::to_string(n)).c_str()));
    out_.back()->bind(net.ni(n).target);
    net.ni(n).on_receive([this](const Delivery& dl) { received(dl); });
  }
  gp_.set_extension(&ext_);
  SC_THREAD(run);
}

CompactSlotDriver::~CompactSlotDriver() {
  gp_.clear_extension(&ext_);
}

// Slot by slot: at the start of slot t, its transmissions, by sender, then dimension and item
// (the plan's groups of one slot and dimension merged by sender: each node's hops together).
void CompactSlotDriver::run() {
  if (plan_.streamed()) {  // the same order: by slot, sender, dimension
    const std::vector<MnbTreeEdge>& tree = plan_.tree;
    for (std::size_t g = 0; g < tree.size();) {
      const int t = tree[g].slot;
      std::size_t h = g;
      while (h < tree.size() && tree[h].slot == t) ++h;
      const sc_core::sc_time when = time_of(static_cast<Cycle>(t) * S_);
      const sc_core::sc_time now = sc_core::sc_time_stamp();
      if (when > now) wait(when - now);
      for (int y = 0; y < N_; ++y)
        for (std::size_t k = g; k < h; ++k)
          issue({t, y, tree[k].dim, y ^ tree[k].node ^ (1 << tree[k].dim)});
      g = h;
    }
    return;
  }
  const std::vector<std::uint32_t>& hops = plan_.hops;
  const std::vector<CompactSlotPlan::Group>& groups = plan_.groups;
  std::vector<std::uint64_t> at, end;  // the slot's groups: next hop, one past the last
  std::uint64_t begin = 0;
  for (std::size_t g = 0; g < groups.size();) {
    const int t = groups[g].slot;
    at.clear();
    end.clear();
    std::size_t h = g;
    for (; h < groups.size() && groups[h].slot == t; ++h) {
      at.push_back(begin);
      end.push_back(groups[h].end);
      begin = groups[h].end;
    }
    const sc_core::sc_time when = time_of(static_cast<Cycle>(t) * S_);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (when > now) wait(when - now);
    const std::size_t n = h - g;
    for (;;) {
      std::uint32_t v = 1u << 16;  // the lowest sender still to send in this slot
      for (std::size_t k = 0; k < n; ++k)
        if (at[k] < end[k]) v = std::min(v, hops[at[k]] >> 16);
      if (v == 1u << 16) break;
      for (std::size_t k = 0; k < n; ++k) {
        const CompactSlotPlan::Group& gr = groups[g + k];
        for (; at[k] < end[k] && hops[at[k]] >> 16 == v; ++at[k])
          issue({t, static_cast<int>(v), gr.dim,
                 static_cast<int>(gr.chunk) << 16 | static_cast<int>(hops[at[k]] & 0xffff)});
      }
    }
    g = h;
  }
}

void CompactSlotDriver::issue(const Hop& h) {
  const int item = h.item, v = h.sender;
  if (item >= B_) {
    // A point-to-point item (a scan message): its source sends it.
    if (plan_.header.source(item) != v)
      throw std::logic_error("compact plan: node " + std::to_string(v) + " relays item " +
                             std::to_string(item) + " (point-to-point items go from their source)");
    send(h, static_cast<Cycle>(h.slot) * S_);
    return;
  }
  if (held(item, v)) {
    send(h, static_cast<Cycle>(h.slot) * S_);
    return;
  }
  // Not in yet: it waits for the item's reception at v.
  ++waited_;
  const std::uint64_t key = static_cast<std::uint64_t>(item) << 32 | static_cast<unsigned>(v);
  auto [it, fresh] = wait_head_.try_emplace(key, -1);
  waiting_.push_back({h, it->second});
  it->second = static_cast<int>(waiting_.size()) - 1;
  (void)fresh;
}

void CompactSlotDriver::send(const Hop& h, Cycle start) {
  const int item = h.item, v = h.sender, k = h.dim;
  const Cycle slot_start = static_cast<Cycle>(h.slot) * S_;
  ext_.route.clear();
  ext_.route.push_back({k, 0, slot_start + static_cast<Cycle>(cfg_.timing.delta)});
  ext_.tag = static_cast<std::uint64_t>(item);
  ext_.priority = 0;
  const unsigned bytes =
      static_cast<unsigned>(plan_.header.item_flits[static_cast<std::size_t>(item)]) *
      static_cast<unsigned>(cfg_.interface.flit_bytes);
  gp_.set_command(tlm::TLM_WRITE_COMMAND);
  gp_.set_address(static_cast<sc_dt::uint64>(v ^ (1 << k)));
  gp_.set_data_ptr(nullptr);
  gp_.set_data_length(bytes);
  gp_.set_streaming_width(bytes);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = time_of(std::max(start, cycle_ceil(now))) - now;
  (*out_[static_cast<std::size_t>(v)])->b_transport(gp_, delay);
  ++sent_;
  if (item < B_) ++sent_broadcast_;
  if (!gp_.is_response_ok()) ++refused_;
}

void CompactSlotDriver::received(const Delivery& d) {
  const int item = static_cast<int>(d.tag), v = d.dst;
  if (item >= B_) {
    if (plan_.header.dest(item) != v) {
      ++unexpected_;
      return;
    }
    ++got_[static_cast<std::size_t>(item)];
    ++receptions_[static_cast<std::size_t>(v)];
    last_[static_cast<std::size_t>(item)] = d.delivered;
    completion_ = std::max(completion_, d.delivered);
    return;
  }
  const std::uint64_t b = static_cast<std::uint64_t>(item) * N_ + static_cast<unsigned>(v);
  if (held_[b >> 6] >> (b & 63) & 1) {
    ++returns_;  // the item back at a node that holds it (its source, a packing relay)
    return;
  }
  held_[b >> 6] |= std::uint64_t{1} << (b & 63);
  ++got_[static_cast<std::size_t>(item)];
  ++receptions_[static_cast<std::size_t>(v)];
  Cycle& l = last_[static_cast<std::size_t>(item)];
  l = std::max(l, d.delivered);
  completion_ = std::max(completion_, d.delivered);
  if (wait_head_.empty()) return;
  const auto it =
      wait_head_.find(static_cast<std::uint64_t>(item) << 32 | static_cast<unsigned>(v));
  if (it == wait_head_.end()) return;
  // Its sends that waited, in the order they were issued (the chain runs newest first).
  std::vector<Hop> ready;
  for (int w = it->second; w >= 0; w = waiting_[static_cast<std::size_t>(w)].next)
    ready.push_back(waiting_[static_cast<std::size_t>(w)].hop);
  wait_head_.erase(it);
  if (wait_head_.empty()) waiting_.clear();
  for (auto r = ready.rbegin(); r != ready.rend(); ++r)
    send(*r, std::max(d.delivered, static_cast<Cycle>(r->slot) * S_));
}

ScheduleResult CompactSlotDriver::result() const {
  const Schedule& s = plan_.header;
  ScheduleResult r;
  r.algorithm = s.algorithm;
  r.variant = s.variant + " (compact plan)";
  r.slots = true;
  r.slot_cycles = S_;
  r.phases = s.phases;
  r.parts = s.items();
  (s.returns_allowed ? r.returns : r.duplicates) = returns_;
  r.duplicates += unexpected_;
  r.transmissions = sent_;
  r.broadcast_transmissions = sent_broadcast_;
  r.refused = refused_;
  for (int n = 0; n < N_; ++n) {
    const int got = receptions_[static_cast<std::size_t>(n)],
              want = expected_[static_cast<std::size_t>(n)];
    r.receptions_per_node_max = std::max(r.receptions_per_node_max, got);
    r.nodes_expected += want > 0;
    r.nodes_informed += want > 0 && got == want;
  }
  r.completion = completion_;
  const int I = s.items();
  r.item_delivered.assign(static_cast<std::size_t>(I), 0);
  double sum = 0, sum_slots = 0;
  for (int i = 0; i < I; ++i) {
    const int to = s.dest(i);
    const int want = to < 0 ? N_ - 1 : to == s.source(i) ? 0 : 1;
    Cycle at = last_[static_cast<std::size_t>(i)];
    if (got_[static_cast<std::size_t>(i)] < want) at = kNever;
    r.item_delivered[static_cast<std::size_t>(i)] = at;
    sum += static_cast<double>(at);
    if (at != kNever) sum_slots += static_cast<double>((at + S_ - 1) / S_);
  }
  r.mean_delivery = I > 0 ? sum / I : 0;
  r.mean_delivery_slots = I > 0 ? sum_slots / I : 0;
  r.planned = static_cast<double>(s.phases) * static_cast<double>(S_);
  return r;
}

}  // namespace sy
