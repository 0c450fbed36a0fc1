#!/usr/bin/env bash
# Instructions per simulated cycle and per flit-hop, by callgrind (deterministic: independent of
# the machine's load), for the bench's torus configs:
#   bash tb/callgrind.sh            (about 6 minutes; needs valgrind)
#   bash tb/callgrind.sh 8x8 8x8-staged   (only the rows named)
# Each config runs twice, with measurement windows of W and 2W cycles; the difference of the two
# instruction counts over W cycles is the marginal cost of a simulated cycle (start-up, warmup
# and drain cancel out), divided by the flit-hops of those W cycles it is the cost of a flit-hop.
# SWITCHYARD=path uses that binary (and skips the build). The 8x8-staged row is the same network
# with the staged pipeline of one-cycle stages (router.pipeline {rc, va, sa, st, lt: 1}).
# The last column is the branches valgrind's simple predictor model mispredicts a simulated cycle
# (conditional and indirect, marginal like the instructions): on the small networks it, not the
# instruction count, is what time has followed since round 16 (docs/design.md, "Speed habits").
# It is a model's count, to compare two builds, not a measure of any one CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
mkdir -p out/callgrind
rows=("$@")
measure() {  # name dims window [pipeline]
  local name=$1 dims=$2 w=$3 pipe=${4:-}
  if [ ${#rows[@]} -gt 0 ] && [[ " ${rows[*]} " != *" $name "* ]]; then return 0; fi
  cat > "out/callgrind/$name.yaml" <<YAML
name: cg-$name
topology: {type: torus, dims: $dims}
router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4${pipe:+, pipeline: $pipe}}
traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}
simulation: {warmup: 1000, measure: $w, seed: 1}
YAML
  local i1 i2 h1 h2 b1 b2
  for k in 1 2; do
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="out/callgrind/$name.$k.out" \
      "$SY" run "out/callgrind/$name.yaml" --set simulation.measure=$((w * k)) --quiet \
      --out "out/callgrind/$name-$k" 2> "out/callgrind/$name.$k.log" || true
  done
  i1=$(grep -o 'Collected : [0-9]*' "out/callgrind/$name.1.log" | grep -o '[0-9]*$')
  i2=$(grep -o 'Collected : [0-9]*' "out/callgrind/$name.2.log" | grep -o '[0-9]*$')
  # (Collected: Ir Bc Bcm Bi Bim; the mispredicted ones are Bcm + Bim.)
  b1=$(grep -o 'Collected : [0-9 ]*' "out/callgrind/$name.1.log" | awk '{print $5 + $7}')
  b2=$(grep -o 'Collected : [0-9 ]*' "out/callgrind/$name.2.log" | awk '{print $5 + $7}')
  h1=$(/usr/bin/python3 -c "import json;print(json.load(open('out/callgrind/$name-1/results.json'))['flits']['hops'])")
  h2=$(/usr/bin/python3 -c "import json;print(json.load(open('out/callgrind/$name-2/results.json'))['flits']['hops'])")
  /usr/bin/python3 -c "
i1,i2,h1,h2,b1,b2,w=$i1,$i2,$h1,$h2,$b1,$b2,$w
print(f'| $name | {(i2-i1)/w:,.0f} | {(i2-i1)/max(1,h2-h1):,.0f} | {(b2-b1)/w:,.1f} |')"
}
echo "| config (wormhole 2 VCs x 4, L = 8, uniform 0.1) | instructions / cycle | instructions / flit-hop | mispredicted branches / cycle |"
echo "|---|---|---|---|"
measure 8x8 "[8, 8]" 20000
measure 16x16 "[16, 16]" 4000
measure 16x16x16 "[16, 16, 16]" 400
measure 8x8-staged "[8, 8]" 20000 "{rc: 1, va: 1, sa: 1, st: 1, lt: 1}"
