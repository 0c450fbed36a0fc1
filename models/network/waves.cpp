#include "switchyard/network/waves.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "switchyard/network/network_interface.hpp"
#include "switchyard/router/router.hpp"

namespace sy {
namespace {
bool word_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
}  // namespace

std::string port_label(const Topology& topo, int p, int channels) {
  const int P = topo.num_ports();
  if (p >= P && topo.concentration() > 1) {  // terminal t's channel c: inj_t<t>[_c<c>]
    const int k = p - P, ch = std::max(channels, 1);
    return "inj_t" + std::to_string(k / ch) + (ch > 1 ? "_c" + std::to_string(k % ch) : "");
  }
  if (p == P) return "inj";
  if (p > P) return "inj" + std::to_string(p - P);
  std::string s = topo.port_name(p);  // ('+' -> p, '-' -> m, other punctuation -> _)
  for (char& c : s) c = c == '+' ? 'p' : c == '-' ? 'm' : word_char(c) ? c : '_';
  return s;
}

std::string router_label(const Topology& topo, int router) {
  if (!topo.indirect()) return "r" + std::to_string(router);
  // An indirect network's router name as an identifier: butterfly "(row,level)" -> r<row>_<level>;
  // any character but letters and digits becomes '_', none at either end.
  std::string s;
  for (char c : topo.router_name(router)) {
    if (word_char(c))
      s += c;
    else if (!s.empty() && s.back() != '_')
      s += '_';
  }
  while (!s.empty() && s.back() == '_') s.pop_back();
  return "r" + s;
}

RouterProbe::RouterProbe(int inputs, int outputs, int vcs, Hold hold, Cycle tau,
                         const PacketPool& pool)
    : in(inputs),
      out(outputs),
      in_carried(inputs),
      out_carried(outputs),
      hold_(hold),
      tau_(std::max<Cycle>(tau, 1)),
      pool_(pool) {
  for (auto& i : in) i.occ.assign(vcs, 0);
  for (auto& o : out) o.credit.assign(vcs, 0);
  in_bit.reset(new bool[static_cast<std::size_t>(inputs)]());
  out_bit.reset(new bool[static_cast<std::size_t>(outputs)]());
}

void RouterProbe::flit_in(int port, int vc, std::uint32_t packet, bool head, bool tail) {
  In& w = in[port];
  const Packet& p = pool_[packet];
  w.valid = true;
  w.head = head;
  w.tail = tail;
  w.vc = static_cast<unsigned>(vc);
  w.slot = packet;
  // A packet-level router takes the whole packet at its head: its flits follow every tau.
  show(in_carried[port], packet,
       now + (hold_ == Hold::Packet ? static_cast<Cycle>(p.flits) * tau_ : tau_));
}

void RouterProbe::clear_events(Cycle t) {
  now = t;
  for (auto& i : in) {
    i.valid = i.head = i.tail = false;
    i.vc_req = i.vc_gnt = 0;
  }
  for (auto& o : out) o.sw_req = o.sw_gnt = o.xbar = 0;
  for (auto& c : in_carried)
    if (c.until <= t) c.on = false;
  for (auto& c : out_carried)
    if (c.until <= t) c.on = false;
}

void RouterProbe::summarize() {
  in_busy = out_busy = 0;
  buffered = 0;
  // waves.packet: one of its flits on a link of this router, or in its buffers (held).
  follow = held > 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Carried& c = in_carried[i];
    if (c.on) in_busy |= std::uint64_t{1} << i;
    in_bit[i] = c.on;
    follow |= c.on && follow_pkt && c.pkt == follow_pkt;
    for (unsigned n : in[i].occ) buffered += n;
  }
  for (std::size_t o = 0; o < out.size(); ++o) {
    Carried& c = out_carried[o];
    // A circuit shows until its crossbar connection goes (the router's sample holds it).
    if (hold_ == Hold::Circuit && !out[o].xbar) c.on = false;
    if (c.on) out_busy |= std::uint64_t{1} << o;
    out_bit[o] = c.on;
    follow |= c.on && follow_pkt && c.pkt == follow_pkt;
    if (hold_ != Hold::Flit) buffered += out[o].queued;
  }
}

// ---- NiProbe ----

void NiProbe::created(std::uint32_t slot) {
  FollowState& f = follow_state;
  if (!f.pkt || pool.serial(slot) != f.pkt) return;
  const Packet& p = pool[slot];
  f.slot = slot;
  f.src = p.src;
  f.dst = p.dst;
  f.created = p.created;
}

