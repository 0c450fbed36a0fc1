#!/usr/bin/env bash
# rtl_waves_check.sh BIN CONFIG NODE [--set k=v ...]: the waves of an RTL router's insides
# (waves.rtl_nodes). Runs CONFIG (router.model: rtl, with what --set adds) twice with
# SWITCHYARD_HOP_LOG, without waves and with waves.rtl_nodes=[NODE] (waves.file w/net.vcd in both),
# and checks:
#  - the hop logs and results.json (less the wall time) are identical: tracing changes nothing;
#  - rtl_<NODE>.vcd and rtl_<NODE>.gtkw are beside waves.file; the VCD's time unit is 1 ns (a
#    cycle, as the network's VCD) and it has the router's ports, VC states, allocator grants and
#    credit counters; the save file shows them;
#  - its times are the network's cycles: the samples increase, and the switch grants the VCD
#    shows (sw_valid_o at sample c: flits that won the switch in c - 1, at the next router or
#    NI at c + 2) are exactly the router's hops in the hop log (arrival a, output port p:
#    sw_valid_o bit p at a - 2), both ways.
# Exit 0: all hold; 1: "MISMATCH" with what failed; 2: a run failed.
set -u
bin=$1 config=$2 node=$3
shift 3
dir=$(mktemp -d /tmp/sy-rtl-waves.XXXXXX)
trap 'rm -rf "$dir"' EXIT
SWITCHYARD_HOP_LOG=$dir/off.hops "$bin" run "$config" --quiet --accept-unstable --out "$dir/off" \
  --set router.model=rtl "$@" --set waves.file=w/net.vcd ||
  { echo "rtl_waves_check: the run without waves failed" >&2; exit 2; }
SWITCHYARD_HOP_LOG=$dir/on.hops "$bin" run "$config" --quiet --accept-unstable --out "$dir/on" \
  --set router.model=rtl "$@" --set "waves.rtl_nodes=[$node]" --set waves.file=w/net.vcd ||
  { echo "rtl_waves_check: the run with waves failed" >&2; exit 2; }
if ! cmp -s "$dir/off.hops" "$dir/on.hops"; then
  echo "MISMATCH rtl_waves_check: the hop logs differ with waves on"
  diff "$dir/off.hops" "$dir/on.hops" | head -6
  exit 1
fi
strip() { grep -v -e '"wall_seconds"' "$1"; }
if ! diff <(strip "$dir/off/results.json") <(strip "$dir/on/results.json") > "$dir/r.diff"; then
  echo "MISMATCH rtl_waves_check: results.json differs with waves on:"
  head -20 "$dir/r.diff"
  exit 1
fi
vcd=$dir/on/w/rtl_$node.vcd
gtkw=$dir/on/w/rtl_$node.gtkw
for f in "$vcd" "$gtkw"; do
  [ -s "$f" ] || { echo "MISMATCH rtl_waves_check: no $f"; exit 1; }
done
python3 - "$vcd" "$gtkw" "$dir/on.hops" "$node" <<'EOF' || exit 1
import re, sys
vcd, gtkw, hops, node = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def fail(msg):
    print("MISMATCH rtl_waves_check:", msg)
    sys.exit(1)
text = open(vcd).read()
head, _, body = text.partition("$enddefinitions")
if not re.search(r"\$timescale\s+1\s*ns\s+\$end", head):
    fail("the VCD's timescale is not 1 ns: " + head[:200])
# The variables: scope path, name, id.
scope, ids, names = [], {}, set()
for line in head.split("\n"):
    tok = line.split()
    if not tok:
        continue
    kind, rest = tok[0], tok[1:]
    if kind == "$scope":
        scope.append(rest[1])
    elif kind == "$upscope":
        scope.pop()
    elif kind == "$var":
        name = rest[3]
        names.add(name.split("[")[0])
        ids.setdefault(".".join(scope + [name]), rest[2])
for want in ["clk_i", "in_valid_i", "sw_valid_o", "cr_in_valid_i", "cr_out_valid_o",
             "vc_state_q", "cred_q", "va_gnt", "out_gnt"]:
    if want not in names:
        fail("the VCD has no " + want)
sw = [k for k in ids if k.endswith(".sw_valid_o")]
sw.sort(key=len)  # (the top module's port: the shortest path)
sw_id = ids[sw[0]]
# The samples, and sw_valid_o at each.
times, cur, at = [], None, {}
for line in body.split("\n"):
    line = line.strip()
    if not line:
        continue
    if line[0] == "#":
        t = int(line[1:])
        if times and t <= times[-1]:
            fail("times do not increase: %d after %d" % (t, times[-1]))
        times.append(t)
    elif line[0] == "b":
        val, ident = line[1:].split()
        if ident == sw_id:
            cur = int(val.replace("x", "0").replace("z", "0"), 2)
    elif line[0] in "01xz" and line[1:] == sw_id:
        cur = 1 if line[0] == "1" else 0
    if times:
        at[times[-1]] = cur or 0
got = {(t, p) for t, v in at.items() for p in range(64) if v >> p & 1}
sent = set()
for line in open(hops):
    a, r, p = (int(x) for x in line.split()[:3])
    if r == node:
        sent.add((a - 2, p))
if not sent:
    fail("router %d sent nothing: the check needs traffic through it" % node)
if got != sent:
    fail("the VCD's switch grants are not the hop log's: %d in the VCD, %d in the log; "
         "first only in the VCD %s, only in the log %s"
         % (len(got), len(sent), sorted(got - sent)[:3], sorted(sent - got)[:3]))
g = open(gtkw).read()
for want in ["rtl_%d.vcd" % node, ".sw_valid_o", ".vc_state_q", ".cred_q", ".va_gnt"]:
    if want not in g:
        fail("the save file shows no " + want)
print("rtl_waves_check: %d samples, cycles %d..%d; %d switch grants match the hop log"
      % (len(times), times[0], times[-1], len(sent)))
EOF
echo "rtl_waves_check: results and hops identical with waves of router $node"
