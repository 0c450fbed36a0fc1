// MemoryBridge: standard TLM-2.0 memory traffic (READ and WRITE payloads) carried over the
// network as request and reply messages, so that a core model and a memory model talk through
// the network without a protocol of their own. One bridge per node, attached to its NI
// (attach(ni): the NI's target and rx). Either side or both may be used at a node:
//  - `core` (target socket): a core's READ or WRITE to a global address goes as a request to
//    node node_of(address) (the address passed on unchanged); b_transport blocks until the reply
//    is back (call it from an SC_THREAD), then a READ's data are in the payload and the response
//    status is the memory's. Any number of threads may have requests out at once.
//  - `memory` (initiator socket): requests arriving at this node are played to the memory model
//    bound there (loosely timed: it must not wait(), it may annotate a delay), and the reply goes
//    back `service_cycles` cycles later plus the memory's annotated delay.
// Messages: a 24-byte header {op, status, length, tag, address}, then the data (a WRITE's in its
// request, a READ's in its reply). Their flits are ordinary traffic: latency, contention, waves.
#pragma once
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

namespace sy {

class NetworkInterface;

class MemoryBridge : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket_optional<MemoryBridge> core;  // any number of cores
  tlm_utils::simple_initiator_socket_optional<MemoryBridge> memory;
  tlm_utils::simple_initiator_socket<MemoryBridge> to_ni;  // -> NI target
  tlm_utils::simple_target_socket<MemoryBridge> from_ni;   // <- NI rx

  // node_of: the memory node that serves a global address.
  MemoryBridge(sc_core::sc_module_name name, std::function<int(std::uint64_t)> node_of,
               int service_cycles = 0);
  void attach(NetworkInterface& ni);

  struct Header {
    std::uint32_t op, status, length, tag;
    std::uint64_t address;
  };
  static constexpr std::uint32_t kReadRequest = 1, kWriteRequest = 2, kReply = 0x80;
  std::uint64_t requests_sent = 0, requests_served = 0, bad_messages = 0;

 private:
  void core_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void receive(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void serve(const Header& h, const unsigned char* data, int src, sc_core::sc_time delay);
  struct Pending {
    bool busy = false, done = false;
    tlm::tlm_generic_payload* gp = nullptr;
    sc_core::sc_event replied;
  };
  std::function<int(std::uint64_t)> node_of_;
  int service_;
  std::vector<std::unique_ptr<Pending>> pending_;  // by tag
  std::vector<unsigned char> out_buf_, data_buf_;
};

}  // namespace sy
