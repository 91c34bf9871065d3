#!/usr/bin/env python3
"""Writes the seeds of fuzz_reducer_diff into corpus/fuzz_reducer_diff/.

Each seed is a sequence of records (kind, len, len bytes) as the target
decodes them (fuzz/fuzz_reducer_diff.cpp): every decoder (kind % 4) with
every filter (kind / 4 % 4), small and dense graphs, a fixed random stream
(seeded) so the seeds are reproducible. Files are named by the sha1 of
their content.
"""
import hashlib
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "corpus", "fuzz_reducer_diff")


def main():
    rng = random.Random(38)
    os.makedirs(OUT, exist_ok=True)
    seeds = []
    for kind in range(16):
        for size in (8, 40, 120):
            body = bytes(rng.randrange(256) for _ in range(size))
            # byte 0 of the body picks n: keep it small so edges are dense.
            body = bytes([rng.randrange(4, 24)]) + body[1:]
            seeds.append(bytes([kind, len(body)]) + body)
    # Several graphs of every kind in one input: scratch reused in one run.
    for _ in range(8):
        data = b""
        for _ in range(6):
            body = bytes([rng.randrange(2, 64)]) + bytes(rng.randrange(256) for _ in range(rng.randrange(4, 150)))
            data += bytes([rng.randrange(16), len(body)]) + body
        seeds.append(data)
    for s in seeds:
        with open(os.path.join(OUT, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)
    print(f"{len(seeds)} seeds in {OUT}")


if __name__ == "__main__":
    main()
