// traffic: {type: synthetic | trace | none, ...}: sources, patterns, load, broadcast, traces
// (inline messages or a CSV file).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "switchyard/config/section.hpp"
#include "switchyard/sim/analysis.hpp"

namespace sy {
namespace config_detail {
namespace {

// traffic.packet_flits's default, as `switchyard keys` writes it (8, or 1 for a total exchange).
constexpr const char* kPacketFlitsDefault = "8 (type total_exchange: 1)";

// Lines of a CSV file read with caps: a line longer than kMaxLineBytes or a file longer than
// kMaxFileBytes is an error (a device or a binary file fails at once instead of being read whole).
constexpr std::size_t kMaxLineBytes = 4096;
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 30;

class CsvLines {
 public:
  explicit CsvLines(const std::string& path) : path_(path), why_(unreadable_file(path)) {
    if (why_.empty()) in_.open(path, std::ios::binary);
    if (why_.empty() && !in_) why_ = "cannot be opened";
  }
  bool open() const { return why_.empty(); }
  // Why it cannot be read ("" when it can): "is a directory", "does not exist", ...
  const std::string& why() const { return why_; }
  int lineno() const { return lineno_; }
  // The next line without its end ('\n', "\r\n"); the UTF-8 byte order mark of the first line
  // dropped. False at the end of the file.
  bool next(std::string& line) {
    line.clear();
    std::streambuf* b = in_.rdbuf();
    int ch = b->sbumpc();
    if (ch == std::char_traits<char>::eof()) return false;
    ++lineno_;
    for (; ch != std::char_traits<char>::eof() && ch != '\n'; ch = b->sbumpc()) {
      if (++bytes_ > kMaxFileBytes)
        throw ConfigError(path_ + ": longer than " + std::to_string(kMaxFileBytes >> 20) +
                          " MiB: not a trace or matrix file");
      if (line.size() >= kMaxLineBytes)
        throw ConfigError(path_ + ":" + std::to_string(lineno_) + ": line longer than " +
                          std::to_string(kMaxLineBytes) + " bytes");
      line.push_back(static_cast<char>(ch));
    }
    ++bytes_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lineno_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    return true;
  }

