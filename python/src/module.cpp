//===- python/src/module.cpp - The depreduce Python module ----------------===//
///
/// \file
/// `depreduce._core`, the compiled half of `import depreduce` (python/depreduce/
/// holds the Python half: the NetworkX functions). pybind11 over the library:
///  - reduce_edges(n, src, dst): the exact reduction of integer edge arrays
///    (array_reduce.hpp), reading the caller's buffers without a copy where
///    their layout allows, the GIL released while it reduces;
///  - _reduce_model / _equivalent / _explain: a graph handed over as node
///    names, edge arrays and the DOT model attributes (model_attrs.hpp),
///    built into an InputGraph as the DOT reader would build it;
///  - _read: any input format, as plain Python values;
///  - _window_report_*: `depreduce window-report --json` (cli/window_report.hpp).
/// Bad input raises; nothing is printed.
//===----------------------------------------------------------------------===//
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "array_reduce.hpp"
#include "depreduce/condense.hpp"
#include "depreduce/equivalence.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/deps_json.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/kinds.hpp"
#include "depreduce/transitive_reduction.hpp"
#include "depreduce/window_reducer.hpp"
#include "model_attrs.hpp"
#include "window_report.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace depreduce::python {
namespace {

// ------------------------------------------------------------------ errors

PyObject* g_input_error = nullptr; // depreduce.InputError(ValueError)
PyObject* g_cycle_error = nullptr; // depreduce.CycleError(InputError)

/// A cycle among the nodes of a graph handed over by index, for Python to name.
struct CycleIndices {
  std::string message;
  std::vector<std::uint32_t> nodes;
  std::size_t edge = 0;
};

[[noreturn]] void raise_with(PyObject* type, const std::string& message,
                             std::initializer_list<std::pair<const char*, py::object>> attrs) {
  py::object exc = py::reinterpret_borrow<py::object>(type)(message);
  for (const auto& [k, v] : attrs) exc.attr(k) = v;
  PyErr_SetObject(type, exc.ptr());
  throw py::error_already_set();
}

[[noreturn]] void raise_input_error(const InputError& e) {
  raise_with(e.is_cycle() ? g_cycle_error : g_input_error, e.what(),
             {{"file", py::str(e.file())}, {"line", py::int_(e.line())}, {"problem", py::str(e.problem())}});
}

// ------------------------------------------------------------------ id arrays

/// One array of node ids: a view of the caller's buffer where its layout is
/// 32-bit unsigned or 64-bit and contiguous, else a converted copy.
struct IdArray {
  std::variant<const std::uint32_t*, const std::uint64_t*, const std::int64_t*> data;
  std::size_t size = 0;
  std::vector<std::int64_t> copy;  ///< Owned ids when converted (signed).
  std::vector<std::uint64_t> ucopy; ///< Owned ids when converted from unsigned 64-bit.
  std::optional<py::buffer_info> info; ///< Keeps the caller's buffer alive and locked.
};

char format_code(const std::string& f) {
  std::string_view s = f;
  if (!s.empty() && (s[0] == '@' || s[0] == '=' || s[0] == '<')) s.remove_prefix(1);
  return s.size() == 1 ? s[0] : '\0';
}

template <class From, class To>
void gather(const py::buffer_info& b, std::vector<To>& out) {
  const auto* base = static_cast<const char*>(b.ptr);
  const std::size_t n = static_cast<std::size_t>(b.shape[0]);
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, base + static_cast<std::ptrdiff_t>(i) * b.strides[0], sizeof(From));
    out[i] = static_cast<To>(v);
  }
}

