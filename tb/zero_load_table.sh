#!/usr/bin/env bash
# Prints a Markdown table: isolated messages on the cycle model beside the linear cost formula.
# Each row is one `switchyard run` of a one-message trace; the model column is its latency.mean.
set -euo pipefail
cd "$(dirname "$0")/.."
SY=${SWITCHYARD:-./build/switchyard}
echo "| topology | switching | buffering | α | δ | τ | L | src→dst | h | formula | model | command |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
row() {  # topo-yaml topo-label switching buffering a d t L src dst h
  local out=out/zero-load-row
  local cfg=out/zero-load-row.yaml
  mkdir -p out
  cat > "$cfg" <<YAML
topology: $1
router: {buffering: $4, switching: $3, vcs: 2, vc_depth: 16}
timing: {alpha: $5, delta: $6, tau: $7}
traffic: {type: trace, messages: [{time: 0, src: $9, dst: ${10}, flits: $8}]}
YAML
  "$SY" run "$cfg" --quiet --out "$out"
  local model
  model=$(sed -n '/"latency"/,/}/p' "$out/results.json" | sed -n 's/.*"mean": \([0-9.]*\).*/\1/p' | head -n 1)
  local f
  if [ "$3" = store_and_forward ]; then f=$(( $5 + ${11} * ($6 + $8 * $7) )); else f=$(( $5 + ${11} * $6 + $8 * $7 )); fi
  echo "| $2 | $3 | $4 | $5 | $6 | $7 | $8 | $9→${10} | ${11} | $f | $model | \`switchyard run\` of a 1-message trace |"
}
row "{type: torus, dims: [8, 8]}" "torus 8×8" wormhole input_vc 0 1 1 8 0 27 6
row "{type: torus, dims: [8, 8]}" "torus 8×8" wormhole input_vc 10 3 2 16 0 36 8
row "{type: torus, dims: [8, 8]}" "torus 8×8" virtual_cut_through input_vc 5 2 1 8 0 9 2
row "{type: torus, dims: [8, 8]}" "torus 8×8" store_and_forward input_vc 5 2 1 8 0 9 2
row "{type: mesh, dims: [4, 4]}" "mesh 4×4" wormhole input_vc 0 0 1 4 0 15 6
row "{type: mesh, dims: [4, 4]}" "mesh 4×4" store_and_forward output_queued 0 0 1 1 0 15 6
row "{type: hypercube, dim: 6}" "hypercube 2^6" wormhole output_queued 65 10 1 32 0 63 6
row "{type: hypercube, dim: 6}" "hypercube 2^6" store_and_forward output_queued 65 10 1 32 0 63 6
