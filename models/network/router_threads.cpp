#include "switchyard/network/router_threads.hpp"

namespace sy {

namespace {
// How long a thread waits actively before it sleeps: kSpins short pauses (a few microseconds,
// about what a wake-up through the kernel costs), then kYields offers of its core to another
// thread (on a machine with more threads than cores the one waited for may need it).
constexpr int kSpins = 200, kYields = 50;
template <class Done>
bool wait_actively(Done done) {
  for (int i = 0; i < kSpins; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  for (int i = 0; i < kYields; ++i) {
    if (done()) return true;
    std::this_thread::yield();
  }
  return done();
}
}  // namespace

RouterThreads::RouterThreads(int lanes) {
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
  if (wait_actively([this] { return pending_.load(std::memory_order_acquire) == 0; })) return;
  std::unique_lock<std::mutex> lk(m_);
  done_.wait(lk, [this] { return pending_.load(std::memory_order_acquire) == 0; });
}

void RouterThreads::work(int lane) {
  std::uint64_t seen = 0;
  for (;;) {
    // Wait actively a little for the next step, then sleep until it comes.
    wait_actively([&] { return generation_.load(std::memory_order_acquire) != seen; });
    void (*fn)(void*, int);
    void* arg;
    {
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
