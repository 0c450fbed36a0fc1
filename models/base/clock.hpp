// The network clock: one cycle is network_interface.clock_ns of SystemC time (1 ns unless the
// config says otherwise; set by the Network when it is built: one network per process); cycle t
// is evaluated at time t periods.
#pragma once
#include <systemc>

#include "switchyard/base/common.hpp"

namespace sy {

inline sc_core::sc_time& cycle_period_setting() {
  static sc_core::sc_time period(1, sc_core::SC_NS);
  return period;
}
inline const sc_core::sc_time& cycle_period() {
  return cycle_period_setting();
}
// Picoseconds per cycle (the config's clock_ns x 1000, a whole number).
inline void set_cycle_period_ps(std::uint64_t ps) {
  cycle_period_setting() = sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS);
}
// The cycle a point in time falls on, rounded up (a request at 10.5 ns is taken at cycle 11).
inline Cycle cycle_ceil(const sc_core::sc_time& t) {
  const sc_dt::uint64 p = cycle_period().value();
  return static_cast<Cycle>(t.value() / p + (t.value() % p != 0));  // no wrap near 2^64
}
inline sc_core::sc_time time_of(Cycle c) {
  return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(c) * cycle_period().value());
}

}  // namespace sy
