// pe_memory: example of driving the network from your own TLM-2.0 modules. Processing elements at
// some nodes read from a memory at another node through the NIs' sockets; each round trip is
// timed on the cycle model and printed beside the zero-load formula of an isolated round trip:
//   T(request) + service + T(reply),  T = alpha + h*delta + L*tau (wormhole).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "pe_memory.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/simulation.hpp"

namespace {

const char* kUsage =
    "usage: pe_memory CONFIG [--set key=value]... [--memory NODE] [--pes N1,N2,...]\n"
    "                 [--requests R] [--bytes B] [--think T] [--service S]\n"
    "  CONFIG should have traffic: {type: none}. Defaults: memory 0, pes = the farthest node,\n"
    "  4 requests of 64 bytes each, think 10 cycles, memory service 5 cycles.\n";

int to_int(const char* s, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < 0 || v > (1 << 24)) {
    std::fprintf(stderr, "pe_memory: bad %s '%s'\n%s", what, s, kUsage);
    std::exit(1);
  }
  return static_cast<int>(v);
}

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace sy;
  std::string path;
  std::vector<std::string> sets;
  int memory = 0, requests = 4, bytes = 64, think = 10, service = 5;
  std::vector<int> pes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "pe_memory: %s needs a value\n%s", a.c_str(), kUsage);
        std::exit(1);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--set")
      sets.push_back(next());
    else if (a == "--memory")
      memory = to_int(next(), "--memory");
    else if (a == "--requests")
      requests = to_int(next(), "--requests");
    else if (a == "--bytes")
      bytes = to_int(next(), "--bytes");
    else if (a == "--think")
      think = to_int(next(), "--think");
    else if (a == "--service")
      service = to_int(next(), "--service");
    else if (a == "--pes") {
      std::string s = next();
      for (std::size_t p = 0; p <= s.size();) {
        const std::size_t q = std::min(s.find(',', p), s.size());
        pes.push_back(to_int(s.substr(p, q - p).c_str(), "--pes"));
        p = q + 1;
      }
    } else if (path.empty() && a[0] != '-')
      path = a;
    else {
      std::fprintf(stderr, "pe_memory: unknown argument '%s'\n%s", a.c_str(), kUsage);
      return 1;
    }
  }
  if (path.empty()) {
    std::fputs(kUsage, stderr);
    return 1;
  }
  Config cfg;
  try {
    cfg = load_config(path, sets);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "pe_memory: config error: %s\n", e.what());
    return 2;
  }
  const Topology topo = cfg.topology.make();
  const int N = topo.num_nodes();
  if (pes.empty()) {
    int far = 0;
    for (int n = 0; n < N; ++n)
      if (topo.distance(memory, n) > topo.distance(memory, far)) far = n;
    pes.push_back(far);
  }
  for (std::size_t i = 0; i < pes.size(); ++i)
    if (pes[i] >= N || pes[i] == memory || memory >= N ||
        std::find(pes.begin(), pes.begin() + static_cast<long>(i), pes[i]) !=
            pes.begin() + static_cast<long>(i)) {
      // One PE per node: each binds its node's receive socket once.
      std::fprintf(stderr,
                   "pe_memory: nodes must be < %d, the PEs other than the memory and each "
                   "named once\n",
                   N);
      return 1;
    }

  std::unique_ptr<example::Memory> mem;
  std::vector<std::unique_ptr<example::Processor>> cpus;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    const std::uint32_t mem_bytes = static_cast<std::uint32_t>(requests * 8 + bytes + 64);
    mem.reset(new example::Memory("memory", mem_bytes, service));
    mem->out.bind(net.ni(memory).target);
    net.ni(memory).rx.bind(mem->in);
    for (int n : pes) {
      cpus.emplace_back(new example::Processor(("pe" + std::to_string(n)).c_str(), memory, requests,
                                               static_cast<std::uint32_t>(bytes), think, 10));
      cpus.back()->out.bind(net.ni(n).target);
      net.ni(n).rx.bind(cpus.back()->in);
    }
  };
  const Results r = run_simulation(cfg, opt);

  const int fb = cfg.interface.flit_bytes;
  const int l_req = (static_cast<int>(sizeof(example::Request)) + fb - 1) / fb;
  const int l_rep = std::max(1, (bytes + fb - 1) / fb);
  std::printf("memory at node %d, service %d cycles; request %d flits, reply %d flits\n", memory,
              service, l_req, l_rep);
  std::printf("%-6s %5s %6s %10s %10s %10s %22s\n", "pe", "hops", "trips", "rtt min", "rtt mean",
              "rtt max", "isolated (formula)");
  int bad = 0;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    const auto& c = *cpus[i];
    const int h = topo.distance(pes[i], memory);
    const long long formula =
        zero_load_latency(cfg, h, l_req) + service + zero_load_latency(cfg, h, l_rep);
    Cycle lo = kNever, hi = 0;
    double sum = 0;
    for (const auto& t : c.trips) {
      const Cycle rtt = t.replied - t.requested;
      lo = std::min(lo, rtt);
      hi = std::max(hi, rtt);
      sum += static_cast<double>(rtt);
      bad += !t.data_ok;
    }
    bad += c.errors;
    if (c.trips.empty()) lo = 0;
    std::printf("%-6d %5d %6zu %10llu %10.1f %10llu %22lld\n", pes[i], h, c.trips.size(),
                static_cast<unsigned long long>(lo),
                c.trips.empty() ? 0.0 : sum / static_cast<double>(c.trips.size()),
                static_cast<unsigned long long>(hi), formula);
    if (static_cast<int>(c.trips.size()) != requests) ++bad;
  }
  std::printf("cycles %llu, packets delivered %llu, stable %s\n",
              static_cast<unsigned long long>(r.cycles),
              static_cast<unsigned long long>(r.packets_delivered), r.stable ? "true" : "false");
  if (bad) std::printf("ERROR: %d bad or missing replies\n", bad);
  return bad ? 1 : 0;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
