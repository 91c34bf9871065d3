#!/usr/bin/env python3
"""Turns GCC's scheduler dump into one DOT graph per scheduling region.

Usage:
  cp /usr/share/doc/zlib1g-dev/examples/gun.c .
  gcc -O2 -fschedule-insns -fsched-verbose=6 -fdump-rtl-sched1 -c gun.c
  corpus/real/gcc-sched/extract.py gun.c.299r.sched1 --out corpus/real/gcc-sched/regions

What it reads (GCC 12 sched-rgn.cc, debug_dependencies): before scheduling
the blocks of a region, GCC prints ";;   --------------- forward dependences:"
and then, per block, a ";;   --- Region Dependences --- b <block> bb <k>"
table with one line per insn: uid, insn code, block, number of backward
dependences, priority, cost, reservation, and after ':' the uids of the insns
that depend on it (a suffix 'n' marks a non-register dependence, 'm' a
dependence recorded more than once). The print is repeated before each later
block of the region is scheduled, listing the blocks not scheduled yet; the
print that starts at "bb 0" covers the whole region, and only that one is
taken: one graph per region, nodes = the region's insns in the order listed
(the region's blocks in topological order, insns in program order), edges =
the forward dependences, each once, in the order GCC lists them (by
producer). NOTE lines carry no dependence and are left out.

Each region becomes `<function>.<n>.dot` (n = the region's index in the
function) with nodes named "i<uid>"; regions without edges are skipped.
Beside them, `regions.tsv` lists file, nodes, edges and `redundant`: the
number of edges an exact transitive reduction removes, computed here with a
plain reachability closure (Python integers as bit sets), independently of
depreduce - the corpus test compares both twins and Reducer with it.
"""
import argparse
import os
import re
import sys

HEADER = re.compile(r"^;;\s+--- Region Dependences --- b (\d+) bb (\d+)")
INSN = re.compile(r"^;;\s+\+?\s*(\d+)\s+(-?\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+.*?:(.*)$")
FUNCTION = re.compile(r"^;; Function (\S+)")


def regions(lines):
    """Yields (function, nodes, edges) for each region's first full print."""
    function = "unknown"
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        m = FUNCTION.match(line)
        if m:
            function = m.group(1)
        if "forward dependences:" not in line:
            i += 1
            continue
        i += 1
        blocks = []  # list of (bb index, [(uid, [succ])])
        while i < n:
            line = lines[i]
            h = HEADER.match(line)
            if h:
                blocks.append((int(h.group(2)), []))
                i += 1
                continue
            im = INSN.match(line)
            if im and blocks:
                succ = [int(re.sub(r"[a-z]+$", "", s)) for s in im.group(7).split()]
                blocks[-1][1].append((int(im.group(1)), succ))
                i += 1
                continue
            if line.startswith(";;") and ("insn  code" in line or "----  ----" in line or "NOTE_INSN" in line):
                i += 1
                continue
            if line.strip() == "":
                i += 1
                continue
            break
        if blocks and blocks[0][0] == 0:
            nodes = [uid for _, insns in blocks for uid, _ in insns]
            index = {uid: k for k, uid in enumerate(nodes)}
            edges = []
            seen = set()
            for _, insns in blocks:
                for uid, succ in insns:
                    for s in succ:
                        if s in index and (uid, s) not in seen:
                            seen.add((uid, s))
                            edges.append((uid, s))
            yield function, nodes, edges


def redundant_count(nodes, edges):
    """Edges whose target stays reachable from their source without them."""
    index = {uid: k for k, uid in enumerate(nodes)}
    n = len(nodes)
    preds = [[] for _ in range(n)]
    for s, d in edges:
        preds[index[d]].append(index[s])
    # Topological order (the listing order normally is one; check it).
    indeg = [0] * n
    succs = [[] for _ in range(n)]
    for s, d in edges:
        succs[index[s]].append(index[d])
        indeg[index[d]] += 1
    order = [v for v in range(n) if indeg[v] == 0]
    for v in order:
        for w in succs[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                order.append(w)
    if len(order) != n:
        raise SystemExit("cyclic region")
    anc = [0] * n  # strict ancestors as a bit set
    for v in order:
        for p in preds[v]:
            anc[v] |= anc[p] | (1 << p)
    count = 0
    for s, d in edges:
        a, b = index[s], index[d]
        via = 0
        for p in preds[b]:
            if p != a:
                via |= anc[p] | (1 << p)
        count += (via >> a) & 1
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dump")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with open(args.dump, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    per_function = {}
    for function, nodes, edges in regions(lines):
        k = per_function.get(function, 0)
        per_function[function] = k + 1
        if not edges:
            continue
        name = f"{function}.{k}.dot"
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(f'digraph "{function} region {k}" {{\n')
            for uid in nodes:
                f.write(f"  i{uid};\n")
            for s, d in edges:
                f.write(f"  i{s} -> i{d};\n")
            f.write("}\n")
        rows.append((name, len(nodes), len(edges), redundant_count(nodes, edges)))
    with open(os.path.join(args.out, "regions.tsv"), "w", encoding="utf-8") as f:
        f.write("file\tnodes\tedges\tredundant\n")
        for r in rows:
            f.write("\t".join(map(str, r)) + "\n")
    sizes = sorted(r[1] for r in rows)
    if sizes:
        print(f"{len(rows)} regions, nodes median {sizes[len(sizes) // 2]} max {sizes[-1]}, "
              f"edges {sum(r[2] for r in rows)}, redundant {sum(r[3] for r in rows)}", file=sys.stderr)


if __name__ == "__main__":
    main()
