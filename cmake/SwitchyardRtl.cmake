# switchyard_add_rtl_router(): Verilates a designer's router that follows the port contract of
# rtl/README.md ("The router's port contract") and registers it for router.model: rtl, so that
# `router.rtl: <name>` selects it in a config (at every router, or at router.rtl_nodes).
#
#   switchyard_add_rtl_router(<name>
#     SOURCES <file.sv>...       the router's SystemVerilog: its top and every module it uses
#     [TOP <module>]             the top module (default: <name>)
#     [PARAMS <P>=<value>...]    parameter overrides (Verilator -G), e.g. V=2 DEPTH=4
#     [VERILATOR_ARGS <arg>...]  more Verilator arguments
#     [NO_ASSERT]                without --assert (the SystemVerilog assertions compiled out)
#     [NO_LINT_TEST]             no CTest cosim.lint.rtl_<name>_v<V>d<DEPTH>
#     [TRACE]                    also Verilate it with --trace (a second model,
#                                V<name>_v<V>d<DEPTH>_trace), used only at the routers of
#                                waves.rtl_nodes: their insides go to rtl_<node>.vcd. The routers
#                                not traced keep the model without trace code (tracing off costs
#                                nothing); the price is a second Verilation and compile.
#     [OPT <-O level>]           the C++ optimization of the Verilated code (default -O2; the
#                                RTL mutants of tb/cosim take -O1, which compiles sooner)
#     [TARGET <library>])        the object library it goes into (default sy_rtl_routers, which
#                                the simulator and the tests link; the RTL mutants go into
#                                sy_rtl_mutants)
#
# What the registry learns comes from PARAMS, with the contract's defaults: V (VCs per port, 2)
# and DEPTH (flits per VC, 4) are the router.vcs and router.vc_depth a config must ask for;
# MAX_CREDIT_DELAY (4) bounds router.pipeline.credit_delay; CW (coordinate bits, 4) bounds the
# mesh side to 2^CW; PC (priority classes, 1) bounds router.priority_classes (1..8: the adapter
# puts a header's class in its bits 2CW.., the top reads [2CW + $clog2(PC) - 1 : 2CW]). The adapter (rtl/adapter/verilated_router.hpp) packs a flit into 64 bits and
# takes flits from sw_* one cycle before out_*: FLIT_W must be 64 and OUT_STAGES 2 (their
# defaults in the top, or given here). Several parameter sets of one router: one call each (the
# Verilated class is V<name>_v<V>d<DEPTH>, so each needs its own V or DEPTH).
#
# Unless NO_LINT_TEST, a CTest cosim.lint.rtl_<name>_v<V>d<DEPTH> runs
# `verilator --lint-only -Wall` on the same sources and parameters (any warning fails).
function(switchyard_add_rtl_router name)
  cmake_parse_arguments(PARSE_ARGV 1 A "NO_ASSERT;NO_LINT_TEST;TRACE" "TOP;TARGET;OPT"
                        "SOURCES;PARAMS;VERILATOR_ARGS")
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): unknown arguments "
                        "${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): the name is a C identifier "
                        "(letters, digits, _), as router.rtl writes it")
  endif()
  if(NOT A_SOURCES)
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): no SOURCES")
  endif()
  if(NOT A_TOP)
    set(A_TOP ${name})
  endif()
  if(NOT A_TARGET)
    set(A_TARGET sy_rtl_routers)
  endif()
  if(NOT A_OPT)
    set(A_OPT -O2)
  endif()
  if(NOT TARGET ${A_TARGET})
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): no target ${A_TARGET} (the RTL "
                        "routers' object library: configure with -DSWITCHYARD_COSIM=ON)")
  endif()
  # The parameters: -G overrides, and what the registry and the adapter need to know.
  set(v 2)
  set(depth 4)
  set(max_credit_delay 4)
  set(cw 4)
  set(pc 1)
  set(gargs "")
  foreach(p IN LISTS A_PARAMS)
    if(NOT p MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
      message(FATAL_ERROR "switchyard_add_rtl_router(${name}): PARAMS takes NAME=VALUE, not '${p}'")
    endif()
    set(key ${CMAKE_MATCH_1})
    set(value ${CMAKE_MATCH_2})
    list(APPEND gargs -G${key}=${value})
    if(key STREQUAL "V")
      set(v ${value})
    elseif(key STREQUAL "DEPTH")
      set(depth ${value})
    elseif(key STREQUAL "MAX_CREDIT_DELAY")
      set(max_credit_delay ${value})
    elseif(key STREQUAL "CW")
      set(cw ${value})
    elseif(key STREQUAL "PC")
      set(pc ${value})
    elseif(key STREQUAL "FLIT_W" AND NOT value STREQUAL "64")
      message(FATAL_ERROR "switchyard_add_rtl_router(${name}): the adapter needs FLIT_W=64")
    elseif(key STREQUAL "OUT_STAGES" AND NOT value STREQUAL "2")
      message(FATAL_ERROR "switchyard_add_rtl_router(${name}): the adapter needs OUT_STAGES=2 "
                          "(sw_* one cycle before out_*: rtl/README.md)")
    endif()
  endforeach()
  foreach(n IN ITEMS v depth max_credit_delay cw pc)
    if(NOT ${n} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "switchyard_add_rtl_router(${name}): ${n} '${${n}}' is not a number")
    endif()
  endforeach()
  if(pc LESS 1 OR pc GREATER 8)
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): PC (priority classes) is 1..8, as "
                        "router.priority_classes")
  endif()
  if(cw GREATER 8)
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): the adapter drives CW <= 8")
  endif()
  math(EXPR max_side "1 << ${cw}")
  set(prefix V${name}_v${v}d${depth})
  get_property(used GLOBAL PROPERTY SWITCHYARD_RTL_PREFIXES)
  if(prefix IN_LIST used)
    message(FATAL_ERROR "switchyard_add_rtl_router(${name}): ${name} with V=${v} DEPTH=${depth} "
                        "is already added")
  endif()
  set_property(GLOBAL APPEND PROPERTY SWITCHYARD_RTL_PREFIXES ${prefix})

  # The registration, generated: one entry for the registry as the program loads.
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/rtl_routers/${prefix})
  set(traced_include "")
  set(traced_make "")
  set(traced_make_ptr nullptr)
  if(A_TRACE)
    set(traced_include "#include \"${prefix}_trace.h\"\n")
    set(traced_make
"sy::Router* make_traced(const char* n, int node, sy::Fabric& f, sy::NetworkInterface* const* nis,
                        const std::string& vcd) {
  return new sy::rtl::VerilatedMeshRouter<${prefix}_trace, 64, ${cw}, 2, true>(n, node, f, nis,
                                                                               vcd);
}
")
    set(traced_make_ptr "&make_traced")
  endif()
  file(WRITE ${dir}/register.cpp.tmp
"// GENERATED by switchyard_add_rtl_router(${name}) (cmake/SwitchyardRtl.cmake): registers the
// Verilated ${A_TOP} (V=${v}, DEPTH=${depth}) as router.rtl: ${name}.
#include \"${prefix}.h\"
${traced_include}#include \"switchyard/router/rtl_registry.hpp\"
#include \"verilated_router.hpp\"

namespace {
sy::Router* make(const char* n, int node, sy::Fabric& f, sy::NetworkInterface* const* nis) {
  return new sy::rtl::VerilatedMeshRouter<${prefix}, 64, ${cw}>(n, node, f, nis);
}
${traced_make}const bool registered = [] {
  sy::register_rtl_router(
      {\"${name}\", ${v}, ${depth}, ${max_credit_delay}, ${max_side}, &make, ${traced_make_ptr},
       sy::rtl::has_torus_ports<${prefix}>::value, ${pc}});
  return true;
}();
}  // namespace
")
  configure_file(${dir}/register.cpp.tmp ${dir}/register.cpp COPYONLY)
  target_sources(${A_TARGET} PRIVATE ${dir}/register.cpp)

  set(assert --assert)
  if(A_NO_ASSERT)
    set(assert "")
  endif()
  # (The Verilated code gets the flags Verilator recommends for its own code, VERILATOR_CFLAGS,
  # so that our -Wall -Wextra report nothing from code we do not write; the start-up code
  # (*_Slow) is not worth optimizing.)
  verilate(${A_TARGET}
    PREFIX ${prefix}
    TOP_MODULE ${A_TOP}
    SOURCES ${A_SOURCES}
    VERILATOR_ARGS -Wall ${assert} ${gargs} -O3 --x-assign fast --x-initial fast
                   ${A_VERILATOR_ARGS}
    OPT_SLOW ${VERILATOR_CFLAGS} -O0
    OPT_FAST ${VERILATOR_CFLAGS} ${A_OPT}
    OPT_GLOBAL ${VERILATOR_CFLAGS} ${A_OPT})
  if(A_TRACE)
    # (The traced copy runs only at the routers of waves.rtl_nodes: its fast code at -O1, which
    # compiles sooner.)
    verilate(${A_TARGET} TRACE
      PREFIX ${prefix}_trace
      TOP_MODULE ${A_TOP}
      SOURCES ${A_SOURCES}
      VERILATOR_ARGS -Wall ${assert} ${gargs} -O3 --x-assign fast --x-initial fast
                     ${A_VERILATOR_ARGS}
      OPT_SLOW ${VERILATOR_CFLAGS} -O0
      OPT_FAST ${VERILATOR_CFLAGS} -O1
      OPT_GLOBAL ${VERILATOR_CFLAGS} -O2)
  endif()

  if(NOT A_NO_LINT_TEST)
    find_program(SY_VERILATOR_LINT verilator REQUIRED)
    add_test(NAME cosim.lint.rtl_${name}_v${v}d${depth}
             COMMAND ${SY_VERILATOR_LINT} --lint-only -Wall ${assert} ${gargs} --top-module
                     ${A_TOP} ${A_SOURCES})
    set_tests_properties(cosim.lint.rtl_${name}_v${v}d${depth} PROPERTIES
                         FAIL_REGULAR_EXPRESSION "%Warning|%Error" TIMEOUT 60)
  endif()
endfunction()
