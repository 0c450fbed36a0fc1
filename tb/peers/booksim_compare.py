#!/usr/bin/python3
"""Merges the cached runs of tb/peers/booksim_compare.sh into the comparison table and plot.

  booksim_compare.py RUNS.csv --cases "name topo bs_routing sy_algorithm vcs ..." \
      --booksim-commit SHA --zero-load 0.005 --out docs/figures/booksim_compare

Writes OUT.csv (one row per case and offered load, both simulators side by side), OUT.md (zero-load
latency and saturation throughput per case, with the differences flagged) and OUT.png (latency
against offered load, one panel per case, both simulators in each panel).
"""
import argparse
import csv
import math

# The matched pair first (the flags compare these two), then the two variants.
SIMS = ("booksim", "switchyard", "booksim_wtc0", "switchyard_wtc0", "switchyard_cd1",
        "booksim_diag")
LABEL = {"booksim": "BookSim2 iq_router (wait_for_tail_credit 1)",
         "switchyard": "Switchyard staged (credit_delay 2)",
         "booksim_wtc0": "BookSim2, wait_for_tail_credit 0 (its default)",
         "switchyard_wtc0": "Switchyard, wait_for_tail_credit false",
         "switchyard_cd1": "Switchyard, credit_delay 1",
         "booksim_diag": "BookSim2 with Switchyard's routing rules (diagnosis)"}


def number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return math.nan
    return v


def load_runs(path):
    """(sim, case) -> {load: row}; a later row for the same point replaces an earlier one."""
    runs = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            point = {"latency": number(r["latency"]), "accepted": number(r["accepted"]),
                     "stable": r["stable"] == "true", "cycles": number(r["cycles"])}
            runs.setdefault((r["simulator"], r["case"]), {})[round(float(r["load"]), 4)] = point
    return runs


def summarize(points, zero_load):
    """Zero-load latency, saturation (highest stable load with latency <= 3 T0), max accepted."""
    if not points or zero_load not in points:
        return None
    t0 = points[zero_load]["latency"]
    sweep = sorted(l for l in points if l != zero_load)
    sat = 0.0
    for l in sweep:
        p = points[l]
        if p["stable"] and p["latency"] <= 3 * t0:
            sat = max(sat, l)
    accepted = [points[l]["accepted"] for l in sweep if not math.isnan(points[l]["accepted"])]
    return {"t0": t0, "sat": sat, "accepted_max": max(accepted, default=math.nan)}