void NiProbe::delivered(std::uint32_t slot, Cycle t) {
  const std::uint64_t id = pool.serial(slot);
  if (traced) rx_due_.push_back({t, id});
  FollowState& f = follow_state;
  if (f.pkt && id == f.pkt && f.slot == static_cast<std::int64_t>(slot)) {
    f.delivered = t;
    f.injected = std::min(f.injected, pool[slot].injected);
    f.slot = -1;  // (released now: the slot may hold another packet next)
  }
}

void NiProbe::settle(Cycle t) {
  rx_on = false;
  for (std::size_t k = 0; k < rx_due_.size();) {
    if (rx_due_[k].first == t) {
      rx_on = true;
      rx = rx_due_[k].second;  // (two in one cycle: one of them)
    }
    if (rx_due_[k].first < t) {
      rx_due_[k] = rx_due_.back();
      rx_due_.pop_back();
    } else {
      ++k;
    }
  }
}

// ---- VcdFile ----

VcdFile::VcdFile(const std::string& path, const std::string& comment)
    : path_(path), comment_(comment) {
  f_ = std::fopen(path.c_str(), "w");
  if (!f_) throw std::runtime_error("waves: cannot write " + path);
  buf_.reserve(1 << 20);
}

VcdFile::~VcdFile() {
  if (f_) std::fclose(f_);
}

void VcdFile::add(const std::string& name, Kind kind, const void* value, int width,
                  const bool* present) {
  if (kind == Kind::Bool) width = 1;
  // Identifier codes: base 94 over the printable characters '!'..'~'.
  std::string id;
  for (std::size_t n = vars_.size();; n = n / 94 - 1) {
    id += static_cast<char>('!' + n % 94);
    if (n < 94) break;
  }
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  slots_[static_cast<int>(kind)].push_back(
      {value, present, mask, 0, static_cast<std::uint32_t>(vars_.size()), false});
  vars_.push_back({kind, width, name, id});
}

void VcdFile::put_number(std::uint64_t x) {
  char d[24];
  int n = 0;
  do {
    d[n++] = static_cast<char>('0' + x % 10);
    x /= 10;
  } while (x);
  while (n) buf_ += d[--n];
}

void VcdFile::put_value(const Var& v, std::uint64_t x, bool z) {
  char line[80];  // "b" + 64 bits + " " + id + "\n"
  int n = 0;
  if (v.width == 1) {
    line[n++] = z ? 'z' : x ? '1' : '0';
  } else {
    line[n++] = 'b';
    if (z) {
      line[n++] = 'z';  // left-extends over the whole vector
    } else {
      int top = 63 - __builtin_clzll(x | 1);
      for (int b = top; b >= 0; --b) line[n++] = static_cast<char>('0' + ((x >> b) & 1));
    }
    line[n++] = ' ';
  }
  buf_.append(line, static_cast<std::size_t>(n));
  buf_ += v.id;
  buf_ += '\n';
}

void VcdFile::write_header() {
  buf_ += "$version Switchyard waves $end\n$comment " + comment_ + " $end\n";
  buf_ += "$timescale 1 ns $end\n$scope module switchyard $end\n";
  std::vector<std::string> open;  // the scopes open now
  for (const Var& v : vars_) {
    std::vector<std::string> path;
    std::size_t a = 0;
    for (std::size_t b; (b = v.name.find('.', a)) != std::string::npos; a = b + 1)
      path.push_back(v.name.substr(a, b - a));
    std::size_t keep = 0;
    while (keep < open.size() && keep < path.size() && open[keep] == path[keep]) ++keep;
    for (std::size_t k = open.size(); k > keep; --k) buf_ += "$upscope $end\n";
    for (std::size_t k = keep; k < path.size(); ++k) buf_ += "$scope module " + path[k] + " $end\n";
    open = path;
    buf_ += "$var wire " + std::to_string(v.width) + " " + v.id + " " + v.name.substr(a);
    if (v.width > 1) buf_ += " [" + std::to_string(v.width - 1) + ":0]";
    buf_ += " $end\n";
  }
  for (std::size_t k = 0; k <= open.size(); ++k) buf_ += "$upscope $end\n";
  buf_ += "$enddefinitions $end\n";
}

