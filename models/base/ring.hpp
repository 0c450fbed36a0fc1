// FIFOs on a contiguous ring: Ring grows (an unbounded queue that doubles its storage and never
// shrinks, so a steady state allocates nothing: output queues, source queues); InlineRing has a
// fixed capacity (a hardware buffer of B entries) held in the object when it is at most N (a VC
// buffer of the usual depth: its flits share the VC's cache lines), on the heap otherwise.
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

template <class T, std::size_t N>
class InlineRing : public RingOn<T, SmallVec<T, N>> {
  using Base = RingOn<T, SmallVec<T, N>>;

 public:
  explicit InlineRing(std::size_t capacity = 1)
      : Base(SmallVec<T, N>(capacity ? capacity : 1, T{})) {}
  void push(const T& v) {
    assert(!this->full() && "push into a full fixed-capacity ring");
    this->put(v);
  }
};

}  // namespace sy