IdArray id_array(const py::handle& obj, const char* which) {
  IdArray a;
  if (PyObject_CheckBuffer(obj.ptr())) {
    py::buffer_info b = py::reinterpret_borrow<py::buffer>(obj).request();
    if (b.ndim != 1)
      throw py::value_error(std::string(which) + ": expected a one-dimensional array, got " + std::to_string(b.ndim) +
                            " dimensions");
    const char c = format_code(b.format);
    const bool contiguous = b.shape[0] <= 1 || b.strides[0] == b.itemsize;
    const bool is_unsigned = c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q' || c == 'N';
    const bool is_signed = c == 'b' || c == 'h' || c == 'i' || c == 'l' || c == 'q' || c == 'n';
    if (!is_unsigned && !is_signed)
      throw py::type_error(std::string(which) + ": expected integer node ids, got a buffer of format '" + b.format + "'");
    a.size = static_cast<std::size_t>(b.shape[0]);
    const auto size = b.itemsize;
    if (contiguous && is_unsigned && size == 4) a.data = static_cast<const std::uint32_t*>(b.ptr);
    else if (contiguous && is_unsigned && size == 8) a.data = static_cast<const std::uint64_t*>(b.ptr);
    else if (contiguous && is_signed && size == 8) a.data = static_cast<const std::int64_t*>(b.ptr);
    else if (is_unsigned && size == 8) gather<std::uint64_t>(b, a.ucopy), a.data = a.ucopy.data();
    else {
      if (is_unsigned) {
        if (size == 1) gather<std::uint8_t>(b, a.copy);
        else if (size == 2) gather<std::uint16_t>(b, a.copy);
        else gather<std::uint32_t>(b, a.copy);
      } else {
        if (size == 1) gather<std::int8_t>(b, a.copy);
        else if (size == 2) gather<std::int16_t>(b, a.copy);
        else if (size == 4) gather<std::int32_t>(b, a.copy);
        else gather<std::int64_t>(b, a.copy);
      }
      a.data = a.copy.data();
    }
    a.info.emplace(std::move(b));
    return a;
  }
  // Any other sequence (a list, a tuple, a range...): Python ints.
  py::object seq = py::reinterpret_steal<py::object>(PySequence_Fast(obj.ptr(), ""));
  if (!seq) {
    PyErr_Clear();
    throw py::type_error(std::string(which) + ": expected a buffer or a sequence of integers, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  a.copy.resize(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    if (!PyLong_Check(item) || PyBool_Check(item)) {
      py::object e = py::reinterpret_borrow<py::object>(PyExc_TypeError)(
          std::string(which) + "[" + std::to_string(i) + "]: expected an integer node id, got " +
          std::string(py::str(py::type::of(py::handle(item)).attr("__name__"))));
      e.attr("index") = py::int_(i);
      PyErr_SetObject(PyExc_TypeError, e.ptr());
      throw py::error_already_set();
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow) v = overflow > 0 ? std::numeric_limits<long long>::max() : std::numeric_limits<long long>::min();
    a.copy[static_cast<std::size_t>(i)] = v;
  }
  a.size = a.copy.size();
  a.data = a.copy.data();
  return a;
}

/// Both arrays with one element type (a copy of the two as int64 when they differ).
void unify(IdArray& s, IdArray& d) {
  if (s.data.index() == d.data.index()) return;
  for (IdArray* a : {&s, &d}) {
    if (std::holds_alternative<const std::int64_t*>(a->data)) continue;
    std::vector<std::int64_t> c(a->size);
    std::visit(
        [&](auto* p) {
          for (std::size_t i = 0; i < a->size; ++i) {
            const std::uint64_t v = p[i];
            c[i] = v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                       ? std::numeric_limits<std::int64_t>::max()
                       : static_cast<std::int64_t>(v);
          }
        },
        a->data);
    a->copy = std::move(c);
    a->data = a->copy.data();
  }
}

[[noreturn]] void raise_status(const Status& s) {
  switch (s.code()) {
  case ErrorCode::NodeOutOfRange:
    raise_with(PyExc_IndexError, s.message(), {{"index", py::int_(s.index())}});
  case ErrorCode::Cycle:
    raise_with(g_cycle_error, s.message(),
               {{"index", py::int_(s.index())}, {"file", py::none()}, {"line", py::int_(0)},
                {"problem", py::str(s.message())}});
  default:
    raise_with(PyExc_ValueError, s.message(), {{"index", py::int_(s.index())}});
  }
}

py::module_* g_numpy = nullptr;

