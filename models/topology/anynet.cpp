#include "switchyard/topology/anynet.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace sy {

namespace {

struct Link {
  int to;
  int latency = 1;
  int line = 0;  // where it was given (0: only implied, as a reverse link)
  bool given = false;
};

bool parse_int(const std::string& s, long long& v) {
  if (s.empty() || s.size() > 12) return false;
  std::size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (std::size_t j = i; j < s.size(); ++j)
    if (s[j] < '0' || s[j] > '9') return false;
  v = std::stoll(s);
  return true;
}

}  // namespace

AnyNet AnyNet::from_file(const std::string& path, Deadlock deadlock) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read '" + path + "'");
  std::ostringstream ss;
  char buf[65536];
  std::size_t total = 0;
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    total += static_cast<std::size_t>(in.gcount());
    if (total > (std::size_t{64} << 20))
      throw std::invalid_argument(path + ": longer than 64 MiB: not a network file");
    ss.write(buf, in.gcount());
  }
  return AnyNet(ss.str(), path, deadlock);
}

AnyNet::AnyNet(const std::string& text, const std::string& name, Deadlock deadlock)
    : deadlock_(deadlock) {
  const auto bad = [&](int line, const std::string& msg) -> std::invalid_argument {
    return std::invalid_argument(name + (line > 0 ? ":" + std::to_string(line) : "") + ": " + msg);
  };
  std::map<int, std::map<int, Link>> links;  // router -> neighbour -> link
  std::map<int, int> defined;                // router -> its first defining line
  std::map<int, int> referenced;             // router -> first line naming it in a link
  std::map<int, std::pair<int, int>> term;   // terminal -> (router, line)
  int node_lat_line = 0;
  std::istringstream in(text);
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream ls(line);
    std::vector<std::string> tok;
    for (std::string w; ls >> w;) tok.push_back(w);
    if (tok.empty()) continue;
    std::size_t i = 0;
    const auto id = [&](const std::string& what) {
      long long v = 0;
      if (i >= tok.size()) throw bad(lineno, what + " needs an id after it");
      if (!parse_int(tok[i], v) || v < 0 || v >= (1 << 20))
        throw bad(lineno, what + " id '" + tok[i] + "': expected an integer 0 .. 2^20 - 1");
      ++i;
      return static_cast<int>(v);
    };
    const std::string head = tok[i++];
    if (head != "router" && head != "node")
      throw bad(lineno, "'" + head + "': a line starts with 'router R' or 'node N'");
    const int h = id(head);
    if (head == "router") {
      if (h >= kMaxRouters)
        throw bad(lineno, "router " + std::to_string(h) + ": at most " +
                              std::to_string(kMaxRouters) + " routers");
      if (!defined.count(h)) defined[h] = lineno;
      links[h];
    }
    while (i < tok.size()) {
      const std::string body = tok[i++];
      if (body != "router" && body != "node")
        throw bad(lineno,
                  "'" + body + "': expected 'router S' or 'node M' (or a latency after one)");
      const int b = id(body);
      int lat = 1;
      if (i < tok.size() && tok[i] != "router" && tok[i] != "node") {
        long long v = 0;
        if (!parse_int(tok[i], v) || v < 1 || v > kMaxLatency)
          throw bad(lineno, "latency '" + tok[i] + "': expected an integer 1 .. " +
                                std::to_string(kMaxLatency) + " (cycles)");
        lat = static_cast<int>(v);
        ++i;
      }
      if (head == "node" && body == "node")
        throw bad(lineno, "node " + std::to_string(h) + " node " + std::to_string(b) +
                              ": a terminal connects to a router, not to a terminal");
      if (head == "router" && body == "router") {
        if (b >= kMaxRouters)
          throw bad(lineno, "router " + std::to_string(b) + ": at most " +
                                std::to_string(kMaxRouters) + " routers");
        if (b == h) throw bad(lineno, "router " + std::to_string(h) + " links to itself");
        Link& l = links[h][b];
        if (l.given)
          throw bad(lineno, "router " + std::to_string(h) + " router " + std::to_string(b) +
                                ": a duplicate link (given on line " + std::to_string(l.line) +
                                ")");
        l.to = b;
        l.latency = lat;
        l.line = lineno;
        l.given = true;
        Link& r = links[b][h];
        if (!r.given && r.line == 0) {
          r.to = h;
          r.latency = 1;
        }
        if (r.line == 0) r.line = -lineno;  // implied here
        if (!referenced.count(b)) referenced[b] = lineno;
        continue;
      }
      const int t = head == "node" ? h : b, r = head == "node" ? b : h;
      if (r >= kMaxRouters)
        throw bad(lineno, "router " + std::to_string(r) + ": at most " +
                              std::to_string(kMaxRouters) + " routers");
      if (term.count(t))
        throw bad(lineno, "node " + std::to_string(t) + " is attached twice (first on line " +
                              std::to_string(term[t].second) + ", to router " +
                              std::to_string(term[t].first) + ")");
      term[t] = {r, lineno};
      if (head == "node" && !referenced.count(r)) referenced[r] = lineno;
      if (node_lat_line == 0) {
        node_latency_ = lat;
        node_lat_line = lineno;
      } else if (lat != node_latency_) {
        throw bad(lineno, "node " + std::to_string(t) + " latency " + std::to_string(lat) +
                              ": every terminal's channels take one latency here "
                              "(router.pipeline.ni_lt), and line " +
                              std::to_string(node_lat_line) + " gave " +
                              std::to_string(node_latency_));
      }
    }
  }
  // Routers 0..R-1, each defined by a line of its own.
  for (const auto& [r, line] : referenced)
    if (!defined.count(r))
      throw bad(line, "router " + std::to_string(r) +
                          " is linked here but never defined (no line 'router " +
                          std::to_string(r) + " ...')");
  if (defined.empty()) throw bad(0, "no routers (a line 'router R ...' defines one)");
  R_ = defined.rbegin()->first + 1;
  for (int r = 0; r < R_; ++r)
    if (!defined.count(r))
      throw bad(0, "router " + std::to_string(r) + " is missing (routers are numbered 0.." +
                       std::to_string(R_ - 1) + ", each defined by a line 'router R ...')");
  // Terminals 0..T-1, each at one router; a router's terminals consecutive.
  if (term.empty()) throw bad(0, "no terminals (a 'node N' on a router's line attaches one)");
  T_ = term.rbegin()->first + 1;
  for (int t = 0; t < T_; ++t)
    if (!term.count(t))
      throw bad(0, "node " + std::to_string(t) +
                       " is not attached to any router (terminals are "
                       "numbered 0.." +
                       std::to_string(T_ - 1) + ")");
  term_router_.resize(static_cast<std::size_t>(T_));
  term_first_.assign(static_cast<std::size_t>(R_), -1);
  term_count_.assign(static_cast<std::size_t>(R_), 0);
  for (const auto& [t, rl] : term) {
    const int r = rl.first;
    term_router_[t] = r;
    if (term_count_[r] && term_first_[r] + term_count_[r] != t)
      throw bad(rl.second, "node " + std::to_string(t) + " at router " + std::to_string(r) +
                               ": a router's terminals must be numbered consecutively "
                               "(router " +
                               std::to_string(r) + " has " + std::to_string(term_first_[r]) + ".." +
                               std::to_string(term_first_[r] + term_count_[r] - 1) + ")");
    if (!term_count_[r]) term_first_[r] = t;
    ++term_count_[r];
    conc_ = std::max(conc_, term_count_[r]);
  }
  // Ports: neighbours in id order; no more than 63.
  for (const auto& [r, m] : links) {
    if (static_cast<int>(m.size()) > kMaxPorts) {
      auto it = m.begin();
      std::advance(it, kMaxPorts);
      throw bad(std::abs(it->second.line),
                "router " + std::to_string(r) + " has " + std::to_string(m.size()) +
                    " router links: at most " + std::to_string(kMaxPorts) + " network ports");
    }
    P_ = std::max(P_, static_cast<int>(m.size()));
  }
  const std::size_t S = static_cast<std::size_t>(R_) * static_cast<std::size_t>(P_);
  nbr_.assign(S, -1);
  back_.assign(S, -1);
  lat_.assign(S, 1);
  for (const auto& [r, m] : links) {
    int p = 0;
    for (const auto& [n, l] : m) {
      nbr_[slot(r, p)] = n;
      lat_[slot(r, p)] = l.latency;
      latencies_ |= l.latency != 1;
      ++p;
    }
  }
  for (int r = 0; r < R_; ++r)
    for (int p = 0; p < P_; ++p) {
      const int n = nbr_[slot(r, p)];
      if (n < 0) continue;
      for (int q = 0; q < P_; ++q)
        if (nbr_[slot(n, q)] == r) back_[slot(r, p)] = q;
    }
  // Connected: a BFS from router 0 reaches every router (its levels orient the links up*/down*).
  level_.assign(static_cast<std::size_t>(R_), -1);
  std::vector<int> queue{0};
  level_[0] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (int p = 0; p < P_; ++p) {
      const int n = nbr_[slot(queue[i], p)];
      if (n >= 0 && level_[n] < 0) {
        level_[n] = level_[queue[i]] + 1;
        queue.push_back(n);
      }
    }
  for (int r = 0; r < R_; ++r)
    if (level_[r] < 0)
      throw bad(defined[r], "router " + std::to_string(r) +
                                " is disconnected: no path of router links from router 0" +
                                (term_count_[r] ? " (nor from its terminals to the others)" : ""));
  // Link classes by latency.
  for (int v : lat_) class_lat_.push_back(v);
  std::sort(class_lat_.begin(), class_lat_.end());
  class_lat_.erase(std::unique(class_lat_.begin(), class_lat_.end()), class_lat_.end());
  if (P_ == 0) class_lat_.assign(1, 1);
  build_tables();
  build_layers();
  // Layers and up*/down* are acyclic by construction: a cycle there is a bug, refused. Shortest
  // paths on one class (none) may have one: the config refuses it unless routing.allow_deadlock.
  cycle_ = dependency_cycle();
  if (!cycle_.empty() && deadlock_ != Deadlock::None)
    throw bad(0, "the routes' channel dependencies have a cycle: " + cycle_);
}

