#!/usr/bin/env bash
# Regenerates docs/figures/pmnb_heavy_load.md: dynamic broadcasting by PMNB periods near the
# stability limit, on the model, beside the theorem (Varvarigos & Bertsekas, Theorem 4: as
# rho -> 1 - lambda V, T_h = O(V / (1 - rho - lambda V))). Every T is the cycle model's (ideal
# mode: output-queued store-and-forward all-port nodes, theorem periods, t_p = 1, L = d flits);
# the theorem's T (with the run's measured a) and eps = 1 - rho - lambda V are printed beside it.
# Algorithm II is run with L = d (its period of V + M X slots is not whole cycles: each period is
# rounded up to the cycle) and with L = 64 on d = 4 (X L = 15 cycles: whole).
#   bash tb/pmnb_heavy_load.sh          (about 5 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out
/usr/bin/python3 - <<'PY' > docs/figures/pmnb_heavy_load.md
import concurrent.futures as cf, os, sys
sys.path.insert(0, "tb")
from pmnb_runs import limit17 as probe_limit, run as run_model
sy = os.environ["SY"]
SLOTS = {4: 100000, 6: 50000}  # the window in slots (a slot is L cycles)

def run(tag, d, alg, rho, L, measure):
    return run_model(sy, f"out/pmnb-heavy/{tag}", d, alg, rho, L, measure)

def limit17(d, alg):
    return probe_limit(sy, f"out/pmnb-heavy/probe-{alg}-{d}", d, alg)

cases = [(4, "pmnb_iii", 4), (6, "pmnb_iii", 6), (4, "pmnb_ii", 4), (4, "pmnb_ii", 64)]
fracs = [0.5, 0.8, 0.9, 0.95, 0.98]
pool = cf.ThreadPoolExecutor(max_workers=2)
jobs = {}
for d, alg, L in cases:
    lim = limit17(d, alg)
    for f in fracs:
        jobs[(d, alg, L, f)] = pool.submit(run, f"{alg}-{d}-{L}-{f}", d, alg, f * lim, L, SLOTS[d] * L)
print("### Dynamic broadcasting near the stability limit (Theorem 4), on the model\n")
print("Command: `bash tb/pmnb_heavy_load.sh`. Cycle model, ideal mode (output-queued store-and-forward")
print("all-port nodes, theorem periods of V + M X slots, t_p = 1, L flits a packet, seed 1; window")
print("100,000 slots at d = 4, 50,000 at d = 6, warm-up a tenth of it). T: arrival to the end of the")
print("packet's period, in slots, model (± 95%, batch means) and theorem (with the run's measured a).")
print("*period − (V + M X)*: the model's mean period over the theorem's, in slots: a period is rounded up")
print("to whole cycles, which adds to V when X L or V L is not whole (II with L = d).")
print("eps = 1 - rho - lambda V (the theorem's rho = lambda N X). Theorem 4: T = O(V / eps), i.e.")
print("T eps / V stays bounded as eps -> 0 (the paper's proof: it tends to about 0.5 + rho/(2 d V)).\n")
print("| d | alg. | L | rho / limit | eps | periods | period − (V + M X) | model T | theorem T | model T eps / V | theorem T eps / V | stable |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (d, alg, L, f), fut in jobs.items():
    r = fut.result()
    p, t = r["pmnb"], r["pmnb"]["theorem"]
    eps = 1 - t["rho"] - t["lambda_per_slot"] * t["V"]
    T, ci = p["delay_to_period_end_slots"], p["delay_to_period_end_ci95_slots"]
    over = p["mean_period_slots"] - (t["V"] + p["mean_M"] * t["X"])
    over = 0.0 if abs(over) < 5e-5 else over  # no "-0.0000"
    print(f"| {d} | {p['algorithm']} | {L} | {f:g} | {eps:.4f} | {p['periods']} | {over:.4f} | {T:.2f} ± {ci:.2f} | "
          f"{t['T']:.2f} | {T * eps / t['V']:.3f} | {t['T'] * eps / t['V']:.3f} | {r['stable']} |")
PY
echo "-> docs/figures/pmnb_heavy_load.md"
