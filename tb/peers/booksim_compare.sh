#!/usr/bin/env bash
# Side-by-side of Switchyard's staged input-VC router and BookSim2's iq_router (issue 13 §3).
#
#   bash tb/peers/booksim_compare.sh PATH-TO-BOOKSIM2-CHECKOUT [--quick] [--only booksim|switchyard]
#   bash tb/peers/booksim_compare.sh PATH-TO-BOOKSIM2-CHECKOUT --copies-only   # the patched copies
#
# Not run in CI and fetches nothing: give it a BookSim2 checkout (github.com/booksim/booksim2).
# It builds BookSim2 there (make in src/; needs flex, bison, g++) if src/booksim is missing, and
# Switchyard (bash tb/build.sh) if build/switchyard is missing; SWITCHYARD=path uses that binary.
# Copies of the checkout with routefunc.cpp changed are built under out/booksim_compare/ (the
# torus Valiant fix and the diagnosis series, see patch_routefunc); the checkout is not changed.
#
# Matched configurations (docs/design.md, "Switchyard and BookSim2"): 8x8 torus and 8x8 mesh,
# input-VC wormhole routers, 4-flit VCs, 8-flit packets, Bernoulli sources, uniform traffic
# (the source itself included, as BookSim2 draws it), offered load in flits/node/cycle on both
# (BookSim2: injection_rate_uses_flits = 1), 1-cycle stages RC, VA, SA, ST and 1-cycle links
# (BookSim2: use_noc_latency = 0; its default gives the torus 2-cycle links), separable
# input-first VC and switch allocators, 1 iteration, no speculation, a credit usable 2 cycles
# after its flit left the buffer (BookSim2: credit_delay 0 after a 1-cycle credit channel;
# Switchyard: router.pipeline.credit_delay 2), a VC reallocated only when its tail credit is
# back (BookSim2: wait_for_tail_credit 1; Switchyard has only this). Latency on both: creation
# of the packet -> its tail delivered, source queueing included (BookSim2 "Packet latency
# average", Switchyard latency.mean).
#
# Series: booksim and switchyard are the matched pair (flags in the .md); booksim_wtc0 is
# BookSim2 with its default wait_for_tail_credit 0, switchyard_cd1 Switchyard with
# credit_delay 1 (configs/router_5stage.yaml), to show what those two settings are worth;
# booksim_diag is BookSim2 with its routing changed where it differs from Switchyard's
# (below, patch_routefunc), to show that those differences explain the gaps.
#
# For each case and simulator: the zero-load latency (offered 0.005 over a long window), then
# offered 0.05, 0.10, ... until a run is unstable or its latency passes 3x the zero-load latency,
# then (unless --quick) the loads in between in steps of 0.01. Saturation = the highest offered
# load whose run is stable with latency <= 3 x zero-load (the same rule for both simulators).
#
# Each run is one process, one at a time. Runs are cached in
#   docs/figures/booksim_compare_runs.csv   (simulator, case, load, settings key -> results)
# so a second call reruns nothing that is already there (delete rows to redo them). Output:
#   docs/figures/booksim_compare.csv  .md  .png   (tb/peers/booksim_compare.py)
# and then runs tb/peers/booksim_topologies.sh (the new topologies, 30,000-cycle windows and two
# seeds near the knee) into docs/figures/booksim_topologies.md.
set -euo pipefail

usage() { sed -n '3,7p' "$0" >&2; exit 1; }
[ $# -ge 1 ] || usage
BS_DIR=$(cd "$1" && pwd); shift
QUICK=0; ONLY=""; COPIES_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --only) ONLY=${2:?}; shift ;;
    --copies-only) COPIES_ONLY=1 ;;
    *) usage ;;
  esac
  shift
done

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
OUT=$ROOT/out/booksim_compare
FIG=$ROOT/docs/figures
RUNS=$FIG/booksim_compare_runs.csv
mkdir -p "$OUT" "$FIG"
[ -f "$RUNS" ] || echo "simulator,case,load,key,latency,accepted,stable,cycles" > "$RUNS"

# ---------------------------------------------------------------- the cases
# name | topology | BookSim2 routing_function | Switchyard routing.algorithm | VCs
# BookSim2 needs 4 VCs for min_adapt and valiant on the torus (its min_adapt_torus puts the
# adaptive class on VC 3 alone; valiant_torus splits the VCs by phase x dateline).
CASES="
torus_dor_2vc      torus dim_order dimension_order  2
torus_minadapt_4vc torus min_adapt minimal_adaptive 4
torus_valiant_4vc  torus valiant   valiant          4
mesh_dor_2vc       mesh  dim_order dimension_order  2
mesh_minadapt_2vc  mesh  min_adapt minimal_adaptive 2
mesh_valiant_2vc   mesh  valiant   valiant          2
mesh_minadapt_4vc  mesh  min_adapt minimal_adaptive 4
"
ZERO_LOAD=0.005

