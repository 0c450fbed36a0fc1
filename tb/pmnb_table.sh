#!/usr/bin/env bash
# Regenerates docs/figures/pmnb_table.md: static partial multinode broadcast on the model
# (ideal mode: output-queued store-and-forward all-port nodes, alpha = delta = 0, tau = 1), by
# the new MNB, the optimal MNB and algorithms I, II and III, with the exact phase sum, the paper's bound and the
# lower bound beside every number.   bash tb/pmnb_table.sh        (about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out
/usr/bin/python3 - <<'PY' > docs/figures/pmnb_table.md
import json, os, subprocess
sy = os.environ["SY"]
cfg = "configs/papers/pmnb/pmnb_iii_8.yaml"
def run(d, alg, M, tp, L):
    sets = ["topology.dim=%d" % d, "schedule.algorithm=" + alg, "schedule.message_flits=%d" % L]
    if not alg.startswith("mnb"):
        sets += ["schedule.packets=%d" % M, "schedule.scan_slots=%d" % tp]
    args = [sy, "run", "configs/papers/pmnb/mnb_8.yaml" if alg.startswith("mnb") else cfg, "--quiet",
            "--out", "out/pmnb-table"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)
    return json.load(open("out/pmnb-table/results.json"))["schedule"]
print("### Static PMNB on the model: completion in packet slots\n")
print("Command: `bash tb/pmnb_table.sh`. Cycle model, ideal mode: output-queued store-and-forward")
print("all-port nodes, alpha = delta = 0, tau = 1, packets of L = d flits (algorithm II's")
print("mini-packets are 1 flit), M sources drawn from seed 1. One packet slot = L cycles; the model")
print("column is the completion in cycles / L. *exact* is the algorithm's phase sum, *bound* the")
print("paper's (algorithm I: with the optimal MNB of its reference [3] in the subcubes, as ours, and")
print("M replaced by 2^ceil(log2 M) as the paper says), *lower* max(d, ceil((M-1)/d)) unsplit, (M-1)/d")
print("split (II), ceil((N-1)/d) MNB (the optimal MNB's own time).\n")
print("| d | M | t_p | algorithm | model | exact | bound | lower | broadcast transmissions | scan messages | returns | nodes informed |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for d in (8, 10):
    N = 1 << d
    for alg, name in (("mnb", "new MNB"), ("mnb_optimal", "optimal MNB")):
        r = run(d, alg, N, 0, d)
        print(f"| {d} | {N} | - | {name} | {r['completion_packet_slots']:g} | {r['formula_packet_slots']:g} | "
              f"{r['upper_bound_packet_slots']:g} | {r['lower_bound_packet_slots']:g} | {r['broadcast_transmissions']} | 0 | "
              f"{r['returns']} | {r['nodes_informed']}/{N} |")
    for M in (N // 64, N // 8):
        for tp in (1, 0):
            for alg, name in (("pmnb_i", "I"), ("pmnb_ii", "II"), ("pmnb", "III")):
                r = run(d, alg, M, tp, d)
                scans = r["transmissions"] - r["broadcast_transmissions"]
                print(f"| {d} | {M} | {tp} | {name} | {r['completion_packet_slots']:g} | "
                      f"{r['formula_packet_slots']:g} | {r['upper_bound_packet_slots']:.4g} | "
                      f"{r['lower_bound_packet_slots']:.4g} | {r['broadcast_transmissions']} | {scans} | "
                      f"{r['returns']} | {r['nodes_informed']}/{N} |")
PY
echo "-> docs/figures/pmnb_table.md"
