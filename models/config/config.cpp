#include "config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "base/json.hpp"
#include "schemes/circuit/circuit_schedule.hpp"

namespace sy {
namespace {

// Where a node came from: "file:line:col", or "--set" for a value given on the command line.
std::string where(const std::string& source, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.line < 0) return "--set";
  return source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

[[noreturn]] void fail(const std::string& source, const YAML::Node& n, const std::string& path,
                       const std::string& msg) {
  throw ConfigError(where(source, n) + ": " + path + ": " + msg);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// A YAML mapping being read: every key must be taken, or finish() reports it as unknown.
class Section {
 public:
  Section(const YAML::Node& node, std::string path, const std::string& source)
      : node_(node), path_(std::move(path)), source_(source) {
    if (node_ && node_.IsNull()) node_ = YAML::Node(YAML::NodeType::Undefined);
    if (node_ && !node_.IsMap()) fail(source_, node_, path_, "expected a mapping of keys");
  }
  bool has(const char* k) const { return node_ && node_.IsMap() && node_[k]; }
  std::string path(const char* k) const { return path_.empty() ? k : path_ + "." + k; }
  // The value under k, or an undefined node when the key is absent.
  YAML::Node raw(const char* k) {
    taken_.insert(k);
    if (has(k)) {
      YAML::Node n = node_[k];
      if (n.IsNull()) fail(source_, n, path(k), "needs a value");
      return n;
    }
    return YAML::Node(YAML::NodeType::Undefined);
  }
  std::int64_t integer(const char* k, std::int64_t def, std::int64_t lo, std::int64_t hi) {
    YAML::Node n = raw(k);
    if (!n) return def;
    return as_int(n, path(k), lo, hi);
  }
  double real(const char* k, double def, double lo, double hi) {
    YAML::Node n = raw(k);
    if (!n) return def;
    return as_real(n, path(k), lo, hi);
  }
  bool boolean(const char* k, bool def) {
    YAML::Node n = raw(k);
    if (!n) return def;
    bool b;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, b))
      fail(source_, n, path(k), "expected true or false");
    return b;
  }
  std::string text(const char* k, const std::string& def) {
    YAML::Node n = raw(k);
    if (!n) return def;
    if (!n.IsScalar()) fail(source_, n, path(k), "expected a string");
    return n.Scalar();
  }
  template <class E>
  E choice(const char* k, E def, const std::vector<std::pair<std::string, E>>& options) {
    YAML::Node n = raw(k);
    if (!n) return def;
    std::vector<std::string> names;
    for (const auto& o : options) {
      if (n.IsScalar() && n.Scalar() == o.first) return o.second;
      names.push_back(o.first);
    }
    fail(source_, n, path(k),
         "unknown value '" + (n.IsScalar() ? n.Scalar() : std::string("<non-scalar>")) +
             "' (expected one of: " + join(names) + ")");
  }
  std::vector<int> int_list(const char* k, std::vector<int> def, int lo, int hi) {
    YAML::Node n = raw(k);
    if (!n) return def;
    if (!n.IsSequence()) fail(source_, n, path(k), "expected a list of integers");
    std::vector<int> v;
    for (std::size_t i = 0; i < n.size(); ++i)
      v.push_back(static_cast<int>(as_int(n[i], path(k) + "[" + std::to_string(i) + "]", lo, hi)));
    return v;
  }
  Section sub(const char* k) { return Section(raw(k), path(k), source_); }
  void finish() const {
    if (!node_) return;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      const std::string k = it->first.as<std::string>();
      if (!taken_.count(k)) {
        std::vector<std::string> known(taken_.begin(), taken_.end());
        fail(source_, it->first, path(k.c_str()), "unknown key (known here: " + join(known) + ")");
      }
    }
  }
  std::int64_t as_int(const YAML::Node& n, const std::string& p, std::int64_t lo,
                      std::int64_t hi) const {
    long long v;
    if (!n.IsScalar() || !YAML::convert<long long>::decode(n, v))
      fail(source_, n, p, "expected an integer, got '" + (n.IsScalar() ? n.Scalar() : "?") + "'");
    if (v < lo || v > hi)
      fail(source_, n, p,
           "value " + std::to_string(v) + " out of range [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "]");
    return v;
  }
  double as_real(const YAML::Node& n, const std::string& p, double lo, double hi) const {
    double v;
    if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v))
      fail(source_, n, p, "expected a number, got '" + (n.IsScalar() ? n.Scalar() : "?") + "'");
    if (v < lo || v > hi)
      fail(source_, n, p,
           "value " + Json::number(v) + " out of range [" + Json::number(lo) + ", " +
               Json::number(hi) + "]");
    return v;
  }
  const YAML::Node& node() const { return node_; }
  const std::string& source() const { return source_; }

 private:
  YAML::Node node_;
  std::string path_;
  const std::string& source_;
  std::set<std::string> taken_;
};