template <typename T>
void VcdFile::sample_kind(std::vector<Slot>& slots, Cycle t, bool first, bool& stamped) {
  for (Slot& s : slots) {
    const bool z = s.present && !*s.present;
    const std::uint64_t x = static_cast<std::uint64_t>(*static_cast<const T*>(s.value)) &
                            s.mask;  // (int: sign-extended)
    if (!first && x == s.last && z == s.last_z) continue;
    if (!stamped) {
      stamp(t);
      stamped = true;
    }
    s.last = x;
    s.last_z = z;
    put_value(vars_[s.var], x, z);
  }
}

void VcdFile::sample(Cycle t) {
  if (!f_) return;
  const bool first = !started_;
  bool stamped = false;
  if (first) {
    write_header();
    stamp(t);
    buf_ += "$dumpvars\n";
    stamped = true;
    started_ = true;
  }
  sample_kind<bool>(slots_[static_cast<int>(Kind::Bool)], t, first, stamped);
  sample_kind<unsigned>(slots_[static_cast<int>(Kind::U32)], t, first, stamped);
  sample_kind<std::uint64_t>(slots_[static_cast<int>(Kind::U64)], t, first, stamped);
  sample_kind<int>(slots_[static_cast<int>(Kind::I32)], t, first, stamped);
  if (first) buf_ += "$end\n";
  if (buf_.size() >= (1u << 20)) flush();
}

void VcdFile::stamp(Cycle t) {
  if (!f_ || (started_ && t <= stamped_)) return;
  buf_ += '#';
  put_number(t);
  buf_ += '\n';
  stamped_ = t;
}

void VcdFile::flush() {
  if (!buf_.empty() && f_) std::fwrite(buf_.data(), 1, buf_.size(), f_);
  buf_.clear();
}

void VcdFile::close() {
  if (!f_) return;
  flush();
  const bool bad = std::ferror(f_) != 0;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (bad || !closed) throw std::runtime_error("waves: cannot write " + path_);
}

// ---- Waves ----

