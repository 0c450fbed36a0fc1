#!/usr/bin/env bash
# Energy beside time for the papers' schemes (issue 30), from runs of the cycle model with
# power on (45 nm, 1 GHz, 128-bit flits, 1 mm links; docs/power.md):
#   bash tb/energy_figures.sh          (about a minute on 2 cores)
# - random broadcasting on the 8x8 torus: priority STAR against FCFS direct broadcasting, energy
#   per reception at three loads;
# - dynamic broadcasting on the 2^6 hypercube: PMNB III against priority STAR, energy per
#   reception at rho 0.1 (PMNB III is stable below 0.23 there);
# - circuit-switched broadcasting (Table 1's tori, wormhole setting alpha 20, delta 1, tau 1,
#   L = 256, B = 64): each algorithm against store-and-forward trees, energy per broadcast;
# - total exchange on the 2^5 hypercube: the schedules of the isotropic-task paper, energy per
#   exchange;
# and a sweep of the quick-start router (8x8 torus, staged pipeline) with its energy per flit and
# power by unit against the offered load (tb/plot_power.py).
# Energy = the counted events priced by the technology's models (dynamic) + leakage over the
# measured time; a run's time is the model's. Writes docs/figures/energy_schemes.{md,csv} and
# docs/figures/power_sweep.png (+ power_sweep.csv). Runs go to out/energy/. SWITCHYARD=path uses
# that binary (and skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-build/switchyard}
[ -n "${SWITCHYARD:-}" ] || TARGET=switchyard bash tb/build.sh
mkdir -p docs/figures
rm -rf out/energy
export POWER="power.tech=45nm"
/usr/bin/python3 - <<'PY'
import concurrent.futures as cf
import csv
import json
import os
import subprocess
import sys

SY, OUT, FIG = os.environ["SY"], "out/energy", "docs/figures"
P = "configs/papers"
CIRC = ["timing.alpha=20", "timing.delta=1", "timing.tau=1", "schedule.message_flits=256",
        "schedule.packet_flits=64"]
# (group, row label, variant, config, --set values, what one unit of work is)
RUNS = []
for rho in (0.3, 0.6, 0.9):
    for scheme, label in (("priority_star", "priority STAR"), ("fcfs_direct", "FCFS direct")):
        RUNS.append(("random broadcasting, 8x8 torus", f"rho {rho}", label, f"{P}/star/torus_8x8.yaml",
                     [f"traffic.load.rho={rho}", f"traffic.broadcast.scheme={scheme}",
                      "simulation.warmup=1000", "simulation.measure=5000"], "reception"))
for cfg, label in (("dynamic_iii_6", "PMNB III"), ("dynamic_star_6", "priority STAR")):
    # (The shipped windows: PMNB's periods need them to settle.)
    RUNS.append(("dynamic broadcasting, 2^6 hypercube", "rho 0.1", label, f"{P}/pmnb/{cfg}.yaml",
                 ["traffic.load.rho=0.1"], "reception"))
for cfg, alg in (("tiling_5x5", "tiling"), ("tiling_25x25", "tiling"),
                 ("divide_and_conquer_8x8", "divide_and_conquer"),
                 ("divide_and_conquer_16x16", "divide_and_conquer"),
                 ("h_trees_7x7", "h_trees"), ("h_trees_15x15", "h_trees")):
    for a in (alg, "store_and_forward_trees"):
        RUNS.append(("circuit-switched broadcasting (alpha 20, delta 1, tau 1, L 256, B 64)",
                     cfg.split("_")[-1], a.replace("_", " "), f"{P}/circuit/{cfg}.yaml",
                     CIRC + [f"schedule.algorithm={a}"], "broadcast"))
for cfg, label in (("hypercube_5", "direct (all links)"), ("klinks_hypercube_5", "2 links a slot"),
                   ("oadd_hypercube_5", "OADD"), ("greedy_hypercube_5", "greedy")):
    RUNS.append(("total exchange, 2^5 hypercube", "L = 1", label, f"{P}/exchange/{cfg}.yaml", [],
                 "exchange"))


def run(i):
    group, row, variant, cfg, sets, unit = RUNS[i]
    out = f"{OUT}/{i:02d}"
    cmd = [SY, "run", cfg, "--out", out, "--quiet", "--set", os.environ["POWER"]]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 3) or not os.path.exists(f"{out}/results.json"):
        sys.stderr.write(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stdout}{p.stderr}")
        raise SystemExit(1)
    return i, json.load(open(f"{out}/results.json")), " ".join(cmd[1:])


results = {}
with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
    for i, r, cmd in ex.map(run, range(len(RUNS))):
        results[i] = (r, cmd)

