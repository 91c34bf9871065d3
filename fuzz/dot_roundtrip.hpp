//===- fuzz/dot_roundtrip.hpp - A non-DOT reader's graph written as DOT -*- C++ -*-===//
///
/// \file
/// What fuzz_dot_writer_roundtrip and props/dot_writer_roundtrip_props.cpp
/// check: a graph read from STG, WfCommons JSON or Pegasus DAX,
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
/// Names are compared without NUL bytes (a graph whose names collide
/// without them cannot be written as DOT and is skipped), and exactly where
/// a quoted or an HTML string carries them (id_carried_exactly()).
/// What is not carried exactly settles after one trip: the graph read back,
/// written and read again, writes the same bytes.
/// Non-DOT sources are where such names come from: DOT text itself cannot
/// hold a name ending in an odd run of backslashes outside an HTML string,
/// so the DOT -> DOT tests never meet them.
/// deps.json (a WindowTrace, not a Graph) and orchestration text (a program)
/// are not graphs read from a file, so they are not written as DOT.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FUZZ_DOT_ROUNDTRIP_HPP
#define DEPREDUCE_FUZZ_DOT_ROUNDTRIP_HPP

#include <algorithm>
#include <map>
#include <set>
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

/// True if the writer carries the name (id) \p s exactly: quotable_exactly(),
/// or an HTML string holds it (brackets balanced, no NUL; docs/formats.md).
/// A name that is neither, such as `>\` from a WfCommons file, reads back
/// changed (one more backslash).
inline bool id_carried_exactly(std::string_view s) {
  if (s.find('\0') != std::string_view::npos) { // no HTML string then; quoted without the NULs
    std::string rest(s);
    std::erase(rest, '\0');
    return quotable_exactly(rest);
  }
  if (quotable_exactly(s)) return true;
  long nest = 0;
  for (char c : s) {
    if (c == '\0') return false;
    if (c == '<') ++nest;
    else if (c == '>' && --nest < 0) return false;
  }
  return nest == 0;
}

/// Why \p back (read from the DOT text) differs from \p a (the attribute
/// list written), or nothing. Every attribute read back was written; every
/// attribute written with a value a quoted string carries exactly is read
/// back with that value. One written with another value may read back
/// changed or, when what cgraph makes of it is empty (a lone newline), not
/// at all; an empty value reads as "not set" (cgraph and the model).
/// \p html_texts: the texts inside every <...> value of the graph: cgraph
/// keeps one string per text, HTML or not, so a plain value equal to the
/// text of an HTML one reads back as that HTML string (`a [n=<x>]; b
/// [n="x"]` gives b n=<x>, Graphviz and the one-pass reader alike); such
/// values are not compared.
inline std::optional<std::string> attrs_mismatch(const AttrList& a, const AttrList& back, const std::string& where,
                                                 const std::set<std::string>& html_texts = {}) {
  std::map<std::string, std::string> x(a.begin(), a.end()), y(back.begin(), back.end());
  for (const auto& [k, v] : y)
    if (!x.count(k)) return where + ": attribute '" + k + "' read back, never written";
  for (const auto& [k, v] : x) {
    // A value of the form <...> goes out as an HTML string (docs/formats.md);
    // some read back otherwise (`<&>` reads back as `&`): not compared here,
    // the fixed point below still holds them.
    if (v.empty() || !quotable_exactly(v) || (v.front() == '<' && v.back() == '>') || html_texts.count(v)) continue;
    const auto it = y.find(k);
    if (it == y.end()) return where + ": attribute '" + k + "' = '" + v + "' not read back";
    if (it->second != v) return where + ": attribute '" + k + "' = '" + v + "' read back as '" + it->second + "'";
  }
  return std::nullopt;
}

/// Why \p e (written) and \p b (read back) differ, or nothing.
inline std::optional<std::string> edge_mismatch(const Graph& g, const Edge& e, const Edge& b, const std::string& where,
                                                const std::set<std::string>& html_texts) {
  const std::string at = where + " '" + g.nodes[e.src].name + "' -> '" + g.nodes[e.dst].name + "'";
  if (e.src != b.src || e.dst != b.dst) return at + ": endpoints differ";
  if (e.kinds != b.kinds || e.flags != b.flags) return at + ": kinds or flags differ";
  if (e.retain_only_kinds != b.retain_only_kinds || e.unlabelled_wait_part != b.unlabelled_wait_part)
    return at + ": parts differ";
  return attrs_mismatch(e.attrs, b.attrs, at, html_texts);
}