// Up*/down* key of a router: (BFS level from router 0, id); a link is up towards a lower key.
static bool lower(const std::vector<int>& level, int a, int b) {
  return level[a] != level[b] ? level[a] < level[b] : a < b;
}

void AnyNet::build_tables() {
  const std::size_t RR = static_cast<std::size_t>(R_) * static_cast<std::size_t>(R_);
  next_.assign(RR, 255);
  hops_.assign(RR, 0);
  constexpr int kInf = std::numeric_limits<int>::max() / 4;
  std::vector<int> dist(static_cast<std::size_t>(R_)), order(static_cast<std::size_t>(R_));
  std::vector<int> down(static_cast<std::size_t>(R_)), dnext(static_cast<std::size_t>(R_), -1);
  std::vector<int> choice(static_cast<std::size_t>(R_), -1), forced(static_cast<std::size_t>(R_));
  for (int r = 0; r < R_; ++r) order[r] = r;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return lower(level_, a, b); });
  std::vector<int> queue;
  for (int d = 0; d < R_; ++d) {
    std::uint8_t* next = &next_[static_cast<std::size_t>(d)];
    const auto set = [&](int r, int p) { next[static_cast<std::size_t>(r) * R_] = p; };
    if (deadlock_ != Deadlock::UpDown) {
      // Shortest paths: a BFS from d (links are bidirectional); the lowest port one hop closer.
      std::fill(dist.begin(), dist.end(), kInf);
      dist[d] = 0;
      queue.assign(1, d);
      for (std::size_t i = 0; i < queue.size(); ++i)
        for (int p = 0; p < P_; ++p) {
          const int n = nbr_[slot(queue[i], p)];
          if (n >= 0 && dist[n] == kInf) {
            dist[n] = dist[queue[i]] + 1;
            queue.push_back(n);
          }
        }
      for (int r = 0; r < R_; ++r) {
        if (r == d) continue;
        for (int p = 0; p < P_; ++p) {
          const int n = nbr_[slot(r, p)];
          if (n >= 0 && dist[n] == dist[r] - 1) {
            set(r, p);
            break;
          }
        }
      }
    } else {
      // down[r]: hops of the shortest down-only path r -> d (keys ascending), by descending key;
      // dnext[r]: its first port.
      std::fill(down.begin(), down.end(), kInf);
      down[d] = 0;
      for (int i = R_ - 1; i >= 0; --i) {
        const int r = order[i];
        if (r == d) continue;
        for (int p = 0; p < P_; ++p) {
          const int n = nbr_[slot(r, p)];
          if (n >= 0 && lower(level_, r, n) && down[n] + 1 < down[r]) {
            down[r] = down[n] + 1;
            dnext[r] = p;
          }
        }
      }
      // Pass 1: each router's shortest legal route as if it were entered going up (ascending key:
      // its up neighbours are done first): down[r], or one hop up and that neighbour's (ties go
      // down). forced: the routers a route enters by a down link; they must go down-only.
      std::fill(forced.begin(), forced.end(), 0);
      for (int i = 0; i < R_; ++i) {
        const int r = order[i];
        dist[r] = down[r];
        choice[r] = dnext[r];
        for (int p = 0; p < P_; ++p) {
          const int n = nbr_[slot(r, p)];
          if (n >= 0 && lower(level_, n, r) && dist[n] + 1 < dist[r]) {
            dist[r] = dist[n] + 1;
            choice[r] = p;
          }
        }
      }
      for (int i = 0; i < R_; ++i) {  // (ascending key: a down hop's target comes later)
        const int r = order[i];
        if (r == d) continue;
        const int n = nbr_[slot(r, forced[r] ? dnext[r] : choice[r])];
        if (forced[r] || lower(level_, r, n)) forced[n] = 1;
      }
      // Pass 2: forced routers go down-only; the others take the shortest of going up or down
      // into a forced router (so no router is forced anew).
      for (int i = 0; i < R_; ++i) {
        const int r = order[i];
        if (r == d) {
          dist[r] = 0;
          continue;
        }
        if (forced[r]) {
          dist[r] = down[r];
          set(r, dnext[r]);
          continue;
        }
        dist[r] = kInf;
        for (int p = 0; p < P_; ++p) {
          const int n = nbr_[slot(r, p)];
          if (n < 0) continue;
          const bool up = lower(level_, n, r);
          const int c = up ? dist[n] : forced[n] ? down[n] : kInf;
          if (c + 1 < dist[r]) {
            dist[r] = c + 1;
            set(r, p);
          }
        }
      }
    }
    for (int r = 0; r < R_; ++r) {
      if (dist[r] >= 65536) throw std::invalid_argument("anynet: a route longer than 65535 hops");
      hops_[static_cast<std::size_t>(r) * R_ + d] = static_cast<std::uint16_t>(dist[r]);
    }
  }
  // Diameter, mean distance and the busiest link under uniform traffic (over terminal pairs).
  std::vector<double> load(static_cast<std::size_t>(R_) * P_, 0.0);
  std::vector<double> acc(static_cast<std::size_t>(R_));
  std::vector<int> by_hops(static_cast<std::size_t>(R_));
  for (int d = 0; d < R_; ++d) {
    if (!term_count_[d]) continue;
    for (int r = 0; r < R_; ++r) {
      by_hops[r] = r;
      acc[r] = term_count_[r];
      if (term_count_[r]) {
        const int h = hops_[static_cast<std::size_t>(r) * R_ + d];
        diameter_ = std::max(diameter_, h);
        pair_hops_ += static_cast<double>(h) * term_count_[r] * term_count_[d];
      }
    }
    // Farthest first: a router's sources pass on to its next hop (one hop closer to d).
    std::sort(by_hops.begin(), by_hops.end(), [&](int a, int b) {
      return hops_[static_cast<std::size_t>(a) * R_ + d] >
             hops_[static_cast<std::size_t>(b) * R_ + d];
    });
    for (int r : by_hops) {
      if (r == d || acc[r] == 0) continue;
      const int p = next_[static_cast<std::size_t>(r) * R_ + d];
      load[slot(r, p)] += acc[r] * term_count_[d];
      acc[nbr_[slot(r, p)]] += acc[r];
    }
  }
  for (double v : load) busiest_pairs_ = std::max(busiest_pairs_, v);
}

