// OutputQueuedRouter: the papers' ideal node. A packet is placed, delta cycles after its head
// begins to arrive (store-and-forward: after its tail is in), in an unbounded FIFO at its output
// port, one FIFO per priority class; a free output serves the highest non-empty class, FCFS within
// it, non-preemptively: the packet's L flits go back to back, one every tau cycles. Because every
// channel sends packets contiguously, flits arrive in order and in time, and the model keeps
// packets, not flits, in its queues (exact at flit timing, cheaper to run).
#pragma once
#include <vector>

#include "switchyard/base/ring.hpp"
#include "switchyard/router/queue_waits.hpp"
#include "switchyard/router/router.hpp"

namespace sy {

class OutputQueuedRouter : public Router {
 public:
  OutputQueuedRouter(sc_core::sc_module_name name, int node, Fabric& fabric,
                     NetworkInterface* const* nis);
  bool evaluate(Cycle t) override;
  void accept_flit(int, int, Flit, Cycle) override {}
  void accept_packet(int in_port, std::uint32_t packet, Cycle t) override;
  void connect_upstream(int, OutputUnit*, bool) override {}
  std::size_t queued(int port) const;
  void sample(RouterProbe& p) const override;
  // From now on, each packet's arrival at an output queue and its wait there go to `w` (kept by
  // the caller for the run; null: stop).
  void track_waits(QueueWaits* w) { waits_ = w; }

 private:
  struct Entry {
    std::uint32_t packet;
    int in_port;
    Cycle ready;
  };
  void enqueue(int out, int cls, const Entry& e);
  void count_in(int flits, int copies);
  void accept_broadcast(int in_port, std::uint32_t packet, Cycle t);
  std::vector<int> children_;                     // scratch for broadcast fan-out
  std::vector<std::vector<Ring<Entry>>> queues_;  // [output][class]
  int queued_ = 0;
  const int delta_, tau_;
  const bool saf_;
  const BroadcastConfig bcast_;
  QueueWaits* waits_ = nullptr;
};

}  // namespace sy
