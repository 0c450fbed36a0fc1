// ReplicationRule: router-level broadcast as the routers see it. A broadcast packet is one copy
// per tree edge: its source NI plans the tree (plan()), and each router the copy reaches asks the
// rule on which output ports it forwards copies (children()), in which VC class and with which
// priority. The core knows only this interface; a broadcast scheme implements it in
// schemes/<name>/ (priority STAR: schemes/star/star_replication.hpp) and installs it with
// Network::set_replication. No allocation, no SystemC.
#pragma once
#include "switchyard/base/message.hpp"
#include "switchyard/base/rng.hpp"

namespace sy {

class ReplicationRule {
 public:
  virtual ~ReplicationRule() = default;
  // A new broadcast from `src`: its tree (b.ending_dim: the scheme's tree number), the node its
  // tree starts from (b.tree_src) and the side that reaches the antipode of even rings
  // (b.antipode_dir), drawn from the source NI's generator.
  virtual void plan(BroadcastRecord& b, int src, Rng& rng) const = 0;
  // The output ports on which `node` forwards a copy of tree `tree` rooted at `root` that came
  // in on `in_port` (any port outside the network's ports: the root injects it), at most one
  // per port (out_ports has room for every port of the router). Returns the count.
  virtual int children(int node, int root, int tree, int in_port, int* out_ports,
                       int antipode_dir) const = 0;
  // The VC class (0 or 1) of the hop on out_port, and whether it goes at the low priority.
  virtual int vc_class(int tree, int out_port) const = 0;
  virtual bool low_priority(int tree, int out_port) const = 0;
};

}  // namespace sy
