#!/bin/bash
# The same run on one process and across NP ranks (mpirun): results.json (less its wall time)
# and flows.csv, if written, must be the same byte for byte (issue 35, point 3).
#   ranks_check.sh [--alone TEXT] MPIEXEC SWITCHYARD CONFIG NP [switchyard run options...]
# --alone TEXT: a config the ranks cannot split: rank 0 runs it alone, and the warning says why
# (TEXT in it); the results are the same all the same.
set -u
alone=""
if [ "$1" = "--alone" ]; then alone=$2; shift 2; fi
mpiexec=$1 sw=$2 cfg=$3 np=$4
shift 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# (Root in a container: Open MPI asks for both; --oversubscribe: more ranks than cores.)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
"$sw" run "$cfg" --out "$dir/one" --quiet --accept-unstable "$@" || { echo "one process failed"; exit 1; }
"$mpiexec" -np "$np" "$sw" run "$cfg" --out "$dir/ranks" --quiet --accept-unstable "$@" \
  >"$dir/log" 2>&1 || { echo "mpirun -np $np failed:"; cat "$dir/log"; exit 1; }
status=0
if [ -n "$alone" ] && ! grep -q "runs on one process (rank 0; the others idle): $alone" "$dir/log"; then
  echo "expected the warning that rank 0 runs it alone ($alone):"
  cat "$dir/log"
  status=1
fi
if [ -z "$alone" ] && grep -q "runs on one process" "$dir/log"; then
  echo "expected the run split across $np ranks, but:"
  cat "$dir/log"
  status=1
fi
strip() { grep -v '"wall_seconds"' "$1"; }
if ! diff <(strip "$dir/one/results.json") <(strip "$dir/ranks/results.json") >"$dir/diff"; then
  echo "results.json differs across $np ranks:"
  head -40 "$dir/diff"
  status=1
fi
if [ -f "$dir/one/flows.csv" ] && ! cmp -s "$dir/one/flows.csv" "$dir/ranks/flows.csv"; then
  echo "flows.csv differs across $np ranks"
  status=1
fi
[ $status -eq 0 ] && echo "the same on 1 process and $np ranks: $(grep -m1 '"cycles"' "$dir/one/results.json")"
exit $status
