// Random-config property tests (issue 16): a seeded generator of valid configs over small
// networks, one child process per run (SystemC elaborates once per process), and the properties
// every run must hold. Shared by test_properties.cpp (fast) and long/test_properties_long.cpp.
#pragma once
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "paths.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/router/routing/routing_algorithm.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/simulation.hpp"
#include "switchyard/topology/anynet.hpp"
#include "switchyard/topology/dragonfly.hpp"
#include "switchyard/topology/flatfly.hpp"

namespace sy::prop {

// splitmix64: the same sequence on every platform (std:: distributions are not portable).
class Gen {
 public:
  explicit Gen(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x5DEECE66Dull) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int uniform(int lo, int hi) {  // [lo, hi]
    return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  double real(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(next() >> 11) / 9007199254740992.0;
  }
  bool coin(double p) { return real(0, 1) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(uniform(0, static_cast<int>(v.size()) - 1))];
  }

 private:
  std::uint64_t s_;
};

// The sizes of the generated configs: nodes and cycles.
struct Scale {
  int max_nodes = 64;
  int min_measure = 200, max_measure = 600;
  int max_warmup = 200;
};

inline std::string list(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

inline std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// A config valid by construction (the validator has the last word: a ConfigError is reported by
// the test, which wants most seeds to run): a topology of 2..max_nodes nodes, input-VC or
// output-queued routers, a switching mode, VCs and depth, a routing algorithm with the VCs it
// needs, a traffic pattern the topology defines, a load from light to beyond saturation, or a
// short trace, and a short window.
inline std::string random_config(std::uint64_t seed, const Scale& sc = {}) {
  Gen g(seed);
  std::ostringstream y;
  y << "name: prop" << seed << "\n";
  // --- Topology.
  std::string kind = g.pick<std::string>(
      {"torus", "torus", "mesh", "hypercube", "butterfly", "cmesh", "fat_tree"});
#if SWITCHYARD_TEST_PATHS  // (the tests; not tools/property_configs, which has no paths)
  // anynet: every 16th seed (the others' configs unchanged), one of the shipped network files.
  std::shared_ptr<const AnyNet> anynet;
  if (seed % 16 == 5) {
    kind = "anynet";
    const char* files[] = {"ring8.net", "irregular12.net", "booksim_example.net"};
    const std::string file =
        std::string(sy::test::kSourceDir) + "/configs/anynet/" + files[(seed / 16) % 3];
    anynet = std::make_shared<AnyNet>(AnyNet::from_file(file, AnyNet::Deadlock::Layers));
    y << "topology: {type: anynet, file: " << file << "}\n";
  }
#else
  const std::shared_ptr<const AnyNet> anynet;
#endif
  // dragonfly: every eighth seed that is not an anynet's, without a draw (the other seeds'
  // configs stay as they were).
  const bool dfly = !anynet && seed % 8 == 5 && sc.max_nodes >= 4;
  if (dfly) kind = "dragonfly";
  // flatfly: every eighth seed of another residue, without a draw.
  if (!anynet && !dfly && seed % 8 == 7) kind = "flatfly";
  int dp = 1, da = 1, dh = 1, dg = 2;
  std::vector<int> dims;
  int k = 2, n = 1, N = 1;
  if (anynet) {
    N = anynet->num_terminals();
  } else if (dfly) {
    // p terminals per router, a routers per group, h global ports, 2 <= g <= a*h + 1 groups.
    dp = g.uniform(1, 2);
    da = g.uniform(1, 4);
    dh = g.uniform(1, 2);
    while (dp * da * 2 > sc.max_nodes) da > 1 ? --da : --dp;
    dg = g.uniform(2, std::max(2, std::min(da * dh + 1, sc.max_nodes / (dp * da))));
    N = dp * da * dg;
    y << "topology: {type: dragonfly, p: " << dp << ", a: " << da << ", h: " << dh << ", g: " << dg
      << "}\n";
  } else if (kind == "butterfly") {
    k = g.uniform(2, 4);
    int nmax = 0;
    for (int r = k; r <= sc.max_nodes; r *= k) ++nmax;
    n = g.uniform(1, std::max(1, nmax));
    for (int i = 0; i < n; ++i) N *= k;
    y << "topology: {type: butterfly, k: " << k << ", n: " << n << "}\n";
  } else if (kind == "fat_tree") {
    k = g.uniform(2, 4);
    int nmax = 0;
    for (int r = k; r <= sc.max_nodes; r *= k) ++nmax;
    n = g.uniform(1, std::max(1, nmax));
    for (int i = 0; i < n; ++i) N *= k;
    y << "topology: {type: fat_tree, k: " << k << ", n: " << n << "}\n";
  } else if (kind == "flatfly") {
    // A flattened butterfly: k = 2..4 routers per dimension, 1 or 2 dimensions, 1..3 terminals
    // per router (dims: {k^n, c} for the topology below).
    k = g.uniform(2, std::max(2, std::min(4, sc.max_nodes / 2)));
    n = k * k * 2 <= sc.max_nodes ? g.uniform(1, 2) : 1;
    int R = 1;
    for (int i = 0; i < n; ++i) R *= k;
    const int c = g.uniform(1, std::max(1, std::min(3, sc.max_nodes / R)));
    N = R * c;
    dims = {R, c};
    y << "topology: {type: flatfly, k: " << k << ", n: " << n << ", concentration: " << c << "}\n";
  } else if (kind == "cmesh") {
    // A concentrated mesh: 1 or 2 dimensions of routers, 1..4 terminals each.
    const int nd = g.uniform(1, 2), c = g.uniform(1, std::min(4, sc.max_nodes / 2));
    int R = 1;
    for (int i = 0; i < nd; ++i) {
      const int room = sc.max_nodes / (R * c);
      if (room < 2) break;
      const int x = g.uniform(2, std::min(room, 4));
      dims.push_back(x);
      R *= x;
    }
    if (dims.empty()) dims.push_back(1);
    k = c;
    N = R * c;
    y << "topology: {type: cmesh, dims: " << list(dims) << ", concentration: " << c << "}\n";
  } else if (kind == "hypercube") {
    int dmax = 0;
    for (int r = 2; r <= sc.max_nodes; r *= 2) ++dmax;
    const int d = g.uniform(1, dmax);
    dims.assign(static_cast<std::size_t>(d), 2);
    N = 1 << d;
    y << "topology: {type: hypercube, dim: " << d << "}\n";
  } else {
    const int nd = g.uniform(1, 3);
    for (int i = 0; i < nd; ++i) {
      const int room = sc.max_nodes / N;
      if (room < 2) break;
      const int x = g.uniform(2, std::min(room, nd == 1 ? 16 : 8));
      dims.push_back(x);
      N *= x;
    }
    y << "topology: {type: " << kind << ", dims: " << list(dims) << "}\n";
  }
  const bool fly = kind == "butterfly", ff = kind == "flatfly", ft = kind == "fat_tree",
             cm = kind == "cmesh" || ft || anynet || dfly || ff;
  const Topology topo =
      anynet ? Topology::indirect(Topology::Kind::AnyNet, anynet)
      : dfly ? Topology::indirect(Topology::Kind::Dragonfly,
                                  std::make_shared<Dragonfly>(dp, da, dh, dg))
      : ff   ? Topology::indirect(Topology::Kind::FlatFly, std::make_shared<FlatFly>(k, n, dims[1]))
      : fly  ? Topology::butterfly(k, n)
      : ft   ? Topology::fat_tree(k, n)
      : cm   ? Topology::cmesh(dims, k)
             : Topology(kind == "mesh"        ? Topology::Kind::Mesh
                        : kind == "hypercube" ? Topology::Kind::Hypercube
                                              : Topology::Kind::Torus,
                      dims);
  bool rings = false, cube = !fly && !cm;
  for (int d = 0; d < topo.num_dims(); ++d) rings |= topo.wraps(d);
  for (int x : dims) cube &= x == 2;
  // --- Traffic kind first (the router's depth depends on the packets).
  const int tsel = g.uniform(0, 99);
  const bool exchange = tsel < 5 && N <= 16;
  const bool trace = !exchange && tsel < 22;
  const int L = g.uniform(1, 6);
  // --- Router.
  const bool oq = g.coin(0.35);
  const std::string sw =
      g.pick<std::string>({"wormhole", "wormhole", "virtual_cut_through", "store_and_forward"});
  int vcs = g.uniform(1, 4);
  if (rings && !oq && g.coin(0.9)) vcs = std::max(vcs, 2);
  if (anynet) vcs = std::max(vcs, anynet->vc_classes());
  if (dfly) vcs = std::max(vcs, 2);  // (its minimal routing's two classes)
  int depth = g.uniform(1, 8);
  if (!oq && sw != "wormhole") depth = std::max(depth, L);
  const int classes = g.uniform(1, 2);
  // Routing algorithms beside dimension order: input-VC routers on direct networks.
  std::string algo = "dimension_order";
  if (!oq && !fly && !cm && g.coin(0.45)) {
    std::vector<std::string> algos = {"minimal_adaptive", "valiant", "romm", "ugal"};
    if (kind == "mesh" && dims.size() == 2) {
      algos.push_back("odd_even");
      if (dims[0] >= 3 && dims[1] >= 3)  // (the others refuse a dimension of size 2)
        for (const char* t : {"west_first", "north_last", "negative_first"}) algos.push_back(t);
    }
    algo = g.pick(algos);
    vcs = std::max(vcs, routing_vcs_needed(algo, topo));
  }
  if (dfly && !oq && g.coin(0.5)) {  // a dragonfly's own Valiant and UGAL
    algo = g.pick<std::string>({"valiant", "ugal"});
    vcs = std::max(vcs, routing_vcs_needed(algo, topo));
  }
  if (!oq && ff && g.coin(0.45)) {  // a flatfly's own Valiant and UGAL: two VC classes
    algo = g.pick<std::string>({"valiant", "ugal"});
    vcs = std::max(vcs, routing_vcs_needed(algo, topo));
  }
  // Random broadcasting: output-queued routers on tori and hypercubes, dimension order.
  const bool bcast = oq && !fly && !cm && kind != "mesh" && !trace && !exchange && g.coin(0.2);
  const std::string scheme = bcast ? g.pick<std::string>({"fcfs_direct", "priority_star"}) : "";
  const int pclasses = scheme == "priority_star" ? std::max(classes, 2) : classes;
  const bool staged = !oq && !bcast && g.coin(0.25);
  y << "router: {buffering: " << (oq ? "output_queued" : "input_vc") << ", switching: " << sw
    << ", vcs: " << vcs << ", vc_depth: " << depth
    << ", arbitration: " << g.pick<std::string>({"round_robin", "oldest_first"})
    << ", priority_classes: " << pclasses;
  if (staged)
    y << ",\n         pipeline: {rc: " << g.uniform(0, 2) << ", va: " << g.uniform(0, 2)
      << ", sa: " << g.uniform(1, 2) << ", st: " << g.uniform(0, 1) << ", lt: " << g.uniform(0, 2)
      << ", credit_delay: " << g.uniform(1, 3)
      << ", speculative: " << (g.coin(0.5) ? "true" : "false")
      << ", ejection_ports: " << g.uniform(1, 2) << "}";
  y << "}\n";
  y << "timing: {alpha: " << g.uniform(0, 3);
  if (!staged) y << ", delta: " << g.uniform(0, 2);
  y << ", tau: " << g.uniform(1, 2) << "}\n";
  y << "routing: {algorithm: " << algo;
  if (algo != "dimension_order" && g.coin(0.3)) y << ", selection: random";
  y << ", tie_break: " << g.pick<std::string>({"balanced", "positive", "negative"}) << "}\n";
  if (oq && g.coin(0.4))
    y << "network_interface: {injection: all_port}\n";
  else
    y << "network_interface: {injection: serial, injection_channels: " << g.uniform(1, 2) << "}\n";
  // --- Traffic.
  const int prio = g.uniform(0, pclasses - 1);
  std::vector<std::string> selves = {"through_router"};
  if (!fly) selves.push_back("deliver_locally");
  if (exchange) {
    y << "traffic: {type: total_exchange, packet_flits: " << L << ", priority: " << prio << "}\n";
  } else if (trace) {
    y << "traffic:\n  type: trace\n  self: " << g.pick(selves) << "\n  messages:\n";
    const int m = g.uniform(1, 24);
    for (int i = 0; i < m; ++i)
      y << "    - {time: " << g.uniform(0, 300) << ", src: " << g.uniform(0, N - 1)
        << ", dst: " << g.uniform(0, N - 1) << ", flits: " << g.uniform(1, L)
        << ", priority: " << g.uniform(0, pclasses - 1) << "}\n";
  } else {
    std::vector<std::string> pats = {"uniform", "uniform", "hotspot", "random_permutation",
                                     "bit_complement"};
    if (!fly && !cm) {
      pats.push_back("tornado");
      pats.push_back("neighbor");
      bool pal = true;
      for (std::size_t i = 0; i < dims.size(); ++i) pal &= dims[i] == dims[dims.size() - 1 - i];
      if (pal) pats.push_back("transpose");
    }
    if ((N & (N - 1)) == 0)
      for (const char* p : {"shuffle", "bit_reverse", "bit_rotation"}) pats.push_back(p);
    if (cube || (fly && k == 2)) pats.push_back("bit_flip");
    if (dfly) pats.push_back("adversarial");
    std::string pat = g.pick(pats);
    if (bcast) pat = "uniform";
    const bool drawn = pat == "uniform" || pat == "hotspot" || pat == "random_permutation";
    if (drawn) selves.push_back("exclude");
    // Load: flits per node per cycle from light to well beyond any of these networks' capacity.
    const double flits = g.coin(0.3) ? g.real(0.4, 1.0) : g.real(0.01, 0.3);
    const bool poisson = g.coin(0.4);
    y << "traffic:\n  process: " << (poisson ? "poisson" : "bernoulli") << "\n  packet_flits: " << L
      << "\n  pattern: " << pat << "\n  self: " << g.pick(selves) << "\n  priority: " << prio
      << "\n";
    if (bcast) {
      y << "  rate: " << num(flits / 4) << "\n  broadcast: {scheme: " << scheme
        << ", rate: " << num(g.real(0.0005, 0.01)) << "}\n";
    } else if (g.coin(0.3)) {
      y << "  rate_unit: packets\n  rate: " << num(flits / L) << "\n";
    } else {
      y << "  rate: " << num(flits) << "\n";
    }
    if (pat == "hotspot")
      y << "  hotspot: {nodes: [" << g.uniform(0, N - 1)
        << "], fraction: " << num(g.real(0.05, 0.5)) << "}\n";
    if (pat == "bit_flip") y << "  bit_flip_probability: " << num(g.real(0.2, 0.8)) << "\n";
  }
  // --- A short window; saturated runs stop at a small backlog; a deadlock is found quickly.
  y << "simulation: {warmup: " << g.uniform(0, sc.max_warmup)
    << ", measure: " << g.uniform(sc.min_measure, sc.max_measure)
    << ", drain_limit: 3000, deadlock_cycles: 1500, batches: " << g.uniform(2, 20)
    << ", seed: " << g.uniform(0, 1000000) << ", max_backlog_packets: 4000}\n";
  return y.str();
}

// One run in a child process: its exit code (0 stable, 3 not stable or stopped by a limit, 2 a
// ConfigError, 1 another exception; -SIG when killed, SIGALRM past `seconds`), results.json, the
// error message, and what the per-packet records say (the child checks them: they stay there).
struct Run {
  int rc = -1;
  std::string json, error;
  // From the records: packets, flits, flits of zero-hop (deliver_locally) packets, packets
  // faster than the zero-load time of their hops, the first of them.
  std::uint64_t records = 0, record_flits = 0, zero_hop_flits = 0, too_fast = 0;
  std::string first_too_fast;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The zero-load time of a packet of `flits` over `hops` hops: the model's exact formula without
// contention (sim/analysis.hpp); every packet takes at least that long.
inline double zero_load_bound(const Config& c, int hops, int flits) {
  return c.router.pipeline.staged ? staged_zero_load(c, hops, flits)
                                  : static_cast<double>(zero_load_latency(c, hops, flits));
}

// The routing algorithms whose packets may leave the minimal routes (an intermediate node).
inline bool nonminimal_algorithm(const std::string& a) {
  return a == "valiant" || a == "romm" || a == "ugal";
}

// The fewest router-to-router hops from terminal src to terminal dst in the network's graph (a
// breadth-first search over neighbor()). On a dragonfly it can be below Topology::distance, which
// counts the minimal route (local, global, local): a Valiant or UGAL packet through a third group
// may take two global links where that route takes three hops.
inline int graph_hops(const Topology& topo, int src, int dst) {
  const int from = topo.injection_router(src), to = topo.ejection_router(dst);
  if (from == to) return 0;
  std::vector<int> dist(static_cast<std::size_t>(topo.num_routers()), -1);
  std::vector<int> queue{from};
  dist[static_cast<std::size_t>(from)] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const int r = queue[i];
    for (int p = 0; p < topo.num_ports(); ++p) {
      const int n = topo.neighbor(r, p);
      if (n < 0 || dist[static_cast<std::size_t>(n)] >= 0) continue;
      dist[static_cast<std::size_t>(n)] = dist[static_cast<std::size_t>(r)] + 1;
      if (n == to) return dist[static_cast<std::size_t>(n)];
      queue.push_back(n);
    }
  }
  return topo.distance(src, dst);
}

// address_space_mb > 0: the child runs under RLIMIT_AS of what it has mapped plus that much
// (ulimit -v; issue 34: the run's limits follow it, a run stops with a partial result and never
// dies of a failed allocation). Not under AddressSanitizer, whose shadow memory needs terabytes.
inline Run run_in_child(const std::string& yaml, int seconds,
                        [[maybe_unused]] int address_space_mb = 0) {
  static int counter = 0;
  const std::string base =
      "/tmp/switchyard-prop-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(static_cast<unsigned>(seconds));
#if !SWITCHYARD_SANITIZED
    if (address_space_mb > 0) {
      std::ifstream statm("/proc/self/statm");
      double pages = 0;
      statm >> pages;
      const double mapped = pages * static_cast<double>(sysconf(_SC_PAGESIZE));
      const rlimit rl{static_cast<rlim_t>(mapped + address_space_mb * 1048576.0),
                      static_cast<rlim_t>(mapped + address_space_mb * 1048576.0)};
      setrlimit(RLIMIT_AS, &rl);
    }
#endif
    int rc = 1;
    try {
      const Config c = parse_config(yaml, "generated.yaml");
      RunOptions o;
      o.record_packets = true;
      const Results r = run_simulation(c, o);
      {
        std::ofstream j(base + ".json");
        j << r.to_json();
      }
      const Topology topo = c.topology.make();
      const bool nonminimal = nonminimal_algorithm(c.routing.algorithm);
      std::uint64_t flits = 0, zflits = 0, fast = 0;
      std::string first;
      for (const Stats::Record& p : r.packets) {
        flits += static_cast<std::uint64_t>(p.flits);
        const double lat = static_cast<double>(p.delivered - p.created);
        if (p.src == p.dst && c.traffic.self == SelfTraffic::DeliverLocally) {
          zflits += static_cast<std::uint64_t>(p.flits);
          if (p.delivered != p.created) ++fast;  // delivered in its creation cycle
          continue;
        }
        // (A minimal algorithm's packet takes at least distance() hops; a non-minimal one's
        // at least the graph's shortest path, which is shorter on some dragonfly pairs.)
        const int h = nonminimal && topo.indirect()
                          ? std::min(topo.distance(p.src, p.dst), graph_hops(topo, p.src, p.dst))
                          : topo.distance(p.src, p.dst);
        const double z = zero_load_bound(c, h, p.flits);
        if (lat + 1e-9 < z && fast++ == 0)
          first = std::to_string(p.src) + "->" + std::to_string(p.dst) + " " +
                  std::to_string(p.flits) + " flits, " + std::to_string(h) + " hops: latency " +
                  std::to_string(lat) + " < zero-load " + std::to_string(z);
      }
      std::ofstream rec(base + ".rec");
      rec << r.packets.size() << " " << flits << " " << zflits << " " << fast << "\n" << first;
      rc = r.stable ? 0 : 3;
    } catch (const ConfigError& e) {
      std::ofstream(base + ".err") << e.what();
      rc = 2;
    } catch (const std::exception& e) {
      std::ofstream(base + ".err") << e.what();
      rc = 1;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(rc);
  }
  Run r;
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  r.json = slurp(base + ".json");
  r.error = slurp(base + ".err");
  std::istringstream rec(slurp(base + ".rec"));
  rec >> r.records >> r.record_flits >> r.zero_hop_flits >> r.too_fast;
  rec.ignore(1);
  std::getline(rec, r.first_too_fast);
  for (const char* ext : {".json", ".err", ".rec"}) std::remove((base + ext).c_str());
  return r;
}

// The number after "key": inside the object "section" (first occurrence after it), -1 if absent.
inline double number(const std::string& js, const std::string& section, const std::string& key) {
  const auto at = section.empty() ? 0 : js.find("\"" + section + "\": {");
  if (at == std::string::npos) return -1;
  const auto k = js.find("\"" + key + "\": ", at);
  if (k == std::string::npos) return -1;
  return std::stod(js.substr(k + key.size() + 4));
}

// results.json without its wall time (the one field that differs between identical runs).
inline std::string without_wall_time(const std::string& js) {
  std::istringstream in(js);
  std::string out, line;
  while (std::getline(in, line))
    if (line.find("\"wall_seconds\"") == std::string::npos) out += line + "\n";
  return out;
}

// The properties of one run; "" when they hold, else what failed.
inline std::string check_run(const std::string& yaml, const Run& r) {
  std::ostringstream bad;
  if (r.rc == 2) {
    // A clear error: the file, line and column, then the key path.
    if (r.error.rfind("generated.yaml:", 0) != 0) bad << "config error without a place: ";
    return bad.str().empty() ? "" : bad.str() + r.error;
  }
  if (r.rc != 0 && r.rc != 3) {
    bad << "run ended with " << (r.rc == -SIGALRM ? "a timeout" : "code " + std::to_string(r.rc))
        << (r.error.empty() ? "" : ": " + r.error);
    return bad.str();
  }
  const std::string& js = r.json;
  if (js.empty()) return "no results.json";
  if ((js.find("\"stable\": true") != std::string::npos) != (r.rc == 0))
    bad << "exit code " << r.rc << " does not match 'stable'; ";
  const Config c = parse_config(yaml, "generated.yaml");
  const bool partial = js.find("\"partial\": true") != std::string::npos;
  // Bounded: the window, the drain and a deadlock's watch, or the trace's last request.
  std::uint64_t last = c.simulation.warmup + c.simulation.measure;
  for (const TraceMessage& m : c.traffic.messages) last = std::max(last, m.time);
  const double cycles = number(js, "", "cycles");
  if (cycles < 0 || cycles > static_cast<double>(last + c.simulation.drain_limit +
                                                 c.simulation.deadlock_cycles + 1000))
    bad << "ran " << cycles << " cycles; ";
  // Flits are conserved: delivered <= injected + zero-hop <= created, and what the records add
  // up to is what was delivered; a finished trace delivers everything.
  const double created = number(js, "flits", "created"), injected = number(js, "flits", "injected");
  const double delivered = number(js, "flits", "delivered");
  const double zf = static_cast<double>(r.zero_hop_flits);
  const bool broadcast = c.traffic.broadcast.enabled();
  // (A broadcast is created and delivered once per receiver, injected once: routers copy it.)
  if (!(delivered <= created &&
        (broadcast || (delivered <= injected + zf && injected + zf <= created))))
    bad << "flits created " << created << ", injected " << injected << " (+" << zf
        << " zero-hop), delivered " << delivered << "; ";
  const double pk_in = number(js, "packets", "injected"),
               pk_out = number(js, "packets", "delivered");
  if (pk_out > pk_in) bad << "packets delivered " << pk_out << " > created " << pk_in << "; ";
  if (!broadcast) {
    // A packet is recorded when its last flit is in; flits are counted as they arrive, so the
    // packets still arriving at the end hold the difference (at most L - 1 flits each).
    int most = c.traffic.packet_flits;
    for (const TraceMessage& m : c.traffic.messages) most = std::max(most, m.flits);
    const double partial_flits = delivered - static_cast<double>(r.record_flits);
    if (static_cast<double>(r.records) != pk_out)
      bad << r.records << " packet records, " << pk_out << " delivered; ";
    if (partial_flits < 0 || partial_flits > (pk_in - pk_out) * (most - 1))
      bad << "records carry " << r.record_flits << " flits, " << delivered << " delivered, "
          << pk_in - pk_out << " packets of up to " << most << " flits still on their way; ";
  }
  if (c.traffic.trace && r.rc == 0 && !partial && (delivered != created || pk_out != pk_in))
    bad << "a stable trace run left flits behind (" << created << " created, " << delivered
        << " delivered); ";
  if (number(js, "latency", "count") > number(js, "packets", "measured") && !broadcast)
    bad << "more latency samples than measured packets; ";
  // No flit out of order, no credit below 0 or above the depth, no forbidden turn, every
  // intermediate node reached, minimal algorithms minimal.
  if (number(js, "flits", "order_errors") != 0) bad << "order errors; ";
  if (number(js, "flits", "credit_violations") != 0) bad << "credit violations; ";
  const std::string& a = c.routing.algorithm;
  if (a != "dimension_order") {
    if (number(js, "routing", "forbidden_turns") != 0) bad << "forbidden turns; ";
    if (number(js, "routing", "intermediate_missed") != 0) bad << "intermediate nodes missed; ";
    if (!nonminimal_algorithm(a) && number(js, "routing", "nonminimal_packets") != 0)
      bad << "non-minimal packets under " << a << "; ";
  }
  // Zero-load sanity: no packet faster than the formula of its shortest path's hops.
  if (r.too_fast)
    bad << r.too_fast << " packets faster than zero load (" << r.first_too_fast << "); ";
  return bad.str();
}

// Runs seeds [first, first + count) in child processes and checks each (gtest failures name the
// seed and print its config); every `rerun_every`-th seed runs twice, the second time with
// simulation.threads 2..4, and must give the same results.json (one thread where the key does
// not apply). Returns how many ran (the others were config errors).
inline int check_seeds(std::uint64_t first, int count, const Scale& scale, int rerun_every,
                       int seconds) {
  int ran = 0, stable = 0;
  std::uint64_t packets = 0;
  for (std::uint64_t s = first; s < first + static_cast<std::uint64_t>(count); ++s) {
    const std::string yaml = random_config(s, scale);
    // Every fifth seed under a small address space (ulimit -v): the same properties hold.
    const Run r = run_in_child(yaml, seconds, s % 5 == 2 ? 400 : 0);
    const std::string bad = check_run(yaml, r);
    EXPECT_EQ(bad, "") << "seed " << s << "\n" << yaml;
    if (r.rc == 2) {
      std::printf("seed %llu: config error: %s\n", static_cast<unsigned long long>(s),
                  r.error.c_str());
      continue;
    }
    ++ran;
    stable += r.rc == 0;
    packets += r.records;
    if (rerun_every > 0 && s % static_cast<std::uint64_t>(rerun_every) == 0) {
      std::string threaded = yaml;
      const std::size_t at = threaded.find("simulation: {");
      if (at != std::string::npos)
        threaded.insert(at + 13, "threads: " + std::to_string(2 + s % 3) + ", ");
      const Run again = run_in_child(threaded, seconds);
      EXPECT_EQ(without_wall_time(again.json), without_wall_time(r.json))
          << "seed " << s << ": a second run of the same config, on more threads, differs\n"
          << threaded;
    }
  }
  std::printf("seeds %llu..%llu: %d ran (%d stable, %d not), %llu packets checked\n",
              static_cast<unsigned long long>(first),
              static_cast<unsigned long long>(first + count - 1), ran, stable, ran - stable,
              static_cast<unsigned long long>(packets));
  return ran;
}

}  // namespace sy::prop
