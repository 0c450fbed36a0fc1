#!/usr/bin/env python3
"""Draws link-utilization heatmaps from a switchyard results.json.

usage: tb/plot_links.py RESULTS_JSON [--out-dir DIR] [--format png|pdf|svg]

For a 2-D or 3-D torus or mesh (results.json's links.utilization array): one PNG per dimension
and direction, links_d<dim>_plus.png / links_d<dim>_minus.png (a dimension of size 2 has a single
link per node: links_d<dim>.png). Each cell is a node, coloured by the utilization of the link
leaving it in that dimension and direction (busy cycles / window cycles); x is coordinate 0,
y coordinate 1 (up). A 3-D network gets one panel per z-plane (coordinate 2) in a grid, in the
same image. Nodes without such a link (a mesh's edge) are grey. Every image of a run shares one
colour scale, 0 .. the run's largest link utilization, so they compare at a glance; cells carry
their values when the planes are small enough to read them. DIR defaults to the directory of
RESULTS_JSON; --format picks the files' format (PNG by default; PDF and SVG for papers).

For an indirect network (butterfly, cmesh, fat tree, dragonfly, flattened butterfly, anynet):
one image, links_by_class.png, a heatmap with one row per link class (the topology's classes:
a butterfly's level and arc, a fat tree's level and direction, a dragonfly's local and global
links...), each cell one link of that class, so a class that carries more than the others (a
dragonfly's global links under adversarial traffic) shows at a glance.
"""
import argparse
import json
import math
import os
import sys

from sy_pyplot import plt  # matplotlib wherever python3 comes from

import numpy as np  # (matplotlib brings it)

DIR_NAMES = {1: ("plus", "+"), -1: ("minus", "-"), 0: ("", "")}


def fail(msg):
    print(f"tb/plot_links.py: {msg}", file=sys.stderr)
    return 1


def title_of(res, topo_type, dims):
    cfg = res["config"]
    t = cfg.get("traffic", {})
    load = ""
    if "load" in t:
        load = f"rho {t['load']['rho']:g}"
    elif "rate" in t:
        load = f"rate {t['rate']:g} {t.get('rate_unit', 'flits')}/node/cycle"
    offered = res.get("throughput", {}).get("offered")
    if offered is not None:
        load += f" (offered {offered:.3g} flits/node/cycle)"
    parts = [f"{'x'.join(map(str, dims))} {topo_type}"]
    if t.get("pattern"):
        parts.append(t["pattern"])
    if load:
        parts.append(load.strip())
    return f"{cfg.get('name', '?')}: " + ", ".join(parts)


