#!/usr/bin/python3
"""Dynamic broadcasting by PMNB periods on the model, beside the theorem (tb/pmnb_figures.sh).

Every number plotted or tabulated comes from a run of the cycle model (results.json); the
theorem's T and stability limit are the ones the model prints beside its own numbers."""
import concurrent.futures as cf
import csv
import json
import os
import subprocess

from sy_pyplot import plt  # noqa: E402 (matplotlib wherever python3 comes from)

SY = os.environ.get("SY", "./build/switchyard")
PMNB = "configs/papers/pmnb/dynamic_iii_6.yaml"
STAR = "configs/papers/pmnb/dynamic_star_6.yaml"
OUT = "out/pmnb-fig"
FIG = "docs/figures"
MEASURE = {4: 60000, 6: 60000, 8: 40000, 10: 30000}


def run(tag, cfg, d, sets):
    out = f"{OUT}/{tag}"
    args = [SY, "run", cfg, "--quiet", "--out", out, "--set", f"topology.dim={d}",
            "--set", f"traffic.packet_flits={d}",
            "--set", f"simulation.measure={MEASURE[d]}",
            "--set", f"simulation.warmup={MEASURE[d] // 10}",
            "--set", "simulation.drain_limit=400000"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(args)}\n{p.stderr}")
    return json.load(open(f"{out}/results.json"))


def pmnb_sets(alg, rho, period="theorem"):
    return [f"traffic.broadcast.scheme={alg}", f"traffic.load.rho={rho:.6f}",
            f"traffic.broadcast.period={period}"]


def limit17(d, alg):
    """The theorem's stability limit, read from a short run of the model, in load.rho units
    (lambda (N-1)/d): the theorem's rho is lambda N X."""
    r = run(f"probe-{alg}-{d}", PMNB, d, pmnb_sets(alg, 0.01) + ["simulation.measure=200"])
    t = r["pmnb"]["theorem"]
    return t["stability_limit_rho"] * t["rho_17"] / t["rho"]


def delay_slots(r):
    L = r["pmnb"]["slot_cycles"] if "pmnb" in r else r["broadcast"]["packet_time"]
    b = r["broadcast"]["broadcast_delay"]
    return b["mean"] / L, b["ci95"] / L


pool = cf.ThreadPoolExecutor(max_workers=2)

# ---- 1. Delay against rho, beside the theorem -----------------------------------------------
cases = [(6, "pmnb_iii"), (8, "pmnb_iii"), (10, "pmnb_iii"), (6, "pmnb_ii"), (8, "pmnb_ii")]
limits = {c: limit17(*c) for c in cases}
fracs = [0.2, 0.4, 0.6, 0.8, 0.9]
jobs = {}
for d, alg in cases:
    for f in fracs:
        rho = f * limits[(d, alg)]
        jobs[(d, alg, f)] = pool.submit(run, f"delay-{alg}-{d}-{f}", PMNB, d, pmnb_sets(alg, rho))
rows = []
for (d, alg, f), fut in jobs.items():
    r = fut.result()
    p, t = r["pmnb"], r["pmnb"]["theorem"]
    rows.append({"d": d, "algorithm": p["algorithm"], "rho": t["rho_17"], "rho_theorem": t["rho"],
                 "limit_rho": t["stability_limit_rho"], "stable": r["stable"],
                 "model_T": p["delay_to_period_end_slots"],
                 "model_T_ci95": p["delay_to_period_end_ci95_slots"],
                 "model_last_reception": p["delay_to_last_reception_slots"],
                 "theorem_T": t["T"], "theorem_T_a_low": t["T_a_low"],
                 "theorem_T_a_high": t["T_a_high"], "a_measured": p["a_measured"],
                 "mean_M": p["mean_M"], "periods": p["periods"]})
with open(f"{FIG}/pmnb_delay.csv", "w", newline="") as fh:
    w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=False)
for ax, d in zip(axes, (6, 8, 10)):
    for alg, mk in (("III", "o"), ("II", "s")):
        pts = [r for r in rows if r["d"] == d and r["algorithm"] == alg]
        if not pts:
            continue
        x = [r["rho_theorem"] for r in pts]
        ax.errorbar(x, [r["model_T"] for r in pts], yerr=[r["model_T_ci95"] for r in pts],
                    fmt=mk, label=f"{alg}: model", capsize=3)
        bad = [r for r in pts if not r["stable"]]
        if bad:  # runs the model flagged unstable (a short window near the limit)
            ax.plot([r["rho_theorem"] for r in bad], [r["model_T"] for r in bad], "kx", ms=10,
                    label="model flagged unstable")
        ax.plot(x, [r["theorem_T"] for r in pts], "--", label=f"{alg}: theorem T (a measured)")
        ax.fill_between(x, [r["theorem_T_a_low"] for r in pts],
                        [r["theorem_T_a_high"] for r in pts], alpha=0.15)
        ax.axvline(pts[0]["limit_rho"], ls=":", color="gray")
    ax.set_title(f"d = {d} (N = {1 << d}), t_p = 1")
    ax.set_xlabel("rho = lambda N X (theorem)")
    ax.set_yscale("log")
    ax.grid(alpha=0.3)
axes[0].set_ylabel("delay: arrival to end of its period (slots)")
axes[0].legend(fontsize=8)
fig.suptitle("Dynamic PMNB on the cycle model (ideal mode) vs the dynamic broadcasting theorem; "
             "dotted: stability limit", fontsize=10)
