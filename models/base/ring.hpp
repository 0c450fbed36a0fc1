// FIFOs on a contiguous ring: Ring grows (an unbounded queue that doubles its storage and never
// shrinks, so a steady state allocates nothing: output queues, source queues); InlineRing has a
// fixed capacity (up to 32,768) (a hardware buffer of B entries) held in the object when it is at
// most N (a VC buffer of the usual depth: its flits share the VC's cache lines), on the heap
// otherwise.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "switchyard/base/small_vec.hpp"

namespace sy {

// The ring over its storage (a std::vector or a SmallVec): indices first, so in an InlineRing
// they share the line of the state before it.
template <class T, class Storage>
class RingOn {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return buf_.size(); }
  bool full() const { return size_ == buf_.size(); }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& at(std::size_t i) { return buf_[wrap(head_ + i)]; }
  const T& at(std::size_t i) const { return buf_[wrap(head_ + i)]; }
  void pop() {
    assert(size_ > 0);
    if (++head_ == buf_.size()) head_ = 0;
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 protected:
  explicit RingOn(Storage s) : buf_(std::move(s)) {}
  void put(const T& v) {
    buf_[wrap(head_ + size_)] = v;
    ++size_;
  }
  // An index below twice the capacity, into the ring (no division on the per-flit path).
  std::size_t wrap(std::size_t i) const { return i >= buf_.size() ? i - buf_.size() : i; }
  std::uint32_t head_ = 0, size_ = 0;
  Storage buf_;
};

template <class T>
class Ring : public RingOn<T, std::vector<T>> {
  using Base = RingOn<T, std::vector<T>>;

 public:
  explicit Ring(std::size_t capacity = 0) : Base(std::vector<T>(capacity ? capacity : 1)) {}
  void push(const T& v) {
    if (this->full()) grow();
    this->put(v);
  }

 private:
  void grow() {
    std::vector<T> n(this->buf_.size() * 2);
    for (std::size_t i = 0; i < this->size_; ++i) n[i] = this->at(i);
    this->buf_.swap(n);
    this->head_ = 0;
  }
};

// (Its storage is the capacity rounded up to a power of two, so an index wraps by a mask; the
// four 16-bit indices take the 8 bytes of RingOn's two.)
template <class T, std::size_t N>
class InlineRing {
 public:
  explicit InlineRing(std::size_t capacity = 1)
      : cap_(static_cast<std::uint16_t>(capacity ? capacity : 1)),
        mask_(static_cast<std::uint16_t>(pow2_at_least(cap_) - 1)),
        buf_(std::size_t{mask_} + 1, T{}) {
    assert(capacity <= 32768);
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return cap_; }
  bool full() const { return size_ == cap_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& at(std::size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& at(std::size_t i) const { return buf_[(head_ + i) & mask_]; }
  void push(const T& v) { push_slot() = v; }
  // The new last slot, to be written in place.
  T& push_slot() {
    assert(!full() && "push into a full fixed-capacity ring");
    return buf_[(head_ + size_++) & mask_];
  }
  void pop() {
    assert(size_ > 0);
    head_ = static_cast<std::uint16_t>((head_ + 1) & mask_);
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  static std::size_t pow2_at_least(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p *= 2;
    return p;
  }
  std::uint16_t head_ = 0, size_ = 0, cap_, mask_;
  SmallVec<T, N> buf_;
};

}  // namespace sy