Waves::Waves(const Config& cfg, const Topology& topo, const std::vector<Router*>& routers,
             const PacketPool& pool, const std::string& out_dir,
             const std::vector<NetworkInterface*>& nis)
    : from_(cfg.waves.from_cycle), to_(cfg.waves.to_cycle), pool_(pool), nis_(nis) {
  follow_.pkt = cfg.waves.packet;
  // (waves.file is relative and stays inside: the config refuses '..' and absolute paths.)
  vcd_ = out_dir.empty() ? cfg.waves.file : out_dir + "/" + cfg.waves.file;
  std::string base = vcd_;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
    base.resize(base.size() - 4);
  else
    vcd_ += ".vcd";
  gtkw_ = base + ".gtkw";
  const std::filesystem::path dir = std::filesystem::path(vcd_).parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("waves: cannot create directory " + dir.string());
  if (cfg.waves.routers.empty()) {
    traced_ = routers;
  } else {
    for (int n : cfg.waves.routers) traced_.push_back(routers[n]);
  }
  char clock[64];
  std::snprintf(clock, sizeof clock, "%g", static_cast<double>(cfg.interface.clock_ps) / 1000.0);
  vcd_file_.reset(new VcdFile(
      vcd_, std::string("1 time unit = 1 cycle (clock ") + clock + " ns); " + cfg.name));
  VcdFile& f = *vcd_file_;
  using K = VcdFile::Kind;
  const int P = topo.num_ports(), V = cfg.router.vcs;
  oq_ = cfg.router.buffering != Buffering::InputVc;  // no VCs: output queues only
  vcs_ = oq_ ? 0 : V;
  const int I =  // input ports (every terminal's injection channels, under concentration)
      P + (oq_ ? 1 : topo.concentration() * cfg.interface.injection_channels);
  for (int p = 0; p < I; ++p)
    ins_.push_back("in_" + port_label(topo, p, cfg.interface.injection_channels));
  for (int p = 0; p < P; ++p) outs_.push_back("out_" + port_label(topo, p));
  const RouterProbe::Hold hold =
      cfg.router.buffering == Buffering::InputVc   ? RouterProbe::Hold::Flit
      : cfg.router.buffering == Buffering::Circuit ? RouterProbe::Hold::Circuit
                                                   : RouterProbe::Hold::Packet;
  auto carried = [&](const std::string& n, const RouterProbe::Carried& c) {
    f.add(n + "pkt", K::U64, &c.pkt, 64, &c.on);
    f.add(n + "src", K::I32, &c.src, 32, &c.on);
    f.add(n + "dst", K::I32, &c.dst, 32, &c.on);
  };
  if (follow_.pkt) {
    f.add("follow.pkt", K::U64, &follow_.pkt, 64);
    f.add("follow.stage", K::U32, &follow_.stage, 3);
  }
  // Every NI has a probe (the followed packet is created and delivered at NIs that may not be
  // traced); those of traced routers' nodes are in the VCD.
  std::vector<bool> router_traced(routers.size(), false);
  for (Router* r : traced_) router_traced[static_cast<std::size_t>(r->node())] = true;
  for (NetworkInterface* ni : nis_) {
    ni_probes_.emplace_back(new NiProbe(follow_, pool));
    NiProbe& np = *ni_probes_.back();
    ni->set_probe(&np);
    if (!ni->router() || !router_traced[static_cast<std::size_t>(ni->router()->node())]) continue;
    np.traced = true;
    traced_nis_.push_back(ni);
    traced_ni_probes_.push_back(&np);
    nis_names_.push_back("ni" + std::to_string(ni->node()));
    const std::string n = nis_names_.back() + ".";
    f.add(n + "queued", K::U32, &np.packets, 16);
    f.add(n + "queued_flits", K::U32, &np.flits, 32);
    f.add(n + "head_pkt", K::U64, &np.head, 64, &np.head_on);
    f.add(n + "rx_pkt", K::U64, &np.rx, 64, &np.rx_on);
    if (follow_.pkt) f.add(n + "follow", K::Bool, &np.follow, 1);
  }
  ni_follow_first_.assign(traced_nis_.size(), kNever);
  for (Router* r : traced_) {
    probes_.emplace_back(new RouterProbe(I, P, vcs_, hold, cfg.timing.tau, pool));
    RouterProbe& pr = *probes_.back();
    pr.follow_pkt = follow_.pkt;
    r->set_probe(&pr);
    routers_.push_back(router_label(topo, r->node()));
    const bool req = r->probes_requests();  // (an RTL router: no requests)
    requests_.push_back(req);
    const std::string rn = routers_.back() + ".";
    for (int p = 0; p < P; ++p) f.add(rn + "busy_" + outs_[p], K::Bool, &pr.out_bit[p], 1);
    for (int p = 0; p < I; ++p) f.add(rn + "busy_" + ins_[p], K::Bool, &pr.in_bit[p], 1);
    if (follow_.pkt) f.add(rn + "follow", K::Bool, &pr.follow, 1);
    f.add(rn + "out_busy", K::U64, &pr.out_busy, P);
    f.add(rn + "in_busy", K::U64, &pr.in_busy, I);
    f.add(rn + "buffered", K::U32, &pr.buffered, 16);
    for (int p = 0; p < I; ++p) {
      RouterProbe::In& w = pr.in[p];
      const std::string n = rn + ins_[p] + ".";
      f.add(n + "valid", K::Bool, &w.valid, 1);
      carried(n, pr.in_carried[p]);
      if (!oq_) f.add(n + "vc", K::U32, &w.vc, 8, &pr.in_carried[p].on);
      f.add(n + "head", K::Bool, &w.head, 1);
      f.add(n + "tail", K::Bool, &w.tail, 1);
      if (oq_) continue;
      for (int v = 0; v < V; ++v) f.add(n + "occ" + std::to_string(v), K::U32, &w.occ[v], 16);
      if (req) f.add(n + "vc_req", K::U64, &w.vc_req, V);
      f.add(n + "vc_gnt", K::U64, &w.vc_gnt, V);
    }
    for (int p = 0; p < P; ++p) {
      RouterProbe::Out& w = pr.out[p];
      const std::string n = rn + outs_[p] + ".";
      carried(n, pr.out_carried[p]);
      if (oq_) {
        f.add(n + "queued", K::U32, &w.queued, 16);
      } else {
        if (req) f.add(n + "sw_req", K::U64, &w.sw_req, I);
        f.add(n + "sw_gnt", K::U64, &w.sw_gnt, I);
      }
      f.add(n + "xbar", K::U64, &w.xbar, I);
      if (!oq_)
        for (int v = 0; v < V; ++v)
          f.add(n + "credit" + std::to_string(v), K::U32, &w.credit[v], 16);
    }
  }
  // The state before the first cycle (credits full, buffers empty); the VCD's $dumpvars holds
  // the values at the end of the first cycle the network runs.
  router_follow_first_.assign(traced_.size(), kNever);
  for (std::size_t i = 0; i < traced_.size(); ++i) sample(i);
  sample_nis();
}

