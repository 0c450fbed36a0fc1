#!/usr/bin/env python3
"""Base trees of the store-and-forward broadcast (models/schemes/circuit/store_forward_trees.cpp).

Finds, for every n0 x n1 torus with 3 <= n1 <= n0 <= 16 (transposes give the rest), four
arc-disjoint spanning trees rooted at node 0, tree t starting with the root's arc in direction t
(0 = E, 1 = N, 2 = W, 3 = S), of depth D + 1 (D = n0//2 + n1//2), else D + 2, with a SAT solver
(Debian package `cadical`), and writes models/schemes/circuit/store_forward_bases.inc.

    python3 tb/saf_base_trees.py [--jobs 2]        (about 5 minutes on 2 cores)

Encoding: p[t,v,d] = tree t enters node v by its incoming arc of direction d (one per tree and
node, one tree per arc); l[t,v,k] = depth of v in tree t is at most k (order encoding), with
p[t,v,d] & l[t,v,k] -> l[t,u,k-1] for the arc's tail u. Every size is first solved as it is
(an exhaustive search: UNSAT at D + 1 means no such trees exist, which is the case on n x 3 for
n >= 5 and on n x 5 for odd n >= 5; n x 3 with n >= 7 is UNSAT at D + 2 too, so those get no base
and the C++ grows them greedily). A dimension of 13..16 nodes must also widen: its columns 2..5
and -5..-2 (centred on the root) are 2-periodic, and the same p must give trees of the same
D + 1 + extra on the torus widened by four periods on each side (n + 16) in that dimension.
Why that is enough for every widening: a tree path's length grows by 2k per traversal of a
widened strip (columns 4..5, or -5..-4), so a node's depth is a maximum of pieces
a + 2 c0 k0 + 2 c1 k1 against the budget D + 1 + 2 k0 + 2 k1; a path that traverses one
dimension's strips twice (c = 2: out and back, or around the torus) is at least 10 hops long in
the base, and at k = 4 it would need a <= D + 1 - 8 <= 9 (D + 1 <= 17 for every base), so a base
that passes k = 4 has c <= 1 in both dimensions and every (k0, k1) keeps the depth. Where that fails at the unwidened depth (13 x 4, 13 x 7) the
size keeps its plain base and the widening base is the one 4 larger (17 x 4, 17 x 7). The C++
widens any n > 16 from a base of its residue mod 4; the tests check every size they generate.
"""
import argparse
import concurrent.futures as cf
import itertools
import os
import subprocess
import sys
import tempfile

BAND = 2  # first column of the east band (store_forward_trees.cpp kBand)
MAX = 16  # largest base (kSafBaseMax)
DIRS = [(1, 0), (0, 1), (-1, 0), (0, -1)]
PERMS = list(itertools.permutations(range(4)))


def centered(v, n):
    return v if v <= (n - 1) // 2 else v - n


def to_base(X, k):
    if k == 0 or -BAND - 2 < X < BAND + 2:
        return X
    if X >= BAND + 2:
        return X - 2 * k if X >= BAND + 2 + 2 * k else BAND + (X - BAND) % 2
    return X + 2 * k if X <= -BAND - 2 - 2 * k else -BAND - 2 + (X + BAND + 2) % 2


