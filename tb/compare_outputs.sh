#!/usr/bin/env bash
# Runs every shipped config (configs/**/*.yaml), the property test's 40 fast configs and a small
# sweep with one build of the program, and keeps what a user sees of each: results.json (without
# wall_seconds), the printed summary (paths and timings taken out) and sweep.csv. Two such
# folders, from two builds, are then compared byte for byte:
#   tb/compare_outputs.sh build/switchyard /tmp/before     # (with the old build)
#   tb/compare_outputs.sh build/switchyard /tmp/after      # (with the new build)
#   tb/compare_outputs.sh --diff /tmp/before /tmp/after    # exit 0 when byte-identical
# Used by refactorings that must not change results (docs/design.md, "Plug-ins").
# PROPERTY_CONFIGS (default: the binary's folder's property_configs) writes the property configs.
set -uo pipefail
if [ "${1:-}" = "--diff" ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --diff BEFORE AFTER" >&2; exit 2; }
  if diff -r "$2" "$3"; then
    echo "compare_outputs: identical ($(find "$2" -type f | wc -l) files)"
    exit 0
  fi
  echo "compare_outputs: the outputs differ (above)" >&2
  exit 1
fi
[ $# -eq 2 ] || { echo "usage: $0 BINARY OUTDIR | $0 --diff BEFORE AFTER" >&2; exit 2; }
bin=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
gen=${PROPERTY_CONFIGS:-$(dirname "$bin")/property_configs}
rm -rf "$out"
mkdir -p "$out/runs" "$out/props"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One run: results.json without wall_seconds, the summary without the lines naming paths.
run_one() {  # name config [--set ...]
  local name=$1 cfg=$2
  shift 2
  local dir="$work/$name"
  "$bin" run "$cfg" --out "$dir" "$@" >"$dir.stdout" 2>"$dir.stderr"
  echo "exit $?" >"$out/runs/$name.summary"
  grep -v -E '^(results|per-flow latency|waves) ' "$dir.stdout" | sed "s#$work/##" >>"$out/runs/$name.summary"
  if [ -f "$dir/results.json" ]; then
    grep -v '"wall_seconds"' "$dir/results.json" >"$out/runs/$name.json"
  fi
  [ -f "$dir/flows.csv" ] && cp "$dir/flows.csv" "$out/runs/$name.flows.csv"
  return 0
}
export -f run_one
export bin out work
list=()
while IFS= read -r c; do
  name=$(echo "${c#configs/}" | tr '/' '_')
  name=${name%.yaml}
  list+=("$name $c")
done < <(find configs -name '*.yaml' ! -path 'configs/tech/*' | sort)
if [ -x "$gen" ]; then
  "$gen" "$work" 0 40 >/dev/null
  for s in $(seq 0 39); do list+=("prop$s $work/prop$s.yaml"); done
else
  echo "compare_outputs: $gen not built: the property configs are left out" >&2
fi
printf '%s\n' "${list[@]}" | parallel --colsep ' ' -j "$(nproc)" run_one {1} {2}
# A sweep's table (two loads, two seeds).
"$bin" sweep configs/quickstart.yaml --param traffic.rate --values 0.05,0.2 --seeds 2 \
  --set simulation.measure=2000 --out "$work/sweep" >/dev/null 2>&1
cp "$work/sweep/sweep.csv" "$out/sweep.csv" 2>/dev/null || echo "no sweep.csv" >"$out/sweep.csv"
echo "compare_outputs: $(ls "$out/runs" | wc -l) files in $out"
