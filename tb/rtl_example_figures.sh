#!/usr/bin/env bash
# The example RTL router (rtl/examples/sy_vc_router_inreg.sv, configs/rtl_example_inreg.yaml)
# beside the C++ staged model it departs from: a latency-throughput sweep of each, written to
#   docs/figures/rtl_example_inreg.csv  (one row per offered load: both routers' numbers)
#   docs/figures/rtl_example_inreg.md   (the same as a markdown table)
#   docs/figures/rtl_example_inreg.png  (both curves; needs matplotlib, skipped without it)
# One command: bash tb/rtl_example_figures.sh (a build with -DSWITCHYARD_COSIM=ON in build/, or
# SWITCHYARD=path; JOBS=n runs n points at a time, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
SY=${SWITCHYARD:-./build/switchyard}
JOBS=${JOBS:-2}
RATES=0.02,0.05,0.1,0.15,0.2,0.25,0.28,0.3,0.32,0.35,0.4
cfg=configs/rtl_example_inreg.yaml
tmp=$(mktemp -d /tmp/sy-rtl-example.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The C++ model: the same config without its two model lines.
sed -e '/^  model: rtl$/d' -e '/^  rtl: /d' "$cfg" > "$tmp/model.yaml"
grep -q 'model: rtl' "$tmp/model.yaml" && { echo "rtl_example_figures: model line left" >&2; exit 1; }
"$SY" sweep "$tmp/model.yaml" --param traffic.rate --values "$RATES" --jobs "$JOBS" \
  --out "$tmp/model" >/dev/null
"$SY" sweep "$cfg" --param traffic.rate --values "$RATES" --jobs "$JOBS" --out "$tmp/rtl" >/dev/null
mkdir -p docs/figures
/usr/bin/python3 - "$tmp/model/sweep.csv" "$tmp/rtl/sweep.csv" "$tmp"/model/point-0-seed-*/results.json <<'PY'
import csv, json, sys
sys.path.insert(0, "tb")
from sy_sweep import read_sweep, num
# The pattern's mean hop count (results.json's mean_hops, the same at every load): a packet
# crosses mean_hops + 1 routers, each a cycle slower with the input register.
routers = json.load(open(sys.argv[3]))["mean_hops"] + 1
model = {r["value"]: r for r in read_sweep(sys.argv[1])}
rtl = {r["value"]: r for r in read_sweep(sys.argv[2])}
rates = sorted(set(model) & set(rtl), key=float)
cols = ["offered", "accepted", "latency_mean", "latency_p99", "stable"]
with open("docs/figures/rtl_example_inreg.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["rate"] + [f"model_{c}" for c in cols] + [f"inreg_{c}" for c in cols])
    for v in rates:
        w.writerow([v] + [model[v].get(c, "") for c in cols] + [rtl[v].get(c, "") for c in cols])
def f(r, k, fmt="%.2f"):
    x = num(r, k)
    return "–" if x != x else fmt % x
with open("docs/figures/rtl_example_inreg.md", "w") as out:
    out.write(f"Mean routers a packet crosses (mean hops + 1): {routers:g}: the zero-load latency "
              f"difference the input register stage predicts.\n\n")
    out.write("| offered (flits/node/cycle) | model accepted | model latency | sy_vc_router_inreg "
              "accepted | sy_vc_router_inreg latency | latency difference |\n"
              "|---|---|---|---|---|---|\n")
    for v in rates:
        a, b = model[v], rtl[v]
        stab = lambda r: "" if r["stable"] == "true" else " (unstable)"
        out.write(f"| {v} | {f(a, 'accepted', '%.4f')} | {f(a, 'latency_mean')}{stab(a)} | "
                  f"{f(b, 'accepted', '%.4f')} | {f(b, 'latency_mean')}{stab(b)} | "
                  f"{num(b, 'latency_mean') - num(a, 'latency_mean'):+.2f} |\n")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("rtl_example_figures: no matplotlib: PNG skipped (apt-get install python3-matplotlib)")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(7, 4.5))
for rows, label, m in ((model, "C++ staged model (= sy_vc_router)", "o"),
                       (rtl, "sy_vc_router_inreg (input register stage)", "s")):
    st = [rows[v] for v in rates if rows[v]["stable"] == "true"]
    ax.plot([num(r, "accepted") for r in st], [num(r, "latency_mean") for r in st], marker=m,
            label=label)
ax.set_xlabel("accepted throughput (flits/node/cycle)")
ax.set_ylabel("mean packet latency (cycles)")
ax.set_title("6x6 mesh, 5-stage input-VC routers, 2 VCs x 4 flits, 4-flit packets, uniform")
ax.grid(alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig("docs/figures/rtl_example_inreg.png", dpi=110)
PY
echo "rtl_example_figures: docs/figures/rtl_example_inreg.{csv,md,png}"
