// The network clock: one cycle is 1 ns of SystemC time; cycle t is evaluated at time t ns.
#pragma once
#include <systemc>

#include "switchyard/base/common.hpp"

namespace sy {

inline const sc_core::sc_time& cycle_period() {
  static const sc_core::sc_time period(1, sc_core::SC_NS);
  return period;
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
