#!/usr/bin/env bash
# Configures and builds Switchyard into build/ (Release unless BUILD_TYPE is set).
# DEPS=run installs only the program's packages; TARGET=switchyard builds only the program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tb/deps.sh ${DEPS:-}
cmake -S . -B build -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" ${CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$(nproc)" ${TARGET:+--target "$TARGET"}