Waves::~Waves() {
  try {
    close();
  } catch (const std::exception&) {
  }
}

void Waves::close() {
  if (!vcd_file_) return;
  // The run is over, but flits (packets) may still be on a link and circuits held: step on
  // until they are gone, so the VCD shows when they end.
  auto carrying = [&] {
    for (const auto& pr : probes_) {
      for (const auto& c : pr->in_carried)
        if (c.on) return true;
      for (const auto& c : pr->out_carried)
        if (c.on) return true;
    }
    // (and deliveries to show in an NI's rx_pkt, until the cycle after)
    for (const NiProbe* np : traced_ni_probes_)
      if (np->due(now_)) return true;
    return false;
  };
  for (const Cycle stop = now_ + 100000; carrying() && now_ < stop;) begin_cycle(now_ + 1);
  vcd_file_->sample(now_);
  // GTKWave opens at [timestart] only if the dump lasts the whole view (else it starts at 0): a
  // last time stamp with no change takes it there.
  Cycle t0, t1;
  const double span = view(t0, t1);
  vcd_file_->stamp(t0 + static_cast<Cycle>(std::ceil(span)) + 1);
  for (Router* r : traced_) r->set_probe(nullptr);
  for (NetworkInterface* ni : nis_) ni->set_probe(nullptr);
  std::unique_ptr<VcdFile> f = std::move(vcd_file_);
  f->close();
  write_gtkw();
}

void Waves::sample(std::size_t i) {
  RouterProbe& pr = *probes_[i];
  pr.follow_slot = follow_.slot;
  pr.held = 0;
  traced_[i]->sample(pr);
  pr.summarize();
}

// The traced NIs' queues and the followed packet's place at the end of the cycle.
void Waves::sample_nis() {
  track_follow();
  for (std::size_t k = 0; k < traced_nis_.size(); ++k) {
    NiProbe& np = *traced_ni_probes_[k];
    const NetworkInterface& ni = *traced_nis_[k];
    ni.sample(np);
    np.settle(now_);
    np.follow = false;
    if (follow_.pkt) {
      const int n = ni.node();
      np.follow = (n == follow_.src && follow_.slot >= 0 &&
                   ni.holds(static_cast<std::uint32_t>(follow_.slot))) ||
                  (n == follow_.dst && follow_.arrived <= now_ &&
                   (follow_.delivered == kNever || now_ <= follow_.delivered));
      if (np.follow && on_) ni_follow_first_[k] = std::min(ni_follow_first_[k], now_);
    }
  }
}

// Where waves.packet is: follow.stage, and when its head began to arrive at its destination.
void Waves::track_follow() {
  FollowState& f = follow_;
  if (!f.pkt) return;
  if (f.slot >= 0) {
    const Packet& p = pool_[static_cast<std::uint32_t>(f.slot)];
    if (p.received > 0) f.arrived = std::min(f.arrived, now_);
  }
  if (f.delivered != kNever) f.arrived = std::min(f.arrived, now_);
  if (f.slot >= 0 && f.injected == kNever) {
    const Packet& p = pool_[static_cast<std::uint32_t>(f.slot)];
    const bool at =
        f.src >= 0 && static_cast<std::size_t>(f.src) < nis_.size() &&
        nis_[static_cast<std::size_t>(f.src)]->holds(static_cast<std::uint32_t>(f.slot));
    // (Its head is in once it has left the source NI, or a flit of it is in a router.)
    bool in_router = false;
    for (const auto& pr : probes_) in_router |= pr->follow;
    if ((!at || in_router) && p.injected >= f.created) f.injected = p.injected;
  }
  bool in_router = false;
  for (const auto& pr : probes_) in_router |= pr->follow;
  const bool at_src =
      f.slot >= 0 && f.src >= 0 && static_cast<std::size_t>(f.src) < nis_.size() &&
      nis_[static_cast<std::size_t>(f.src)]->holds(static_cast<std::uint32_t>(f.slot));
  if (f.delivered != kNever && now_ > f.delivered)
    f.stage = 4;
  else if (f.arrived <= now_)
    f.stage = 3;
  else if (in_router || (f.created != kNever && !at_src))
    f.stage = 2;
  else if (at_src)
    f.stage = 1;
  else
    f.stage = 0;
}

