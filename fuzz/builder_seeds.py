#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_dependence_builder_diff, fuzz_label_verification_diff and fuzz_scheduling_units_diff
into corpus/<target>/.

Access programs (fuzz_dependence_builder_diff, fuzz_label_verification_diff), the layout
testing::access_program_from_bytes() decodes (testing/src/access_programs.cpp):
  b0: n = b0 % 32 + 1 nodes;  b1: spaces = b1 % 3 + 1 (sbuf, psum, dram),
      engines = (b1 >> 2) % 5 (0 = none)
  per node: counts (reads = c % 3, writes = (c // 3) % 3); node byte f
      (engine = f % (engines + 1), == engines -> none; window (f >> 4) % 8:
      0-3 sync, 4-6 async 1-3, 7 inf; barrier if f & 0x88 == 0x88);
      then per range (a, b): space a % spaces; lo = ((a >> 2) % 8) * 8 plus 7
      if b & 0x80, else 1 if b & 0x40; length code b & 0x3f: 0 empty, 1 one
      byte, else ((code - 2) % 12 + 1) * 4; (0xff, >= 0xf0) = a range at the
      top of the 64-bit space
  then edges (a, b, kf): min -> max of a % n, b % n; kinds kf & 15;
      flags (kf >> 4) % 4: 0 retain, 1-2 wait, 3 wait|retain
Unit graphs (fuzz_scheduling_units_diff), testing::unit_graph_from_bytes():
  b0: leaves = b0 % 40 + 1;  b1: flags (1 shuffle ids, 2 a top-level node
      named like a generated name, 4 one node listed in a second subgraph)
  steps t: t % 8 in 0,1 open cluster [a b c D "" _ x/y a][(t >> 3) % 8];
      2 open a non-cluster subgraph; 3 close; 4-7 a leaf; until all leaves
  then (conflict: 2 bytes) (shuffle: one byte per node) edges (a, b)
Usage: python3 fuzz/builder_seeds.py  (from anywhere)
"""
import os
import random

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus")

W16 = (0, 5)       # space 0, [0,16)
R16 = (0, 5)


def node(reads=(), writes=(), f=0):
    out = [len(reads) + 3 * len(writes), f]
    for r in list(reads) + list(writes):
        out += list(r)
    return out


def program(nodes, spaces=1, engines=0, edges=()):
    out = [len(nodes) - 1, (spaces - 1) | (engines << 2)]
    for n in nodes:
        out += n
    for e in edges:
        out += list(e)
    return bytes(out)


def access_seeds():
    rng = random.Random(4)
    seeds = {}
    # w0/r0/w1/r1 on one buffer, with the built edges and one missing.
    seeds["one_buffer"] = program([node(writes=[W16]), node(reads=[R16]), node(writes=[W16]), node(reads=[R16])],
                                  edges=[(0, 1, 0x11), (1, 2, 0x12), (0, 2, 0x14)])
    # [0,8) written, [7,11) read: they share byte 7; [8,16) only touches.
    seeds["partial_overlap"] = program([node(writes=[(0, 3)]), node(reads=[(0, 0x82)]), node(reads=[(4, 3)])])
    # Accumulation: m0 writes P, m1 and m2 read and write it.
    seeds["read_modify_write"] = program([node(writes=[(1, 3)]), node(reads=[(1, 3)], writes=[(1, 3)]),
                                          node(reads=[(1, 3)], writes=[(1, 3)])], spaces=2,
                                         edges=[(0, 1, 0x15), (1, 2, 0x15)])
    # Engines, async windows, barriers: implicit order decides races.
    seeds["engines"] = program([node(writes=[W16], f=0x40), node(reads=[R16], f=0x00), node(writes=[W16], f=0x71),
                                node(reads=[R16], f=0x88), node(reads=[R16], f=0x02)], engines=2)
    # Top of the 64-bit space.
    seeds["top_of_space"] = program([node(writes=[(0xff, 0xf0)]), node(reads=[(0xff, 0xf5)]),
                                     node(writes=[(0xff, 0xf7)])])
    # Several spaces and ranges per node, mislabelled edges.
    seeds["spaces"] = program([node(reads=[(1, 9), (2, 0x45)], writes=[(4, 7)]), node(writes=[(1, 20), (5, 3)]),
                               node(reads=[(9, 33), (2, 2)], writes=[(1, 0x81), (6, 4)]), node(reads=[(13, 12)])],
                              spaces=3, edges=[(0, 1, 0x13), (0, 2, 0x18), (1, 3, 0x02), (2, 3, 0x30)])
    seeds["random_small"] = bytes(rng.randrange(256) for _ in range(64))
    seeds["random_large"] = bytes(rng.randrange(256) for _ in range(700))
    return seeds


def unit_seeds():
    rng = random.Random(8)
    leaf = 4
    close = 3

    def cluster(k):
        return (k << 3) | 0

    def plain(k):
        return (k << 3) | 2

    seeds = {}
    # cluster_a { n0 cluster_b { n1 cluster_c { n2 n3 } n4 } n5 } n6
    seeds["three_deep"] = bytes([6, 0, cluster(0), leaf, cluster(1), leaf, cluster(2), leaf, leaf, close, leaf,
                                 close, leaf, close, leaf, 0, 1, 3, 4, 5, 6])
    seeds["name_collision"] = bytes([3, 2, cluster(0), leaf, leaf, close, cluster(6), leaf, leaf, close, 0, 4])
    seeds["two_units"] = bytes([3, 4, cluster(0), leaf, leaf, close, cluster(1), leaf, leaf, close, 1, 0])
    seeds["interleaved"] = bytes([7, 1, leaf, cluster(3), leaf, leaf, close, leaf, cluster(1), leaf, leaf, close,
                                  leaf, 5, 2, 7, 1, 3, 6, 0, 4, 0, 7, 2, 5])
    seeds["layout_subgraphs"] = bytes([5, 0, plain(1), leaf, cluster(0), leaf, close, close, cluster(2), plain(0),
                                       leaf, leaf, close, leaf, close, leaf])
    seeds["odd_names"] = bytes([5, 0, cluster(4), leaf, close, cluster(5), leaf, close, cluster(7),
                                cluster(7), leaf, close, close, cluster(3), leaf, leaf])
    seeds["random_small"] = bytes(rng.randrange(256) for _ in range(48))
    seeds["random_large"] = bytes([39, 7] + [rng.randrange(256) for _ in range(400)])
    return seeds


def write(target, seeds):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(folder, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    access = access_seeds()
    write("fuzz_dependence_builder_diff", access)
    write("fuzz_label_verification_diff", access)
    write("fuzz_scheduling_units_diff", unit_seeds())
