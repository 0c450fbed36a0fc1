"""Reading a switchyard sweep.csv (or runs.csv) in the figure scripts.

`read_sweep(path)` gives the rows as dicts, each with "param" (the swept keys joined by "|") and
"value" (the point's values joined by "|") besides its own columns, whichever layout the file
has: tidy (one column per parameter, then "seeds" or "seed", then the run's columns) or the
layout before it (param,value,stable,...), in which some committed figure data still is.
"""
import csv


def read_sweep(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        names = reader.fieldnames or []
        rows = list(reader)
    if "param" in names and "value" in names:
        return rows
    # The parameters: the columns before seeds (sweep.csv), seed (runs.csv) or stable.
    end = next((i for i, n in enumerate(names) if n in ("seeds", "seed", "stable")), 0)
    params = names[:end]
    for r in rows:
        r["param"] = "|".join(params)
        r["value"] = "|".join(r[p] for p in params)
    return rows


def num(row, key):
    """A column's value as a float: NaN when the column is absent or the field empty (a column
    with no value in any row is left out of the file; an empty field has no samples)."""
    v = row.get(key, "")
    return float(v) if v not in ("", None) else float("nan")
