#!/usr/bin/env bash
# Checks that docs/figures is what the model gives today (issue 33, point 10):
#   bash tb/docs_check.sh               (as long as tb/docs_all.sh: about 35 minutes on 2 shared cores)
# Copies the working tree's files (tracked and untracked, not the ignored ones) into a scratch
# folder, empties its docs/figures there (the BookSim2 comparison's files stay: they need a
# BookSim2 build; so do the example RTL router's, tb/rtl_example_figures.sh: it needs a build
# with -DSWITCHYARD_COSIM=ON and is not part of tb/docs_all.sh), runs tb/docs_all.sh in it with
# this checkout's binary, and compares every number of every regenerated CSV and markdown table
# with the committed one (tb/docs_compare.py: exact, wall-clock fields and images left out).
# docs/figures here is not touched. Prints each difference (file, row, column, committed ->
# regenerated) and exits 1 if there is one.
#   SWITCHYARD=path       the binary (default: build/switchyard, built if missing)
#   DOCS_CHECK_DIR=dir    the scratch folder (default: a new mktemp folder, removed on success)
#   DOCS_CHECK_REUSE=1    compare the figures already regenerated in DOCS_CHECK_DIR, run nothing
#   DOCS_ONLY="a b"       regenerate and compare only what those scripts of tb/docs_all.sh write
# CTest: docs.FiguresCurrent (label long).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
if [ -z "${SWITCHYARD:-}" ]; then
  [ -x build/switchyard ] || TARGET=switchyard bash tb/build.sh
  SWITCHYARD=$ROOT/build/switchyard
fi
SWITCHYARD=$(cd "$(dirname "$SWITCHYARD")" && pwd)/$(basename "$SWITCHYARD")
export SWITCHYARD
if [ -n "${DOCS_CHECK_DIR:-}" ]; then
  SCRATCH=$DOCS_CHECK_DIR
  KEEP=1
else
  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/sy-docs-check.XXXXXX")
  KEEP=0
fi
if [ "${DOCS_CHECK_REUSE:-0}" != 1 ]; then
  mkdir -p "$SCRATCH"
  git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$SCRATCH"
  find "$SCRATCH/docs/figures" -maxdepth 1 -type f ! -name 'booksim_*' ! -name 'rtl_example_*' \
    -delete
  echo "docs_check: regenerating into $SCRATCH (log: $SCRATCH/docs_all.log)"
  if ! bash "$SCRATCH/tb/docs_all.sh" >"$SCRATCH/docs_all.log" 2>&1; then
    tail -n 30 "$SCRATCH/docs_all.log"
    echo "docs_check: tb/docs_all.sh failed (scratch kept: $SCRATCH)"
    exit 1
  fi
  grep '^== \|^docs_all' "$SCRATCH/docs_all.log" | grep ' s$' || true
fi
if python3 tb/docs_compare.py docs/figures "$SCRATCH/docs/figures" ${DOCS_ONLY:+--only-regenerated}; then
  echo "docs_check: docs/figures matches the model"
  [ "$KEEP" = 1 ] || rm -rf "$SCRATCH"
else
  echo "docs_check: docs/figures differs from the model (regenerated copy: $SCRATCH/docs/figures;"
  echo "regenerate with bash tb/docs_all.sh and commit)"
  exit 1
fi
