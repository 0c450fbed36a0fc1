#!/usr/bin/env bash
# Regenerates every figure and table in docs/figures from the model, one script after another:
#   bash tb/docs_all.sh                 (about 65 minutes on 2 shared cores; see docs/validation.md)
# Builds the program once (tb/build.sh) unless SWITCHYARD=path names the binary to use. Prints
# each script's wall time. DOCS_ONLY="star_figures greedy_figures" runs only those scripts (the
# quick way to redo one section; tb/pmnb_figures.sh alone takes about half of the total).
# Left out: the BookSim2 comparisons (tb/peers/booksim_compare.sh, booksim_traffic_knobs.py,
# booksim_topologies.sh and the knob tables: they need a BookSim2 build; docs/figures/booksim_*).
# tb/docs_check.sh runs this in a scratch copy and compares the numbers with the committed ones.
set -euo pipefail
cd "$(dirname "$0")/.."
ALL="docs_figures routing_figures star_figures circuit_table greedy_figures idling_table exchange_table
exchange_figures pmnb_figures energy_figures paper_checks"
SCRIPTS=${DOCS_ONLY:-$ALL}
for s in $SCRIPTS; do
  [ -f "tb/$s.sh" ] && [[ " $(echo $ALL) " == *" $s "* ]] || { echo "docs_all: no figure script $s (one of: $(echo $ALL))" >&2; exit 1; }
done
if [ -z "${SWITCHYARD:-}" ]; then
  TARGET=switchyard bash tb/build.sh
  SWITCHYARD=$(pwd)/build/switchyard
fi
export SWITCHYARD
t_all=$(date +%s)
for s in $SCRIPTS; do
  t=$(date +%s)
  echo "== tb/$s.sh"
  bash "tb/$s.sh"
  echo "== tb/$s.sh: $(($(date +%s) - t)) s"
done
echo "docs_all: $(echo $SCRIPTS | wc -w) scripts, figures and tables regenerated in $(($(date +%s) - t_all)) s"