void AnyNet::walk(int s, int d, std::vector<int>& chans) const {
  chans.clear();
  for (int r = s; r != d;) {
    const int p = next_[static_cast<std::size_t>(r) * R_ + d];
    chans.push_back(static_cast<int>(slot(r, p)));
    r = nbr_[slot(r, p)];
  }
}

void AnyNet::build_layers() {
  classes_ = 1;
  if (deadlock_ != Deadlock::Layers) return;
  // Rank the channels: up channels by descending key of their source, then down channels by
  // ascending key of their source (ports in order within a router).
  std::vector<int> order(static_cast<std::size_t>(R_));
  for (int r = 0; r < R_; ++r) order[r] = r;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return lower(level_, a, b); });
  rank_.assign(static_cast<std::size_t>(R_) * P_, -1);
  int next_rank = 0;
  for (int i = R_ - 1; i >= 0; --i)
    for (int p = 0; p < P_; ++p) {
      const int r = order[i], n = nbr_[slot(r, p)];
      if (n >= 0 && lower(level_, n, r)) rank_[slot(r, p)] = next_rank++;
    }
  for (int i = 0; i < R_; ++i)
    for (int p = 0; p < P_; ++p) {
      const int r = order[i], n = nbr_[slot(r, p)];
      if (n >= 0 && lower(level_, r, n)) rank_[slot(r, p)] = next_rank++;
    }
  // Layers: 1 + the most descents on a route between two routers with terminals.
  std::vector<int> chans;
  for (int s = 0; s < R_; ++s) {
    if (!term_count_[s]) continue;
    for (int d = 0; d < R_; ++d) {
      if (!term_count_[d] || d == s) continue;
      walk(s, d, chans);
      int c = 1;
      for (std::size_t i = 1; i < chans.size(); ++i) c += rank_[chans[i]] < rank_[chans[i - 1]];
      classes_ = std::max(classes_, c);
    }
  }
}