py::object reduce_edges(py::object n_obj, py::object src_obj, py::object dst_obj) {
  const long long n = py::cast<long long>(n_obj);
  if (n < 0) throw py::value_error("n = " + std::to_string(n) + ": the node count cannot be negative");
  IdArray s = id_array(src_obj, "src"), d = id_array(dst_obj, "dst");
  if (s.size != d.size)
    raise_with(PyExc_ValueError,
               "src has " + std::to_string(s.size) + " ids and dst " + std::to_string(d.size) + ": the lengths differ",
               {{"index", py::int_(std::min(s.size, d.size))}});
  unify(s, d);
  const std::size_t m = s.size;
  py::object out;
  std::uint8_t* keep = nullptr;
  std::vector<std::uint8_t> plain;
  if (g_numpy) {
    out = g_numpy->attr("empty")(m, "dtype"_a = "bool");
    keep = static_cast<std::uint8_t*>(py::reinterpret_borrow<py::buffer>(out).request(true).ptr);
  } else {
    plain.resize(m);
    keep = plain.data();
  }
  Status st;
  {
    py::gil_scoped_release release;
    st = std::visit(
        [&](auto* sp) {
          using P = std::remove_cv_t<std::remove_pointer_t<decltype(sp)>>;
          return reduce_edge_arrays<P>(static_cast<std::uint64_t>(n), sp, std::get<const P*>(d.data), m, keep);
        },
        s.data);
  }
  if (!st.ok()) raise_status(st);
  if (!g_numpy) {
    py::list l(m);
    for (std::size_t i = 0; i < m; ++i) l[i] = py::bool_(plain[i] != 0);
    out = l;
  }
  return out;
}

// ------------------------------------------------------------------ graphs from Python

/// A graph as the Python half hands it over: node names (for messages and
/// equivalence), edges as index arrays, the model attributes as text.
struct Spec {
  std::vector<std::string> names;
  std::vector<std::uint32_t> src, dst;
  std::vector<std::tuple<std::uint32_t, std::string, std::string>> node_attrs; ///< (node, key, value)
  std::vector<std::tuple<std::uint32_t, std::string, std::string>> edge_attrs; ///< (edge, key, value)
  std::optional<std::string> engines;
  std::string file;
};

/// Fills \p s's edges from a NetworkX DiGraph's successor dict \p succ
/// (`G._succ`: node -> {neighbour: attribute dict}), in its iteration order,
/// ids from \p index (node -> position); the kind= and flags= values as
/// \p text(value, key) gives them. Returns the edge count. One pass in C, no
/// Python object per edge (the NetworkX path's cost was these loops).
std::size_t scan_edges(Spec& s, const py::dict& succ, const py::dict& index, const py::object& text) {
  s.src.clear();
  s.dst.clear();
  s.edge_attrs.clear();
  PyObject* kind = PyUnicode_InternFromString("kind");
  PyObject* flags = PyUnicode_InternFromString("flags");
  py::object hold_kind = py::reinterpret_steal<py::object>(kind), hold_flags = py::reinterpret_steal<py::object>(flags);
  auto id_of = [&](PyObject* key) {
    PyObject* i = PyDict_GetItemWithError(index.ptr(), key);
    if (!i) {
      if (PyErr_Occurred()) throw py::error_already_set();
      throw py::key_error("a neighbour is not a node of the graph");
    }
    return static_cast<std::uint32_t>(PyLong_AsUnsignedLong(i));
  };
  Py_ssize_t pos = 0;
  PyObject *u, *nbrs;
  while (PyDict_Next(succ.ptr(), &pos, &u, &nbrs)) {
    if (!PyDict_Check(nbrs)) throw py::type_error("G._succ: expected dicts of neighbours");
    const std::uint32_t iu = id_of(u);
    Py_ssize_t q = 0;
    PyObject *v, *d;
    while (PyDict_Next(nbrs, &q, &v, &d)) {
      const auto j = static_cast<std::uint32_t>(s.src.size());
      s.src.push_back(iu);
      s.dst.push_back(id_of(v));
      if (PyDict_Check(d) && PyDict_GET_SIZE(d) != 0) {
        for (PyObject* key : {kind, flags}) {
          PyObject* val = PyDict_GetItemWithError(d, key);
          if (val) {
            s.edge_attrs.emplace_back(j, py::cast<std::string>(py::handle(key)),
                                      py::cast<std::string>(text(py::handle(val), py::handle(key))));
          } else if (PyErr_Occurred()) {
            throw py::error_already_set();
          }
        }
      }
    }
  }
  return s.src.size();
}

