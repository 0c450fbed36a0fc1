// Ranks: the processes one network runs across (mpirun -np N switchyard run ...), as the network
// sees them: this process's rank among size(), exchanges of byte buffers between every pair or
// between neighbours, and reductions of a few counters. The network knows only this interface; the
// program's MPI transport (tb/mpi_ranks.cpp, built when MPI is found) implements it, so the
// library itself needs no MPI. With one rank nothing here is used.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace sy {

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank sends out[j] to rank j and receives in[j] from rank j (out[rank()] is not sent;
  // in[rank()] is left empty). A collective: every rank calls it at the same point.
  virtual void exchange(const std::vector<std::vector<char>>& out,
                        std::vector<std::vector<char>>& in) = 0;
  // The same with the ranks in peers only (not rank(); a symmetric relation: q is among r's
  // peers when r is among q's): out[j] goes to and in[j] comes from each j in peers, the other
  // in[] are left empty. A collective of the peers.
  virtual void exchange_with(const std::vector<int>& peers,
                             const std::vector<std::vector<char>>& out,
                             std::vector<std::vector<char>>& in) = 0;
  // Every rank's `mine` to every rank: rank j's bytes are all[at[j] .. at[j + 1]) (this rank's
  // own among them). A collective.
  virtual void gather_all(const std::vector<char>& mine, std::vector<char>& all,
                          std::vector<std::size_t>& at) = 0;
  // Element-wise over the ranks, in place (collectives).
  virtual void sum(std::uint64_t* v, int n) = 0;
  virtual void min(std::uint64_t* v, int n) = 0;
  std::uint64_t sum(std::uint64_t x) {
    sum(&x, 1);
    return x;
  }
  std::uint64_t min(std::uint64_t x) {
    min(&x, 1);
    return x;
  }
  bool any(bool b) { return sum(b ? 1 : 0) > 0; }
};

// Plain values into a byte buffer and back (the exchange's records; trivially copyable types
// only). The buffers keep their capacity: a warm run allocates nothing.
inline void put_bytes(std::vector<char>& b, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  b.insert(b.end(), c, c + n);  // (no zero fill first, as resize would)
}
template <class T>
void put(std::vector<char>& b, const T& v) {
  static_assert(std::is_trivially_copyable<T>::value, "put: a plain value");
  put_bytes(b, &v, sizeof v);
}
struct ByteReader {
  const char* p;
  const char* end;
  explicit ByteReader(const std::vector<char>& b) : p(b.data()), end(b.data() + b.size()) {}
  ByteReader(const char* from, const char* to) : p(from), end(to) {}
  void skip(std::size_t n) { p += n; }
  bool done() const { return p >= end; }
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable<T>::value, "get: a plain value");
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
};

}  // namespace sy
