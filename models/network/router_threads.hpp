// RouterThreads: the worker threads that evaluate a cycle's routers in parallel
// (simulation.threads). run() calls fn(arg, k) for every lane k, lane 0 on the calling thread,
// and returns when all have finished. A thread waiting for the next step or for the others spins
// a few microseconds, then offers its core to other threads for up to several milliseconds when
// every lane has a core of its own (a few times otherwise), before it sleeps: a wake-up through
// the kernel took about as long as a step's serial part on 16x16x16. What a
// lane's routers do to other routers is kept in its Lane (network/fabric.hpp) and done by the
// caller afterwards.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace sy {

// The cores this process may run on (its affinity mask: taskset, mpirun's binding, a batch
// system's cgroup), else the machine's.
int usable_cores();

class RouterThreads {
 public:
  explicit RouterThreads(int lanes);
  ~RouterThreads();
  RouterThreads(const RouterThreads&) = delete;
  RouterThreads& operator=(const RouterThreads&) = delete;
  int lanes() const { return static_cast<int>(workers_.size()) + 1; }
  void run(void (*fn)(void*, int), void* arg);

 private:
  void work(int lane);
  int yields_;  // offers of the core before sleeping (wait_actively)
  std::vector<std::thread> workers_;
  std::mutex m_;
  std::condition_variable go_, done_;
  std::atomic<std::uint64_t> generation_{0};  // one more per step
  std::atomic<int> pending_{0};               // workers still on the step
  bool stop_ = false;
  void (*fn_)(void*, int) = nullptr;
  void* arg_ = nullptr;
};

}  // namespace sy
