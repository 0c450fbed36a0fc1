#!/usr/bin/env bash
# The run-time estimate against the real wall time (issue 33, point 7): runs every shipped config
# (configs/**/*.yaml) and a 16x16x16 torus and prints the estimate, the part of it that is
# building the schedule (the H-trees' fill, "N s of it building the schedule"), the process's
# wall time (parsing, building the network and the schedule, the run, the results), the
# simulation's own (results.json wall_seconds, sc_start alone), and two ratios: the estimate to
# the process's time, and the estimate less its build part to the simulation's time (the check
# of the per-hop costs, as before the build part was added). A run is marked off when the second
# is outside 0.5-2, or, where the estimate has a build part, the first. A measurement, not a
# test (times depend on the machine): docs/user-guide.md quotes its last result.
#   bash tb/estimate_check.sh [BINARY]
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-./build/switchyard}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'topology: {type: torus, dims: [16, 16, 16]}\nrouter: {buffering: input_vc, vcs: 2, vc_depth: 4}\ntraffic: {rate: 0.1, packet_flits: 8}\nsimulation: {warmup: 500, measure: 2000}\n' \
  > "$work/torus16x16x16.yaml"
printf '%-46s %11s %8s %10s %10s %8s %8s\n' config "estimate s" "build s" "process s" "sim s" \
  "est/proc" "run/sim"
off=0 n=0
for c in $(find configs -name '*.yaml' ! -path 'configs/tech/*' | sort) "$work/torus16x16x16.yaml"; do
  t0=$(date +%s.%N)
  out=$("$bin" run "$c" --out "$work/run" 2>&1 >/dev/null)
  t1=$(date +%s.%N)
  est=$(printf '%s\n' "$out" | sed -n 's/.*wall time about \([0-9.e+-]*\) s.*/\1/p' | head -1)
  build=$(printf '%s\n' "$out" | sed -n 's/.*(\([0-9.e+-]*\) s of it building the schedule).*/\1/p' | head -1)
  sim=$(grep -o '"wall_seconds": [0-9.e+-]*' "$work/run/results.json" 2>/dev/null | grep -o '[0-9.e+-]*$')
  rm -rf "$work/run"
  [ -n "$est" ] && [ -n "$sim" ] || { printf '%-46s %11s\n' "${c#configs/}" "(no estimate or no run)"; continue; }
  tlm=$(printf '%s\n' "$out" | grep -c "TLM-driven")
  read -r wall proc run mark < <(python3 -c "
e, b, s, w = $est, ${build:-0}, $sim, $t1 - $t0
proc = e / w if w > 0 else float('inf')
run = (e - b) / s if s > 0 else float('inf')
# (Below 0.2 s both sides are mostly start-up; a TLM-driven run says its traffic is not counted.)
off = not $tlm and ((s >= 0.2 and not 0.5 <= run <= 2) or (b > 0 and not 0.5 <= proc <= 2))
print(f'{w:.3f} {proc:.2f} {run:.2f}', 'OFF' if off else '-')")
  n=$((n + 1))
  [ "$mark" = OFF ] && off=$((off + 1))
  printf '%-46s %11s %8s %10s %10.3f %8s %8s %s\n' "$(basename "$(dirname "$c")")/$(basename "$c")" \
    "$est" "${build:--}" "$wall" "$sim" "$proc" "$run" "${mark#-}"
done
echo "estimate_check: $off of $n runs off by over 2x (simulations of 0.2 s or more; builds)"
