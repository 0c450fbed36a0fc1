// QueueWaits: what one output-queued router measures of its output queues when a plug-in asks
// for it (OutputQueuedRouter::track_waits; the STAR plug-in checks §3.2's queueing analysis with
// it). Only the packets ready at the queue (arrived, or generated there) inside the measurement
// window count:
//  - their waits, ready -> start of transmission, per priority class, summed in `batches` equal
//    batches of the window by the cycle they were ready (batch means give a confidence interval);
//  - per queue, the number of arrivals per slot (slot = one packet time, slot k = cycles
//    [k slot, (k+1) slot)): per class c the arrivals of class c and the sum over the slots of the
//    squared arrivals of the classes 0..c together (slots with none add nothing), from which the
//    mean and variance per slot of every class prefix follow.
// Arrivals reach a queue up to `lookahead` cycles before they are ready (store-and-forward: the
// packet's transmission and delta), not always in the order they become ready, so the current
// slots' counts are kept in a small ring per queue and a slot's squares are added when its cell
// is reused or at finish().
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "switchyard/base/common.hpp"

namespace sy {

class QueueWaits {
 public:
  QueueWaits(int ports, int classes, Cycle w0, Cycle w1, Cycle slot, int batches, Cycle lookahead)
      : ports_(ports),
        classes_(classes),
        batches_(batches),
        w0_(w0),
        w1_(w1),
        slot_(slot > 0 ? slot : 1),
        wait_sum_(static_cast<std::size_t>(batches * classes), 0),
        waited_(static_cast<std::size_t>(batches * classes), 0),
        arrivals_(static_cast<std::size_t>(ports * classes), 0),
        sq_cum_(static_cast<std::size_t>(ports * classes), 0) {
    // Ready slots of the arrivals still to come lie within lookahead / slot + 1 slots of now.
    ring_ = 4;
    while (static_cast<Cycle>(ring_) < lookahead / slot_ + 3) ring_ *= 2;
    cells_.assign(static_cast<std::size_t>(ports * ring_), Cell{});
  }

  bool in_window(Cycle ready) const { return ready >= w0_ && ready < w1_; }

  // A packet of class cls became (or will become) ready at `ready` in the queue of `port`.
  void arrive(int port, int cls, Cycle ready) {
    if (!in_window(ready) || cls >= classes_) return;
    const Cycle s = ready / slot_;
    Cell& cell =
        cells_[static_cast<std::size_t>(port * ring_) + static_cast<std::size_t>(s % ring_)];
    if (cell.slot != s) {
      flush(port, cell);
      cell.slot = s;
    }
    ++cell.n[static_cast<std::size_t>(cls)];
    ++arrivals_[static_cast<std::size_t>(port * classes_ + cls)];
  }

  // It started its transmission `wait` cycles after it was ready.
  void depart(int cls, Cycle ready, Cycle wait) {
    if (!in_window(ready) || cls >= classes_) return;
    const auto b =
        static_cast<std::size_t>((ready - w0_) * static_cast<Cycle>(batches_) / (w1_ - w0_));
    const auto i = b * static_cast<std::size_t>(classes_) + static_cast<std::size_t>(cls);
    wait_sum_[i] += wait;
    ++waited_[i];
  }

  // After the run: the slots still open counted.
  void finish() {
    for (int p = 0; p < ports_; ++p)
      for (int k = 0; k < ring_; ++k) flush(p, cells_[static_cast<std::size_t>(p * ring_ + k)]);
  }

  int ports() const { return ports_; }
  int classes() const { return classes_; }
  int batches() const { return batches_; }
  Cycle slot() const { return slot_; }
  // Slots of the window (the denominator of the per-slot moments).
  double window_slots() const {
    return static_cast<double>(w1_ - w0_) / static_cast<double>(slot_);
  }
  // Waits (cycles) and their count, of class c in batch b.
  std::uint64_t wait_sum(int b, int c) const { return wait_sum_[idx(b, c)]; }
  std::uint64_t waited(int b, int c) const { return waited_[idx(b, c)]; }
  // Arrivals of class c at `port`'s queue; sum over the slots of (arrivals of classes 0..c)^2.
  std::uint64_t arrivals(int port, int c) const {
    return arrivals_[static_cast<std::size_t>(port * classes_ + c)];
  }
  std::uint64_t sq_cum(int port, int c) const {
    return sq_cum_[static_cast<std::size_t>(port * classes_ + c)];
  }

 private:
  struct Cell {
    Cycle slot = kNever;
    std::array<std::uint32_t, kMaxClasses> n{};
  };
  std::size_t idx(int b, int c) const { return static_cast<std::size_t>(b * classes_ + c); }
  void flush(int port, Cell& cell) {
    if (cell.slot == kNever) return;
    std::uint64_t cum = 0;
    for (int c = 0; c < classes_; ++c) {
      cum += cell.n[static_cast<std::size_t>(c)];
      sq_cum_[static_cast<std::size_t>(port * classes_ + c)] += cum * cum;
      cell.n[static_cast<std::size_t>(c)] = 0;
    }
    cell.slot = kNever;
  }

  int ports_, classes_, batches_, ring_ = 4;
  Cycle w0_, w1_, slot_;
  std::vector<std::uint64_t> wait_sum_, waited_, arrivals_, sq_cum_;
  std::vector<Cell> cells_;
};

}  // namespace sy
