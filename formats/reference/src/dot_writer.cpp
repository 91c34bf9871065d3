//===- formats/reference/src/dot_writer.cpp - Graph -> DOT, plainly -------===//
///
/// \file
/// reference::write_dot(): the writer formats::write_dot() replaced, kept as
/// its twin: per-node and per-edge attribute lists and std::to_string, ports
/// as `tailport`/`headport` attributes. formats::write_dot(g, {.inline_ports =
/// false}) must give the same bytes (tests/dot_writer_test.cpp). Every id and value is quoted so that cgraph reads back the
/// same string; HTML-like values (`<...>` with balanced brackets) are written
/// as HTML strings. Nodes first (input order), then edges (input order), then
/// subgraph blocks that only list existing nodes, so reading the output
/// creates the nodes in the same order.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "depreduce/formats/reference/dot_reader.hpp"
#include "../../src/internal.hpp"

namespace depreduce::formats::reference {
namespace {

/// True if cgraph's scanner reads \p s, written unquoted, as exactly one HTML
/// string whose text is s without the outer brackets.
bool is_html_like(const std::string& s) {
  if (s.size() < 2 || s.front() != '<' || s.back() != '>') return false;
  int nest = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++nest;
    else if (s[i] == '>' && --nest == 0) return i + 1 == s.size();
  }
  return false;
}

/// A DOT quoted string that cgraph's scanner turns back into \p s.
/// The scanner maps \" to ", keeps \\ as \\, drops backslash-newline and keeps
/// any other backslash. So an odd run of backslashes right before a quote, a
/// newline or the end cannot be represented; it gets one more backslash (only
/// text from non-DOT sources can contain one). NUL bytes are dropped.
void append_quoted(std::string& out, const std::string& s) {
  out += '"';
  std::size_t run = 0; // backslashes just written
  for (char c : s) {
    if (c == '\0') continue;
    if (c == '"') {
      if (run % 2) out += '\\';
      out += "\\\"";
      run = 0;
      continue;
    }
    if (c == '\n' && run % 2) out += '\\';
    out += c;
    run = c == '\\' ? run + 1 : 0;
  }
  if (run % 2) out += '\\';
  out += '"';
}

/// What cgraph 2.42's scanner makes of the inside of a quoted string: \" is
/// a quote, \\ stays \\, backslash-newline vanishes, and a run of ordinary
/// characters that is exactly one newline vanishes too (its `[\n]` rule ties
/// with, and precedes, the run rule).
std::string cgraph_unquote(std::string_view w) {
  std::string out;
  std::size_t i = 0;
  while (i < w.size()) {
    if (w[i] == '\\') {
      if (i + 1 < w.size() && w[i + 1] == '"') { out += '"'; i += 2; continue; }
      if (i + 1 < w.size() && w[i + 1] == '\\') { out += "\\\\"; i += 2; continue; }
      if (i + 1 < w.size() && w[i + 1] == '\n') { i += 2; continue; }
      out += '\\';
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < w.size() && w[j] != '\\' && w[j] != '"') ++j;
    if (!(j - i == 1 && w[i] == '\n')) out.append(w.substr(i, j - i));
    i = j;
  }
  return out;
}

/// True if "<" + s + ">" scans as one HTML string with text s.
bool html_safe(const std::string& s) {
  long nest = 0;
  for (char c : s) {
    if (c == '\0') return false;
    if (c == '<') ++nest;
    else if (c == '>' && --nest < 0) return false;
  }
  return nest == 0;
}

/// An id (node, graph, subgraph or attribute name): quoted when cgraph reads
/// the quoted form back unchanged, else as an HTML string when that is exact
/// (text that came from an HTML id can hold a lone newline before a quote).
void append_id(std::string& out, const std::string& s) {
  std::string q;
  append_quoted(q, s);
  if (!html_safe(s) || cgraph_unquote(std::string_view(q).substr(1, q.size() - 2)) == s) {
    out += q;
    return;
  }
  out += '<';
  out += s;
  out += '>';
}

void append_value(std::string& out, const std::string& v) {
  if (is_html_like(v) && v.find('\0') == std::string::npos) out += v;
  else append_quoted(out, v);
}

void append_attrs(std::string& out, const AttrList& attrs) {
  if (attrs.empty()) return;
  out += " [";
  bool first = true;
  for (const auto& [k, v] : attrs) {
    if (!first) out += ", ";
    first = false;
    append_id(out, k);
    out += '=';
    append_value(out, v);
  }
  out += ']';
}

bool is_node_model_key(const std::string& k) {
  return k == "engine" || k == "async" || k == "barrier" || k == "reads" || k == "writes";
}
bool is_edge_model_key(const std::string& k) { return k == "kind" || k == "flags"; }

AttrList without(const AttrList& attrs, bool (*model)(const std::string&)) {
  AttrList out;
  for (const auto& kv : attrs)
    if (!model(kv.first)) out.push_back(kv);
  return out;
}

// Members in the order the nodes are written (cgraph lists members in node
// creation order, so no other order reads back the same).
void write_subgraph(std::string& out, const Graph& g, const Subgraph& s, int depth,
                    const std::vector<std::uint32_t>& rank) {
  std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  out += indent;
  out += "subgraph ";
  if (!s.name.empty()) {
    append_id(out, s.name);
    out += ' ';
  }
  out += "{\n";
  if (!s.attrs.empty()) {
    out += indent + "  graph";
    append_attrs(out, s.attrs);
    out += ";\n";
  }
  std::vector<NodeId> members;
  for (NodeId v : s.nodes)
    if (v < g.nodes.size()) members.push_back(v);
  std::stable_sort(members.begin(), members.end(), [&](NodeId a, NodeId b) { return rank[a] < rank[b]; });
  for (NodeId v : members) {
    out += indent + "  ";
    append_id(out, g.nodes[v].name);
    out += ";\n";
  }
  for (const Subgraph& c : s.children) write_subgraph(out, g, c, depth + 1, rank);
  out += indent + "}\n";
}

} // namespace

