"""depreduce.reduce_edges: edge arrays in, keep-mask out."""
import array
import subprocess
import sys
import threading
import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import depreduce
from conftest import ROOT


@st.composite
def dags(draw, max_n=24):
    """A DAG over ids 0..n-1 in a random order (a hidden topological rank),
    its edges listed in a random order."""
    n = draw(st.integers(0, max_n))
    rank = draw(st.permutations(range(n)))
    pairs = [(a, b) for a in range(n) for b in range(n) if rank[a] < rank[b]]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=60)) if pairs else []
    return n, edges


def nx_kept(n, edges):
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    return set(nx.transitive_reduction(G).edges())


@settings(max_examples=300, deadline=None, derandomize=True)
@given(dags())
def test_mask_equals_networkx(dag):
    n, edges = dag
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    keep = depreduce.reduce_edges(n, np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64))
    assert isinstance(keep, np.ndarray) and keep.dtype == np.bool_ and len(keep) == len(edges)
    assert {e for e, k in zip(edges, keep) if k} == nx_kept(n, edges)


DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.intp, np.uintp]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_integer_dtype_and_layout(dtype):
    n, edges = 7, [(0, 1), (1, 2), (0, 2), (2, 3), (0, 3), (4, 5), (5, 6), (4, 6), (1, 3)]
    expected = [e in nx_kept(n, edges) for e in edges]
    src = np.array([u for u, _ in edges], dtype=dtype)
    dst = np.array([v for _, v in edges], dtype=dtype)
    assert list(depreduce.reduce_edges(n, src, dst)) == expected
    # Strided views (not contiguous): converted, same answer.
    s2 = np.repeat(src, 2)[::2]
    d2 = np.repeat(dst, 2)[::2]
    assert not s2.flags["C_CONTIGUOUS"]
    assert list(depreduce.reduce_edges(n, s2, d2)) == expected
    # Mixed dtypes: src in this dtype, dst as int64.
    assert list(depreduce.reduce_edges(n, src, dst.astype(np.int64))) == expected
    # Read-only buffers are fine (read without a copy, never written).
    src.flags.writeable = False
    assert list(depreduce.reduce_edges(n, src, dst)) == expected


@pytest.mark.parametrize("code", ["b", "B", "h", "H", "i", "I", "l", "L", "q", "Q"])
def test_array_array_lists_and_tuples(code):
    n, edges = 4, [(3, 2), (2, 1), (3, 1), (1, 0)]  # ids in reverse topological order
    expected = [True, True, False, True]
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    assert list(depreduce.reduce_edges(n, array.array(code, src), array.array(code, dst))) == expected
    assert list(depreduce.reduce_edges(n, src, dst)) == expected
    assert list(depreduce.reduce_edges(n, tuple(src), tuple(dst))) == expected
    assert list(depreduce.reduce_edges(n, range(3, 0, -1), range(2, -1, -1))) == [True, True, True]


def test_self_loops_and_repeated_pairs():
    # 0 -> 1 -> 2, 0 -> 2 twice, a self-loop on 1, 0 -> 1 twice.
    src = [0, 1, 0, 1, 0, 0]
    dst = [1, 2, 2, 1, 2, 1]
    assert list(depreduce.reduce_edges(3, src, dst)) == [True, True, False, True, False, False]
    # A needed pair listed twice: the first occurrence stays, the repeat goes.
    assert list(depreduce.reduce_edges(2, [0, 0], [1, 1])) == [True, False]


def test_empty_and_isolated():
    assert len(depreduce.reduce_edges(0, [], [])) == 0
    assert list(depreduce.reduce_edges(5, np.array([], dtype=np.uint32), np.array([], dtype=np.uint32))) == []


# ------------------------------------------------------------------ bad input


def expect(exc, n, src, dst, index, capfd, text=None):
    with pytest.raises(exc) as info:
        depreduce.reduce_edges(n, src, dst)
    if index is not None:
        assert info.value.index == index
        assert str(index) in str(info.value)
    if text:
        assert text in str(info.value)
    out, err = capfd.readouterr()
    assert out == "" and err == "", "nothing may be printed"
    return info.value


@pytest.mark.parametrize("make", [list, lambda v: np.array(v, dtype=np.int64), lambda v: np.array(v, dtype=np.int32),
                                  lambda v: array.array("i", v), lambda v: np.array(v, dtype=np.int8)])
@pytest.mark.parametrize("at", [0, 3, 5])
@pytest.mark.parametrize("side", ["src", "dst"])
def test_negative_id_names_the_edge(make, at, side, capfd):
    src = [0, 1, 2, 3, 4, 5]
    dst = [1, 2, 3, 4, 5, 6]
    (src if side == "src" else dst)[at] = -1
    e = expect(IndexError, 7, make(src), make(dst), at, capfd, "negative")
    assert side in str(e)


@pytest.mark.parametrize("make", [list, lambda v: np.array(v, dtype=np.uint32), lambda v: np.array(v, dtype=np.uint64),
                                  lambda v: np.array(v, dtype=np.int64), lambda v: np.array(v, dtype=np.uint16)])