void Waves::begin_cycle(Cycle t) {
  // The last cycle's values are final: they go to the VCD at its time.
  if (t > now_) vcd_file_->sample(now_);
  now_ = std::max(now_, t);
  const bool on = t >= from_ && t <= to_;
  if (on) {
    first_ = std::min(first_, t);
    last_ = std::max(last_, t);
  }
  for (std::size_t i = 0; i < probes_.size(); ++i) {
    probes_[i]->clear_events(t);
    probes_[i]->on = on;
    // State that lasts (occupancy, credits, circuits held) is shown from the cycle's start.
    if (on)
      sample(i);
    else
      probes_[i]->summarize();  // crossings that end after the window
  }
  on_ = on;
  if (on) sample_nis();
}

bool Waves::traced(int router) const {
  for (const Router* r : traced_)
    if (r->node() == router) return true;
  return false;
}

void Waves::add_router_value(int router, const std::string& name, const std::uint32_t* value,
                             const bool* present) {
  router_values_.resize(traced_.size());
  for (std::size_t i = 0; i < traced_.size(); ++i) {
    if (traced_[i]->node() != router) continue;
    vcd_file_->add(routers_[i] + "." + name, VcdFile::Kind::U32, value, 32, present);
    router_values_[i].push_back(name);
    return;
  }
}

void Waves::end_cycle() {
  if (!on_) return;
  for (const auto& u : updates_) u(now_);
  for (std::size_t i = 0; i < traced_.size(); ++i) {
    sample(i);
    RouterProbe& pr = *probes_[i];
    if (pr.follow) router_follow_first_[i] = std::min(router_follow_first_[i], now_);
    for (const auto& w : pr.in)
      if (w.valid) first_event_ = std::min(first_event_, now_);
  }
  sample_nis();
}

// GTKWave save file. What a designer sees first: the followed packet's markers (waves.packet),
// then per traced router its NI's injection queue and its summary (flits buffered, one busy bit
// per port), expanded; then one collapsed group per router with its busy masks and a collapsed
// group per port inside it; masks in hexadecimal, counts and ids in decimal; the view on the
// followed packet's lifetime or on the first kViewCycles cycles with traffic.
double Waves::view(Cycle& t0, Cycle& t1, Cycle* marker) const {
  // The recorded window: [from_cycle, to_cycle], clipped to the cycles the run had.
  const Cycle r0 = first_ == kNever ? from_ : std::max(from_, first_);
  const Cycle r1 = first_ == kNever ? r0 : std::max(r0, std::min(to_, last_));
  const FollowState& f = follow_;
  const auto lead = [](Cycle t) { return t >= kViewLead ? t - kViewLead : 0; };
  Cycle m;
  if (f.created != kNever && f.created <= r1 && (f.delivered == kNever || f.delivered >= r0)) {
    // The followed packet's lifetime, from its request to its delivery (or the recorded end).
    t0 = std::max(from_, lead(f.created));
    t1 = f.delivered == kNever ? r1 : std::min(r1, f.delivered + kViewLead);
    m = f.injected != kNever ? f.injected : f.created;
  } else {
    // The first kViewCycles cycles from the first flit seen in the recorded window.
    // (The lead may reach before the first cycle the network ran, an idle one, not before
    // from_cycle.)
    const Cycle e = first_event_ == kNever ? r0 : std::max(r0, first_event_);
    t0 = std::max(from_, lead(e));
    t1 = std::min(r1, t0 + kViewCycles - 1);
    m = e;
  }
  t1 = std::max(t0, t1);
  if (marker) *marker = std::min(std::max(m, t0), t1);
  // The cycles the view spans (10% to spare: GTKWave's own rounding of the zoom shows up to 7%
  // less than asked).
  return static_cast<double>(t1 - t0 + 1) * 1.1;
}

