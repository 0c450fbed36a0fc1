// SwitchAllocator: separable input-first allocation; in the ideal pipeline with VC allocation
// folded in (in the staged pipeline the VcAllocator comes first). Stage 1: each
// input port's arbiter picks one of its VCs whose head flit is ready, whose output channel is free
// and which holds an output VC with a credit (or, for a header, finds a free output VC in its
// class range: the VcAllocator step). Stage 2: each output's arbiter picks one of the inputs that
// bid for it. Arbiter pointers move only for grants that are used (no starvation).
#pragma once
#include <vector>

#include "base/flit.hpp"
#include "base/rng.hpp"
#include "router/arbiter.hpp"
#include "router/input_unit.hpp"
#include "router/output_unit.hpp"

namespace sy {

struct RouterProbe;

struct SwitchGrant {
  int in_port, vc, out_port, out_vc;
};

class SwitchAllocator {
 public:
  SwitchAllocator(int inputs, int outputs, int vcs, int classes, ArbPolicy policy);
  // Fills grants (at most one per input and per output); returns how many.
  int allocate(std::vector<InputUnit>& in, std::vector<OutputUnit>& out, const PacketPool& pool,
               Cycle t, SwitchGrant* grants);
  // Adaptive routing's selection among a header's usable candidates: uniformly at random from
  // this stream (seeded per router) instead of by credits.
  void random_selection(std::uint64_t seed) {
    random_ = true;
    rng_.reseed(seed);
  }
  // Staged pipeline: only VCs that hold an output VC (granted by the VcAllocator) bid.
  void staged(bool on) { staged_ = on; }
  // Waveforms: record each cycle's request vectors in the probe (null: off).
  void set_probe(RouterProbe* p) { probe_ = p; }

 private:
  std::uint64_t branch_outputs(VirtualChannel& vc, const std::vector<OutputUnit>& out, Cycle t,
                               std::uint8_t& cls) const;
  std::vector<Arbiter> out_arb_;
  std::vector<int> cand_;            // per input: bidding VC or -1
  std::vector<std::uint64_t> bids_;  // per output: inputs bidding
  std::vector<std::uint8_t> vc_cls_, in_cls_;
  std::vector<Cycle> vc_age_, in_age_;
  RouterProbe* probe_ = nullptr;
  bool random_ = false;
  bool staged_ = false;
  Rng rng_;
};

}  // namespace sy
