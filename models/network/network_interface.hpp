// NetworkInterface: the node's port to the network, with TLM-2.0 sockets on the node side.
//  - `target` (tlm_target_socket, b_transport): a WRITE whose address is the destination node and
//    whose data length sets the message size (bytes -> flits by network_interface.flit_bytes).
//    A NocExtension adds the priority class, a multicast list or broadcast, and a tag. The request
//    time is sc_time_stamp() + delay (loosely timed), taken at the next cycle boundary. The call
//    is posted: it returns at once with TLM_OK_RESPONSE, or an error response for a bad request
//    (counted in requests_rejected): among them TLM_GENERIC_ERROR_RESPONSE for a message of more
//    than kMaxMessageFlits (2^24) flits and for a request time past cycle kMaxRequestCycle (2^50)
//    or past the end of SystemC time (config/config.hpp).
//    The built-in traffic sources call this same socket; any number of initiators may bind.
//  - `rx` (initiator socket, optional) and/or a receive callback: each delivered message, as a
//    WRITE from address = source node, with its data and a NocExtension holding its cycles. The
//    call comes from the network's clock process with delay = delivery time - now: a receiver must
//    not wait() in it (notify an event with that delay instead).
// Inside: messages are cut into packets. Serial injection (network_interface.injection_channels
// = k channels, 1 by default): each channel takes the next waiting packet, a start-up of alpha
// cycles before the first packet of a message, then one flit every tau cycles as credits allow;
// an input-VC router has one injection port per channel. All-port injection (the papers' ideal
// node, and every circuit NI): each packet enters the router alpha cycles after its request,
// however many at once. A packet to the node itself may be delivered at once, delay 0
// (traffic.self: deliver_locally). An injection gate (network/injection_gate.hpp, an idling
// scheme's) may hold the next packet back: it then waits, zero-hop ones too. On the way out the NI
// reassembles what the router ejects, checks every flit arrives once and in order, and reports each
// delivered packet and message.
#pragma once
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>

#include "switchyard/base/ring.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/network/fabric.hpp"
#include "switchyard/network/noc_extension.hpp"
#include "switchyard/router/output_unit.hpp"

namespace sy {

class Router;
struct NiProbe;

class NetworkInterface : public sc_core::sc_module {
 public:
  NetworkInterface(sc_core::sc_module_name name, int node, Fabric& fabric);
  void attach(Router* router);
  int node() const { return node_; }

  tlm_utils::multi_passthrough_target_socket_optional<NetworkInterface> target;
  tlm_utils::simple_initiator_socket_optional<NetworkInterface> rx;
  // Called for each delivered message (besides `rx`, if bound).
  void on_receive(std::function<void(const Delivery&)> fn) { receive_ = std::move(fn); }

  // Injection work for cycle t; false when there is nothing left to inject.
  bool step(Cycle t);
  // The same on a lane of several threads (serial injection channels, input-VC routers): what
  // is shared is counted in the lane.
  bool step_lane(Cycle t, Lane& ln);
  // Threads: the per-flit part of deliver_flit, counted in the lane; the tail's packet becomes
  // one of the lane's completions (key: the flit's), which the network finishes in key order.
  void take_flit(const Flit& f, Cycle t, Lane& ln, std::uint64_t key);
  // A packet complete at this NI on lane ln (key: its place in the one-thread order): finished
  // there when nothing needs that order (Lane::fast_completions), else one of the lane's
  // completions, which the network finishes in key order.
  void complete_in_lane(Lane& ln, std::uint64_t key, std::uint32_t id, Cycle delivered);
  // A packet whose flits are all in (threads: after the lanes, in the one-thread order).
  void complete_packet(std::uint32_t id, Cycle t) { finish_packet(id, t); }
  // Threads: the lane whose routers it injects into (its packets and messages are that lane's).
  void set_lane(int k) { lane_ = k; }
  int lane() const { return lane_; }
  // Queues message `id` (already in the fabric's pool) for injection.
  void send(std::uint32_t id);
  void deliver_flit(const Flit& f, Cycle t);
  void deliver_packet(std::uint32_t packet, Cycle t);
  // A copy of a broadcast packet begins to arrive at this node at cycle t (the router keeps
  // forwarding it; the NI counts the reception).
  void receive_broadcast(std::uint32_t packet, Cycle t);
  // The same with the cycle the copy has been fully received; release_packet: the routers share
  // one packet record among all copies (input_vc) and it is freed with the last reception.
  void receive_broadcast_at(std::uint32_t packet, Cycle done, bool release_packet);
  // A copy of its own broadcast came back to the source (indirect scheme): not a reception.
  void return_broadcast(std::uint32_t packet);

