#!/usr/bin/env bash
# Prints a Markdown table: the papers' ideal all-port node against the default serial NI, on the
# model. 2^6 hypercube (and 2^8 at p = 0.1), output-queued, store-and-forward, unit packets (one
# packet time = 1 cycle), Poisson arrivals of rho/p packets per node per cycle, bit_flip
# destinations; the greedy-routing paper's bounds (Stamoulis & Tsitsiklis) printed beside.
#   bash tb/ideal_node_table.sh > docs/figures/ideal_node.md      (called by tb/docs_figures.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
SY=${SWITCHYARD:-./build/switchyard}
mkdir -p out
echo "| d | p | ρ | injection | traffic.self | model T (packet times) | ±95% | lower dp + pρ/(2(1−ρ)) | upper dp/(1−ρ) | zero-hop packets | stable |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
row() {  # d p rho injection self measure
  local d=$1 p=$2 rho=$3 inj=$4 self=$5 measure=$6
  local cfg=out/ideal-node-row.yaml out=out/ideal-node-row
  cat > "$cfg" <<YAML
topology: {type: hypercube, dim: $d}
router: {buffering: output_queued, switching: store_and_forward}
network_interface: {injection: $inj}
timing: {alpha: 0, delta: 0, tau: 1}
traffic: {process: poisson, rate_unit: packets, packet_flits: 1, pattern: bit_flip,
          bit_flip_probability: $p, rate: $(python3 -c "print($rho / $p)"), self: $self}
simulation: {warmup: $((measure / 10)), measure: $measure, seed: 1}
YAML
  rm -f "$out/results.json"
  "$SY" run "$cfg" --quiet --out "$out" || [ $? -eq 3 ]  # 3: not stable, still written
  python3 - "$out/results.json" "$d" "$p" "$rho" "$inj" "$self" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); d, p, rho = map(float, sys.argv[2:5])
lo, hi = d * p + p * rho / (2 * (1 - rho)), d * p / (1 - rho)
L = r["latency"]
print(f"| {int(d)} | {p:g} | {rho:g} | {sys.argv[5]} | {sys.argv[6]} | {L['mean']:.3f} | {L['ci95']:.3f} "
      f"| {lo:.3f} | {hi:.3f} | {r['packets']['zero_hop']} | {str(r['stable']).lower()} |")
PY
}
for inj in serial all_port; do
  for rho in 0.45 0.6 0.9; do row 6 0.5 $rho $inj through_router 100000; done
done
row 6 0.5 0.45 all_port deliver_locally 100000
row 8 0.1 0.5 all_port through_router 10000
row 8 0.1 0.5 all_port deliver_locally 10000