# ---------------------------------------------------------------- BookSim2
BS=$BS_DIR/src/booksim
BS_COMMIT=$(git -C "$BS_DIR" rev-parse HEAD 2>/dev/null || echo unknown)
build_booksim() {
  [ -x "$BS" ] && return
  for t in flex bison g++ make; do
    command -v $t >/dev/null || { echo "booksim_compare: BookSim2 needs $t (apt-get install flex bison g++ make)" >&2; exit 1; }
  done
  echo "booksim_compare: building BookSim2 in $BS_DIR/src" >&2
  make -C "$BS_DIR/src" >"$OUT/booksim_build.log" 2>&1 || { tail -20 "$OUT/booksim_build.log" >&2; exit 1; }
}

# Copies of the checkout with routefunc.cpp changed (out/booksim_compare/booksim2-<name>; cp -a
# keeps the objects, so only routefunc.o is rebuilt). Every copy gets the first fix:
# - BookSim2's valiant_torus declares `int ring_part;` and passes it to dor_next_torus, which
#   sets it only when the packet turns into a new dimension: going straight it stays
#   uninitialised and the run aborts on `assert(ring_part == 1)`. It starts here as the
#   partition the packet already has, f->ph % 2 (f->ph = 2 * phase + ring partition).
# The "diag" copies change BookSim2's routing where it differs from Switchyard's (docs/design.md,
# "Where the two differ, and why"), to show that these differences are the whole gap:
# - dateline: the classic dateline classes (class 1 from the wraparound hop on, as Switchyard)
#   instead of BookSim2's class per ring traversal: dor_next_torus is renamed and wrapped; and
#   valiant_mesh / valiant_torus keep a phase-0 packet on the phase-0 VCs when it passes its
#   own destination (BookSim2 lets it take any VC there, "at the destination router, we don't
#   need to separate VCs", which breaks the phase order and can deadlock);
# - adaptive: min_adapt_* offer the adaptive VCs from the escape VCs too (BookSim2 keeps a packet
#   on the escape VCs once it took one), min_adapt_torus adapts on VCs 2.. (BookSim2: VC 3)
#   and both ways at exactly k/2 (BookSim2: left only), and OutputSet keeps candidates of equal
#   priority (BookSim2 keeps the first: its "minimal adaptive" offers one adaptive direction).
patch_routefunc() {  # FILE KIND
  local f=$1
  sed -i '0,/int ring_part;/s//int ring_part = f->ph % 2; \/\/ tb\/peers: was uninitialised/' "$f"
  case $2 in
    dateline)
      sed -i 's/^void dor_next_torus( int cur, int dest, int in_port,$/static void dor_next_torus_booksim( int cur, int dest, int in_port,/' "$f"
      cat >>"$f" <<'CPP'

