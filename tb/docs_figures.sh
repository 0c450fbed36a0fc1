#!/usr/bin/env bash
# Regenerates every figure and table in docs/ from the model's output (one command):
#   bash tb/docs_figures.sh          (sections 1-2 of docs/validation.md; about 2 minutes)
# Every figure and table of docs/: tb/docs_all.sh. SWITCHYARD=path uses that binary (skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
export SWITCHYARD=${SWITCHYARD:-}
SY=${SWITCHYARD:-./build/switchyard}
[ -n "$SWITCHYARD" ] || bash tb/build.sh
mkdir -p docs/figures
# Latency-throughput of the quick-start router (8x8 torus, wormhole, 2 VCs x 4 flits, L = 8).
# (The ideal pipeline: the quick start's router is the staged one; this compares buffers.)
"$SY" sweep configs/quickstart.yaml --set router.pipeline=ideal --param traffic.rate \
  --values 0.05,0.1,0.15,0.2,0.25,0.28,0.3,0.32,0.35,0.4 --out out/docs-quickstart-sweep >/dev/null
cp out/docs-quickstart-sweep/sweep.csv docs/figures/quickstart_sweep.csv
/usr/bin/python3 tb/plot_sweep.py docs/figures/quickstart_sweep.csv --out docs/figures/quickstart_sweep.png \
  --title "8x8 torus, wormhole, 2 VCs x 4 flits, 8-flit packets, uniform"
# Same load range, ideal output-queued routers (the papers' model) for comparison.
"$SY" sweep configs/quickstart.yaml --param traffic.rate \
  --set router.pipeline=ideal --set router.buffering=output_queued \
  --values 0.05,0.1,0.15,0.2,0.25,0.28,0.3,0.32,0.35,0.4,0.5,0.6,0.7,0.8,0.9,0.95 \
  --out out/docs-quickstart-oq >/dev/null
cp out/docs-quickstart-oq/sweep.csv docs/figures/quickstart_oq_sweep.csv
/usr/bin/python3 tb/plot_sweep.py docs/figures/quickstart_oq_sweep.csv --out docs/figures/quickstart_oq_sweep.png \
  --title "8x8 torus, ideal output-queued routers, 8-flit packets, uniform"
# Table: the two buffer models side by side at each offered load.
/usr/bin/python3 - <<'PY' > docs/figures/buffering_comparison.md
import csv, sys
sys.path.insert(0, "tb")
from sy_sweep import read_sweep
def load(p):
    return {r["value"]: r for r in read_sweep(p)}
vc = load("docs/figures/quickstart_sweep.csv")
oq = load("docs/figures/quickstart_oq_sweep.csv")
print("| offered (flits/node/cycle) | rho | input_vc latency | input_vc accepted | input_vc stable | output_queued latency | output_queued accepted | output_queued stable |")
print("|---|---|---|---|---|---|---|---|")
for v in sorted(set(vc) | set(oq), key=float):
    a, b = vc.get(v), oq.get(v)
    cell = lambda r, k, f: (f % float(r[k])) if r else "–"
    ref = a or b
    print(f"| {v} | {float(ref['rho']):.3f} | {cell(a,'latency_mean','%.1f')} | {cell(a,'accepted','%.4f')} | {a['stable'] if a else '–'} | {cell(b,'latency_mean','%.1f')} | {cell(b,'accepted','%.4f')} | {b['stable'] if b else '–'} |")
PY
# Link-utilization heatmap (user guide): transpose traffic on the quick-start router as an 8x8
# mesh; the links leaving each node in dimension 0, direction +.
"$SY" run configs/quickstart.yaml --set topology.type=mesh \
  --set traffic.pattern=transpose --set traffic.rate=0.1 --out out/docs-links-transpose --quiet
/usr/bin/python3 tb/plot_links.py out/docs-links-transpose/results.json \
  --out-dir out/docs-links-transpose >/dev/null
cp out/docs-links-transpose/links_d0_plus.png docs/figures/links_mesh_transpose_d0_plus.png
# Zero-load table of docs/validation.md.
SWITCHYARD="$SY" bash tb/zero_load_table.sh > docs/figures/zero_load_table.md
SWITCHYARD="$SY" bash tb/ideal_node_table.sh > docs/figures/ideal_node.md
echo "docs figures regenerated under docs/figures/"
