#!/usr/bin/env bash
# Regenerates docs/figures/idling_table.md: the greedy paper's idling scheme in rounds
# (section 2.3; network_interface.discipline: rounds) on 2^d hypercubes, d 4, 6, 8, p = 1/2:
# the mean full round from a saturated run (R = it / d), the limit 1/(2Rd) it gives, the
# stable verdict of the model along a grid of rho around it, and the greedy scheme's T at the
# last stable point (docs/validation.md, row G5a).   bash tb/idling_table.sh   (about 10 minutes
# on 2 shared cores: the 2^8 runs take most of it)
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || TARGET=switchyard bash tb/build.sh
mkdir -p docs/figures out
/usr/bin/python3 - <<'PY' > docs/figures/idling_table.md
import json, os, subprocess
sy = os.environ["SY"]
LEN = ["--set", "simulation.warmup=20000", "--set", "simulation.measure=200000"]
def run(cfg, d, rho):
    out = "out/idling-%d-%s" % (d, rho)
    subprocess.run([sy, "run", cfg, "--quiet", "--out", out, "--set", "topology.dim=%d" % d,
                    "--set", "traffic.bit_flip_probability=0.5",
                    "--set", "traffic.load.rho=%s" % rho] + LEN,
                   check=False, stdout=subprocess.DEVNULL)
    return json.load(open(out + "/results.json"))
grid = {4: ["0.10", "0.11", "0.12", "0.125", "0.13", "0.135", "0.14"],
        6: ["0.07", "0.075", "0.08", "0.0825", "0.085", "0.0875", "0.09"],
        8: ["0.055", "0.06", "0.0615", "0.063", "0.065"]}
print("### The idling scheme in rounds (greedy paper, section 2.3) on 2^d hypercubes, p = 1/2\n")
print("Command: `bash tb/idling_table.sh`. configs/papers/greedy/idling_hypercube_6.yaml with")
print("topology.dim = d, 20,000 + 200,000 cycles, seed 1, S = 1 (cycles = packet times). Full")
print("round: the mean length of the rounds every node took part in, from the last (saturated)")
print("run of the grid; R = full round / d; limit = 1/(2Rd). T in packet times from creation;")
print("greedy T: configs/papers/greedy/hypercube_d.yaml at the same rho.\n")
print("| d | rho | stable | T (rounds) | mean round | nodes per round | lambda E[full] | greedy T |")
print("|---|---|---|---|---|---|---|---|")
summary = []
for d, rhos in grid.items():
    res = [(r, run("configs/papers/greedy/idling_hypercube_6.yaml", d, r)) for r in rhos]
    full = res[-1][1]["rounds"]
    E = full["full_mean"]
    last = max([r for r, j in res if j["stable"]], key=float)
    g = run("configs/papers/greedy/hypercube_%d.yaml" % d, d, last)
    for r, j in res:
        q = j["rounds"]
        lam = 2 * float(r)
        gt = "%.3f ± %.3f" % (g["greedy"]["T_model"], g["greedy"]["T_model_ci95"]) if r == last else ""
        print("| %d | %s | %s | %.2f ± %.2f | %.3f | %.1f | %.3f | %s |" % (
            d, r, "yes" if j["stable"] else "no", q["T_model"], q["T_model_ci95"], q["mean"],
            q["mean_participants"], lam * E, gt))
    first_unstable = min([r for r, j in res if not j["stable"]], key=float)
    summary.append((d, E, full["full_ci95"], full["full_min"], full["full_max"], full["full_rounds"],
                    E / d, 1 / (2 * E), last, first_unstable))
print("\n| d | full round (packet times) | min .. max | full rounds | R | 1/(2Rd) | last stable rho | first unstable rho |")
print("|---|---|---|---|---|---|---|---|")
for d, E, ci, lo, hi, n, R, lim, last, first in summary:
    print("| %d | %.3f ± %.3f | %g .. %g | %d | %.3f | %.4f | %s | %s |" % (d, E, ci, lo, hi, n, R, lim, last, first))
PY
echo "wrote docs/figures/idling_table.md"
