#!/usr/bin/python3
"""Plots and tabulates the greedy-routing runs made by tb/greedy_figures.sh.

usage: tb/plot_greedy.py FIGURE_DIR

Reads FIGURE_DIR/greedy_*.csv (switchyard sweep.csv files over traffic.load.rho) and writes
greedy_hypercube.png, greedy_butterfly.png, greedy_heavy_traffic.png, greedy_realistic.png and
greedy_tables.md. T is the model's mean delay in packet times (latency_mean / packet_time); the
bounds are the paper's closed forms (also printed by every run as greedy_lower/upper/exact).
"""
import math
import os
import sys

from sy_pyplot import plt  # noqa: E402 (matplotlib wherever python3 comes from)
from sy_sweep import num, read_sweep  # noqa: E402

D = 6


def load(directory, name):
    path = os.path.join(directory, f"greedy_{name}.csv")
    rows = read_sweep(path)
    out = []
    for r in rows:
        pt = num(r, "packet_time")
        out.append({"rho": float(r["value"]), "stable": r["stable"] == "true",
                    "T": num(r, "latency_mean") / pt, "ci": num(r, "latency_ci95") / pt,
                    "lower": num(r, "greedy_lower"), "upper": num(r, "greedy_upper"),
                    "exact": num(r, "greedy_exact")})
    return sorted(out, key=lambda r: r["rho"])


def cube_bounds(p, rho):
    return D * p + p * rho / (2 * (1 - rho)), D * p / (1 - rho), D + rho / (2 * (1 - rho))


def fly_bounds(p, rho):
    lam = rho / max(p, 1 - p)
    a, b = lam * p, lam * (1 - p)
    lo = D + p * a / (2 * (1 - a)) + (1 - p) * b / (2 * (1 - b))
    hi = D * p / (1 - a) + D * (1 - p) / (1 - b)
    return lo, hi, D + lam / (2 * (1 - lam)) if lam < 1 else math.inf


def curve(fn, p, top=0.97):
    xs = [i / 200 for i in range(2, int(top * 200) + 1)]
    return xs, [fn(p, x) for x in xs]


