#!/usr/bin/env python3
"""Whole-process comparison of `depreduce reduce` with its peers.

Peers, each run as its own process on the same input:
  * Graphviz `tred` (on the DOT that `depreduce convert` writes),
  * NetworkX `transitive_reduction` (python3-networkx, on the edge list),
  * Boost.Graph `transitive_reduction` (bench/boost_tred, on the edge list).
For every file it checks that all of them keep exactly the same edges, and
prints a Markdown table: wall time per tool and each peer's ratio to depreduce.

Usage:
  bench/peers.py [--build build] [--generated 1000,10000] [--timeout 600] [--markdown OUT]
  bench/peers.py --search 10000,14000,20000,... [--peers tred,networkx,boost] [--no-real]
                 [--timeout 600] [--markdown OUT]
  bench/peers.py --only-cyclic [--cyclic 300,3000]
  bench/peers.py --whole-process [--baseline OLD_BUILD [--ab-runs 21] [--ab-matmul-runs 5]]
Files: corpus/real/ (acyclic ones) plus random DAGs made by
`depreduce generate dag --size N` for each N of --generated.
Cyclic inputs (corpus/real/.../fsm.gv and, for each N of --cyclic, a generated
DAG plus 20 back edges) get a second table: `reduce --cycles condense` against
`tred`, with whether each output keeps the input's reachability.

--search runs the generated sizes in increasing order and stops running a peer
after its first timeout (or failure), so the table ends, for every peer, at the
largest size it finished within --timeout and the first size it did not.
"""
import argparse
import os
import shutil
import statistics
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NX_SCRIPT = r"""
import sys, networkx as nx
g = nx.DiGraph()
for line in open(sys.argv[1]):
    a, b = line.rstrip('\n').split('\t')
    g.add_edge(a, b)
with open(sys.argv[2], 'w') as out:
    for a, b in nx.transitive_reduction(g).edges():
        out.write(f"{a}\t{b}\n")
"""


def wait_or_kill(pid, timeout, wait):
    """Calls \p wait() (one blocking wait for process \p pid, which leads its
    own session), killing its process group if it outlives \p timeout
    seconds; returns (what wait() returned, True if it ended by itself).
    (Popen.wait(timeout=...) polls with sleeps that double up to 50 ms, so a
    35 ms process measured 64 ms.)"""
    fired = threading.Event()

    def kill():
        fired.set()
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        result = wait()
    finally:
        timer.cancel()
    return result, not fired.is_set()


def run(cmd, timeout, stdin=None, stdout=None):
    """Runs cmd; returns (seconds, ok)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdin=stdin, stdout=stdout or subprocess.DEVNULL, stderr=err,
                             start_new_session=True)
        if not wait_or_kill(p.pid, timeout, p.wait)[1]:
            return None, False
        seconds = time.perf_counter() - start
        if p.returncode != 0:
            err.seek(0)
            sys.stderr.write(f"{' '.join(map(str, cmd))} failed: {err.read().decode(errors='replace')[:500]}\n")
            return None, False
    return seconds, True


def edges_of(cli, path, tmp):
    out = Path(tmp) / "edges.txt"
    subprocess.run([cli, "convert", str(path), "--to", "edges", "-o", str(out)], check=True,
                   stderr=subprocess.DEVNULL)
    return {tuple(l.rstrip("\n").split("\t")) for l in out.read_text().splitlines() if l}


def read_edges(path):
    return {tuple(l.split("\t")) for l in Path(path).read_text().splitlines() if l}


PEERS = ("tred", "networkx", "boost")


def compare(cli, boost, path, label, timeout, peers=PEERS):
    """Times depreduce and every peer in `peers` on one file; a peer not in
    `peers` is reported as not run ("skipped")."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dot, edges = tmp / "in.dot", tmp / "in.edges"
        subprocess.run([cli, "convert", str(path), "-o", str(dot)], check=True, stderr=subprocess.DEVNULL)
        subprocess.run([cli, "convert", str(path), "--to", "edges", "-o", str(edges)], check=True,
                       stderr=subprocess.DEVNULL)
        n_edges = sum(1 for _ in open(edges))
        row = {"file": label, "edges": n_edges}
        # depreduce
        out = tmp / "depreduce.dot"
        row["depreduce"], ok = run([cli, "reduce", str(path), "-o", str(out)], timeout)
        kept = edges_of(cli, out, tmp) if ok else None
        row["kept"] = len(kept) if kept is not None else None
        agree = []
        # tred
        row["skipped"] = [p for p in PEERS if p not in peers]
        for p in row["skipped"]:
            row[p] = None
        if "tred" in peers:
            tred_out = tmp / "tred.dot"
            with open(tred_out, "w") as f:
                row["tred"], ok = run(["tred", str(dot)], timeout, stdout=f)
            if ok:
                agree.append(edges_of(cli, tred_out, tmp) == kept)
        if "networkx" in peers:
            nx_out = tmp / "nx.edges"
            row["networkx"], ok = run([sys.executable, "-c", NX_SCRIPT, str(edges), str(nx_out)], timeout)
            if ok:
                agree.append(read_edges(nx_out) == kept)
        if "boost" in peers:
            b_out = tmp / "boost.edges"
            with open(edges) as fin, open(b_out, "w") as fout:
                row["boost"], ok = run([boost], timeout, stdin=fin, stdout=fout)
            if ok:
                agree.append(read_edges(b_out) == kept)
        row["agree"] = all(agree) and kept is not None
        return row