void Waves::write_gtkw() const {
  std::ofstream g(gtkw_);
  if (!g) throw std::runtime_error("waves: cannot write " + gtkw_);
  const std::string vcd_name = std::filesystem::path(vcd_).filename().string();
  // The view: the followed packet's lifetime, or the first cycles with traffic.
  Cycle t0, t1, marker;
  const double span = view(t0, t1, &marker);
  const Cycle r0 = first_ == kNever ? from_ : std::max(from_, first_);
  const Cycle r1 = first_ == kNever ? r0 : std::max(r0, std::min(to_, last_));
  const FollowState& fo = follow_;
  const bool followed = fo.pkt && fo.created != kNever;
  // A legend: the time unit, the view, the followed packet, and the port each mask bit stands
  // for.
  const int I = static_cast<int>(ins_.size()), P = static_cast<int>(outs_.size());
  std::vector<std::string> legend;
  legend.push_back("time: 1 ns = 1 cycle");
  legend.push_back("view: cycles " + std::to_string(t0) + ".." + std::to_string(t1) + " of " +
                   std::to_string(r0) + ".." + std::to_string(r1) + " (zoom out: Zoom Fit)");
  if (fo.pkt) {
    if (!followed) {
      legend.push_back("follow pkt " + std::to_string(fo.pkt) + ": not created in this run");
    } else {
      std::string t = "follow pkt " + std::to_string(fo.pkt) + " (" + std::to_string(fo.src) +
                      " -> " + std::to_string(fo.dst) + "): created " + std::to_string(fo.created);
      if (fo.injected != kNever) t += ", A = injected " + std::to_string(fo.injected);
      if (fo.delivered != kNever) t += ", B = delivered " + std::to_string(fo.delivered);
      if (fo.created > r1 || (fo.delivered != kNever && fo.delivered < r0))
        t += " (outside the recorded cycles)";
      legend.push_back(t);
    }
  }
  std::string bits = "mask bits 0.." + std::to_string(I - 1) + ":";
  for (int p = 0; p < I; ++p) bits += " " + ins_[p].substr(3);
  legend.push_back(bits);
  // RTL routers (router.model rtl): their ports only; their insides are in rtl_<n>.vcd
  // (waves.rtl_nodes), on the same cycles.
  std::string rtl;
  std::size_t n_rtl = 0;
  for (std::size_t i = 0; i < routers_.size(); ++i)
    if (!requests_[i]) {
      rtl += " " + routers_[i];
      ++n_rtl;
    }
  if (n_rtl == routers_.size() && n_rtl > 4)
    rtl = " all";
  else if (n_rtl > 4)
    rtl = " " + std::to_string(n_rtl) + " of " + std::to_string(routers_.size());
  if (n_rtl) legend.push_back("RTL:" + rtl + " (ports only; insides: rtl_<n>.vcd)");
  // GTKWave shows 2^-zoom time units per 200 pixels. Its names pane grows to the legend's
  // longest line (about 8 pixels a character in its default font), so the wave pane is the
  // window less that: the view's cycles fill what is left.
  std::size_t longest = 0;
  for (const std::string& text : legend) longest = std::max(longest, text.size());
  constexpr int kWidth = 1400, kHeight = 860;
  const int names_px = std::max(300, static_cast<int>(longest) * 8 + 30);
  const int wave_px = std::max(300, kWidth - names_px - 60);
  const double zoom = -std::log2(span * 200.0 / wave_px);
  g << "[*] Switchyard waves: gtkwave " << vcd_ << " " << gtkw_ << "\n";
  g << "[*] time unit = 1 cycle; recorded cycles " << r0 << " to " << r1 << "; view " << t0
    << " to " << t1 << "\n";
  g << "[dumpfile] \"" << vcd_name << "\"\n";
  g << "[timestart] " << t0 << "\n";
  g << "[size] " << kWidth << " " << kHeight << "\n[pos] -1 -1\n";
  // Zoom, the primary marker, then the named markers A..Z: A at the followed packet's
  // injection, B at its delivery.
  g << "*" << std::fixed << zoom << " " << marker;
  for (int m = 0; m < 26; ++m) {
    const Cycle at = !followed ? kNever : m == 0 ? fo.injected : m == 1 ? fo.delivered : kNever;
    if (at != kNever)
      g << " " << at;
    else
      g << " -1";
  }
  g << "\n[sst_expanded] 0\n[signals_width] " << names_px << "\n";
  // Trace flags: 0x22 hexadecimal, 0x24 decimal, 0x424 signed decimal, 0x28 binary (one bit),
  // all right-justified; groups: 0x800200 begin, 0xc00200 begin closed, 0x1000200 end,
  // 0x1401200 end closed.
  const char *kHex = "@22", *kDec = "@24", *kSigned = "@424", *kBit = "@28";
  auto sig = [&](const char* fmt, const std::string& s, int w) {
    g << fmt << "\n" << s;
    if (w > 1) g << "[" << (w - 1) << ":0]";
    g << "\n";
  };
  auto open = [&](const std::string& n, bool closed) {
    g << (closed ? "@c00200" : "@800200") << "\n-" << n << "\n";
  };
  auto close = [&](const std::string& n, bool closed) {
    g << (closed ? "@1401200" : "@1000200") << "\n-" << n << "\n";
  };
  auto carried = [&](const std::string& s) {
    sig(kDec, s + "pkt", 64);
    sig(kSigned, s + "src", 32);
    sig(kSigned, s + "dst", 32);
  };
  for (const std::string& text : legend) g << "@200\n-" << text << "\n";
  if (fo.pkt) {
    // The followed packet: its id and stage, then the markers of the NIs and routers it went
    // through, in the order it reached them (source NI, routers, destination NI).
    open("follow", false);
    sig(kDec, "switchyard.follow.pkt", 64);
    sig(kDec, "switchyard.follow.stage", 3);
    std::vector<std::pair<std::pair<Cycle, int>, std::string>> on;
    for (std::size_t k = 0; k < traced_nis_.size(); ++k)
      if (ni_follow_first_[k] != kNever)
        on.push_back(
            {{ni_follow_first_[k], traced_nis_[k]->node() == fo.src ? 0 : 2}, nis_names_[k]});
    for (std::size_t i = 0; i < routers_.size(); ++i)
      if (router_follow_first_[i] != kNever)
        on.push_back({{router_follow_first_[i], 1}, routers_[i]});
    std::stable_sort(on.begin(), on.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // (Each under an alias that names its NI or router, ni0_follow: GTKWave shows only the part
    // of a name, or of an alias, after its last dot, and all of them end in "follow".)
    for (const auto& e : on)
      g << kBit << "\n+{" << e.second << "_follow} switchyard." << e.second << ".follow\n";
    close("follow", false);
  }
  // Per traced router: its node's NI (injection queue), then the router's summary, both open.
  for (std::size_t i = 0; i < routers_.size(); ++i) {
    const std::string& rn = routers_[i];
    for (std::size_t k = 0; k < traced_nis_.size(); ++k) {
      if (traced_nis_[k]->router() != traced_[i]) continue;
      const std::string sn = "switchyard." + nis_names_[k] + ".";
      open(nis_names_[k], false);
      sig(kDec, sn + "queued", 16);
      sig(kDec, sn + "queued_flits", 32);
      sig(kDec, sn + "head_pkt", 64);
      sig(kDec, sn + "rx_pkt", 64);
      if (fo.pkt) sig(kBit, sn + "follow", 1);
      close(nis_names_[k], false);
    }
    const std::string sp = "switchyard." + rn + ".";
    open(rn, false);
    sig(kDec, sp + "buffered", 16);
    if (i < router_values_.size())
      for (const std::string& v : router_values_[i]) sig(kDec, sp + v, 32);
    if (fo.pkt) sig(kBit, sp + "follow", 1);
    for (int p = 0; p < P; ++p) sig(kBit, sp + "busy_" + outs_[p], 1);
    for (int p = 0; p < I; ++p) sig(kBit, sp + "busy_" + ins_[p], 1);
    close(rn, false);
  }
  for (std::size_t i = 0; i < routers_.size(); ++i) {
    const std::string& rn = routers_[i];
    const bool req = requests_[i];
    const std::string sp = "switchyard." + rn + ".";
    open(rn + " ports", true);
    sig(kHex, sp + "out_busy", P);
    sig(kHex, sp + "in_busy", I);
    for (int p = 0; p < I; ++p) {
      const std::string s = sp + ins_[p] + ".";
      open(rn + " " + ins_[p], true);
      sig(kBit, s + "valid", 1);
      carried(s);
      if (!oq_) sig(kDec, s + "vc", 8);
      sig(kBit, s + "head", 1);
      sig(kBit, s + "tail", 1);
      if (!oq_) {
        for (int v = 0; v < vcs_; ++v) sig(kDec, s + "occ" + std::to_string(v), 16);
        if (req) sig(kHex, s + "vc_req", vcs_);
        sig(kHex, s + "vc_gnt", vcs_);
      }
      close(rn + " " + ins_[p], true);
    }
    for (int p = 0; p < P; ++p) {
      const std::string s = sp + outs_[p] + ".";
      open(rn + " " + outs_[p], true);
      carried(s);
      if (oq_) {
        sig(kDec, s + "queued", 16);
      } else {
        if (req) sig(kHex, s + "sw_req", I);
        sig(kHex, s + "sw_gnt", I);
      }
      sig(kHex, s + "xbar", I);
      if (!oq_)
        for (int v = 0; v < vcs_; ++v) sig(kDec, s + "credit" + std::to_string(v), 16);
      close(rn + " " + outs_[p], true);
    }
    close(rn + " ports", true);
  }
}

}  // namespace sy