 private:
  std::string path_;
  std::string why_;
  std::ifstream in_;
  int lineno_ = 0;
  std::uint64_t bytes_ = 0;
};

std::string trim(const std::string& x) {
  const auto a = x.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return x.substr(a, x.find_last_not_of(" \t") - a + 1);
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string::size_type at = 0;
  for (;;) {
    const auto comma = line.find(',', at);
    cells.push_back(trim(line.substr(at, comma == std::string::npos ? comma : comma - at)));
    if (comma == std::string::npos) return cells;
    at = comma + 1;
  }
}

// A trace CSV: time,src,dst,flits[,priority] per line, '#' comments and blank lines skipped. The
// first line is a header when its cells are these names (in this order); a line that is neither
// a header nor five (or four) integers in their ranges is an error naming the line and column.
void read_trace_csv(const std::string& file, const std::string& base_dir, Section& s,
                    const YAML::Node& where_node, const Config& c, std::vector<TraceMessage>& out) {
  static const char* kColumns[] = {"time", "src", "dst", "flits", "priority"};
  std::string path = file;
  if (!path.empty() && path[0] != '/' && !base_dir.empty()) path = base_dir + "/" + path;
  CsvLines in(path);
  if (!in.open())
    fail(s.source(), where_node, s.path("file"),
         "cannot read trace file '" + path + "': it " + in.why());
  const std::int64_t N = c.topology.make().num_nodes();
  const std::int64_t lo[5] = {0, 0, 0, 1, 0};
  const std::int64_t hi[5] = {kMaxCycles, N - 1, N - 1, 1 << 20, c.router.priority_classes - 1};
  std::string line;
  bool first = true;
  while (in.next(line)) {
    const std::string at = path + ":" + std::to_string(in.lineno()) + ": ";
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const std::vector<std::string> cells = split_cells(line);
    if (first) {
      first = false;
      bool header = cells.size() == 4 || cells.size() == 5;
      for (std::size_t i = 0; header && i < cells.size(); ++i) {
        std::string name = cells[i];
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        header = name == kColumns[i];
      }
      if (header) continue;
    }
    if (cells.size() != 4 && cells.size() != 5)
      throw ConfigError(at + std::to_string(cells.size()) +
                        " columns, expected time,src,dst,flits[,priority] (a header row must "
                        "name these columns)");
    std::int64_t f[5] = {0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string& cell = cells[i];
      const std::string col = "column " + std::to_string(i + 1) + " (" + kColumns[i] + "): ";
      const char* b = cell.data();
      const char* e = b + cell.size();
      const auto r = std::from_chars(b, e, f[i]);
      if (cell.empty() || r.ec == std::errc::invalid_argument || r.ptr != e)
        throw ConfigError(at + col + "not an integer: '" + cell + "'");
      if (r.ec == std::errc::result_out_of_range || f[i] < lo[i] || f[i] > hi[i])
        throw ConfigError(at + col + "value " + cell + " out of range [" + std::to_string(lo[i]) +
                          ", " + std::to_string(hi[i]) + "]");
    }
    TraceMessage m;
    m.time = static_cast<std::uint64_t>(f[0]);
    m.src = static_cast<int>(f[1]);
    m.dst = static_cast<int>(f[2]);
    m.flits = static_cast<int>(f[3]);
    m.priority = static_cast<int>(f[4]);
    out.push_back(m);
  }
}

// traffic.self: what a packet addressed to its own node does. Only uniform and hotspot draws can
// leave the source out; the other patterns map some nodes onto themselves by definition.
void parse_self(Section& tr, Config& c) {
  TrafficConfig& t = c.traffic;
  if (tr.has("exclude_self"))
    fail(c.source, tr.at("exclude_self"), tr.path("exclude_self"),
         "replaced by 'self: exclude | deliver_locally | through_router'");
  const bool drawn = !t.trace && (t.pattern == Pattern::Uniform || t.pattern == Pattern::Hotspot ||
                                  t.pattern == Pattern::RandomPermutation);
  t.self = tr.choice<SelfTraffic>("self", drawn ? SelfTraffic::Exclude : SelfTraffic::ThroughRouter,
                                  {{"exclude", SelfTraffic::Exclude},
                                   {"deliver_locally", SelfTraffic::DeliverLocally},
                                   {"through_router", SelfTraffic::ThroughRouter}},
                                  "exclude (uniform, hotspot, random_permutation), else "
                                  "through_router");
  if (t.self == SelfTraffic::Exclude && !drawn)
    fail(c.source, tr.at("self"), tr.path("self"),
         t.trace ? "a trace (or type none) names its destinations: use deliver_locally or "
                   "through_router"
                 : std::string(to_string(t.pattern)) +
                       " addresses some packets to their own node by definition: use "
                       "deliver_locally or through_router");
  if (t.self == SelfTraffic::DeliverLocally && c.topology.kind == Topology::Kind::Butterfly)
    fail(c.source, tr.at("self"), tr.path("self"),
         "on a butterfly a packet to its own row crosses the network (n hops) like any other");
  const int N = c.topology.make().num_nodes();
  if (t.self == SelfTraffic::Exclude && N == 1)
    fail(c.source, tr.at("self"), tr.path("self"), "a 1-node network has no other node to send to");
}

// traffic.load: {rho, broadcast_share} sets the unicast and broadcast rates from the throughput
// factor, with the unicast link share of the pattern (sim/analysis.hpp), where it has a closed
// form: uniform, and bit_flip on hypercubes and butterflies. Then the rates' sanity checks.
void parse_load(Section& tr, Config& c) {
  TrafficConfig& t = c.traffic;
  BroadcastConfig& b = t.broadcast;
  Section ld = tr.sub("load");
  const Topology topo = c.topology.make();
  const int N = topo.num_nodes();
  if (ld.has("rho") || ld.has("broadcast_share")) {
    if (tr.has("rate"))
      fail(c.source, tr.at("rate"), tr.path("rate"), "give either rate or load, not both");
    const YAML::Node bc = tr.has("broadcast") ? tr.node()["broadcast"] : YAML::Node();
    if (bc && bc.IsMap() && bc["rate"])
      fail(c.source, bc["rate"], tr.path("broadcast") + ".rate",
           "give either broadcast.rate or load, not both");
    t.load_rho = ld.real("rho", 0.5, 0.0, 16.0);
    t.broadcast_share = ld.real(
        "broadcast_share", {b.enabled() ? 1.0 : 0.0, "1 with broadcast.scheme, else 0"}, 0.0, 1.0);
    if (t.broadcast_share > 0 && !b.enabled())
      fail(c.source, ld.at("broadcast_share"), ld.path("broadcast_share"),
           "a broadcast share needs traffic.broadcast.scheme");
    const double D = pattern_mean_hops(t, topo);
    const bool closed =
        t.pattern == Pattern::BitFlip ||
        (t.pattern == Pattern::Uniform && (topo.indirect() || t.self == SelfTraffic::Exclude));
    if (!closed || D < 0)
      fail(c.source, ld.at("rho"), ld.path("rho"),
           "load: {rho} needs a pattern whose link load has a closed form: uniform (destinations "
           "other than the source on direct networks), or bit_flip");
    // rho = lambda_B (N-1)/d_ave + lambda_R share, rates per packet time (L*tau cycles).
    const double packet_time = static_cast<double>(t.packet_flits) * c.timing.tau;
    const double share = unicast_link_share(t, topo, D);
    const double lb = N > 1 && b.enabled()
                          ? t.broadcast_share * t.load_rho * topo.average_degree() / (N - 1)
                          : 0.0;
    const double lr = share > 0 ? (1 - t.broadcast_share) * t.load_rho / share : 0.0;
    b.rate = lb / packet_time;
    t.rate = lr / packet_time;
    t.rate_in_flits = false;
    if (t.process != Process::Poisson && (b.rate > 1.0 || t.rate > 1.0))
      fail(c.source, ld.at("rho"), ld.path("rho"),
           "the rates exceed one packet per cycle: use process: poisson");
  }
  ld.finish();
  if (t.packets_per_cycle() > 16.0)
    fail(c.source, tr.at("rate"), tr.path("rate"),
         "more than 16 packets per node per cycle: far beyond any network's capacity");
  if (t.process != Process::Poisson && t.packets_per_cycle() > 1.0)
    fail(c.source, tr.at("rate"), tr.path("rate"),
         std::string("a ") + (t.process == Process::OnOff ? "on_off" : "Bernoulli") +
             " source makes at most one packet per cycle (use process: poisson)");
}

}  // namespace

// pattern: matrix: N rows of N rates (row = source, column = destination, in rate_unit per
// cycle), comma separated, '#' comments; the path is relative to the config file. The source's
// total rate is its row sum; `rate` then holds the largest row sum (for the checks on it).
static void read_matrix(Section& tr, Config& c, int N) {
  TrafficConfig& t = c.traffic;
  std::string path = t.matrix_file;
  const auto slash = c.source.rfind('/');
  if (!path.empty() && path[0] != '/' && slash != std::string::npos)
    path = c.source.substr(0, slash) + "/" + path;
  CsvLines in(path);
  if (!in.open())
    fail(c.source, tr.at("matrix"), tr.path("matrix"),
         "cannot read '" + path + "': it " + in.why());
  t.matrix.assign(static_cast<std::size_t>(N) * N, 0.0);
  std::string line;
  int row = 0, lineno = 0;
  while (in.next(line)) {
    lineno = in.lineno();
    if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    if (row >= N)
      throw ConfigError(path + ":" + std::to_string(lineno) + ": more than " + std::to_string(N) +
                        " rows");
    std::stringstream ls(line);
    int col = 0;
    for (std::string cell; std::getline(ls, cell, ','); ++col) {
      double v = 0;
      try {
        std::size_t used = 0;
        v = std::stod(cell, &used);
        if (cell.find_first_not_of(" \t\r", used) != std::string::npos) throw 0;
      } catch (...) {
        throw ConfigError(path + ":" + std::to_string(lineno) + ": not a number: '" + cell + "'");
      }
      if (col >= N || !(v >= 0) || !std::isfinite(v))
        throw ConfigError(path + ":" + std::to_string(lineno) + ": expected " + std::to_string(N) +
                          " rates >= 0 per row");
      t.matrix[static_cast<std::size_t>(row) * N + col] = v;
    }
    if (col != N)
      throw ConfigError(path + ":" + std::to_string(lineno) + ": " + std::to_string(col) +
                        " columns, expected " + std::to_string(N));
    ++row;
  }
  if (row != N)
    throw ConfigError(path + ": " + std::to_string(row) + " rows, expected " + std::to_string(N));
  double most = 0;
  for (int s = 0; s < N; ++s) {
    double sum = 0;
    for (int d = 0; d < N; ++d) sum += t.matrix[static_cast<std::size_t>(s) * N + d];
    most = std::max(most, sum);
  }
  t.rate = most;
}

// traffic.classes: [{name, share, packet_flits, priority}, ...], 2 to 8 classes whose shares
// add up to 1; each class is a source of its own at every node (its own random stream). The
// traffic-wide packet_flits and priority are then per class, and packet_flits holds the longest.
static void parse_classes(Section& tr, Config& c) {
  TrafficConfig& t = c.traffic;
  YAML::Node list = tr.raw("classes", {"list of {name, share, packet_flits, priority}", "[]",
                                       "2 to 8 classes, shares adding up to 1"});
  if (!list) return;
  if (!list.IsSequence() || list.size() < 2 || list.size() > 8)
    fail(c.source, list, tr.path("classes"),
         "expected a list of 2 to 8 classes ({name, share, packet_flits, priority})");
  for (const char* k : {"packet_flits", "priority"})
    if (tr.has(k))
      fail(c.source, tr.at(k), tr.path(k),
           "given per class when traffic.classes is set (traffic.classes[i]." + std::string(k) +
               ")");
  double total = 0;
  int longest = 1;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Section k(list[i], tr.path("classes") + "[" + std::to_string(i) + "]", c.source);
    TrafficClass tc;
    tc.name = k.text("name", "");
    if (tc.name.empty() && !k.has("name")) tc.name = "class" + std::to_string(i);
    if (tc.name.empty() || tc.name.size() > 32 ||
        tc.name.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            std::string::npos)
      fail(c.source, k.at("name"), k.path("name"),
           "a class name is 1 to 32 letters, digits, '_' or '-'");
    tc.share = k.real("share", 0.0, 0.0, 1.0);
    if (!(tc.share > 0))
      fail(c.source, k.at("share"), k.path("share"), "needs a share above 0 (of the rate)");
    tc.packet_flits = static_cast<int>(k.integer("packet_flits", 8, 1, 1 << 16));
    tc.priority = static_cast<int>(k.integer("priority", 0, 0, c.router.priority_classes - 1));
    k.finish();
    for (const TrafficClass& o : t.classes)
      if (o.name == tc.name)
        fail(c.source, k.at("name"), k.path("name"), "a second class named '" + tc.name + "'");
    total += tc.share;
    longest = std::max(longest, tc.packet_flits);
    t.classes.push_back(tc);
  }
  if (std::fabs(total - 1.0) > 1e-9)
    fail(c.source, list, tr.path("classes"),
         "the shares add up to " + Json::number(total) + ", not 1");
  if (t.broadcast.enabled())
    fail(c.source, list, tr.path("classes"),
         "traffic classes are unicast sources: not with a broadcast scheme");
  if (tr.has("load"))
    fail(c.source, tr.at("load"), tr.path("load"),
         "load sets one class's rate from rho: give rate with traffic.classes");
  t.packet_flits = longest;
}

// traffic.packet_sizes: [L1, L2, ...] with packet_size_weights: [w1, w2, ...] (BookSim2's
// packet_size = {L1, L2} with packet_size_rate = {w1, w2}): the one-class source draws each
// packet's length, L_i with probability w_i / sum(w). packet_flits is then the largest size (the
// buffer checks of cut-through and store-and-forward take it); rate in flits counts the mean.
static void parse_packet_sizes(Section& tr, Config& c) {
  TrafficConfig& t = c.traffic;
  const bool given = tr.has("packet_sizes");
  if (given && tr.has("packet_flits"))
    fail(c.source, tr.at("packet_flits"), tr.path("packet_flits"),
         "give either packet_flits or packet_sizes, not both");
  if (given && tr.has("classes"))
    fail(c.source, tr.at("packet_sizes"), tr.path("packet_sizes"),
         "packet sizes are drawn within the one traffic class: with traffic.classes give each "
         "class its packet_flits");
  t.packet_sizes = tr.int_list("packet_sizes", {}, 1, 1 << 16);
  if (given && (t.packet_sizes.empty() || t.packet_sizes.size() > 64))
    fail(c.source, tr.at("packet_sizes"), tr.path("packet_sizes"),
         "expected a list of 1 to 64 packet lengths in flits");
  YAML::Node w = tr.raw("packet_size_weights",
                        {"list of numbers", "[1, 1, ...]", "each >= 0, as many as packet_sizes"});
  if (w && !given)
    fail(c.source, w, tr.path("packet_size_weights"), "weights of traffic.packet_sizes: give them");
  if (!given) return;
  const std::string wp = tr.path("packet_size_weights");
  if (!w) {
    t.packet_size_weights.assign(t.packet_sizes.size(), 1.0);
  } else {
    if (!w.IsSequence()) fail(c.source, w, wp, "expected a list of numbers");
    if (w.size() != t.packet_sizes.size())
      fail(c.source, w, wp,
           std::to_string(w.size()) + " weights for " + std::to_string(t.packet_sizes.size()) +
               " packet sizes: give one weight per size");
    double total = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      t.packet_size_weights.push_back(
          tr.as_real(w[i], wp + "[" + std::to_string(i) + "]", 0.0, 1e9));
      total += t.packet_size_weights.back();
    }
    if (!(total > 0)) fail(c.source, w, wp, "at least one weight must be above 0");
  }
  t.packet_flits = *std::max_element(t.packet_sizes.begin(), t.packet_sizes.end());
}

