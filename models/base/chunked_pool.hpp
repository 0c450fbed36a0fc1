// ChunkedPool<T>: objects by integer id, recycled, in chunks of 4,096 that never move, so that an
// id taken on one thread stays valid while other threads take more (simulation.threads). One
// free list per lane (one lane on one thread): lane k takes fresh ids from the chunks k, k + L,
// k + 2L, ... of its own; a released id goes back to the lane whose chunk holds it. On one thread
// the ids are those of a growing array with a free list (0, 1, 2, ..., the last released first).
// What T needs when it is taken again is the caller's (reset).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace sy {

template <class T>
class ChunkedPool {
 public:
  static constexpr unsigned kShift = 12;
  static constexpr std::uint32_t kChunk = 1u << kShift;
  static constexpr std::size_t kMaxChunks = std::size_t{1} << 16;  // 2^28 objects

  ChunkedPool() : chunks_(static_cast<T**>(std::calloc(kMaxChunks, sizeof(T*)))) {
    if (!chunks_) throw std::bad_alloc();
    set_lanes(1);
  }
  ~ChunkedPool() {
    for (std::size_t c = 0; c < kMaxChunks; ++c) delete[] chunks_[c];
    std::free(chunks_);
  }
  ChunkedPool(const ChunkedPool&) = delete;
  ChunkedPool& operator=(const ChunkedPool&) = delete;

  // Before the first id is taken.
  void set_lanes(int lanes) {
    lanes_.assign(static_cast<std::size_t>(lanes), Lane{});
    free0_.clear();
  }
  // The chunk (of kChunk slots) that holds id: a side array indexed alike (PacketPool's serials).
  static std::size_t chunk_of(std::uint32_t id) { return id >> kShift; }
  int lanes() const { return static_cast<int>(lanes_.size()); }

  // An id for lane k (its own free list, else a fresh slot in its own chunks); fresh: the slot
  // has never been used (a default T).
  std::uint32_t take(int k, bool& fresh) {
    std::vector<std::uint32_t>& free = k == 0 ? free0_ : lanes_[static_cast<std::size_t>(k)].free;
    if (!free.empty()) {
      const std::uint32_t id = free.back();
      free.pop_back();
      fresh = false;
      return id;
    }
    fresh = true;
    Lane& ln = lanes_[static_cast<std::size_t>(k)];
    if (ln.fill == kChunk || ln.chunks == 0) {
      const std::size_t c =
          static_cast<std::size_t>(k) + static_cast<std::size_t>(ln.chunks) * lanes_.size();
      if (c >= kMaxChunks)
        throw std::runtime_error("more than 2^28 packets or messages alive at once");
      chunks_[c] = new T[kChunk];
      ln.chunk = static_cast<std::uint32_t>(c);
      ++ln.chunks;
      ln.fill = 0;
    }
    ++ln.taken;
    return (ln.chunk << kShift) | ln.fill++;
  }
  // The lane whose chunk holds id (the one its release goes back to).
  std::size_t owner(std::uint32_t id) const { return (id >> kShift) % lanes_.size(); }
  void release(std::uint32_t id) {
    if (lanes_.size() == 1) {
      free0_.push_back(id);
      return;
    }
    const std::size_t k = (id >> kShift) % lanes_.size();
    (k == 0 ? free0_ : lanes_[k].free).push_back(id);
  }
  T& operator[](std::uint32_t id) { return chunks_[id >> kShift][id & (kChunk - 1)]; }
  // Slot id in a process that does not own its chunk (a copy sent by another rank, network
  // ranks): the chunk is made on first use. Not counted as taken.
  T& mirror(std::uint32_t id) {
    T*& c = chunks_[id >> kShift];
    if (!c) c = new T[kChunk];
    return c[id & (kChunk - 1)];
  }
  const T& operator[](std::uint32_t id) const { return chunks_[id >> kShift][id & (kChunk - 1)]; }
  std::size_t live() const {
    std::size_t n = 0;
    for (const Lane& ln : lanes_) n += ln.taken - ln.free.size();
    return n - free0_.size();
  }

 private:
  struct Lane {
    std::vector<std::uint32_t> free;  // (unused for lane 0)
    std::uint32_t chunk = 0;          // its current chunk
    std::uint32_t fill = 0;           // slots used in it
    std::uint32_t chunks = 0;
    std::size_t taken = 0;  // fresh slots taken
  };
  T** chunks_;
  std::vector<Lane> lanes_;  // (lane 0's free list is free0_: one thread's fast path)
  std::vector<std::uint32_t> free0_;
};

}  // namespace sy
