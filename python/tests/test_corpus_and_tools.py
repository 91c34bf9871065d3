"""Every file of corpus/real against the CLI, and read / equivalent / explain /
window_report."""
import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import depreduce
from conftest import ROOT, cli, cli_removed

# gcc-sched/ is 414 small regions with their own manifest and script, checked
# region by region in tests/corpus_real_test.cpp; the rest are one graph a file.
REAL = sorted(p for p in (ROOT / "corpus" / "real").rglob("*")
              if p.is_file() and p.name != "SOURCES.md" and "gcc-sched" not in p.parts)


def test_corpus_real_is_there():
    assert len(REAL) >= 30


def python_removed(G, H):
    """{(src name, dst name): demoted} from G and its reduction H."""
    out = {}
    if G.is_multigraph():
        for u, v in set(G.edges()):
            parts = list(G[u][v].values())
            kept = list(H[u][v].values()) if H.has_edge(u, v) else []
            if not kept:
                out[(u, v)] = False
            elif kept != parts:
                out[(u, v)] = True
        return out
    for u, v, d in G.edges(data=True):
        if not H.has_edge(u, v):
            out[(u, v)] = False
        elif H.edges[u, v] != d:
            out[(u, v)] = True
    return out


@pytest.mark.parametrize("path", REAL, ids=lambda p: str(p.relative_to(ROOT / "corpus" / "real")))
def test_real_file_same_kept_edges_as_the_cli(path, cli_path):
    code, out, err = cli("reduce", path, "--json", "-q", check=False)
    G = depreduce.read(path)
    if code == 0:
        assert G.number_of_nodes() == json.loads(cli("convert", path, "--to", "json")[1])["nodes"]
    if code == 2 and "cycle" in err:
        with pytest.raises(depreduce.CycleError):
            depreduce.transitive_reduction(G)
        mode = ("--cycles", "condense")
        H = depreduce.transitive_reduction(G, cycles="condense")
    else:
        assert code == 0, err
        mode = ()
        H = depreduce.transitive_reduction(G)
    assert python_removed(G, H) == cli_removed(path, *mode)
    # The arrays: for a plain graph (no model attributes), reduce_edges agrees.
    plain = not any(k in d for _, d in G.nodes(data=True) for k in ("engine", "async", "barrier")) and not any(
        k in d for _, _, d in G.edges(data=True) for k in ("kind", "flags"))
    if plain and not mode:
        names, src, dst = depreduce.read(path, as_arrays=True)
        assert src.dtype == np.uint32
        keep = depreduce.reduce_edges(len(names), src, dst)
        first = {}
        for i, pair in enumerate(zip(src.tolist(), dst.tolist())):
            first.setdefault(pair, i)  # a repeated pair: its first occurrence carries the verdict
        removed = {(names[s], names[d]) for (s, d), i in first.items() if not keep[i] and s != d}
        assert all(not keep[i] for i, pair in enumerate(zip(src.tolist(), dst.tolist())) if first[pair] != i)
        assert removed == set(cli_removed(path))


def test_read_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.dot"
    bad.write_text("digraph {\n a -> b\n b -> \n}\n")
    with pytest.raises(depreduce.InputError) as info:
        depreduce.read(bad)
    assert info.value.file == str(bad) and info.value.line == 4
    assert str(bad) + ":4:" in str(info.value)
    cyc = tmp_path / "cyc.dot"
    cyc.write_text("digraph {\n a -> b\n b -> a\n}\n")
    G = depreduce.read(cyc)
    with pytest.raises(depreduce.CycleError) as info:
        depreduce.transitive_reduction(G)
    assert set(info.value.nodes) == {"a", "b"}
    with pytest.raises(depreduce.InputError) as info:
        depreduce.read(tmp_path / "missing.dot")
    assert info.value.file == str(tmp_path / "missing.dot")


def test_read_keeps_model_attributes_and_defaults(tmp_path):
    f = tmp_path / "e.dot"
    f.write_text('digraph g { graph [engines=2]; node [color=red];\n'
                 ' a [engine=0, reads="sbuf:[0,64)"]; b [engine=1, async=inf, barrier=true];\n'
                 ' a -> b [kind="flow|anti", flags="wait|retain", label=x]; }\n')
    G = depreduce.read(f)
    assert G.graph["engines"] == 2 and G.graph["name"] == "g"
    assert G.nodes["a"] == {"color": "red", "engine": 0, "reads": "sbuf:[0,64)"}
    assert G.nodes["b"] == {"color": "red", "engine": 1, "async": "inf", "barrier": True}
    assert G.edges["a", "b"] == {"label": "x", "kind": "flow|anti", "flags": "wait|retain"}


