// Example TLM-2.0 users of the network: a processing element that reads from a memory node and
// the memory that answers it. Both talk to their node's NetworkInterface only through sockets:
// an initiator socket bound to the NI's `target` (to send) and a target socket bound to the NI's
// `rx` (to receive). Used by tb/pe_memory_main.cpp (the example program) and tests/test_tlm.cpp.
//
// Protocol (application level, carried as message data):
//   request  = 16 bytes {op, address, length, tag}   op 1 = read, 2 = write (data follows)
//   reply    = read: `length` bytes of memory; write: 4 bytes {tag}
// The memory answers `service` cycles after a request has arrived. The processing element sends
// one request, waits for its reply, thinks for `think` cycles, and records each round trip.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>
#include <systemc>
#include <tlm>
#include <vector>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/network.hpp"
#include "switchyard/network/noc_extension.hpp"

namespace sy::example {

struct Request {
  std::uint32_t op, address, length, tag;
};
constexpr std::uint32_t kRead = 1, kWrite = 2;

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> in;      // <- NI rx
  tlm_utils::simple_initiator_socket<Memory> out;  // -> NI target

  Memory(sc_core::sc_module_name name, std::uint32_t bytes, int service_cycles)
      : sc_core::sc_module(name), in("in"), out("out"), mem_(bytes), service_(service_cycles) {
    for (std::uint32_t i = 0; i < bytes; ++i) mem_[i] = static_cast<unsigned char>(i * 7 + 3);
    in.register_b_transport(this, &Memory::receive);
    reply_.set_extension(&ext_);
  }
  ~Memory() override { reply_.clear_extension(&ext_); }
  std::uint64_t requests = 0, bad_requests = 0;

 private:
  // Called from the network's clock process: answer at once with an annotated delay, no wait().
  void receive(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    Request rq;
    if (!gp.get_data_ptr() || gp.get_data_length() < sizeof rq) {
      ++bad_requests;
      return;
    }
    std::memcpy(&rq, gp.get_data_ptr(), sizeof rq);
    ++requests;
    const int src = static_cast<int>(gp.get_address());
    if (rq.op == kWrite) {
      const std::uint32_t n = gp.get_data_length() - static_cast<std::uint32_t>(sizeof rq);
      if (rq.address + n <= mem_.size())
        std::memcpy(&mem_[rq.address], gp.get_data_ptr() + sizeof rq, n);
      buf_.assign(4, 0);
      std::memcpy(buf_.data(), &rq.tag, 4);
    } else {
      buf_.assign(rq.length, 0);
      if (rq.address + rq.length <= mem_.size())
        std::memcpy(buf_.data(), &mem_[rq.address], rq.length);
    }
    const auto* in_ext = gp.get_extension<NocExtension>();
    ext_.priority = in_ext ? in_ext->priority : 0;
    ext_.tag = rq.tag;
    reply_.set_command(tlm::TLM_WRITE_COMMAND);
    reply_.set_address(static_cast<sc_dt::uint64>(src));
    reply_.set_data_ptr(buf_.data());
    reply_.set_data_length(static_cast<unsigned>(buf_.size()));
    reply_.set_streaming_width(static_cast<unsigned>(buf_.size()));
    reply_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time t = delay + static_cast<double>(service_) * cycle_period();
    out->b_transport(reply_, t);
  }
  std::vector<unsigned char> mem_;
  int service_;
  tlm::tlm_generic_payload reply_;
  NocExtension ext_;
  std::vector<unsigned char> buf_;
};

class Processor : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Processor> out;  // -> NI target
  tlm_utils::simple_target_socket<Processor> in;      // <- NI rx
  SC_HAS_PROCESS(Processor);

  Processor(sc_core::sc_module_name name, int memory_node, int requests, std::uint32_t read_bytes,
            int think_cycles, Cycle start)
      : sc_core::sc_module(name),
        out("out"),
        in("in"),
        memory_(memory_node),
        requests_(requests),
        read_bytes_(read_bytes),
        think_(think_cycles),
        start_(start) {
    in.register_b_transport(this, &Processor::receive);
    SC_THREAD(run);
  }

  struct Trip {
    Cycle requested, replied;
    bool data_ok;
  };
  std::vector<Trip> trips;
  int errors = 0;  // refused requests

 private:
  void run() {
    wait(time_of(start_));
    for (int i = 0; i < requests_; ++i) {
      const Request rq{kRead, static_cast<std::uint32_t>(i) * 8u, read_bytes_,
                       static_cast<std::uint32_t>(i)};
      std::memcpy(req_buf_, &rq, sizeof rq);
      tlm::tlm_generic_payload gp;
      NocExtension ext;
      ext.tag = static_cast<std::uint64_t>(i);
      gp.set_extension(&ext);
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(static_cast<sc_dt::uint64>(memory_));
      gp.set_data_ptr(req_buf_);
      gp.set_data_length(sizeof rq);
      gp.set_streaming_width(sizeof rq);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const Cycle t0 = cycle_ceil(sc_core::sc_time_stamp());
      out->b_transport(gp, delay);
      gp.clear_extension(&ext);
      if (!gp.is_response_ok()) {
        ++errors;
        return;
      }
      wait(replied_);
      const Cycle t1 = cycle_ceil(sc_core::sc_time_stamp());
      bool ok = reply_.size() == read_bytes_;
      for (std::uint32_t k = 0; ok && k < read_bytes_; ++k)
        ok = reply_[k] == static_cast<unsigned char>((rq.address + k) * 7 + 3);
      trips.push_back({t0, t1, ok});
      if (think_ > 0) wait(time_of(static_cast<Cycle>(think_)));
    }
  }
  // Called from the network's clock process with the delivery time as delay: wake the thread then.
  void receive(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const unsigned char* d = gp.get_data_ptr();
    reply_.assign(d, d ? d + gp.get_data_length() : d);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    replied_.notify(delay);
  }
  int memory_, requests_;
  std::uint32_t read_bytes_;
  int think_;
  Cycle start_;
  unsigned char req_buf_[sizeof(Request)];
  std::vector<unsigned char> reply_;
  sc_core::sc_event replied_;
};

}  // namespace sy::example