constexpr std::int64_t kMaxI = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxCycles = std::int64_t{1} << 50;

// A copy of n built without source marks, so errors in a --set value are reported as "--set".
YAML::Node without_marks(const YAML::Node& n) {
  if (n.IsScalar()) return YAML::Node(n.Scalar());
  if (n.IsSequence()) {
    YAML::Node s(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < n.size(); ++i) s.push_back(without_marks(n[i]));
    return s;
  }
  if (n.IsMap()) {
    YAML::Node m(YAML::NodeType::Map);
    for (auto it = n.begin(); it != n.end(); ++it)
      m[it->first.as<std::string>()] = without_marks(it->second);
    return m;
  }
  return YAML::Node(YAML::NodeType::Null);
}

void apply_override(YAML::Node& root, const std::string& ov) {
  const auto eq = ov.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + ov + ": expected key.path=value");
  const std::string keypath = ov.substr(0, eq), value = ov.substr(eq + 1);
  std::vector<std::string> parts;
  std::stringstream ss(keypath);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw ConfigError("--set " + ov + ": empty key in path");
    parts.push_back(p);
  }
  YAML::Node v;
  try {
    v = without_marks(YAML::Load(value));
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + ov + ": cannot parse value: " + e.msg);
  }
  // Walk with fresh handles (yaml-cpp node assignment rebinds, so recurse by copy).
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node cur = chain.back();
    if (cur.IsDefined() && !cur.IsNull() && !cur.IsMap())
      throw ConfigError("--set " + ov + ": '" + (i ? parts[i - 1] : std::string("<top>")) +
                        "' is not a mapping");
    YAML::Node next = cur[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next = cur[parts[i]];
    }
    chain.push_back(next);
  }
  YAML::Node last = chain.back();
  if (!last.IsMap() && last.IsDefined() && !last.IsNull())
    throw ConfigError("--set " + ov + ": parent of '" + parts.back() + "' is not a mapping");
  last[parts.back()] = v;
}

Topology::Kind parse_topology(Section& s, TopologyConfig& t) {
  t.kind = s.choice<Topology::Kind>("type", Topology::Kind::Torus,
                                    {{"torus", Topology::Kind::Torus},
                                     {"mesh", Topology::Kind::Mesh},
                                     {"hypercube", Topology::Kind::Hypercube}});
  if (t.kind == Topology::Kind::Hypercube) {
    const int d = static_cast<int>(s.integer("dim", 6, 1, 20));
    if (s.has("dims"))
      fail(s.source(), s.raw("dims"), s.path("dims"), "a hypercube takes 'dim', not 'dims'");
    t.dims.assign(d, 2);
  } else {
    if (s.has("dim"))
      fail(s.source(), s.raw("dim"), s.path("dim"),
           "a torus or mesh takes 'dims: [n1, ..., nd]', not 'dim'");
    t.dims = s.int_list("dims", {8, 8}, 1, 1 << 16);
    if (t.dims.empty()) fail(s.source(), s.raw("dims"), s.path("dims"), "needs at least one size");
    long long n = 1;
    for (int x : t.dims) n *= x;
    if (n > (1 << 20)) fail(s.source(), s.raw("dims"), s.path("dims"), "more than 2^20 nodes");
  }
  s.finish();
  return t.kind;
}

