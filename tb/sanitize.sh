#!/usr/bin/env bash
# The sanitizer suite: configures build-asan/ (clang++ when installed, else g++; RelWithDebInfo;
# SWITCHYARD_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer), builds everything and
# runs the fast suite (-LE long) under it. A sanitizer report fails its test: ASan aborts on its
# first error, UBSan is made to halt on its first (UBSAN_OPTIONS below), LeakSanitizer fails a
# process that leaks.
# Slow (about 100 times the cycle cost of a Release build): see docs/design.md, "Fuzzing and
# sanitizers", for its last result and time.
# (clang builds it far faster than g++ 12 here; CXX=g++ to use g++.) Built without MPI
# (SWITCHYARD_MPI=OFF): Open MPI's own allocations would be leak reports, and the suite then
# checks that a build without MPI refuses several processes (ranks.SeveralProcessesWithoutMpi...).
#   bash tb/sanitize.sh [ctest arguments...]        JOBS=N to change the parallelism (nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tb/deps.sh
jobs="${JOBS:-$(nproc)}"
start=$(date +%s)
cxx="${CXX:-$(command -v clang++ || echo g++)}"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  -DCMAKE_CXX_COMPILER="$cxx" -DSWITCHYARD_SANITIZE=ON \
  -DSWITCHYARD_RTL_TRACE=OFF -DSWITCHYARD_RTL_EXTRA_SETS=OFF -DSWITCHYARD_MPI=OFF >/dev/null
cmake --build build-asan -j "$jobs"
built=$(date +%s)
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The leak check does not scan thread stacks: SystemC runs its threads on coroutine stacks of
# its own, so at exit the main thread's recorded stack can be one SystemC has unmapped, and
# LeakSanitizer's tracer dies reading it ("Tracer caught signal 11") on some machines (seen on
# 2026-11-26 in every test with an SC_THREAD). Fewer roots can only report more leaks, not fewer.
export LSAN_OPTIONS="${LSAN_OPTIONS:-use_stacks=0}"
status=0
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE long "$@" || status=$?
end=$(date +%s)
echo "switchyard: sanitizer build $((built - start)) s, suite $((end - built)) s (exit $status)"
exit $status
