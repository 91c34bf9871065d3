#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_window_reducer_diff into corpus/fuzz_window_reducer_diff/.

The byte layout is the one testing::stream_from_bytes() decodes
(testing/src/task_streams.cpp):
  header: b0: rings = 1 + b0 % 4; bit 2: mode (0 global, 1 same-ring);
              BL = [64, 128, 256][(b0 >> 3) % 3] - fuzz_window_reducer_diff runs each
              input for that one mode and BL only;
          slots = [3, 16, 64, 300, 1024][b1 % 5];
          b2 bit 0 -> 32-bit sequence, bit 1 -> start (b2 >> 2) % 16 below the wrap
  task:   head; head == 0xfe (not first) -> a run: next byte g, 1 + (g >> 1) tasks
          on the current ring, each WAIT on the task before it (g even: a chain)
          or with no candidate (g odd), so a short input reaches distances past
          BL = 256; head & 0x80 -> move to ring (head >> 4) % rings; head == 0xff ->
          republish the previous (slot, generation) (an error); candidates = head % 9
  candidate: a, b; a == 0xff -> producer on a ring that does not exist (an error);
          kind = a & 7: 0-2 near (d = 1 + b % 8), 3 window edge ([64,128,256][b % 3]
          - 2 + (b // 3) % 5), 4 d = 1 + b, 5 d = 1 + 2b, 6 stale generation
          (d = 1 + 2b), 7 duplicate of an earlier candidate;
          flags (a >> 5) & 3: 0, 1 WAIT; 2 WAIT|RETAIN; 3 RETAIN (a & 0x80) or none;
          source (a >> 3) % 3.
Every seed is written for the (mode, BL) combinations it is meant for, as
<name>-<global|same-ring>-<BL>.bin (the random ones keep their bytes).
Usage: python3 fuzz/window_seeds.py  (from the repository root)
"""
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "fuzz_window_reducer_diff")


def near(d, flags=0, source=0):
    return [((flags & 3) << 5) | ((source % 3) << 3) | 0, d - 1]


def task(cands, ring=None):
    k = len(cands)
    assert k <= 8
    head = k if ring is None else 0x80 | (ring << 4) | k
    assert head != 0xff
    return [head] + [x for c in cands for x in c]


MODES = {"global": 0, "same-ring": 1}
BLS = [64, 128, 256]


def header(rings, mode, bl):
    """b0: rings - 1, the mode bit and the window size index."""
    return ((rings - 1) & 3) | (MODES[mode] << 2) | (BLS.index(bl) << 3)


def edge(bl, offset, flags=0, source=0, retain_only=False):
    """A candidate at distance bl - 2 + offset (offset 0..4), kind 3; flags 3
    is RETAIN with retain_only, else no flag."""
    return [(0x80 if retain_only else 0) | ((flags & 3) << 5) | ((source % 3) << 3) | 3, BLS.index(bl) + 3 * offset]


def run(count, chain=True):
    """head 0xfe: count (1..128) tasks, a chain or independent."""
    assert 1 <= count <= 128
    return [0xfe, ((count - 1) << 1) | (0 if chain else 1)]


def bodies():
    """name -> (rings, b1, b2, body, [(mode, BL), ...])."""
    every = [(m, bl) for m in MODES for bl in BLS]
    b = {}
    # A -> B -> C plus A -> C, pure WAIT and WAIT|RETAIN shortcut.
    b["diamond"] = (1, 4, 0, task([]) + task([near(1)]) + task([near(2), near(1)]), [("global", 64), ("same-ring", 128)])
    b["diamond-retain"] = (1, 4, 0, task([]) + task([near(1)]) + task([near(2, flags=2), near(1)]),
                           [("global", 256), ("same-ring", 64)])
    # A long chain with shortcuts at growing distances (d = 1 + b).
    body = task([])
    for i in range(1, 300):
        body += task([near(1), [4, (i * 7) % 256]])
    b["chain-shortcuts"] = (1, 4, 0, body, every)
    # Candidates at BL - 2 .. BL + 2 for every BL, on top of a chain.
    body = task([])
    for i in range(1, 280):
        body += task([near(1), [3, i % 15]])
    b["window-edges"] = (1, 4, 0, body, every)
    # The same in a few bytes: a chain (runs) of BL + 2 tasks, then one task
    # with WAIT, WAIT|RETAIN and RETAIN-only candidates at BL - 2 .. BL + 2
    # (redundant through the chain: removed up to d = BL, kept past it).
    for bl in BLS:
        body = task([])
        left = bl + 2
        while left > 0:
            body += run(min(left, 128))
            left -= min(left, 128)
        body += task([near(1)] + [edge(bl, o) for o in range(5)])
        body += task([near(1)] + [edge(bl, o, flags=2) for o in range(5)] + [edge(bl, 2, flags=3)])
        body += task([near(1), edge(bl, 1, flags=3, retain_only=True), edge(bl, 2), edge(bl, 3, flags=2)])
        b["run-chain-edge-%d" % bl] = (1, 4, 0, body, [("global", bl), ("same-ring", bl)])
        # Independent tasks instead of a chain: nothing is redundant.
        body = task([]) + run(min(bl, 128), chain=False) + (run(bl - 128, chain=False) if bl > 128 else [])
        body += task([near(1)] + [edge(bl, o) for o in range(5)])
        b["run-free-edge-%d" % bl] = (1, 4, 0, body, [("global", bl)])
    # 32-bit sequence starting 5 below the wrap: diamonds across 2^32 - 1 -> 0.
    body = task([])
    for i in range(1, 24):
        body += task([near(1), near(2), near(3)])
    b["wrap-32"] = (1, 4, 0x03 | (5 << 2), body, [("global", 64), ("same-ring", 256)])
    b["wrap-64"] = (1, 4, 0x02 | (3 << 2), body, [("global", 128), ("same-ring", 64)])
    # Two rings, alternating: cross-ring witnesses (global) vs same-ring only.
    body = task([], ring=0)
    for i in range(1, 120):
        body += task([near(1), near(2), near(4)], ring=i % 2)
    b["cross-ring"] = (2, 4, 0, body, every)
    # Three slots per ring: slots reused constantly, stale generations named.
    body = task([])
    for i in range(1, 60):
        body += task([near(1), near(2), [6, 0], near(3)])
    b["slot-reuse-stale"] = (1, 0, 0, body, [("global", 64), ("same-ring", 128), ("global", 256)])
    # Duplicates of one producer from other sources with other flags.
    body = task([])
    for i in range(1, 40):
        body += task([near(1), near(2, flags=2, source=1), [7 | (1 << 3), 1], [7 | 0x40 | (2 << 3), 0]])
    b["duplicates"] = (1, 4, 0, body, [("global", 64), ("same-ring", 256)])
    # Error paths: a republished (slot, generation), a producer on no ring.
    b["error-republish"] = (1, 4, 0, task([]) + task([near(1)]) + [0xff] + task([near(1)]), [("global", 64), ("same-ring", 128)])
    b["error-bad-producer"] = (2, 2, 0, task([]) + task([near(1), [0xff, 0]]), [("global", 256), ("same-ring", 64)])
    return b


def seeds():
    s = {}
    for name, (rings, b1, b2, body, configs) in bodies().items():
        for mode, bl in configs:
            s["%s-%s-%d" % (name, mode, bl)] = [header(rings, mode, bl), b1, b2] + body
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
