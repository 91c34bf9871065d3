"""depreduce from Python: exact removal of redundant dependency edges.

    import depreduce
    H = depreduce.transitive_reduction(G)        # a networkx.DiGraph, attributes kept
    keep = depreduce.reduce_edges(n, src, dst)   # integer arrays -> boolean keep-mask

The functions (docs/python.md):
  reduce_edges(n, src, dst)      the exact reduction of edge arrays over ids 0..n-1
  transitive_reduction(G, ...)   NetworkX in, NetworkX out (node/edge/graph attributes kept)
  read(path, ...)                any input format to a NetworkX graph or edge arrays
  equivalent(G, H, ...)          same completed-before / issued-before relations?
  explain(G, u, v)               the witness path that makes the edge u -> v redundant
  window_report(capture, ...)    `depreduce window-report --json` as a dict

Errors in input raise InputError (a ValueError carrying .file, .line and
.problem); cycles raise CycleError (an InputError naming the nodes of one).
NetworkX is needed only by the functions that take or return graphs.
"""
import json as _json

from ._core import CycleError, InputError
from . import _core

__all__ = [
    "CycleError", "InputError", "reduce_edges", "transitive_reduction", "read", "equivalent",
    "explain", "window_report",
]

def reduce_edges(n, src, dst):
    """reduce_edges(n, src, dst) -> keep-mask

    The exact transitive reduction of the graph with edges src[i] -> dst[i]
    over the nodes 0..n-1 (plain dependencies: no engines, no kinds).

    src, dst: any buffer of integers (a NumPy array of any integer dtype,
      array.array) or a sequence of ints, of the same length m. Contiguous
      32-bit unsigned or 64-bit buffers are read in place; others are converted.
      Ids may come in any order (ids already in topological order are used as
      the program order, not renumbered).
    Returns a boolean array of length m (a NumPy array when NumPy is present,
      else a list): True where the edge stays, False where another path implies
      it. A self-loop is kept; a pair listed twice is one dependency whose first
      occurrence carries the verdict (the later ones are False).
    Raises IndexError (.index = the edge) for an id < 0 or >= n, ValueError for
      src and dst of different lengths or n < 0, TypeError for non-integer ids,
      CycleError (a ValueError; .index = an edge on the cycle) naming the nodes
      of a cycle. The GIL is released while it reduces; concurrent calls are safe.
    Cost: O(n + m) time and memory with SyncState lanes (SPEC section 4).
    """
    return _core.reduce_edges(n, src, dst)


def transitive_reduction(G, *, cycles="error", kinds="all"):
    """The exact reduction of a networkx.DiGraph, attributes kept.

    Returns a new graph of G's class with every node of G and its attributes,
    G's graph attributes, and the edges the reduction keeps with their
    attributes (copied, as G.copy() copies them). On a plain DAG the edges
    equal networkx.transitive_reduction(G)'s. Node keys may be any hashable.

    Attributes named as in the DOT reader carry the model's meaning
    (docs/formats.md): node ``engine`` (int >= 0 or "none"), ``async`` (int,
    or "inf"/math.inf), ``barrier`` (bool), ``reads``/``writes`` (byte
    ranges "space:[lo,hi),..."); edge ``kind`` ("flow|anti", or a list of
    names) and ``flags`` ("wait", "retain", "wait|retain" or a list); graph
    ``engines``. An edge with flags wait|retain that is redundant is kept
    with flags "retain" (it orders nothing any more).

    cycles: "error" (default: CycleError, a ValueError naming the nodes of one
      cycle, in .nodes) or "condense" (reduce across strongly connected
      components, as `depreduce reduce --cycles condense`).
    kinds: "all" or a "|"-list of flow, anti, output, ordered: only those
      edges may be removed (`--kinds`).
    Raises InputError for a malformed model attribute (naming node and value).
    """
    from ._networkx import transitive_reduction as impl
    return impl(G, cycles=cycles, kinds=kinds)


def read(path, *, format="auto", as_arrays=False):
    """Reads a graph file in any input format (DOT, STG, WfCommons JSON, DAX).

    Returns a networkx.DiGraph (a MultiDiGraph when the file lists a pair
    twice) whose nodes are the file's names with their attributes (the model
    fields as the DOT attributes engine, async, barrier, reads, writes; edge
    kind and flags), or with as_arrays=True a tuple (names, src, dst): node
    names in input order and the edges as written, as index arrays (NumPy
    uint32 when NumPy is present, else array.array('I')), ready for reduce_edges(len(names), src, dst).
    Raises InputError with .file and .line for bad input.
    """
    if as_arrays:
        names, src, dst = _core._read_arrays(str(path), format)
        return names, src, dst
    data = _core._read(str(path), format)
    from ._networkx import graph_from_read
    return graph_from_read(data)


def equivalent(G, H, *, kinds="all"):
    """Do G and H (NetworkX graphs over the same node keys) order the same?

    True iff both have the same completed-before and issued-before relations
    (SPEC section 3) on every ordered pair of nodes, implicit engine order
    included. Returns an Equivalence: truthy when equivalent, with
    .differences, a list of (u, v, relation, in_first) - relation "C" or "S",
    in_first True when G has it and H lacks it.
    """
    from ._networkx import equivalent as impl
    return impl(G, H, kinds=kinds)


def explain(G, u, v):
    """The witness that makes the edge u -> v of G redundant, or None.

    Returns a list of hops (from, to, kind) from u to v not using the edge,
    kind one of "explicit-completion", "explicit-issue", "engine-issue",
    "engine-completion"; None when the edge is needed. Raises KeyError when
    G has no edge u -> v.
    """
    from ._networkx import explain as impl
    return impl(G, u, v)


def window_report(capture, bl=(64, 128, 256), *, mode="global", slots_per_ring=16384, seq_width=64,
                  time_budget_ms=200.0, runtime=None):
    """`depreduce window-report --json` of a runtime capture, as a dict.

    capture: a path (a deps.json capture, or any DAG file as one ring) or an
      already loaded deps.json dict. bl: window sizes among 64, 128, 256.
    runtime: decode task ids as this runtime's ("tensormap_and_ringbuffer" or
      "host_build_graph"), whatever the capture's "runtime" says; needed when
      it has none (the CLI's --runtime).
    The dict is the one the CLI prints (docs/window.md); the ns_per_task
    fields are timings and differ from run to run (time_budget_ms=0: None).
    Raises InputError with .file and .line for a bad capture.
    """
    if isinstance(bl, int):
        bl = (bl,)
    if isinstance(capture, dict):
        text, name, path = _json.dumps(capture), "<deps.json>", None
    else:
        text, name, path = "", str(capture), str(capture)
    if runtime not in (None, "tensormap_and_ringbuffer", "host_build_graph"):
        raise ValueError("runtime=%r: expected 'tensormap_and_ringbuffer' or 'host_build_graph'" % (runtime,))
    out, _warnings = _core._window_report(path, text, name, list(bl), mode, slots_per_ring, seq_width,
                                          float(time_budget_ms), runtime or "")
    return _json.loads(out)
