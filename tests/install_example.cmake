# The installed library end to end (a CTest test): install the build into a temporary prefix,
# configure examples/library against it with find_package(Switchyard), build, run both
# programs (a torus run; cores and a memory over TLM-2.0 through sy::MemoryBridge).
#   cmake -DBIN=<build dir> -DSRC=<source dir> -DTMP=<scratch dir> [-DCXX=<compiler>]
#         -P install_example.cmake
file(REMOVE_RECURSE ${TMP})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BIN} --prefix ${TMP}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed (${rc})")
endif()
foreach(f lib/cmake/Switchyard/SwitchyardConfig.cmake lib/pkgconfig/switchyard.pc
          include/switchyard/sim/simulation.hpp bin/switchyard)
  file(GLOB found ${TMP}/prefix/${f} ${TMP}/prefix/lib/*/${f} ${TMP}/prefix/lib*/${f})
  if(NOT EXISTS ${TMP}/prefix/${f} AND NOT found)
    string(REPLACE "lib/" "lib/x86_64-linux-gnu/" alt ${f})
    if(NOT EXISTS ${TMP}/prefix/${alt})
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endif()
endforeach()
# The example is built by the compiler that built the library (a sanitized or clang-built static
# library needs its own compiler's runtimes).
set(compiler)
if(CXX)
  set(compiler -DCMAKE_CXX_COMPILER=${CXX})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/examples/library -B ${TMP}/build
                        -DCMAKE_PREFIX_PATH=${TMP}/prefix -DCMAKE_BUILD_TYPE=Release ${compiler}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed: ${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${TMP}/build -j2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build failed: ${out}${err}")
endif()
execute_process(COMMAND ${TMP}/build/run_torus RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "stable true")
  message(FATAL_ERROR "run failed (${rc}): ${out}${err}")
endif()
# (No SystemC banner from a program of the user's that links the library: issue 33.)
if(out MATCHES "Copyright" OR err MATCHES "Copyright")
  message(FATAL_ERROR "the SystemC banner was printed: ${out}${err}")
endif()
message(STATUS "${out}")
execute_process(COMMAND ${TMP}/build/core_memory RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "data ok")
  message(FATAL_ERROR "core_memory failed (${rc}): ${out}${err}")
endif()
if(out MATCHES "Copyright" OR err MATCHES "Copyright")
  message(FATAL_ERROR "the SystemC banner was printed: ${out}${err}")
endif()
message(STATUS "${out}")

# pkg-config from this non-default prefix (the .pc file finds its prefix from where it lies): the
# torus example built and run with nothing but its flags.
file(GLOB_RECURSE pcs ${TMP}/prefix/*/switchyard.pc)
list(GET pcs 0 pc)
get_filename_component(pcdir ${pc} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pcdir}")
execute_process(COMMAND pkg-config --cflags --libs switchyard RESULT_VARIABLE rc
                OUTPUT_VARIABLE flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR NOT flags MATCHES "${TMP}/prefix")
  message(FATAL_ERROR "pkg-config switchyard (${rc}): '${flags}' ${err}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
set(cxx g++)
if(CXX)
  set(cxx ${CXX})
endif()
execute_process(COMMAND ${cxx} ${SRC}/examples/library/main.cpp -o ${TMP}/run_torus_pc ${flags}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build with pkg-config flags failed: ${flags}\n${out}${err}")
endif()
execute_process(COMMAND ${TMP}/run_torus_pc RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "stable true")
  message(FATAL_ERROR "the pkg-config build failed to run (${rc}): ${out}${err}")
endif()
message(STATUS "pkg-config: ${out}")