void read_trace_csv(const std::string& file, const std::string& base_dir, Section& s,
                    const YAML::Node& where_node, std::vector<TraceMessage>& out) {
  std::string path = file;
  if (!path.empty() && path[0] != '/' && !base_dir.empty()) path = base_dir + "/" + path;
  std::ifstream in(path);
  if (!in) fail(s.source(), where_node, s.path("file"), "cannot open trace file '" + path + "'");
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    if (lineno == 1 && line.find_first_not_of("0123456789, \t\r") != std::string::npos)
      continue;  // header row
    TraceMessage m{0, 0, 0, 0, 0};
    long long f[5] = {0, 0, 0, 0, 0};
    int nf = 0;
    std::stringstream ls(line);
    for (std::string cell; std::getline(ls, cell, ',') && nf < 6; ++nf) {
      try {
        std::size_t used = 0;
        if (nf < 5) f[nf] = std::stoll(cell, &used);
      } catch (...) {
        throw ConfigError(path + ":" + std::to_string(lineno) + ": not a number: '" + cell + "'");
      }
    }
    if (nf < 4 || nf > 5)
      throw ConfigError(path + ":" + std::to_string(lineno) +
                        ": expected time,src,dst,flits[,priority]");
    m.time = static_cast<std::uint64_t>(std::max(0LL, f[0]));
    m.src = static_cast<int>(f[1]);
    m.dst = static_cast<int>(f[2]);
    m.flits = static_cast<int>(f[3]);
    m.priority = static_cast<int>(f[4]);
    if (f[0] < 0 || m.flits < 1)
      throw ConfigError(path + ":" + std::to_string(lineno) + ": time >= 0 and flits >= 1 needed");
    out.push_back(m);
  }
}

}  // namespace

