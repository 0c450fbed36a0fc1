#!/usr/bin/env bash
# Regenerates docs/figures/pmnb_long_windows.md: the dynamic-PMNB points where the windows of
# tb/pmnb_figures.sh and tb/pmnb_heavy_load.sh leave the model below the theorem, run again with
# windows 10 to 30 times longer and several seeds (issue 36: P4, d = 8, III at 0.9 of the limit;
# P13, Theorem 4, d = 4 and 6, III at 0.98). Every T is the cycle model's (ideal mode, the runs
# of tb/pmnb_heavy_load.sh, tb/pmnb_runs.py: output-queued store-and-forward all-port nodes,
# theorem periods, t_p = 1, L = d flits); the theorem's T (with each run's measured a) beside it.
#   bash tb/pmnb_long_windows.sh        (about 20 minutes on 2 idle cores: 40 minutes of CPU)
# SCALE=0.1 shortens every window tenfold (a quick look; the committed table is SCALE=1).
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out
OUTFILE=${OUTFILE:-docs/figures/pmnb_long_windows.md}
/usr/bin/python3 - > "$OUTFILE" <<'PY'
import concurrent.futures as cf, math, os, sys
sys.path.insert(0, "tb")
from pmnb_runs import limit17, run as run_model
sy = os.environ["SY"]
scale = float(os.environ.get("SCALE", "1"))

def run(tag, d, rho, slots, seed):  # algorithm III, L = d flits, the window in slots
    return run_model(sy, f"out/pmnb-long/{tag}", d, "pmnb_iii", rho, d, int(slots * scale) * d, seed)

# (claim, d, fraction of the limit, window in slots, seeds); the short window it replaces
points = [("P4", 8, 0.9, 80000, [1, 2, 3], "pmnb_figures.sh: 40,000 cycles (5,000 slots)"),
          ("P13", 4, 0.98, 1000000, [1, 2, 3, 4], "pmnb_heavy_load.sh: 100,000 slots"),
          ("P13", 6, 0.98, 1500000, [1, 2, 3], "pmnb_heavy_load.sh: 50,000 slots")]
lims = {d: limit17(sy, f"out/pmnb-long/probe-{d}", d, "pmnb_iii") for d in sorted({p[1] for p in points})}
pool = cf.ThreadPoolExecutor(max_workers=2)
jobs = {}
for claim, d, f, slots, seeds, _ in points:
    for s in seeds:
        jobs[(d, f, s)] = pool.submit(run, f"iii-{d}-{f}-{s}", d, f * lims[d], slots, s)

TQ = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 7: 2.36, 15: 2.13}  # t(0.975, n - 1 dof)
print("### Dynamic broadcasting: the points below the theorem, with long windows\n")
print("Command: `bash tb/pmnb_long_windows.sh`. Cycle model, ideal mode (output-queued")
print("store-and-forward all-port nodes, theorem periods of V + M X slots, t_p = 1, algorithm III,")
print("L = d flits a packet; warm-up a tenth of the window, from an empty network). T: arrival to")
print("the end of the packet's period, in slots, each seed's mean (± 95%, batch means) and the mean")
print("over seeds (± 95%, t over the seed means); the theorem's T with each run's measured a.")
print("Near the limit the relaxation time grows like 1/eps^2 periods (eps = 1 - rho - lambda V), so")
print("short windows that start empty sit below the steady state.")
if scale != 1:
    print(f"\n(SCALE = {scale}: every window {scale} times the committed one.)")
print("\n| claim | d | rho / limit | window (slots) | seed | periods | model T | theorem T | stable |")
print("|---|---|---|---|---|---|---|---|---|")
summary = []
for claim, d, f, slots, seeds, was in points:
    Ts, ths = [], []
    for s in seeds:
        r = jobs[(d, f, s)].result()
        p, t = r["pmnb"], r["pmnb"]["theorem"]
        T, ci = p["delay_to_period_end_slots"], p["delay_to_period_end_ci95_slots"]
        Ts.append(T)
        ths.append(t["T"])
        print(f"| {claim} | {d} | {f:g} | {int(slots * scale):,} | {s} | {p['periods']:,} | "
              f"{T:.2f} ± {ci:.2f} | {t['T']:.2f} | {r['stable']} |")
    n = len(Ts)
    m = sum(Ts) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in Ts) / (n - 1)) if n > 1 else float("nan")
    half = TQ.get(n - 1, 2.0) * sd / math.sqrt(n)
    th = sum(ths) / n
    summary.append((claim, d, f, int(slots * scale), n, m, half, th, was))
print("\n| claim | d | rho / limit | window (slots) | seeds | model T (mean ± 95%) | theorem T | "
      "model / theorem | theorem within the interval | short window |")
print("|---|---|---|---|---|---|---|---|---|---|")
for claim, d, f, slots, n, m, half, th, was in summary:
    inside = "yes" if abs(m - th) <= half else "no"
    print(f"| {claim} | {d} | {f:g} | {slots:,} | {n} | {m:.2f} ± {half:.2f} | {th:.2f} | "
          f"{m / th:.3f} | {inside} | {was} |")
PY
echo "-> $OUTFILE"
