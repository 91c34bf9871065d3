"""depreduce.transitive_reduction over NetworkX graphs."""
import json
import math
import warnings

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

import depreduce
from conftest import cli, cli_removed, write_dot

# Node keys of several types: ints, strings, tuples, frozensets, mixed.
KEY_KINDS = {
    "int": lambda i: i * 7 + 3,
    "str": lambda i: "task-%d" % i,
    "tuple": lambda i: ("stage", i % 3, i),
    "frozenset": lambda i: frozenset({i, -i - 1}),
    "mixed": lambda i: (i if i % 3 == 0 else "n%d" % i if i % 3 == 1 else (i, "x")),
    "str-vs-int": lambda i: str(i) if i % 2 else i,  # 1 and "1" may both be keys
}


class MyDiGraph(nx.DiGraph):
    """A subclass: the result must be of the same class."""


@st.composite
def attributed_dags(draw, max_n=16):
    n = draw(st.integers(0, max_n))
    key_kind = draw(st.sampled_from(sorted(KEY_KINDS)))
    keys = [KEY_KINDS[key_kind](i) for i in range(n)]
    rank = draw(st.permutations(range(n)))
    pairs = [(a, b) for a in range(n) for b in range(n) if rank[a] < rank[b]]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=40)) if pairs else []
    cls = draw(st.sampled_from([nx.DiGraph, MyDiGraph]))
    G = cls()
    G.graph["title"] = draw(st.text(max_size=5))
    G.graph["meta"] = {"seed": n}
    order = draw(st.permutations(range(n)))  # node insertion order differs from the ranks
    for i in order:
        G.add_node(keys[i], weight=draw(st.integers(0, 9)), label="L%d" % i, payload=[i])
    for a, b in edges:
        G.add_edge(keys[a], keys[b], cost=draw(st.floats(0, 1)), tag=(a, b))
    return G


@settings(max_examples=250, deadline=None, derandomize=True)
@given(attributed_dags())
def test_edges_equal_networkx_and_attributes_are_kept(G):
    H = depreduce.transitive_reduction(G)
    assert type(H) is type(G)
    assert H is not G
    assert set(H.edges()) == set(nx.transitive_reduction(G).edges())
    assert list(H.nodes) == list(G.nodes)
    for v, d in G.nodes(data=True):
        assert H.nodes[v] == d
        assert H.nodes[v] is not d  # a copy, as G.copy() makes
    assert H.graph == G.graph
    for u, v, d in H.edges(data=True):
        assert d == G.edges[u, v]
    # G itself is untouched.
    assert G.number_of_edges() >= H.number_of_edges()


def test_cycle_error_names_the_nodes_of_one_cycle():
    G = nx.DiGraph([("x", "a"), ("a", ("b", 1)), (("b", 1), "c"), ("c", "a"), ("c", "y")])
    with pytest.raises(depreduce.CycleError) as info:
        depreduce.transitive_reduction(G)
    e = info.value
    assert isinstance(e, ValueError)
    assert set(e.nodes) == {"a", ("b", 1), "c"}
    for k in e.nodes:
        assert repr(k) in str(e)
    # condense: the cycle is kept, the rest reduced (tred's rule).
    G.add_edge("x", "c")
    H = depreduce.transitive_reduction(G, cycles="condense")
    assert set(H.edges()) == set(G.edges()) - {("x", "c")}


def test_self_loop_kept_with_a_warning():
    G = nx.DiGraph([(1, 2), (2, 3), (1, 3), (2, 2)])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        H = depreduce.transitive_reduction(G)
    assert set(H.edges()) == {(1, 2), (2, 3), (2, 2)}
    assert any("self-loop" in str(x.message) for x in w)


def test_redundant_wait_retain_edge_becomes_retain():
    G = nx.DiGraph()
    G.add_edge("a", "b")
    G.add_edge("b", "c")
    G.add_edge("a", "c", flags="wait|retain", note="keep me")
    G.add_edge("b", "d", flags=["retain"])
    G.add_edge("a", "d")
    H = depreduce.transitive_reduction(G)
    assert H.edges["a", "c"] == {"flags": "retain", "note": "keep me"}
    assert G.edges["a", "c"]["flags"] == "wait|retain"  # the input is untouched
    assert H.has_edge("a", "d")  # b -> d is RETAIN only: no path
    assert H.edges["b", "d"] == {"flags": ["retain"]}


def test_kinds_filter_and_ordered_edges():
    G = nx.DiGraph()
    G.add_edge(0, 1, kind="flow")
    G.add_edge(1, 2, kind="flow")
    G.add_edge(0, 2, kind="anti")
    assert not depreduce.transitive_reduction(G).has_edge(0, 2)
    assert depreduce.transitive_reduction(G, kinds="flow").has_edge(0, 2)
    assert not depreduce.transitive_reduction(G, kinds="anti|output").has_edge(0, 2)
    # An S path (ORDERED) does not imply a C edge.
    G = nx.DiGraph()
    G.add_edge(0, 1, kind={"ordered"})
    G.add_edge(1, 2)
    G.add_edge(0, 2, kind="flow")
    assert depreduce.transitive_reduction(G).has_edge(0, 2)


