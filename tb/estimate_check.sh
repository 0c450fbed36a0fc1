#!/usr/bin/env bash
# The run-time estimate against the real wall time (issue 33, point 7): runs every shipped config
# (configs/**/*.yaml) and a 16x16x16 torus, prints the estimate, the process's wall time (what
# the estimate predicts: building the network and the schedule, the run, the results), the
# simulation's own (results.json wall_seconds, sc_start alone) and the ratio of the estimate to
# the process's time, and marks those off by more than 2x. A measurement, not a test (times
# depend on the machine): docs/user-guide.md quotes its last result.
#   bash tb/estimate_check.sh [BINARY]
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-./build/switchyard}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'topology: {type: torus, dims: [16, 16, 16]}\nrouter: {buffering: input_vc, vcs: 2, vc_depth: 4}\ntraffic: {rate: 0.1, packet_flits: 8}\nsimulation: {warmup: 500, measure: 2000}\n' \
  > "$work/torus16x16x16.yaml"
printf '%-50s %12s %12s %12s %8s\n' config "estimate s" "process s" "sim s" ratio
off=0 n=0
for c in $(find configs -name '*.yaml' ! -path 'configs/tech/*' | sort) "$work/torus16x16x16.yaml"; do
  t0=$(date +%s.%N)
  out=$("$bin" run "$c" --out "$work/run" 2>&1 >/dev/null)
  t1=$(date +%s.%N)
  est=$(printf '%s\n' "$out" | sed -n 's/.*wall time about \([0-9.e+-]*\) s.*/\1/p' | head -1)
  sim=$(grep -o '"wall_seconds": [0-9.e+-]*' "$work/run/results.json" 2>/dev/null | grep -o '[0-9.e+-]*$')
  rm -rf "$work/run"
  [ -n "$est" ] && [ -n "$sim" ] || { printf '%-50s %12s\n' "${c#configs/}" "(no estimate or no run)"; continue; }
  wall=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
  tlm=$(printf '%s\n' "$out" | grep -c "TLM-driven")
  read -r ratio mark < <(python3 -c "
e, w = $est, $wall
r = e / w if w > 0 else float('inf')
# (Below 0.2 s both sides are mostly start-up; a TLM-driven run says its traffic is not counted.)
print(f'{r:.2f}', '' if w < 0.2 or $tlm or 0.5 <= r <= 2 else 'OFF')")
  n=$((n + 1))
  [ "$mark" = OFF ] && off=$((off + 1))
  printf '%-50s %12s %12.3f %12.3f %8s %s\n' "$(basename "$(dirname "$c")")/$(basename "$c")" "$est" "$wall" "$sim" "$ratio" "$mark"
done
echo "estimate_check: $off of $n runs of 0.2 s or more off by over 2x"