// tb/peers/booksim_compare.sh: the classic dateline classes around BookSim2's dor_next_torus.
void dor_next_torus( int cur, int dest, int in_port, int *out_port, int *partition, bool balance )
{
  dor_next_torus_booksim( cur, dest, in_port, out_port, partition, balance );
  if ( !partition || balance || *out_port == 2 * gN ) return;
  int const dim = *out_port / 2;
  int c = cur;
  for ( int i = 0; i < dim; ++i ) c /= gK;
  c %= gK;
  bool const wrap_hop = ( *out_port % 2 == 0 ) ? ( c == gK - 1 ) : ( c == 0 );
  if ( in_port / 2 != dim ) *partition = wrap_hop ? 1 : 0;   // entering the ring
  else if ( wrap_hop ) *partition = 1;                       // going straight over the wrap
}
CPP
      sed -i '/^void valiant_mesh(/,/^}/ s/if(r->GetID() != f->dest) {/if((r->GetID() != f->dest) || (f->ph == 0)) { \/\/ tb\/peers: phase 0 too/' "$f"
      sed -i '/^void valiant_torus(/,/^}/ s/if(r->GetID() != f->dest) {/if((r->GetID() != f->dest) || (phase == 0)) { \/\/ tb\/peers: phase 0 too/' "$f"
      # the definition is used before the wrapper: declare the wrapper at the top
      sed -i '0,/^int gNumVCs;/s//int gNumVCs;\nvoid dor_next_torus( int cur, int dest, int in_port, int *out_port, int *partition, bool balance = false );/' "$f"
      ;;
    adaptive)
      sed -i 's/if ( in_vc != vcBegin ) {/if ( true ) { \/\/ tb\/peers: was in_vc != vcBegin/' "$f"
      sed -i 's/if ( in_vc > ( vcBegin + 1 ) ) {/if ( true ) { \/\/ tb\/peers: was in_vc > vcBegin + 1/' "$f"
      sed -i 's/AddRange( \(2\*n\( + 1\)\?\), vcBegin+3, vcBegin+3, 1 )/AddRange( \1, vcBegin+2, vcEnd, 1 )/' "$f"
      # ... and both ways at exactly k/2 (BookSim2: left only); and an OutputSet keeps every
      # candidate: BookSim2's orders its std::set by priority alone, so of several candidates
      # with the same priority only the first inserted survives (min_adapt_* then offer one
      # adaptive direction, the lowest unresolved dimension's, not every productive one)
      # (min_adapt_torus then needs the return after its ejection candidates that
      # min_adapt_mesh has: the escape's ejection candidate repeats one of their VCs)
      sed -i '/^void min_adapt_torus(/,/^}/ s|outputs->AddRange(2\*gN, vcBegin, vcEnd);|\0 return; // tb/peers: as in min_adapt_mesh|' "$f"
      sed -i 's|return se1.pri > se2.pri; // higher priorities first!|if ( se1.pri != se2.pri ) return se1.pri > se2.pri; // tb/peers: every candidate kept\n  if ( se1.output_port != se2.output_port ) return se1.output_port < se2.output_port;\n  return se1.vc_start < se2.vc_start;|' "$(dirname "$f")/outputset.hpp"
      sed -i '/^void min_adapt_torus(/,/^}/ s/if ( dist2 > 0 ) {/if ( dist2 == 0 ) outputs->AddRange( 2*n + 1, vcBegin+2, vcEnd, 1 ); \/\/ tb\/peers: both ways at k\/2\n\tif ( dist2 >= 0 ) {/' "$f"
      ;;
  esac
}
patched() {  # FILE KIND -> exit 0 when every change of KIND is in FILE
  grep -q 'int ring_part = f->ph % 2;' "$1" || return 1
  case $2 in
    dateline) [ "$(grep -c 'dor_next_torus_booksim' "$1")" -ge 2 ] &&
              [ "$(grep -c 'tb/peers: phase 0 too' "$1")" -eq 2 ] &&
              [ "$(grep -c '^void dor_next_torus( int cur, int dest, int in_port, int \*out_port' "$1")" -ge 2 ] ;;
    adaptive) [ "$(grep -c 'if ( true ) { // tb/peers' "$1")" -eq 2 ] &&
              grep -q 'both ways at k/2' "$1" && grep -q 'as in min_adapt_mesh' "$1" &&
              grep -q 'tb/peers: every candidate kept' "$(dirname "$1")/outputset.hpp" &&
              [ "$(grep -c 'vcBegin+2, vcEnd, 1 )' "$1")" -ge 2 ] ;;
  esac
}
booksim_copy() {  # NAME -> path of its binary; builds the copy once (call it outside $(...) first)
  local dir=$OUT/booksim2-$1
  if [ ! -f "$dir/built" ]; then
    rm -rf "$dir" && mkdir -p "$dir" && cp -a "$BS_DIR/src" "$dir/src" && rm -f "$dir/src/booksim"
    patch_routefunc "$dir/src/routefunc.cpp" "$1"
    patched "$dir/src/routefunc.cpp" "$1" ||
      { echo "booksim_compare: could not patch $dir/src/routefunc.cpp" >&2; exit 1; }
    make -C "$dir/src" >"$dir/build.log" 2>&1 || { tail -20 "$dir/build.log" >&2; exit 1; }
    touch "$dir/built"
  fi
  echo "$dir/src/booksim"
}
# booksim_binary SERIES TOPO ROUTING -> the binary, or nothing (no diagnostic run for the case)
booksim_binary() {
  if [ "$1" = booksim_diag ]; then
    case $2:$3 in
      torus:dim_order | *:valiant) booksim_copy dateline ;;
      *:min_adapt) booksim_copy adaptive ;;
    esac
  elif [ "$2:$3" = torus:valiant ]; then
    booksim_copy fixed
  else
    echo "$BS"
  fi
}

if [ "$COPIES_ONLY" = 1 ]; then   # (booksim_topologies.sh runs the torus Valiant case on "fixed")
  build_booksim
  for copy in fixed dateline adaptive; do booksim_copy $copy >/dev/null; done
  exit 0
fi

