#!/usr/bin/env bash
# rtl_netvcd_check.sh BIN CONFIG NODE [--rtl-nodes LIST] [--set k=v ...]: the network's own VCD
# (waves.enable) with RTL routers, beside the RTL's waves (waves.rtl_nodes). Runs CONFIG three
# times with SWITCHYARD_HOP_LOG: with the C++ router and waves.enable; with router.model rtl (at
# the routers of LIST only with --rtl-nodes: a mixed network), waves.enable and
# waves.rtl_nodes=[NODE]; and with router.model rtl and no waves. Checks:
#  - waves change nothing: the hop logs and results.json (less the wall time and the waves
#    section) of the two RTL runs are identical, and the RTL run's hops are the C++ run's;
#  - the network VCD shows the RTL routers as it shows the C++ ones: every variable of the RTL
#    run's VCD is in the C++ run's, with the same changes at the same times (flits in and out,
#    their packets, VCs, grants, crossbar, VC occupancy, credits, busy bits, the NIs); the C++
#    run's has only the RTL routers' vc_req and sw_req more (requests do not cross the RTL's
#    ports); its save file names only variables the VCD has;
#  - the two VCDs share one time base: at router NODE, a flit on a network output p in the
#    network VCD (out_<p>.pkt set from cycle c, the cycle it won the switch) is sw_valid_o bit p
#    at c + 1 and out_valid_o bit p at c + 2 in rtl_<NODE>.vcd, and a flit starting to arrive on
#    a network input q (in_<q>.valid at c, the cycle the upstream router's switch passed it) is
#    in_valid_i bit q at c + 2 (the cycle before its arrival at c + 3), both ways.
# Exit 0: all hold; 1: "MISMATCH" with what failed; 2: a run failed.
set -u
bin=$1 config=$2 node=$3
shift 3
mixed=()
if [ "${1:-}" = --rtl-nodes ]; then
  mixed=(--set "router.rtl_nodes=$2")
  shift 2
fi
dir=$(mktemp -d /tmp/sy-rtl-netvcd.XXXXXX)
trap 'rm -rf "$dir"' EXIT
SWITCHYARD_HOP_LOG=$dir/cpp.hops "$bin" run "$config" --quiet --accept-unstable --out "$dir/cpp" \
  "$@" --set waves.enable=true --set waves.file=w/net.vcd ||
  { echo "rtl_netvcd_check: the C++ run failed" >&2; exit 2; }
SWITCHYARD_HOP_LOG=$dir/on.hops "$bin" run "$config" --quiet --accept-unstable --out "$dir/on" \
  "$@" --set router.model=rtl "${mixed[@]}" --set waves.enable=true --set waves.file=w/net.vcd \
  --set "waves.rtl_nodes=[$node]" ||
  { echo "rtl_netvcd_check: the RTL run with waves failed" >&2; exit 2; }
SWITCHYARD_HOP_LOG=$dir/off.hops "$bin" run "$config" --quiet --accept-unstable --out "$dir/off" \
  "$@" --set router.model=rtl "${mixed[@]}" ||
  { echo "rtl_netvcd_check: the RTL run without waves failed" >&2; exit 2; }
if ! cmp -s "$dir/off.hops" "$dir/on.hops"; then
  echo "MISMATCH rtl_netvcd_check: the RTL run's hop log differs with waves on"
  diff "$dir/off.hops" "$dir/on.hops" | head -6
  exit 1
fi
if ! cmp -s <(sort "$dir/cpp.hops") <(sort "$dir/on.hops"); then
  echo "MISMATCH rtl_netvcd_check: the RTL run's hops are not the C++ run's"
  exit 1
fi
python3 - "$dir" "$node" <<'EOF' || exit 1
import json, re, sys
d, node = sys.argv[1], int(sys.argv[2])
def fail(msg):
    print("MISMATCH rtl_netvcd_check:", msg)
    sys.exit(1)
def results(path):
    r = json.load(open(path))
    r.pop("wall_seconds", None)
    r.get("config", {}).pop("waves", None)
    r.pop("waves", None)
    return r
a, b = results(d + "/off/results.json"), results(d + "/on/results.json")
if a != b:
    fail("results.json of the RTL run differs with waves on: %s" %
         sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)))

def read_vcd(path):
    """{dotted name: [(time, value)]} (a value as the VCD writes it, 'z' vectors as 'z')."""
    text = open(path).read()
    head, _, body = text.partition("$enddefinitions")
    if not re.search(r"\$timescale\s+1\s*ns\s+\$end", head):
        fail(path + ": the timescale is not 1 ns")
    scope, names = [], {}
    for line in head.split("\n"):
        tok = line.split()
        if not tok:
            continue
        if tok[0] == "$scope":
            scope.append(tok[2])
        elif tok[0] == "$upscope":
            scope.pop()
        elif tok[0] == "$var":
            names.setdefault(tok[3], []).append(".".join(scope + [tok[4]]))
    changes = {n: [] for ids in names.values() for n in ids}
    t = None
    for line in body.split("\n"):
        line = line.strip()
        if not line or line.startswith("$"):
            continue
        if line[0] == "#":
            t = int(line[1:])
            continue
        if line[0] in "bB":
            val, ident = line[1:].split()
        else:
            val, ident = line[0], line[1:]
        val = val.lower()
        if "z" in val:
            val = "z"
        elif "x" not in val:
            val = str(int(val, 2))
        for n in names.get(ident, []):
            changes[n].append((t, val))
    return changes

