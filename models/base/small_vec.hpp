// SmallVec: a fixed-size array of n values, held in the object when n <= N (no separate heap
// block to chase), on the heap otherwise. For per-port state that the router reads every cycle
// (an output's downstream VCs, an input's VCs): the common small sizes stay in the owner's cache
// lines. Copies point at their own storage.
#pragma once
#include <cstddef>
#include <vector>

namespace sy {

template <class T, std::size_t N>
class SmallVec {
 public:
  SmallVec() = default;
  SmallVec(std::size_t n, const T& value) : n_(n) {
    if (n > N)
      heap_.assign(n, value);
    else
      for (std::size_t i = 0; i < n; ++i) inline_[i] = value;
    point();
  }
  SmallVec(const SmallVec& o) : n_(o.n_), heap_(o.heap_) {
    for (std::size_t i = 0; i < N; ++i) inline_[i] = o.inline_[i];
    point();
  }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      n_ = o.n_;
      heap_ = o.heap_;
      for (std::size_t i = 0; i < N; ++i) inline_[i] = o.inline_[i];
      point();
    }
    return *this;
  }
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
  void point() { p_ = n_ > N ? heap_.data() : inline_; }
  T* p_ = inline_;
  std::size_t n_ = 0;
  T inline_[N];
  std::vector<T> heap_;
};

}  // namespace sy
