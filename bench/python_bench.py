#!/usr/bin/env python3
"""The Python module against NetworkX and against the C++ library.

In one process, on the 5,000-node random DAG of bench/peers.py
(`depreduce generate dag --size 5000 --seed 1`):
  * networkx.transitive_reduction(G)               (one run: it takes tens of seconds)
  * depreduce.transitive_reduction(G)              NetworkX in, NetworkX out, attributes kept
  * depreduce.reduce_edges(n, src, dst)            NumPy uint32 arrays in, keep-mask out
and on the 20,000-node DAG (`generate dag --size 20000 --seed 1`) and the
10^6-instruction matmul (`generate matmul --size 1000000 --seed 1`) as plain
edge arrays (no engines, no kinds): reduce_edges against the C++ reduce() on
the same arrays (bench/reduce_arrays, the Graph built outside the clock).

Times are medians of --runs calls (wall clock, time.perf_counter). Peak memory
of a call: the process's resident high-water mark during the call above its
resident size just before (Linux: /proc/self/clear_refs resets VmHWM), and for
the Python calls also tracemalloc's peak of Python allocations (a separate
call, since tracing slows Python code down).

Usage: bench/python_bench.py [--build build] [--runs 5] [--matmul-size 1000000]
                             [--skip-networkx] [--markdown OUT]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def status_kib(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1])
    return -1


def peak_rss_delta(fn):
    """(result, bytes of resident memory the call added at its peak; -1 if unknown)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return fn(), -1
    before = status_kib("VmRSS:")
    out = fn()
    return out, (status_kib("VmHWM:") - before) * 1024


def traced_peak(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def timed(fn, runs):
    times = []
    out = None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def mb(b):
    return "-" if b is None or b < 0 else "%.1f MB" % (b / 1e6)


def ms(s):
    return "%.2f ms" % (s * 1e3) if s < 10 else "%.1f s" % s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--matmul-size", type=int, default=1000000, help="0: leave the matmul out")
    ap.add_argument("--skip-networkx", action="store_true", help="leave out the NetworkX run (tens of seconds)")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    build = Path(args.build)
    sys.path.insert(0, str(build / "python"))
    import networkx as nx
    import numpy as np
    import depreduce

    cli = str(build / "cli" / "depreduce")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dag = tmp / "dag5000.dot"
        subprocess.run([cli, "generate", "dag", "--size", "5000", "--seed", "1", "-o", str(dag)], check=True)
        G = depreduce.read(dag)
        # Attributes to keep: one per node and per edge, as a workflow graph has.
        for i, v in enumerate(G):
            G.nodes[v]["runtime"] = float(i % 17)
        for i, (u, v) in enumerate(G.edges()):
            G.edges[u, v]["bytes"] = i
        n5, m5 = G.number_of_nodes(), G.number_of_edges()
        names, src, dst = depreduce.read(dag, as_arrays=True)
        print("5,000-node DAG: %d nodes, %d edges" % (n5, m5), file=sys.stderr)

        t_ours, H = timed(lambda: depreduce.transitive_reduction(G), args.runs)
        _, rss_ours = peak_rss_delta(lambda: depreduce.transitive_reduction(G))
        py_ours = traced_peak(lambda: depreduce.transitive_reduction(G))
        t_arr, keep = timed(lambda: depreduce.reduce_edges(len(names), src, dst), max(args.runs, 20))
        _, rss_arr = peak_rss_delta(lambda: depreduce.reduce_edges(len(names), src, dst))
        py_arr = traced_peak(lambda: depreduce.reduce_edges(len(names), src, dst))
        assert all(H.edges[u, v] == G.edges[u, v] for u, v in H.edges())
        assert {(names[s], names[d]) for s, d, k in zip(src.tolist(), dst.tolist(), keep) if k} == set(H.edges())
        if not args.skip_networkx:
            print("networkx.transitive_reduction on the 5,000-node DAG (one run)...", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            R, rss_nx = peak_rss_delta(lambda: nx.transitive_reduction(G))
            t_nx = time.perf_counter() - t0
            assert set(R.edges()) == set(H.edges()), "NetworkX and depreduce disagree"
            rows.append(("5k DAG: networkx.transitive_reduction(G)", ms(t_nx), "1x", mb(rss_nx), "-",
                         "%d edges kept, no attributes" % R.number_of_edges()))
        else:
            t_nx = None
        ratio = lambda t: "-" if t_nx is None else "%sx" % format(round(t_nx / t), ",")
        rows.append(("5k DAG: depreduce.transitive_reduction(G)", ms(t_ours), ratio(t_ours), mb(rss_ours), mb(py_ours),
                     "attributes kept (>= 200x)"))
        rows.append(("5k DAG: depreduce.reduce_edges(n, src, dst)", ms(t_arr), ratio(t_arr), mb(rss_arr), mb(py_arr),
                     "NumPy uint32 arrays (>= 2,000x)"))

        for label, kind, size in (("20k DAG", "dag", 20000), ("matmul 10^6", "matmul", args.matmul_size)):
            if size == 0:
                continue  # --matmul-size 0: the 20k DAG only
            f = tmp / ("%s.dot" % kind)
            subprocess.run([cli, "generate", kind, "--size", str(size), "--seed", "1", "-o", str(f)], check=True)
            names, src, dst = depreduce.read(f, as_arrays=True)
            f.unlink()
            raw = tmp / "arrays.bin"
            with open(raw, "wb") as out:
                out.write(np.array([len(names), len(src)], dtype="<u4").tobytes())
                out.write(src.astype("<u4").tobytes())
                out.write(dst.astype("<u4").tobytes())
            runs = args.runs if kind == "dag" else max(1, args.runs // 2)
            cpp = json.loads(subprocess.run([str(build / "bench" / "reduce_arrays"), str(raw), str(runs)],
                                            check=True, capture_output=True, text=True).stdout)
            # Interleaved with the C++ runs' order of magnitude: one warm-up call first.
            depreduce.reduce_edges(len(names), src, dst)
            t_py, keep = timed(lambda: depreduce.reduce_edges(len(names), src, dst), runs)
            _, rss_py = peak_rss_delta(lambda: depreduce.reduce_edges(len(names), src, dst))
            assert int(keep.sum()) == cpp["kept"], (int(keep.sum()), cpp["kept"])
            note = "%d nodes, %d edges, %d kept" % (len(names), len(src), cpp["kept"])
            rows.append(("%s: C++ reduce() on the arrays" % label, ms(cpp["median_s"]), "1x",
                         mb(cpp["peak_rss_delta_bytes"]), "-", note))
            rows.append(("%s: depreduce.reduce_edges(n, src, dst)" % label, ms(t_py),
                         "%.2fx the C++ time (<= 1.5x)" % (t_py / cpp["median_s"]), mb(rss_py), "-", ""))
            del names, src, dst, keep

    head = ("call", "time (median)", "ratio", "peak RSS added", "peak Python heap", "notes")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