cat > "$OUT/booksim_base.cfg" <<'EOF'
// written by tb/peers/booksim_compare.sh; per-case keys are given on the command line
k = 8;
n = 2;
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
packet_size = 8;
traffic = uniform;
injection_process = bernoulli;
injection_rate_uses_flits = 1;
sim_type = latency;
warmup_periods = 3;
max_samples = 10;
seed = 0;
EOF

# booksim_point CASE TOPO ROUTING VCS LOAD SAMPLE_PERIOD WAIT_FOR_TAIL_CREDIT SERIES
#   -> "latency accepted stable cycles"
booksim_point() {
  local log=$OUT/$8_$1_$5.txt
  # BookSim2 loops forever on a deadlock (its min_adapt_torus can hang while draining after an
  # overloaded run): a run that takes longer than BOOKSIM_TIMEOUT seconds counts as not stable
  timeout "${BOOKSIM_TIMEOUT:-120}" "$(booksim_binary "$8" "$2" "$3")" "$OUT/booksim_base.cfg" topology="$2" routing_function="$3" num_vcs="$4" \
    injection_rate="$5" sample_period="$6" wait_for_tail_credit="$7" </dev/null >"$log" 2>&1 || true   # booksim exits 255 on success
  awk '
    /Simulation unstable/ { unstable = 1 }
    /Accepted flit rate average=/ { acc = $NF }               # per-period lines
    /Overall Traffic Statistics/ { overall = 1 }
    /^Time taken is/ { cycles = $4 }
    overall && /^Packet latency average =/ { lat = $5 }
    overall && /^Accepted flit rate average =/ { acc = $6 }
    END {
      if (unstable || lat == "") print "nan", (acc == "" ? "nan" : acc), "false", cycles + 0
      else print lat, acc, "true", cycles
    }' "$log"
}

# ---------------------------------------------------------------- Switchyard
SY=${SWITCHYARD:-$ROOT/build/switchyard}
build_switchyard() {
  [ -x "$SY" ] && return
  echo "booksim_compare: building Switchyard (tb/build.sh)" >&2
  bash tb/build.sh
}

cat > "$OUT/switchyard_base.yaml" <<'EOF'
# written by tb/peers/booksim_compare.sh; per-case keys are given with --set
name: booksim_compare
topology: {type: torus, dims: [8, 8]}
router:
  buffering: input_vc
  switching: wormhole
  vcs: 2
  vc_depth: 4
  arbitration: round_robin
  pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1, credit_delay: 2, speculative: false, ejection_ports: 1}
timing: {alpha: 0, tau: 1}
routing: {algorithm: dimension_order}
traffic: {process: bernoulli, rate: 0.1, rate_unit: flits, packet_flits: 8, pattern: uniform,
          self: through_router}
simulation: {warmup: 3000, measure: 10000, seed: 1}
EOF

# switchyard_point CASE TOPO ALGORITHM VCS LOAD MEASURE CREDIT_DELAY
#   -> "latency accepted stable cycles"
#   (CREDIT_DELAY with a w appended, e.g. 2w: also router.wait_for_tail_credit false)
switchyard_point() {
  local dir=$OUT/sy_cd$7_$1_$5 wtc=true
  [[ $7 == *w ]] && wtc=false
  "$SY" run "$OUT/switchyard_base.yaml" --quiet --out "$dir" --set topology.type="$2" \
    --set routing.algorithm="$3" --set router.vcs="$4" --set traffic.rate="$5" \
    --set simulation.measure="$6" --set router.pipeline.credit_delay="${7%w}" \
    --set router.wait_for_tail_credit=$wtc </dev/null >"$dir.log" 2>&1 || true      # exit 3 = not stable
  /usr/bin/python3 - "$dir/results.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("nan nan false 0"); sys.exit()
lat = r.get("latency", {})
print(lat.get("mean", "nan"), r.get("throughput", {}).get("accepted", "nan"),
      "true" if r.get("stable") else "false", r.get("cycles", 0))
PY
}

