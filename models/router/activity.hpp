// RouterActivity: what a router's units did, counted where the cycle model does it (power on:
// the energy models multiply these by their per-event energies; power/power_plugin.*). Off, no
// router has one and the loops that count are not the ones that run (InputVcRouter's kCount).
#pragma once
#include <cstdint>

namespace sy {

// (The counts are unsigned long long, a type none of the router's state has: a count's store
// does not make the compiler read the router's 64-bit fields (cycles, masks) again, as a
// std::uint64_t store would.)
using Count = unsigned long long;
static_assert(sizeof(Count) == 8);

struct RouterActivity {
  Count active_cycles = 0;  // cycles the router was evaluated (it held a flit)
  Count buffer_writes = 0;  // flits written into an input VC buffer
  Count buffer_reads = 0;   // flits read out of one (each sends a credit upstream)
  Count crossbar = 0;       // flits across the crossbar, per output driven
  Count ejected = 0;        // ideal pipeline: flits for this node's NI, taken as they arrive
  // Switch allocation where one VC of one input was the only requester: one arbitration with
  // one request at each stage (counted once, not in the four below).
  Count sa_lone = 0;
  Count sa_stage1 = 0;           // other inputs' arbitrations among their VCs
  Count sa_stage1_requests = 0;  // VCs that bid in them
  Count sa_stage2 = 0;           // other outputs' arbitrations among the inputs
  Count sa_stage2_requests = 0;  // inputs that bid in them
  Count va = 0;                  // output VCs allocated to headers
  Count last_cycle = ~Count{0};  // (the last active cycle counted; not a count)

  RouterActivity& operator-=(const RouterActivity& o) {
    active_cycles -= o.active_cycles;
    buffer_writes -= o.buffer_writes;
    buffer_reads -= o.buffer_reads;
    crossbar -= o.crossbar;
    ejected -= o.ejected;
    sa_stage1 -= o.sa_stage1;
    sa_stage1_requests -= o.sa_stage1_requests;
    sa_stage2 -= o.sa_stage2;
    sa_stage2_requests -= o.sa_stage2_requests;
    va -= o.va;
    sa_lone -= o.sa_lone;
    return *this;
  }
};

}  // namespace sy
