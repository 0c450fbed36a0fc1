#!/usr/bin/env bash
# Regenerates the isotropic-task figures of docs/validation.md 3.4 (Varvarigos & Bertsekas):
#   docs/figures/exchange_isotropic.md   every closed form of the paper against the model
#   docs/figures/exchange_completion.png completion against n: OCTR/OADD, greedy, routers alone
#   docs/figures/exchange_delay.png      average delay D against n, the same runs
#   docs/figures/exchange_klinks.png     k-link-limited total exchange: completion against k
# Every number plotted or tabled comes from a run of the cycle model (results.json "exchange");
# the paper's formulas are printed beside.   bash tb/exchange_figures.sh      (a minute or two)
set -euo pipefail
cd "$(dirname "$0")/.."
export SY=${SWITCHYARD:-./build/switchyard}
[ -n "${SWITCHYARD:-}" ] || bash tb/build.sh
mkdir -p docs/figures out/exchange-figures
/usr/bin/python3 - <<'PY'
import json, math, os, subprocess
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

SY = os.environ["SY"]
OUT = "out/exchange-figures"
NODE = ("router: {buffering: output_queued, switching: store_and_forward}\n"
        "network_interface: {injection: all_port}\n"
        "timing: {alpha: 0, delta: 0, tau: 1}\ntraffic: {type: none}\n")

def topo(kind, dims):
    if kind == "cube":
        return "{type: hypercube, dim: %d}" % dims
    return "{type: torus, dims: [%s]}" % ", ".join(map(str, dims))

def run(name, text):
    path = f"{OUT}/{name}.yaml"
    open(path, "w").write(text)
    subprocess.run([SY, "run", path, "--quiet", "--out", f"{OUT}/{name}"], check=True)
    return json.load(open(f"{OUT}/{name}/results.json"))

def schedule(name, kind, dims, sched, seed=1):
    r = run(name, f"topology: {topo(kind, dims)}\n{NODE}simulation: {{seed: {seed}}}\n"
                  f"schedule: {sched}\n")
    return r["exchange"]

def routers(name, kind, dims):
    # No schedule: input-VC wormhole routers, dimension-order routing, every node injects its
    # n - 1 one-flit packets at cycle 0 through as many injection channels as it has links.
    ports = dims if kind == "cube" else sum(1 if p == 2 else 2 for p in dims)
    r = run(name, f"topology: {topo(kind, dims)}\n"
                  "router: {buffering: input_vc, switching: wormhole}\n"
                  f"network_interface: {{injection: serial, injection_channels: {ports}}}\n"
                  "timing: {alpha: 0, delta: 0, tau: 1}\n"
                  "traffic: {type: total_exchange, packet_flits: 1}\n")
    return r["cycles"], r["latency"]["mean"]

def label(kind, dims):
    if kind == "cube":
        return f"Q{dims}"
    return f"ring{dims[0]}" if len(dims) == 1 else "x".join(map(str, dims))

def nodes(kind, dims):
    return 2 ** dims if kind == "cube" else math.prod(dims)

rows = []
def row(what, kind, dims, sched, seed=1):
    x = schedule(f"{label(kind, dims)}-{len(rows)}", kind, dims, sched, seed)
    f = x["completion_formula"]
    dref = x.get("average_delay_formula")
    rows.append((what, label(kind, dims), x["completion_time"], f, x["average_delay"],
                 dref, x["average_delay_lower_bound"], x["utilization"], x))
    return x

primes = {2, 3, 5, 7}
for d in range(2, 8):
    if d in primes:
        row("OADD total exchange", "cube", d, "{algorithm: oadd}")
for p in (3, 5, 7):
    row("OADD total exchange", "torus", [p, p], "{algorithm: oadd}")
for n in (5, 9, 10, 16):
    row("OADD total exchange", "torus", [n], "{algorithm: oadd}")
# Beyond d prime (issue 36): near-optimal D, against the SPT bound.
for d in (4, 6, 8):
    row("OADD, d not prime (§6.3, near-optimal)", "cube", d, "{algorithm: oadd}")
for dims in ([3, 3, 3], [5, 5, 5], [3, 3, 3, 3]):
    row("OADD, p odd, d >= 3 (§8.4, near-optimal)", "torus", dims, "{algorithm: oadd}")
for dims in ([4, 4], [6, 6], [8, 8], [4, 4, 4]):
    row("OADD-like, p even (no construction in the paper, near-optimal)", "torus", dims,
        "{algorithm: oadd}")
for d in range(3, 8):
    row("OCTR total exchange", "cube", d, "{algorithm: total_exchange}")
for dims in ([3, 3], [5, 5], [7, 7], [3, 3, 3], [5, 5, 5], [4, 4], [6, 6], [8, 8], [4, 4, 4],
             [9], [10]):
    row("OCTR total exchange", "torus", dims, "{algorithm: total_exchange}")
for d, K, L in ((5, 2, 3), (5, 4, 5), (6, 1, 2), (7, 2, 4)):
    row(f"OCTR ({K}, {L}) neighbourhood", "cube", d,
        f"{{algorithm: octr, task: neighbourhood, near: {K}, far: {L}}}")
for d in (5, 6):
    for k in range(1, d):
        row(f"OCTR, k = {k} links", "cube", d, f"{{algorithm: total_exchange, links: {k}}}")
for (kind, dims) in (("cube", 5), ("cube", 6), ("torus", [5, 5]), ("torus", [6, 6])):
    for seed in (1, 2, 3):
        row(f"greedy (seed {seed})", kind, dims, "{algorithm: greedy}", seed)