/// Fills NetworkX successor and predecessor dicts \p out_succ / \p out_pred
/// (of a new graph whose nodes are there already) with the edges of \p succ
/// whose \p status (scan_edges() order) is not 0, each with a copy of its
/// attribute dict; status 2 (kept as RETAIN only) sets flags="retain".
void add_kept_edges(const py::dict& succ, const py::bytearray& status_obj, const py::dict& out_succ,
                    const py::dict& out_pred) {
  const char* status = PyByteArray_AsString(status_obj.ptr());
  const auto m = static_cast<std::size_t>(PyByteArray_Size(status_obj.ptr()));
  std::size_t j = 0;
  Py_ssize_t pos = 0;
  PyObject *u, *nbrs;
  while (PyDict_Next(succ.ptr(), &pos, &u, &nbrs)) {
    PyObject* su = PyDict_GetItemWithError(out_succ.ptr(), u);
    if (!su) throw py::key_error("node missing in the new graph");
    Py_ssize_t q = 0;
    PyObject *v, *d;
    while (PyDict_Next(nbrs, &q, &v, &d)) {
      if (j >= m) throw py::value_error("the graph changed while it was reduced");
      const char st = status[j++];
      if (st == 0) continue;
      py::object copy = py::reinterpret_steal<py::object>(PyDict_Copy(d));
      if (!copy) throw py::error_already_set();
      if (st == 2) copy["flags"] = "retain";
      PyObject* pv = PyDict_GetItemWithError(out_pred.ptr(), v);
      if (!pv) throw py::key_error("node missing in the new graph");
      if (PyDict_SetItem(su, v, copy.ptr()) != 0 || PyDict_SetItem(pv, u, copy.ptr()) != 0) throw py::error_already_set();
    }
  }
  if (j != m) throw py::value_error("the graph changed while it was reduced");
}

InputGraph build_input(const Spec& s) {
  InputGraph g;
  g.file = s.file;
  const std::size_t n = s.names.size();
  if (s.src.size() != s.dst.size()) throw py::value_error("src and dst differ in length");
  g.nodes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    g.nodes[i].name = s.names[i];
    g.nodes[i].input_index = static_cast<std::uint32_t>(i);
  }
  for (const auto& [i, k, v] : s.node_attrs) {
    if (i >= n) throw py::index_error("node attribute of node " + std::to_string(i));
    set_node_model_attr(g.nodes[i], k, v, s.file);
  }
  g.edges.resize(s.src.size());
  for (std::size_t j = 0; j < s.src.size(); ++j) {
    if (s.src[j] >= n || s.dst[j] >= n) throw py::index_error("edge " + std::to_string(j) + ": node out of range");
    g.edges[j].src = s.src[j];
    g.edges[j].dst = s.dst[j];
    g.edges[j].input_index = static_cast<std::uint32_t>(j);
  }
  for (const auto& [j, k, v] : s.edge_attrs) {
    if (j >= g.edges.size()) throw py::index_error("edge attribute of edge " + std::to_string(j));
    const Edge& e = g.edges[j];
    set_edge_model_attr(g.edges[j], k, v, "edge '" + s.names[e.src] + "' -> '" + s.names[e.dst] + "'", s.file);
  }
  if (s.engines) {
    g.num_engines = parse_engines_attr(*s.engines, s.file);
  } else {
    const bool any = std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node& x) { return x.engine != kNoEngine; });
    g.num_engines = any ? 8 : 0; // the DOT reader's default (walrus numDataPathEngines)
  }
  return g;
}

/// The cycle make_program_order() found, as node indices of \p s (found again
/// over the arrays, so Python can name the nodes by their keys).
[[noreturn]] void raise_cycle(const Spec& s, const InputError& e) {
  std::size_t edge = 0;
  const std::vector<std::uint32_t> cycle =
      find_cycle(static_cast<std::uint32_t>(s.names.size()), s.src.data(), s.dst.data(), s.src.size(), &edge);
  py::list nodes;
  for (std::uint32_t v : cycle) nodes.append(v);
  raise_with(g_cycle_error, e.what(),
             {{"file", py::str(e.file())}, {"line", py::int_(e.line())}, {"problem", py::str(e.problem())},
              {"node_indices", nodes}, {"index", py::int_(edge)}});
}

