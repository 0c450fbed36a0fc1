// Traffic: the per-node sources. Synthetic sources are Bernoulli (at most one packet a cycle with
// probability r, drawn as geometric gaps), Poisson (a Poisson-sized batch each cycle, drawn as
// exponential gaps of a continuous process binned into cycles) or on/off (BookSim2's two-state
// Markov source: Bernoulli at r (alpha + beta) / alpha while on, silent while off; the on- and
// off-periods drawn whole, as geometric lengths of mean 1/beta and 1/alpha cycles), with a
// destination pattern and a packet length (fixed, or drawn per packet from packet_sizes). A
// trace replays (time, src, dst, flits) messages. Every source has its own random stream seeded
// from (seed, node), so results never depend on the order the kernel visits nodes in.
// The sources are TLM-2.0 initiators: each message is a b_transport on the node's NI target
// socket, the same way in as any user's initiator.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "switchyard/base/rng.hpp"
#include "switchyard/config/config.hpp"
#include "switchyard/network/network_interface.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/arrival_calendar.hpp"

namespace sy {

class Traffic : public sc_core::sc_module {
 public:
  Traffic(sc_core::sc_module_name name, const Config& cfg, const Topology& topo);
  ~Traffic() override;
  // out[n] is bound to node n's NI target socket.
  sc_core::sc_vector<tlm_utils::simple_initiator_socket<Traffic>> out;
  // Requests every message due at cycle t (called by the network's clock at cycle t).
  void generate(Cycle t);
  Cycle next_time() const;
  // simulation.threads: the synthetic sources split among lanes (lane_of[node]), before the
  // first cycle; each lane then requests its own sources' messages (generate_lane, from the
  // lane's thread, on a payload of its own), in the order one thread takes them within the
  // lane. A trace stays with the caller (generate). True when the split applies.
  bool set_lanes(const std::vector<std::uint8_t>& lane_of, int lanes);
  void generate_lane(Cycle t, int k);
  // Network ranks: this process requests the sources of lanes [lo, hi) only (the others' are
  // other ranks'), and next_time() is theirs.
  void only_lanes(int lo, int hi) { only_lo_ = lo, only_hi_ = hi; }
  bool exhausted() const { return cfg_.traffic.trace && next_msg_ >= cfg_.traffic.messages.size(); }
  int destination(int src, Rng& rng) const;
  // Mean hop count of the pattern (the unicast D_ave that enters the throughput factor).
  double mean_hops() const;

 private:
  Cycle draw_next(int stream, Cycle after_or_at);
  double rate(int stream) const;
  // The payload a message is requested on, with its extension (one per lane on several threads).
  struct Payload {
    Payload() : ext(new NocExtension) { gp.set_extension(ext); }
    tlm::tlm_generic_payload gp;
    NocExtension* ext;  // owned by gp
  };
  // At cycle t; traffic_class: the index in traffic.classes.
  void request(Payload& pl, int src, int dst, int flits, int priority, Cycle t,
               int traffic_class = 0);
  void run_calendar(ArrivalCalendar& due, Cycle t, Payload& pl);
  const Config& cfg_;
  const Topology& topo_;
  std::vector<Rng> rng_;
  std::vector<double> poisson_t_;  // next arrival of each Poisson source, continuous time
  std::vector<double> log_q_;  // Bernoulli, on_off: per stream, log1p(-rate) (0 when the rate is 1)
  // on_off: per stream, the current period (on or off) and the cycle after its last one. The
  // chain runs on the cycle count, whatever the network does (the NI queues what it cannot take
  // at once), as BookSim2's does on its sources' own time.
  struct OnOffState {
    Cycle end = 0;
    bool on = false;
  };
  std::vector<OnOffState> onoff_;
  double log_stay_on_ = 0, log_stay_off_ = 0;  // log1p(-beta), log1p(-alpha)
  Cycle period(Rng& r, bool on) const;
  Cycle draw_on_off(int stream, Cycle from);
  // packet_sizes: the cumulative weights (empty: every packet packet_flits long).
  std::vector<double> size_cdf_;
  int packet_length(Rng& r) const;
  // The sources' next arrivals, by stream: node (unicast) or N + node (broadcast).
  ArrivalCalendar due_;
  std::size_t next_msg_ = 0;
  double p_;                   // packets per node per cycle
  std::vector<int> perm_;      // random_permutation: each node's destination
  std::vector<double> cdf_;    // matrix: per source, the cumulative destination distribution
  std::vector<double> rates_;  // matrix: per source, packets per cycle
  int flip_bits_;              // bit_flip: address bits (hypercube dimensions, butterfly row bits)
  Payload payload_;
  std::vector<Cycle> first_;  // each stream's first arrival (until set_lanes)
  struct LaneSources {
    explicit LaneSources(std::size_t streams) : due(streams) {}
    ArrivalCalendar due;
    Payload payload;
  };
  std::vector<std::unique_ptr<LaneSources>> lanes_;
  int only_lo_ = -1, only_hi_ = -1;
};

}  // namespace sy
