#!/usr/bin/env bash
# Regenerates docs/figures/exchange_table.md: total exchange on the model, by the slot-optimal
# OCTR schedule and by the routers alone (every node injects its n - 1 packets at cycle 0,
# dimension-order routing, the same ideal output-queued all-port nodes), beside the paper's
# closed form.   bash tb/exchange_table.sh        (seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out
/usr/bin/python3 - <<'PY' > docs/figures/exchange_table.md
import glob, json, os, subprocess
sy = os.environ["SY"]
print("### Total exchange: completion in slots (one slot = one packet over one link)\n")
print("Command: `bash tb/exchange_table.sh`. Cycle model, 1-flit packets, tau = 1, alpha = delta = 0,")
print("output-queued store-and-forward all-port nodes. D = mean slot a packet is in.\n")
print("| network | paper | OCTR on the model | D (OCTR) | routers alone | D (routers alone) |")
print("|---|---|---|---|---|---|")
for f in sorted(glob.glob("configs/papers/exchange/*.yaml")):
    text = open(f).read()
    if "algorithm: total_exchange" not in text or "links:" in text:
        continue  # other tasks and algorithms: tb/exchange_figures.sh
    subprocess.run([sy, "run", f, "--quiet", "--out", "out/exchange-sched"], check=True)
    s = json.load(open("out/exchange-sched/results.json"))
    sc = s["schedule"]
    # The same network with no schedule: the routers' own answer.
    text = open(f).read().replace("traffic: {type: none}", "traffic: {type: total_exchange, packet_flits: 1}")
    text = "\n".join(l for l in text.splitlines() if not l.startswith("schedule:")) + "\n"
    open("out/exchange-hw.yaml", "w").write(text)
    subprocess.run([sy, "run", "out/exchange-hw.yaml", "--quiet", "--out", "out/exchange-hw"], check=True)
    h = json.load(open("out/exchange-hw/results.json"))
    net = s["config"]["topology"]
    name = ("hypercube 2^%d" % len(net["dims"]) if net["type"] == "hypercube"
            else "torus " + "x".join(map(str, net["dims"])))
    print(f"| {name} | {sc['formula']:.0f} | {sc['completion_slots']:.0f} | "
          f"{sc['mean_delivery_slots']:.3f} | {h['cycles']} | {h['latency']['mean']:.3f} |")
PY
echo "-> docs/figures/exchange_table.md"
