// The NIs' TLM-2.0 sockets: round trips of the example processing element and memory against
// the zero-load formula, response statuses of bad requests, multicast/broadcast with data,
// loosely-timed delay annotation, and the built-in sources using the same socket.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <sstream>

#include "helpers.hpp"
#include "pe_memory.hpp"
#include "switchyard/base/clock.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/sim/analysis.hpp"
#include "tlm_initiator.hpp"

using namespace sy;

namespace {

using test::Initiator;

std::unique_ptr<Initiator> g_init;
std::vector<Delivery> g_got;
std::vector<std::vector<unsigned char>> g_data;

void record_all(Network& net) {
  for (int n = 0; n < net.topology().num_nodes(); ++n)
    net.ni(n).on_receive([](const Delivery& d) {
      g_got.push_back(d);
      g_data.emplace_back(d.data ? std::vector<unsigned char>(d.data, d.data + d.bytes)
                                 : std::vector<unsigned char>{});
    });
}

const char* kTorus =
    "topology: {type: torus, dims: [4, 4]}\n"
    "router: {priority_classes: 2}\n"
    "timing: {alpha: 2, delta: 1, tau: 1}\n"
    "network_interface: {flit_bytes: 8}\n"
    "traffic: {type: none}\n";

}  // namespace

struct TripCase {
  std::string name, yaml;
};
std::ostream& operator<<(std::ostream& o, const TripCase& c) {
  return o << c.name;
}

class RoundTrip : public ::testing::TestWithParam<TripCase> {};

TEST_P(RoundTrip, IsolatedReadsTakeTheZeroLoadFormulaBothWays) {
  const Config cfg = test::cfg(GetParam().yaml);
  const Topology topo = cfg.topology.make();
  const int memory = 0, pe = topo.num_nodes() - 1, service = 3, bytes = 40, requests = 5;
  std::unique_ptr<example::Memory> mem;
  std::unique_ptr<example::Processor> cpu;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    mem.reset(new example::Memory("memory", 1024, service));
    mem->out.bind(net.ni(memory).target);
    net.ni(memory).rx.bind(mem->in);
    cpu.reset(new example::Processor("pe", memory, requests, bytes, 7, 11));
    cpu->out.bind(net.ni(pe).target);
    net.ni(pe).rx.bind(cpu->in);
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  const int fb = cfg.interface.flit_bytes;
  const int h = topo.distance(pe, memory);
  const long long formula = zero_load_latency(cfg, h, (16 + fb - 1) / fb) + service +
                            zero_load_latency(cfg, h, (bytes + fb - 1) / fb);
  ASSERT_EQ(static_cast<int>(cpu->trips.size()), requests);
  EXPECT_EQ(cpu->trips[0].requested, 11u);
  for (const auto& t : cpu->trips) {
    EXPECT_EQ(static_cast<long long>(t.replied - t.requested), formula);
    EXPECT_TRUE(t.data_ok);
  }
  EXPECT_EQ(mem->requests, static_cast<std::uint64_t>(requests));
  EXPECT_EQ(r.packets_delivered, 2u * requests);
}

INSTANTIATE_TEST_SUITE_P(
    Tlm, RoundTrip,
    ::testing::Values(
        TripCase{"torus_wormhole", kTorus},
        TripCase{"torus_wormhole_slow_links",
                 "topology: {type: torus, dims: [5, 3]}\ntiming: {alpha: 0, delta: 0, tau: 3}\n"
                 "network_interface: {flit_bytes: 4}\ntraffic: {type: none}\n"},
        TripCase{"mesh_store_and_forward",
                 "topology: {type: mesh, dims: [3, 3, 2]}\n"
                 "router: {switching: store_and_forward, vc_depth: 8}\n"
                 "timing: {alpha: 1, delta: 2, tau: 1}\ntraffic: {type: none}\n"},
        TripCase{"hypercube_output_queued",
                 "topology: {type: hypercube, dim: 4}\nrouter: {buffering: output_queued}\n"
                 "timing: {alpha: 3, delta: 2, tau: 2}\nnetwork_interface: {flit_bytes: 16}\n"
                 "traffic: {type: none}\n"}),
    [](const ::testing::TestParamInfo<TripCase>& i) { return i.param.name; });