KindFilter parse_filter(const std::string& text) {
  if (text == "all") return KindFilter{};
  auto kinds = parse_kinds(text);
  if (!kinds || kinds->empty())
    throw py::value_error("kinds=" + text + ": expected 'all' or a '|' or ',' list of flow, anti, output, ordered");
  return KindFilter{*kinds, false};
}

/// Per input edge: 0 removed, 1 kept, 2 kept as RETAIN only (demoted); and
/// the self-loop warnings.
py::tuple reduce_model(const Spec& s, const std::string& kinds, const std::string& cycles) {
  ReduceOptions o;
  o.filter = parse_filter(kinds);
  if (cycles == "error") o.cycles = CycleMode::Error;
  else if (cycles == "condense") o.cycles = CycleMode::Condense;
  else throw py::value_error("cycles=" + cycles + ": expected 'error' or 'condense'");
  InputGraph in = build_input(s);
  const std::size_t m = in.edges.size();
  std::vector<std::string> warnings;
  InputReduction r;
  try {
    py::gil_scoped_release release;
    r = reduce_input(std::move(in), o, nullptr, &warnings);
  } catch (const InputError& e) {
    if (e.is_cycle()) raise_cycle(s, e);
    raise_input_error(e);
  }
  py::bytearray status_obj(std::string(m, '\1'));
  char* status = PyByteArray_AsString(status_obj.ptr());
  for (const RemovedEdge& x : r.reduction.removed) {
    const std::uint32_t i = r.graph.edges[x.edge].input_index;
    status[i] = x.demoted_to_retain ? 2 : 0;
  }
  return py::make_tuple(status_obj, warnings);
}

Graph program_order(const Spec& s) {
  try {
    return make_program_order(build_input(s));
  } catch (const InputError& e) {
    if (e.is_cycle()) raise_cycle(s, e);
    raise_input_error(e);
  }
}

/// (equivalent, [(src index, dst index, "C" or "S", in_first)]) with the
/// indices of the nodes in the graph that has the relation.
py::tuple equivalent_model(const Spec& a, const Spec& b, const std::string& kinds) {
  EquivalenceOptions o;
  o.filter = parse_filter(kinds);
  const Graph ga = program_order(a), gb = program_order(b);
  Equivalence eq;
  try {
    py::gil_scoped_release release;
    eq = equivalent(ga, gb, o);
  } catch (const InputError& e) {
    raise_input_error(e);
  }
  py::list diffs;
  for (const RelationDifference& d : eq.differences) {
    const Graph& g = d.in_first ? ga : gb;
    diffs.append(py::make_tuple(g.nodes[d.src].input_index, g.nodes[d.dst].input_index,
                                d.relation == Relation::CompletedBefore ? "C" : "S", d.in_first));
  }
  return py::make_tuple(eq.equivalent, diffs);
}

const char* hop_name(HopKind k) {
  switch (k) {
  case HopKind::ExplicitCompletion: return "explicit-completion";
  case HopKind::ExplicitIssue: return "explicit-issue";
  case HopKind::EngineIssue: return "engine-issue";
  case HopKind::EngineCompletion: return "engine-completion";
  }
  return "?";
}

/// The witness of the edge u -> v (indices): [(from, to, hop kind)], or None
/// when the edge is needed.
py::object explain_model(const Spec& s, std::uint32_t u, std::uint32_t v) {
  const Graph g = program_order(s);
  std::vector<NodeId> pos(g.nodes.size());
  for (NodeId p = 0; p < g.nodes.size(); ++p) pos[g.nodes[p].input_index] = p;
  if (u >= pos.size() || v >= pos.size()) throw py::index_error("node index out of range");
  const std::optional<Witness> w = find_witness(g, pos[u], pos[v]);
  if (!w) return py::none();
  py::list hops;
  for (const Hop& h : w->hops)
    hops.append(py::make_tuple(g.nodes[h.from].input_index, g.nodes[h.to].input_index, hop_name(h.kind)));
  return hops;
}

