#!/usr/bin/env bash
# The network-ranks scaling table (issue 35, point 3): the benchmark's tori (bench --threads'
# configs: uniform 0.1, 2 VCs x 4 flits, L = 8, ideal pipeline) run as one process and across N
# MPI ranks (mpirun -np N), each REPEAT times; the median run by simulated time, with its wall
# time (the whole command: start-up, elaboration on every rank and the run), the CPU time of all
# ranks, cycles/s of the simulation (results.json: cycles / wall_seconds, rank 0's clock) and
# the speed-up over the first count. Results are checked to be the same as the first count's.
#   bash tb/bench_ranks.sh [RANKS (1,2,4)] [REPEAT (3)] [SIZES ("16x16x16")]
#   SWITCHYARD=build/switchyard MPIRUN=mpirun, extra mpirun options in MPIRUN_ARGS; THREADS=T
#   gives every rank T threads (simulation.threads); TIME_CMD=/usr/bin/time (GNU time).
set -euo pipefail
sw=${SWITCHYARD:-build/switchyard}
mpirun=${MPIRUN:-mpirun}
timecmd=${TIME_CMD:-/usr/bin/time}
threads=${THREADS:-1}
counts=${1:-1,2,4}
repeat=${2:-3}
sizes=${3:-16x16x16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# (More ranks than cores are allowed, but they wait on each other at every exchange.)
export OMPI_MCA_rmaps_base_oversubscribe=1
[ "$threads" = 1 ] || echo "each rank on $threads threads"
printf '%-22s %6s %8s %9s %9s %11s %8s %7s\n' "torus (uniform 0.1)" ranks cycles "wall s" "CPU s" \
  "cycles/s" speed-up effic.
for size in ${sizes//,/ }; do
  dims="[${size//x/, }]"
  warmup=500 measure=2000
  [ "$size" = 32x32x32 ] && warmup=300 measure=1000
  [ "$size" = 16x16x16x16 ] && warmup=300 measure=1000
  cat >"$tmp/cfg.yaml" <<CFG
topology: {type: torus, dims: $dims}
router: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}
traffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}
simulation: {warmup: $warmup, measure: $measure, seed: 1, threads: $threads}
CFG
  first=""
  for n in ${counts//,/ }; do
    rows=()
    for r in $(seq 1 "$repeat"); do
      out="$tmp/r-$n-$r"
      start=$(date +%s.%N)
      if [ "$n" = 1 ]; then
        "$timecmd" -f '%U %S' -o "$tmp/time" "$sw" run "$tmp/cfg.yaml" --out "$out" --quiet \
          --accept-unstable
      else
        "$timecmd" -f '%U %S' -o "$tmp/time" "$mpirun" ${MPIRUN_ARGS:-} -np "$n" "$sw" run \
          "$tmp/cfg.yaml" --out "$out" --quiet --accept-unstable >"$tmp/log" 2>&1 ||
          { cat "$tmp/log"; exit 1; }
      fi
      end=$(date +%s.%N)
      cycles=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$out/results.json")
      sim=$(sed -n 's/^  "wall_seconds": \([0-9.e+-]*\),$/\1/p' "$out/results.json")
      cpu=$(awk '{print $1 + $2}' "$tmp/time")
      wall=$(awk "BEGIN {print $end - $start}")
      grep -v '"wall_seconds"' "$out/results.json" >"$out/same.json"
      if [ -z "$first" ]; then first="$out/same.json"; fi
      cmp -s "$first" "$out/same.json" || { echo "results differ on $n ranks"; exit 1; }
      rows+=("$sim $cycles $wall $cpu")
    done
    med=$(printf '%s\n' "${rows[@]}" | sort -g | sed -n "$(((repeat + 1) / 2))p")
    read -r sim cycles wall cpu <<<"$med"
    rate=$(awk "BEGIN {print $cycles / $sim}")
    [ -n "${base_rate:-}" ] || base_rate=$rate
    speed=$(awk "BEGIN {print $rate / $base_rate}")
    eff=$(awk "BEGIN {print 100 * $speed * ${counts%%,*} / $n}")
    printf '%-22s %6d %8d %9.3f %9.3f %11.1f %7.2fx %6.0f%%\n' "$size" "$n" "$cycles" "$wall" \
      "$cpu" "$rate" "$speed" "$eff"
  done
  unset base_rate
done