TEST(Tlm, BadRequestsGetErrorResponsesNotAborts) {
  std::vector<tlm::tlm_response_status> st;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    g_init.reset(new Initiator("init", [&](Initiator& i) {
      unsigned char b[8] = {};
      NocExtension bad_prio;
      bad_prio.priority = 2;  // classes 0..1
      NocExtension bad_mc;
      bad_mc.multicast = {1, 16};
      st.push_back(i.send(16, 8, b));                                 // no node 16
      st.push_back(i.send(1, 8, b, &bad_prio));                       // no class 2
      st.push_back(i.send(1, 8, b, nullptr, tlm::TLM_READ_COMMAND));  // reads are not messages
      st.push_back(i.send(1, 8, b, &bad_mc));                         // node 16 in the list
      st.push_back(i.send(1, 8, b));                                  // fine
    }));
    g_init->out.bind(net.ni(0).target);
    record_all(net);
  };
  const Results r = run_simulation(test::cfg(kTorus), opt);
  ASSERT_EQ(st.size(), 5u);
  EXPECT_EQ(st[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(st[1], tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(st[2], tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(st[3], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(st[4], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r.packets_delivered, 1u);  // only the good one went anywhere
  EXPECT_EQ(r.requests_rejected, 4u);
  ASSERT_EQ(g_got.size(), 1u);
  EXPECT_EQ(g_got[0].dst, 1);
}

TEST(Tlm, MulticastAndBroadcastDeliverTheDataToEachDestination) {
  RunOptions opt;
  unsigned char payload[20];
  for (int k = 0; k < 20; ++k) payload[k] = static_cast<unsigned char>(100 + k);
  opt.attach = [&](Network& net) {
    g_init.reset(new Initiator("init", [&](Initiator& i) {
      NocExtension mc;
      mc.multicast = {3, 7, 12};
      mc.priority = 1;
      mc.tag = 42;
      EXPECT_EQ(i.send(0, 20, payload, &mc), tlm::TLM_OK_RESPONSE);
      wait(100, sc_core::SC_NS);
      NocExtension bc;
      bc.broadcast = true;
      bc.tag = 43;
      EXPECT_EQ(i.send(0, 20, payload, &bc), tlm::TLM_OK_RESPONSE);
    }));
    g_init->out.bind(net.ni(5).target);
    record_all(net);
  };
  const Results r = run_simulation(test::cfg(kTorus), opt);
  ASSERT_TRUE(r.stable) << r.unstable_reason;
  ASSERT_EQ(g_got.size(), 3u + 15u);
  std::vector<int> bc_hits(16, 0);
  for (std::size_t k = 0; k < g_got.size(); ++k) {
    const Delivery& d = g_got[k];
    EXPECT_EQ(d.src, 5);
    EXPECT_EQ(d.bytes, 20u);
    EXPECT_EQ(g_data[k], std::vector<unsigned char>(payload, payload + 20));
    if (d.tag == 42) {
      EXPECT_TRUE(d.dst == 3 || d.dst == 7 || d.dst == 12) << d.dst;
      EXPECT_EQ(d.priority, 1);
    } else {
      EXPECT_EQ(d.tag, 43u);
      ++bc_hits[d.dst];
    }
  }
  for (int n = 0; n < 16; ++n) EXPECT_EQ(bc_hits[n], n == 5 ? 0 : 1) << n;
}

TEST(Tlm, AnnotatedDelayIsTheRequestTimeRoundedUpToACycle) {
  const Config cfg = test::cfg(kTorus);
  RunOptions opt;
  opt.attach = [&](Network& net) {
    g_init.reset(new Initiator("init", [&](Initiator& i) {
      wait(3, sc_core::SC_NS);
      unsigned char b[24] = {};
      // Local time 3 ns + 7.5 ns: the message is requested at cycle 11.
      i.send(10, 24, b, nullptr, tlm::TLM_WRITE_COMMAND, sc_core::sc_time(7.5, sc_core::SC_NS));
    }));
    g_init->out.bind(net.ni(0).target);
    record_all(net);
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_EQ(g_got.size(), 1u);
  const Delivery& d = g_got[0];
  EXPECT_EQ(d.created, 11u);
  const Topology topo = cfg.topology.make();
  EXPECT_EQ(static_cast<long long>(d.delivered - d.created),
            zero_load_latency(cfg, topo.distance(0, 10), 3));
  EXPECT_EQ(r.packets_delivered, 1u);
}

// network_interface.clock_ns sets the period TLM time is counted in: at 2.5 ns a cycle, a
// request at 3 ns + 20 ns is taken at cycle ceil(23 / 2.5) = 10, and the reply's time is in
// that clock too.
TEST(Tlm, ClockPeriodIsTheConfigs) {
  std::string y = kTorus;
  y.replace(y.find("{flit_bytes: 8}"), 15, "{flit_bytes: 8, clock_ns: 2.5}");
  const Config cfg = test::cfg(y);
  RunOptions opt;
  opt.attach = [&](Network& net) {
    g_init.reset(new Initiator("init", [&](Initiator& i) {
      wait(3, sc_core::SC_NS);
      unsigned char b[24] = {};
      i.send(10, 24, b, nullptr, tlm::TLM_WRITE_COMMAND, sc_core::sc_time(20, sc_core::SC_NS));
    }));
    g_init->out.bind(net.ni(0).target);
    record_all(net);
  };
  const Results r = run_simulation(cfg, opt);
  ASSERT_EQ(g_got.size(), 1u);
  EXPECT_EQ(g_got[0].created, 10u);
  EXPECT_EQ(cycle_period(), sc_core::sc_time(2.5, sc_core::SC_NS));
  EXPECT_EQ(r.packets_delivered, 1u);
  EXPECT_NE(test::config_error("network_interface: {clock_ns: 0.0005}\n").find("clock_ns"),
            std::string::npos);
  EXPECT_NE(test::config_error("network_interface: {clock_ns: 1.0001}\n").find("picoseconds"),
            std::string::npos);
}

TEST(Tlm, BuiltInSourcesUseTheSameSocket) {
  const std::string y =
      "topology: {type: torus, dims: [3, 3]}\n"
      "traffic:\n  type: trace\n  messages:\n"
      "    - {time: 0, src: 0, dst: 4, flits: 3}\n"
      "    - {time: 2, src: 8, dst: 1, flits: 5}\n";
  bool bound_once = true;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    for (int n = 0; n < 9; ++n) bound_once &= net.ni(n).target.size() == 1;
    record_all(net);
  };
  const Results r = run_simulation(test::cfg(y), opt);
  EXPECT_TRUE(bound_once);
  ASSERT_EQ(g_got.size(), 2u);
  EXPECT_EQ(g_got[0].src, 0);
  EXPECT_EQ(g_got[0].bytes, 3u * 16u);  // flits * flit_bytes
  EXPECT_EQ(g_got[1].src, 8);
  EXPECT_EQ(r.packets_delivered, 2u);
}

// Issue 16, finding 10: payload lengths whose flit count would wrap (0xFFFFFFFF bytes of 16-byte
// flits), beyond the documented maximum message, and delays past the end of simulated time are
// refused with TLM_GENERIC_ERROR_RESPONSE and counted as rejected; nothing is sent.
TEST(Tlm, PayloadLengthsThatWouldWrapAreRefusedAndCounted) {
  std::vector<tlm::tlm_response_status> st;
  RunOptions opt;
  opt.attach = [&](Network& net) {
    g_init.reset(new Initiator("init", [&](Initiator& i) {
      st.push_back(i.send(1, 0xFFFFFFFFu, nullptr));
      st.push_back(i.send(1, 0x80000000u, nullptr));
      st.push_back(i.send(1, 1u << 30, nullptr));  // 1 GiB: 2^27 flits of 8 bytes
      st.push_back(i.send(1, 8, nullptr, nullptr, tlm::TLM_WRITE_COMMAND,
                          sc_core::sc_time::from_value(~sc_dt::uint64{0})));  // 2^64 - 1 ps
      st.push_back(i.send(1, 64, nullptr));                                   // fine: 8 flits
    }));
    g_init->out.bind(net.ni(0).target);
    record_all(net);
  };
  const Results r = run_simulation(test::cfg(kTorus), opt);
  ASSERT_EQ(st.size(), 5u);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(st[k], tlm::TLM_GENERIC_ERROR_RESPONSE) << k;
  EXPECT_EQ(st[4], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r.requests_rejected, 4u);
  EXPECT_EQ(r.packets_delivered, 1u);
  EXPECT_EQ(r.flits_delivered, 8u);
}
