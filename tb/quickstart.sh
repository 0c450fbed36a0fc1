#!/usr/bin/env bash
# Quick start: install what is missing, build, run configs/quickstart.yaml into out/quickstart.
# Only what the run needs: the program's packages and the program (no tests, no co-simulation;
# tb/test.sh builds those in the same build/).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS=run TARGET=switchyard \
  CMAKE_ARGS="-DSWITCHYARD_TESTS=OFF -DSWITCHYARD_COSIM=OFF ${CMAKE_ARGS:-}" bash tb/build.sh
./build/switchyard run configs/quickstart.yaml --out out/quickstart "$@"
