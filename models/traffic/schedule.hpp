// Schedule: a static communication algorithm as data, one mechanism for every paper — the
// circuit-switched broadcasts (tiling, divide-and-conquer, H-trees), partial multinode broadcast,
// total exchange, or a user's own list. ScheduleDriver executes it on the cycle model.
//
// Items are the packets the algorithm moves: each has a size in flits, a source (the node that
// holds it at the start) and a destination (one node, or every node: a broadcast item).
// A transmission sends one item its sender holds along a path of hops (dim, dir: +1/-1, or 0 for
// the single link of a size-2 dimension). Its timing is one of:
//  - phases (circuit schedules): every transmission of phase p may start together; its whole path
//    is a circuit held during the phase, so the transmissions of a phase must be arc-disjoint;
//  - slots (store-and-forward slot schedules): hop k of the path crosses its link in slot
//    slots[k] (one unit packet per directed link per slot), the packet waiting in the queues of
//    the nodes between its hops. A slot carries unit_flits flits; a larger item (a scan message
//    of a longer size, say) holds each link of its path for several consecutive slots.
// An arc (directed link) may carry one transmission per phase or slot; the checker names the
// link and the phase or slot of every conflict.
//
// No SystemC dependency. Node ids and ports follow sy::Topology.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/topology/topology.hpp"

namespace sy {

struct ScheduleHop {
  int dim;
  int dir;  // +1, -1, or 0 for the single link of a size-2 dimension (size2_links 1)
  bool operator==(const ScheduleHop& o) const { return dim == o.dim && dir == o.dir; }
};

struct Transmission {
  int phase = 0;   // phases timing: 0-based phase (slots timing: unused)
  int sender = 0;  // node id
  int item = 0;    // which item it carries
  std::vector<ScheduleHop> path;
  std::vector<int> slots{};  // slots timing: the slot of each hop, increasing
};

enum class ScheduleTiming { Phases, Slots };

struct Schedule {
  std::string algorithm;  // "tiling", "divide-and-conquer", "h-trees", "explicit", ...
  std::string variant;    // construction detail, e.g. "5^k", "slanting 2x2 blocks", "depth 9"
  Topology::Kind kind = Topology::Kind::Torus;
  std::vector<int> dims;
  int size2_links = 1;  // torus: links each way in a size-2 dimension (Topology)
  ScheduleTiming timing = ScheduleTiming::Phases;
  int root = 0;                  // broadcast of one message: the node that holds every item
  int message_flits = 1;         // L
  int packet_flits = 1;          // B: the largest item
  int streams = 1;               // parts travelling on separate trees (H-trees 2, S&F 4)
  std::vector<int> item_flits;   // size of each item; items = item_flits.size()
  std::vector<int> item_source;  // empty: every item starts at root
  std::vector<int> item_dest;    // empty: every item goes to every node; -1: that item does
  bool shortest_paths = false;   // the algorithm promises shortest paths: checked per transmission
  bool returns_allowed = false;  // a node may receive an item it holds (counted, not an error)
  int links_per_slot = 0;        // at most this many links per node per phase/slot (0: all)
  int unit_flits = 0;            // slots: flits one slot carries (0: packet_flits)
  int phases = 0;                // phases, or slots (last slot + 1)
  std::vector<Transmission> transmissions;

  int items() const { return static_cast<int>(item_flits.size()); }
  int num_nodes() const;
  int source(int item) const { return item_source.empty() ? root : item_source[item]; }
  int dest(int item) const { return item_dest.empty() ? -1 : item_dest[item]; }
  bool broadcast(int item) const { return dest(item) < 0; }
  Topology topology() const { return Topology(kind, dims, size2_links); }
  // Slots: flits one slot carries, and how many consecutive slots an item holds a link for.
  int slot_flits() const { return unit_flits > 0 ? unit_flits : packet_flits; }
  int units(int item) const {
    if (timing != ScheduleTiming::Slots) return 1;
    const int u = slot_flits() > 0 ? slot_flits() : 1;
    return std::max(1, (item_flits[static_cast<std::size_t>(item)] + u - 1) / u);
  }
  // The phase or slot in which hop k of transmission t (starts to) cross its link.
  int unit(const Transmission& t, std::size_t k) const {
    return timing == ScheduleTiming::Slots ? t.slots[k] : t.phase;
  }
  // The phase or slot in which transmission t starts (its first hop).
  int start_unit(const Transmission& t) const { return unit(t, 0); }
};

// Thrown by the generators for a size (or argument) they have no construction for; the message
// names the algorithm, the size asked for and the sizes supported.
class UnsupportedSchedule : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Spread L flits over the items (the first L % items items get one flit more).
void set_message_flits(Schedule& s, int message_flits);
// Cut L flits into packets of at most B flits the way a pipelining NI does (schedule.packet_flits):
// the message is split over the s.streams streams (item i belongs to stream i % streams; the
// first L % streams streams get one flit more), and each stream's share is sent as its
// items / streams packets of B flits, back to back, the last one shorter (share mod B, or B).
// Where B divides every share evenly this is set_message_flits. Throws std::invalid_argument
// when a stream's last packet would be empty or longer than B (items do not match L and B).
void set_packet_flits(Schedule& s, int message_flits, int packet_flits);
// The number of packets per stream that set_packet_flits needs: ceil(ceil(L / streams) / B).
int packets_per_stream(int message_flits, int packet_flits, int streams);

// ---- checker --------------------------------------------------------------------------------

struct ScheduleCheck {
  bool ok = true;
  std::vector<std::string> errors;  // empty when ok
  int phases = 0;                   // phases or slots used
  int max_receptions = 0;           // most items one node receives in one phase or slot
  int max_sends = 0;                // most links one node starts sending on in one phase/slot
  int max_hops = 0;                 // longest path
  std::vector<int> phase_max_hops;  // longest path starting in each phase (or slot)
  long long total_hops = 0;
  long long returns = 0;  // receptions of an item the node already held (returns_allowed)
};

// Every item reaches its destination (every node but its source, for a broadcast item) exactly
// once; every sender holds the item it sends (its source, or received it in an earlier phase, or
// by the slot it sends it in); no arc carries two transmissions in one phase or slot ("node 7
// (2,1) port d0+ in phase 3, by transmissions from 2 and 12"); each hop exists; slots increase
// along a path; shortest paths where the schedule promises them; at most links_per_slot links
// per node and phase or slot.
ScheduleCheck check(const Schedule& s);
// Same, throwing std::runtime_error with the first errors when the schedule is not valid.
void require_valid(const Schedule& s);

// ---- cost -----------------------------------------------------------------------------------
// The linear cost of one transmission: alpha + delta * hops + size * tau.
struct CircuitCost {
  double alpha = 1.0;  // start-up per transmission
  double delta = 0.0;  // per switch passed (= per hop)
  double tau = 1.0;    // per flit
};

// The schedule's own plan for phases timing: phases synchronous, each as long as its longest
// transmission (alpha + delta * hops + size * tau, size = the part's flits).
double phase_sum_time(const Schedule& s, const CircuitCost& c);

std::string describe(const Schedule& s);              // one line: algorithm, size, items, phases
std::string size_name(const std::vector<int>& dims);  // "5x5", "2x2x2x2"

}  // namespace sy