rows = []
for i, (group, row, variant, cfg, sets, unit) in enumerate(RUNS):
    r, cmd = results[i]
    pw = r["power"]
    total, dyn = pw["total"]["energy_pj"], pw["total"]["dynamic_pj"]
    if unit == "reception":
        # The window's energy over the receptions measured (those of the broadcasts created in
        # the window: the same count for the schemes compared, on the same arrivals).
        n = r["broadcast"]["reception_delay"]["count"]
        time = r.get("broadcast", {}).get("reception_delay", {}).get("mean")
        time_name = "mean reception delay (cycles)"
    else:  # one broadcast or one exchange: the whole run
        n = 1
        time = r["cycles"]
        time_name = "time (cycles)"
    rows.append({
        "group": group, "case": row, "scheme": variant,
        "time": time, "time_name": time_name,
        "energy_pj": total / n if n else float("nan"),
        "dynamic_pj": dyn / n if n else float("nan"),
        "power_mw": pw["total"]["power_mw"],
        "link_flits": pw["events"]["link_flits"] / n if n else float("nan"),
        "unit": unit, "stable": r.get("stable", True), "command": cmd,
    })

with open(f"{FIG}/energy_schemes.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["group", "case", "scheme", "time", "energy_pj", "dynamic_energy_pj", "link_flits",
                "power_mw", "per", "stable"])
    for x in rows:
        w.writerow([x["group"], x["case"], x["scheme"], f"{x['time']:.6g}" if x["time"] is not None else "",
                    f"{x['energy_pj']:.6g}", f"{x['dynamic_pj']:.6g}", f"{x['link_flits']:.6g}",
                    f"{x['power_mw']:.6g}",
                    x["unit"], str(x["stable"]).lower()])

md = ["# Energy beside time for the papers' schemes",
      "",
      "Regenerated by `bash tb/energy_figures.sh` from runs of the cycle model with `power: {tech: 45nm}`",
      "(1 GHz, 128-bit flits, 1 mm links, flip-flop buffers, matrix crossbar; docs/power.md). Energy is",
      "the counted events priced by the models (dynamic) plus every router's and link's leakage over",
      "the measured time (the window for random traffic, the whole run for a schedule). Times are the",
      "model's. The papers' routers are their ideal ones (output queues, all-port nodes; circuit routers",
      "for circuit switching), priced as in docs/power.md: output queues as register files of",
      "`vc_depth` flits per priority class, circuit routers without buffers.", ""]
group = None
for x in rows:
    if x["group"] != group:
        group = x["group"]
        md += ["", f"## {group}", "",
               f"| case | scheme | {x['time_name']} | energy per {x['unit']} (pJ) | dynamic (pJ) | "
               f"link flits per {x['unit']} | power (mW) |",
               "|---|---|---:|---:|---:|---:|---:|"]
    t = "" if x["time"] is None else f"{x['time']:.4g}"
    flag = "" if x["stable"] else " (not stable)"
    md.append(f"| {x['case']} | {x['scheme']}{flag} | {t} | {x['energy_pj']:.4g} | "
              f"{x['dynamic_pj']:.4g} | {x['link_flits']:.4g} | {x['power_mw']:.4g} |")
md += ["", "Reading it: priority STAR and FCFS direct broadcasting send the same transmissions (one",
       "copy per link of the same trees), so their energy per reception is the same and priority only",
       "buys time. PMNB III's periods also send their scan messages over the links, about as many",
       "flits as the broadcasts' own at this load, hence its energy per reception. Circuit-switched",
       "broadcasting carries the message over more links than store-and-forward trees (a circuit's",
       "path crosses nodes that already hold it) but finishes sooner, so with leakage counted it is",
       "the cheaper one on the larger tori. Total exchange moves the same flits under every schedule;",
       "a slower one pays only its leakage."]
md += ["", "Commands (one per row, in order):", "", "```"] + [x["command"] for x in rows] + ["```", ""]
open(f"{FIG}/energy_schemes.md", "w").write("\n".join(md))
print(f"-> {FIG}/energy_schemes.md, {FIG}/energy_schemes.csv")
PY
# The quick-start router's energy per flit and power against load.
"$SY" sweep configs/quickstart.yaml --param traffic.rate --values 0.02,0.05,0.08,0.11,0.14,0.17 \
  --set "$POWER" --set simulation.measure=3000 --out out/energy/sweep >/dev/null || true
cp out/energy/sweep/sweep.csv docs/figures/power_sweep.csv
/usr/bin/python3 tb/plot_power.py out/energy/sweep --out docs/figures/power_sweep.png
