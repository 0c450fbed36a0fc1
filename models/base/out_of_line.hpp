// OutOfLine<T>: a T kept in its own heap block, made on first use, for the parts of a hot object
// that only some configurations use (one pointer in the object instead of the T). Copies copy
// the T.
#pragma once
#include <utility>

namespace sy {

template <class T>
class OutOfLine {
 public:
  OutOfLine() = default;
  OutOfLine(const OutOfLine& o) : p_(o.p_ ? new T(*o.p_) : nullptr) {}
  OutOfLine& operator=(const OutOfLine& o) {
    if (this != &o) {
      OutOfLine c(o);
      std::swap(p_, c.p_);
    }
    return *this;
  }
  ~OutOfLine() { delete p_; }
  T& get() {
    if (!p_) p_ = new T();
    return *p_;
  }
  // The T, which get() has made already (no test, no allocation: for hot code).
  T& made() const { return *p_; }

 private:
  T* p_ = nullptr;
};

}  // namespace sy
