// SwitchAllocator: separable input-first allocation; in the ideal pipeline with VC allocation
// folded in (in the staged pipeline the VcAllocator comes first). Stage 1: each
// input port's arbiter picks one of its VCs whose head flit is ready, whose output channel is free
// and which holds an output VC with a credit (or, for a header, finds a free output VC in its
// class range: the VcAllocator step). Stage 2: each output's arbiter picks one of the inputs that
// bid for it. Arbiter pointers move only for grants that are used (no starvation).
#pragma once
#include <memory>
#include <vector>

#include "switchyard/base/flit.hpp"
#include "switchyard/base/rng.hpp"
#include "switchyard/router/allocators/matcher.hpp"
#include "switchyard/router/arbiter.hpp"
#include "switchyard/router/input_unit.hpp"
#include "switchyard/router/output_unit.hpp"

namespace sy {

struct RouterProbe;

struct SwitchGrant {
  int in_port, vc, out_port, out_vc;
};

class SwitchAllocator {
 public:
  SwitchAllocator(int inputs, int outputs, int vcs, int classes, ArbPolicy policy);
  // Fills grants (at most one per input and per output); returns how many. busy: the inputs
  // that hold flits (bit p; the others are not looked at).
  int allocate(std::vector<InputUnit>& in, std::vector<OutputUnit>& out, const PacketPool& pool,
               Cycle t, SwitchGrant* grants, std::uint64_t busy);
  // Adaptive routing's selection among a header's usable candidates: uniformly at random from
  // this stream (seeded per router) instead of by credits.
  void random_selection(std::uint64_t seed) {
    random_ = true;
    rng_.reseed(seed);
  }
  // router.switch_allocator other than separable_input_first: its matching (allocators/).
  void use_matcher(std::unique_ptr<Matcher> m) {
    matcher_ = std::move(m);
    if (!matcher_) return;
    req_.assign(cand_.size(), 0);
    vmask_.assign(cand_.size(), 0);
    match_.assign(cand_.size(), -1);
    zero_cls_.assign(vc_cls_.size(), 0);
  }
  // Staged pipeline: only VCs that hold an output VC (granted by the VcAllocator) bid.
  void staged(bool on) { staged_ = on; }
  // Waveforms: record each cycle's request vectors in the probe (null: off).
  void set_probe(RouterProbe* p) { probe_ = p; }

 private:
  std::uint64_t bidding_vcs(InputUnit& iu, const std::vector<OutputUnit>& out,
                            const PacketPool& pool, Cycle t);
  int allocate_matched(std::vector<InputUnit>& in, std::vector<OutputUnit>& out,
                       const PacketPool& pool, Cycle t, SwitchGrant* grants, std::uint64_t busy);
  std::uint64_t branch_outputs(VirtualChannel& vc, const std::vector<OutputUnit>& out, Cycle t,
                               std::uint8_t& cls) const;
  std::vector<Arbiter> out_arb_;
  std::vector<int> cand_;            // per input: its bidding VC (read for inputs that bid)
  std::vector<std::uint64_t> bids_;  // per output: inputs bidding
  std::vector<std::uint8_t> vc_cls_, in_cls_;
  std::vector<Cycle> vc_age_, in_age_;
  RouterProbe* probe_ = nullptr;
  bool need_cls_, need_age_;  // the arbiters read classes (more than one) / ages (oldest first)
  bool random_ = false;
  bool staged_ = false;
  std::unique_ptr<Matcher> matcher_;
  std::vector<std::uint64_t> req_, vmask_;  // matcher: outputs and VCs requested, per input
  std::vector<int> match_;                  // matcher: the output granted, per input
  std::vector<std::uint8_t> zero_cls_;
  Rng rng_;
};

}  // namespace sy
