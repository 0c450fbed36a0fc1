#include "switchyard/network/router_threads.hpp"

#include <sched.h>

#include <algorithm>

namespace sy {

namespace {
// How long a thread waits actively before it sleeps: kSpins short pauses (a few microseconds),
// then `yields` offers of its core to another thread (one that needs the core gets it, so a
// thread waited for is not starved when there are more threads than cores; a longer run of
// pauses did starve it). With a core per lane, kLongYields: a wake-up through the kernel cost
// about as much as the serial part of a 16x16x16 step, twice a step (measured 2026-11-26, 20,607
// cycles on two threads: 12.2-12.4 s with 50 offers, 8.6-10.4 s with 20,000 (the spread is the
// environment's size, which moves the stacks); one thread 12.9-13.4 s).
constexpr int kSpins = 200, kShortYields = 50, kLongYields = 20000;
template <class Done>
bool wait_actively(Done done, int yields) {
  for (int i = 0; i < kSpins; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  for (int i = 0; i < yields; ++i) {
    if (done()) return true;
    std::this_thread::yield();
  }
  return done();
}

}  // namespace

int usable_cores() {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

RouterThreads::RouterThreads(int lanes)
    : yields_(lanes <= usable_cores() ? kLongYields : kShortYields) {
  for (int k = 1; k < lanes; ++k) workers_.emplace_back([this, k] { work(k); });
}

RouterThreads::~RouterThreads() {
  {
    std::lock_guard<std::mutex> lk(m_);
    stop_ = true;
  }
  go_.notify_all();
  for (auto& w : workers_) w.join();
}

void RouterThreads::run(void (*fn)(void*, int), void* arg) {
  {
    std::lock_guard<std::mutex> lk(m_);
    fn_ = fn;
    arg_ = arg;
    pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  go_.notify_all();
  fn(arg, 0);
  if (wait_actively([this] { return pending_.load(std::memory_order_acquire) == 0; }, yields_))
    return;
  std::unique_lock<std::mutex> lk(m_);
  done_.wait(lk, [this] { return pending_.load(std::memory_order_acquire) == 0; });
}

void RouterThreads::work(int lane) {
  std::uint64_t seen = 0;
  for (;;) {
    // Wait actively a little for the next step, then sleep until it comes. A step seen while
    // waiting actively is taken without the lock (fn_ and arg_ were written before the
    // generation was released, and are not written again until this lane has finished the step):
    // sixteen threads taking one lock in turn cost microseconds a step.
    void (*fn)(void*, int);
    void* arg;
    if (wait_actively([&] { return generation_.load(std::memory_order_acquire) != seen; },
                      yields_)) {
      seen = generation_.load(std::memory_order_acquire);
      fn = fn_;
      arg = arg_;
    } else {
      std::unique_lock<std::mutex> lk(m_);
      go_.wait(lk, [&] { return stop_ || generation_.load(std::memory_order_acquire) != seen; });
      if (stop_) return;
      seen = generation_.load(std::memory_order_acquire);
      fn = fn_;
      arg = arg_;
    }
    fn(arg, lane);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lk(m_);
      done_.notify_one();
    }
  }
}

}  // namespace sy
