#!/usr/bin/python3
"""Plots priority STAR against FCFS: reception and broadcast delay (packet times) vs rho.

usage: tb/plot_star.py PRIORITY_CSV FCFS_CSV --title TEXT --out PREFIX

Reads two switchyard sweep.csv files swept over traffic.load.rho and writes PREFIX_reception.png
and PREFIX_broadcast.png. Points whose run was not stable are drawn as red triangles at the top.
"""
import argparse
import sys

from sy_pyplot import plt  # noqa: E402 (matplotlib wherever python3 comes from)
from sy_sweep import num, read_sweep  # noqa: E402


def load(path):
    rows = read_sweep(path)
    for r in rows:
        for k in ("value", "packet_time", "reception_delay_mean", "reception_delay_ci95",
                  "broadcast_delay_mean", "broadcast_delay_ci95"):
            r[k] = num(r, k)
    return sorted(rows, key=lambda r: r["value"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("priority")
    ap.add_argument("fcfs")
    ap.add_argument("--title", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    runs = {"priority STAR": load(a.priority), "FCFS (direct, same trees)": load(a.fcfs)}
    for measure, label in (("reception", "average reception delay"),
                           ("broadcast", "average broadcast delay")):
        fig, ax = plt.subplots(figsize=(6.5, 4.2), dpi=120)
        top = 0.0
        for name, rows in runs.items():
            ok = [r for r in rows if r["stable"] == "true"]
            xs = [r["value"] for r in ok]
            ys = [r[f"{measure}_delay_mean"] / r["packet_time"] for r in ok]
            es = [r[f"{measure}_delay_ci95"] / r["packet_time"] for r in ok]
            ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=name)
            top = max([top] + ys)
        for name, rows in runs.items():
            bad = [r["value"] for r in rows if r["stable"] != "true"]
            if bad:
                ax.plot(bad, [top * 1.05] * len(bad), "^", color="red",
                        label=f"{name}: not stable")
        ax.set_xlabel("throughput factor rho")
        ax.set_ylabel(f"{label} (packet times)")
        ax.set_title(f"{a.title}: {label}")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left")
        fig.tight_layout()
        out = f"{a.out}_{measure}.png"
        fig.savefig(out)
        print(f"-> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
