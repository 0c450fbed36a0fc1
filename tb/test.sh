#!/usr/bin/env bash
# Whole test suite: install what is missing, build, run every fast test through CTest.
# Long soak/validation tests carry the label "long": run them with  ctest --test-dir build -L long
set -euo pipefail
cd "$(dirname "$0")/.."
CMAKE_ARGS="-DSWITCHYARD_TESTS=ON -DSWITCHYARD_COSIM=ON ${CMAKE_ARGS:-}" bash tb/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE long "$@"