def test_engine_order_counts_as_paths():
    G = nx.DiGraph()
    G.add_node("a", engine=0)
    G.add_node("b", engine=0)
    G.add_node("c", engine=1)
    G.add_edge("a", "b")  # implied by engine 0's program order (a synchronous)
    G.add_edge("b", "c")
    G.add_edge("a", "c")
    H = depreduce.transitive_reduction(G)
    assert set(H.edges()) == {("b", "c")}
    G.nodes["a"]["async"] = math.inf  # completes only through explicit edges
    H = depreduce.transitive_reduction(G)
    assert set(H.edges()) == {("a", "b"), ("b", "c")}


@pytest.mark.parametrize("attr,value,words", [
    ("engine", "x", "expected an integer >= 0 or 'none'"),
    ("engine", -1, "expected an integer >= 0 or 'none'"),
    ("async", "soon", "'inf'"),
    ("barrier", "maybe", "true or false"),
    ("reads", "sbuf:[5,1)", "reads="),
])
def test_bad_node_model_attribute(attr, value, words):
    G = nx.DiGraph([("p", "q")])
    G.nodes["q"][attr] = value
    with pytest.raises(depreduce.InputError) as info:
        depreduce.transitive_reduction(G)
    assert isinstance(info.value, ValueError)
    assert "'q'" in str(info.value) and words in str(info.value)


@pytest.mark.parametrize("attr,value", [("kind", "raw|bogus"), ("flags", "later"), ("flags", "")])
def test_bad_edge_model_attribute(attr, value):
    G = nx.DiGraph()
    G.add_edge("p", "q", **{attr: value})
    if value == "":
        depreduce.transitive_reduction(G)  # "" = not set, as in DOT
        return
    with pytest.raises(depreduce.InputError) as info:
        depreduce.transitive_reduction(G)
    assert "'p' -> 'q'" in str(info.value) and attr + "=" in str(info.value)


def test_engine_out_of_range_and_undirected():
    G = nx.DiGraph([(0, 1)])
    G.graph["engines"] = 2
    G.nodes[1]["engine"] = 2
    with pytest.raises(depreduce.InputError):
        depreduce.transitive_reduction(G)
    with pytest.raises(TypeError):
        depreduce.transitive_reduction(nx.Graph([(0, 1)]))


def test_multidigraph_parts_share_the_verdict():
    G = nx.MultiDiGraph()
    G.add_edge("a", "b")
    G.add_edge("b", "c")
    G.add_edge("a", "c", kind="flow")
    G.add_edge("a", "c", kind="anti", flags="wait|retain")
    G.add_edge("a", "b", flags="retain")
    H = depreduce.transitive_reduction(G)
    assert type(H) is nx.MultiDiGraph
    assert sorted((u, v, d.get("flags", "")) for u, v, d in H.edges(data=True)) == [
        ("a", "b", ""), ("a", "b", "retain"), ("a", "c", "retain"), ("b", "c", "")]


# ------------------------------------------------------------------ same as the DOT file

@st.composite
def engine_graphs(draw, max_n=12):
    n = draw(st.integers(1, max_n))
    G = nx.DiGraph()
    engines = draw(st.integers(1, 3))
    G.graph["engines"] = engines
    for i in range(n):
        attrs = {}
        e = draw(st.one_of(st.none(), st.integers(0, engines - 1)))
        if e is not None:
            attrs["engine"] = e
            w = draw(st.sampled_from([None, 0, 1, 2, "inf", math.inf]))
            if w is not None:
                attrs["async"] = w
            if draw(st.booleans()):
                attrs["barrier"] = draw(st.sampled_from([True, False, "yes", 1]))
        G.add_node(i, **attrs)
    for a in range(n):
        for b in range(a + 1, n):
            if draw(st.integers(0, 3)) == 0:
                attrs = {}
                k = draw(st.sampled_from([None, "flow", "anti", "output", "ordered", "flow|anti", ["ordered", "flow"]]))
                if k is not None:
                    attrs["kind"] = k
                f = draw(st.sampled_from([None, "wait", "retain", "wait|retain"]))
                if f is not None:
                    attrs["flags"] = f
                G.add_edge(a, b, **attrs)
    return G


@settings(max_examples=120, deadline=None, derandomize=True)
@given(engine_graphs(), st.sampled_from(["all", "flow", "anti|output", "ordered"]))
def test_engine_graph_reduces_as_its_dot_file(tmp_path_factory, G, kinds):
    path = tmp_path_factory.mktemp("dot") / "g.dot"
    write_dot(G, path)
    expected = cli_removed(path, "--kinds", kinds)
    H = depreduce.transitive_reduction(G, kinds=kinds)
    got = {}
    for u, v, d in G.edges(data=True):
        if not H.has_edge(u, v):
            got[(str(u), str(v))] = False
        elif H.edges[u, v] != d:
            assert H.edges[u, v]["flags"] == "retain"
            got[(str(u), str(v))] = True
    assert got == expected
