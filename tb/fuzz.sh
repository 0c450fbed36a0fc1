#!/usr/bin/env bash
# Fuzzes the config and trace readers with libFuzzer (tests/fuzz/fuzz_config.cpp) for MINUTES
# (default 10) in one process: configures build-fuzz/ with clang (SWITCHYARD_FUZZ=ON: ASan +
# UBSan + coverage), builds switchyard_fuzz and runs it on a working corpus seeded from
# tests/fuzz/corpus. New inputs go to build-fuzz/corpus/, crashes, timeouts and leaks to
# build-fuzz/crashes/ (see docs/design.md, "Fuzzing and sanitizers", to add one to the corpus).
#   bash tb/fuzz.sh [MINUTES] [extra libFuzzer flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-10}"
shift || true
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "switchyard: libFuzzer not found: apt-get install clang libclang-rt-14-dev (or clang-14)" >&2
  exit 1
fi
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DSWITCHYARD_FUZZ=ON -DSWITCHYARD_TESTS=OFF -DSWITCHYARD_COSIM=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target switchyard_fuzz switchyard_fuzz_replay
mkdir -p build-fuzz/corpus build-fuzz/crashes
exec build-fuzz/switchyard_fuzz -max_total_time=$((minutes * 60)) -timeout=10 -rss_limit_mb=3072 \
  -max_len=8192 -print_final_stats=1 -dict=tests/fuzz/config.dict \
  -artifact_prefix=build-fuzz/crashes/ "$@" build-fuzz/corpus tests/fuzz/corpus