// process: on_off with burst: {alpha, beta}, BookSim2's burst_alpha and burst_beta: each cycle an
// off source turns on with probability alpha and an on source turns off with probability beta
// (on-periods of 1/beta cycles on average, off-periods of 1/alpha); while on it makes a packet
// with probability r1 = r (alpha + beta) / alpha, r its long-run rate in packets per cycle,
// which must not exceed 1.
static void parse_burst(Section& tr, Config& c) {
  TrafficConfig& t = c.traffic;
  Section bu = tr.sub("burst");
  const bool on_off = t.process == Process::OnOff;
  if (bu.present() && !on_off)
    fail(c.source, tr.at("burst"), tr.path("burst"), "only with process: on_off");
  if (on_off && !bu.present())
    fail(c.source, tr.at("process"), tr.path("process"),
         "on_off needs burst: {alpha, beta} (per-cycle probabilities of turning on and off)");
  for (const char* k : {"alpha", "beta"})
    if (on_off && !bu.has(k))
      fail(c.source, tr.at("burst"), bu.path(k),
           std::string("needs a value (") +
               (k[0] == 'a' ? "the probability that an off source turns on in a cycle)"
                            : "the probability that an on source turns off in a cycle)"));
  t.burst_alpha = bu.real("alpha", {0, "required with process on_off"}, 0, 1);
  t.burst_beta = bu.real("beta", {0, "required with process on_off"}, 0, 1);
  bu.finish();
  if (!on_off) return;
  if (!(t.burst_alpha > 0))
    fail(c.source, bu.at("alpha"), bu.path("alpha"),
         "must be above 0: an off source with alpha 0 never turns on");
  if (!(t.burst_beta > 0))
    fail(c.source, bu.at("beta"), bu.path("beta"),
         "must be above 0: with beta 0 the source stays on (use process: bernoulli)");
  if (t.broadcast.enabled())
    fail(c.source, tr.at("process"), tr.path("process"),
         "on_off drives the unicast sources: not with a broadcast scheme");
  double most = 0;  // the largest on-state rate among the sources
  for (int k = 0; k < t.traffic_classes(); ++k)
    most = std::max(most, t.on_rate(t.class_packets_per_cycle(k)));
  if (most > 1.0 + 1e-12)
    fail(c.source, tr.has("rate") ? tr.at("rate") : tr.at("burst"),
         tr.has("rate") ? tr.path("rate") : tr.path("burst"),
         "the on-state rate r (alpha + beta) / alpha is " + Json::number(most) +
             " packets per cycle: more than one (lower the rate or raise alpha / beta)");
}