@pytest.mark.parametrize("at", [0, 4, 5])
@pytest.mark.parametrize("side", ["src", "dst"])
def test_id_out_of_range_names_the_edge(make, at, side, capfd):
    src = [0, 1, 2, 3, 4, 5]
    dst = [1, 2, 3, 4, 5, 6]
    (src if side == "src" else dst)[at] = 7  # == n
    expect(IndexError, 7, make(src), make(dst), at, capfd, "out of range")


def test_huge_python_int_is_out_of_range(capfd):
    expect(IndexError, 3, [0, 2 ** 70], [1, 2], 1, capfd)
    expect(IndexError, 3, [0, -2 ** 70], [1, 2], 1, capfd)


def test_lengths_differ(capfd):
    e = expect(ValueError, 4, [0, 1, 2], [1, 2], 2, capfd, "lengths differ")
    assert not isinstance(e, IndexError)
    expect(ValueError, 4, np.array([0], dtype=np.uint32), np.array([1, 2], dtype=np.uint32), 1, capfd)


@pytest.mark.parametrize("rotate", range(4))
def test_cycle_names_its_nodes_and_an_edge_on_it(rotate, capfd):
    # 0 -> 1 -> 2 -> 3 -> 1 plus a tail 3 -> 4, edges listed in rotated orders.
    edges = [(0, 1), (1, 2), (2, 3), (3, 1), (3, 4)]
    edges = edges[rotate:] + edges[:rotate]
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    e = expect(depreduce.CycleError, 5, src, dst, None, capfd)
    assert isinstance(e, ValueError)
    assert edges[e.index] in {(1, 2), (2, 3), (3, 1)}
    for v in ("1", "2", "3"):
        assert v in str(e)
    assert "0" not in str(e).replace("cycle", "")


def test_negative_n_and_wrong_types(capfd):
    expect(ValueError, -1, [], [], None, capfd)
    with pytest.raises(TypeError):
        depreduce.reduce_edges(3, np.array([0.0, 1.0]), np.array([1.0, 2.0]))
    with pytest.raises(TypeError) as info:
        depreduce.reduce_edges(3, [0, "1"], [1, 2])
    assert info.value.index == 1
    with pytest.raises(TypeError):
        depreduce.reduce_edges(3, [0, 1.0], [1, 2])
    with pytest.raises(ValueError):
        depreduce.reduce_edges(3, np.zeros((2, 2), dtype=np.uint32), np.zeros((2, 2), dtype=np.uint32))
    with pytest.raises(TypeError):
        depreduce.reduce_edges(3, 5, 6)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


# ------------------------------------------------------------------ threads, GIL, no NumPy


def big_dag(n, m, seed):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n - 1, size=m, dtype=np.int64)
    dst = np.minimum(src + 1 + rng.integers(0, 64, size=m), n - 1)
    return n, src.astype(np.uint32), dst.astype(np.uint32)


def test_concurrent_calls_agree_with_serial_ones():
    graphs = [big_dag(20000, 80000, seed) for seed in range(4)]
    serial = [depreduce.reduce_edges(*g) for g in graphs]
    results = [None] * len(graphs)

    def work(i):
        for _ in range(3):
            results[i] = depreduce.reduce_edges(*graphs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(graphs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(serial, results):
        assert np.array_equal(a, b)


def test_gil_is_released_while_reducing():
    n, src, dst = big_dag(100000, 500000, 7)
    stop = threading.Event()
    started = threading.Event()
    window = [0.0, 0.0]  # the call's start and end
    gaps = [0.0]  # the longest stretch, inside the call, in which the other thread ran no Python

    def watch():
        last = time.perf_counter()
        started.set()
        while not stop.is_set():
            now = time.perf_counter()
            if window[0] and now > window[0]:  # the part of this stretch inside the call
                gaps[0] = max(gaps[0], now - max(last, window[0]))
            last = now

    t = threading.Thread(target=watch)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-3)
    try:
        t.start()
        started.wait()
        window[0] = time.perf_counter()
        depreduce.reduce_edges(n, src, dst)
        window[1] = time.perf_counter()
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    call = window[1] - window[0]
    # With the GIL held through the call, the watcher (Python code) would
    # stand still for all of it; released, it runs all along.
    assert gaps[0] < 0.5 * call, (gaps[0], call)


def test_without_numpy_the_mask_is_a_list():
    # Neither NumPy nor NetworkX is needed by the array functions.
    code = ("import sys; sys.modules['numpy'] = None; sys.modules['networkx'] = None\n"
            "import depreduce\n"
            "k = depreduce.reduce_edges(3, [0, 1, 0], [1, 2, 2])\n"
            "assert k == [True, True, False], k\n"
            "import array\n"
            "k = depreduce.reduce_edges(3, array.array('I', [0, 1, 0]), array.array('I', [1, 2, 2]))\n"
            "assert k == [True, True, False], k\n"
            "import os\n"
            "names, s, d = depreduce.read(os.path.join(%r, 'corpus/real/graphviz/graphs/directed/unix.gv'), as_arrays=True)\n"
            "assert s.typecode == 'I' and len(s) == len(d) == 49, (s.typecode, len(s))\n"
            "assert len(depreduce.reduce_edges(len(names), s, d)) == 49\n" % str(ROOT))
    subprocess.run([sys.executable, "-c", code], check=True)