def test_equivalent():
    G = nx.DiGraph([(1, 2), (2, 3), (1, 3)])
    assert depreduce.equivalent(G, depreduce.transitive_reduction(G))
    H = nx.DiGraph([(1, 2), (2, 3)])
    assert depreduce.equivalent(G, H)
    K = nx.DiGraph([(1, 2), (1, 3)])
    K.add_node(3)
    r = depreduce.equivalent(G, K)
    assert not r and (2, 3, "C", True) in r.differences
    with pytest.raises(depreduce.InputError):
        depreduce.equivalent(G, nx.DiGraph([(1, 2)]))
    # Engines count: on one synchronous engine, program order already orders.
    E = nx.DiGraph()
    E.add_nodes_from([("x", {"engine": 0}), ("y", {"engine": 0})])
    F = E.copy()
    F.add_edge("x", "y")
    assert depreduce.equivalent(E, F)


def test_explain_gives_the_witness_path():
    G = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")])
    assert depreduce.explain(G, "a", "d") == [("a", "b", "explicit-completion"), ("b", "c", "explicit-completion"),
                                              ("c", "d", "explicit-completion")]
    assert depreduce.explain(G, "a", "b") is None
    with pytest.raises(KeyError):
        depreduce.explain(G, "d", "a")


def test_explain_matches_the_cli(tmp_path, cli_path):
    path = ROOT / "corpus" / "real" / "graphviz" / "graphs" / "directed" / "unix.gv"
    G = depreduce.read(path)
    _, out, _ = cli("reduce", path, "--json", "-q")
    for r in json.loads(out)["removed"]:
        hops = depreduce.explain(G, r["src"], r["dst"])
        assert [hops[0][0]] + [h[1] for h in hops] == r["witness"]


TRACE = {"runtime": "tensormap_and_ringbuffer",
         "tasks": [{"task_id": "0"}, {"task_id": "4294967296"}, {"task_id": "4294967297"},
                   {"task_id": "4294967298"}, {"task_id": "4294967299"}],
         "edges": [{"pred": "0", "succ": "4294967296"}, {"pred": "0", "succ": "4294967297"},
                   {"pred": "4294967296", "succ": "4294967298"}, {"pred": "4294967297", "succ": "4294967298"},
                   {"pred": "0", "succ": "4294967299", "flags": ["wait", "retain"]},
                   {"pred": "4294967298", "succ": "4294967299"}]}


@pytest.mark.parametrize("bl,mode", [((64, 128, 256), "global"), ((64,), "same-ring"), ((256, 64), "global")])
def test_window_report_is_the_cli_json(tmp_path, cli_path, bl, mode):
    f = tmp_path / "deps.json"
    f.write_text(json.dumps(TRACE))
    args = ["window-report", f, "--json", "--time-budget-ms", "0", "--mode", mode, "--bl", ",".join(map(str, bl))]
    expected = json.loads(cli(*args)[1])
    assert depreduce.window_report(f, bl=bl, mode=mode, time_budget_ms=0) == expected
    from_dict = depreduce.window_report(TRACE, bl=bl, mode=mode, time_budget_ms=0)
    assert from_dict.pop("file") == "<deps.json>"
    expected.pop("file")
    assert from_dict == expected


def test_window_report_of_a_dag_file_and_timings(cli_path):
    path = ROOT / "corpus" / "real" / "graphviz" / "graphs" / "directed" / "unix.gv"
    expected = json.loads(cli("window-report", path, "--json", "--time-budget-ms", "0")[1])
    assert depreduce.window_report(path, time_budget_ms=0) == expected
    timed = depreduce.window_report(path, bl=128, time_budget_ms=1)
    assert [w["bl"] for w in timed["windows"]] == [128] and timed["windows"][0]["ns_per_task"] > 0


def test_window_report_bad_input(tmp_path):
    with pytest.raises(ValueError):
        depreduce.window_report(TRACE, bl=(100,))
    bad = dict(TRACE, edges=[{"pred": "0", "succ": "7"}])  # a consumer must be a captured task
    with pytest.raises(depreduce.InputError) as info:
        depreduce.window_report(bad)
    assert "7" in str(info.value)
    no_runtime = {k: v for k, v in TRACE.items() if k != "runtime"}
    with pytest.raises(depreduce.InputError) as info:
        depreduce.window_report(no_runtime)
    assert "runtime='NAME'" in str(info.value)  # Python's spelling of the option, beside the CLI's
    assert depreduce.window_report(no_runtime, runtime="tensormap_and_ringbuffer", time_budget_ms=0)["runtime"] \
        == "tensormap_and_ringbuffer"
    with pytest.raises(ValueError):
        depreduce.window_report(TRACE, runtime="ring")
    f = tmp_path / "t.json"
    f.write_text('{"tasks": [{"task_id": "0"}],\n "edges": [\n')
    with pytest.raises(depreduce.InputError) as info:
        depreduce.window_report(f)
    assert info.value.file == str(f) and info.value.line >= 2