with open("docs/figures/exchange_isotropic.md", "w") as o:
    o.write("### Isotropic tasks on the model beside the paper's formulas (slots)\n\n")
    o.write("Command: `bash tb/exchange_figures.sh`. Cycle model, 1-flit packets, tau = 1, "
            "alpha = delta = 0, output-queued store-and-forward all-port nodes. Completion and "
            "D (mean over the packets of the slot each is in) from the model; greedy's formula is "
            "its bound h_r + h_c - 1; D's reference is the paper's D_TE where it has one, else "
            "the SPT lower bound (exact for OADD on 2-D tori by Theorem 6); the near-optimal "
            "OADD rows (d not prime, tori of d >= 3, even p: no optimum known) give how far D is "
            "above that bound.\n\n")
    o.write("| task, algorithm | network | completion (model) | formula | match | D (model) | "
            "D_TE (paper) | SPT bound on D | D match | utilization |\n")
    o.write("|---|---|---|---|---|---|---|---|---|---|\n")
    for what, net, c, f, D, dref, spt, u, x in rows:
        greedy = what.startswith("greedy")
        cm = ("<= bound" if c <= f else "ABOVE") if greedy else ("yes" if c == f else "NO")
        if "near-optimal" in what:  # above the SPT bound by so much
            ref = spt
            dm = f"+{100 * (D / spt - 1):.2f}% over the bound" if D >= spt - 1e-9 else "BELOW"
        elif what.startswith("OADD"):  # the optimum: D_TE, or the SPT bound (Theorem 6)
            ref = dref if dref is not None else spt
            dm = "yes" if abs(D - ref) < 1e-6 else "NO"
        else:  # any other schedule: not below the optimum
            ref = dref if dref is not None else spt
            dm = (">= optimum" if dref is not None else ">= bound") if D >= ref - 1e-9 \
                else "BELOW"
        o.write(f"| {what} | {net} | {c:.0f} | {f:.0f} | {cm} | {D:.4f} | "
                f"{'' if dref is None else f'{dref:.4f}'} | {spt:.4f} | {dm} | {u:.3f} |\n")

# Completion and D against n: hypercubes d = 2..7 and odd 2-D tori.
series = {"cube": list(range(2, 8)), "torus": [[3, 3], [5, 5], [7, 7], [9, 9]]}
data = {}
for kind, sizes in series.items():
    for dims in sizes:
        n = nodes(kind, dims)
        opt = schedule(f"opt-{label(kind, dims)}", kind, dims, "{algorithm: oadd}")
        octr = schedule(f"octr-{label(kind, dims)}", kind, dims, "{algorithm: total_exchange}")
        gr = schedule(f"greedy-{label(kind, dims)}", kind, dims, "{algorithm: greedy}")
        hw = routers(f"hw-{label(kind, dims)}", kind, dims)
        data.setdefault(kind, []).append((n, opt, octr, gr, hw))

for key, ylabel, fname in (("completion_time", "completion (slots)", "exchange_completion.png"),
                           ("average_delay", "average delay D (slots)", "exchange_delay.png")):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, kind, title in ((axes[0], "cube", "hypercube (d = 2..7)"),
                            (axes[1], "torus", "2-D torus, p odd (3..9)")):
        pts = data[kind]
        ns = [p[0] for p in pts]
        opt_label = "OADD (d not prime: §6.3)" if kind == "cube" else "OADD"
        ax.plot(ns, [p[1][key] for p in pts], "o-", label=opt_label + " (model)")
        ax.plot(ns, [p[2][key] for p in pts], "s--", label="OCTR alone (model)")
        ax.plot(ns, [p[3][key] for p in pts], "^-", label="greedy, seed 1 (model)")
        hw_i = 0 if key == "completion_time" else 1
        ax.plot(ns, [p[4][hw_i] for p in pts], "x-",
                label="input-VC wormhole routers, no schedule (model, cycles; "
                      "cut-through: hops cost delta = 0)")
        if key == "completion_time":
            ax.plot(ns, [p[1]["completion_formula"] for p in pts], "k:", label="paper: optimum")
        else:
            ax.plot(ns, [p[1].get("average_delay_formula", p[1]["average_delay_lower_bound"])
                         for p in pts], "k:", label="paper D_TE / SPT bound")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("nodes n")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"Total exchange: {ylabel} against n (Switchyard cycle model)")
    fig.tight_layout()
    fig.savefig("docs/figures/" + fname, dpi=110)
    plt.close(fig)

# The k-link curve: Q6 and Q7, completion against k.
fig, ax = plt.subplots(figsize=(6, 4.2))
for d in (6, 7):
    ks = list(range(1, d + 1))
    xs = [schedule(f"k{k}-Q{d}", "cube", d, f"{{algorithm: total_exchange, links: {k}}}")
          for k in ks]
    ax.plot(ks, [x["completion_time"] for x in xs], "o-", label=f"Q{d}: model")
    ax.plot(ks, [math.ceil(2 ** d * d / (2 * k)) for k in ks], "k:",
            label=f"Q{d}: paper ceil(nd/2k)")
ax.set_xlabel("links per node per slot k")
ax.set_ylabel("completion (slots)")
ax.set_yscale("log")
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
ax.set_title("k-link-limited total exchange (Theorem 7)")
fig.tight_layout()
fig.savefig("docs/figures/exchange_klinks.png", dpi=110)
PY
echo "-> docs/figures/exchange_isotropic.md, exchange_completion.png, exchange_delay.png, exchange_klinks.png"