// ------------------------------------------------------------------ files

std::string attr_text_of(const Node& n, const char* key) {
  if (!std::strcmp(key, "reads")) return formats::format_byte_ranges(n.reads);
  return formats::format_byte_ranges(n.writes);
}

/// The file as read (nodes in input order, edges as written), model fields
/// back as the DOT attributes they came from; top-level node/edge defaults
/// applied to every node/edge (NetworkX has no defaults).
py::dict read_file(const std::string& path, const std::string& format) {
  InputGraph g;
  try {
    py::gil_scoped_release release;
    g = formats::read_graph(path, formats::parse_format(format));
  } catch (const InputError& e) {
    raise_input_error(e);
  }
  py::dict out;
  out["file"] = g.file;
  out["name"] = g.name;
  out["strict"] = g.strict;
  py::dict gattrs;
  for (const auto& [k, v] : g.graph_attrs) gattrs[py::str(k)] = v;
  if (g.num_engines != 0 && std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node& x) { return x.engine != kNoEngine; }))
    gattrs["engines"] = g.num_engines;
  out["graph"] = gattrs;
  py::list nodes;
  for (const Node& n : g.nodes) {
    py::dict a;
    for (const auto& [k, v] : g.node_defaults) a[py::str(k)] = v;
    for (const auto& [k, v] : n.attrs) a[py::str(k)] = v;
    if (n.engine != kNoEngine) a["engine"] = n.engine;
    if (n.async_window == kAsyncInfinite) a["async"] = "inf";
    else if (n.async_window != 0) a["async"] = n.async_window;
    if (n.barrier) a["barrier"] = true;
    if (!n.reads.empty()) a["reads"] = attr_text_of(n, "reads");
    if (!n.writes.empty()) a["writes"] = attr_text_of(n, "writes");
    nodes.append(py::make_tuple(n.name, a));
  }
  out["nodes"] = nodes;
  py::list edges;
  for (const Edge& e : g.edges) {
    py::dict a;
    for (const auto& [k, v] : g.edge_defaults) a[py::str(k)] = v;
    for (const auto& [k, v] : e.attrs) a[py::str(k)] = v;
    if (!e.kinds.empty()) a["kind"] = to_string(e.kinds);
    if (e.flags != FlagSet::wait()) a["flags"] = to_string(e.flags);
    edges.append(py::make_tuple(e.src, e.dst, a));
  }
  out["edges"] = edges;
  return out;
}

/// (names in input order, src, dst): the edges as written, as index arrays
/// (NumPy uint32 where NumPy is present, else array.array('I')).
py::tuple read_arrays(const std::string& path, const std::string& format) {
  InputGraph g;
  try {
    py::gil_scoped_release release;
    g = formats::read_graph(path, formats::parse_format(format));
  } catch (const InputError& e) {
    raise_input_error(e);
  }
  py::list names(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) names[i] = py::str(g.nodes[i].name);
  const std::size_t m = g.edges.size();
  auto make = [&](auto field) {
    py::object a = g_numpy ? g_numpy->attr("empty")(m, "dtype"_a = "uint32")
                           : py::module_::import("array").attr("array")("I", py::bytes(std::string(m * 4, '\0')));
    auto* p = static_cast<std::uint32_t*>(py::reinterpret_borrow<py::buffer>(a).request(true).ptr);
    for (std::size_t j = 0; j < m; ++j) p[j] = field(g.edges[j]);
    return a;
  };
  py::object src = make([](const Edge& e) { return e.src; });
  py::object dst = make([](const Edge& e) { return e.dst; });
  return py::make_tuple(names, src, dst);
}