cpp = read_vcd(d + "/cpp/w/net.vcd")
rtl = read_vcd(d + "/on/w/net.vcd")
only_rtl = sorted(set(rtl) - set(cpp))
if only_rtl:
    fail("the RTL run's network VCD has variables the C++ run's has not: %s" % only_rtl[:5])
# The RTL routers: every router with router.model rtl and no rtl_nodes, else the list.
only_cpp = sorted(set(cpp) - set(rtl))
bad = [n for n in only_cpp if not re.search(r"\.(vc_req|sw_req)$", n)]
if bad:
    fail("the RTL run's network VCD lacks %s" % bad[:5])
rtl_routers = {n.split(".")[1] for n in only_cpp}
for n in sorted(rtl):
    if cpp[n] != rtl[n]:
        diff = next(i for i in range(min(len(cpp[n]), len(rtl[n])) + 1)
                    if i >= len(cpp[n]) or i >= len(rtl[n]) or cpp[n][i] != rtl[n][i])
        fail("%s differs from the C++ run's at change %d: C++ %s, RTL %s" %
             (n, diff, cpp[n][diff:diff + 2], rtl[n][diff:diff + 2]))
g = open(d + "/on/w/net.gtkw").read()
shown = set(re.findall(r"^(?:\+\{[^}]*\} )?switchyard\.([^\s\[]+)", g, re.M))
missing = sorted("switchyard." + s for s in shown if "switchyard." + s not in rtl)
if missing:
    fail("the network save file names what its VCD has not: %s" % missing[:5])

# One time base: router NODE in the network VCD beside rtl_NODE.vcd.
r = "switchyard.r%d." % node
if "r%d" % node not in rtl_routers:
    fail("router %d is not an RTL router in the network VCD (no vc_req left out)" % node)
ports = sorted({m.group(1) for n in rtl for m in [re.match(re.escape(r) + r"out_(d\dp|d\dm)\.pkt$", n)] if m})
port_no = {"d0p": 0, "d0m": 1, "d1p": 2, "d1m": 3}
net_out, net_in = set(), set()
for p in ports:
    # A flit holds the link one cycle (tau 1): every cycle out_<p>.pkt is set is a flit.
    ch = rtl[r + "out_%s.pkt" % p]
    for i, (t, v) in enumerate(ch):
        if v == "z":
            continue
        end = ch[i + 1][0] if i + 1 < len(ch) else t + 1
        net_out |= {(c, port_no[p]) for c in range(t, end)}
    ch = rtl[r + "in_%s.valid" % p]
    for i, (t, v) in enumerate(ch):
        if v != "1":
            continue
        end = ch[i + 1][0] if i + 1 < len(ch) else t + 1
        net_in |= {(c, port_no[p]) for c in range(t, end)}
if not net_out or not net_in:
    fail("router %d sent or received nothing on its network ports: the check needs traffic" % node)
w = read_vcd(d + "/on/w/rtl_%d.vcd" % node)
def bus(name):
    keys = sorted((k for k in w if k.endswith("." + name)), key=len)
    if not keys:
        fail("rtl_%d.vcd has no %s" % (node, name))
    return w[keys[0]]
def bits(ch, shift, last_time):  # {(cycle - shift, bit)} for bits 0..3, cycle by cycle
    got = set()
    for i, (t, v) in enumerate(ch):
        if v in ("z",) or "x" in v:
            continue
        end = ch[i + 1][0] if i + 1 < len(ch) else last_time + 1
        for c in range(t, end):
            got |= {(c - shift, q) for q in range(4) if int(v) >> q & 1}
    return got
last = max(t for ch in w.values() for t, _ in ch)
# (The RTL VCD samples only the cycles the router is evaluated; a gap holds the registers of
# the sample after the last evaluated cycle, in which no flit is on a port.)
for sig, shift, want, what in [("sw_valid_o", 1, net_out, "out_<p>.pkt at c: sw_valid_o at c + 1"),
                               ("out_valid_o", 2, net_out, "out_<p>.pkt at c: out_valid_o at c + 2"),
                               ("in_valid_i", 2, net_in, "in_<q>.valid at c: in_valid_i at c + 2")]:
    # (The run ends before the flits handed over in its last cycles are on in_*: the RTL VCD's
    # last sample, after its last evaluated cycle, has no inputs; compare up to it.)
    got = {x for x in bits(bus(sig), shift, last) if x[0] + shift < last}
    want = {x for x in want if x[0] + shift < last}
    if got != want:
        fail("%s: %d in the network VCD, %d in rtl_%d.vcd; only in the network VCD %s, only in "
             "the RTL's %s" % (what, len(want), len(got), node, sorted(want - got)[:3],
                                sorted(got - want)[:3]))
print("rtl_netvcd_check: %d variables as with the C++ router (RTL routers %s); router %d: %d "
      "flits out and %d in on one time base with rtl_%d.vcd"
      % (len(rtl), ",".join(sorted(rtl_routers)), node, len(net_out), len(net_in), node))
EOF
echo "rtl_netvcd_check: results and hops identical with waves on and off"
