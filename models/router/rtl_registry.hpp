// RTL routers (router.model: rtl): Verilated SystemVerilog routers that take the place of the C++
// staged input-VC router at every node, through an adapter at the flit/credit boundary. The models
// library knows only this list; a build with SWITCHYARD_COSIM links rtl/adapter/, which registers
// the routers of rtl/ as the program loads (one entry per Verilated parameter set).
#pragma once
#include <string>
#include <vector>

namespace sy {

struct Fabric;
class NetworkInterface;
class Router;

struct RtlRouterBuild {
  std::string name;           // router.rtl
  int vcs = 0, vc_depth = 0;  // the parameters it was Verilated with
  int max_credit_delay = 0;   // router.pipeline.credit_delay 1 .. this
  int max_side = 0;           // mesh sides up to this (its coordinate width)
  using Make = Router* (*)(const char* name, int node, Fabric& fabric,
                           NetworkInterface* const* nis);
  Make make = nullptr;
  // The same router Verilated with --trace (switchyard_add_rtl_router TRACE), for the routers
  // of waves.rtl_nodes: it dumps its insides into the VCD `vcd` (and a GTKWave save file beside
  // it), one sample per evaluated cycle at the network's cycle. Null: built without tracing.
  using MakeTraced = Router* (*)(const char* name, int node, Fabric& fabric,
                                 NetworkInterface* const* nis, const std::string& vcd);
  MakeTraced make_traced = nullptr;
  // It has the port contract's torus ports (torus_i, x_last_i, y_last_i, tie_break_i) and routes
  // 2-D tori with dateline VC classes; false: meshes only.
  bool tori = false;
  int classes = 1;  // router.priority_classes 1 .. this (its parameter PC)
};

void register_rtl_router(const RtlRouterBuild& b);
const std::vector<RtlRouterBuild>& rtl_router_builds();
// The build of `name` for these parameters, or null.
const RtlRouterBuild* find_rtl_router(const std::string& name, int vcs, int vc_depth);

}  // namespace sy
