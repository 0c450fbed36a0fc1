// MemoryBridge: a core's standard TLM READ and WRITE payloads reach a memory model at another
// node over the network and come back: the data are the memory's, the round trip is the two
// messages' zero-load latencies plus the service time exactly, concurrent requests from two
// threads each get their own reply, and a node without a memory answers with an error status.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <memory>

#include "helpers.hpp"
#include "switchyard/base/clock.hpp"
#include "switchyard/network/memory_bridge.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/sim/analysis.hpp"

using namespace sy;

namespace {

// A loosely-timed memory: 4 KB, answers at once.
struct Ram : sc_core::sc_module {
  tlm_utils::simple_target_socket<Ram> in;
  std::vector<unsigned char> mem = std::vector<unsigned char>(4096, 0);
  explicit Ram(sc_core::sc_module_name n) : sc_core::sc_module(n), in("in") {
    in.register_b_transport(this, &Ram::transport);
  }
  void transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    const std::uint64_t a = gp.get_address() & 0xFFF;
    const unsigned n = gp.get_data_length();
    if (a + n > mem.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (gp.is_read())
      std::memcpy(gp.get_data_ptr(), &mem[a], n);
    else
      std::memcpy(&mem[a], gp.get_data_ptr(), n);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// A core: one thread running a body with a blocking access().
struct Core : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Core> out;
  std::function<void(Core&)> body;
  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name n, std::function<void(Core&)> b)
      : sc_core::sc_module(n), out("out"), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() { body(*this); }
  tlm::tlm_response_status access(bool read, std::uint64_t addr, unsigned char* d, unsigned n) {
    tlm::tlm_generic_payload gp;
    gp.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(d);
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(gp, delay);
    return gp.get_response_status();
  }
};

const char* kNet =
    "topology: {type: torus, dims: [4, 4]}\n"
    "timing: {alpha: 2, delta: 1, tau: 1}\n"
    "network_interface: {flit_bytes: 8}\n"
    "traffic: {type: none}\n";

std::vector<std::unique_ptr<sc_core::sc_module>> g_keep;

}  // namespace

TEST(MemoryBridge, ReadsWhatWasWrittenInTheZeroLoadRoundTrip) {
  const Config cfg = test::cfg(kNet);
  const int service = 3;
  Cycle write_trip = 0, read_trip = 0;
  std::vector<unsigned char> got(32);
  tlm::tlm_response_status st_w = tlm::TLM_INCOMPLETE_RESPONSE, st_r = st_w;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    auto* ram = new Ram("ram");
    auto* mb = new MemoryBridge(
        "mem_bridge", [](std::uint64_t) { return 5; }, service);
    auto* cb = new MemoryBridge("core_bridge", [](std::uint64_t) { return 5; });
    auto* core = new Core("core", [&](Core& c) {
      wait(time_of(10));
      unsigned char w[32];
      for (int i = 0; i < 32; ++i) w[i] = static_cast<unsigned char>(i * 5 + 1);
      Cycle t0 = cycle_ceil(sc_core::sc_time_stamp());
      st_w = c.access(false, 0x100, w, 32);
      write_trip = cycle_ceil(sc_core::sc_time_stamp()) - t0;
      t0 = cycle_ceil(sc_core::sc_time_stamp());
      st_r = c.access(true, 0x100, got.data(), 32);
      read_trip = cycle_ceil(sc_core::sc_time_stamp()) - t0;
    });
    mb->memory.bind(ram->in);
    mb->attach(net.ni(5));
    core->out.bind(cb->core);
    cb->attach(net.ni(0));
    g_keep.emplace_back(ram);
    g_keep.emplace_back(mb);
    g_keep.emplace_back(cb);
    g_keep.emplace_back(core);
  };
  run_simulation(cfg, opt);
  EXPECT_EQ(st_w, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(st_r, tlm::TLM_OK_RESPONSE);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(got[i], static_cast<unsigned char>(i * 5 + 1)) << i;
  const int h = cfg.topology.make().distance(0, 5);
  const int hdr = sizeof(MemoryBridge::Header);
  auto flits = [](int bytes) { return (bytes + 7) / 8; };
  // WRITE: the request carries the data, the reply the header; READ: the other way round.
  EXPECT_EQ(
      static_cast<long long>(write_trip),
      zero_load_latency(cfg, h, flits(hdr + 32)) + service + zero_load_latency(cfg, h, flits(hdr)));
  EXPECT_EQ(static_cast<long long>(read_trip), zero_load_latency(cfg, h, flits(hdr)) + service +
                                                   zero_load_latency(cfg, h, flits(hdr + 32)));
}

TEST(MemoryBridge, ConcurrentRequestsAndAMissingMemory) {
  const Config cfg = test::cfg(kNet);
  unsigned char a[8] = {}, b[8] = {};
  tlm::tlm_response_status sa = tlm::TLM_INCOMPLETE_RESPONSE, sb = sa, sc = sa;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    auto* ram = new Ram("ram");
    for (int i = 0; i < 16; ++i) ram->mem[0x40 + i] = static_cast<unsigned char>(100 + i);
    // Addresses below 0x1000 live at node 5, the rest at node 9 (which has no memory).
    auto node_of = [](std::uint64_t addr) { return addr < 0x1000 ? 5 : 9; };
    auto* mb = new MemoryBridge("mem_bridge", node_of);
    auto* nb = new MemoryBridge("empty_bridge", node_of);
    auto* cb = new MemoryBridge("core_bridge", node_of);
    auto* c1 = new Core("c1", [&](Core& c) { sa = c.access(true, 0x40, a, 8); });
    auto* c2 = new Core("c2", [&](Core& c) {
      sb = c.access(true, 0x48, b, 8);
      unsigned char x[4];
      sc = c.access(true, 0x2000, x, 4);
    });
    mb->memory.bind(ram->in);
    mb->attach(net.ni(5));
    nb->attach(net.ni(9));
    c1->out.bind(cb->core);
    c2->out.bind(cb->core);
    cb->attach(net.ni(0));
    for (sc_core::sc_module* m :
         std::initializer_list<sc_core::sc_module*>{ram, mb, nb, cb, c1, c2})
      g_keep.emplace_back(m);
  };
  run_simulation(cfg, opt);
  EXPECT_EQ(sa, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(sb, tlm::TLM_OK_RESPONSE);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(a[i], 100 + i);
    EXPECT_EQ(b[i], 108 + i);
  }
  EXPECT_EQ(sc, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}
