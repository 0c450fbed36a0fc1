// TLM-2.0 on the installed library: cores at nodes 0 and 10 of a 4x4 torus write to and read
// back from a memory model at node 5 through sy::MemoryBridge (standard READ/WRITE payloads,
// blocking b_transport); prints each read's round trip beside the zero-load formula (request
// and reply messages + service time) and exits 1 if a read returns the wrong data.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/memory_bridge.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/sim/analysis.hpp"
#include "switchyard/sim/simulation.hpp"

namespace {

struct Ram : sc_core::sc_module {  // a loosely-timed memory of 64 KB
  tlm_utils::simple_target_socket<Ram> in{"in"};
  std::vector<unsigned char> mem = std::vector<unsigned char>(65536, 0);
  explicit Ram(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &Ram::transport);
  }
  void transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    const std::uint64_t a = gp.get_address() & 0xFFFF;
    if (a + gp.get_data_length() > mem.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    unsigned char* d = gp.get_data_ptr();
    if (gp.is_read())
      std::memcpy(d, &mem[a], gp.get_data_length());
    else
      std::memcpy(&mem[a], d, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Core : sc_core::sc_module {  // writes 64 bytes, reads them back, four times
  tlm_utils::simple_initiator_socket<Core> out{"out"};
  int id;
  int errors = 0;
  std::vector<sy::Cycle> read_trips;
  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name n, int core_id) : sc_core::sc_module(n), id(core_id) {
    SC_THREAD(run);
  }
  void access(tlm::tlm_command cmd, std::uint64_t addr, unsigned char* d, unsigned n) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(d);
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(gp, delay);
    if (!gp.is_response_ok()) ++errors;
  }
  void run() {
    for (int k = 0; k < 4; ++k) {
      unsigned char w[64], r[64];
      for (int i = 0; i < 64; ++i) w[i] = static_cast<unsigned char>(id * 31 + k * 7 + i);
      const std::uint64_t addr = 0x1000u * static_cast<unsigned>(id) + 64u * k;
      access(tlm::TLM_WRITE_COMMAND, addr, w, 64);
      const sy::Cycle t0 = sy::cycle_ceil(sc_core::sc_time_stamp());
      access(tlm::TLM_READ_COMMAND, addr, r, 64);
      read_trips.push_back(sy::cycle_ceil(sc_core::sc_time_stamp()) - t0);
      if (std::memcmp(w, r, 64) != 0) ++errors;
      wait(sy::time_of(50));
    }
  }
};

}  // namespace

int sc_main(int, char**) {
  const sy::Config cfg = sy::parse_config(
      "topology: {type: torus, dims: [4, 4]}\n"
      "timing: {alpha: 2, delta: 1, tau: 1}\n"
      "network_interface: {flit_bytes: 8}\n"
      "traffic: {type: none}\n",
      "<example>");
  const int memory = 5, service = 4;
  std::vector<std::unique_ptr<sc_core::sc_module>> keep;
  std::vector<Core*> cores;
  sy::RunOptions opt;
  opt.attach = [&](sy::Network& net) {
    auto node_of = [memory](std::uint64_t) { return memory; };
    auto* ram = new Ram("ram");
    auto* mb = new sy::MemoryBridge("memory_bridge", node_of, service);
    mb->memory.bind(ram->in);
    mb->attach(net.ni(memory));
    keep.emplace_back(ram);
    keep.emplace_back(mb);
    for (int node : {0, 10}) {
      auto* cb = new sy::MemoryBridge(("bridge" + std::to_string(node)).c_str(), node_of);
      auto* core = new Core(("core" + std::to_string(node)).c_str(), node);
      core->out.bind(cb->core);
      cb->attach(net.ni(node));
      keep.emplace_back(cb);
      keep.emplace_back(core);
      cores.push_back(core);
    }
  };
  sy::run_simulation(cfg, opt);
  const sy::Topology topo = cfg.topology.make();
  const int header = sizeof(sy::MemoryBridge::Header);
  int errors = 0;
  for (Core* c : cores) {
    const int h = topo.distance(c->id, memory);
    const long long formula = sy::zero_load_latency(cfg, h, (header + 7) / 8) + service +
                              sy::zero_load_latency(cfg, h, (header + 64 + 7) / 8);
    std::printf("core at node %d (%d hops): read round trips", c->id, h);
    for (sy::Cycle t : c->read_trips) std::printf(" %llu", static_cast<unsigned long long>(t));
    std::printf(" cycles (zero-load formula %lld), %d errors\n", formula, c->errors);
    errors += c->errors;
  }
  std::printf("data %s\n", errors ? "WRONG" : "ok");
  return errors ? 1 : 0;
}