  int injection_channels() const { return static_cast<int>(channels_.size()); }
  OutputUnit& injection(int channel = 0) { return channels_[channel].out; }
  std::size_t backlog() const;
  std::uint64_t requests_rejected() const { return rejected_; }
  bool active = false;
  Router* router() const { return router_; }
  // The router's flit sink again (power's counting has started).
  void refresh_sink();
  // Waves (network/waves.hpp): the probe told of packets created and delivered here (null: off),
  // the injection queue as the VCD shows it, and whether packet `slot` is still in the queue.
  void set_probe(NiProbe* p) { probe_ = p; }
  void sample(NiProbe& p) const;
  bool holds(std::uint32_t slot) const;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_response_status request(tlm::tlm_generic_payload& gp, Cycle at);
  void submit(int dst, int flits, int priority, Cycle at, const tlm::tlm_generic_payload& gp,
              std::uint64_t tag, const std::vector<NocExtension::Hop>* route = nullptr);
  void finish_packet(std::uint32_t id, Cycle delivered);
  void check_route(const Packet& p, std::uint64_t& missed, std::uint64_t& nonminimal) const;
  void deliver_message(std::uint32_t id);
  void finish_broadcast(std::uint32_t packet, bool release_packet);
  void notify_receivers(std::uint32_t message, Cycle delivered);
  void poke();
  int node_;
  Fabric& fabric_;
  // One injection channel: its output unit (credits of the router's injection VCs), its link
  // into the router, and the packet it is sending.
  struct Channel {
    OutputUnit out;  // (its link leads into the router)
    long cur = -1;   // packet being injected
    std::uint32_t seq = 0;
    int vc = -1;
    Cycle next = 0;  // cycle the next flit (or the packet) may go
    // router.vc_request: all_free: a packet takes the next free injection VC with a credit
    // after the last one taken (round robin, as BookSim2's source); otherwise the lowest free.
    bool round_robin = false;
    int last_vc = -1;
  };
  template <bool kLane>
  [[gnu::always_inline]] inline bool step_channel(Channel& ch, Cycle t, Lane* ln);
  void enter_router(std::uint32_t packet, Channel& ch, Cycle t);
  // Under an injection gate (fabric_.gate): all-port injection's step, and a serial channel's
  // question before it takes the next packet (false: nothing for the channel now; a zero-hop
  // packet let through is delivered here).
  bool step_gated(Cycle t);
  bool take_gated(Cycle t);
  void deliver_self(std::uint32_t packet, Cycle t);
  Router* router_ = nullptr;
  void (*sink_)(Router*, int, int, Flit, Cycle) = nullptr;  // router_->flit_sink()
  std::vector<Channel> channels_;
  Ring<std::uint32_t> queue_{16};     // packets waiting for injection
  std::vector<std::uint32_t> local_;  // scratch: zero-hop packets of one message
  std::vector<int> route_ports_;      // scratch: a source route's ports, checked
  const bool oq_, circuit_, all_port_, self_local_;
  const int alpha_, tau_, max_packet_, flit_bytes_;
  const int inject_lt_;  // staged pipeline: the injection channel's cycles (0: ideal)
  std::uint64_t rejected_ = 0;
  std::uint64_t messages_made_ = 0;  // (Message::serial)
  NiProbe* probe_ = nullptr;
  int lane_ = 0;
  Rng rng_;  // the source's random choices (ending dimension of a broadcast)
  std::function<void(const Delivery&)> receive_;
  tlm::tlm_generic_payload rx_gp_;
  NocExtension* rx_ext_;  // owned by rx_gp_
};

}  // namespace sy
