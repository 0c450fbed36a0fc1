#!/usr/bin/env bash
# Regenerates docs/figures/routing_*: latency against offered load for the routing algorithms on
# the realistic router (input-VC wormhole, 4 VCs x 4 flits, 8-flit packets, delta = 1),
#   bash tb/routing_figures.sh        (about 5 minutes on 2 cores)
# on the 8x8 torus (dimension order, minimal adaptive, Valiant, ROMM, UGAL; uniform and tornado)
# and the 8x8 mesh (dimension order, minimal adaptive, west-first, north-last, negative-first,
# odd-even; uniform and transpose). Saturation = the highest offered load whose run is stable.
# SWITCHYARD=path uses that binary (and skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out/routing
cat > out/routing/base.yaml <<'YAML'
name: routing
topology: {type: torus, dims: [8, 8]}
router: {buffering: input_vc, switching: wormhole, vcs: 4, vc_depth: 4}
timing: {alpha: 0, delta: 1, tau: 1}
traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}
simulation: {warmup: 3000, measure: 15000, seed: 1}
YAML
RATES=0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5,0.55,0.6
run() {  # topology pattern algorithm
  "$SY" sweep out/routing/base.yaml --param traffic.rate --values $RATES --jobs 2 \
    --set "topology.type=$1" --set "traffic.pattern=$2" --set "routing.algorithm=$3" \
    --out "out/routing/$1-$2-$3" >/dev/null
}
for p in uniform tornado; do
  for a in dimension_order minimal_adaptive valiant romm ugal; do run torus $p $a; done
done
for p in uniform transpose; do
  for a in dimension_order minimal_adaptive west_first north_last negative_first odd_even; do
    run mesh $p $a
  done
done
/usr/bin/python3 - <<'PY'
import csv, glob, os, sys
sys.path.insert(0, "tb")
from sy_sweep import read_sweep
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
panels = [("torus", "uniform"), ("torus", "tornado"), ("mesh", "uniform"), ("mesh", "transpose")]
fig, axes = plt.subplots(2, 2, figsize=(12, 8))
table = ["### Routing algorithms on the realistic router: saturation throughput\n",
         "Command: `bash tb/routing_figures.sh`. Cycle model, realistic mode: input-VC wormhole "
         "routers, 4 VCs x 4 flits, 8-flit packets, delta = 1, tau = 1, Bernoulli sources, "
         "8x8. Saturation: the highest offered load (step 0.05) whose run is stable; zero-load: "
         "the mean latency at 0.05.\n",
         "| network | pattern | algorithm | saturation (flits/node/cycle) | latency at 0.05 (cycles) |",
         "|---|---|---|---|---|"]
for ax, (topo, pat) in zip(axes.flat, panels):
    for d in sorted(glob.glob(f"out/routing/{topo}-{pat}-*")):
        alg = d.split(f"{topo}-{pat}-", 1)[1]
        rows = read_sweep(f"{d}/sweep.csv")
        rows.sort(key=lambda r: float(r["offered"]))
        st = [r for r in rows if r["stable"] == "true"]
        if st:
            ax.plot([float(r["offered"]) for r in st], [float(r["latency_mean"]) for r in st],
                    "o-", ms=3, label=alg)
        sat = max((float(r["value"]) for r in st), default=0.0)
        low = [r for r in rows if abs(float(r["value"]) - 0.05) < 1e-9]
        z = f"{float(low[0]['latency_mean']):.2f}" if low and low[0]["stable"] == "true" else "-"
        table.append(f"| 8x8 {topo} | {pat} | {alg} | {sat:.2f} | {z} |")
    ax.set_title(f"8x8 {topo}, {pat}")
    ax.set_xlabel("offered load (flits/node/cycle)")
    ax.set_ylabel("mean latency (cycles)")
    ax.set_ylim(0, 150)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
fig.suptitle("Routing algorithms on the cycle model (realistic mode; stable runs only)", fontsize=10)
fig.tight_layout()
fig.savefig("docs/figures/routing_latency.png", dpi=110)
open("docs/figures/routing_saturation.md", "w").write("\n".join(table) + "\n")
PY
echo "-> docs/figures/routing_latency.png, docs/figures/routing_saturation.md"