std::string write_dot(const Graph& g) {
  std::string out;
  // A strict graph merges parallel edges as it reads them (the last value of
  // each attribute wins), so a pair written as parts must not be strict.
  const bool parts = std::any_of(g.edges.begin(), g.edges.end(),
                                 [](const Edge& e) { return parts_to_write(e).size() > 1; });
  if (g.strict && !parts) out += "strict ";
  out += "digraph ";
  if (!g.name.empty()) {
    append_id(out, g.name);
    out += ' ';
  }
  out += "{\n";

  AttrList gattrs;
  for (const auto& kv : g.graph_attrs)
    if (kv.first != "engines") gattrs.push_back(kv);
  if (g.num_engines != 0) gattrs.emplace_back("engines", std::to_string(g.num_engines));
  if (!gattrs.empty()) {
    out += "  graph";
    append_attrs(out, gattrs);
    out += ";\n";
  }
  if (AttrList d = without(g.node_defaults, is_node_model_key); !d.empty()) {
    out += "  node";
    append_attrs(out, d);
    out += ";\n";
  }
  if (AttrList d = without(g.edge_defaults, is_edge_model_key); !d.empty()) {
    out += "  edge";
    append_attrs(out, d);
    out += ";\n";
  }

  // Nodes in input order, as tred does, unless the graph has engines and its
  // input order is not its program order: program order decides engine order
  // (SPEC §3.2), and a reduction may have removed the edges that made program
  // order differ from input order, so such a graph is written in program
  // order, which reads back as the same program order whatever edges remain.
  std::vector<NodeId> order(g.nodes.size());
  std::iota(order.begin(), order.end(), NodeId{0});
  const bool in_program_order =
      g.num_engines != 0 && !std::is_sorted(g.nodes.begin(), g.nodes.end(), [](const Node& a, const Node& b) {
        return a.input_index < b.input_index;
      });
  if (!in_program_order)
    std::stable_sort(order.begin(), order.end(),
                     [&](NodeId a, NodeId b) { return g.nodes[a].input_index < g.nodes[b].input_index; });
  for (NodeId v : order) {
    const Node& n = g.nodes[v];
    AttrList attrs = without(n.attrs, is_node_model_key);
    if (n.engine != kNoEngine) attrs.emplace_back("engine", std::to_string(n.engine));
    if (n.async_window == kAsyncInfinite) attrs.emplace_back("async", "inf");
    else if (n.async_window != 0) attrs.emplace_back("async", std::to_string(n.async_window));
    if (n.barrier) attrs.emplace_back("barrier", "true");
    if (!n.reads.empty()) attrs.emplace_back("reads", write_byte_ranges(n.reads));
    if (!n.writes.empty()) attrs.emplace_back("writes", write_byte_ranges(n.writes));
    out += "  ";
    append_id(out, n.name);
    append_attrs(out, attrs);
    out += ";\n";
  }

  std::vector<const Edge*> edges;
  edges.reserve(g.edges.size() + g.self_loops.size());
  for (const Edge& e : g.edges) edges.push_back(&e);
  for (const Edge& e : g.self_loops) edges.push_back(&e);
  std::stable_sort(edges.begin(), edges.end(),
                   [](const Edge* a, const Edge* b) { return a->input_index < b->input_index; });
  for (const Edge* e : edges) {
    if (e->src >= g.nodes.size() || e->dst >= g.nodes.size()) continue;
    // A merged pair whose union of kinds and flags would read back as another
    // demand is written as its parts (SPEC §2), the first one carrying the
    // other attributes.
    for (const EdgePart& part : parts_to_write(*e)) {
      AttrList attrs = part.first ? without(e->attrs, is_edge_model_key) : AttrList{};
      if (!part.kinds.empty()) attrs.emplace_back("kind", to_string(part.kinds));
      if (part.flags != FlagSet::wait()) attrs.emplace_back("flags", to_string(part.flags));
      out += "  ";
      append_id(out, g.nodes[e->src].name);
      out += " -> ";
      append_id(out, g.nodes[e->dst].name);
      append_attrs(out, attrs);
      out += ";\n";
    }
  }

  std::vector<std::uint32_t> rank(g.nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
  for (const Subgraph& s : g.subgraphs) write_subgraph(out, g, s, 1, rank);
  out += "}\n";
  return out;
}

} // namespace depreduce::formats::reference