std::vector<unsigned> check_bls(const std::vector<unsigned>& bls) {
  if (bls.empty()) throw py::value_error("bl: no window size given (64, 128 and/or 256)");
  std::vector<unsigned> out = bls;
  for (unsigned b : out)
    if (b != 64 && b != 128 && b != 256)
      throw py::value_error("bl: " + std::to_string(b) + " is not a window size (64, 128 or 256)");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// `window-report --json` of a trace read from \p path, or parsed from the
/// deps.json \p text when \p path is None.
py::tuple window_report(std::optional<std::string> path, const std::string& text, const std::string& name,
                        const std::vector<unsigned>& bls_in, const std::string& mode, std::uint32_t slots_per_ring,
                        unsigned seq_width, double time_budget_ms, const std::string& runtime) {
  const std::vector<unsigned> bls = check_bls(bls_in);
  const auto wmode = parse_window_mode(mode);
  if (!wmode) throw py::value_error("mode=" + mode + ": expected 'global' or 'same-ring'");
  if (seq_width != 32 && seq_width != 64) throw py::value_error("seq_width: expected 32 or 64");
  if (slots_per_ring < 1 || slots_per_ring > (1u << 24)) throw py::value_error("slots_per_ring: expected 1..2^24");
  if (!(time_budget_ms >= 0 && time_budget_ms <= 60000)) throw py::value_error("time_budget_ms: expected 0..60000");
  std::string json;
  std::vector<std::string> warnings;
  try {
    py::gil_scoped_release release;
    const formats::DepsJsonOptions capture_options{slots_per_ring, formats::parse_capture_runtime(runtime)};
    const formats::WindowTrace trace = path ? formats::read_window_trace(*path, capture_options)
                                            : formats::read_deps_json(text, name, capture_options);
    WindowOptions options = trace.geometry;
    options.mode = *wmode;
    options.seq_width = seq_width;
    const cli::WindowReport report = cli::compute_window_report(trace, options, bls, time_budget_ms);
    json = cli::window_report_json(report, trace, options, mode);
    warnings = trace.warnings;
  } catch (const InputError& e) {
    raise_input_error(e);
  }
  return py::make_tuple(json, warnings);
}

} // namespace
} // namespace depreduce::python

PYBIND11_MODULE(_core, m) {
  using namespace depreduce::python;
  using namespace pybind11::literals;
  m.doc() = "depreduce's compiled core; use the `depreduce` package.";
  // Module-lifetime objects are held by the module (and one leaked
  // reference each here): no static destructor runs after the interpreter.
  g_input_error = PyErr_NewException("depreduce.InputError", PyExc_ValueError, nullptr);
  m.attr("InputError") = py::reinterpret_borrow<py::object>(g_input_error);
  g_cycle_error = PyErr_NewException("depreduce.CycleError", g_input_error, nullptr);
  m.attr("CycleError") = py::reinterpret_borrow<py::object>(g_cycle_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const depreduce::InputError& e) {
      try {
        raise_input_error(e);
      } catch (py::error_already_set& set) {
        set.restore();
      }
    }
  });
  try {
    g_numpy = new py::module_(py::module_::import("numpy")); // leaked: see above
  } catch (py::error_already_set&) {
    g_numpy = nullptr; // masks are lists then
  }

  m.def("reduce_edges", &reduce_edges, "n"_a, "src"_a, "dst"_a);
  py::class_<Spec>(m, "_Spec")
      .def(py::init<>())
      .def_readwrite("names", &Spec::names)
      .def_readwrite("src", &Spec::src)
      .def_readwrite("dst", &Spec::dst)
      .def_readwrite("node_attrs", &Spec::node_attrs)
      .def_readwrite("edge_attrs", &Spec::edge_attrs)
      .def_readwrite("engines", &Spec::engines)
      .def_readwrite("file", &Spec::file);
  m.def("_reduce_model", &reduce_model, "spec"_a, "kinds"_a, "cycles"_a);
  m.def("_scan_edges", &scan_edges, "spec"_a, "succ"_a, "index"_a, "text"_a);
  m.def("_add_kept_edges", &add_kept_edges, "succ"_a, "status"_a, "out_succ"_a, "out_pred"_a);
  m.def("_equivalent", &equivalent_model, "a"_a, "b"_a, "kinds"_a);
  m.def("_explain", &explain_model, "spec"_a, "u"_a, "v"_a);
  m.def("_read", &read_file, "path"_a, "format"_a);
  m.def("_read_arrays", &read_arrays, "path"_a, "format"_a);
  m.def("_window_report", &window_report, "path"_a, "text"_a, "name"_a, "bl"_a, "mode"_a, "slots_per_ring"_a,
        "seq_width"_a, "time_budget_ms"_a, "runtime"_a);
}
