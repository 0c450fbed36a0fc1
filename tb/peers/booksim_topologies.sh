#!/usr/bin/env bash
# Switchyard beside BookSim2 on the topologies beyond meshes and tori (issue 32):
#
#   bash tb/peers/booksim_topologies.sh PATH-TO-BOOKSIM2-CHECKOUT [--only-booksim] [CASE ...]
#
# JOBS=N runs N cases at a time (each case's points in order: the sweep depends on them).
# --only-booksim runs BookSim2's points alone (on a machine with many cores, say; bring back
# out/booksim_topologies/runs.csv and run again without it for the table).
#
# Not run in CI and fetches nothing: give it a BookSim2 checkout (github.com/booksim/booksim2),
# built there (make in src/) if src/booksim is missing; Switchyard is build/switchyard (or
# SWITCHYARD=path). Matched settings as in tb/peers/booksim_compare.sh (its header says why each
# is what it is): input-VC wormhole routers, 1-cycle RC, VA, SA, ST and links (BookSim2:
# use_noc_latency = 0), separable input-first allocators, no speculation, credit usable 2 cycles
# after its flit left (Switchyard credit_delay 2, BookSim2 credit_delay 0), wait_for_tail_credit
# 1, 4-flit VCs, 8-flit packets, Bernoulli sources, uniform traffic with the source itself among
# the destinations (Switchyard self: through_router), load in flits per terminal per cycle.
#
# Per case and simulator: the zero-load latency (offered 0.005), then offered loads in steps of
# 0.02 up to the first that is unstable or above 3x the zero-load latency, then steps of 0.005
# from the last good one (saturation = the highest good load, the same rule for both), then
# 1.5x saturation (accepted throughput). Windows: Switchyard 5,000 warm-up + 30,000 measured
# cycles; BookSim2 30,000-cycle sample periods (1 warm-up period, converged samples, at most 10).
# Every point within 0.03 of saturation and the 1.5x point run with two seeds (the mean is
# shown). Output: docs/figures/booksim_topologies.md; runs are cached in
# out/booksim_topologies/runs.csv by (simulator, case, key, load, seed), where the key is a hash
# of the base file, the case's keys and the simulator's binary: a changed case or a rebuilt
# Switchyard reruns its points, nothing else (rows with other keys stay in the file, unused).
#
# The 8x8 torus and mesh cases are tb/peers/booksim_compare.sh's matched pair (its series
# `booksim` and `switchyard`) with these windows and seeds. `@COPY` in a case's BookSim2 keys runs
# one of the copies of BookSim2 that booksim_compare.sh --copies-only builds (under
# out/booksim_compare/; its patch_routefunc says what each changes): `@fixed`, valiant_torus's
# uninitialised ring_part set (it aborts without); `@dateline`, that and Valiant's phase-0
# packets kept on the phase-0 VCs at their own destination (BookSim2 lets them take any VC
# there, which deadlocks its mesh Valiant above 0.04), and the classic dateline classes.
#
# Cases: name | BookSim2 keys | Switchyard --set keys | note
set -euo pipefail
[ $# -ge 1 ] || { sed -n '3,4p' "$0" >&2; exit 1; }
BS_DIR=$(cd "$1" && pwd); shift
ONLY=""
[ "${1:-}" = --only-booksim ] && { ONLY=booksim; shift; }
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
OUT=$ROOT/out/booksim_topologies
FIG=$ROOT/docs/figures
mkdir -p "$OUT" "$FIG"
RUNS=$OUT/runs.csv
RUNS_HEADER="sim,case,key,load,seed,latency,accepted,stable"
[ -f "$RUNS" ] && [ "$(head -1 "$RUNS")" != "$RUNS_HEADER" ] && mv "$RUNS" "$RUNS.old"   # unkeyed cache
[ -f "$RUNS" ] || echo "$RUNS_HEADER" > "$RUNS"
BS=$BS_DIR/src/booksim
[ -x "$BS" ] || make -C "$BS_DIR/src" >"$OUT/booksim_build.log" 2>&1
BS_COPIES=${BS_COPIES:-$ROOT/out/booksim_compare}   # booksim_compare.sh's patched copies
SY=${SWITCHYARD:-$ROOT/build/switchyard}
BS_COMMIT=${BS_COMMIT:-$(git -C "$BS_DIR" rev-parse HEAD 2>/dev/null || echo unknown)}

# name|booksim keys|switchyard --set keys|what
ALL_CASES="
mesh_8x8_dor_2vc|topology=mesh k=8 n=2 routing_function=dim_order num_vcs=2|topology.type=mesh topology.dims=[8,8] router.vcs=2|8x8 mesh, dimension order (tb/peers/booksim_compare.sh's mesh_dor_2vc with these windows and seeds)
mesh_8x8_minadapt_2vc|@adaptive topology=mesh k=8 n=2 routing_function=min_adapt num_vcs=2|topology.type=mesh topology.dims=[8,8] router.vcs=2 routing.algorithm=minimal_adaptive|8x8 mesh, minimal adaptive (BookSim2 as its adaptive copy: min_adapt_mesh offering every productive direction and the adaptive VCs from the escape VC too, as Switchyard; unchanged it offers one direction: docs/design.md, Where the two differ)
mesh_8x8_valiant_2vc|@dateline topology=mesh k=8 n=2 routing_function=valiant num_vcs=2|topology.type=mesh topology.dims=[8,8] router.vcs=2 routing.algorithm=valiant|8x8 mesh, Valiant (a random intermediate node, dimension order in each phase, a VC per phase; BookSim2 with its phase-0 VCs kept at the destination: unchanged it deadlocks from 0.04 on seed 0)
torus_8x8_dor_2vc|topology=torus k=8 n=2 routing_function=dim_order num_vcs=2|topology.type=torus topology.dims=[8,8] router.vcs=2 routing.dateline=ring_entry|8x8 torus, dimension order, BookSim2's dateline classes on both (a class per ring traversal; Switchyard routing.dateline: ring_entry)
torus_8x8_valiant_4vc|@dateline topology=torus k=8 n=2 routing_function=valiant num_vcs=4|topology.type=torus topology.dims=[8,8] router.vcs=4 routing.algorithm=valiant|8x8 torus, Valiant, 2 VCs per phase (BookSim2 as its dateline copy: ring_part set, the classic dateline classes, phase-0 VCs kept at the destination)
cmesh_4x4_c4_2vc|topology=cmesh k=4 n=2 c=4 x=4 y=4 xr=2 yr=2 routing_function=dor_no_express num_vcs=2|topology.type=cmesh topology.dims=[4,4] topology.concentration=4 router.vcs=2|concentrated mesh, 4x4 routers x 4 terminals, XY
cmesh_4x4_c4_4vc|topology=cmesh k=4 n=2 c=4 x=4 y=4 xr=2 yr=2 routing_function=dor_no_express num_vcs=4|topology.type=cmesh topology.dims=[4,4] topology.concentration=4 router.vcs=4|the same with 4 VCs
fattree_4_3_adaptive|topology=fattree k=4 n=3 routing_function=anca num_vcs=2|topology.type=fat_tree topology.k=4 topology.n=3 routing.algorithm=nca_adaptive router.vcs=2|4-ary 3-tree, adaptive up phase (BookSim2: 2 random up ports, the one with fewer used credits, once per hop; Switchyard: every up port, by credits, every cycle)
fattree_4_3_oblivious|topology=fattree k=4 n=3 routing_function=nca num_vcs=2|topology.type=fat_tree topology.k=4 topology.n=3 routing.algorithm=nca_random router.vcs=2|4-ary 3-tree, a random up port at every up hop (BookSim2 nca, Switchyard nca_random)
fattree_4_3_two_choice|topology=fattree k=4 n=3 routing_function=anca num_vcs=2|topology.type=fat_tree topology.k=4 topology.n=3 routing.algorithm=nca_two_choice router.vcs=2|4-ary 3-tree, the better of two random up ports by credits (BookSim2 anca: chosen once per hop; Switchyard nca_two_choice: until the header holds a VC)
fattree_4_3_two_choice_once|topology=fattree k=4 n=3 routing_function=anca num_vcs=2|topology.type=fat_tree topology.k=4 topology.n=3 routing.algorithm=nca_two_choice_once router.vcs=2|4-ary 3-tree, the better of two random up ports by used credits, chosen once per hop on both (BookSim2 anca, Switchyard nca_two_choice_once)
anynet_triangle_c3|topology=anynet network_file=$ROOT/configs/anynet/booksim_example.net routing_function=min num_vcs=2|topology.type=anynet topology.file=$ROOT/configs/anynet/booksim_example.net router.vcs=2|anynet: BookSim2's example file (3 routers in a triangle, 3 terminals each): one-hop routes, one VC class on both
anynet_irregular12_4vc|topology=anynet network_file=$ROOT/configs/anynet/irregular12.net routing_function=min num_vcs=4|topology.type=anynet topology.file=$ROOT/configs/anynet/irregular12.net router.vcs=4|anynet: 12 irregular routers (configs/anynet/irregular12.net), shortest paths (BookSim2: every VC, ties by its Dijkstra; Switchyard: deadlock: layers, 2 VC layers of 2 VCs, ties to the lowest port)
anynet_irregular12_none|topology=anynet network_file=$ROOT/configs/anynet/irregular12.net routing_function=min num_vcs=4|topology.type=anynet topology.file=$ROOT/configs/anynet/irregular12.net topology.deadlock=none routing.allow_deadlock=true router.vcs=4|the same on one class of 4 VCs (deadlock: none, as BookSim2: not deadlock-free, its cycle allowed by routing.allow_deadlock)
dragonfly_k2_min|topology=dragonflynew k=2 n=1 routing_function=min num_vcs=2 vc_buf_size=256|topology.type=dragonfly topology.p=2 topology.a=4 topology.h=2 topology.g=9 topology.local_latency=10 topology.global_latency=100 router.vcs=2 router.vc_depth=256|dragonfly p=2 a=4 h=2 g=9 (72 terminals; BookSim2's dragonflynew k=2 and its wiring), local links 10 cycles, global 100 (BookSim2's fixed latencies), 256-flit VCs (a VC's credit loop over a 100-cycle link), minimal routing
dragonfly_k2_ugal|topology=dragonflynew k=2 n=1 routing_function=ugal num_vcs=3 vc_buf_size=256|topology.type=dragonfly topology.p=2 topology.a=4 topology.h=2 topology.g=9 topology.local_latency=10 topology.global_latency=100 router.vcs=3 router.vc_depth=256 routing.algorithm=ugal|the same with UGAL-L (BookSim2: minimal when its queue <= 2 x Valiant's + 30, through an intermediate router; Switchyard: (queue + 1) x hops, through an intermediate group)
dragonfly_k2_ugal_threshold|topology=dragonflynew k=2 n=1 routing_function=ugal num_vcs=3 vc_buf_size=256|topology.type=dragonfly topology.p=2 topology.a=4 topology.h=2 topology.g=9 topology.local_latency=10 topology.global_latency=100 router.vcs=4 router.vc_depth=256 routing.algorithm=ugal_threshold|the same with BookSim2's UGAL on both (Switchyard ugal_threshold: through an intermediate router, minimal when its queue <= 2 x the other's + 30; 4 VC classes of one VC, BookSim2's 3)
flatfly_4x2_c4_min|topology=flatfly k=4 n=2 c=4 x=4 y=4 xr=2 yr=2 routing_function=ran_min num_vcs=2|topology.type=flatfly topology.k=4 topology.n=2 topology.concentration=4 router.vcs=2|flattened butterfly, 4x4 routers x 4 terminals, dimension order (BookSim2 ran_min_flatfly)
flatfly_4x2_c4_valiant|topology=flatfly k=4 n=2 c=4 x=4 y=4 xr=2 yr=2 routing_function=valiant num_vcs=4|topology.type=flatfly topology.k=4 topology.n=2 topology.concentration=4 routing.algorithm=valiant router.vcs=4|the same, Valiant (a random router; 2 VCs per phase)
flatfly_4x2_c4_ugal|topology=flatfly k=4 n=2 c=4 x=4 y=4 xr=2 yr=2 routing_function=ugal num_vcs=4|topology.type=flatfly topology.k=4 topology.n=2 topology.concentration=4 routing.algorithm=ugal router.vcs=4|the same, UGAL-L at the source (BookSim2: min hops x queue <= nonmin hops x queue + 2; Switchyard: (queue + 1) x hops, no worse)
"
# Cases run only when named: minimal adaptive with 4 VCs on BookSim2's adaptive copy declares
# runs unstable at scattered loads (the torus: seed 0 unstable at 0.22 where seed 1 runs at 41.7
# cycles; the mesh: seed 0 unstable at 0.200 where seed 1 runs at 51.5; BookSim2 unpatched on the
# mesh too: seed 1 unstable at 0.300-0.315, seed 0 stable up to 0.330), so the 3x T0 rule reads
# BookSim2's saturation at 0.215 against Switchyard's 0.540 on the torus and the two-seed span
# between them takes hours; booksim_compare.sh's diagnosis series compares them instead.
EXTRA_CASES="
mesh_8x8_minadapt_4vc|@adaptive topology=mesh k=8 n=2 routing_function=min_adapt num_vcs=4|topology.type=mesh topology.dims=[8,8] router.vcs=4 routing.algorithm=minimal_adaptive|the same with 4 VCs
torus_8x8_minadapt_4vc|@adaptive topology=torus k=8 n=2 routing_function=min_adapt num_vcs=4|topology.type=torus topology.dims=[8,8] router.vcs=4 routing.algorithm=minimal_adaptive|8x8 torus, minimal adaptive (BookSim2 as its adaptive copy: the adaptive class on VCs 2-3 as Switchyard, every productive direction, both ways at k/2)
"
CASES=$ALL_CASES
if [ $# -gt 0 ]; then
  CASES=""
  for c in "$@"; do CASES+=$(grep "^$c|" <<<"$ALL_CASES$EXTRA_CASES")$'\n'; done
fi

cat > "$OUT/booksim_base.cfg" <<'CFG'
// written by tb/peers/booksim_topologies.sh; per-case keys are given on the command line
vc_buf_size = 4;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
arb_type = round_robin;
alloc_iters = 1;
speculative = 0;
routing_delay = 1;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_prepare_delay = 0;
st_final_delay = 1;
credit_delay = 0;
input_speedup = 1;
output_speedup = 1;
internal_speedup = 1.0;
use_noc_latency = 0;
wait_for_tail_credit = 1;
packet_size = 8;
traffic = uniform;
injection_process = bernoulli;
injection_rate_uses_flits = 1;
sim_type = latency;
sample_period = 30000;
warmup_periods = 1;
max_samples = 10;
CFG
cat > "$OUT/switchyard_base.yaml" <<'YAML'
# written by tb/peers/booksim_topologies.sh; per-case keys (the topology too) are given with --set
name: booksim_topologies
router:
  buffering: input_vc
  switching: wormhole
  vcs: 2
  vc_depth: 4
  arbitration: round_robin
  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2, speculative: false, ejection_ports: 1}
timing: {alpha: 0, tau: 1}
traffic: {process: bernoulli, rate: 0.1, rate_unit: flits, packet_flits: 8, pattern: uniform,
          self: through_router}
simulation: {warmup: 5000, measure: 30000, seed: 1}
YAML

booksim_of() {  # KEYS -> the BookSim2 binary the case runs (@COPY: a patched copy)
  local copy
  copy=$(grep -o '@[a-z]*' <<<"$1" || true)
  if [ -n "$copy" ]; then
    copy=${copy#@}
    [ -x "$BS_COPIES/booksim2-$copy/src/booksim" ] ||
      bash tb/peers/booksim_compare.sh "$BS_DIR" --copies-only >&2
    echo "$BS_COPIES/booksim2-$copy/src/booksim"
  else
    echo "$BS"
  fi
}
run_booksim() {  # KEYS LOAD SEED -> latency accepted stable
  local log=$OUT/bs_$BASHPID.txt bin keys
  keys=$(sed 's/@[a-z]*//' <<<"$1")
  bin=$(booksim_of "$1")
  # shellcheck disable=SC2086
  timeout 300 "$bin" "$OUT/booksim_base.cfg" $keys injection_rate="$2" seed="$3" </dev/null >"$log" 2>&1 || true
  awk '
    /Simulation unstable/ { unstable = 1 }
    /Accepted flit rate average=/ { acc = $NF }
    /Overall Traffic Statistics/ { overall = 1 }
    overall && /^Packet latency average =/ { lat = $5 }
    overall && /^Accepted flit rate average =/ { acc = $6 }
    END {
      if (unstable || lat == "") print "nan", (acc == "" ? "nan" : acc), "false"
      else print lat, acc, "true"
    }' "$log"
  rm -f "$log"
}
run_switchyard() {  # KEYS LOAD SEED -> latency accepted stable
  local dir=$OUT/sy_$BASHPID sets=() k
  for k in $1; do sets+=(--set "$k"); done
  "$SY" run "$OUT/switchyard_base.yaml" --quiet --out "$dir" "${sets[@]}" --set traffic.rate="$2" \
    --set simulation.seed="$3" </dev/null >"$dir.log" 2>&1 || true
  /usr/bin/python3 - "$dir/results.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("nan nan false"); sys.exit()
print(r.get("latency", {}).get("mean", "nan"), r.get("throughput", {}).get("accepted", "nan"),
      "true" if r.get("stable") else "false")
PY
  rm -rf "$dir" "$dir.log"
}
SY_SUM=none
[ -f "$SY" ] && SY_SUM=$(md5sum <"$SY" | cut -c1-12)
USED=$OUT/used_keys.txt   # sim,case,key of every point this call asked for: the listing below
: > "$USED"
case_key() {  # SIM KEYS -> the cache key: base file, keys and binary
  if [ "$1" = booksim ]; then
    { cat "$OUT/booksim_base.cfg"; echo "$2"; echo "${BS_COMMIT:0:12}"; } | md5sum | cut -c1-10
  else
    { cat "$OUT/switchyard_base.yaml"; echo "$2"; echo "$SY_SUM"; } | md5sum | cut -c1-10
  fi
}
point() {  # SIM CASE KEYS LOAD SEED -> latency accepted stable (cached)
  local res key
  key=$(case_key "$1" "$3")
  # (by key, not by name: two cases with the same keys share their runs)
  res=$(awk -F, -v s="$1" -v k="$key" -v l="$4" -v e="$5" \
        '$1 == s && $3 == k && $4 + 0 == l + 0 && $5 == e { print $6, $7, $8; exit }' "$RUNS")
  grep -qxF "$1,$2,$key" "$USED" || echo "$1,$2,$key" >> "$USED"
  if [ -z "$res" ]; then
    res=$(run_"$1" "$3" "$4" "$5")
    echo "$1,$2,$key,$4,$5,$(tr ' ' ',' <<<"$res")" >> "$RUNS"
    echo "  $1 $2 load $4 seed $5: latency accepted stable = $res" >&2
  fi
  echo "$res"
}
good() { awk -v l="$1" -v s="$2" -v t="$3" 'BEGIN { exit !(s == "true" && l != "nan" && l <= 3 * t) }'; }
seed_of() { [ "$1" = booksim ] && echo $(( $2 - 1 )) || echo "$2"; }

sweep() {  # SIM CASE KEYS -> prints "zero_load saturation"
  local sim=$1 t0 lat acc st load good_load=0 bad="" step
  read -r t0 acc st <<<"$(point "$sim" "$2" "$3" 0.005 "$(seed_of "$sim" 1)")"
  for step in 0.02 0.005; do
    load=$(awk -v a="$good_load" -v s="$step" 'BEGIN { printf "%.3f", a + s }')
    while [ -z "$bad" ] || awk -v l="$load" -v b="$bad" 'BEGIN { exit !(l < b - 1e-9) }'; do
      read -r lat acc st <<<"$(point "$sim" "$2" "$3" "$load" "$(seed_of "$sim" 1)")"
      if good "$lat" "$st" "$t0"; then good_load=$load; else bad=$load; break; fi
      load=$(awk -v a="$load" -v s="$step" 'BEGIN { printf "%.3f", a + s }')
      awk -v l="$load" 'BEGIN { exit !(l > 1.0) }' && break
    done
  done
  echo "$t0 $good_load"
}

{
  echo "# Switchyard and BookSim2 on the new topologies"
  echo
  echo "Generated by \`bash tb/peers/booksim_topologies.sh BOOKSIM2-CHECKOUT\` (BookSim2 commit"
  echo "\`${BS_COMMIT:0:12}\`). Realistic mode: the staged input-VC router (router.pipeline), matched"
  echo "to BookSim2's iq_router as the script's header says. Saturation: the highest offered load"
  echo "(flits/terminal/cycle, steps of 0.005) whose run is stable with latency at most 3x the"
  echo "zero-load latency. Latency and accepted throughput near saturation (within 0.03) and at"
  echo "1.5x saturation are means of two seeds."
  echo
  echo "| case | what | zero-load latency BookSim2 / Switchyard (diff) | saturation BookSim2 / Switchyard (diff) | accepted at 1.5x sat. BookSim2 / Switchyard (diff) |"
  echo "|---|---|---|---|---|"
} > "$OUT/table.md"

case_row() {  # NAME BKEYS SKEYS WHAT -> the case's table row in $OUT/rows/NAME.md
  local name=$1 bkeys=$2 skeys=$3 what=$4 bt0 bsat st0=nan ssat l over bacc sacc
  read -r bt0 bsat <<<"$(sweep booksim "$name" "$bkeys")"
  ssat=$bsat
  [ "$ONLY" = booksim ] || read -r st0 ssat <<<"$(sweep switchyard "$name" "$skeys")"
  # Second seeds near the knee, and 1.5x saturation (of BookSim2's, the same load on both).
  over=$(awk -v s="$bsat" 'BEGIN { printf "%.3f", 1.5 * s }')
  acc2() {  # SIM KEYS LOAD -> mean accepted of two seeds
    local a1 a2 x
    read -r x a1 x <<<"$(point "$1" "$name" "$2" "$3" "$(seed_of "$1" 1)")"
    read -r x a2 x <<<"$(point "$1" "$name" "$2" "$3" "$(seed_of "$1" 2)")"
    awk -v a="$a1" -v b="$a2" 'BEGIN { printf "%.4f", (a + b) / 2 }'
  }
  for l in $(awk -v b="$bsat" -v s="$ssat" 'BEGIN { lo = (b < s ? b : s) - 0.03; hi = (b > s ? b : s); for (x = lo; x <= hi + 1e-9; x += 0.005) if (x > 0) printf "%.3f\n", x }'); do
    point booksim "$name" "$bkeys" "$l" "$(seed_of booksim 2)" >/dev/null
    [ "$ONLY" = booksim ] || point switchyard "$name" "$skeys" "$l" "$(seed_of switchyard 2)" >/dev/null
  done
  bacc=$(acc2 booksim "$bkeys" "$over")
  [ "$ONLY" = booksim ] && return
  sacc=$(acc2 switchyard "$skeys" "$over")
  awk -v n="$name" -v w="$what" -v bt="$bt0" -v st="$st0" -v bs="$bsat" -v ss="$ssat" \
      -v ba="$bacc" -v sa="$sacc" -v o="$over" 'BEGIN {
    printf "| %s | %s | %.2f / %.2f (%+.2f cycles) | %.3f / %.3f (%+.1f%%) | %.4f / %.4f at %.3f (%+.1f%%) |\n",
      n, w, bt, st, st - bt, bs, ss, 100 * (ss - bs) / bs, ba, sa, o, 100 * (sa - ba) / ba }' > "$OUT/rows/$name.md"
}

# The cases, JOBS at a time (each case's points one after another; default 1).
rm -rf "$OUT/rows" && mkdir -p "$OUT/rows"
running=0
while IFS='|' read -r name bkeys skeys what; do
  [ -n "$name" ] || continue
  case_row "$name" "$bkeys" "$skeys" "$what" &
  running=$((running + 1))
  if [ "$running" -ge "${JOBS:-1}" ]; then wait -n || true; running=$((running - 1)); fi
done <<<"$CASES"
wait
[ "$ONLY" = booksim ] && { echo "booksim_topologies: BookSim2's points are in $RUNS" >&2; exit 0; }
while IFS='|' read -r name bkeys skeys what; do
  [ -n "$name" ] && cat "$OUT/rows/$name.md" >> "$OUT/table.md"
done <<<"$CASES"
{
  echo
  echo "Every run (simulator, case, offered load, seed, latency, accepted, stable):"
  echo
  echo '```'
  awk -F, -v OFS=, 'NR == FNR { names[$1 "," $3] = names[$1 "," $3] " " $2; next }
    FNR > 1 && (($1 "," $3) in names) {
      n = split(names[$1 "," $3], c, " ")
      for (i = 1; i <= n; ++i) print $1, c[i], $4, $5, $6, $7, $8 }' "$USED" "$RUNS" |
    sort -t, -k1,1 -k2,2 -k3,3n -k4,4n -u
  echo '```'
} >> "$OUT/table.md"
if [ "$CASES" = "$ALL_CASES" ]; then
  cp "$OUT/table.md" "$FIG/booksim_topologies.md"
  echo "booksim_topologies: $FIG/booksim_topologies.md" >&2
else   # a subset of the cases: the docs table keeps every case, so it is written by a full run only
  cat "$OUT/table.md"
  echo "booksim_topologies: $OUT/table.md (the cases asked for; docs/figures/booksim_topologies.md is written by a call without cases)" >&2
fi
