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
print("output-queued store-and-forward all-port nodes. D = mean slot a packet is in. *Routers")
print("alone*: no schedule, every node requests its n - 1 packets at cycle 0 and dimension-order")
print("routing sorts them out, on the same store-and-forward nodes and on circuit-switched routers")
print("(direct connect: a message holds its whole path for L tau, so at delta = 0 a hop costs")
print("nothing and only contention for links counts; a header that waits holds the links it has,")
print("so on rings dimension-order circuits can deadlock: the model's watchdog says so); cycles =")
print("slots here.\n")
print("| network | paper | OCTR on the model | D (OCTR) | routers alone | D (routers alone) | circuit routers alone | D (circuit) |")
print("|---|---|---|---|---|---|---|---|")
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
    circ = text.replace("buffering: output_queued, switching: store_and_forward",
                        "buffering: circuit, switching: direct_connect")
    circ = "\n".join(l for l in circ.splitlines() if not l.startswith("network_interface:")) + "\n"
    open("out/exchange-circ.yaml", "w").write(circ)
    rc = subprocess.run([sy, "run", "out/exchange-circ.yaml", "--quiet", "--out",
                         "out/exchange-circ"]).returncode
    if rc not in (0, 3):
        raise SystemExit(f"circuit run failed ({rc})")
    c = json.load(open("out/exchange-circ/results.json"))
    circ_cells = (f"{c['cycles']} | {c['latency']['mean']:.3f}" if c["stable"] else
                  "deadlock | -" if "deadlock" in c.get("unstable_reason", "") else
                  "not stable | -")
    net = s["config"]["topology"]
    name = ("hypercube 2^%d" % len(net["dims"]) if net["type"] == "hypercube"
            else "torus " + "x".join(map(str, net["dims"])))
    print(f"| {name} | {sc['formula']:.0f} | {sc['completion_slots']:.0f} | "
          f"{sc['mean_delivery_slots']:.3f} | {h['cycles']} | {h['latency']['mean']:.3f} | "
          f"{circ_cells} |")
PY
echo "-> docs/figures/exchange_table.md"
