//===- fuzz/dot_reader_diff.hpp - Comparing the two DOT readers -*- C++ -*-===//
///
/// \file
/// What fuzz_dot_reader_diff and tests/dot_reader_test.cpp compare: the
/// outcome of a reader (an InputGraph, or the line and problem of its
/// InputError), and a printable form of it for failure reports.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FUZZ_DOT_READER_DIFF_HPP
#define DEPREDUCE_FUZZ_DOT_READER_DIFF_HPP

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "depreduce/error.hpp"
#include "depreduce/graph.hpp"
#include "internal.hpp" // formats/src: detail::read_dot_releasing, DotReadTuning

namespace depreduce::formats {

struct ReaderOutcome {
  bool ok = false;
  InputGraph graph;      ///< When ok.
  std::uint32_t line = 0; ///< When not ok.
  std::string problem;
};

template <class F> ReaderOutcome outcome_of(F&& read) {
  ReaderOutcome o;
  try {
    o.graph = read();
    o.ok = true;
  } catch (const InputError& e) {
    o.line = e.line();
    o.problem = e.problem();
  }
  return o;
}

/// formats::read_dot() down the paths the default takes only for a large
/// graph: its simple statements scanned ahead of the parser from the first
/// one (formats/src/dot/fast_path.cpp, top_up(); by default once a graph has
/// some 10^5 names) and, for a text of odd length, the strings it keeps
/// copied out of the text, as a read that gives the text's pages back does
/// (by default from 16 MiB). Held to cgraph beside the default on every input.
inline InputGraph read_dot_as_large(std::string_view text, const std::string& file) {
  detail::DotReadTuning as_large;
  as_large.lookahead_table_slots = 0;
  as_large.release_from = 0;
  const std::function<void(std::size_t)> keep_pages = [](std::size_t) {}; // the text is not mapped here
  return detail::read_dot_releasing(text, file, {}, text.size() % 2 ? keep_pages : nullptr, as_large);
}

/// Why \p a and \p b differ (same InputGraph, or both rejected on the same
/// line), or nothing.
inline std::optional<std::string> mismatch(const ReaderOutcome& a, const ReaderOutcome& b) {
  if (a.ok != b.ok) return std::string(a.ok ? "only the reference rejects" : "only the fast reader rejects");
  if (!a.ok) {
    if (a.line != b.line) return "both reject, on different lines";
    return std::nullopt;
  }
  if (!(static_cast<const GraphHeader&>(a.graph) == static_cast<const GraphHeader&>(b.graph)))
    return std::string("different header, attributes, defaults or subgraphs");
  if (a.graph.nodes != b.graph.nodes) return std::string("different nodes");
  if (a.graph.edges != b.graph.edges) return std::string("different edges");
  return std::nullopt;
}

inline std::string attrs_text(const AttrList& a) {
  std::string s;
  for (const auto& [k, v] : a) s += " [" + k + "]=[" + v + "]";
  return s;
}

inline void subgraphs_text(const std::vector<Subgraph>& subs, int depth, std::string& out) {
  for (const Subgraph& s : subs) {
    out += std::string(static_cast<std::size_t>(depth) * 2, ' ') + "S [" + s.name + "]" + attrs_text(s.attrs) + " :";
    for (NodeId v : s.nodes) out += " " + std::to_string(v);
    out += "\n";
    subgraphs_text(s.children, depth + 1, out);
  }
}

inline std::string describe(const ReaderOutcome& o) {
  if (!o.ok) return "InputError line " + std::to_string(o.line) + ": " + o.problem + "\n";
  const InputGraph& g = o.graph;
  std::string out = "graph [" + g.name + "] strict=" + std::to_string(g.strict) +
                    " engines=" + std::to_string(g.num_engines) + "\n G" + attrs_text(g.graph_attrs) + "\n node" +
                    attrs_text(g.node_defaults) + "\n edge" + attrs_text(g.edge_defaults) + "\n";
  for (const Node& n : g.nodes)
    out += "N [" + n.name + "] line=" + std::to_string(n.line) + " engine=" + std::to_string(n.engine) +
           " async=" + std::to_string(n.async_window) + " barrier=" + std::to_string(n.barrier) +
           " reads=" + std::to_string(n.reads.size()) + " writes=" + std::to_string(n.writes.size()) +
           attrs_text(n.attrs) + "\n";
  for (const Edge& e : g.edges)
    out += "E " + std::to_string(e.src) + " -> " + std::to_string(e.dst) + " line=" + std::to_string(e.line) +
           " kinds=" + std::to_string(e.kinds.bits()) + " flags=" + std::to_string(e.flags.bits()) +
           attrs_text(e.attrs) + "\n";
  subgraphs_text(g.subgraphs, 0, out);
  return out;
}

} // namespace depreduce::formats

#endif // DEPREDUCE_FUZZ_DOT_READER_DIFF_HPP