def plot_family(directory, kind, ps, bounds, title, out):
    fig, ax = plt.subplots(figsize=(7, 4.6), dpi=120)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, p in enumerate(ps):
        c = colors[i % len(colors)]
        rows = load(directory, f"{kind}_p{p}")
        ok = [r for r in rows if r["stable"]]
        ax.errorbar([r["rho"] for r in ok], [r["T"] for r in ok], yerr=[r["ci"] for r in ok],
                    fmt="o", color=c, ms=4, capsize=2, label=f"model p = {p}")
        xs, ys = curve(bounds, float(p))
        ax.plot(xs, [y[0] for y in ys], ":", color=c, lw=1)
        ax.plot(xs, [y[1] for y in ys], "--", color=c, lw=1)
        exact = float(p) == 1 or (kind.startswith("bf") and float(p) == 0)
        if exact:
            ax.plot(xs, [y[2] for y in ys], "-", color=c, lw=1)
        for r in rows:
            if not r["stable"]:
                ax.plot([r["rho"]], [ax.get_ylim()[1]], "v", color="red")
    ax.set_yscale("log")
    ax.set_xlabel("throughput factor rho (per-arc load)")
    ax.set_ylabel("mean delay T (packet times)")
    ax.set_title(title + "  (dotted: lower bound, dashed: upper, solid: exact)", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(directory, out))
    plt.close(fig)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    d = sys.argv[1]
    plot_family(d, "hc6", ["0.25", "0.5", "0.75", "1"], cube_bounds,
                "2^6 hypercube, greedy e-cube routing (model)", "greedy_hypercube.png")
    plot_family(d, "bf6", ["0", "0.25", "0.5", "0.75", "1"], fly_bounds,
                "6-dimensional butterfly (model)", "greedy_butterfly.png")
    lines = []
    lines.append("### Greedy routing on the model against the paper (ideal mode)\n")
    lines.append("Command: `bash tb/greedy_figures.sh`. T in packet times, ±95% CI (batch means).\n")
    lines.append("| network | p | rho | model T | ±95% | lower | upper | exact | within |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    within = total = 0
    for kind, ps, name in (("hc6", ["0.25", "0.5", "0.75", "1"], "hypercube 2^6"),
                           ("bf6", ["0", "0.25", "0.5", "0.75", "1"], "butterfly d = 6")):
        for p in ps:
            for r in load(d, f"{kind}_p{p}"):
                if not r["stable"]:
                    lines.append(f"| {name} | {p} | {r['rho']:g} | unstable | | {r['lower']:.3f} "
                                 f"| {r['upper']:.3f} | | |")
                    continue
                ex = "" if math.isnan(r["exact"]) else f"{r['exact']:.3f}"
                if ex:
                    ok = abs(r["T"] - r["exact"]) <= 2 * r["ci"] + 0.01 * r["exact"]
                else:
                    ok = r["lower"] <= r["T"] + r["ci"] and r["T"] - r["ci"] <= r["upper"]
                total += 1
                within += ok
                lines.append(f"| {name} | {p} | {r['rho']:g} | {r['T']:.3f} | {r['ci']:.3f} | "
                             f"{r['lower']:.3f} | {r['upper']:.3f} | {ex} | "
                             f"{'yes' if ok else 'NO'} |")
    lines.append(f"\n{within} of {total} stable points within the bounds (exact cases: within "
                 "2 CIs + 1%).\n")
    # Heavy traffic.
    fig, ax = plt.subplots(figsize=(6.5, 4.2), dpi=120)
    lines.append("### Heavy traffic: (1 - rho) T on the 2^6 hypercube\n")
    lines.append("The paper: p/2 <= lim (1 - rho) T <= dp as rho -> 1, and it conjectures that the "
                 "upper bound is tight.\n")
    lines.append("| p | rho | model T | (1 - rho) T | p/2 | dp |")
    lines.append("|---|---|---|---|---|---|")
    for i, p in enumerate(["0.5", "1"]):
        rows = [r for r in load(d, f"heavy_p{p}") + load(d, f"heavy_hi_p{p}") if r["stable"]]
        rows.sort(key=lambda r: r["rho"])
        xs = [r["rho"] for r in rows]
        ys = [(1 - r["rho"]) * r["T"] for r in rows]
        ax.plot(xs, ys, "o-", label=f"model p = {p}")
        ax.axhline(float(p) / 2, ls=":", color=f"C{i}", lw=1)
        ax.axhline(D * float(p), ls="--", color=f"C{i}", lw=1)
        for r in rows:
            lines.append(f"| {p} | {r['rho']:g} | {r['T']:.2f} | {(1 - r['rho']) * r['T']:.3f} | "
                         f"{float(p) / 2:g} | {D * float(p):g} |")
    ax.set_xlabel("rho")
    ax.set_ylabel("(1 - rho) T")
    ax.set_title("2^6 hypercube: heavy traffic (dotted p/2, dashed dp)", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "greedy_heavy_traffic.png"))
    plt.close(fig)
    # Realistic routers.
    fig, ax = plt.subplots(figsize=(6.5, 4.2), dpi=120)
    lines.append("\n### Realistic routers on the same hypercube (p = 1/2, 4-flit packets)\n")
    lines.append("| router | largest stable rho swept | T at rho 0.3 (packet times) |")
    lines.append("|---|---|---|")
    for name, label in (("real_oq", "ideal output-queued SAF, all-port"),
                        ("real_wh2", "input-VC wormhole, 2 VCs x 4 flits"),
                        ("real_wh4", "input-VC wormhole, 4 VCs x 4 flits")):
        rows = load(d, name)
        ok = [r for r in rows if r["stable"]]
        ax.plot([r["rho"] for r in ok], [r["T"] for r in ok], "o-", label=label)
        at = [r for r in ok if abs(r["rho"] - 0.3) < 1e-9]
        lines.append(f"| {label} | {max(r['rho'] for r in ok) if ok else float('nan'):g} | "
                     f"{at[0]['T']:.2f} |" if at else f"| {label} | - | unstable |")
    ax.set_yscale("log")
    ax.set_xlabel("rho")
    ax.set_ylabel("T (packet times)")
    ax.set_title("2^6 hypercube, p = 1/2: ideal vs input-VC wormhole routers", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "greedy_realistic.png"))
    plt.close(fig)
    # Slotted arrivals.
    lines.append("\n### Slotted arrivals: S cycles per packet time (2^6 hypercube, p = 1/2)\n")
    lines.append("| S | rho | model T | ±95% | upper | slotted upper (upper + 1/S) |")
    lines.append("|---|---|---|---|---|---|")
    for S in ("1", "4", "16"):
        for r in load(d, f"slot_S{S}"):
            lines.append(f"| {S} | {r['rho']:g} | {r['T']:.3f} | {r['ci']:.3f} | "
                         f"{r['upper']:.3f} | {r['upper'] + 1 / float(S):.3f} |")
    with open(os.path.join(d, "greedy_tables.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for name in ("greedy_hypercube.png", "greedy_butterfly.png", "greedy_heavy_traffic.png",
                 "greedy_realistic.png", "greedy_tables.md"):
        print("->", os.path.join(d, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