/// The checks of this file's banner on \p g; \p text is write_dot(g).
/// Returns why they fail, or nothing.
inline std::optional<std::string> dot_roundtrip_mismatch(const Graph& g, const std::string& text) {
  // DOT text holds no NUL byte: the writer drops them, so names that differ
  // only by NUL bytes cannot be written apart (docs/formats.md); names are
  // compared without them.
  const auto no_nul = [](std::string s) {
    std::erase(s, '\0');
    return s;
  };
  std::set<std::string> html_texts;
  const auto note_html = [&](const AttrList& list) {
    for (const auto& [k, v] : list)
      if (v.size() >= 2 && v.front() == '<' && v.back() == '>') html_texts.insert(v.substr(1, v.size() - 2));
  };
  for (const Node& n : g.nodes) note_html(n.attrs);
  for (const Edge& e : g.edges) note_html(e.attrs);
  for (const Edge& e : g.self_loops) note_html(e.attrs);
  std::set<std::string> written_names;
  for (const Node& n : g.nodes)
    if (!written_names.insert(no_nul(n.name)).second) return std::nullopt;
  Graph back;
  try {
    back = make_program_order(read_dot(text, "written.dot"));
  } catch (const InputError& e) {
    return std::string("the DOT text does not read back: ") + e.what();
  }
  if ((id_carried_exactly(g.name) && back.name != no_nul(g.name)) || back.strict != g.strict)
    return std::string("graph name or strictness differs");
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
    if (id_carried_exactly(a.name) && no_nul(a.name) != b.name) return at + ": read back as '" + b.name + "'";
    if (a.engine != b.engine || a.async_window != b.async_window || a.barrier != b.barrier || a.reads != b.reads ||
        a.writes != b.writes)
      return at + ": model fields differ";
    if (auto m = attrs_mismatch(a.attrs, b.attrs, at, html_texts)) return m;
  }
  if (back.edges.size() != g.edges.size() || back.self_loops.size() != g.self_loops.size())
    return std::string("edge or self-loop count differs");
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (auto m = edge_mismatch(g, g.edges[i], back.edges[i], "edge", html_texts)) return m;
  for (std::size_t i = 0; i < g.self_loops.size(); ++i)
    if (auto m = edge_mismatch(g, g.self_loops[i], back.self_loops[i], "self-loop", html_texts)) return m;
  // Graphviz's own parser reads the same nodes and edges.
  InputGraph oracle;
  try {
    oracle = reference::read_dot(text, "written.dot");
  } catch (const InputError& e) {
    return std::string("cgraph rejects the DOT text: ") + e.what();
  }
  if (oracle.nodes.size() != g.nodes.size()) return std::string("cgraph reads another node count");
  // cgraph's nodes come in creation order (the order written, input order),
  // the model's in program order: the same names, as sets.
  std::vector<std::string> by_cgraph, by_reader;
  for (const Node& n : oracle.nodes) by_cgraph.push_back(n.name);
  for (const Node& n : back.nodes) by_reader.push_back(n.name);
  std::sort(by_cgraph.begin(), by_cgraph.end());
  std::sort(by_reader.begin(), by_reader.end());
  if (by_cgraph != by_reader) return std::string("cgraph reads other node names");
  // What cannot be carried exactly settles after one trip: the graph read
  // back, written and read again, writes the same bytes.
  // (Attribute order aside: a value that vanished changes the order in
  // which the reader meets attribute names, docs/formats.md.)
  const auto sorted = [](Graph x) {
    for (Node& n : x.nodes) std::sort(n.attrs.begin(), n.attrs.end());
    for (Edge& e : x.edges) std::sort(e.attrs.begin(), e.attrs.end());
    for (Edge& e : x.self_loops) std::sort(e.attrs.begin(), e.attrs.end());
    return x;
  };
  const std::string again = write_dot(back);
  try {
    if (write_dot(sorted(make_program_order(read_dot(again, "again.dot")))) != write_dot(sorted(back)))
      return std::string("the text written from the graph read back is no fixed point");
  } catch (const InputError& e) {
    return std::string("the text written from the graph read back does not read: ") + e.what();
  }
  return std::nullopt;
}

} // namespace depreduce::formats

#endif // DEPREDUCE_FUZZ_DOT_ROUNDTRIP_HPP
