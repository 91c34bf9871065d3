"""The NetworkX half of depreduce: graphs in and out, the work in _core."""
import math
import warnings

from . import _core

_NODE_KEYS = ("engine", "async", "barrier", "reads", "writes")


def _text(value, key):
    """The DOT text of a Python attribute value of a model field."""
    if value is None:
        return ""  # not set, as engine="" in DOT
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value == math.inf:
            return "inf"
        if value.is_integer():
            return str(int(value))
        return repr(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        sep = "," if key in ("reads", "writes") else "|"
        return sep.join(_text(x, key) for x in value)
    if hasattr(value, "name") and isinstance(getattr(value, "name"), str) and key in ("kind", "flags"):
        return value.name  # an enum member named after the kind or flag
    return str(value)


def _names(keys):
    """Node names for messages: str() of the keys where that is one-to-one."""
    names = [str(k) for k in keys]
    if len(set(names)) != len(names):
        names = [repr(k) for k in keys]
        if len(set(names)) != len(names):
            names = ["#%d" % i for i in range(len(keys))]
    return names


_FACTORIES = ("node_dict_factory", "node_attr_dict_factory", "adjlist_outer_dict_factory",
              "adjlist_inner_dict_factory", "edge_attr_dict_factory")


def _plain(G):
    """True for a DiGraph (or subclass) built of plain dicts, as NetworkX's own."""
    return (not G.is_multigraph() and all(getattr(G, f, None) is dict for f in _FACTORIES)
            and type(getattr(G, "_succ", None)) is dict and type(getattr(G, "_pred", None)) is dict
            and type(getattr(G, "_node", None)) is dict)


def _check_graph(G):
    if not hasattr(G, "is_directed") or not hasattr(G, "nodes"):
        raise TypeError("expected a networkx.DiGraph, got %s" % type(G).__name__)
    if not G.is_directed():
        raise TypeError("expected a directed graph (networkx.DiGraph): dependencies need a direction")


class _Spec:
    """A graph for _core: node keys, edge index arrays, model attributes."""

    def __init__(self, G, keys=None, names=None, file="<networkx>"):
        _check_graph(G)
        self.keys = list(G) if keys is None else keys
        index = {k: i for i, k in enumerate(self.keys)}
        self.index = index
        self.multi = G.is_multigraph()
        self.plain = _plain(G)
        spec = _core._Spec()
        spec.names = _names(self.keys) if names is None else names
        if self.plain:
            # The edges straight from G._succ, in G.edges() order, in C.
            self.edges = None
            _core._scan_edges(spec, G._succ, index, _text)
        else:
            if self.multi:
                self.edges = list(G.edges(keys=True, data=True))
            else:
                self.edges = list(G.edges(data=True))
            spec.src = [index[e[0]] for e in self.edges]
            spec.dst = [index[e[1]] for e in self.edges]
        node_attrs = []
        for k, d in G.nodes.items():
            if d:
                i = index[k]
                for key in _NODE_KEYS:
                    if key in d:
                        node_attrs.append((i, key, _text(d[key], key)))
        spec.node_attrs = node_attrs
        if not self.plain:
            edge_attrs = []
            for j, e in enumerate(self.edges):
                d = e[-1]
                if d:
                    if "kind" in d:
                        edge_attrs.append((j, "kind", _text(d["kind"], "kind")))
                    if "flags" in d:
                        edge_attrs.append((j, "flags", _text(d["flags"], "flags")))
            spec.edge_attrs = edge_attrs
        if G.graph.get("engines") is not None:
            spec.engines = _text(G.graph["engines"], "engines")
        spec.file = file
        self.spec = spec

    def cycle_error(self, e):
        """A CycleError naming the keys of the cycle _core found."""
        cycle = [self.keys[i] for i in e.node_indices]
        text = " -> ".join(repr(k) for k in cycle + cycle[:1])
        err = _core.CycleError("cycle: " + text)
        err.nodes = cycle
        err.file, err.line, err.problem = None, 0, "cycle: " + text
        return err


def transitive_reduction(G, *, cycles="error", kinds="all"):
    s = _Spec(G)
    try:
        status, warns = _core._reduce_model(s.spec, kinds, cycles)
    except _core.CycleError as e:
        if not hasattr(e, "node_indices"):
            raise
        raise s.cycle_error(e) from None
    for w in warns:
        warnings.warn(w, stacklevel=3)
    H = G.__class__()
    H.graph.update(G.graph)
    if s.plain:
        # The new graph's dicts filled directly (what H.add_nodes_from and
        # H.add_edges_from would build, without their per-item Python calls).
        H._node.update({n: d.copy() for n, d in G._node.items()})
        H._succ.update({n: {} for n in G._node})
        H._pred.update({n: {} for n in G._node})
        _core._add_kept_edges(G._succ, status, H._succ, H._pred)
        cache = getattr(H, "__networkx_cache__", None)
        if cache:
            cache.clear()
        return H
    H.add_nodes_from(G.nodes(data=True))
    edges = s.edges
    if not s.multi:
        kept = []
        for j, st in enumerate(status):
            if st == 1:
                kept.append(edges[j])
            elif st == 2:
                u, v, d = edges[j]
                d = dict(d)
                d["flags"] = "retain"
                kept.append((u, v, d))
        H.add_edges_from(kept)
        return H
    # A MultiDiGraph: the parts of one pair share the verdict of its first part.
    first = {}
    src, dst = s.spec.src, s.spec.dst
    for j in range(len(edges)):
        first.setdefault((src[j], dst[j]), j)
    for j, (u, v, key, d) in enumerate(edges):
        st = status[first[(src[j], dst[j])]]
        if st == 1:
            H.add_edge(u, v, key, **d)
        elif st == 2:
            flags = _text(d.get("flags", "wait"), "flags").lower().replace(",", "|").split("|")
            if "retain" in flags:
                d = dict(d)
                d["flags"] = "retain"
                H.add_edge(u, v, key, **d)
            # a WAIT-only part of a demoted pair disappears
    return H


class Equivalence:
    """The answer of depreduce.equivalent(): truthy iff equivalent."""

    def __init__(self, equivalent, differences):
        self.equivalent = equivalent
        self.differences = differences

    def __bool__(self):
        return self.equivalent

    def __repr__(self):
        return "Equivalence(equivalent=%r, differences=%r)" % (self.equivalent, self.differences)


def equivalent(G, H, *, kinds="all"):
    _check_graph(G)
    _check_graph(H)
    for a, b, which in ((G, H, "first"), (H, G, "second")):
        for k in a:
            if k not in b:
                err = _core.InputError("node %r of the %s graph is not in the other" % (k, which))
                err.file, err.line, err.problem = None, 0, str(err)
                raise err
    keys = list(G)
    names = [str(i) for i in range(len(keys))]
    sg = _Spec(G, keys=keys, names=names)
    sh = _Spec(H, keys=keys, names=names)
    try:
        same, diffs = _core._equivalent(sg.spec, sh.spec, kinds)
    except _core.CycleError as e:
        if not hasattr(e, "node_indices"):
            raise
        raise (sg if e.file == sg.spec.file else sg).cycle_error(e) from None
    return Equivalence(same, [(keys[u], keys[v], rel, first) for u, v, rel, first in diffs])


def explain(G, u, v):
    _check_graph(G)
    if not G.has_edge(u, v):
        raise KeyError("no edge %r -> %r in the graph" % (u, v))
    s = _Spec(G)
    try:
        hops = _core._explain(s.spec, s.index[u], s.index[v])
    except _core.CycleError as e:
        if not hasattr(e, "node_indices"):
            raise
        raise s.cycle_error(e) from None
    if hops is None:
        return None
    return [(s.keys[a], s.keys[b], kind) for a, b, kind in hops]


def graph_from_read(data):
    import networkx as nx
    pairs = set()
    multi = False
    for s, d, _ in data["edges"]:
        if (s, d) in pairs:
            multi = True
            break
        pairs.add((s, d))
    G = nx.MultiDiGraph() if multi else nx.DiGraph()
    G.graph.update(data["graph"])
    if data["name"]:
        G.graph["name"] = data["name"]
    names = [name for name, _ in data["nodes"]]
    G.add_nodes_from(data["nodes"])
    G.add_edges_from((names[s], names[d], a) for s, d, a in data["edges"])
    return G