def reachability(edges):
    """Node -> set of nodes reachable by one or more edges (BFS per node)."""
    succ = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
        succ.setdefault(b, set())
    out = {}
    for u in succ:
        seen, todo = set(), list(succ[u])
        while todo:
            x = todo.pop()
            if x not in seen:
                seen.add(x)
                todo.extend(succ[x])
        out[u] = seen
    return out


def with_back_edges(cli, n, tmp, back=20, seed=1):
    """A generated DAG of n nodes plus `back` edges pointing backwards: cycles."""
    import random
    dag = Path(tmp) / f"dag-{n}.dot"
    subprocess.run([cli, "generate", "dag", "--size", str(n), "--seed", str(seed), "-o", str(dag)], check=True)
    edges = sorted(dot_edges(dag))
    rnd = random.Random(seed)
    for _ in range(back):
        a, b = rnd.choice(edges)
        edges.append((b, a))
    out = Path(tmp) / f"cyclic-{n}.dot"
    out.write_text("digraph {\n" + "".join(f'  "{a}" -> "{b}";\n' for a, b in edges) + "}\n")
    return out


def dot_edges(path):
    """The `a -> b` statements of a simple DOT file (ids bare or quoted, one
    edge per statement, as tred, depreduce and fsm.gv write them); `convert`
    rejects cyclic input, so the cyclic table reads edges itself."""
    import re
    ident = r'("(?:[^"\\]|\\.)*"|[A-Za-z0-9_.]+)'
    out = set()
    for a, b in re.findall(ident + r"\s*->\s*" + ident, Path(path).read_text()):
        out.add((a.strip('"'), b.strip('"')))
    return out


