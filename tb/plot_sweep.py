#!/usr/bin/env python3
"""Turns a switchyard sweep.csv into a latency plot.

usage: tb/plot_sweep.py SWEEP_CSV [--out FILE] [--title TEXT]

x: the offered load (flits/node/cycle) when the swept parameter is a load (traffic.rate,
traffic.load.rho, ...), else the swept parameter's value; with a grid of two parameters, one
curve per value of the second. y: mean packet latency (cycles) with its 95% interval; the p99
is drawn dashed but the axis is scaled to the means, so it never flattens them. Marked: the
zero-load latency (the mean at the lightest point) and the saturation point (the last stable
point of each curve). Runs that were not stable are red triangles at the top edge, never
measurements. The title says what ran (the config's name, topology and router model, from a
run's results.json beside the CSV) and what was swept; the legend sits outside the axes, so it
never covers a curve. FILE's extension picks PNG, PDF or SVG (default: latency_throughput.png
beside the CSV).
"""


def what_ran(sweep_dir):
    """'name: 8x8 torus, model ...' from one of the sweep's results.json files ('' if none)."""
    for path in sorted(glob.glob(os.path.join(sweep_dir, "*", "results.json")))[:1]:
        try:
            with open(path) as f:
                res = json.load(f)
        except (OSError, ValueError):
            return ""
        cfg = res.get("config", {})
        topo = cfg.get("topology", {})
        dims = topo.get("dims")
        shape = "x".join(map(str, dims)) if dims else f"2^{topo.get('dim', '?')}"
        text = f"{cfg.get('name', '?')}: {shape} {topo.get('type', '')}"
        model = res.get("model", {}).get("line")
        return text + (("\n" + textwrap.fill(model, 95)) if model else "")
    return ""
import argparse
import glob
import json
import os
import sys
import textwrap

from sy_sweep import num, read_sweep  # noqa: E402
from sy_pyplot import plt  # matplotlib wherever python3 comes from

LOADS = ("traffic.rate", "traffic.load.rho", "traffic.broadcast.rate")


def number(v):
    try:
        return float(v)
    except ValueError:
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", help="PNG path (default: next to the CSV)")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    rows = read_sweep(a.csv)
    if not rows:
        print(f"{a.csv}: no rows", file=sys.stderr)
        return 1
    params = rows[0]["param"].split("|")
    for r in rows:
        for k in ("offered", "accepted", "latency_mean", "latency_ci95", "latency_p99"):
            r[k] = num(r, k)
        r["values"] = r["value"].split("|")
    # x: the load, or the first swept parameter; curves: the second parameter's values.
    load_x = params[0] in LOADS
    xkey = "offered" if load_x else params[0]
    for r in rows:
        r["x"] = r["offered"] if load_x else (number(r["values"][0]) if number(r["values"][0])
                                              is not None else r["values"][0])
    groups = {}
    for r in rows:
        key = "|".join(r["values"][1:]) if len(params) > 1 else ""
        groups.setdefault(key, []).append(r)
    fig, ax = plt.subplots(figsize=(8.5, 4.8), dpi=120)
    stable_means = [r["latency_mean"] for r in rows if r["stable"] == "true"]
    top = 2.0 * max(stable_means) if stable_means else 1.0
    zero = None
    for key, g in groups.items():
        g.sort(key=lambda r: r["x"] if isinstance(r["x"], float) else str(r["x"]))
        st = [r for r in g if r["stable"] == "true"]
        bad = [r for r in g if r["stable"] != "true"]
        label = f"{'|'.join(params[1:])} = {key}" if key else "mean latency (95% CI)"
        if st:
            line = ax.errorbar([r["x"] for r in st], [r["latency_mean"] for r in st],
                               yerr=[r["latency_ci95"] for r in st], marker="o", capsize=3,
                               label=label)
            color = line[0].get_color()
            ax.plot([r["x"] for r in st], [r["latency_p99"] for r in st], "--", color=color,
                    alpha=0.5, label=f"p99, {label}" if key else "p99 latency")
            # Saturation: the last stable point of this curve.
            if bad:
                ax.axvline(st[-1]["x"], color=color, ls=":", alpha=0.7)
                sx = st[-1]["x"]
                text = f"saturation ≈ {sx:.3g}" if isinstance(sx, float) else f"saturation: {sx}"
                # (Inside the axes, halfway up: clear of the title and the red markers.)
                ax.annotate(text, (sx, 0.5), xycoords=("data", "axes fraction"),
                            xytext=(-3, 0), textcoords="offset points", fontsize=7,
                            color=color, rotation=90, ha="right", va="center")
            if zero is None:
                zero = st[0]["latency_mean"]
        if bad:
            ax.plot([r["x"] for r in bad], [top] * len(bad), "^", color="red",
                    label="not stable (saturated)" if key == list(groups)[0] else None)
    if zero is not None:
        ax.axhline(zero, color="gray", ls=":", lw=1)
        # (At the right end, below the line: clear of the curves' first points.)
        ax.annotate(f"zero-load ≈ {zero:.1f}", (1.0, zero), xycoords=("axes fraction", "data"),
                    xytext=(-4, -3), textcoords="offset points", fontsize=7, color="gray",
                    ha="right", va="top")
    ax.set_ylim(0, top * 1.05)
    ax.set_xlabel("offered load (flits/node/cycle)" if load_x else xkey)
    ax.set_ylabel("latency (cycles)")
    swept = " and ".join(params)
    ran = what_ran(os.path.dirname(a.csv) or ".")
    ax.set_title(a.title or (f"{ran}\nswept: {swept}" if ran else f"swept: {swept}"), fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, borderaxespad=0)
    out = a.out or os.path.join(os.path.dirname(a.csv) or ".", "latency_throughput.png")
    fig.tight_layout()
    fig.savefig(out)
    print(f"-> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
