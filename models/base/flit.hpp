// Flit, Packet and the packet pool. A message (what an NI is asked to send) becomes one or more
// packets; a packet becomes flits. Flits are small values copied through fixed-size VC buffers;
// packets live in a pool indexed by integer id and are recycled, so nothing is allocated per flit.
// A pool slot is reused; a packet's serial is not (1, 2, ... in creation order, over the run).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "switchyard/base/chunked_pool.hpp"
#include "switchyard/base/common.hpp"

namespace sy {

struct Flit {
  Flit() : seq(0), head(false), tail(false) {}
  std::uint32_t packet = 0;
  std::uint32_t seq : 30;  // 0 = head (a message, so a packet, is at most 2^24 flits)
  bool head : 1;
  bool tail : 1;
  Cycle ready = 0;  // earliest cycle this flit may leave the buffer it sits in
};
// 16 bytes: four flits to a cache line in the VC buffers.
static_assert(sizeof(Flit) == 16, "Flit is meant to be 16 bytes");

struct Packet {
  int src = 0, dst = 0;
  int flits = 1;
  int priority = 0;     // 0 = highest class
  Cycle created = 0;    // the message's request at the source NI
  Cycle injected = 0;   // head flit enters the source router
  Cycle delivered = 0;  // last flit received at the destination NI
  std::uint32_t received = 0;
  std::uint32_t message = 0;
  std::int32_t bcast = -1;  // a copy of broadcast `bcast` (dst is then -1)
  std::int32_t route = -1;  // source route: index into Fabric::routes (-1: dimension order)
  std::int32_t route_pos = 0;
  std::int32_t circuit = -1;  // the circuit its header is building (circuit routers)
  std::int32_t mid = -1;      // Valiant / ROMM: the intermediate node not yet reached (-1: none)
  std::uint16_t hops = 0;     // input-VC, with a routing algorithm: hops its header has made
  std::uint8_t phase = 0;     // Valiant / ROMM: 1 once past the intermediate node
  std::uint32_t wrapped = 0;  // adaptive routing: the dimensions whose wraparound link it crossed
  bool measured = false;
  bool first_of_message = true;
  bool last_of_message = true;
  std::uint8_t traffic_class = 0;  // (in the padding: Packet stays 80 bytes)
};

// Packets by id (ChunkedPool: ids stay valid while lanes take more), with each slot's serial in
// a chunk beside the packets' (Packet stays 80 bytes).
class PacketPool {
 public:
  using Pool = ChunkedPool<Packet>;
  PacketPool()
      : serials_(static_cast<std::uint64_t**>(std::calloc(Pool::kMaxChunks, sizeof(void*)))) {
    if (!serials_) throw std::bad_alloc();
  }
  ~PacketPool() {
    for (std::size_t c = 0; c < Pool::kMaxChunks; ++c) delete[] serials_[c];
    std::free(serials_);
  }
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;
  void set_lanes(int lanes) {
    pool_.set_lanes(lanes);
    created_.assign(static_cast<std::size_t>(lanes), 0);
  }
  // (Lane k of several threads: from its own free list and chunks.)
  std::uint32_t allocate(int k = 0) {
    bool fresh;
    const std::uint32_t id = pool_.take(k, fresh);
    if (!fresh) {
      pool_[id] = Packet{};
    } else if ((id & (Pool::kChunk - 1)) == 0) {
      serials_[Pool::chunk_of(id)] = new std::uint64_t[Pool::kChunk];  // (its lane's own chunk)
    }
    // (One thread: 1, 2, ... in creation order; several: per lane, for the waves, which they
    // never record.)
    serials_[Pool::chunk_of(id)][id & (Pool::kChunk - 1)] = ++created_[static_cast<std::size_t>(k)];
    return id;
  }
  void release(std::uint32_t id) { pool_.release(id); }
  std::size_t owner(std::uint32_t id) const { return pool_.owner(id); }
  Packet& operator[](std::uint32_t id) { return pool_[id]; }
  const Packet& operator[](std::uint32_t id) const { return pool_[id]; }
  // (Ranks: the copy of another rank's packet, its chunk made on first use.)
  Packet& mirror(std::uint32_t id) { return pool_.mirror(id); }
  // The packet in slot id: its number over the run (1, 2, ... in creation order), never reused.
  std::uint64_t serial(std::uint32_t id) const {
    return serials_[Pool::chunk_of(id)][id & (Pool::kChunk - 1)];
  }
  std::size_t live() const { return pool_.live(); }

 private:
  Pool pool_;
  std::uint64_t** serials_;
  std::vector<std::uint64_t> created_ = std::vector<std::uint64_t>(1, 0);
};

}  // namespace sy