def solve(n0, n1, extra, w0, w1, workdir):
    """The in-arc direction per (tree, node) of a base of depth D + 1 + extra that widens in
    dimension 0 (w0) and 1 (w1); False if UNSAT."""
    widen = [(0, 0)] + ([(4, 0)] if w0 else []) + ([(0, 4)] if w1 else [])
    nv = 0
    cl = []

    def new():
        nonlocal nv
        nv += 1
        return nv

    N = n0 * n1
    node = lambda x, y: x % n0 + n0 * (y % n1)
    p = {(t, v, d): new() for t in range(4) for v in range(1, N) for d in range(4)}
    for t in range(4):
        for v in range(1, N):
            cl.append([p[t, v, d] for d in range(4)])
            cl += [[-p[t, v, a], -p[t, v, b]] for a in range(4) for b in range(a + 1, 4)]
    for v in range(1, N):
        for d in range(4):
            cl += [[-p[a, v, d], -p[b, v, d]] for a in range(4) for b in range(a + 1, 4)]
    # 2-periodic bands in the widening dimensions.
    for v in range(1, N):
        X, Y = centered(v % n0, n0), centered(v // n0, n1)
        twins = []
        if w0 and X in (BAND, BAND + 1, -BAND - 2, -BAND - 3):
            twins.append(node(X + 2, Y))
        if w1 and Y in (BAND, BAND + 1, -BAND - 2, -BAND - 3):
            twins.append(node(X, Y + 2))
        for u in twins:
            for t in range(4):
                for d in range(4):
                    cl += [[-p[t, v, d], p[t, u, d]], [p[t, v, d], -p[t, u, d]]]
    # Depth on the base and on its widenings (same p through to_base).
    for k0, k1 in widen:
        m0, m1 = n0 + 4 * k0, n1 + 4 * k1
        H = m0 // 2 + m1 // 2 + 1 + extra
        big = lambda x, y: x % m0 + m0 * (y % m1)
        depth = {(t, v, k): new() for t in range(4) for v in range(1, m0 * m1) for k in range(1, H + 1)}
        for v in range(1, m0 * m1):
            x, y = v % m0, v // m0
            b = node(to_base(centered(x, m0), k0), to_base(centered(y, m1), k1))
            for t in range(4):
                child = big(*DIRS[t])
                cl.append([depth[t, v, H]])
                cl += [[-depth[t, v, k], depth[t, v, k + 1]] for k in range(1, H)]
                cl.append([depth[t, v, 1]] if v == child else [-depth[t, v, 1]])
                for d in range(4):
                    u = big(x - DIRS[d][0], y - DIRS[d][1])
                    if u == 0:  # only tree t takes the root's arc to its child
                        cl.append([p[t, b, d]] if v == child else [-p[t, b, d]])
                        continue
                    cl.append([-p[t, b, d], -depth[t, v, 1]])
                    cl += [[-p[t, b, d], -depth[t, v, k], depth[t, u, k - 1]] for k in range(2, H + 1)]
    path = os.path.join(workdir, f"saf_{n0}x{n1}_{extra}.cnf")
    with open(path, "w") as f:
        f.write(f"p cnf {nv} {len(cl)}\n")
        f.writelines(" ".join(map(str, c)) + " 0\n" for c in cl)
    out = subprocess.run(["cadical", "-q", path], capture_output=True, text=True).stdout
    os.remove(path)
    if "s UNSATISFIABLE" in out:
        return False
    if "s SATISFIABLE" not in out:
        raise SystemExit(f"cadical gave no answer for {n0}x{n1}")
    true = {int(z) for line in out.splitlines() if line.startswith("v") for z in line.split()[1:]}
    return {(t, v): d for (t, v, d), var in p.items() if var in true}


def encode(s, n0, n1):
    return "".join("." if v == 0 else chr(ord("A") + PERMS.index(tuple(s[t, v] for t in range(4))))
                   for v in range(n0 * n1))


def bases(size, workdir):
    """Entries (n0, n1, w0, w1, extra, cells) for one size: the least depth without widening
    (exhaustive); widening in the dimensions of 13..16 nodes at that depth, else the base 4 larger."""
    n0, n1 = size
    plain = None
    for extra in (0, 1):
        plain = solve(n0, n1, extra, False, False, workdir)
        if plain:
            break
    if not plain:
        return []
    w0, w1 = n0 >= 13, n1 >= 13
    if not (w0 or w1):
        return [(n0, n1, False, False, extra, encode(plain, n0, n1))]
    wide = solve(n0, n1, extra, w0, w1, workdir)
    if wide:
        return [(n0, n1, w0, w1, extra, encode(wide, n0, n1))]
    out = [(n0, n1, False, False, extra, encode(plain, n0, n1))]
    m0, m1 = n0 + 4 * w0, n1 + 4 * w1  # a larger base of the same residues
    wide = solve(m0, m1, extra, w0, w1, workdir)
    if wide:
        out.append((m0, m1, w0, w1, extra, encode(wide, m0, m1)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    sizes = [(a, b) for a in range(3, MAX + 1) for b in range(3, a + 1) if not (b == 3 and a >= 7)]
    sizes.sort(key=lambda s: -s[0] * s[1])
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(args.jobs) as ex:
        found = sorted(e for es in ex.map(lambda s: bases(s, tmp), sizes) for e in es)
    lines = ["// Generated by tb/saf_base_trees.py: base trees of store_forward_trees.cpp. One letter per",
             "// node x + n0 * y (relative to the root, '.'): 'A' + i is the i-th permutation (lexicographic)",
             "// of the directions 0 = E, 1 = N, 2 = W, 3 = S; its t-th entry is the direction of the arc",
             "// by which tree t enters the node. Depth D + 1 + extra; w0, w1: the base widens in that",
             "// dimension (columns 2..5 and -5..-2 are 2-periodic).",
             "#pragma once", "", "namespace sy {", "namespace {", "",
             "struct SafBase {", "  int n0, n1;", "  bool w0, w1;", "  int extra;", "  const char* cells;", "};", "",
             f"constexpr int kSafBaseMax = {MAX};", "", "constexpr SafBase kSafBases[] = {"]
    for n0, n1, w0, w1, extra, cells in found:
        lines.append(f"    {{{n0}, {n1}, {str(w0).lower()}, {str(w1).lower()}, {extra},")
        for i in range(0, len(cells), 80):
            lines.append(f'     "{cells[i:i + 80]}"' + ("}," if i + 80 >= len(cells) else ""))
        print(f"{n0}x{n1}{' widens' if w0 or w1 else ''}: D + {1 + extra}", file=sys.stderr)
    lines += ["};", "", "}  // namespace", "}  // namespace sy", ""]
    with open(os.path.join(root, "models/schemes/circuit/store_forward_bases.inc"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
