// Network ranks (mpirun -np N switchyard run ...): one network across processes. Every rank
// builds the whole network, and lane k of the threaded mode's lanes (network.cpp) is rank k's:
// it evaluates those routers, their NIs and their sources only. A step is the threaded step
// with an exchange after each of its two parts instead of the threads' join:
// 1. after the first part, the flits sent onto links into another rank's routers, each head with
//    its packet's record (the packet lives where its head is; the few fields of its message that
//    its delivery reads go with it), received by that rank in the one-process order, as a lane
//    receives another lane's;
// 2. after the second part, the credits for another rank's output units, the packet and message
//    ids given back to the rank whose pool holds them, and this rank's counters and measured
//    packets, which every rank folds in lane order as the threaded mode does (so every rank holds
//    the same statistics and takes the same decisions: when to sleep, when the run ends).
// Counts kept per router (links, output units) are summed at the end (gather_ranks). The run is
// the one-process run: the same as the threaded run, which is the one-thread run (network.cpp,
// step_in_parallel).
#include <algorithm>

#include "switchyard/network/network.hpp"

namespace sy {

void Network::set_up_ranks(Ranks* ranks) {
  ranks_ = ranks;
  rank_ = ranks->rank();
  const int R = ranks->size(), T = std::max(1, cfg_.simulation.threads);
  if (R * T > 255)
    throw ConfigError(cfg_.source + ": a network runs on at most 255 lanes: mpirun -np " +
                      std::to_string(R) + " times simulation.threads " + std::to_string(T));
  rank_lanes_ = T;
  set_up_lanes(R * T);
  if (T > 1) threads_ = std::make_unique<RouterThreads>(T);
  traffic_.only_lanes(rank_ * T, (rank_ + 1) * T);
  rank_out_.assign(static_cast<std::size_t>(R), {});
  rank_in_.assign(static_cast<std::size_t>(R), {});
  // Flits cross only the links between two ranks' routers: the first exchange is with the
  // ranks at the other end of one (both directions, so that the relation is symmetric).
  std::vector<bool> peer(static_cast<std::size_t>(R), false);
  const auto rank_of = [&](int router) {
    return lane_of_word_[static_cast<std::size_t>(router) >> 6] / T;
  };
  for (int n = 0; n < topo_.num_routers(); ++n)
    for (int p = 0; p < topo_.num_ports(); ++p) {
      const int m = topo_.neighbor(n, p);
      if (m < 0 || rank_of(n) == rank_of(m)) continue;
      if (rank_of(n) == rank_) peer[static_cast<std::size_t>(rank_of(m))] = true;
      if (rank_of(m) == rank_) peer[static_cast<std::size_t>(rank_of(n))] = true;
    }
  rank_peers_.clear();
  for (int q = 0; q < R; ++q)
    if (peer[static_cast<std::size_t>(q)]) rank_peers_.push_back(q);
  for (Router* r : routers_)
    for (int p = 0; p < topo_.num_ports(); ++p) units_.push_back(&r->output(p));
  for (NetworkInterface* ni : nis_)
    for (int c = 0; c < ni->injection_channels(); ++c) units_.push_back(&ni->injection(c));
  unit_index_.reserve(units_.size());
  for (std::size_t i = 0; i < units_.size(); ++i)
    unit_index_.emplace_back(units_[i], static_cast<std::uint32_t>(i));
  std::sort(unit_index_.begin(), unit_index_.end());
}

std::uint32_t Network::unit_of(const OutputUnit* u) const {
  // A router's output unit knows its router and port (its link's record): units_ holds router
  // n's port p at n * ports + p. (The NIs' units, and any other, by the sorted addresses.)
  const int n = u->link.src_node, p = u->link.src_port, ports = topo_.num_ports();
  if (n >= 0 && p >= 0 && p < ports) {
    const std::size_t i =
        static_cast<std::size_t>(n) * static_cast<std::size_t>(ports) + static_cast<std::size_t>(p);
    if (i < units_.size() && units_[i] == u) return static_cast<std::uint32_t>(i);
  }
  const auto it =
      std::lower_bound(unit_index_.begin(), unit_index_.end(), std::make_pair(u, std::uint32_t{0}),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  if (it == unit_index_.end() || it->first != u)
    throw std::logic_error("ranks: a credit for an output unit that is not the network's");
  return it->second;
}

// (A rank's lanes are rank * T ... rank * T + T - 1, T = simulation.threads; each part of a
// step runs them on its threads, then the exchange: what lane a of this rank has for lane b of
// rank q goes to q as (a, b, count, entries).)
void Network::step_across_ranks() {
  const std::size_t T = static_cast<std::size_t>(rank_lanes_), R = rank_out_.size();
  const std::size_t lo = static_cast<std::size_t>(rank_) * T, hi = lo + T;
  // fn(this, i) for this rank's lane i (0 .. T - 1), on its threads.
  const auto run_own = [this](void (*fn)(void*, int)) {
    if (threads_)
      threads_->run(fn, this);
    else
      fn(this, 0);
  };
  if (lane_profile_) rank_time(0);
  run_own([](void* self, int k) {
    auto* n = static_cast<Network*>(self);
    n->evaluate_lane(n->rank_ * n->rank_lanes_ + k);
  });
  if (lane_profile_) rank_time(1);
  // What each of this rank's lanes a has for each lane `to` of another rank q, into q's bytes:
  // fill(bytes, a, to) for every such pair, rank by rank.
  const auto to_other_ranks = [&](auto&& fill) {
    for (std::size_t q = 0; q < R; ++q) {
      std::vector<char>& b = rank_out_[q];
      b.clear();
      if (q == static_cast<std::size_t>(rank_)) continue;
      for (std::size_t a = lo; a < hi; ++a)
        for (std::size_t to = q * T; to < q * T + T; ++to) fill(b, a, to);
    }
  };
  // 1. Flits into other ranks' routers.
  to_other_ranks([&](std::vector<char>& b, std::size_t a, std::size_t to) {
    std::vector<Lane::Delivery>& ds = lanes_[a].deliveries_to[to];
    if (ds.empty()) return;
    put(b, static_cast<std::uint32_t>(a));
    put(b, static_cast<std::uint32_t>(to));
    put(b, static_cast<std::uint64_t>(ds.size()));
    for (const Lane::Delivery& d : ds) {
      put(b, static_cast<std::int32_t>(d.dst->node()));
      put(b, static_cast<std::int32_t>(d.port));
      put(b, static_cast<std::int32_t>(d.vc));
      put(b, d.flit);
      put(b, d.t);
      put(b, d.key);
      if (d.flit.head) {
        const Packet& p = fabric_.pool[d.flit.packet];
        put(b, p);
        const Message& m = fabric_.messages[p.message];
        put(b, m.serial);
        put(b, static_cast<std::int32_t>(m.packets_left));
        put(b, m.route);
      }
    }
    ds.clear();
  });
  for (std::size_t q = 0; q < R; ++q)  // (what the peers' list leaves out must be nothing)
    if (!rank_out_[q].empty() &&
        !std::binary_search(rank_peers_.begin(), rank_peers_.end(), static_cast<int>(q)))
      throw std::logic_error("ranks: flits for a rank with no link from this one");
  ranks_->exchange_with(rank_peers_, rank_out_, rank_in_);
  if (lane_profile_) rank_time(2);
  for (std::size_t q = 0; q < R; ++q) {
    if (q == static_cast<std::size_t>(rank_)) continue;
    ByteReader in(rank_in_[q]);
    while (!in.done()) {
      const std::uint32_t a = in.get<std::uint32_t>(), to = in.get<std::uint32_t>();
      std::vector<Lane::Delivery>& ds = lanes_[a].deliveries_to[to];
      ds.clear();
      for (std::uint64_t n = in.get<std::uint64_t>(); n > 0; --n) {
        Lane::Delivery d;
        d.dst = routers_[static_cast<std::size_t>(in.get<std::int32_t>())];
        d.port = in.get<std::int32_t>();
        d.vc = in.get<std::int32_t>();
        d.flit = in.get<Flit>();
        d.t = in.get<Cycle>();
        d.key = in.get<std::uint64_t>();
        d.dst_input = nullptr;  // (no prefetch)
        if (d.flit.head) {
          const Packet p = in.get<Packet>();
          fabric_.pool.mirror(d.flit.packet) = p;
          // The message's record: taken from the sender the first time one of its packets
          // comes to this rank. After that this rank's own count of its packets left holds (a
          // message's packets may come by different ranks, and in any order; the count falls
          // only where they are delivered, so the sender's is the full count the first time).
          Message& m = fabric_.messages.mirror(p.message);
          const auto serial = in.get<std::uint64_t>();
          const auto left = in.get<std::int32_t>();
          const auto route = in.get<std::int32_t>();
          if (m.serial != serial) {
            m.serial = serial;
            m.packets_left = left;
            m.route = route;
          }
        }
        ds.push_back(d);
      }
    }
  }
  run_own([](void* self, int k) {
    auto* n = static_cast<Network*>(self);
    n->receive_lane(n->rank_ * n->rank_lanes_ + k);
  });
  if (lane_profile_) rank_time(3);
  // 2. Credits, ids given back, and this rank's lanes' counters. The credits go upstream (to a
  // peer), the ids to the rank whose pool holds them, the counters to every rank: all in one
  // buffer that every rank gets (gather_all), each taking the pairs for its own lanes.
  const int par = lane_parity_;
  std::vector<char>& mine = rank_mine_;
  mine.clear();
  for (std::size_t q = 0; q < R; ++q) {
    if (q == static_cast<std::size_t>(rank_)) continue;
    for (std::size_t a = lo; a < hi; ++a)
      for (std::size_t to = q * T; to < q * T + T; ++to) {
        Lane& ln = lanes_[a];
        CreditList& cl = ln.credits_to[par][to];
        std::vector<std::uint32_t>& ps = ln.packets_back[par][to];
        std::vector<std::uint32_t>& ms = ln.messages_back[par][to];
        // (The staged pipeline's later credits sent this step, by the bucket of their cycle.)
        std::uint64_t later = 0;
        if (!ln.wheel_to.empty())
          for (const CreditList& b : ln.wheel_to[to]) later += b.size();
        if (cl.empty() && ps.empty() && ms.empty() && later == 0) continue;
        put(mine, static_cast<std::uint32_t>(a));
        put(mine, static_cast<std::uint32_t>(to));
        put(mine, static_cast<std::uint64_t>(cl.size()));
        for (const CreditList::Entry& c : cl) {
          put(mine, unit_of(c.up));
          put(mine, static_cast<std::int32_t>(c.vc));
        }
        cl.clear();
        put(mine, later);
        if (later > 0)
          for (std::size_t k = 0; k < ln.wheel_to[to].size(); ++k) {
            CreditList& b = ln.wheel_to[to][k];
            for (const CreditList::Entry& c : b) {
              put(mine, static_cast<std::uint32_t>(k));
              put(mine, unit_of(c.up));
              put(mine, static_cast<std::int32_t>(c.vc));
            }
            b.clear();
          }
        for (std::vector<std::uint32_t>* ids : {&ps, &ms}) {
          put(mine, static_cast<std::uint64_t>(ids->size()));
          for (const std::uint32_t id : *ids) put(mine, id);
          ids->clear();
        }
      }
  }
  put(mine, ~std::uint32_t{0});  // (the end of the pairs; the lanes' counters follow)
  for (std::size_t a = lo; a < hi; ++a) {
    Lane& ln = lanes_[a];
    ln.each_counter([&](auto& x) { put(mine, x); });
    put(mine, static_cast<std::uint8_t>(!ln.nis.empty()));
    put(mine, static_cast<std::uint64_t>(ln.measured.size()));
    for (const Stats::Measured& m : ln.measured) put(mine, m);
    if (!ln.completions.empty())
      throw std::logic_error("ranks: a completion needs the one-process order");
  }
  if (lane_profile_) rank_time(4);
  ranks_->gather_all(mine, rank_all_, rank_at_);
  if (lane_profile_) rank_time(5);
  for (std::size_t q = 0; q < R; ++q) {
    if (q == static_cast<std::size_t>(rank_)) continue;
    ByteReader in(rank_all_.data() + rank_at_[q], rank_all_.data() + rank_at_[q + 1]);
    for (std::uint32_t a = in.get<std::uint32_t>(); a != ~std::uint32_t{0};
         a = in.get<std::uint32_t>()) {
      const std::uint32_t to = in.get<std::uint32_t>();
      if (to < lo || to >= hi) {  // (another rank's)
        in.skip(in.get<std::uint64_t>() * (sizeof(std::uint32_t) + sizeof(std::int32_t)));
        in.skip(in.get<std::uint64_t>() * (2 * sizeof(std::uint32_t) + sizeof(std::int32_t)));
        for (int k = 0; k < 2; ++k) in.skip(in.get<std::uint64_t>() * sizeof(std::uint32_t));
        continue;
      }
      Lane& from = lanes_[a];
      CreditList& cl = from.credits_to[par][to];
      cl.clear();
      for (std::uint64_t n = in.get<std::uint64_t>(); n > 0; --n) {
        OutputUnit* u = units_[in.get<std::uint32_t>()];
        cl.push(u, in.get<std::int32_t>());
      }
      // (Into this rank's copy of the sending lane's wheel, which lane `to` applies when due.)
      for (std::uint64_t n = in.get<std::uint64_t>(); n > 0; --n) {
        const std::uint32_t k = in.get<std::uint32_t>();
        OutputUnit* u = units_[in.get<std::uint32_t>()];
        from.wheel_to[to][k].push(u, in.get<std::int32_t>());
      }
      for (std::vector<std::uint32_t>* ids :
           {&from.packets_back[par][to], &from.messages_back[par][to]}) {
        ids->clear();
        for (std::uint64_t n = in.get<std::uint64_t>(); n > 0; --n)
          ids->push_back(in.get<std::uint32_t>());
      }
    }
    for (std::size_t a = q * T; a < q * T + T; ++a) {
      Lane& from = lanes_[a];
      from.each_counter([&](auto& x) { x = in.get<std::decay_t<decltype(x)>>(); });
      from.remote_injecting = in.get<std::uint8_t>() != 0;
      from.measured.clear();
      for (std::uint64_t n = in.get<std::uint64_t>(); n > 0; --n)
        from.measured.push_back(in.get<Stats::Measured>());
    }
  }
  if (lane_profile_) rank_time(6);
}

void Network::rank_time(int part) {
  const auto now = std::chrono::steady_clock::now();
  if (part > 0) rank_parts_s_[part - 1] += std::chrono::duration<double>(now - rank_mark_).count();
  rank_mark_ = now;
}

void Network::gather_ranks() {
  if (!ranks_) return;
  // Per link: flits, busy cycles in the window, departures and sojourns (output-queued); per
  // output unit: credit violations. Only the rank that evaluates a router counts its units' (the
  // others' copies stay zero), so the sum is the one count.
  std::vector<std::uint64_t> v;
  v.reserve(links_.size() * 4 + units_.size() + 2);
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const OutputUnit& u = links_[i];
    v.insert(v.end(),
             {u.flits, u.link.busy_window, u.link.departures_window, u.link.sojourn_window});
  }
  for (const OutputUnit* u : units_) v.push_back(u->violations);
  std::uint64_t rejected = 0;
  for (const NetworkInterface* ni : nis_) rejected += ni->requests_rejected();
  v.push_back(rejected);
  v.push_back(fabric_.priority_inversions);
  ranks_->sum(v.data(), static_cast<int>(v.size()));
  std::size_t at = 0;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    OutputUnit& u = links_.at(i);
    u.flits = v[at++];
    u.link.busy_window = v[at++];
    u.link.departures_window = v[at++];
    u.link.sojourn_window = v[at++];
  }
  for (OutputUnit* u : units_) u->violations = v[at++];
  rejected_total_ = v[at++];
  rejected_gathered_ = true;
  fabric_.priority_inversions = v[at++];
}

std::uint64_t Network::requests_rejected() const {
  if (rejected_gathered_) return rejected_total_;
  std::uint64_t n = 0;
  for (const NetworkInterface* ni : nis_) n += ni->requests_rejected();
  return n;
}

}  // namespace sy
