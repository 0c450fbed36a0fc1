#!/usr/bin/env bash
# Regenerates the dynamic-broadcasting figures and tables (docs/figures/pmnb_*) from the model:
#   bash tb/pmnb_figures.sh          (about 35 minutes on 2 cores)
# Varvarigos & Bertsekas on the cycle model (ideal mode: output-queued store-and-forward
# all-port hypercube nodes, alpha = delta = 0, tau = 1, packets of d flits so that algorithm II's
# mini-packets are one flit; configs/papers/pmnb/dynamic_*.yaml):
#  - pmnb_delay.png / pmnb_delay.csv: delay (arrival to the end of the packet's period) against
#    rho for d = 6, 8, 10 (algorithm II at d = 6, 8: its d-fold mini-packet messages make d = 10
#    slow), the model's points with their 95% intervals beside the theorem's T;
#  - pmnb_stability.md: stable just below the theorem's limit, flagged unstable just above;
#  - pmnb_vs_star.md / pmnb_vs_star.png: delay to the last reception against d at fixed rho for
#    PMNB III (theorem and exact periods), II, priority STAR, FCFS direct and indirect;
# then the static table (tb/pmnb_table.sh), the heavy-load table (tb/pmnb_heavy_load.sh) and the
# long windows at the points where those windows leave the model below the theorem
# (tb/pmnb_long_windows.sh, about 20 minutes more).
# SWITCHYARD=path uses that binary (skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out/pmnb-fig
/usr/bin/python3 tb/plot_pmnb.py
SWITCHYARD="$SY" bash tb/pmnb_table.sh
SWITCHYARD="$SY" bash tb/pmnb_heavy_load.sh
SWITCHYARD="$SY" bash tb/pmnb_long_windows.sh
# The theorem's bound from the delay runs just written (no new runs).
/usr/bin/python3 tb/pmnb_theorem_bound.py > docs/figures/pmnb_theorem_bound.md
echo "-> docs/figures/pmnb_theorem_bound.md"
