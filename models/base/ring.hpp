// A FIFO on a contiguous ring: fixed capacity (a hardware buffer of B entries) or growing
// (an unbounded queue that doubles its storage and never shrinks, so a steady state allocates
// nothing). Used for VC buffers, output queues and source queues.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "switchyard/base/small_vec.hpp"

namespace sy {

template <class T>
class Ring {
 public:
  explicit Ring(std::size_t capacity = 0, bool grows = true)
      : buf_(capacity ? capacity : 1), grows_(grows) {}
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return buf_.size(); }
  bool full() const { return size_ == buf_.size(); }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& at(std::size_t i) { return buf_[wrap(head_ + i)]; }
  const T& at(std::size_t i) const { return buf_[wrap(head_ + i)]; }
  void push(const T& v) {
    if (full()) {
      assert(grows_ && "push into a full fixed-capacity ring");
      grow();
    }
    buf_[wrap(head_ + size_)] = v;
    ++size_;
  }
  void pop() {
    assert(size_ > 0);
    if (++head_ == buf_.size()) head_ = 0;
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  // An index below twice the capacity, into the ring (no division on the per-flit path).
  std::size_t wrap(std::size_t i) const { return i >= buf_.size() ? i - buf_.size() : i; }
  void grow() {
    std::vector<T> n(buf_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) n[i] = at(i);
    buf_.swap(n);
    head_ = 0;
  }
  std::vector<T> buf_;
  std::size_t head_ = 0, size_ = 0;
  bool grows_;
};

}  // namespace sy

namespace sy {

// A fixed-capacity FIFO whose storage is in the object when the capacity is at most N (a VC
// buffer of the usual depth: its flits share the VC's cache lines), on the heap otherwise: a
// SmallVec's storage with the ring's indices.
template <class T, std::size_t N>
class InlineRing {
 public:
  explicit InlineRing(std::size_t capacity = 1) : buf_(capacity ? capacity : 1, T{}) {}
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return buf_.size(); }
  bool full() const { return size_ == buf_.size(); }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& at(std::size_t i) { return buf_[wrap(head_ + i)]; }
  const T& at(std::size_t i) const { return buf_[wrap(head_ + i)]; }
  void push(const T& v) {
    assert(!full() && "push into a full fixed-capacity ring");
    buf_[wrap(head_ + size_)] = v;
    ++size_;
  }
  void pop() {
    assert(size_ > 0);
    if (++head_ == buf_.size()) head_ = 0;
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  std::size_t wrap(std::size_t i) const { return i >= buf_.size() ? i - buf_.size() : i; }
  std::uint32_t head_ = 0, size_ = 0;  // (before the storage: in the line the VC's state is in)
  SmallVec<T, N> buf_;
};

}  // namespace sy