Config parse_config(const std::string& text, const std::string& source,
                    const std::vector<std::string>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": YAML syntax error: " + e.msg);
  }
  if (!root || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  for (const auto& ov : overrides) apply_override(root, ov);

  Config c;
  c.source = source;
  Section top(root, "", c.source);
  c.name = top.text("name", "run");

  Section ts = top.sub("topology");
  parse_topology(ts, c.topology);
  const Topology topo = c.topology.make();
  const int N = topo.num_nodes();

  Section rs = top.sub("router");
  const bool buffering_given = rs.has("buffering");
  c.router.buffering = rs.choice<Buffering>("buffering", Buffering::InputVc,
                                            {{"input_vc", Buffering::InputVc},
                                             {"output_queued", Buffering::OutputQueued},
                                             {"circuit", Buffering::Circuit}});
  c.router.switching = rs.choice<Switching>("switching", Switching::Wormhole,
                                            {{"wormhole", Switching::Wormhole},
                                             {"virtual_cut_through", Switching::VirtualCutThrough},
                                             {"store_and_forward", Switching::StoreAndForward},
                                             {"direct_connect", Switching::DirectConnect}});
  // Circuit switching: the crossbar holds paths, nothing is buffered. direct_connect implies it;
  // buffering: circuit with switching: wormhole is the wormhole flavour (no acknowledgment).
  if (c.router.switching == Switching::DirectConnect) {
    if (buffering_given && c.router.buffering != Buffering::Circuit)
      fail(c.source, rs.raw("buffering"), rs.path("buffering"),
           "direct_connect is circuit switching: use buffering: circuit (or leave it out)");
    c.router.buffering = Buffering::Circuit;
  }
  if (c.router.buffering == Buffering::Circuit && c.router.switching != Switching::DirectConnect &&
      c.router.switching != Switching::Wormhole)
    fail(c.source, rs.raw("switching"), rs.path("switching"),
         "circuits are direct_connect or wormhole");
  c.router.vcs = static_cast<int>(rs.integer("vcs", 2, 1, 32));
  c.router.vc_depth = static_cast<int>(rs.integer("vc_depth", 4, 1, 4096));
  c.router.arbitration = rs.choice<ArbPolicy>(
      "arbitration", ArbPolicy::RoundRobin,
      {{"round_robin", ArbPolicy::RoundRobin}, {"oldest_first", ArbPolicy::OldestFirst}});
  c.router.priority_classes = static_cast<int>(rs.integer("priority_classes", 1, 1, 8));
  rs.finish();

  Section tm = top.sub("timing");
  c.timing.alpha = static_cast<int>(tm.integer("alpha", 0, 0, 1 << 24));
  c.timing.delta = static_cast<int>(tm.integer("delta", 1, 0, 1 << 24));
  c.timing.tau = static_cast<int>(tm.integer("tau", 1, 1, 1 << 16));
  c.timing.ack_per_hop = static_cast<int>(tm.integer("ack_per_hop", 0, 0, 1 << 20));
  tm.finish();

  Section ro = top.sub("routing");
  const std::string algo = ro.text("algorithm", "dimension_order");
  if (algo != "dimension_order")
    fail(c.source, ro.raw("algorithm"), ro.path("algorithm"),
         "unknown value '" + algo + "' (expected one of: dimension_order)");
  c.routing.tie_break = ro.choice<TieBreak>("tie_break", TieBreak::Balanced,
                                            {{"positive", TieBreak::Positive},
                                             {"negative", TieBreak::Negative},
                                             {"balanced", TieBreak::Balanced}});
  ro.finish();

  Section ni = top.sub("network_interface");
  c.interface.flit_bytes = static_cast<int>(ni.integer("flit_bytes", 16, 1, 1 << 20));
  ni.finish();

  Section tr = top.sub("traffic");
  const std::string ttype = tr.text("type", "synthetic");
  if (ttype != "synthetic" && ttype != "trace" && ttype != "none")
    fail(c.source, tr.raw("type"), tr.path("type"),
         "unknown value '" + ttype + "' (expected one of: synthetic, trace, none)");
  TrafficConfig& t = c.traffic;
  t.none = ttype == "none";
  t.trace = ttype == "trace" || t.none;
  t.max_packet_flits = static_cast<int>(tr.integer("max_packet_flits", 0, 0, 1 << 20));
  t.priority = static_cast<int>(tr.integer("priority", 0, 0, c.router.priority_classes - 1));
  Section bc = tr.sub("broadcast");
  BroadcastConfig& b = t.broadcast;
  b.scheme = bc.choice<BroadcastScheme>("scheme", BroadcastScheme::None,
                                        {{"none", BroadcastScheme::None},
                                         {"priority_star", BroadcastScheme::PriorityStar},
                                         {"fcfs_direct", BroadcastScheme::FcfsDirect}});
  b.balanced = bc.choice<bool>("ending", true, {{"balanced", true}, {"uniform", false}});
  b.classes = static_cast<int>(bc.integer("classes", 2, 2, 3));
  if (bc.has("rate") && !t.trace)
    b.rate = bc.real("rate", 0.0, 0.0, 16.0);
  else if (bc.has("rate"))
    fail(c.source, bc.raw("rate"), bc.path("rate"),
         "a broadcast rate needs traffic type synthetic");
  bc.finish();
  if (b.enabled()) {
    if (c.topology.kind == Topology::Kind::Mesh)
      fail(c.source, bc.raw("scheme"), bc.path("scheme"),
           "STAR broadcast trees are defined on tori and hypercubes, not meshes");
    const int need = b.scheme == BroadcastScheme::FcfsDirect ? 1 : b.classes;
    if (c.router.priority_classes < need)
      fail(c.source, bc.raw("scheme"), bc.path("scheme"),
           "needs router.priority_classes >= " + std::to_string(need));
  }
  if (t.none) {
    // Driven from outside through the NIs' target sockets: nothing more to read.
  } else if (t.trace) {
    YAML::Node msgs = tr.raw("messages");
    if (msgs) {
      if (!msgs.IsSequence()) fail(c.source, msgs, tr.path("messages"), "expected a list");
      for (std::size_t i = 0; i < msgs.size(); ++i) {
        Section m(msgs[i], tr.path("messages") + "[" + std::to_string(i) + "]", c.source);
        TraceMessage tmsg;
        tmsg.time = static_cast<std::uint64_t>(m.integer("time", 0, 0, kMaxCycles));
        tmsg.src = static_cast<int>(m.integer("src", 0, 0, N - 1));
        tmsg.dst = static_cast<int>(m.integer("dst", 0, 0, N - 1));
        tmsg.flits = static_cast<int>(m.integer("flits", 1, 1, 1 << 20));
        tmsg.priority =
            static_cast<int>(m.integer("priority", t.priority, 0, c.router.priority_classes - 1));
        m.finish();
        t.messages.push_back(tmsg);
      }
    }
    t.trace_file = tr.text("file", "");
    if (!t.trace_file.empty()) {
      const auto slash = c.source.rfind('/');
      const std::string dir = slash == std::string::npos ? "" : c.source.substr(0, slash);
      std::vector<TraceMessage> from_file;
      read_trace_csv(t.trace_file, dir, tr, tr.raw("file"), from_file);
      for (auto& m : from_file) {
        if (m.src < 0 || m.src >= N || m.dst < 0 || m.dst >= N || m.priority < 0 ||
            m.priority >= c.router.priority_classes)
          throw ConfigError(t.trace_file + ": message src/dst/priority out of range");
        t.messages.push_back(m);
      }
    }
    if (t.messages.empty())
      fail(c.source, tr.node(), tr.path("messages"), "a trace needs 'messages' or 'file'");
    std::stable_sort(t.messages.begin(), t.messages.end(),
                     [](const TraceMessage& a, const TraceMessage& b) { return a.time < b.time; });
  } else {
    t.process =
        tr.choice<Process>("process", Process::Bernoulli,
                           {{"bernoulli", Process::Bernoulli}, {"poisson", Process::Poisson}});
    t.packet_flits = static_cast<int>(tr.integer("packet_flits", 8, 1, 1 << 16));
    t.rate_in_flits = tr.choice<bool>("rate_unit", true, {{"flits", true}, {"packets", false}});
    t.rate = tr.real("rate", 0.1, 0.0, 1e6);
    Section ld = tr.sub("load");
    if (ld.has("rho") || ld.has("broadcast_share")) {
      if (tr.has("rate"))
        fail(c.source, tr.raw("rate"), tr.path("rate"), "give either rate or load, not both");
      if (bc.has("rate"))
        fail(c.source, bc.raw("rate"), bc.path("rate"),
             "give either broadcast.rate or load, not both");
      t.load_rho = ld.real("rho", 0.5, 0.0, 16.0);
      t.broadcast_share = ld.real("broadcast_share", b.enabled() ? 1.0 : 0.0, 0.0, 1.0);
      if (t.broadcast_share > 0 && !b.enabled())
        fail(c.source, ld.raw("broadcast_share"), ld.path("broadcast_share"),
             "a broadcast share needs traffic.broadcast.scheme");
      // rho = lambda_B (N-1)/d_ave + lambda_R D_ave/d_ave, rates per packet time (L*tau cycles).
      const double d_ave = topo.average_degree();
      const double D = topo.average_distance(false);
      const double packet_time = static_cast<double>(t.packet_flits) * c.timing.tau;
      const double lb = N > 1 ? t.broadcast_share * t.load_rho * d_ave / (N - 1) : 0.0;
      const double lr = D > 0 ? (1 - t.broadcast_share) * t.load_rho * d_ave / D : 0.0;
      b.rate = lb / packet_time;
      t.rate = lr / packet_time;
      t.rate_in_flits = false;
      if (t.process != Process::Poisson && (b.rate > 1.0 || t.rate > 1.0))
        fail(c.source, ld.raw("rho"), ld.path("rho"),
             "the rates exceed one packet per cycle: use process: poisson");
    }
    ld.finish();
    if (t.packets_per_cycle() > 16.0)
      fail(c.source, tr.raw("rate"), tr.path("rate"),
           "more than 16 packets per node per cycle: far beyond any network's capacity");
    if (t.process == Process::Bernoulli && t.packets_per_cycle() > 1.0)
      fail(c.source, tr.raw("rate"), tr.path("rate"),
           "a Bernoulli source makes at most one packet per cycle (use process: poisson)");
    t.pattern = tr.choice<Pattern>("pattern", Pattern::Uniform,
                                   {{"uniform", Pattern::Uniform},
                                    {"transpose", Pattern::Transpose},
                                    {"bit_complement", Pattern::BitComplement},
                                    {"hotspot", Pattern::Hotspot},
                                    {"bit_flip", Pattern::BitFlip}});
    t.exclude_self = tr.boolean("exclude_self", true);
    if (t.load_rho >= 0 && (t.pattern != Pattern::Uniform || !t.exclude_self))
      fail(c.source, tr.raw("pattern"), tr.path("pattern"),
           "load: {rho} assumes uniform unicast destinations other than the source");
    Section hs = tr.sub("hotspot");
    t.hotspot_nodes = hs.int_list("nodes", {0}, 0, N - 1);
    t.hotspot_fraction = hs.real("fraction", 0.1, 0.0, 1.0);
    hs.finish();
    if (t.pattern == Pattern::Hotspot && t.hotspot_nodes.empty())
      fail(c.source, hs.node(), "traffic.hotspot.nodes", "needs at least one node");
    t.bit_flip_probability = tr.real("bit_flip_probability", 0.5, 0.0, 1.0);
    if (t.pattern == Pattern::BitFlip)
      for (int n : c.topology.dims)
        if (n != 2)
          fail(c.source, tr.raw("pattern"), tr.path("pattern"),
               "bit_flip needs a hypercube (every dimension of size 2)");
    if (t.pattern == Pattern::Transpose) {
      const auto& d = c.topology.dims;
      for (std::size_t i = 0; i < d.size(); ++i)
        if (d[i] != d[d.size() - 1 - i])
          fail(c.source, tr.raw("pattern"), tr.path("pattern"),
               "transpose needs dims that read the same backwards (n_i = n_(d-1-i))");
    }
    if (t.exclude_self && N == 1 && t.pattern == Pattern::Uniform)
      fail(c.source, tr.raw("exclude_self"), tr.path("exclude_self"),
           "a 1-node network has no other node to send to");
  }
  tr.finish();

  Section si = top.sub("simulation");
  SimulationConfig& s = c.simulation;
  s.warmup = static_cast<std::uint64_t>(si.integer("warmup", 1000, 0, kMaxCycles));
  s.measure = static_cast<std::uint64_t>(si.integer("measure", 10000, 1, kMaxCycles));
  s.drain_limit = static_cast<std::uint64_t>(si.integer("drain_limit", 50000, 1, kMaxCycles));
  s.deadlock_cycles =
      static_cast<std::uint64_t>(si.integer("deadlock_cycles", 20000, 1, kMaxCycles));
  s.seed = static_cast<std::uint64_t>(si.integer("seed", 1, 0, std::int64_t{1} << 62));
  s.batches = static_cast<int>(si.integer("batches", 20, 2, 1000));
  si.finish();

  Section wv = top.sub("waves");
  WavesConfig& w = c.waves;
  w.enable = wv.boolean("enable", false);
  w.file = wv.text("file", w.file);
  if (w.file.empty()) fail(c.source, wv.raw("file"), wv.path("file"), "needs a file name");
  {
    YAML::Node rn = wv.raw("routers");
    if (rn && !(rn.IsScalar() && rn.Scalar() == "all"))
      w.routers = wv.int_list("routers", {}, 0, N - 1);
  }
  w.from_cycle = static_cast<std::uint64_t>(wv.integer("from_cycle", 0, 0, kMaxCycles));
  w.to_cycle = static_cast<std::uint64_t>(wv.integer("to_cycle", kMaxCycles, 0, kMaxCycles));
  if (w.to_cycle < w.from_cycle)
    fail(c.source, wv.raw("to_cycle"), wv.path("to_cycle"), "is before from_cycle");
  wv.finish();

  Section sc = top.sub("schedule");
  ScheduleConfig& sch = c.schedule;
  if (sc.has("algorithm")) {
    const std::string alg = sc.text("algorithm", "");
    static const char* const kAlgs[] = {"tiling", "divide_and_conquer", "h_trees",
                                        "store_and_forward_trees"};
    bool known = false;
    for (const char* a : kAlgs) known |= alg == a;
    if (!known)
      fail(c.source, sc.raw("algorithm"), sc.path("algorithm"),
           "unknown value '" + alg +
               "' (expected one of: tiling, divide_and_conquer, h_trees, store_and_forward_trees)");
    sch.algorithm = alg;
    sch.message_flits = static_cast<int>(sc.integer("message_flits", 1, 1, 1 << 24));
    sch.packet_flits = static_cast<int>(sc.integer("packet_flits", 0, 0, 1 << 24));
    sch.root = static_cast<int>(sc.integer("root", 0, 0, N - 1));
    sch.variant = sc.choice<std::string>("variant", "slanting",
                                         {{"slanting", "slanting"},
                                          {"boss_blocks", "boss_blocks"},
                                          {"blocks_first", "blocks_first"}});
    sch.barrier = sc.boolean("barrier", false);
    if (c.topology.kind != Topology::Kind::Torus || c.topology.dims.size() != 2)
      fail(c.source, sc.raw("algorithm"), sc.path("algorithm"),
           "the circuit-switched broadcast schedules are for 2-D tori");
    if (!t.none)
      fail(c.source, sc.raw("algorithm"), sc.path("algorithm"),
           "a schedule drives the network itself: set traffic: {type: none}");
    if (c.router.buffering != Buffering::Circuit)
      fail(c.source, sc.raw("algorithm"), sc.path("algorithm"),
           "the schedules send along source routes of circuits: set router.switching: "
           "direct_connect (or buffering: circuit)");
    // The construction must exist for this size (the generators say which sizes they have).
    try {
      CircuitSchedule probe;
      const int L = sch.message_flits;
      const int B = sch.packet_flits > 0 ? std::min(sch.packet_flits, L) : L;
      const int parts = (L + B - 1) / B;
      if (alg == "tiling")
        probe = tiling(c.topology.dims, sch.root, L);
      else if (alg == "divide_and_conquer")
        probe = divide_and_conquer(c.topology.dims, sch.root, parts, L);
      else if (alg == "h_trees")
        probe = h_trees(c.topology.dims, sch.root, parts, L);
      else
        probe = store_and_forward_trees(c.topology.dims, sch.root, parts, L);
    } catch (const std::invalid_argument& e) {
      fail(c.source, sc.raw("algorithm"), sc.path("algorithm"), e.what());
    }
  }
  sc.finish();
  top.finish();

  // Cross-key checks.
  const RouterConfig& r = c.router;
  const int max_pkt = t.trace ? (t.max_packet_flits ? t.max_packet_flits : [&] {
    int m = 1;
    for (auto& x : t.messages) m = std::max(m, x.flits);
    return m;
  }())
                              : t.packet_flits;
  if (r.buffering == Buffering::InputVc && r.switching != Switching::Wormhole &&
      r.vc_depth < max_pkt)
    fail(c.source, rs.node() ? rs.node() : root, "router.vc_depth",
         "virtual cut-through and store-and-forward need vc_depth >= the largest packet (" +
             std::to_string(max_pkt) + " flits)");
  if (t.broadcast.enabled() && r.buffering == Buffering::InputVc) {
    const bool unicast = t.trace || t.packets_per_cycle() > 0;
    if (unicast && r.vcs < 3)
      c.warnings.push_back("broadcast and unicast share " + std::to_string(r.vcs) +
                           " VCs: the network may deadlock (3 or more VCs keep them apart)");
    const int vb = unicast && r.vcs >= 3 ? r.vcs - 2 : r.vcs;
    if (vb < 4)
      c.warnings.push_back("broadcast copies get " + std::to_string(vb) +
                           " VCs: 4 or more give them dateline classes inside each ring; with "
                           "fewer the network may deadlock");
  }
  bool rings = false;
  for (int d = 0; d < topo.num_dims(); ++d) rings |= topo.wraps(d);
  if (rings && r.buffering == Buffering::InputVc && r.vcs < 2)
    c.warnings.push_back(
        "router.vcs = 1 on a torus: no dateline VC classes, the network may deadlock "
        "(the deadlock watchdog will stop the run)");
  return c;
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open config file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path, overrides);
}