def fmt(v, digits=3):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs")
    ap.add_argument("--cases", required=True)
    ap.add_argument("--booksim-commit", default="unknown")
    ap.add_argument("--zero-load", type=float, default=0.005)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    cases = [line.split() for line in a.cases.strip().splitlines() if line.strip()]
    runs = load_runs(a.runs)
    z = round(a.zero_load, 4)

    # ---- the merged table
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "topology", "booksim_routing", "switchyard_algorithm", "vcs", "offered"] +
                   [f"{s}_{q}" for s in SIMS for q in ("latency", "accepted", "stable")])
        for name, topo, bsr, syr, vcs in cases:
            loads = sorted(set().union(*(runs.get((s, name), {}).keys() for s in SIMS)))
            for l in loads:
                row = [name, topo, bsr, syr, vcs, f"{l:g}"]
                for s in SIMS:
                    p = runs.get((s, name), {}).get(l)
                    row += ([fmt(p["latency"], 2), fmt(p["accepted"], 4), str(p["stable"]).lower()]
                            if p else ["", "", ""])
                w.writerow(row)

    # ---- the summary
    summary = {(s, c[0]): summarize(runs.get((s, c[0])), z) for s in SIMS for c in cases}
    md = ["# Switchyard against BookSim2 (issue 13 §3)", "",
          "Command: `bash tb/peers/booksim_compare.sh PATH-TO-BOOKSIM2` (not in CI). "
          f"BookSim2 commit `{a.booksim_commit}`. Both simulators: 8x8, input-VC wormhole routers, "
          "4-flit VCs, 8-flit packets, Bernoulli sources, uniform traffic (the source included), "
          "1-cycle RC, VA, SA, ST stages and 1-cycle links (also injection and ejection), "
          "separable input-first allocators, a credit usable 2 cycles after its flit left the "
          "buffer, a VC reallocated when its tail credit is back (BookSim2 "
          "`wait_for_tail_credit = 1`), offered load in flits/node/cycle. "
          "Variants: BookSim2 with its default `wait_for_tail_credit = 0` (BS wtc0) and "
          "Switchyard with `wait_for_tail_credit: false` (SY wtc0), "
          "Switchyard with `credit_delay: 1` (SY cd1), and BookSim2 with its routing functions "
          "changed where they differ from Switchyard's (BS diag: classic dateline classes and "
          "Valiant phase VCs kept at the destination for dimension order and Valiant; adaptive "
          "VCs offered from the escape VCs, and VCs 2.. adaptive on the torus, for minimal "
          "adaptive; see tb/peers/booksim_compare.sh). Latency: packet creation to tail delivered, "
          "source queueing included (cycles). Zero-load latency T0: the mean latency at offered "
          f"{a.zero_load:g}. Saturation: the highest offered load (steps of 0.05, then 0.01 near "
          "the knee) whose run is stable with mean latency <= 3 T0, the same rule for both. "
          "Accepted max: the highest accepted throughput of the sweep. Flags: |ΔT0| > 1 cycle, "
          "saturation ratio off by more than 5%.", "",
          "| case | T0 BS | T0 SY | ΔT0 | sat. BS | sat. SY | ratio SY/BS | acc. max BS "
          "| acc. max SY | flags | T0 BS wtc0 | sat. BS wtc0 | T0 SY wtc0 | sat. SY wtc0 "
          "| T0 SY cd1 | sat. SY cd1 | T0 BS diag | sat. BS diag |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, *_ in cases:
        b, s = summary[("booksim", name)], summary[("switchyard", name)]
        flags, dt, ratio = [], None, None
        if b and s:
            dt = s["t0"] - b["t0"]
            ratio = s["sat"] / b["sat"] if b["sat"] else math.nan
            if abs(dt) > 1:
                flags.append("T0")
            if not math.isnan(ratio) and abs(ratio - 1) > 0.05:
                flags.append("saturation")
        md.append("| " + " | ".join([
            name, fmt(b and b["t0"], 2), fmt(s and s["t0"], 2) or "pending",
            fmt(dt, 2), fmt(b and b["sat"], 2), fmt(s and s["sat"], 2) or "pending",
            fmt(ratio, 2), fmt(b and b["accepted_max"]), fmt(s and s["accepted_max"]),
            ", ".join(flags)] +
            [fmt(v and v[q], d) for v in (summary[("booksim_wtc0", name)],
                                          summary[("switchyard_wtc0", name)],
                                          summary[("switchyard_cd1", name)],
                                          summary[("booksim_diag", name)])
             for q, d in (("t0", 2), ("sat", 2))]) + " |")
    md += ["", "Per-load numbers: `docs/figures/booksim_compare.csv`; every run: "
           "`docs/figures/booksim_compare_runs.csv`; plot: `docs/figures/booksim_compare.png`. "
           "Why they differ (dateline classes, BookSim2's absorbing escape VCs and single "
           "adaptive VC on the torus, its valiant_torus fix and deadlocks): `docs/design.md`, "
           "\"Where the two differ, and why\". BookSim2's torus Valiant runs a copy with "
           "`ring_part` initialised (the published code aborts).", ""]
    with open(a.out + ".md", "w") as f:
        f.write("\n".join(md))

    # ---- the plot
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cols = 4
    rows = (len(cases) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    style = {"booksim": ("o-", "tab:red"), "switchyard": ("s--", "tab:blue"),
             "booksim_wtc0": ("^:", "salmon"), "switchyard_wtc0": ("x:", "cornflowerblue"),
             "switchyard_cd1": ("v:", "lightsteelblue"),
             "booksim_diag": ("d-.", "tab:green")}
    for ax, (name, topo, bsr, syr, vcs) in zip(axes.flat, cases):
        top = 0.0
        for sim in SIMS:
            pts = runs.get((sim, name), {})
            good = sorted((l, p["latency"]) for l, p in pts.items()
                          if p["stable"] and not math.isnan(p["latency"]))
            if not good:
                continue
            m, c = style[sim]
            ax.plot([l for l, _ in good], [v for _, v in good], m, color=c, ms=3, label=LABEL[sim])
            sm = summary[(sim, name)]
            if sm and sim in SIMS[:2]:
                ax.axvline(sm["sat"], color=c, lw=0.8, ls=":")
            if sm:
                top = max(top, 4 * sm["t0"])
        ax.set_title(f"8x8 {topo}, {bsr} / {syr}, {vcs} VCs", fontsize=9)
        ax.set_xlabel("offered load (flits/node/cycle)", fontsize=8)
        ax.set_ylabel("latency (cycles)", fontsize=8)
        if top:
            ax.set_ylim(0, top)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(cases):]:
        ax.axis("off")
    fig.suptitle("Latency against offered load, BookSim2 iq_router and Switchyard "
                 "(dotted: saturation, latency <= 3 T0)", fontsize=10)
    fig.tight_layout()
    fig.savefig(a.out + ".png", dpi=110)


if __name__ == "__main__":
    main()
