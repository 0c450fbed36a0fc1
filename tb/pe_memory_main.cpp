// pe_memory: example of driving the network from your own TLM-2.0 modules. Processing elements at
// some nodes read from a memory at another node through the NIs' sockets; each round trip is
// timed on the cycle model and printed beside the zero-load formula of an isolated round trip:
//   T(request) + service + T(reply),  T = alpha + h*delta + L*tau (wormhole).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "pe_memory.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/simulation.hpp"

namespace {

// Node numbers and counts: whole numbers from 0 to 2^24 (CLI11 prefixes the option's name).
CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long x = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || errno == ERANGE || x < 0 || x > (1 << 24))
          return "needs a whole number from 0 to " + std::to_string(1 << 24) + ", not '" + v + "'";
        return "";
      },
      "");
}

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace sy;
  std::string path;
  std::vector<std::string> sets;
  int memory = 0, requests = 4, bytes = 64, think = 10, service = 5;
  std::vector<int> pes;
  CLI::App app(
      "pe_memory - processing elements reading a memory through the NIs' TLM-2.0 "
      "sockets; each round trip beside the zero-load formula",
      "pe_memory");
  app.add_option("CONFIG", path, "the network (YAML), with traffic: {type: none}")
      ->required()
      ->type_name("");
  app.add_option("--set", sets, "change a config key before validation (repeatable, in order)")
      ->type_name("KEY.PATH=VALUE")
      ->allow_extra_args(false);  // one value per --set, kept whole ([4,4] is not split)
  app.add_option("--memory", memory, "the memory's node (default 0)")
      ->type_name("NODE")
      ->check(whole_number());
  app.add_option("--pes", pes, "the PEs' nodes (default: the node farthest from the memory)")
      ->type_name("N1,N2,...")
      ->delimiter(',')
      ->allow_extra_args(false)  // one argument per --pes: CONFIG may follow it
      ->check(whole_number());
  app.add_option("--requests", requests, "reads per PE (default 4)")
      ->type_name("R")
      ->check(whole_number());
  app.add_option("--bytes", bytes, "bytes per read (default 64)")
      ->type_name("B")
      ->check(whole_number());
  app.add_option("--think", think, "cycles a PE waits between reads (default 10)")
      ->type_name("T")
      ->check(whole_number());
  app.add_option("--service", service, "the memory's service time in cycles (default 5)")
      ->type_name("S")
      ->check(whole_number());
  app.footer("exit codes: 0 ok, 1 usage or I/O error or a bad reply, 2 bad config");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "pe_memory: %s\n(see pe_memory --help)\n", e.what());
    return 1;
  }
  {
    // A config file that cannot be read is an I/O error (exit 1), as in switchyard.
    std::error_code ec;
    std::ifstream f(path);
    if (std::filesystem::is_directory(path, ec) || !f) {
      std::fprintf(stderr, "pe_memory: cannot open config file '%s'%s%s\n", path.c_str(),
                   f ? ": it is a directory" : ": ", f ? "" : std::strerror(errno));
      return 1;
    }
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