const char* to_string(Buffering b) {
  return b == Buffering::InputVc        ? "input_vc"
         : b == Buffering::OutputQueued ? "output_queued"
                                        : "circuit";
}
const char* to_string(Switching s) {
  switch (s) {
    case Switching::Wormhole:
      return "wormhole";
    case Switching::VirtualCutThrough:
      return "virtual_cut_through";
    case Switching::StoreAndForward:
      return "store_and_forward";
    case Switching::DirectConnect:
      return "direct_connect";
  }
  return "?";
}
const char* to_string(ArbPolicy a) {
  return a == ArbPolicy::RoundRobin ? "round_robin" : "oldest_first";
}
const char* to_string(TieBreak t) {
  return t == TieBreak::Positive ? "positive" : t == TieBreak::Negative ? "negative" : "balanced";
}
const char* to_string(BroadcastScheme b) {
  switch (b) {
    case BroadcastScheme::None:
      return "none";
    case BroadcastScheme::PriorityStar:
      return "priority_star";
    case BroadcastScheme::FcfsDirect:
      return "fcfs_direct";
  }
  return "?";
}
const char* to_string(Process p) {
  return p == Process::Bernoulli ? "bernoulli" : "poisson";
}
const char* to_string(Pattern p) {
  switch (p) {
    case Pattern::Uniform:
      return "uniform";
    case Pattern::Transpose:
      return "transpose";
    case Pattern::BitComplement:
      return "bit_complement";
    case Pattern::Hotspot:
      return "hotspot";
    case Pattern::BitFlip:
      return "bit_flip";
  }
  return "?";
}

