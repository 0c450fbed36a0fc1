#include "switchyard/network/router_threads.hpp"

namespace sy {

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
    pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  go_.notify_all();
  fn(arg, 0);
  std::unique_lock<std::mutex> lk(m_);
  done_.wait(lk, [this] { return pending_ == 0; });
}

void RouterThreads::work(int lane) {
  std::uint64_t seen = 0;
  for (;;) {
    std::unique_lock<std::mutex> lk(m_);
    go_.wait(lk, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    void (*fn)(void*, int) = fn_;
    void* arg = arg_;
    lk.unlock();
    fn(arg, lane);
    lk.lock();
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace sy
