#!/usr/bin/env bash
# rtl_compare.sh CPP_BIN RTL_BIN CONFIG RTL_NAME [--rtl-nodes LIST] [--set k=v ...]: runs CONFIG
# with the C++ router (CPP_BIN) and with the RTL router RTL_NAME in its place (RTL_BIN,
# router.model: rtl; at the routers of LIST only, e.g. "[0, 5, 10]", with --rtl-nodes: a mixed
# network, router.rtl_nodes, the C++ router at the others), each with
# SWITCHYARD_HOP_LOG, and compares every flit's arrival at every router and NI (the sorted logs:
# "arrival router out_port out_vc packet_serial seq") and results.json (less the wall time and the
# model keys). Exit 0: identical; 1: a "MISMATCH" report with the first difference; 2: a run
# failed. (tb/cosim/expect_mismatch.sh wraps it for the RTL mutants.)
set -u
cpp_bin=$1 rtl_bin=$2 config=$3 name=$4
shift 4
mixed=()
if [ "${1:-}" = --rtl-nodes ]; then
  mixed=(--set "router.rtl_nodes=$2")
  name="$name at $2"
  shift 2
fi
dir=$(mktemp -d /tmp/sy-rtl-compare.XXXXXX)
trap 'rm -rf "$dir"' EXIT
SWITCHYARD_HOP_LOG=$dir/cpp.hops "$cpp_bin" run "$config" --quiet --accept-unstable --out "$dir/cpp" "$@" ||
  { echo "rtl_compare: the C++ run failed" >&2; exit 2; }
# (An RTL mutant may break the run: stuck or out of order. That is a mismatch, not a failure.)
SWITCHYARD_HOP_LOG=$dir/rtl.hops "$rtl_bin" run "$config" --quiet --accept-unstable --out "$dir/rtl" "$@" \
  --set router.model=rtl --set router.rtl="${name%% at *}" "${mixed[@]}" > "$dir/rtl.out" 2>&1
rc=$?
sort "$dir/cpp.hops" > "$dir/cpp.sorted"
sort "$dir/rtl.hops" > "$dir/rtl.sorted" 2>/dev/null || : > "$dir/rtl.sorted"
hops=$(wc -l < "$dir/cpp.sorted")
if [ "$rc" -ne 0 ]; then
  echo "MISMATCH rtl_compare: the RTL run ($name) exited $rc:"
  tail -5 "$dir/rtl.out"
  exit 1
fi
if ! cmp -s "$dir/cpp.sorted" "$dir/rtl.sorted"; then
  echo "MISMATCH rtl_compare: flit hops differ ($hops with cpp, $(wc -l < "$dir/rtl.sorted") with rtl $name);" \
       "first differences (< cpp, > rtl: arrival router out_port out_vc packet seq):"
  diff "$dir/cpp.sorted" "$dir/rtl.sorted" | head -6
  exit 1
fi
strip() {
  grep -v -e '"wall_seconds"' -e '"max_wait"' -e '"model": "rtl"' -e '"rtl": "' -e '"rtl_nodes": "' "$1"
}
if ! diff <(strip "$dir/cpp/results.json") <(strip "$dir/rtl/results.json") > "$dir/results.diff"; then
  echo "MISMATCH rtl_compare: results.json differs:"
  head -20 "$dir/results.diff"
  exit 1
fi
echo "rtl_compare: identical: $hops flit hops and results.json ($name)"
