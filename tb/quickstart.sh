#!/usr/bin/env bash
# Quick start: install what is missing, build, run configs/quickstart.yaml into out/quickstart.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tb/build.sh
./build/switchyard run configs/quickstart.yaml --out out/quickstart "$@"