std::string config_to_json(const Config& c, int indent) {
  Json j(indent);
  j.open();
  j.kv("name", c.name);
  j.open("topology").kv("type", c.topology.make().kind_name());
  j.kv_list("dims", c.topology.dims).close();
  j.open("router")
      .kv("buffering", to_string(c.router.buffering))
      .kv("switching", to_string(c.router.switching))
      .kv("vcs", c.router.vcs)
      .kv("vc_depth", c.router.vc_depth)
      .kv("arbitration", to_string(c.router.arbitration))
      .kv("priority_classes", c.router.priority_classes)
      .close();
  j.open("timing")
      .kv("alpha", c.timing.alpha)
      .kv("delta", c.timing.delta)
      .kv("tau", c.timing.tau)
      .kv("ack_per_hop", c.timing.ack_per_hop)
      .close();
  j.open("routing")
      .kv("algorithm", "dimension_order")
      .kv("tie_break", to_string(c.routing.tie_break))
      .close();
  const TrafficConfig& t = c.traffic;
  j.open("network_interface").kv("flit_bytes", c.interface.flit_bytes).close();
  j.open("traffic").kv("type", t.none ? "none" : t.trace ? "trace" : "synthetic");
  j.kv("max_packet_flits", t.max_packet_flits).kv("priority", t.priority);
  j.open("broadcast")
      .kv("scheme", to_string(t.broadcast.scheme))
      .kv("ending", t.broadcast.balanced ? "balanced" : "uniform")
      .kv("classes", t.broadcast.classes)
      .kv("rate", t.broadcast.rate)
      .close();
  if (t.none) {
  } else if (t.trace) {
    j.kv("messages", static_cast<int>(t.messages.size()));
    if (!t.trace_file.empty()) j.kv("file", t.trace_file);
  } else {
    j.kv("process", to_string(t.process))
        .kv("rate", t.rate)
        .kv("rate_unit", t.rate_in_flits ? "flits" : "packets")
        .kv("packet_flits", t.packet_flits)
        .kv("pattern", to_string(t.pattern))
        .kv("exclude_self", t.exclude_self);
    j.open("hotspot").kv_list("nodes", t.hotspot_nodes).kv("fraction", t.hotspot_fraction).close();
    j.kv("bit_flip_probability", t.bit_flip_probability);
    if (t.load_rho >= 0)
      j.open("load").kv("rho", t.load_rho).kv("broadcast_share", t.broadcast_share).close();
  }
  j.close();
  const SimulationConfig& s = c.simulation;
  j.open("simulation")
      .kv("warmup", s.warmup)
      .kv("measure", s.measure)
      .kv("drain_limit", s.drain_limit)
      .kv("deadlock_cycles", s.deadlock_cycles)
      .kv("seed", s.seed)
      .kv("batches", s.batches)
      .close();
  if (c.schedule.enabled())
    j.open("schedule")
        .kv("algorithm", c.schedule.algorithm)
        .kv("message_flits", c.schedule.message_flits)
        .kv("packet_flits", c.schedule.packet_flits)
        .kv("root", c.schedule.root)
        .kv("variant", c.schedule.variant)
        .kv("barrier", c.schedule.barrier)
        .close();
  const WavesConfig& w = c.waves;
  j.open("waves").kv("enable", w.enable).kv("file", w.file);
  if (w.routers.empty())
    j.kv("routers", "all");
  else
    j.kv_list("routers", w.routers);
  j.kv("from_cycle", w.from_cycle).kv("to_cycle", w.to_cycle).close();
  j.close();
  return j.str();
}

}  // namespace sy