# ---------------------------------------------------------------- the sweep (both simulators)
# point SERIES CASE TOPO ROUTING VCS LOAD LONG -> "latency accepted stable cycles" (cached)
# SERIES: booksim (wait_for_tail_credit 1), booksim_wtc0, switchyard (credit_delay 2),
# switchyard_cd1, switchyard_wtc0 (wait_for_tail_credit false, against booksim_wtc0)
point() {
  local sim=$1 case=$2 load=$6 long=$7 key window res run variant
  case $sim in
    booksim) run=booksim_point variant=1 ;;
    booksim_wtc0) run=booksim_point variant=0 ;;
    booksim_diag) run=booksim_point variant=1 ;;
    switchyard) run=switchyard_point variant=2 ;;
    switchyard_cd1) run=switchyard_point variant=1 ;;
    switchyard_wtc0) run=switchyard_point variant=2w ;;
  esac
  if [ "$run" = booksim_point ]; then
    window=$([ "$long" = 1 ] && echo 20000 || echo 1000)
    key="bs-${BS_COMMIT:0:12}-$(md5sum <"$OUT/booksim_base.cfg" | cut -c1-8)-p$window-wtc$variant"
    [ "$3:$4" = torus:valiant ] && key="$key-fix"
    [ "$sim" = booksim_diag ] && key="$key-diag"
  else
    window=$([ "$long" = 1 ] && echo 100000 || echo 10000)
    key="sy-$(md5sum <"$OUT/switchyard_base.yaml" | cut -c1-8)-m$window-cd$variant"
  fi
  res=$(awk -F, -v s="$sim" -v c="$case" -v l="$load" -v k="$key" \
        '$1 == s && $2 == c && $3 + 0 == l + 0 && $4 == k { print $5, $6, $7, $8; exit }' "$RUNS")
  if [ -z "$res" ]; then
    res=$($run "$case" "$3" "$4" "$5" "$load" "$window" "$variant" "$sim")
    echo "$sim,$case,$load,$key,$(echo "$res" | tr ' ' ',')" >> "$RUNS"
    echo "  $sim $case load $load: latency accepted stable cycles = $res" >&2
  fi
  echo "$res"
}

# good LATENCY STABLE T0 -> exit 0 when the point is below saturation
good() { awk -v l="$1" -v s="$2" -v t="$3" 'BEGIN { exit !(s == "true" && l != "nan" && l <= 3 * t) }'; }

sweep() {  # SIM CASE TOPO ROUTING VCS
  local sim=$1 t0 lat acc st n i load last_good=0 first_bad=""
  read -r t0 acc st n <<<"$(point "$@" $ZERO_LOAD 1)"
  for i in $(seq 1 20); do                       # 0.05 .. 1.00
    load=$(awk -v i="$i" 'BEGIN { printf "%.2f", 0.05 * i }')
    read -r lat acc st n <<<"$(point "$@" "$load" 0)"
    if good "$lat" "$st" "$t0"; then last_good=$load; else first_bad=$load; break; fi
  done
  [ "$QUICK" = 1 ] || [ -z "$first_bad" ] && return
  load=$(awk -v a="$last_good" 'BEGIN { printf "%.2f", a + 0.01 }')
  while awk -v l="$load" -v b="$first_bad" 'BEGIN { exit !(l < b - 0.001) }'; do
    read -r lat acc st n <<<"$(point "$@" "$load" 0)"
    good "$lat" "$st" "$t0" || break
    load=$(awk -v a="$load" 'BEGIN { printf "%.2f", a + 0.01 }')
  done
}

if [ "$ONLY" != switchyard ]; then
  build_booksim
  for copy in fixed dateline adaptive; do booksim_copy $copy >/dev/null; done
  echo "booksim_compare: BookSim2 $BS_COMMIT" >&2
  for series in booksim booksim_wtc0 booksim_diag; do
    while read -r name topo bsr syr vcs; do
      [ -n "$name" ] && [ -n "$(booksim_binary $series "$topo" "$bsr")" ] &&
        sweep $series "$name" "$topo" "$bsr" "$vcs"
    done <<<"$CASES"
  done
fi
if [ "$ONLY" != booksim ]; then
  build_switchyard
  for series in switchyard switchyard_cd1 switchyard_wtc0; do
    while read -r name topo bsr syr vcs; do
      [ -n "$name" ] && sweep $series "$name" "$topo" "$syr" "$vcs"
    done <<<"$CASES"
  done
fi

/usr/bin/python3 tb/peers/booksim_compare.py "$RUNS" --cases "$CASES" --booksim-commit "$BS_COMMIT" \
  --zero-load $ZERO_LOAD --out "$FIG/booksim_compare"

# The topologies beyond meshes and tori (cmesh, fat tree, dragonfly, flattened butterfly, anynet)
# and the 8x8 mesh again with 30,000-cycle windows and two seeds at every point near the knee:
# tb/peers/booksim_topologies.sh, the same matched router (docs/figures/booksim_topologies.md).
# (--quick and --only leave it out.)
if [ "$QUICK" = 0 ] && [ -z "$ONLY" ]; then
  SWITCHYARD=$SY bash tb/peers/booksim_topologies.sh "$BS_DIR"
fi
