// The Verilated builds of rtl/router/sy_vc_router.sv that router.model: rtl can use (one per
// parameter set; tb/cosim/CMakeLists.txt verilates them), registered as the program loads.
#include "Vsy_vc_router_v2d4.h"
#include "switchyard/router/rtl_registry.hpp"
#include "verilated_router.hpp"

namespace sy::rtl {
namespace {

template <class M>
Router* make(const char* name, int node, Fabric& fabric, NetworkInterface* const* nis) {
  return new VerilatedMeshRouter<M>(name, node, fabric, nis);
}

const bool registered = [] {
  // (max_credit_delay: the RTL's MAX_CREDIT_DELAY; max_side: 2^CW with CW = 4.)
  register_rtl_router({"sy_vc_router", 2, 4, 4, 16, &make<Vsy_vc_router_v2d4>});
  return true;
}();

}  // namespace
}  // namespace sy::rtl