fig.tight_layout()
fig.savefig(f"{FIG}/pmnb_delay.png", dpi=110)

# ---- 2. Stability: just below and just above the theorem's limit ---------------------------
stab_cases = [(4, "pmnb_iii"), (6, "pmnb_iii"), (8, "pmnb_iii"), (4, "pmnb_ii"), (6, "pmnb_ii")]
for c in stab_cases:
    if c not in limits:
        limits[c] = limit17(*c)
sj = {(d, alg, f): pool.submit(run, f"stab-{alg}-{d}-{f}", PMNB, d,
                                pmnb_sets(alg, f * limits[(d, alg)]))
      for d, alg in stab_cases for f in (0.9, 1.15)}
with open(f"{FIG}/pmnb_stability.md", "w") as fh:
    fh.write("### Dynamic PMNB: stability on the model against the theorem's limit\n\n")
    fh.write("Command: `bash tb/pmnb_figures.sh`. Cycle model, ideal mode, t_p = 1, theorem periods "
             "(V + M X). rho = lambda N X; the limit 1 / (1 + V / (N X)). *stable* is the model's "
             "own verdict (source queues and owed deliveries over the window).\n\n")
    fh.write("| d | algorithm | limit (theorem) | rho = 0.9 x limit | model | rho = 1.15 x limit | model |\n")
    fh.write("|---|---|---|---|---|---|---|\n")
    for d, alg in stab_cases:
        lo, hi = sj[(d, alg, 0.9)].result(), sj[(d, alg, 1.15)].result()
        v = lambda r: "stable" if r["stable"] else "unstable"  # noqa: E731
        fh.write(f"| {d} | {lo['pmnb']['algorithm']} | {lo['pmnb']['theorem']['stability_limit_rho']:.4f} | "
                 f"{lo['pmnb']['theorem']['rho']:.4f} | {v(lo)} | {hi['pmnb']['theorem']['rho']:.4f} | {v(hi)} |\n")

# ---- 3. PMNB against the router-level schemes, as d grows -----------------------------------
schemes = [("III (theorem periods)", PMNB, ["traffic.broadcast.scheme=pmnb_iii"]),
           ("III (exact periods)", PMNB, ["traffic.broadcast.scheme=pmnb_iii",
                                          "traffic.broadcast.period=exact"]),
           ("II (theorem periods)", PMNB, ["traffic.broadcast.scheme=pmnb_ii"]),
           ("priority STAR", STAR, []),
           ("FCFS direct", STAR, ["traffic.broadcast.scheme=fcfs_direct"]),
           ("indirect", STAR, ["traffic.broadcast.scheme=indirect"])]
ds, rhos = (4, 6, 8, 10), (0.2, 0.5)
cj = {}
for d in ds:
    for rho in rhos:
        for name, cfg, sets in schemes:
            if name.startswith("II ") and d == 10:
                continue
            cj[(d, rho, name)] = pool.submit(run, f"cmp-{d}-{rho}-{name.split()[0]}-{len(sets)}",
                                             cfg, d, sets + [f"traffic.load.rho={rho}"])
res = {k: v.result() for k, v in cj.items()}
with open(f"{FIG}/pmnb_vs_star.md", "w") as fh:
    fh.write("### Dynamic PMNB against priority STAR, FCFS direct and indirect (same arrivals)\n\n")
    fh.write("Command: `bash tb/pmnb_figures.sh`. Cycle model, ideal mode, t_p = 1, packets of d "
             "flits; rho = lambda (N-1)/d (the paper's (17)). Mean delay from arrival to the last "
             "reception, in slots (± 95% interval); *unstable*: the model flagged the run "
             "saturated.\n\n")
    fh.write("| d | rho | " + " | ".join(n for n, _, _ in schemes) + " |\n")
    fh.write("|---|---|" + "---|" * len(schemes) + "\n")
    for d in ds:
        for rho in rhos:
            cells = []
            for name, _, _ in schemes:
                r = res.get((d, rho, name))
                if r is None:
                    cells.append("-")
                elif not r["stable"]:
                    cells.append("unstable")
                else:
                    m, ci = delay_slots(r)
                    cells.append(f"{m:.2f} ± {ci:.2f}")
            fh.write(f"| {d} | {rho} | " + " | ".join(cells) + " |\n")
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
for ax, rho in zip(axes, rhos):
    for name, _, _ in schemes:
        pts = [(d, delay_slots(res[(d, rho, name)])[0]) for d in ds
               if (d, rho, name) in res and res[(d, rho, name)]["stable"]]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=name)
    ax.set_title(f"rho = {rho}")
    ax.set_xlabel("hypercube dimension d")
    ax.set_yscale("log")
    ax.grid(alpha=0.3)
axes[0].set_ylabel("delay to last reception (slots)")
axes[0].legend(fontsize=8)
fig.suptitle("Dynamic broadcasting on the cycle model (ideal mode): PMNB periods vs router-level "
             "trees (unstable runs left out)", fontsize=10)
fig.tight_layout()
fig.savefig(f"{FIG}/pmnb_vs_star.png", dpi=110)
print("-> docs/figures/pmnb_delay.{png,csv}, pmnb_stability.md, pmnb_vs_star.{md,png}")
