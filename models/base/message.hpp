// Message: what a NetworkInterface is asked to send, one destination. It becomes one or more
// packets; it is delivered to the destination's receiver when its last packet is in. Messages
// live in a pool indexed by integer id and are recycled (their data buffers keep their capacity),
// so a steady stream of messages allocates nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "switchyard/base/chunked_pool.hpp"
#include "switchyard/base/common.hpp"

namespace sy {

struct Message {
  int src = 0, dst = 0;
  int flits = 1;
  int priority = 0;
  int traffic_class = 0;
  std::uint32_t bytes = 0;  // the payload's data length
  std::uint64_t tag = 0;    // the initiator's own id (NocExtension::tag), returned on delivery
  Cycle created = 0;        // request cycle at the source NI
  Cycle injected = kNever;  // first flit into the source router
  Cycle delivered = 0;      // last flit received at the destination NI
  int packets_left = 0;
  bool measured = false;
  bool has_data = false;  // data bytes travel with it (the initiator gave a data pointer)
  std::vector<unsigned char> data;
  std::int32_t route = -1;  // source route (Fabric::routes), if any
  // A number no other message has had (its source node's, counted there): which message a
  // record mirrored from another rank is (network ranks), its slot being reused.
  std::uint64_t serial = 0;
};

// One broadcast in flight: its source packet and every node's reception of a copy.
struct BroadcastRecord {
  int src = 0;
  int tree_src = 0;  // the node its tree starts from: src, or the root (indirect scheme)
  int ending_dim = 0;
  int antipode_dir = 1;  // side of an even ring that reaches the antipode (drawn per broadcast)
  Cycle created = 0;
  int receptions_left = 0;
  int transmissions = 0;  // link transmissions of its copies
  Cycle last_reception = 0;
  bool measured = false;
  std::uint32_t message = 0;
};

class MessagePool {
 public:
  void set_lanes(int lanes) { pool_.set_lanes(lanes); }
  std::uint32_t allocate(int k = 0) {
    bool fresh;
    const std::uint32_t id = pool_.take(k, fresh);
    Message& m = pool_[id];
    m.tag = 0;
    m.injected = kNever;
    m.has_data = false;
    m.route = -1;
    m.data.clear();  // keeps its capacity
    return id;
  }
  void release(std::uint32_t id) { pool_.release(id); }
  std::size_t owner(std::uint32_t id) const { return pool_.owner(id); }
  Message& operator[](std::uint32_t id) { return pool_[id]; }
  const Message& operator[](std::uint32_t id) const { return pool_[id]; }
  Message& mirror(std::uint32_t id) { return pool_.mirror(id); }  // (ranks: as PacketPool's)
  std::size_t live() const { return pool_.live(); }

 private:
  ChunkedPool<Message> pool_;
};

}  // namespace sy
