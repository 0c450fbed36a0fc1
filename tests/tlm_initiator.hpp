// A TLM-2.0 initiator for the tests: a thread that runs a test body, bound to one NI's target
// socket, with a send() that builds the generic payload.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>

#include "switchyard/network/noc_extension.hpp"

namespace sy::test {

class Initiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Initiator> out;
  SC_HAS_PROCESS(Initiator);
  Initiator(sc_core::sc_module_name n, std::function<void(Initiator&)> body)
      : sc_core::sc_module(n), out("out"), body_(std::move(body)) {
    SC_THREAD(run);
  }
  // Sends `bytes` bytes of `data` (or none) to `dst` with an optional extension.
  tlm::tlm_response_status send(std::uint64_t dst, unsigned bytes, unsigned char* data,
                                NocExtension* ext = nullptr,
                                tlm::tlm_command cmd = tlm::TLM_WRITE_COMMAND,
                                sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(dst);
    gp.set_data_ptr(data);
    gp.set_data_length(bytes);
    gp.set_streaming_width(bytes);
    if (ext) gp.set_extension(ext);
    out->b_transport(gp, delay);
    if (ext) gp.clear_extension(ext);
    return gp.get_response_status();
  }

 private:
  void run() { body_(*this); }
  std::function<void(Initiator&)> body_;
};

}  // namespace sy::test
