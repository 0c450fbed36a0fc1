#!/usr/bin/env bash
# Side by side: Switchyard's energy, power and area models (models/power/power_model.*) and
# DSENT's (C. Sun et al., NOCS 2012) for the routers and link of issue 30 (docs/power_dsent.md).
#
#   DSENT=path/to/dsent DSENT_SRC=path/to/dsent-source bash tb/peers/dsent_compare.sh
#
# Not run in CI; fetches and builds nothing. DSENT: a DSENT 0.91 binary taking
# `-cfg FILE -overwrite "K = V; ..."` (MIT's release, or gem5's ext/dsent built standalone).
# DSENT_SRC: its source tree, with configs/router.cfg, configs/electrical-link.cfg and
# tech/tech_models/Bulk{45,22}LVT.model. POWER_TABLE: our models' driver (default
# build/power_table: cmake --build build --target power_table).
#
# Cases: a 5-port router (5 in, 5 out, 1 GHz, 128-bit flits, 1 virtual network of 2, 4 and 8
# VCs of 4 flits; DSENT's shipped router.cfg otherwise: flip-flop RAM buffers, multiplexer
# crossbar, matrix-arbiter switch allocator, 5-level H-tree clock) and a 1 mm, 128-bit link
# (shipped electrical-link.cfg: global layer, delay 1 ns), in DSENT's Bulk45LVT and Bulk22LVT
# against our 45nm and 22nm. Ours: --crossbar mux (DSENT's kind), the clock less our VC
# allocator's and credit counters' share (clock_va, clock_unit_va: DSENT's router has neither), the
# allocators' switch allocator only (sa_unit).
#
# Prints one markdown table (case, unit class, DSENT, Switchyard, difference %) on stdout.
set -euo pipefail
: "${DSENT:?DSENT=path to the dsent binary}"
: "${DSENT_SRC:?DSENT_SRC=path to the DSENT source tree (configs/, tech/tech_models/)}"
cd "$(dirname "$0")/../.."
POWER_TABLE=${POWER_TABLE:-build/power_table}
[ -x "$POWER_TABLE" ] || { echo "no $POWER_TABLE: cmake --build build --target power_table" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# dsent_q CFG OVERWRITES QUERY...: each query's value (SI units), one per line, in order.
dsent_q() {
  local cfg=$1 ow=$2; shift 2
  "$DSENT" -cfg "$cfg" -overwrite "$ow; EvaluateString = ; QueryString = $*" > "$TMP/out" 2>&1 ||
    { cat "$TMP/out" >&2; exit 1; }
  local q
  for q in "$@"; do
    awk -v k="${q%@0}" '$1 == k && $2 == "=" { print $3; found = 1; exit } END { if (!found) exit 1 }' \
      "$TMP/out" || { echo "DSENT printed no $q" >&2; cat "$TMP/out" >&2; exit 1; }
  done
}

# ours TECH ARGS...: power_table's `key value` pairs.
ours() { "$POWER_TABLE" "$@" | awk '!/^#/ { print $1, $2 }'; }
get() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

row() {  # case, class, unit, dsent, ours
  awk -v c="$1" -v u="$2" -v un="$3" -v d="$4" -v o="$5" 'BEGIN {
    printf "| %s | %s | %s | %.4g | %.4g | %+.1f |\n", c, u, un, d, o, (o - d) / d * 100 }'
}

