#!/bin/bash
# The same run on one process and across NP ranks (mpirun): results.json (less its wall time)
# and flows.csv, if written, must be the same byte for byte (issue 35, point 3).
#   ranks_check.sh MPIEXEC SWITCHYARD CONFIG NP [switchyard run options...]
# Also, expecting a refusal:
#   ranks_check.sh --refused TEXT MPIEXEC SWITCHYARD CONFIG NP [options...]: exit 2 on every rank
#   and TEXT in the message.
set -u
refused=""
if [ "$1" = "--refused" ]; then refused=$2; shift 2; fi
mpiexec=$1 sw=$2 cfg=$3 np=$4
shift 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# (Root in a container: Open MPI asks for both; --oversubscribe: more ranks than cores.)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
if [ -n "$refused" ]; then
  "$mpiexec" -np "$np" "$sw" run "$cfg" --out "$dir/n" --quiet "$@" >"$dir/log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] || ! grep -q -- "$refused" "$dir/log"; then
    echo "expected a refusal naming '$refused', got exit $rc:"
    cat "$dir/log"
    exit 1
  fi
  grep -m1 -- "$refused" "$dir/log"
  exit 0
fi
"$sw" run "$cfg" --out "$dir/one" --quiet --accept-unstable "$@" || { echo "one process failed"; exit 1; }
"$mpiexec" -np "$np" "$sw" run "$cfg" --out "$dir/ranks" --quiet --accept-unstable "$@" \
  >"$dir/log" 2>&1 || { echo "mpirun -np $np failed:"; cat "$dir/log"; exit 1; }
status=0
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
