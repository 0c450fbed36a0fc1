"""Exact references for the greedy paper's Lemmas 7-10 (Stamoulis & Tsitsiklis, §3.3), used by
`python3 tb/paper_checks.py lemmas` beside the cycle model's own link departures:

  - fifo(arrivals, S): the deterministic FIFO server with service S, D_k = max(D_{k-1}, t_k) + S
    (Lemma 8's recursion);
  - ps(arrivals, S): the deterministic processor-sharing server with work S per customer, exact
    in rational arithmetic (every present customer is served at rate 1/n);
  - late(ref, other): the k with other_k < ref_k, i.e. where `other` is not a delayed version of
    `ref` (both sorted);
  - model_links(vcd, S): every link transmission the model made, read from its waves (each
    output port's `pkt`: a new packet there starts a transmission of S cycles);
  - levelled(...): a levelled network of unit servers (FIFO or PS) fed by external arrivals,
    with the routing decisions coupled by order (the k-th departure from a server goes where the
    k-th departure from it went in the model): Lemma 10's sample path omega.

The model's side is always what the model did (its waves); only PS, and the FIFO recursion used
to confirm that each model link is that FIFO server, are computed here. Times are in cycles.
"""
from collections import deque
from fractions import Fraction


def fifo(arrivals, S):
    out, d = [], None
    for t in sorted(arrivals):
        d = (t if d is None or t > d else d) + S
        out.append(d)
    return out


def ps(arrivals, S):
    """Departure times (in order; a deterministic PS server keeps the arrival order) of a PS
    server with work S per customer, for the given arrival times: exact (Fractions)."""
    arr = sorted(Fraction(a) for a in arrivals)
    out, act = [], deque()  # act: the virtual finish times (attained service at departure)
    t = V = Fraction(0)
    i = 0
    while i < len(arr) or act:
        if act:
            m = len(act)
            t_dep = t + (act[0] - V) * m
            if i >= len(arr) or t_dep <= arr[i]:
                V, t = act.popleft(), t_dep
                out.append(t)
                continue
            V += (arr[i] - t) / m
        t = arr[i]
        act.append(V + S)
        i += 1
    return out


def late(ref, other):
    """Indices k where other_k < ref_k (other is not a delayed version of ref there)."""
    a, b = sorted(ref), sorted(other)
    assert len(a) == len(b), (len(a), len(b))
    return [k for k in range(len(a)) if b[k] < a[k]]


def read_vcd(path):
    """{signal name: [(time, value or None)]} for the output ports' `pkt` signals."""
    ids, scope, ch, t, defs = {}, [], {}, 0, True
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if defs:
                if w[0] == "$scope":
                    scope.append(w[2])
                elif w[0] == "$upscope":
                    scope.pop()
                elif w[0] == "$var" and w[4] == "pkt" and scope[-1].startswith("out_"):
                    ids[w[3]] = ".".join(scope[1:])
                    ch[ids[w[3]]] = []
                elif w[0] == "$enddefinitions":
                    defs = False
                continue
            if w[0][0] == "#":
                t = int(w[0][1:])
            elif w[0][0] == "b" and w[1] in ids:
                v = None if ("z" in w[0] or "x" in w[0]) else int(w[0][1:], 2)
                ch[ids[w[1]]].append((t, v))
    return ch


def model_links(vcd_path):
    """{(router, port): [(start cycle, packet serial)]}: every transmission on every link."""
    links = {}
    for name, changes in read_vcd(vcd_path).items():
        router, port = name.split(".")
        starts, prev = [], None
        for t, v in changes:
            if v is not None and v != prev:
                starts.append((t, v))
            prev = v
        links[(router, port[4:])] = starts
    return links


def paths(links, S):
    """{packet serial: [(start, link)] in time order}."""
    p = {}
    for lk, starts in links.items():
        for t, pkt in starts:
            p.setdefault(pkt, []).append((t, lk))
    for v in p.values():
        v.sort()
    return p


def link_streams(links, created, S):
    """Per link: (sorted arrival times, sorted departure times) of the model. created: {serial:
    creation cycle}; a packet arrives at its first link when created (all-port injection, delta
    0) and at each next one when its previous transmission ends (store-and-forward)."""
    arr = {lk: [] for lk in links}
    for pkt, hops in paths(links, S).items():
        prev = None
        for t, lk in hops:
            arr[lk].append(created[pkt] if prev is None else prev + S)
            prev = t
    dep = {lk: sorted(t + S for t, _ in starts) for lk, starts in links.items()}
    return {lk: (sorted(arr[lk]), dep[lk]) for lk in links}


def omega(links, created, S):
    """Lemma 10's sample path from the model's run: the external arrival times per link and, per
    link, the routing decision of its k-th departure (the next link, or None: out of the
    network), by order, not by packet."""
    ext = {lk: [] for lk in links}
    nxt = {lk: [] for lk in links}
    for pkt, hops in paths(links, S).items():
        ext[hops[0][1]].append(created[pkt])
        for i, (t, lk) in enumerate(hops):
            nxt[lk].append((t, hops[i + 1][1] if i + 1 < len(hops) else None))
    return ext, {lk: [n for _, n in sorted(v, key=lambda x: x[0])] for lk, v in nxt.items()}


def levelled(order, ext, decisions, S, server):
    """Departure times from the network (sorted) and per link, for the servers taken in `order`
    (every link after all that feed it): `server` is fifo or ps."""
    arrivals = {lk: list(ext.get(lk, [])) for lk in order}
    per_link, out = {}, []
    for lk in order:
        d = server(arrivals[lk], S)
        per_link[lk] = d
        for k, t in enumerate(d):
            n = decisions[lk][k]
            (out if n is None else arrivals[n]).append(t)
    return sorted(out), per_link
