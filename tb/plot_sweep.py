#!/usr/bin/python3
"""Turns a switchyard sweep.csv into a latency-throughput PNG.

usage: tb/plot_sweep.py SWEEP_CSV [--out PNG] [--title TEXT]

x: offered load (flits/node/cycle); y: mean packet latency (cycles) with its 95% confidence
interval, the p99 as a dashed line, and the accepted throughput on a second axis. Points whose
run was not stable (saturated) are drawn as red triangles at the top edge, never as measurements.
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", help="PNG path (default: next to the CSV)")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"{a.csv}: no rows", file=sys.stderr)
        return 1
    for r in rows:
        for k in ("offered", "accepted", "latency_mean", "latency_ci95", "latency_p99"):
            r[k] = float(r[k])
    rows.sort(key=lambda r: r["offered"])
    stable = [r for r in rows if r["stable"] == "true"]
    unstable = [r for r in rows if r["stable"] != "true"]
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    top = 1.0
    if stable:
        xs = [r["offered"] for r in stable]
        ax.errorbar(xs, [r["latency_mean"] for r in stable],
                    yerr=[r["latency_ci95"] for r in stable], marker="o", capsize=3,
                    label="mean latency (95% CI)")
        ax.plot(xs, [r["latency_p99"] for r in stable], "--", marker=".", label="p99 latency")
        top = 1.15 * max(r["latency_p99"] for r in stable)
    if unstable:
        ax.plot([r["offered"] for r in unstable], [top] * len(unstable), "^", color="red",
                label="not stable (saturated)")
    ax.set_ylim(0, top * 1.05)
    ax.set_xlabel("offered load (flits/node/cycle)")
    ax.set_ylabel("latency (cycles)")
    ax2 = ax.twinx()
    ax2.plot([r["offered"] for r in rows], [r["accepted"] for r in rows], ":", color="gray",
             marker="x", label="accepted throughput")
    ax2.set_ylabel("accepted (flits/node/cycle)", color="gray")
    ax.set_title(a.title or f"{rows[0]['param']} sweep: {os.path.dirname(a.csv) or '.'}")
    ax.grid(True, alpha=0.3)
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left")
    out = a.out or os.path.join(os.path.dirname(a.csv) or ".", "latency_throughput.png")
    fig.tight_layout()
    fig.savefig(out)
    print(f"-> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
