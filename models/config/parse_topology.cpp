// topology: {type: torus | mesh | hypercube | butterfly | cmesh, dims: [n1, ..., nd] | dim: d |
//            k, n, concentration, size2_links (torus)} | fat_tree (k, n) | dragonfly (p, a, h, g,
//            local_latency, global_latency) | anynet (file, deadlock) | flatfly (k, n,
//            concentration)
#include <memory>
#include <stdexcept>

#include "switchyard/config/section.hpp"
#include "switchyard/topology/anynet.hpp"
#include "switchyard/topology/dragonfly.hpp"
#include "switchyard/topology/flatfly.hpp"

namespace sy {
namespace config_detail {

// topology.k and n as `switchyard keys` writes them: a butterfly's and a fat tree's differ.
constexpr const char* kKDefault = "2 (fat_tree, flatfly: 4)";
constexpr const char* kKMax = "16 (fat_tree, flatfly: 32)";
constexpr const char* kNDefault = "4 (fat_tree, flatfly: 2)";
constexpr const char* kCDefault = "4 (flatfly: k)";

void parse_topology(Section& s, Config& c) {
  TopologyConfig& t = c.topology;
  t.kind = s.choice<Topology::Kind>("type", Topology::Kind::Torus,
                                    {{"torus", Topology::Kind::Torus},
                                     {"mesh", Topology::Kind::Mesh},
                                     {"hypercube", Topology::Kind::Hypercube},
                                     {"butterfly", Topology::Kind::Butterfly},
                                     {"cmesh", Topology::Kind::CMesh},
                                     {"fat_tree", Topology::Kind::FatTree},
                                     {"anynet", Topology::Kind::AnyNet},
                                     {"dragonfly", Topology::Kind::Dragonfly},
                                     {"flatfly", Topology::Kind::FlatFly}});
  // size2_links: 2 gives each size-2 dimension of a torus a '+' and a '-' link to its other node
  // (two parallel links each way); 1 (default): the one link.
  if (s.has("size2_links") && t.kind != Topology::Kind::Torus)
    fail(s.source(), s.at("size2_links"), s.path("size2_links"),
         std::string("two links each way in a size-2 dimension: a torus's key") +
             (t.kind == Topology::Kind::Hypercube
                  ? " (the hypercube with two links per direction is type: torus, dims: "
                    "[2, ..., 2], size2_links: 2)"
                  : ""));
  if (t.kind == Topology::Kind::Torus)
    t.size2_links = static_cast<int>(s.integer("size2_links", 1, 1, 2));
  if (s.has("concentration") && t.kind != Topology::Kind::CMesh &&
      t.kind != Topology::Kind::FlatFly)
    fail(s.source(), s.at("concentration"), s.path("concentration"),
         "terminals per router: a cmesh's or a flatfly's");
  if (t.kind == Topology::Kind::CMesh)
    t.concentration = static_cast<int>(s.integer("concentration", {4, kCDefault}, 1, 64));
  // anynet: the network file (relative to the config's folder) and how its routes avoid deadlock.
  t.file = s.text("file", "");
  const AnyNet::Deadlock deadlock =
      s.choice<AnyNet::Deadlock>("deadlock", AnyNet::Deadlock::Layers,
                                 {{"layers", AnyNet::Deadlock::Layers},
                                  {"up_down", AnyNet::Deadlock::UpDown},
                                  {"none", AnyNet::Deadlock::None}});
  for (const char* k : {"file", "deadlock"})
    if (s.has(k) && t.kind != Topology::Kind::AnyNet)
      fail(s.source(), s.at(k), s.path(k), "an anynet's (type: anynet)");
  if (t.kind == Topology::Kind::AnyNet) {
    for (const char* k : {"dim", "dims", "k", "n"})
      if (s.has(k))
        fail(s.source(), s.at(k), s.path(k),
             "an anynet takes 'file' (its routers, terminals and links) and 'deadlock'");
    if (t.file.empty())
      fail(s.source(), s.at("file"), s.path("file"),
           "type: anynet needs file: PATH (BookSim2's anynet format)");
    std::string path = t.file;
    const auto slash = c.source.rfind('/');
    if (path[0] != '/' && slash != std::string::npos) path = c.source.substr(0, slash) + "/" + path;
    try {
      t.built = std::make_shared<AnyNet>(AnyNet::from_file(path, deadlock));
    } catch (const std::invalid_argument& e) {
      fail(s.source(), s.at("file"), s.path("file"), e.what());
    }
    if (t.built->num_terminals() > (1 << 20))
      fail(s.source(), s.at("file"), s.path("file"), "more than 2^20 terminals");
    t.dims.clear();
  } else if (t.kind == Topology::Kind::FlatFly) {
    // Flattened butterfly: k routers per dimension, n dimensions, c terminals per router.
    for (const char* k : {"dim", "dims"})
      if (s.has(k))
        fail(s.source(), s.at(k), s.path(k),
             "a flatfly takes 'k' (routers per dimension), 'n' (dimensions) and "
             "'concentration' (terminals per router)");
    t.k = static_cast<int>(s.integer("k", {4, kKDefault}, 2, {32, kKMax}));
    t.n = static_cast<int>(s.integer("n", {2, kNDefault}, 1, 20));
    t.concentration = static_cast<int>(s.integer("concentration", {t.k, kCDefault}, 1, 64));
    std::int64_t terminals = t.concentration;
    for (int i = 0; i < t.n; ++i) terminals = mul_sat(terminals, t.k);
    if (terminals > (1 << 20))
      fail(s.source(), s.at("n"), s.path("n"),
           "k^n x concentration = " + std::to_string(t.k) + "^" + std::to_string(t.n) + " x " +
               std::to_string(t.concentration) + " terminals: more than 2^20");
    if (t.k * t.n > 64)
      fail(s.source(), s.at("n"), s.path("n"),
           "a router has at most 64 network ports: n x k = " + std::to_string(t.n) + " x " +
               std::to_string(t.k) + " here");
    t.dims.clear();
    t.built = std::make_shared<FlatFly>(t.k, t.n, t.concentration);
  } else if (t.kind == Topology::Kind::FatTree) {
    for (const char* k : {"dim", "dims"})
      if (s.has(k))
        fail(s.source(), s.at(k), s.path(k),
             "a fat tree takes 'k' (arity: k terminals per leaf, k up and k down ports) and 'n' "
             "(levels)");
    t.k = static_cast<int>(s.integer("k", {4, kKDefault}, 2, {32, kKMax}));
    t.n = static_cast<int>(s.integer("n", {2, kNDefault}, 1, 20));
    std::int64_t terminals = 1;
    for (int i = 0; i < t.n; ++i) terminals = mul_sat(terminals, t.k);
    if (terminals > (1 << 20))
      fail(s.source(), s.at("n"), s.path("n"),
           "k^n = " + std::to_string(t.k) + "^" + std::to_string(t.n) +
               " terminals: more than 2^20");
    t.dims.clear();
  } else if (t.kind == Topology::Kind::Dragonfly) {
    // dragonfly: p terminals per router, a routers per group (fully connected), h global links
    // per router, g groups (default a*h + 1: one link between every pair of groups).
    for (const char* k : {"dim", "dims", "k", "n"})
      if (s.has(k))
        fail(s.source(), s.at(k), s.path(k),
             "a dragonfly takes 'p' (terminals per router), 'a' (routers per group), 'h' (global "
             "links per router) and 'g' (groups)");
    t.p = static_cast<int>(s.integer("p", 2, 1, 64));
    t.a = static_cast<int>(s.integer("a", 4, 1, 64));
    t.h = static_cast<int>(s.integer("h", 2, 1, 64));
    const int gmax = t.a * t.h + 1;
    t.g = static_cast<int>(s.integer("g", {gmax, "a*h + 1"}, 2, {gmax, "a*h + 1"}));
    if (t.a - 1 + t.h + t.p > 64)
      fail(s.source(), s.at("a"), s.path("a"),
           "a router has at most 64 ports: " + std::to_string(t.a - 1) + " local + " +
               std::to_string(t.h) + " global + " + std::to_string(t.p) + " terminals here");
    const std::int64_t terminals = static_cast<std::int64_t>(t.p) * t.a * t.g;
    if (terminals > (1 << 20))
      fail(s.source(), s.at("g"), s.path("g"),
           "p a g = " + std::to_string(terminals) + " terminals: more than 2^20");
    // Link latencies (0: router.pipeline.lt); non-zero needs the staged pipeline (config.cpp).
    t.local_latency = static_cast<int>(s.integer("local_latency", 0, 0, 1000));
    t.global_latency = static_cast<int>(s.integer("global_latency", 0, 0, 1000));
    t.built = std::make_shared<Dragonfly>(t.p, t.a, t.h, t.g, t.local_latency, t.global_latency);
    t.dims.clear();
  } else if (t.kind == Topology::Kind::Butterfly) {
    for (const char* k : {"dim", "dims"})
      if (s.has(k))
        fail(s.source(), s.at(k), s.path(k), "a butterfly takes 'k' (radix) and 'n' (stages)");
    t.k = static_cast<int>(s.integer("k", {2, kKDefault}, 2, {16, kKMax}));
    t.n = static_cast<int>(s.integer("n", {4, kNDefault}, 1, 20));
    // k^n rows and n + 1 levels, multiplied with a check (16^20 does not fit in 64 bits).
    std::int64_t routers = t.n + 1;
    for (int i = 0; i < t.n; ++i) routers = mul_sat(routers, t.k);
    if (routers > (1 << 22))
      fail(s.source(), s.at("n"), s.path("n"),
           "k^n (n + 1) = " + std::to_string(t.k) + "^" + std::to_string(t.n) + " x " +
               std::to_string(t.n + 1) + " routers: more than 2^22");
    t.dims.clear();
  } else if (t.kind == Topology::Kind::Hypercube) {
    const int d = static_cast<int>(s.integer("dim", 6, 1, 20));
    if (s.has("dims"))
      fail(s.source(), s.at("dims"), s.path("dims"), "a hypercube takes 'dim', not 'dims'");
    t.dims.assign(d, 2);
  } else {
    for (const char* k : {"k", "n"})
      if (s.has(k))
        fail(s.source(), s.at(k), s.path(k),
             "k and n are a butterfly's; a torus, mesh or cmesh takes dims");
    if (s.has("dim"))
      fail(s.source(), s.at("dim"), s.path("dim"),
           "a torus, mesh or cmesh takes 'dims: [n1, ..., nd]', not 'dim'");
    t.dims = s.int_list("dims", {8, 8}, 1, 1 << 16);
    if (t.dims.empty()) fail(s.source(), s.at("dims"), s.path("dims"), "needs at least one size");
    // The product of the sizes, multiplied with a check (five sizes of 2^16 do not fit in 64
    // bits): the node count must fit the model's int node ids with room to spare.
    std::int64_t n = 1;
    std::string product;
    for (int x : t.dims) {
      n = mul_sat(n, x);
      product += (product.empty() ? "" : " x ") + std::to_string(x);
    }
    if (n > (1 << 20))
      fail(s.source(), s.at("dims"), s.path("dims"),
           product + " = " +
               (n == std::numeric_limits<std::int64_t>::max() ? std::string("more than 2^63")
                                                              : std::to_string(n)) +
               " nodes: more than 2^20");
    if (t.kind == Topology::Kind::CMesh && n * t.concentration > (1 << 20))
      fail(s.source(), s.at("concentration"), s.path("concentration"),
           product + " routers x " + std::to_string(t.concentration) +
               " terminals: more than 2^20 terminals");
  }
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
