#!/usr/bin/env python3
"""Draws the latency matrix of a switchyard run from its flows.csv.

usage: tb/plot_flows.py FLOWS_CSV [--out FILE] [--measure MEASURE] [--title TEXT]

flows.csv (simulation.flows_csv: true) holds, per (source, destination) pair that had a measured
packet, its packet count and latencies. The plot is the N x N matrix: row = source node, column
= destination node, colour = the pair's mean packet latency in cycles (latency_mean, or
network_latency_mean, latency_max, packets, hops with --measure); pairs without a measured
packet are white. The title names the run (results.json beside the CSV, when there is one) and
the measure. FILE's extension picks the format (.png, .pdf, .svg; default: latency_matrix.png
beside the CSV).
"""
import argparse
import csv
import json
import os
import sys

from plot_links import title_of
from sy_pyplot import plt  # matplotlib wherever python3 comes from

MEASURES = {
    "latency_mean": "mean packet latency (cycles)",
    "network_latency_mean": "mean network latency (cycles)",
    "latency_max": "largest packet latency (cycles)",
    "packets": "measured packets",
    "hops": "hops (minimal path)",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", help="image path; .png, .pdf or .svg (default: beside the CSV)")
    ap.add_argument("--measure", default="latency_mean", choices=sorted(MEASURES))
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"{a.csv}: no measured flows (a run with simulation.flows_csv: true and a "
              "measurement window)", file=sys.stderr)
        return 1
    here = os.path.dirname(a.csv) or "."
    nodes = 1 + max(max(int(r["src"]), int(r["dst"])) for r in rows)
    name = ""
    results = os.path.join(here, "results.json")
    if os.path.exists(results):
        with open(results) as f:
            res = json.load(f)
        nodes = max(nodes, int(res.get("nodes", 0) or 0))
        topo = res.get("config", {}).get("topology", {})
        dims = topo.get("dims") or [topo.get("dim", "?")]
        name = title_of(res, topo.get("type", ""), dims)
    m = [[float("nan")] * nodes for _ in range(nodes)]
    for r in rows:
        m[int(r["src"])][int(r["dst"])] = float(r[a.measure])
    fig, ax = plt.subplots(figsize=(6.4, 5.6), dpi=150, constrained_layout=True)
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("white")
    im = ax.imshow(m, cmap=cmap, origin="upper", interpolation="nearest")
    ax.set_xlabel("destination node")
    ax.set_ylabel("source node")
    what = MEASURES[a.measure]
    ax.set_title(a.title or (f"{name}\n{what} per (source, destination)" if name
                             else f"{what} per (source, destination)"), fontsize=9)
    cb = fig.colorbar(im, ax=ax, shrink=0.85)
    cb.set_label(what, fontsize=8)
    out = a.out or os.path.join(here, "latency_matrix.png")
    fig.savefig(out)
    print(f"-> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