void parse_traffic(Section& tr, Config& c) {
  const Topology topo = c.topology.make();
  const int N = topo.num_nodes();
  const std::string ttype = tr.choice<std::string>("type", "synthetic",
                                                   {{"synthetic", "synthetic"},
                                                    {"trace", "trace"},
                                                    {"none", "none"},
                                                    {"total_exchange", "total_exchange"}});
  TrafficConfig& t = c.traffic;
  t.none = ttype == "none";
  t.exchange = ttype == "total_exchange";
  t.trace = ttype == "trace" || t.none || t.exchange;
  t.max_packet_flits = static_cast<int>(tr.integer("max_packet_flits", 0, 0, 1 << 20));
  t.priority = static_cast<int>(
      tr.integer("priority", 0, 0, {c.router.priority_classes - 1, "router.priority_classes - 1"}));
  Section bc = tr.sub("broadcast");
  BroadcastConfig& b = t.broadcast;
  b.scheme = bc.choice<BroadcastScheme>("scheme", BroadcastScheme::None,
                                        {{"none", BroadcastScheme::None},
                                         {"priority_star", BroadcastScheme::PriorityStar},
                                         {"fcfs_direct", BroadcastScheme::FcfsDirect},
                                         {"indirect", BroadcastScheme::Indirect},
                                         {"pmnb_iii", BroadcastScheme::PmnbIii},
                                         {"pmnb_ii", BroadcastScheme::PmnbIi},
                                         {"dimension_order", BroadcastScheme::DimensionOrder}});
  const bool indirect = b.scheme == BroadcastScheme::Indirect;
  const bool dim_order = b.scheme == BroadcastScheme::DimensionOrder;
  for (const char* k : {"ending", "balance_hops", "classes"})
    if (dim_order && bc.has(k))
      fail(c.source, bc.at(k), bc.path(k),
           "dimension_order has one tree per source (dimension 0 first) and one class: no STAR "
           "ending dimension, balance or priority classes");
  if (indirect && bc.has("ending"))
    fail(c.source, bc.at("ending"), bc.path("ending"),
         "the indirect scheme draws one of the root's d trees uniformly");
  b.balanced = bc.choice<bool>("ending", !indirect, {{"balanced", true}, {"uniform", false}},
                               "balanced (indirect: uniform)");
  // The balance's unicast hop counts (schemes/star/star.hpp, StarHops): only the STAR balance
  // (priority_star or fcfs_direct with balanced ending dimensions) uses them.
  if (bc.has("balance_hops") && (!b.enabled() || !b.balanced || b.pmnb() || indirect))
    fail(c.source, bc.at("balance_hops"), bc.path("balance_hops"),
         "only the STAR balance (priority_star or fcfs_direct, ending: balanced) uses unicast hop "
         "counts");
  b.paper_hops = bc.choice<bool>("balance_hops", false, {{"exact", false}, {"paper", true}});
  if (bc.has("root") && !indirect)
    fail(c.source, bc.at("root"), bc.path("root"), "only the indirect scheme has a root");
  b.root =
      static_cast<int>(bc.integer("root", 0, 0, {c.topology.make().num_nodes() - 1, "nodes - 1"}));
  if (indirect && c.router.buffering != Buffering::OutputQueued)
    fail(c.source, bc.at("scheme"), bc.path("scheme"),
         "the indirect scheme runs on output-queued routers");
  b.classes = static_cast<int>(bc.integer("classes", 2, 2, 3));
  if (b.enabled() && c.routing.algorithm != "dimension_order")
    fail(c.source, bc.raw("scheme"), bc.path("scheme"),
         "broadcast schemes route by their own trees: use routing.algorithm dimension_order");
  if (b.pmnb()) {
    // Dynamic broadcasting by PMNB periods (schemes/pmnb/dynamic.hpp): the paper's slotted
    // hypercube of ideal store-and-forward all-port nodes.
    auto need = [&](bool ok, const std::string& what) {
      if (!ok) fail(c.source, bc.at("scheme"), bc.path("scheme"), "the PMNB schemes need " + what);
    };
    need(c.topology.kind == Topology::Kind::Hypercube, "a hypercube");
    need(c.topology.dims.size() >= 2, "a hypercube of dimension 2 or more");
    need(c.router.buffering == Buffering::OutputQueued &&
             c.router.switching == Switching::StoreAndForward,
         "output-queued store-and-forward routers");
    need(c.interface.injection == Injection::AllPort,
         "all-port nodes (network_interface: {injection: all_port})");
    need(c.timing.alpha == 0, "the slotted model: timing.alpha = 0");
    if (bc.has("ending"))
      fail(c.source, bc.at("ending"), bc.path("ending"), "the PMNB schemes have no STAR trees");
  } else {
    for (const char* k : {"scan_slots", "period"})
      if (bc.has(k))
        fail(c.source, bc.at(k), bc.path(k), "only the pmnb_iii and pmnb_ii schemes have it");
  }
  b.scan_slots = bc.real("scan_slots", 1, 0, 64);
  b.theorem_periods = bc.choice<bool>("period", true, {{"theorem", true}, {"exact", false}});
  if (bc.has("rate") && !t.trace)
    b.rate = bc.real("rate", 0.0, 0.0, 16.0);
  else if (bc.has("rate"))
    fail(c.source, bc.at("rate"), bc.path("rate"), "a broadcast rate needs traffic type synthetic");
  bc.finish();
  if (b.enabled()) {
    if (c.topology.kind >= Topology::Kind::Butterfly)
      fail(c.source, bc.at("scheme"), bc.path("scheme"),
           std::string(dim_order ? "dimension-ordered broadcast trees are defined on tori, "
                                   "meshes and hypercubes, not on a "
                                 : "STAR broadcast trees are defined on tori and hypercubes, "
                                   "not on a ") +
               c.topology.make().kind_name());
    if (c.topology.two_link_size2())
      fail(c.source, bc.at("scheme"), bc.path("scheme"),
           "the broadcast trees (and their analysis) use one link of a size-2 dimension: not "
           "with topology.size2_links: 2");
    if (c.topology.kind == Topology::Kind::Mesh && !dim_order)
      fail(c.source, bc.at("scheme"), bc.path("scheme"),
           "STAR broadcast trees are defined on tori and hypercubes, not on a mesh (the "
           "shortest-path ring halves need the wraparound; scheme dimension_order runs on "
           "meshes)");
    const int need = b.scheme == BroadcastScheme::PriorityStar ? b.classes : 1;
    if (c.router.priority_classes < need)
      fail(c.source, bc.at("scheme"), bc.path("scheme"),
           "needs router.priority_classes >= " + std::to_string(need));
  }
  if (t.trace)
    for (const char* k : {"process", "burst", "packet_sizes", "packet_size_weights"})
      if (tr.has(k))
        fail(c.source, tr.at(k), tr.path(k),
             "only with synthetic traffic (type " + ttype + " has no sources of its own to shape)");
  if (t.none) {
    // Driven from outside through the NIs' target sockets: nothing more to read.
  } else if (t.exchange) {
    // Total exchange with no schedule: at cycle 0 every node requests one packet to every
    // other node, in the order s+1, s+2, ... (mod N), and the routers sort it out. A trace.
    const int L =
        static_cast<int>(tr.integer("packet_flits", {1, kPacketFlitsDefault}, 1, 1 << 16));
    const long long N = c.topology.make().num_nodes();
    if (N * (N - 1) > (1LL << 24))
      fail(c.source, tr.at("type"), tr.path("type"),
           std::to_string(N * (N - 1)) + " packets: more than 2^24");
    t.packet_flits = L;
    t.messages.reserve(static_cast<std::size_t>(N * (N - 1)));
    for (int s = 0; s < N; ++s)
      for (int k = 1; k < N; ++k)
        t.messages.push_back({0, s, static_cast<int>((s + k) % N), L, t.priority});
  } else if (t.trace) {
    YAML::Node msgs = tr.raw("messages", {"list of {time, src, dst, flits, priority}"});
    if (msgs) {
      if (!msgs.IsSequence()) fail(c.source, msgs, tr.path("messages"), "expected a list");
      for (std::size_t i = 0; i < msgs.size(); ++i) {
        Section m(msgs[i], tr.path("messages") + "[" + std::to_string(i) + "]", c.source);
        TraceMessage tmsg;
        tmsg.time = static_cast<std::uint64_t>(m.integer("time", 0, 0, kMaxCycles));
        tmsg.src = static_cast<int>(m.integer("src", 0, 0, {N - 1, "nodes - 1"}));
        tmsg.dst = static_cast<int>(m.integer("dst", 0, 0, {N - 1, "nodes - 1"}));
        tmsg.flits = static_cast<int>(m.integer("flits", 1, 1, 1 << 20));
        tmsg.priority = static_cast<int>(
            m.integer("priority", {t.priority, "traffic.priority"}, 0,
                      {c.router.priority_classes - 1, "router.priority_classes - 1"}));
        m.finish();
        t.messages.push_back(tmsg);
      }
    }
    t.trace_file = tr.text("file", "");
    if (!t.trace_file.empty()) {
      const auto slash = c.source.rfind('/');
      const std::string dir = slash == std::string::npos ? "" : c.source.substr(0, slash);
      read_trace_csv(t.trace_file, dir, tr, tr.raw("file"), c, t.messages);
    }
    if (t.messages.empty())
      fail(c.source, tr.at("messages"), tr.path("messages"), "a trace needs 'messages' or 'file'");
    std::stable_sort(t.messages.begin(), t.messages.end(),
                     [](const TraceMessage& a, const TraceMessage& b) { return a.time < b.time; });
  } else {
    t.process = tr.choice<Process>("process", Process::Bernoulli,
                                   {{"bernoulli", Process::Bernoulli},
                                    {"poisson", Process::Poisson},
                                    {"on_off", Process::OnOff}});
    t.packet_flits =
        static_cast<int>(tr.integer("packet_flits", {8, kPacketFlitsDefault}, 1, 1 << 16));
    parse_packet_sizes(tr, c);
    parse_classes(tr, c);
    t.rate_in_flits = tr.choice<bool>("rate_unit", true, {{"flits", true}, {"packets", false}});
    t.rate = tr.real("rate", 0.1, 0.0, 1e6);
    t.pattern = tr.choice<Pattern>("pattern", Pattern::Uniform,
                                   {{"uniform", Pattern::Uniform},
                                    {"transpose", Pattern::Transpose},
                                    {"bit_complement", Pattern::BitComplement},
                                    {"hotspot", Pattern::Hotspot},
                                    {"bit_flip", Pattern::BitFlip},
                                    {"tornado", Pattern::Tornado},
                                    {"neighbor", Pattern::Neighbor},
                                    {"shuffle", Pattern::Shuffle},
                                    {"bit_reverse", Pattern::BitReverse},
                                    {"bit_rotation", Pattern::BitRotation},
                                    {"random_permutation", Pattern::RandomPermutation},
                                    {"matrix", Pattern::Matrix},
                                    {"adversarial", Pattern::Adversarial}});
    Section hs = tr.sub("hotspot");
    t.hotspot_nodes = hs.int_list("nodes", {0}, 0, {N - 1, "nodes - 1"});
    t.hotspot_fraction = hs.real("fraction", 0.1, 0.0, 1.0);
    hs.finish();
    if (t.pattern == Pattern::Hotspot && t.hotspot_nodes.empty())
      fail(c.source, hs.at("nodes"), "traffic.hotspot.nodes", "needs at least one node");
    t.bit_flip_probability = tr.real("bit_flip_probability", 0.5, 0.0, 1.0);
    const bool fly = c.topology.kind == Topology::Kind::Butterfly;
    const bool bits = t.pattern == Pattern::Shuffle || t.pattern == Pattern::BitReverse ||
                      t.pattern == Pattern::BitRotation;
    if (bits && (N & (N - 1)) != 0)
      fail(c.source, tr.at("pattern"), tr.path("pattern"),
           std::string(to_string(t.pattern)) +
               " permutes the bits of the node id: it needs a "
               "power-of-two number of nodes (this network has " +
               std::to_string(N) + ")");
    if ((t.pattern == Pattern::Tornado || t.pattern == Pattern::Neighbor ||
         t.pattern == Pattern::Transpose || t.pattern == Pattern::BitFlip) &&
        c.topology.kind >= Topology::Kind::CMesh)
      fail(c.source, tr.at("pattern"), tr.path("pattern"),
           std::string(to_string(t.pattern)) +
               " is defined on the coordinates of a direct network; a " +
               c.topology.make().kind_name() +
               "'s patterns are "
               "per terminal (uniform, hotspot, random_permutation, bit_complement, shuffle, "
               "bit_reverse, bit_rotation, matrix)");
    if ((t.pattern == Pattern::Tornado || t.pattern == Pattern::Neighbor) && fly)
      fail(c.source, tr.at("pattern"), tr.path("pattern"),
           std::string(to_string(t.pattern)) +
               " moves along the coordinates of a direct network, not on a butterfly");
    if (t.pattern == Pattern::Adversarial) {
      const Topology topo = c.topology.make();
      if (!topo.indirect() || topo.indirect_network()->adversarial_destination(0, 0) < 0)
        fail(c.source, tr.at("pattern"), tr.path("pattern"),
             std::string("adversarial is a network's own worst case, defined on a dragonfly; "
                         "not on a ") +
                 topo.kind_name());
    }
    t.matrix_file = tr.text("matrix", "");
    if (t.pattern == Pattern::Matrix) {
      if (t.matrix_file.empty())
        fail(c.source, tr.at("matrix"), tr.path("matrix"),
             "pattern: matrix needs matrix: FILE.csv");
      if (tr.has("rate"))
        fail(c.source, tr.at("rate"), tr.path("rate"),
             "the matrix gives every pair's rate: leave rate out");
      if (N > 2048)
        fail(c.source, tr.at("matrix"), tr.path("matrix"),
             "a traffic matrix for at most 2048 nodes");
      read_matrix(tr, c, N);
    } else if (!t.matrix_file.empty()) {
      fail(c.source, tr.at("matrix"), tr.path("matrix"), "only with pattern: matrix");
    }
    if (t.pattern == Pattern::BitFlip && fly && c.topology.k != 2)
      fail(c.source, tr.at("pattern"), tr.path("pattern"),
           "bit_flip flips the bits of the row: it needs a butterfly of radix k = 2");
    if (t.pattern == Pattern::BitFlip && !fly)
      for (int n : c.topology.dims)
        if (n != 2)
          fail(c.source, tr.at("pattern"), tr.path("pattern"),
               "bit_flip needs a hypercube (every dimension of size 2) or a 2-ary butterfly");
    if (t.pattern == Pattern::Transpose && fly)
      fail(c.source, tr.at("pattern"), tr.path("pattern"),
           "transpose is defined on the coordinates of a direct network, not on a butterfly");
    if (t.pattern == Pattern::Transpose) {
      const auto& d = c.topology.dims;
      for (std::size_t i = 0; i < d.size(); ++i)
        if (d[i] != d[d.size() - 1 - i])
          fail(c.source, tr.at("pattern"), tr.path("pattern"),
               "transpose needs dims that read the same backwards (n_i = n_(d-1-i))");
    }
    parse_self(tr, c);
    if (!t.packet_sizes.empty() && tr.has("load"))
      fail(c.source, tr.at("load"), tr.path("load"),
           "load sets the rate from one packet length: give rate with packet_sizes");
    parse_load(tr, c);
    parse_burst(tr, c);
    if (b.pmnb()) {
      if (t.rate > 0)
        fail(c.source, tr.has("load") ? tr.at("load") : tr.at("rate"),
             tr.has("load") ? tr.path("load") : tr.path("rate"),
             "the PMNB schemes carry broadcasts only: set load.broadcast_share 1 (or rate 0)");
      const int d = static_cast<int>(c.topology.dims.size());
      if (b.scheme == BroadcastScheme::PmnbIi && t.packet_flits % d != 0)
        fail(c.source, tr.at("packet_flits"), tr.path("packet_flits"),
             "pmnb_ii splits each packet into d = " + std::to_string(d) +
                 " mini-packets: packet_flits must be a multiple of " + std::to_string(d));
      check_scan_slots(c, bc, b.scan_slots, t.packet_flits,
                       b.scheme == BroadcastScheme::PmnbIi ? d : 1);
    }
  }
  if (t.trace && b.pmnb()) {
    fail(c.source, bc.at("scheme"), bc.path("scheme"),
         "the PMNB schemes take synthetic (Poisson) broadcast arrivals, not a trace");
  }
  if (t.trace) parse_self(tr, c);
  tr.finish();
}

}  // namespace config_detail
}  // namespace sy
