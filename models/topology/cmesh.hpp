// Concentrated mesh (BookSim2's cmesh without express links): an n1 x ... x nd mesh of routers,
// c terminals at each. Router r has the mesh coordinates of r (dimension 0 fastest), terminals
// r*c .. r*c + c - 1 inject and are delivered there (each on its own injection ports and, in the
// staged pipeline, its own ejection outputs). Ports: for every dimension of size >= 2 a '+' and
// a '-' port (2 per such dimension, in dimension order), unconnected at the mesh's edge.
// Routing: dimension order on the router coordinates, lowest dimension first; a packet between
// two terminals of one router makes no hop. Link classes: one per dimension.
#pragma once
#include <vector>

#include "switchyard/topology/indirect.hpp"

namespace sy {

class CMesh : public IndirectNetwork {
 public:
  CMesh(std::vector<int> dims, int concentration);
  const std::vector<int>& dims() const { return dims_; }
  int coord(int router, int dim) const { return router / stride_[dim] % dims_[dim]; }

  const char* kind_name() const override { return "cmesh"; }
  int num_routers() const override { return routers_; }
  int num_terminals() const override { return routers_ * c_; }
  int num_ports() const override { return static_cast<int>(port_dim_.size()); }
  int neighbor(int router, int port) const override;
  int in_port(int, int port) const override { return port ^ 1; }
  int injection_router(int terminal) const override { return terminal / c_; }
  int ejection_router(int terminal) const override { return terminal / c_; }
  int ejection_terminal(int router) const override { return router * c_; }
  int ejection_count(int) const override { return c_; }
  int injection_index(int terminal) const override { return terminal % c_; }
  int concentration() const override { return c_; }
  int route(int router, int dst) const override;
  int distance(int src, int dst) const override;
  int diameter() const override;
  double average_distance(bool include_self) const override;
  double uniform_link_share(bool exclude_self) const override;
  std::string router_name(int router) const override;
  std::string port_name(int port) const override;
  int num_link_classes() const override { return static_cast<int>(dims_.size()); }
  int link_class(int, int port) const override { return port_dim_[port]; }
  std::string link_class_name(int cls) const override { return "d" + std::to_string(cls); }

 private:
  std::vector<int> dims_, stride_;
  std::vector<int> port_dim_;   // per port: its dimension (port 2i: '+', 2i + 1: '-')
  std::vector<int> plus_port_;  // per dimension: its '+' port, -1 for a dimension of size 1
  int routers_ = 1, c_ = 1;
};

}  // namespace sy
