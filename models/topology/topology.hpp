// Topology: node id <-> coordinates, router ports named by (dimension, direction), neighbours,
// distances. One class covers n1 x ... x nd tori and meshes; a hypercube is the torus 2 x ... x 2.
// A dimension of size 2 has one port (the single link to the node that differs in that
// coordinate), a dimension of size >= 3 has a '+' and a '-' port (absent at a mesh's edge),
// a dimension of size 1 has none.
#pragma once
#include <string>
#include <vector>

namespace sy {

class Topology {
 public:
  enum class Kind { Torus, Mesh, Hypercube };
  struct Port {
    int dim;
    int dir;  // +1, -1, or 0 for the single link of a size-2 dimension
  };

  Topology(Kind kind, std::vector<int> dims);
  static Topology hypercube(int d) { return Topology(Kind::Hypercube, std::vector<int>(d, 2)); }

  Kind kind() const { return kind_; }
  const char* kind_name() const;
  int num_nodes() const { return nodes_; }
  int num_dims() const { return static_cast<int>(dims_.size()); }
  const std::vector<int>& dims() const { return dims_; }
  int size(int dim) const { return dims_[dim]; }
  bool wraps(int dim) const { return kind_ != Kind::Mesh && dims_[dim] >= 3; }

  int coord(int node, int dim) const { return (node / stride_[dim]) % dims_[dim]; }
  std::vector<int> coords(int node) const;
  int node_at(const std::vector<int>& c) const;
  int with_coord(int node, int dim, int value) const {
    return node + (value - coord(node, dim)) * stride_[dim];
  }

  // Network ports, the same list at every router (a mesh edge leaves some unconnected).
  int num_ports() const { return static_cast<int>(ports_.size()); }
  const Port& port(int p) const { return ports_[p]; }
  int port_of(int dim, int dir) const;  // -1 if none
  std::string port_name(int p) const;
  int neighbor(int node, int p) const;  // -1 if the port is unconnected
  int reverse_port(int p) const;        // port at the neighbour that leads back
  // True when the hop from node through port p is a wraparound link (the dateline of its ring).
  bool is_wrap_hop(int node, int p) const;

  int distance(int a, int b) const;
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
  int nodes_ = 1;
};

}  // namespace sy
