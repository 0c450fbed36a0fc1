#!/usr/bin/env bash
# Regenerates docs/figures/paper_checks.md (runs for the papers' claims that docs/validation.md
# section 4 had left "not checked": tb/paper_checks.py, about 30 minutes on 2 cores shared by
# five sessions, 10 minutes of CPU, most of it the butterfly's 220,000-cycle heavy-traffic runs
# and the 256-node STAR runs; the sections lemmas, star33 and pmnb8 add about 25 minutes of CPU,
# most of it S33's 16x16 and 8x8x8 STAR runs near rho 1 and P8's 1,024-node PMNB runs, and
# pmnb_order about 2.5 minutes, 600 static PMNB runs up to 2^14 nodes) and then
# docs/figures/papers_side_by_side.md (every figure and table of the five papers beside the
# model, read from the committed figures: tb/papers_side_by_side.py, no runs):
#   bash tb/paper_checks.sh              (SECTIONS="circuit star" for some sections only)
# SWITCHYARD=path uses that binary (and skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
export SWITCHYARD=${SWITCHYARD:-}
if [ -z "$SWITCHYARD" ]; then
  TARGET=switchyard bash tb/build.sh
  SWITCHYARD=$(pwd)/build/switchyard
fi
# shellcheck disable=SC2086
/usr/bin/python3 tb/paper_checks.py ${SECTIONS:-}
/usr/bin/python3 tb/papers_side_by_side.py