def compare_cyclic(cli, path, label, timeout):
    """`reduce --cycles condense` against `tred` on a cyclic DOT file: time,
    edges kept, whether both keep the input's reachability, same edge set."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dot = Path(path)
        given = dot_edges(dot)
        row = {"file": label, "edges": len(given)}
        ours_out, tred_out = tmp / "ours.dot", tmp / "tred.dot"
        row["depreduce"], ok = run([cli, "reduce", str(dot), "--cycles", "condense", "-o", str(ours_out)], timeout)
        ours = dot_edges(ours_out) if ok else None
        with open(tred_out, "w") as f:
            row["tred"], ok2 = run(["tred", str(dot)], timeout, stdout=f)
        theirs = dot_edges(tred_out) if ok2 else None
        loops = {e for e in given if e[0] == e[1]}
        want = reachability(given - loops)
        row["kept"] = len(ours) if ours is not None else None
        row["tred_kept"] = len(theirs) if theirs is not None else None
        row["ours_reach"] = ours is not None and reachability(ours - loops) == want
        row["tred_reach"] = theirs is not None and reachability(theirs - loops) == want
        row["same_edges"] = ours is not None and ours == theirs
        return row


def fmt_time(t, skipped=False):
    if skipped:
        return "not run"
    if t is None:
        return "timeout/failed"
    return f"{t * 1000:.1f} ms" if t < 10 else f"{t:.1f} s"


def ratio(peer, ours):
    return "-" if peer is None or not ours else f"{peer / ours:.1f}x"


def timed(cmd, timeout):
    """Wall seconds, peak RSS (MB) and exit status of one process, from one
    posix_spawn and one wait4 (its rusage: ru_maxrss, KiB on Linux): no
    GNU time process in between (its fork and exec were 1.3 ms of every
    measurement). Linux folds the memory a child had before its exec into
    ru_maxrss, so the peak has a floor of this Python's RSS (about 15 MB, as
    `sleep` shows; GNU time's was its own 2 MB): below every row it is used
    for (38 MB and more). The process leads its own session; on a timeout
    its group is killed and the time is the timeout, a lower bound, with
    status None. A status other than 0 is returned, not timed: checked()
    stops on it."""
    devnull = os.open(os.devnull, os.O_RDWR)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                   (os.POSIX_SPAWN_DUP2, devnull, 2)]
        exe = cmd[0] if os.sep in cmd[0] else shutil.which(cmd[0])
        if exe is None:
            raise FileNotFoundError(cmd[0])
        t0 = time.perf_counter()
        pid = os.posix_spawn(exe, cmd, os.environ, file_actions=actions, setsid=True)
        (_, status, usage), ended = wait_or_kill(pid, timeout, lambda: os.wait4(pid, 0))
        wall = time.perf_counter() - t0
    finally:
        os.close(devnull)
    if not ended:
        return float(timeout), float("nan"), None  # a lower bound: ">= timeout"
    return wall, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def checked(result, cmd):
    """\p result of timed(\p cmd), which must have ended with status 0 (or
    timed out: status None)."""
    if result[2] not in (0, None):
        sys.exit(f"{' '.join(map(str, cmd))}: exit status {result[2]}: not a measurement")
    return result


def whole_process(args):
    """The whole-process targets (`depreduce reduce FILE -o OUT`), medians
    of --ours-runs runs around each of --repeat peer runs (the first half
    before it, the rest after): 20k DAG <= 40 ms and >= 10,000x tred in the
    same run; 10^6-instruction matmul <= 3 s, peak <= 800 MB."""
    cli = str(Path(args.build) / "cli" / "depreduce")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dag = tmp / "dag20k.dot"
        subprocess.run([cli, "generate", "dag", "--size", "20000", "--seed", "1", "-o", str(dag)], check=True)
        ours, tred = [], []

        def ours_runs(count):
            for _ in range(count):
                cmd = [cli, "reduce", str(dag), "-o", str(tmp / "o.dot")]
                ours.append(checked(timed(cmd, args.timeout), cmd))

        for _ in range(args.repeat):
            # Our runs take milliseconds and move with the machine's phase,
            # while tred's minutes average it out: so ours are sampled on both
            # sides of each tred run, not only at the second before it.
            ours_runs((args.ours_runs + 1) // 2)
            cmd = ["tred", str(dag)]
            tred.append(checked(timed(cmd, args.timeout), cmd))
            ours_runs(args.ours_runs // 2)
        o = statistics.median(r[0] for r in ours)
        t = statistics.median(r[0] for r in tred)
        bound = ">= " if any(r[2] is None for r in tred) else ""  # a timeout: a lower bound
        rows.append(("20k DAG (generate dag --size 20000 --seed 1)", o, max(r[1] for r in ours),
                     f"tred {bound}{t:.2f} s = {bound}{t / o:,.0f}x (median of {len(ours)} ours around {len(tred)} tred)",
                     "<= 40 ms, >= 10,000x tred"))
        mm = tmp / "mm.dot"
        subprocess.run([cli, "generate", "matmul", "--size", "1000000", "--seed", "1", "-o", str(mm)], check=True)
        cmd = [cli, "reduce", str(mm), "-o", str(tmp / "o.dot"), "-q"]
        runs = [checked(timed(cmd, args.timeout), cmd) for _ in range(3)]
        rows.append(("matmul 10^6 (generate matmul --size 1000000 --seed 1)", statistics.median(r[0] for r in runs),
                     max(r[1] for r in runs), "", "<= 3 s, <= 800 MB"))
    lines = ["| input | whole process | peak RSS | peer | target |", "|---|---:|---:|---|---|"]
    for label, wall, rss, peer, target in rows:
        lines.append(f"| {label} | {wall:.3f} s | {rss:.0f} MB | {peer} | {target} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 0


def whole_process_against(args):
    """--whole-process --baseline OLD_BUILD: the same two inputs as
    whole_process(), each run by the baseline's CLI and by this build's in
    turn (the order alternating from run to run, so both see the machine's
    phases alike), --ab-runs times on the 20k DAG and --ab-matmul-runs times
    on the 10^6 matmul. Prints the medians of wall time, the largest peak
    RSS, and new/old ratios against the guard of a change that is to cost
    nothing: wall <= 1.25x, peak <= 1.1x. Both outputs must be the same
    bytes."""
    new = str(Path(args.build) / "cli" / "depreduce")
    old = str(Path(args.baseline) / "cli" / "depreduce")
    lines = ["| input | old wall (median) | new wall (median) | new/old | old peak | new peak | new/old | runs each |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        inputs = [("20k DAG", ["dag", "--size", "20000"], args.ab_runs, []),
                  ("matmul 10^6", ["matmul", "--size", "1000000"], args.ab_matmul_runs, ["-q"])]
        for label, gen, count, extra in inputs:
            path = tmp / "in.dot"
            subprocess.run([new, "generate", *gen, "--seed", "1", "-o", str(path)], check=True)
            runs = {old: [], new: []}
            for i in range(count):
                for cli in ((old, new) if i % 2 == 0 else (new, old)):
                    out = tmp / ("old.dot" if cli == old else "new.dot")
                    cmd = [cli, "reduce", str(path), "-o", str(out), *extra]
                    runs[cli].append(checked(timed(cmd, args.timeout), cmd))
            if (tmp / "old.dot").read_bytes() != (tmp / "new.dot").read_bytes():
                print(f"{label}: the two builds wrote different outputs", file=sys.stderr)
                ok = False
            wo, wn = (statistics.median(r[0] for r in runs[c]) for c in (old, new))
            po, pn = (max(r[1] for r in runs[c]) for c in (old, new))
            print(f"{label}: old {[round(r[0] * 1000, 1) for r in runs[old]]} ms, "
                  f"new {[round(r[0] * 1000, 1) for r in runs[new]]} ms", file=sys.stderr)
            lines.append(f"| {label} | {wo:.3f} s | {wn:.3f} s | {wn / wo:.2f}x (<= 1.25x) | {po:.0f} MB | "
                         f"{pn:.0f} MB | {pn / po:.2f}x (<= 1.1x) | {count} |")
            ok = ok and wn <= 1.25 * wo and pn <= 1.1 * po
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--generated", default="1000,10000")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--search", help="increasing DAG sizes; a peer stops after its first timeout")
    ap.add_argument("--no-real", action="store_true", help="skip corpus/real/")
    ap.add_argument("--peers", default=",".join(PEERS), help="peers to run (default: all)")
    ap.add_argument("--no-cyclic", action="store_true", help="skip the cyclic table")
    ap.add_argument("--only-cyclic", action="store_true", help="only the cyclic table")
    ap.add_argument("--cyclic", default="300,3000",
                    help="sizes of generated DAGs with 20 back edges for the cyclic table (tred vs --cycles condense)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="--whole-process: tred runs on the 20k DAG (each one takes minutes)")
    ap.add_argument("--ours-runs", type=int, default=5,
                    help="--whole-process: depreduce runs around each tred run (half before it, half after)")
    ap.add_argument("--whole-process", action="store_true",
                    help="only the whole-process rows (20k DAG vs tred, 10^6-instruction matmul)")
    ap.add_argument("--baseline", help="--whole-process: a build folder of the old CLI to compare against "
                    "(runs interleaved; no tred)")
    ap.add_argument("--ab-runs", type=int, default=21, help="--baseline: runs of each CLI on the 20k DAG")
    ap.add_argument("--ab-matmul-runs", type=int, default=5, help="--baseline: runs of each CLI on the 10^6 matmul")
    args = ap.parse_args()
    if args.whole_process and args.baseline:
        return whole_process_against(args)
    if args.whole_process:
        return whole_process(args)
    cli = str(Path(args.build) / "cli" / "depreduce")
    boost = str(Path(args.build) / "bench" / "boost_tred")
    rows = []
    for path in [] if args.no_real or args.only_cyclic else sorted((ROOT / "corpus" / "real").rglob("*")):
        if not path.is_file() or path.name == "SOURCES.md" or path.name == "fsm.gv":
            continue
        rows.append(compare(cli, boost, path, str(path.relative_to(ROOT / "corpus" / "real")), args.timeout))
        print(rows[-1], file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for n in filter(None, "" if args.only_cyclic else args.generated.split(",")):
            dag = Path(tmp) / f"dag-{n}.dot"
            subprocess.run([cli, "generate", "dag", "--size", n, "--seed", "1", "-o", str(dag)], check=True)
            rows.append(compare(cli, boost, dag, f"generated dag {n} nodes", args.timeout))
            print(rows[-1], file=sys.stderr)
        active = [p for p in PEERS if p in args.peers.split(",")]
        finished = {p: None for p in PEERS}
        for n in filter(None, (args.search or "").split(",")):
            if not active:
                break
            dag = Path(tmp) / f"dag-{n}.dot"
            subprocess.run([cli, "generate", "dag", "--size", n, "--seed", "1", "-o", str(dag)], check=True)
            row = compare(cli, boost, dag, f"generated dag {n} nodes", args.timeout, active)
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
            for p in list(active):
                if row[p] is None:
                    active.remove(p)
                else:
                    finished[p] = n
            dag.unlink()
    lines = ["| file | edges | kept | depreduce | tred | networkx | boost | tred/ours | nx/ours | boost/ours | same edges |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        sk = r.get("skipped", [])
        lines.append(f"| {r['file']} | {r['edges']} | {r['kept']} | {fmt_time(r['depreduce'])} | "
                     f"{fmt_time(r['tred'], 'tred' in sk)} | {fmt_time(r['networkx'], 'networkx' in sk)} | "
                     f"{fmt_time(r['boost'], 'boost' in sk)} | {ratio(r['tred'], r['depreduce'])} | "
                     f"{ratio(r['networkx'], r['depreduce'])} | {ratio(r['boost'], r['depreduce'])} | "
                     f"{'yes' if r['agree'] else 'NO'} |")
    if args.search:
        lines.append("")
        for p in (p for p in PEERS if p in args.peers.split(",")):
            lines.append(f"- {p}: largest generated DAG finished within {args.timeout:.0f} s: "
                         f"{finished[p] or 'none'} nodes")
    # Cyclic inputs: tred handles them; so does reduce --cycles condense.
    cyclic_rows = []
    if not args.no_cyclic:
        for path in sorted((ROOT / "corpus" / "real").rglob("fsm.gv")):
            cyclic_rows.append(compare_cyclic(cli, path, str(path.relative_to(ROOT / "corpus" / "real")), args.timeout))
            print(cyclic_rows[-1], file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for n in filter(None, "" if args.no_cyclic else args.cyclic.split(",")):
            path = with_back_edges(cli, int(n), tmp)
            cyclic_rows.append(compare_cyclic(cli, path, f"generated dag {n} nodes + 20 back edges", args.timeout))
            print(cyclic_rows[-1], file=sys.stderr)
    if cyclic_rows:
        lines += ["", "Cyclic inputs (`reduce --cycles condense` vs `tred`; either may pick another one of "
                  "several edges between two components):", "",
                  "| file | edges | kept | tred kept | depreduce | tred | tred/ours | ours: same reachability | "
                  "tred: same reachability | same edges |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in cyclic_rows:
            lines.append(f"| {r['file']} | {r['edges']} | {r['kept']} | {r['tred_kept']} | {fmt_time(r['depreduce'])} | "
                         f"{fmt_time(r['tred'])} | {ratio(r['tred'], r['depreduce'])} | "
                         f"{'yes' if r['ours_reach'] else 'NO'} | {'yes' if r['tred_reach'] else 'NO'} | "
                         f"{'yes' if r['same_edges'] else 'no'} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table)
    return 0 if all(r["agree"] for r in rows) and all(r["ours_reach"] for r in cyclic_rows) else 1


if __name__ == "__main__":
    sys.exit(main())