int AnyNet::vc_class(int router, int in_port, int in_class, int out_port) const {
  if (classes_ == 1 || in_port < 0 || in_port >= P_) return 0;
  // The channel the header came in on: from the neighbour on in_port, through its port back.
  const int n = nbr_[slot(router, in_port)];
  const int in_rank = rank_[slot(n, back_[slot(router, in_port)])];
  const int c = in_class + (rank_[slot(router, out_port)] < in_rank ? 1 : 0);
  return std::min(c, classes_ - 1);
}

std::string AnyNet::dependency_cycle() const {
  // Vertices: (channel, class); edges from each route's consecutive hops.
  const std::size_t S = static_cast<std::size_t>(R_) * P_;
  std::vector<std::uint64_t> edges;
  std::vector<int> chans;
  for (int s = 0; s < R_; ++s) {
    if (!term_count_[s]) continue;
    for (int d = 0; d < R_; ++d) {
      if (!term_count_[d] || d == s) continue;
      walk(s, d, chans);
      int cls = 0, prev = -1;
      for (std::size_t i = 0; i < chans.size(); ++i) {
        const int r = chans[i] / P_, p = chans[i] % P_;
        const int in = i == 0 ? -1 : back_[static_cast<std::size_t>(chans[i - 1])];
        cls = i == 0 ? 0 : vc_class(r, in, cls, p);
        const int v = static_cast<int>(static_cast<std::size_t>(cls) * S + chans[i]);
        if (prev >= 0) edges.push_back(static_cast<std::uint64_t>(prev) << 32 | v);
        prev = v;
      }
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const std::size_t V = S * static_cast<std::size_t>(classes_);
  std::vector<int> indeg(V, 0), start(V + 1, 0);
  for (std::uint64_t e : edges) {
    ++indeg[e & 0xffffffffu];
    ++start[(e >> 32) + 1];
  }
  for (std::size_t v = 0; v < V; ++v) start[v + 1] += start[v];
  // Kahn: whatever is left has a cycle.
  std::vector<int> ready;
  for (std::size_t v = 0; v < V; ++v)
    if (!indeg[v]) ready.push_back(static_cast<int>(v));
  std::size_t done = 0;
  while (!ready.empty()) {
    const int v = ready.back();
    ready.pop_back();
    ++done;
    for (int i = start[v]; i < start[v + 1]; ++i)
      if (--indeg[edges[i] & 0xffffffffu] == 0)
        ready.push_back(static_cast<int>(edges[i] & 0xffffffffu));
  }
  if (done == V) return "";
  // Every vertex left has a predecessor left: walk predecessors until one repeats.
  std::vector<int> pred(V, -1);
  for (std::uint64_t e : edges) {
    const int a = static_cast<int>(e >> 32), b = static_cast<int>(e & 0xffffffffu);
    if (indeg[a] > 0 && indeg[b] > 0) pred[b] = a;
  }
  int v = -1;
  for (std::size_t u = 0; u < V && v < 0; ++u)
    if (indeg[u] > 0) v = static_cast<int>(u);
  std::vector<int> seen(V, -1), path;
  while (seen[v] < 0) {
    seen[v] = static_cast<int>(path.size());
    path.push_back(v);
    v = pred[v];
  }
  std::vector<int> cycle(path.begin() + seen[v], path.end());
  std::reverse(cycle.begin(), cycle.end());
  cycle.push_back(cycle.front());
  std::string s;
  for (int u : cycle) {
    const int cls = static_cast<int>(u / S), ch = static_cast<int>(u % S);
    s += (s.empty() ? "" : " -> ") + std::string("r") + std::to_string(ch / P_) + ".p" +
         std::to_string(ch % P_) + "/c" + std::to_string(cls);
  }
  return s;
}

double AnyNet::average_distance(bool include_self) const {
  const double N = T_;
  if (include_self) return pair_hops_ / (N * N);
  return N > 1 ? pair_hops_ / (N * (N - 1)) : 0.0;
}

double AnyNet::uniform_link_share(bool exclude_self) const {
  const double N = T_;
  if (exclude_self) return N > 1 ? busiest_pairs_ / (N - 1) : 0.0;
  return busiest_pairs_ / N;
}

int AnyNet::link_class(int router, int port) const {
  const int v = lat_[slot(router, port)];
  return static_cast<int>(std::lower_bound(class_lat_.begin(), class_lat_.end(), v) -
                          class_lat_.begin());
}

}  // namespace sy
