#!/usr/bin/env python3
"""Batch mode against one process per file, whole processes.

Every DOT region of corpus/real/gcc-sched/regions goes through `depreduce
reduce` twice: once as one batch process (`--files-from LIST --out-dir DIR`)
and once as one process per file (`reduce FILE -o OUT`, run one after the
other). Prints both wall times (best of --runs) and their ratio, and fails
(exit 1) if any output differs byte for byte, or if the ratio is below
--min-ratio.

Every run writes into folders of its own, created just before and removed
only at the end: replacing existing outputs, or creating files right after
deleting many, costs the file system (ext4) far more than the run itself,
and that cost is the same for both ways. --tmp chooses where the outputs
go (default: the system's temporary folder; /dev/shm is tmpfs, where
creating a file costs a few microseconds).

Usage:
  bench/batch_bench.py [--build build] [--runs 3] [--min-ratio 0] [--corpus DIR] [--tmp DIR]
"""
import argparse
import filecmp
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build folder holding cli/depreduce")
    ap.add_argument("--runs", type=int, default=3, help="runs of each way; the best is reported")
    ap.add_argument("--min-ratio", type=float, default=0.0, help="fail if per-file / batch is below this")
    ap.add_argument("--corpus", default=str(ROOT / "corpus/real/gcc-sched/regions"))
    ap.add_argument("--tmp", default=None, help="folder for the outputs (default: the system's temporary folder)")
    args = ap.parse_args()

    cli = (ROOT / args.build / "cli" / "depreduce").resolve()
    if not cli.exists():
        print(f"batch_bench: {cli} not found (build the depreduce_cli target)", file=sys.stderr)
        return 2
    inputs = sorted(Path(args.corpus).glob("*.dot"))
    if not inputs:
        print(f"batch_bench: no .dot file in {args.corpus}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="depreduce_batch_bench_", dir=args.tmp) as tmp:
        tmp = Path(tmp)
        listing = tmp / "inputs.txt"
        listing.write_text("".join(f"{p}\n" for p in inputs))

        batch_times, single_times = [], []
        for run in range(args.runs):
            batch_dir, single_dir = tmp / f"batch{run}", tmp / f"single{run}"
            single_dir.mkdir()
            # The status lines go to a file, as a build log would take them.
            log = tmp / f"batch{run}.log"
            with open(log, "w") as err:
                t0 = time.perf_counter()
                r = subprocess.run([str(cli), "reduce", "--files-from", str(listing), "--out-dir", str(batch_dir)],
                                   stdout=subprocess.DEVNULL, stderr=err)
                batch_times.append(time.perf_counter() - t0)
            status = log.read_text().splitlines()
            if r.returncode != 0:
                print(f"batch_bench: the batch run failed ({r.returncode}):\n{log.read_text()}", file=sys.stderr)
                return 1
            if len(status) != len(inputs) or not all(line.startswith("depreduce: ok: ") for line in status):
                print(f"batch_bench: expected {len(inputs)} 'ok' status lines, got:\n{log.read_text()}", file=sys.stderr)
                return 1

            t0 = time.perf_counter()
            for p in inputs:
                r = subprocess.run([str(cli), "reduce", str(p), "-o", str(single_dir / (p.stem + ".dot"))],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if r.returncode != 0:
                    print(f"batch_bench: reduce {p} failed ({r.returncode})", file=sys.stderr)
                    return 1
            single_times.append(time.perf_counter() - t0)

        differ = [p.name for p in inputs
                  if not filecmp.cmp(batch_dir / (p.stem + ".dot"), single_dir / (p.stem + ".dot"), shallow=False)]
        extra = sorted({q.name for q in batch_dir.iterdir()} - {p.stem + ".dot" for p in inputs})

    batch, single = min(batch_times), min(single_times)
    ratio = single / batch
    print(f"inputs: {len(inputs)} files of {args.corpus}")
    print(f"one process per file: {single:.3f} s ({1e3 * single / len(inputs):.2f} ms per file)")
    print(f"one batch process:    {batch:.3f} s ({1e6 * batch / len(inputs):.0f} us per file)")
    print(f"ratio: {ratio:.1f}x (best of {args.runs} runs each)")
    if differ or extra:
        print(f"batch_bench: FAIL: {len(differ)} output(s) differ ({', '.join(differ[:5])}); "
              f"unexpected files in the batch folder: {extra[:5]}", file=sys.stderr)
        return 1
    print("outputs: identical byte for byte")
    if ratio < args.min_ratio:
        print(f"batch_bench: FAIL: ratio {ratio:.1f}x below --min-ratio {args.min_ratio}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
