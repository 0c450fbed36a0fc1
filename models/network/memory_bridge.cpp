#include "switchyard/network/memory_bridge.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "switchyard/base/clock.hpp"
#include "switchyard/network/network_interface.hpp"

namespace sy {

MemoryBridge::MemoryBridge(sc_core::sc_module_name name, std::function<int(std::uint64_t)> node_of,
                           int service_cycles)
    : sc_core::sc_module(name),
      core("core"),
      memory("memory"),
      to_ni("to_ni"),
      from_ni("from_ni"),
      node_of_(std::move(node_of)),
      service_(service_cycles) {
  core.register_b_transport(this, &MemoryBridge::core_transport);
  from_ni.register_b_transport(this, &MemoryBridge::receive);
}

void MemoryBridge::attach(NetworkInterface& ni) {
  to_ni.bind(ni.target);
  ni.rx.bind(from_ni);
}

namespace {
// Sends header + data to node dst through the NI (posted: the NI copies the data).
tlm::tlm_response_status post(tlm_utils::simple_initiator_socket<MemoryBridge>& to_ni,
                              std::vector<unsigned char>& buf, const MemoryBridge::Header& h,
                              const unsigned char* data, std::uint32_t n, int dst,
                              sc_core::sc_time delay) {
  buf.resize(sizeof h + n);
  std::memcpy(buf.data(), &h, sizeof h);
  if (n) std::memcpy(buf.data() + sizeof h, data, n);
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(static_cast<sc_dt::uint64>(dst));
  gp.set_data_ptr(buf.data());
  gp.set_data_length(static_cast<unsigned>(buf.size()));
  gp.set_streaming_width(static_cast<unsigned>(buf.size()));
  to_ni->b_transport(gp, delay);
  return gp.get_response_status();
}
}  // namespace

void MemoryBridge::core_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const bool read = gp.is_read();
  if (!read && !gp.is_write()) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // A free slot: its index is the request's tag.
  std::size_t tag = 0;
  while (tag < pending_.size() && pending_[tag]->busy) ++tag;
  if (tag == pending_.size()) pending_.emplace_back(new Pending);
  Pending& p = *pending_[tag];
  p.busy = true;
  p.done = false;
  p.gp = &gp;
  const Header h{read ? kReadRequest : kWriteRequest, 0, gp.get_data_length(),
                 static_cast<std::uint32_t>(tag), gp.get_address()};
  ++requests_sent;
  const tlm::tlm_response_status st = post(to_ni, out_buf_, h, read ? nullptr : gp.get_data_ptr(),
                                           read ? 0 : h.length, node_of_(gp.get_address()), delay);
  if (st != tlm::TLM_OK_RESPONSE) {
    gp.set_response_status(st);
    p.busy = false;
    return;
  }
  while (!p.done) sc_core::wait(p.replied);
  delay = sc_core::SC_ZERO_TIME;  // the round trip has passed in simulated time
  p.busy = false;
}

// From the network's clock process (delay = delivery time - now): no wait() here.
void MemoryBridge::receive(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  Header h;
  const unsigned char* d = gp.get_data_ptr();
  if (!d || gp.get_data_length() < sizeof h) {
    ++bad_messages;
    return;
  }
  std::memcpy(&h, d, sizeof h);
  const std::uint32_t n = gp.get_data_length() - static_cast<std::uint32_t>(sizeof h);
  if (h.op & kReply) {
    if (h.tag >= pending_.size() || !pending_[h.tag]->busy) {
      ++bad_messages;
      return;
    }
    Pending& p = *pending_[h.tag];
    tlm::tlm_generic_payload& cg = *p.gp;
    if (h.op == (kReply | kReadRequest) && cg.get_data_ptr())
      std::memcpy(cg.get_data_ptr(), d + sizeof h, std::min(n, cg.get_data_length()));
    cg.set_response_status(static_cast<tlm::tlm_response_status>(static_cast<int>(h.status)));
    p.done = true;
    p.replied.notify(delay);
    return;
  }
  serve(h, d + sizeof h, static_cast<int>(gp.get_address()), delay);
}

// A request at this node: played to the memory model, the reply sent back to src.
void MemoryBridge::serve(const Header& h, const unsigned char* data, int src,
                         sc_core::sc_time delay) {
  Header r = h;
  r.op = kReply | h.op;
  std::uint32_t reply_bytes = 0;
  if (memory.size() == 0 || (h.op != kReadRequest && h.op != kWriteRequest)) {
    r.status = static_cast<std::uint32_t>(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++bad_messages;
  } else {
    ++requests_served;
    tlm::tlm_generic_payload m;
    data_buf_.assign(h.length, 0);
    if (h.op == kWriteRequest) std::memcpy(data_buf_.data(), data, h.length);
    m.set_command(h.op == kReadRequest ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    m.set_address(h.address);
    m.set_data_ptr(data_buf_.data());
    m.set_data_length(h.length);
    m.set_streaming_width(h.length);
    m.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    memory->b_transport(m, delay);
    r.status = static_cast<std::uint32_t>(static_cast<int>(m.get_response_status()));
    if (h.op == kReadRequest && m.is_response_ok()) reply_bytes = h.length;
  }
  delay += static_cast<double>(service_) * cycle_period();
  post(to_ni, out_buf_, r, data_buf_.data(), reply_bytes, src, delay);
}

}  // namespace sy
