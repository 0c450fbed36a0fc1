// topology: {type: torus | mesh | hypercube, dims: [n1, ..., nd] | dim: d}
#include "config/section.hpp"

namespace sy {
namespace config_detail {

void parse_topology(Section& s, Config& c) {
  TopologyConfig& t = c.topology;
  t.kind = s.choice<Topology::Kind>("type", Topology::Kind::Torus,
                                    {{"torus", Topology::Kind::Torus},
                                     {"mesh", Topology::Kind::Mesh},
                                     {"hypercube", Topology::Kind::Hypercube}});
  if (t.kind == Topology::Kind::Hypercube) {
    const int d = static_cast<int>(s.integer("dim", 6, 1, 20));
    if (s.has("dims"))
      fail(s.source(), s.raw("dims"), s.path("dims"), "a hypercube takes 'dim', not 'dims'");
    t.dims.assign(d, 2);
  } else {
    if (s.has("dim"))
      fail(s.source(), s.raw("dim"), s.path("dim"),
           "a torus or mesh takes 'dims: [n1, ..., nd]', not 'dim'");
    t.dims = s.int_list("dims", {8, 8}, 1, 1 << 16);
    if (t.dims.empty()) fail(s.source(), s.raw("dims"), s.path("dims"), "needs at least one size");
    long long n = 1;
    for (int x : t.dims) n *= x;
    if (n > (1 << 20)) fail(s.source(), s.raw("dims"), s.path("dims"), "more than 2^20 nodes");
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