echo "| Case | Unit class | Unit | DSENT | Switchyard | Difference % |"
echo "|---|---|---|---:|---:|---:|"
for pair in "45nm Bulk45LVT" "22nm Bulk22LVT"; do
  set -- $pair
  ours_tech=$1 model="$DSENT_SRC/tech/tech_models/$2.model"
  for v in 2 4 8; do
    case="$ours_tech router, $v VCs"
    ow="ElectricalTechModelFilename = $model; NumberBitsPerFlit = 128; NumberVirtualNetworks = 1"
    ow="$ow; NumberVirtualChannelsPerVirtualNetwork = [$v]; NumberBuffersPerVirtualChannel = [4]"
    ow="$ow; NumberInputPorts = 5; NumberOutputPorts = 5; Frequency = 1e9"
    mapfile -t d < <(dsent_q "$DSENT_SRC/configs/router.cfg" "$ow" \
      Energy\>\>Router:WriteBuffer@0 Energy\>\>Router:ReadBuffer@0 \
      Energy\>\>Router:TraverseCrossbar-\>Multicast1@0 \
      Energy\>\>Router:ArbitrateSwitch-\>ArbitrateStage1@0 \
      Energy\>\>Router:ArbitrateSwitch-\>ArbitrateStage2@0 Energy\>\>Router:DistributeClock@0 \
      NddPower\>\>Router:Leakage@0 NddPower\>\>Router-\>InputPort:Leakage@0 \
      NddPower\>\>Router-\>PipelineReg0:Leakage@0 NddPower\>\>Router-\>SwitchAllocator:Leakage@0 \
      NddPower\>\>Router-\>ClockTree:Leakage@0 Area\>\>Router:Active@0 \
      Area\>\>Router-\>InputPort:Active@0 Area\>\>Router-\>PipelineReg0:Active@0 \
      Area\>\>Router-\>SwitchAllocator:Active@0 Area\>\>Router-\>ClockTree:Active@0)
    ours "$ours_tech" --in 5 --out 5 --vcs "$v" --depth 4 --bits 128 --ghz 1 --activity 0.5 \
      --crossbar mux --buffer ff > "$TMP/ours"
    o() { get "$1" "$TMP/ours"; }
    pj() { awk -v x="$1" 'BEGIN { print x * 1e12 }'; }  # J -> pJ
    mw() { awk -v x="$1" 'BEGIN { print x * 1e3 }'; }   # W -> mW
    um() { awk -v x="$1" 'BEGIN { print x * 1e12 }'; }  # m^2 -> um^2
    sum() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
    # DSENT's buffers: 5 input ports plus the 2 x 5 x 128 input and read-out register bits.
    l_buf=$(awk -v p="${d[7]}" -v r="${d[8]}" 'BEGIN { print 5 * p + 2 * 5 * 128 * r }')
    a_buf=$(awk -v p="${d[12]}" -v r="${d[13]}" 'BEGIN { print 5 * p + 2 * 5 * 128 * r }')
    l_xb=$(awk -v t="${d[6]}" -v b="$l_buf" -v s="${d[9]}" -v c="${d[10]}" 'BEGIN { print t - b - s - c }')
    a_xb=$(awk -v t="${d[11]}" -v b="$a_buf" -v s="${d[14]}" -v c="${d[15]}" 'BEGIN { print t - b - s - c }')
    row "$case" "buffer write" pJ "$(pj "${d[0]}")" "$(o buffer_write)"
    row "$case" "buffer read" pJ "$(pj "${d[1]}")" "$(o buffer_read)"
    row "$case" "**buffer write + read**" pJ "$(pj "$(sum "${d[0]}" "${d[1]}")")" \
      "$(sum "$(o buffer_write)" "$(o buffer_read)")"
    row "$case" "**crossbar**" pJ "$(pj "${d[2]}")" "$(o crossbar)"
    row "$case" "SA stage 1" pJ "$(pj "${d[3]}")" "$(o sa_stage1)"
    row "$case" "SA stage 2" pJ "$(pj "${d[4]}")" "$(o sa_stage2)"
    row "$case" "**switch allocator (1 + 2)**" pJ "$(pj "$(sum "${d[3]}" "${d[4]}")")" \
      "$(sum "$(o sa_stage1)" "$(o sa_stage2)")"
    row "$case" "**clock (a cycle)**" pJ "$(pj "${d[5]}")" \
      "$(awk -v c="$(o clock)" -v v="$(o clock_va)" 'BEGIN { print c - v }')"
    row "$case" "leakage: buffers" mW "$(mw "$l_buf")" "$(o buffers.leakage)"
    row "$case" "leakage: crossbar" mW "$(mw "$l_xb")" "$(o crossbar_unit.leakage)"
    row "$case" "leakage: switch allocator" mW "$(mw "${d[9]}")" "$(o sa_unit.leakage)"
    # Our clock buffers without the VC allocator's share of the tree (clock_unit_va: the
    # buffers a tree without its registers and area would not have).
    ck_leak=$(awk -v x="$(o clock_unit.leakage)" -v v="$(o clock_unit_va.leakage)" 'BEGIN { print x - v }')
    ck_area=$(awk -v x="$(o clock_unit.area)" -v v="$(o clock_unit_va.area)" 'BEGIN { print x - v }')
    row "$case" "leakage: clock" mW "$(mw "${d[10]}")" "$ck_leak"
    row "$case" "**leakage: total**" mW "$(mw "${d[6]}")" "$(awk -v a="$(o buffers.leakage)" \
      -v b="$(o crossbar_unit.leakage)" -v c="$(o sa_unit.leakage)" -v k="$ck_leak" \
      'BEGIN { print a + b + c + k }')"
    row "$case" "area: buffers" um2 "$(um "$a_buf")" "$(awk -v x="$(o buffers.area)" 'BEGIN { print x * 1e6 }')"
    row "$case" "area: crossbar" um2 "$(um "$a_xb")" "$(awk -v x="$(o crossbar_unit.area)" 'BEGIN { print x * 1e6 }')"
    row "$case" "area: switch allocator" um2 "$(um "${d[14]}")" "$(awk -v x="$(o sa_unit.area)" 'BEGIN { print x * 1e6 }')"
    row "$case" "area: clock" um2 "$(um "${d[15]}")" "$(awk -v x="$ck_area" 'BEGIN { print x * 1e6 }')"
    row "$case" "**area: total**" um2 "$(um "${d[11]}")" "$(awk -v a="$(o buffers.area)" \
      -v b="$(o crossbar_unit.area)" -v c="$(o sa_unit.area)" -v k="$ck_area" \
      'BEGIN { print (a + b + c + k) * 1e6 }')"
  done
  case="$ours_tech link, 1 mm"
  ow="ElectricalTechModelFilename = $model; NumberBits = 128; WireLength = 1e-3; Delay = 1e-9"
  mapfile -t d < <(dsent_q "$DSENT_SRC/configs/electrical-link.cfg" "$ow" \
    Energy\>\>RepeatedLink:Send@0 NddPower\>\>RepeatedLink:Leakage@0 \
    Area\>\>RepeatedLink:Active@0 Area\>\>RepeatedLink:GlobalWire@0)
  ours "$ours_tech" --bits 128 --ghz 1 --activity 0.5 --link 1 > "$TMP/ours"
  row "$case" "**energy a flit**" pJ "$(pj "${d[0]}")" "$(o link.flit)"
  row "$case" "**leakage**" mW "$(mw "${d[1]}")" "$(o link.leakage)"
  row "$case" "**area: repeaters**" um2 "$(um "${d[2]}")" "$(awk -v x="$(o link.area)" 'BEGIN { print x * 1e6 }')"
  row "$case" "area: wires" um2 "$(um "${d[3]}")" "$(awk -v x="$(o link.wire_area)" 'BEGIN { print x * 1e6 }')"
done
