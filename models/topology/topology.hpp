// Topology: node id <-> coordinates, router ports named by (dimension, direction), neighbours,
// distances. One class covers the direct networks: n1 x ... x nd tori and meshes; a hypercube is
// the torus 2 x ... x 2. A dimension of size 2 has one port (the single link to the node that
// differs in that coordinate), a dimension of size >= 3 has a '+' and a '-' port (absent at a
// mesh's edge), a dimension of size 1 has none. In a direct network every node is a router and a
// terminal (router id = terminal id = node id).
// A torus built with size2_links = 2 gives a size-2 dimension a '+' and a '-' port too, both to
// the other node: two parallel links each way (Varvarigos & Bertsekas §8.2's p = 2 torus, a
// hypercube with two links per direction). Such a dimension is a ring of 2 (wraps): '+' from
// coordinate 1 and '-' from 0 are its wraparound hops, and either way is minimal (an even ring's
// tie).
// Indirect networks (butterfly, concentrated mesh, fat tree; topology/indirect.hpp) are wrapped:
// their terminals are not their routers. The generic questions — routers, terminals, ports,
// neighbours and input ports, where a terminal injects and is delivered to, distances, names — are
// answered for both; the coordinate questions (dims, coord, port(p).dim) are the direct networks'
// only.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "switchyard/base/common.hpp"
#include "switchyard/topology/indirect.hpp"

namespace sy {

class Topology {
 public:
  enum class Kind { Torus, Mesh, Hypercube, Butterfly, CMesh, FatTree, Dragonfly, FlatFly, AnyNet };
  struct Port {
    int dim;
    int dir;  // +1, -1, or 0 for the single link of a size-2 dimension (size2_links 1)
  };

  // size2_links: 1, or 2 (a torus only) for two links each way in a size-2 dimension.
  Topology(Kind kind, std::vector<int> dims, int size2_links = 1);
  static Topology hypercube(int d) { return Topology(Kind::Hypercube, std::vector<int>(d, 2)); }
  static Topology butterfly(int k, int n);
  static Topology cmesh(std::vector<int> dims, int concentration);
  static Topology fat_tree(int k, int n);
  // Any indirect network (the parser builds dragonflies, flattened butterflies, anynet files).
  static Topology indirect(Kind kind, std::shared_ptr<const IndirectNetwork> net);

  Kind kind() const { return kind_; }
  const char* kind_name() const;
  bool indirect() const { return ind_ != nullptr; }
  const IndirectNetwork* indirect_network() const { return ind_.get(); }
  // Terminals (NIs, sources): num_nodes(); routers: num_routers(). Equal in a direct network.
  int num_nodes() const { return nodes_; }
  int num_routers() const { return ind_ ? ind_->num_routers() : nodes_; }
  int injection_router(int terminal) const {
    return ind_ ? ind_->injection_router(terminal) : terminal;
  }
  int ejection_router(int terminal) const {
    return ind_ ? ind_->ejection_router(terminal) : terminal;
  }
  int ejection_terminal(int router) const {
    return ind_ ? ind_->ejection_terminal(router) : router;
  }
  // Concentration (topology/indirect.hpp): the terminals delivered to at a router, the
  // injection group of a terminal at its router, the most terminals at one router (1 in a
  // direct network).
  int ejection_count(int router) const { return ind_ ? ind_->ejection_count(router) : 1; }
  int injection_index(int terminal) const { return ind_ ? ind_->injection_index(terminal) : 0; }
  int concentration() const { return ind_ ? ind_->concentration() : 1; }
  // The input port at neighbor(router, p) that the link from (router, p) enters.
  int in_port(int router, int p) const { return ind_ ? ind_->in_port(router, p) : reverse_port(p); }
  std::string router_name(int router) const;
  int num_dims() const { return static_cast<int>(dims_.size()); }
  const std::vector<int>& dims() const { return dims_; }
  int size(int dim) const { return dims_[dim]; }
  bool wraps(int dim) const {
    return kind_ != Kind::Mesh && (dims_[dim] >= 3 || (dims_[dim] == 2 && size2_links_ == 2));
  }
  // Links each way in a dimension of size 2 (1: one link, port direction 0; 2: '+' and '-').
  int size2_links() const { return size2_links_; }
  // The dimension is one link to the other node (size 2, size2_links 1): its port has dir 0.
  bool single_link(int dim) const { return dims_[dim] == 2 && !wraps(dim); }

  int coord(int node, int dim) const { return (node / stride_[dim]) % dims_[dim]; }
  std::vector<int> coords(int node) const;
  int node_at(const std::vector<int>& c) const;
  int with_coord(int node, int dim, int value) const {
    return node + (value - coord(node, dim)) * stride_[dim];
  }

  // Network ports, the same list at every router (a mesh edge leaves some unconnected).
  int num_ports() const { return ind_ ? ind_->num_ports() : static_cast<int>(ports_.size()); }
  const Port& port(int p) const { return ports_[p]; }
  int port_of(int dim, int dir) const {  // -1 if none
    return port_of_[static_cast<std::size_t>(3 * dim + dir + 1)];
  }
  std::string port_name(int p) const;
  int neighbor(int node, int p) const;  // -1 if the port is unconnected (router ids)
  int reverse_port(int p) const;        // port at the neighbour that leads back
  // True when the hop from node through port p is a wraparound link (the dateline of its ring).
  bool is_wrap_hop(int node, int p) const {
    if (ind_) return false;
    const Port& q = ports_[p];
    if (!wraps(q.dim)) return false;
    const int c = coord(node, q.dim);
    return (q.dir > 0 && c == dims_[q.dim] - 1) || (q.dir < 0 && c == 0);
  }
  // Links grouped for statistics: by dimension (direct), by level and arc type (butterfly).
  int num_link_classes() const { return ind_ ? ind_->num_link_classes() : num_dims(); }
  int link_class(int router, int p) const {
    return ind_ ? ind_->link_class(router, p) : port(p).dim;
  }
  std::string link_class_name(int cls) const;

  int distance(int a, int b) const;  // terminals: router-to-router hops
  int dim_distance(int dim, int a, int b) const;
  int diameter() const;
  // Mean distance from a node to the others (or to all, self included); exact, by dimension.
  double average_distance(bool include_self) const;
  int num_links() const;  // directed links
  double average_degree() const { return static_cast<double>(num_links()) / nodes_; }

 private:
  Kind kind_;
  std::vector<int> dims_, stride_;
  std::vector<Port> ports_;
  std::vector<int>
      port_of_;  // port_of(dim, dir) at 3 * dim + dir + 1 (a header's routing reads it)
  int nodes_ = 1;
  int size2_links_ = 1;
  std::shared_ptr<const IndirectNetwork> ind_;
};

}  // namespace sy
