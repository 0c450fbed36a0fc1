// SmallVec: a fixed-size array of n values, held in the object when n <= N (no separate heap
// block to chase), on the heap otherwise. For per-port state that the router reads every cycle
// (an output's downstream VCs, an input's VCs): the common small sizes stay in the owner's cache
// lines. Copies point at their own storage. 16 bytes besides the N values: a pointer to the
// storage in use and the size. HeapAlign: the heap storage's alignment (a cache line for values
// laid out by lines, which need not be aligned themselves: see InputUnit).
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>

namespace sy {

template <class T, std::size_t N, std::size_t HeapAlign = alignof(T)>
class SmallVec {
 public:
  SmallVec() = default;
  SmallVec(std::size_t n, const T& value) : n_(static_cast<std::uint32_t>(n)) {
    allocate();
    for (std::size_t i = 0; i < n; ++i) p_[i] = value;
  }
  SmallVec(const SmallVec& o) : n_(o.n_) {
    allocate();
    for (std::size_t i = 0; i < n_; ++i) p_[i] = o.p_[i];
  }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      release();
      n_ = o.n_;
      allocate();
      for (std::size_t i = 0; i < n_; ++i) p_[i] = o.p_[i];
    }
    return *this;
  }
  ~SmallVec() { release(); }
  std::size_t size() const { return n_; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }
  T* begin() { return p_; }
  T* end() { return p_ + n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }

 private:
  bool on_heap() const { return n_ > N; }
  void allocate() {
    if (!on_heap()) {
      p_ = inline_;
      return;
    }
    p_ = static_cast<T*>(::operator new(sizeof(T) * n_, std::align_val_t(HeapAlign)));
    for (std::size_t i = 0; i < n_; ++i) new (p_ + i) T();
  }
  void release() {
    if (on_heap()) {
      for (std::size_t i = 0; i < n_; ++i) p_[i].~T();
      ::operator delete(p_, std::align_val_t(HeapAlign));
    }
    p_ = inline_;
  }
  T* p_ = inline_;
  std::uint32_t n_ = 0;
  T inline_[N];
};

}  // namespace sy
