#!/usr/bin/env bash
# Regenerates the greedy-routing figures and tables (docs/figures/greedy_*) from the model:
#   bash tb/greedy_figures.sh          (about 3 minutes on 2 cores)
# Stamoulis & Tsitsiklis on the cycle model (configs/papers/greedy/, the paper's ideal model):
# T against rho for p = 0.25 .. 1 on a 2^6 hypercube and a 6-dimensional butterfly with the
# paper's bounds and exact cases; the heavy-traffic product (1 - rho) T; the same hypercube with
# input-VC wormhole routers; the slotted arrivals at S = 1, 4, 16 cycles per packet time.
# SWITCHYARD=path uses that binary (and skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out
HC=configs/papers/greedy/hypercube_6.yaml
BF=configs/papers/greedy/butterfly_6.yaml
RHOS=0.1,0.3,0.5,0.7,0.8,0.9,0.95
sweep() {  # config name values [--set ...]
  local cfg=$1 name=$2 values=$3
  shift 3
  "$SY" sweep "$cfg" --param traffic.load.rho --values "$values" --jobs 2 "$@" \
    --out "out/greedy-$name" >/dev/null
  cp "out/greedy-$name/sweep.csv" "docs/figures/greedy_$name.csv"
}
W="--set simulation.warmup=2000 --set simulation.measure=30000"
for p in 0.25 0.5 0.75 1; do
  sweep $HC "hc6_p$p" $RHOS $W --set traffic.bit_flip_probability=$p
done
for p in 0 0.25 0.5 0.75 1; do
  sweep $BF "bf6_p$p" $RHOS $W --set traffic.bit_flip_probability=$p
done
# Heavy traffic: long windows near rho = 1.
for p in 0.5 1; do
  sweep $HC "heavy_p$p" 0.5,0.7,0.8,0.9 $W --set traffic.bit_flip_probability=$p
  sweep $HC "heavy_hi_p$p" 0.95,0.98 --set simulation.warmup=20000 \
    --set simulation.measure=200000 --set traffic.bit_flip_probability=$p
done
# Realistic routers: 4-flit packets (one packet time = 4 cycles), input-VC wormhole, one
# injection channel, against the ideal output-queued model with the same packets.
R="--set traffic.packet_flits=4 --set simulation.warmup=4000 --set simulation.measure=40000"
V="--set network_interface.injection=serial --set router.buffering=input_vc --set router.switching=wormhole --set router.vc_depth=4"
sweep $HC real_oq 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9 $R
sweep $HC real_wh2 0.1,0.2,0.3,0.4,0.5,0.6,0.7 $R $V --set router.vcs=2
sweep $HC real_wh4 0.1,0.2,0.3,0.4,0.5,0.6,0.7 $R $V --set router.vcs=4
# Slotted arrivals: S cycles per packet time (tau = S), windows scaled by S.
for S in 1 4 16; do
  sweep $HC "slot_S$S" 0.5,0.9 --set timing.tau=$S --set simulation.warmup=$((2000 * S)) \
    --set simulation.measure=$((30000 * S))
done
/usr/bin/python3 tb/plot_greedy.py docs/figures
echo "greedy figures regenerated under docs/figures/greedy_*"
