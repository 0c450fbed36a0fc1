#!/usr/bin/env python3
"""Energy and power against offered load, and the power and area breakdown, from a sweep.

usage: tb/plot_power.py SWEEP_DIR [--out FILE]
       tb/plot_power.py RESULTS_JSON [--out FILE]

SWEEP_DIR: a `switchyard sweep` output folder of a config with a `power:` section (sweep.csv and
the point-I-seed-S/results.json beside it). Three panels: (a) energy per delivered flit (pJ,
dynamic and total with leakage) against the offered load; (b) power (mW) by unit class, stacked
(buffers, crossbar, allocators, clock, links dynamic; leakage on top) against the offered load;
(c) area by unit class (mm^2). Points that were not stable are drawn hollow and named in the
legend. A single results.json gives the power and area breakdown of that run alone. Numbers are
the cycle model's counted events priced by the technology file (docs/power.md). FILE's
extension picks PNG, PDF or SVG (default: power.png beside the input).
"""
import argparse
import glob
import json
import os
import sys

from sy_pyplot import plt  # matplotlib wherever python3 comes from

CLASSES = ("buffers", "crossbar", "allocators", "clock", "links")


def load(path):
    with open(path) as f:
        return json.load(f)


def point_runs(sweep_dir):
    """(offered load, stable, power section) of each run, by load."""
    runs = []
    for p in sorted(glob.glob(os.path.join(sweep_dir, "*", "results.json"))):
        r = load(p)
        if "power" not in r:
            continue
        runs.append((r["throughput"]["offered"], r.get("stable", True), r["power"], r))
    runs.sort(key=lambda x: x[0])
    return runs


def by_class(power, key):
    return {c["class"]: c[key] for c in power["by_class"]}


def title_of(res):
    cfg = res.get("config", {})
    topo = cfg.get("topology", {})
    dims = topo.get("dims")
    shape = "x".join(map(str, dims)) if dims else f"2^{topo.get('dim', '?')}"
    pw = cfg.get("power", {})
    return (f"{cfg.get('name', '?')}: {shape} {topo.get('type', '')}, "
            f"{pw.get('tech', '?')} at {pw.get('frequency_ghz', '?')} GHz, "
            f"{pw.get('flit_width_bits', '?')}-bit flits, {res.get('model', {}).get('router', '')}")


def area_panel(ax, power):
    area = by_class(power, "area_mm2")
    total = sum(area.values()) or 1
    bottom = 0
    for c in CLASSES:
        ax.bar(0, area[c], bottom=bottom, label=f"{c} {area[c]:.3g}", width=0.6)
        if area[c] > 0.05 * total:  # (the small ones are named in the legend only)
            ax.annotate(f"{area[c]:.3g}", (0, bottom + area[c] / 2), ha="center", va="center",
                        fontsize=7)
        bottom += area[c]
    ax.set_xticks([0])
    ax.set_xticklabels(["network"])
    ax.set_ylabel("area (mm²)")
    ax.set_title("(c) area by unit", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("--out")
    a = ap.parse_args()
    if os.path.isdir(a.input):
        runs = point_runs(a.input)
        if not runs:
            print(f"{a.input}: no results.json with a power section under it", file=sys.stderr)
            return 1
        fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(13, 4.2), dpi=120,
                                            gridspec_kw={"width_ratios": [3, 3, 1.2]})
        x = [r[0] for r in runs]
        stable = [r[1] for r in runs]
        tot = [r[2]["energy_per_flit_pj"] for r in runs]
        dyn = [r[2]["dynamic_energy_per_flit_pj"] for r in runs]
        for ys, label, m in ((tot, "total (with leakage)", "o"), (dyn, "dynamic", "s")):
            line, = ax1.plot(x, [y if y is not None else float("nan") for y in ys], "-",
                             label=label)
            for xi, yi, s in zip(x, ys, stable):
                if yi is not None:
                    ax1.plot(xi, yi, m, color=line.get_color(),
                             fillstyle="full" if s else "none")
        if not all(stable):
            ax1.plot([], [], "o", color="gray", fillstyle="none", label="not stable (saturated)")
        ax1.set_xlabel("offered load (flits/node/cycle)")
        ax1.set_ylabel("energy per delivered flit (pJ)")
        ax1.set_ylim(bottom=0)
        ax1.set_title("(a) energy per flit", fontsize=9)
        ax1.grid(True, alpha=0.3)
        ax1.legend(fontsize=7)
        bottom = [0.0] * len(runs)
        for c in CLASSES:
            ys = [by_class(r[2], "dynamic_mw")[c] for r in runs]
            ax2.fill_between(x, bottom, [b + y for b, y in zip(bottom, ys)], alpha=0.8,
                             label=f"{c} (dynamic)")
            bottom = [b + y for b, y in zip(bottom, ys)]
        leak = [r[2]["total"]["leakage_mw"] for r in runs]
        ax2.fill_between(x, bottom, [b + y for b, y in zip(bottom, leak)], alpha=0.5,
                         color="gray", hatch="//", label="leakage (all units)")
        ax2.set_xlabel("offered load (flits/node/cycle)")
        ax2.set_ylabel("power (mW)")
        ax2.set_ylim(bottom=0)
        ax2.set_title("(b) power by unit", fontsize=9)
        ax2.grid(True, alpha=0.3)
        ax2.legend(fontsize=7, loc="upper left")
        area_panel(ax3, runs[0][2])
        fig.suptitle(title_of(runs[0][3]), fontsize=9)
        out = a.out or os.path.join(a.input, "power.png")
    else:
        res = load(a.input)
        if "power" not in res:
            print(f"{a.input}: no power section (add power: to the config)", file=sys.stderr)
            return 1
        p = res["power"]
        fig, (ax2, ax3) = plt.subplots(1, 2, figsize=(8, 4.2), dpi=120,
                                       gridspec_kw={"width_ratios": [2, 1.2]})
        dyn = by_class(p, "dynamic_mw")
        leak = by_class(p, "leakage_mw")
        xs = range(len(CLASSES))
        ax2.bar(xs, [dyn[c] for c in CLASSES], label="dynamic")
        ax2.bar(xs, [leak[c] for c in CLASSES], bottom=[dyn[c] for c in CLASSES],
                label="leakage", color="gray", hatch="//")
        ax2.set_xticks(list(xs))
        ax2.set_xticklabels(CLASSES, fontsize=8)
        ax2.set_ylabel("power (mW)")
        ax2.set_title(f"(b) power by unit, offered {res['throughput']['offered']:.3g}",
                      fontsize=9)
        ax2.legend(fontsize=7)
        area_panel(ax3, p)
        fig.suptitle(title_of(res), fontsize=9)
        out = a.out or os.path.join(os.path.dirname(a.input) or ".", "power.png")
    fig.tight_layout()
    fig.savefig(out)
    print(f"-> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
