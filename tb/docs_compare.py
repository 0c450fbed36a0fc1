#!/usr/bin/env python3
"""Compares regenerated docs figures data against the committed ones (tb/docs_check.sh).

    tb/docs_compare.py COMMITTED_DIR REGENERATED_DIR [--only-regenerated]

Every .csv and .md file of COMMITTED_DIR (docs/figures) is compared with the file of the same
name in REGENERATED_DIR, and every file regenerated is expected to be committed (with
--only-regenerated, after a partial run, a committed file not regenerated is not a difference). CSV files:
header and every row, cell by cell; markdown files: line by line, and in table rows cell by
cell. Numbers must be equal exactly (a run's results are the same bit for bit for the same
config and seed); a field that is not a number must be equal as text. Left out: images and
other binaries (.png), the waves (.vcd, .gtkw: their own checks are the waves tests), columns
that hold wall-clock time, lines that report how long the script ran or on how many cores, and
the files of the peer comparisons (booksim_*: they need a BookSim2 build).
Prints one line per difference (file, row, column, committed -> regenerated) and exits 1 when
there is any, 0 when there is none.
"""
import csv
import difflib
import os
import re
import sys

SKIP_FILES = re.compile(r"^booksim_")
SKIP_COLUMNS = re.compile(r"wall|seconds|elapsed|per_second|events_per", re.I)
SKIP_LINES = re.compile(r"Script run time|run time:|on \d+ cores", re.I)
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def same(a, b):
    """Equal as numbers when both are numbers (so 0.50 == 0.5), else as text."""
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def compare_csv(name, a_path, b_path, out):
    with open(a_path, newline="") as f:
        a = list(csv.reader(f))
    with open(b_path, newline="") as f:
        b = list(csv.reader(f))
    if not a or not b:
        if a != b:
            out.append(f"{name}: one of the two files is empty")
        return
    ha, hb = a[0], b[0]
    if ha != hb:
        out.append(f"{name}: header differs: committed {','.join(ha)} -> regenerated {','.join(hb)}")
    cols = [c for c in ha if c in hb and not SKIP_COLUMNS.search(c)]
    ia = {c: i for i, c in enumerate(ha)}
    ib = {c: i for i, c in enumerate(hb)}
    if len(a) != len(b):
        out.append(f"{name}: {len(a) - 1} rows committed, {len(b) - 1} regenerated")
    for n, (ra, rb) in enumerate(zip(a[1:], b[1:]), start=1):
        key = ",".join(ra[:2])
        for c in cols:
            va = ra[ia[c]] if ia[c] < len(ra) else ""
            vb = rb[ib[c]] if ib[c] < len(rb) else ""
            if not same(va, vb):
                out.append(f"{name}: row {n} ({key}), column {c}: {va!r} -> {vb!r}")


def table_header(lines, i):
    """The header cells of the markdown table that line i belongs to."""
    j = i
    while j > 0 and lines[j - 1].lstrip().startswith("|"):
        j -= 1
    return [c.strip() for c in lines[j].strip().strip("|").split("|")]


def compare_md(name, a_path, b_path, out):
    a = [l for l in open(a_path).read().splitlines() if not SKIP_LINES.search(l)]
    b = [l for l in open(b_path).read().splitlines() if not SKIP_LINES.search(l)]
    # Lines aligned by their text with the numbers taken out, so that an inserted or removed
    # line shows as one and a changed number as a changed cell.
    shape = lambda l: NUMBER.sub("#", l)
    sm = difflib.SequenceMatcher(None, [shape(l) for l in a], [shape(l) for l in b], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "delete" or (op == "replace" and i2 - i1 != j2 - j1):
            for i in range(i1, i2):
                out.append(f"{name}: line {i + 1} committed, not regenerated: {a[i]!r}")
        if op == "insert" or (op == "replace" and i2 - i1 != j2 - j1):
            for j in range(j1, j2):
                out.append(f"{name}: line {j + 1} regenerated, not committed: {b[j]!r}")
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for i, j in zip(range(i1, i2), range(j1, j2)):
                compare_md_line(name, a, i, a[i], b[j], out)


def compare_md_line(name, a, i, la, lb, out):
    if la == lb:
        return
    if la.lstrip().startswith("|") and lb.lstrip().startswith("|"):
        ca = [c.strip() for c in la.strip().strip("|").split("|")]
        cb = [c.strip() for c in lb.strip().strip("|").split("|")]
        head = table_header(a, i)
        if len(ca) == len(cb):
            for k, (x, y) in enumerate(zip(ca, cb)):
                if x == y or same_text(x, y):
                    continue
                col = head[k] if k < len(head) else str(k + 1)
                row = " | ".join(ca[:2])
                out.append(f"{name}: line {i + 1} (row {row}), column {col!r}: {x!r} -> {y!r}")
            return
    if not same_text(la, lb):
        out.append(f"{name}: line {i + 1}: {la!r} -> {lb!r}")


def same_text(x, y):
    """Equal text around equal numbers."""
    if NUMBER.sub("#", x) != NUMBER.sub("#", y):
        return False
    return all(same(p, q) for p, q in zip(NUMBER.findall(x), NUMBER.findall(y)))


def main():
    args = [a for a in sys.argv[1:] if a != "--only-regenerated"]
    partial = len(args) < len(sys.argv) - 1
    if len(args) != 2:
        raise SystemExit(__doc__)
    committed, regen = args
    out = []
    names = lambda d: {f for f in os.listdir(d) if f.endswith((".csv", ".md")) and not SKIP_FILES.match(f)}
    ca, cb = names(committed), names(regen)
    for f in sorted(ca - cb) if not partial else []:
        out.append(f"{f}: committed but not regenerated")
    for f in sorted(cb - ca):
        out.append(f"{f}: regenerated but not committed")
    checked = 0
    for f in sorted(ca & cb):
        pa, pb = os.path.join(committed, f), os.path.join(regen, f)
        (compare_csv if f.endswith(".csv") else compare_md)(f, pa, pb, out)
        checked += 1
    for line in out:
        print(line)
    print(f"docs_compare: {checked} files compared, {len(out)} differences", file=sys.stderr)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
