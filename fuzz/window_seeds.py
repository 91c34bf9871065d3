#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_window_diff into corpus/fuzz_window_diff/.

The byte layout is the one testing::stream_from_bytes() decodes
(testing/src/window.cpp):
  header: rings = 1 + b0 % 4; slots = [3, 16, 64, 300, 1024][b1 % 5];
          b2 bit 0 -> 32-bit sequence, bit 1 -> start (b2 >> 2) % 16 below the wrap
  task:   head; head & 0x80 -> move to ring (head >> 4) % rings; head == 0xff ->
          republish the previous (slot, generation) (an error); candidates = head % 9
  candidate: a, b; a == 0xff -> producer on a ring that does not exist (an error);
          kind = a & 7: 0-2 near (d = 1 + b % 8), 3 window edge ([64,128,256][b % 3]
          - 2 + (b // 3) % 5), 4 d = 1 + b, 5 d = 1 + 2b, 6 stale generation
          (d = 1 + 2b), 7 duplicate of an earlier candidate;
          flags (a >> 5) & 3: 0, 1 WAIT; 2 WAIT|RETAIN; 3 RETAIN (a & 0x80) or none;
          source (a >> 3) % 3.
Usage: python3 fuzz/window_seeds.py  (from the repository root)
"""
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "fuzz_window_diff")


def near(d, flags=0, source=0):
    return [((flags & 3) << 5) | ((source % 3) << 3) | 0, d - 1]


def task(cands, ring=None):
    k = len(cands)
    assert k <= 8
    head = k if ring is None else 0x80 | (ring << 4) | k
    assert head != 0xff
    return [head] + [x for c in cands for x in c]


def seeds():
    s = {}
    # A -> B -> C plus A -> C, pure WAIT and WAIT|RETAIN shortcut.
    s["diamond"] = [0, 4, 0] + task([]) + task([near(1)]) + task([near(2), near(1)])
    s["diamond-retain"] = [0, 4, 0] + task([]) + task([near(1)]) + task([near(2, flags=2), near(1)])
    # A long chain with shortcuts at growing distances (d = 1 + b).
    body = task([])
    for i in range(1, 300):
        body += task([near(1), [4, (i * 7) % 256]])
    s["chain-shortcuts"] = [0, 4, 0] + body
    # Candidates at BL - 2 .. BL + 2 for every BL, on top of a chain.
    body = task([])
    for i in range(1, 280):
        body += task([near(1), [3, i % 15]])
    s["window-edges"] = [0, 4, 0] + body
    # 32-bit sequence starting 5 below the wrap: diamonds across 2^32 - 1 -> 0.
    body = task([])
    for i in range(1, 24):
        body += task([near(1), near(2), near(3)])
    s["wrap-32"] = [0, 4, 0x03 | (5 << 2)] + body
    s["wrap-64"] = [0, 4, 0x02 | (3 << 2)] + body
    # Two rings, alternating: cross-ring witnesses (global) vs same-ring only.
    body = task([], ring=0)
    for i in range(1, 120):
        body += task([near(1), near(2), near(4)], ring=i % 2)
    s["cross-ring"] = [1, 4, 0] + body
    # Three slots per ring: slots reused constantly, stale generations named.
    body = task([])
    for i in range(1, 60):
        body += task([near(1), near(2), [6, 0], near(3)])
    s["slot-reuse-stale"] = [0, 0, 0] + body
    # Duplicates of one producer from other sources with other flags.
    body = task([])
    for i in range(1, 40):
        body += task([near(1), near(2, flags=2, source=1), [7 | (1 << 3), 1], [7 | 0x40 | (2 << 3), 0]])
    s["duplicates"] = [0, 4, 0] + body
    # Error paths: a republished (slot, generation), a producer on no ring.
    s["error-republish"] = [0, 4, 0] + task([]) + task([near(1)]) + [0xff] + task([near(1)])
    s["error-bad-producer"] = [1, 2, 0] + task([]) + task([near(1), [0xff, 0]])
    # Random bytes, fixed seed.
    rng = random.Random(20261129)
    s["random-a"] = [rng.randrange(256) for _ in range(1500)]
    s["random-b"] = [2, 3, 0] + [rng.randrange(256) for _ in range(3000)]
    return s


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in seeds().items():
        with open(os.path.join(OUT, name + ".bin"), "wb") as f:
            f.write(bytes(data))


if __name__ == "__main__":
    main()
