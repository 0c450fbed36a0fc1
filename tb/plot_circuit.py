#!/usr/bin/python3
"""Plots circuit-switched broadcast time vs message length (Peters & Syska, from the model).

usage: tb/plot_circuit.py TIME_VS_LENGTH_CSV --out PNG

Reads docs/figures/circuit_time_vs_length.csv as written by tb/circuit_table.sh (one row per
algorithm and message length L: model_time, formula at the same packet size B, paper_optimum at
the real optimum B, lower_bound) and draws, log-log: the model's times as markers, the closed
form at the same B as a solid line, the paper's real-B optimum as a dotted line (for the SAF trees
with the paper's depth D + 1) and Proposition 1 for the 25x25 torus as a dashed grey line.
"""
import argparse
import csv

from sy_pyplot import plt  # noqa: E402 (matplotlib wherever python3 comes from)

STYLE = {  # algorithm: (label, colour, marker)
    "tiling": ("tiling", "tab:blue", "o"),
    "divide_and_conquer": ("divide & conquer", "tab:orange", "s"),
    "h_trees": ("H-trees", "tab:green", "^"),
    "store_and_forward_trees": ("SAF trees", "tab:red", "D"),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="Broadcast time vs message length, iPSC/860-like "
                    "(α=2600, δ=400, τ=17 cycles; 1 cycle = 25 ns, 1 flit = 1 byte)")
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(8, 5.4), dpi=120)
    for alg, (label, colour, marker) in STYLE.items():
        pts = sorted((r for r in rows if r["algorithm"] == alg), key=lambda r: int(r["L"]))
        if not pts:
            continue
        Ls = [int(r["L"]) for r in pts]
        torus = pts[0]["torus"].replace("x", "×")
        name = f"{label}, {torus} (N = {pts[0]['N']})"
        ax.plot(Ls, [float(r["model_time"]) for r in pts], linestyle="none", marker=marker,
                color=colour, markersize=6, label=f"{name}: model")
        ax.plot(Ls, [float(r["formula"]) for r in pts], color=colour, linewidth=1.2)
        if alg != "tiling":
            ax.plot(Ls, [float(r["paper_optimum"]) for r in pts], color=colour, linewidth=1,
                    linestyle=":")
    lb = sorted((r for r in rows if r["algorithm"] == "tiling"), key=lambda r: int(r["L"]))
    if lb:
        ax.plot([int(r["L"]) for r in lb], [float(r["lower_bound"]) for r in lb], color="grey",
                linestyle="--", linewidth=1, label="lower bound (Prop. 1), 25×25")
    ax.plot([], [], color="black", linewidth=1.2, label="closed form at the same B")
    ax.plot([], [], color="black", linestyle=":", linewidth=1,
            label="paper's optimum over real B (SAF: depth D + 1)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ticks = sorted({int(r["L"]) for r in rows})[::2]
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(t) for t in ticks])
    ax.set_xlabel("message length L (bytes = flits)")
    ax.set_ylabel("broadcast time (cycles)")
    ax.set_title(a.title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper left")
    fig.tight_layout()
    fig.savefig(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
