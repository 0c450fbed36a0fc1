// topology: {type: torus | mesh | hypercube | butterfly, dims: [n1, ..., nd] | dim: d | k, n}
#include "config/section.hpp"

namespace sy {
namespace config_detail {

void parse_topology(Section& s, Config& c) {
  TopologyConfig& t = c.topology;
  t.kind = s.choice<Topology::Kind>("type", Topology::Kind::Torus,
                                    {{"torus", Topology::Kind::Torus},
                                     {"mesh", Topology::Kind::Mesh},
                                     {"hypercube", Topology::Kind::Hypercube},
                                     {"butterfly", Topology::Kind::Butterfly}});
  if (t.kind == Topology::Kind::Butterfly) {
    for (const char* k : {"dim", "dims"})
      if (s.has(k))
        fail(s.source(), s.raw(k), s.path(k), "a butterfly takes 'k' (radix) and 'n' (stages)");
    t.k = static_cast<int>(s.integer("k", 2, 2, 16));
    t.n = static_cast<int>(s.integer("n", 4, 1, 20));
    long long rows = 1;
    for (int i = 0; i < t.n; ++i) rows *= t.k;
    if (rows * (t.n + 1) > (1 << 22))
      fail(s.source(), s.raw("n"), s.path("n"),
           std::to_string(rows * (t.n + 1)) + " routers: more than 2^22");
    t.dims.clear();
  } else if (t.kind == Topology::Kind::Hypercube) {
    const int d = static_cast<int>(s.integer("dim", 6, 1, 20));
    if (s.has("dims"))
      fail(s.source(), s.raw("dims"), s.path("dims"), "a hypercube takes 'dim', not 'dims'");
    t.dims.assign(d, 2);
  } else {
    for (const char* k : {"k", "n"})
      if (s.has(k))
        fail(s.source(), s.raw(k), s.path(k),
             "k and n are a butterfly's; a torus or mesh takes dims");
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