def draw_by_class(res, links, topo_type, a):
    """An indirect network: one heatmap row per link class (results.json's links.by_class
    order), each cell a link of that class (sorted by source router, then port), coloured by its
    utilization; the row's label gives the class, its link count and mean utilization."""
    by_class = res.get("links", {}).get("by_class", [])
    names = [c["class"] for c in by_class]
    rows = {n: [] for n in names}
    for e in links:
        if "class" in e:
            name = e["class"]
        else:  # butterfly entries: class 2 * level + (cross arc)
            k = 2 * e["level"] + (0 if e["arc"] == "straight" else 1)
            name = names[k] if k < len(names) else f"level {e['level']} {e['arc']}"
        rows.setdefault(name, []).append(e)
    names = [n for n in rows if rows[n]]
    if not names:
        return fail(f"{a.results} lists no links")
    width = max(len(rows[n]) for n in names)
    g = np.full((len(names), width), np.nan)
    for i, n in enumerate(names):
        for j, e in enumerate(sorted(rows[n], key=lambda e: (e["src"], e.get("port", 0)))):
            g[i, j] = e["utilization"]
    vmax = np.nanmax(g) if np.nanmax(g) > 0 else 1.0
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("#ffffff")
    fig, ax = plt.subplots(figsize=(min(16.0, 3.0 + 0.12 * width), 1.6 + 0.42 * len(names)),
                           dpi=110, layout="constrained")
    im = ax.imshow(np.ma.masked_invalid(g), aspect="auto", cmap=cmap, vmin=0, vmax=vmax,
                   interpolation="nearest")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels([f"{n} ({len(rows[n])} links, mean {np.mean([e['utilization'] for e in rows[n]]):.3f})"
                        for n in names], fontsize=7)
    ax.set_xlabel("links of the class, by source router and port", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    if width <= 24 and len(names) <= 12:
        for i in range(len(names)):
            for j in range(width):
                v = g[i, j]
                if not np.isnan(v):
                    ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6,
                            color="white" if v < 0.6 * vmax else "black")
    cfg = res.get("config", {})
    t = cfg.get("traffic", {})
    offered = res.get("throughput", {}).get("offered")
    what = ", ".join(x for x in (t.get("pattern", ""), f"offered {offered:.3g} flits/terminal/cycle"
                                 if offered is not None else "") if x)
    ax.set_title(f"{cfg.get('name', '?')}: {topo_type}, {what}\nutilization of every link, "
                 "one row per link class", fontsize=9)
    cb = fig.colorbar(im, ax=ax, shrink=0.85, pad=0.02)
    cb.set_label("utilization (busy cycles / window cycles)", fontsize=8)
    cb.ax.tick_params(labelsize=7)
    out_dir = a.out_dir or os.path.dirname(os.path.abspath(a.results))
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"links_by_class.{a.format}")
    fig.savefig(path)
    plt.close(fig)
    print(f"-> {path}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--out-dir", help="where the images go (default: beside RESULTS_JSON)")
    ap.add_argument("--format", default="png", choices=("png", "pdf", "svg"))
    a = ap.parse_args()
    try:
        with open(a.results) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        return fail(f"{a.results}: {e}")
    topo = res.get("config", {}).get("topology", {})
    topo_type = topo.get("type", "?")
    dims = topo.get("dims")
    links = res.get("links", {}).get("utilization")
    if links is None:
        return fail(f"{a.results} has no links.utilization (written by switchyard since the "
                    "per-link utilization array was added; run it again)")
    if topo_type not in ("torus", "mesh", "hypercube"):
        return draw_by_class(res, links, topo_type, a)
    if not dims or not 2 <= len(dims) <= 3:
        shape = "x".join(map(str, dims)) + " " if dims else ""
        return fail(f"heatmaps are drawn for 2-D and 3-D tori and meshes; {a.results} is a "
                    f"{shape}{topo_type} (its links.utilization lists every link all the same)")
    X, Y = dims[0], dims[1]
    Z = dims[2] if len(dims) == 3 else 1
    out_dir = a.out_dir or os.path.dirname(os.path.abspath(a.results))
    os.makedirs(out_dir, exist_ok=True)
    # One grid per (dimension, direction): z, y, x; NaN where a node has no such link.
    grids = {}
    for e in links:
        n = e["src"]
        x, y, z = n % X, (n // X) % Y, n // (X * Y)
        g = grids.setdefault((e["dim"], e["dir"]), np.full((Z, Y, X), np.nan))
        g[z, y, x] = e["utilization"]
    vmax = max((e["utilization"] for e in links), default=0.0)
    vmax = vmax if vmax > 0 else 1.0
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("#d0d0d0")
    title = title_of(res, topo_type, dims)
    annotate = X <= 12 and Y <= 12 if Z == 1 else X <= 6 and Y <= 6
    cols = 1 if Z == 1 else math.ceil(math.sqrt(Z))
    rows = math.ceil(Z / cols)
    written = []
    for (dim, d) in sorted(grids, key=lambda k: (k[0], -k[1])):
        word, sign = DIR_NAMES[d]
        g = grids[(dim, d)]
        panel = 4.6 if Z == 1 else max(2.4, 9.0 / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(cols * panel + 1.4, rows * panel + 1.0),
                                 dpi=110, squeeze=False, layout="constrained")
        im = None
        for k in range(rows * cols):
            ax = axes[k // cols][k % cols]
            if k >= Z:
                ax.axis("off")
                continue
            im = ax.imshow(np.ma.masked_invalid(g[k]), origin="lower", cmap=cmap, vmin=0,
                           vmax=vmax, interpolation="nearest")
            ax.set_xticks(range(X) if X <= 16 else range(0, X, max(1, X // 8)))
            ax.set_yticks(range(Y) if Y <= 16 else range(0, Y, max(1, Y // 8)))
            ax.tick_params(labelsize=7)
            if Z > 1:
                ax.set_title(f"z = {k}", fontsize=8, pad=3)
            if k + cols >= Z:
                ax.set_xlabel("x (coordinate 0)", fontsize=8)
            if k % cols == 0:
                ax.set_ylabel("y (coordinate 1)", fontsize=8)
            if annotate:
                for yy in range(Y):
                    for xx in range(X):
                        v = g[k, yy, xx]
                        if np.isnan(v):
                            ax.text(xx, yy, "no link", ha="center", va="center", fontsize=6,
                                    color="#606060")
                            continue
                        ax.text(xx, yy, f"{v:.2f}", ha="center", va="center",
                                fontsize=7 if Z == 1 else 6,
                                color="white" if v < 0.6 * vmax else "black")
        what = (f"dimension {dim}, direction {sign}" if sign
                else f"dimension {dim} (one link per node)")
        planes = "" if Z == 1 else "; one panel per plane z (coordinate 2)"
        fig.suptitle(f"{title}\nutilization of the link leaving each node in {what}{planes}",
                     fontsize=9)
        cb = fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.85, pad=0.03)
        cb.set_label("utilization (busy cycles / window cycles)", fontsize=8)
        cb.ax.tick_params(labelsize=7)
        name = f"links_d{dim}_{word}.{a.format}" if word else f"links_d{dim}.{a.format}"
        path = os.path.join(out_dir, name)
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    for p in written:
        print(f"-> {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
