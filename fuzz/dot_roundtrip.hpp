//===- fuzz/dot_roundtrip.hpp - A non-DOT reader's graph written as DOT -*- C++ -*-===//
///
/// \file
/// What fuzz_dot_writer_roundtrip and props/dot_writer_roundtrip_props.cpp
/// check (issue 41.2): a graph read from STG, WfCommons JSON or Pegasus DAX,
/// put in program order and written by formats::write_dot(), reads back
/// with formats::read_dot() (and with cgraph, its twin) as the same graph:
///  * the same graph name, strictness, engine count, defaults and subgraphs;
///  * the same nodes in the same order: names exactly (a name a quoted
///    string cannot carry goes out as an HTML string), the model fields
///    (engine, async, barrier, reads, writes), and the attributes;
///  * the same edges and self-loops: endpoints, kinds, flags and the parts
///    fields (retain_only_kinds, unlabelled_wait_part), and attributes.
/// Attribute values are compared exactly where a DOT quoted string can carry
/// them: no backslash, newline or NUL (docs/formats.md: an odd run of
/// backslashes before a quote, a newline or the end gets one more, NUL
/// bytes are dropped, and cgraph drops a lone newline next to an escape).
/// For every value, and for the whole text, the write is a fixed point:
/// writing what was read back gives the same bytes.
/// Non-DOT sources are where such names come from: DOT text itself cannot
/// hold a name ending in an odd run of backslashes outside an HTML string,
/// so the DOT -> DOT tests never meet them.
/// deps.json (a WindowTrace, not a Graph) and orchestration text (a program)
/// are not graphs read from a file, so they are not written as DOT.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FUZZ_DOT_ROUNDTRIP_HPP
#define DEPREDUCE_FUZZ_DOT_ROUNDTRIP_HPP

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/graph.hpp"

namespace depreduce::formats {

/// True if a DOT quoted string carries \p v unchanged (no backslash,
/// newline or NUL: the three bytes docs/formats.md names as lossy).
inline bool quotable_exactly(std::string_view v) {
  return v.find_first_of(std::string_view("\\\n\0", 3)) == std::string_view::npos;
}

/// Why \p back (read from the DOT text) differs from \p a (the attribute
/// list written), or nothing. Pairs are compared in order after sorting.
inline std::optional<std::string> attrs_mismatch(const AttrList& a, const AttrList& back, const std::string& where) {
  std::vector<std::pair<std::string, std::string>> x(a.begin(), a.end()), y(back.begin(), back.end());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  // cgraph (and the model) read an empty value as "not set".
  std::erase_if(x, [](const auto& kv) { return kv.second.empty(); });
  if (x.size() != y.size()) return where + ": " + std::to_string(x.size()) + " attributes written, " +
                                    std::to_string(y.size()) + " read back";
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].first != y[i].first) return where + ": attribute '" + x[i].first + "' read back as '" + y[i].first + "'";
    if (quotable_exactly(x[i].second) && x[i].second != y[i].second)
      return where + ": attribute '" + x[i].first + "' = '" + x[i].second + "' read back as '" + y[i].second + "'";
  }
  return std::nullopt;
}

/// Why \p e (written) and \p b (read back) differ, or nothing.
inline std::optional<std::string> edge_mismatch(const Graph& g, const Edge& e, const Edge& b, const std::string& where) {
  const std::string at = where + " '" + g.nodes[e.src].name + "' -> '" + g.nodes[e.dst].name + "'";
  if (e.src != b.src || e.dst != b.dst) return at + ": endpoints differ";
  if (e.kinds != b.kinds || e.flags != b.flags) return at + ": kinds or flags differ";
  if (e.retain_only_kinds != b.retain_only_kinds || e.unlabelled_wait_part != b.unlabelled_wait_part)
    return at + ": parts differ";
  return attrs_mismatch(e.attrs, b.attrs, at);
}

/// The checks of this file's banner on \p g; \p text is write_dot(g).
/// Returns why they fail, or nothing.
inline std::optional<std::string> dot_roundtrip_mismatch(const Graph& g, const std::string& text) {
  Graph back;
  try {
    back = make_program_order(read_dot(text, "written.dot"));
  } catch (const InputError& e) {
    return std::string("the DOT text does not read back: ") + e.what();
  }
  if (back.name != g.name || back.strict != g.strict) return std::string("graph name or strictness differs");
  if (back.num_engines != g.num_engines) return std::string("engine count differs");
  if (back.subgraphs != g.subgraphs) return std::string("subgraphs differ");
  if (auto m = attrs_mismatch(g.graph_attrs, back.graph_attrs, "graph")) return m;
  if (auto m = attrs_mismatch(g.node_defaults, back.node_defaults, "node defaults")) return m;
  if (auto m = attrs_mismatch(g.edge_defaults, back.edge_defaults, "edge defaults")) return m;
  if (back.nodes.size() != g.nodes.size())
    return std::to_string(g.nodes.size()) + " nodes written, " + std::to_string(back.nodes.size()) + " read back";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& a = g.nodes[i];
    const Node& b = back.nodes[i];
    const std::string at = "node " + std::to_string(i) + " '" + a.name + "'";
    if (a.name != b.name) return at + ": read back as '" + b.name + "'";
    if (a.engine != b.engine || a.async_window != b.async_window || a.barrier != b.barrier || a.reads != b.reads ||
        a.writes != b.writes)
      return at + ": model fields differ";
    if (auto m = attrs_mismatch(a.attrs, b.attrs, at)) return m;
  }
  if (back.edges.size() != g.edges.size() || back.self_loops.size() != g.self_loops.size())
    return std::string("edge or self-loop count differs");
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (auto m = edge_mismatch(g, g.edges[i], back.edges[i], "edge")) return m;
  for (std::size_t i = 0; i < g.self_loops.size(); ++i)
    if (auto m = edge_mismatch(g, g.self_loops[i], back.self_loops[i], "self-loop")) return m;
  // Graphviz's own parser reads the same nodes and edges.
  InputGraph oracle;
  try {
    oracle = reference::read_dot(text, "written.dot");
  } catch (const InputError& e) {
    return std::string("cgraph rejects the DOT text: ") + e.what();
  }
  if (oracle.nodes.size() != g.nodes.size()) return std::string("cgraph reads another node count");
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (oracle.nodes[i].name != g.nodes[i].name) return "cgraph reads node '" + g.nodes[i].name + "' as '" +
                                                        oracle.nodes[i].name + "'";
  // What cannot be carried exactly is carried the same way again: the
  // graph read back writes the bytes \p g writes once its empty values,
  // which read back as "not set", are left out.
  Graph set_only = g;
  const auto drop_empty = [](AttrList& list) {
    AttrList kept;
    for (const auto& [k, v] : list)
      if (!v.empty()) kept.emplace_back(k, v);
    list = std::move(kept);
  };
  for (Node& n : set_only.nodes) drop_empty(n.attrs);
  for (Edge& e : set_only.edges) drop_empty(e.attrs);
  for (Edge& e : set_only.self_loops) drop_empty(e.attrs);
  if (write_dot(back) != write_dot(set_only)) return std::string("writing the graph read back gives other bytes");
  return std::nullopt;
}

} // namespace depreduce::formats

#endif // DEPREDUCE_FUZZ_DOT_ROUNDTRIP_HPP
