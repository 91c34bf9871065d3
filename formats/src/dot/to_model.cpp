//===- formats/src/dot/to_model.cpp - DOT records to the InputGraph ===//
///
/// \file
/// The conversion stage of the DOT reader (dot/reader.hpp): the parser's
/// records become the InputGraph. Each node's and edge's attributes are
/// resolved once (its creation-time defaults, then its assignments in
/// order, as cgraph's attribute dictionaries give them), the model
/// attributes (node engine=, async=, barrier=, reads=, writes=; edge kind=,
/// flags=; graph engines=) are parsed into the Node/Edge/header fields
/// (InputError naming the line for a bad one: nodes first, in creation
/// order, then edges), and the rest are kept where they differ from the
/// top-level default. Hands on: the InputGraph that formats::read_dot()
/// returns.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>
#include <array>
#include <optional>

#include "dot/reader.hpp"

namespace depreduce::formats {
// Hidden: the stages call each other across files, never from outside the
// library; so, in a position-independent build, calls within a file may be
// inlined (none can be interposed).
namespace [[gnu::visibility("hidden")]] dot {

namespace {

// ---------------------------------------------------------------- byte ranges

/// Reads 1 to 19 decimal digits at \p p into \p v (19 cannot overflow);
/// nullptr if there are none or more (left to parse_byte_ranges()).
[[gnu::always_inline]] inline const char* short_decimal(const char* p, const char* end, std::uint64_t& v) noexcept {
  const char* q = p;
  while (q != end && static_cast<unsigned char>(*q - '0') < 10) ++q;
  if (q == p || q - p > 19) return nullptr; // none, or 20+ digits
  v = 0;
  for (; p != q; ++p) v = v * 10 + static_cast<unsigned char>(*p - '0');
  return q;
}

/// The usual spelling of a byte range list (SPEC §3: "reads"/"writes"), read
/// in one pass: `space:[lo,hi)` items joined by ',', no white space, decimal
/// numbers of at most 19 digits, lo <= hi. Returns false, with \p out
/// unspecified, for anything else; parse_byte_ranges() (formats.cpp, which
/// the cgraph twin uses for every list) then reads it or names the problem,
/// so both readers give the same ranges and the same errors, and
/// fuzz_dot_reader_diff holds this function to that one.
/// Complexity: O(|v|), one allocation per list and none per range name of
/// up to 15 bytes.
inline bool read_usual_byte_ranges(std::string_view v, std::vector<ByteRange>& out) {
  const char* p = v.data();
  const char* const end = p + v.size();
  if (p == end) return false;
  out.clear();
  std::size_t items = 0; // each range has one ')'
  for (const char* q = p; (q = static_cast<const char*>(std::memchr(q, ')', static_cast<std::size_t>(end - q)))); ++q)
    ++items;
  out.reserve(items);
  for (;;) {
    const char* s = p;
    while (p != end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                        *p == '_' || *p == '.' || *p == '-'))
      ++p;
    if (p == s || (*s >= '0' && *s <= '9') || end - p < 2 || p[0] != ':' || p[1] != '[') return false;
    ByteRange& r = out.emplace_back(ByteRange{std::string(s, static_cast<std::size_t>(p - s)), 0, 0});
    p = short_decimal(p + 2, end, r.lo);
    if (!p || p == end || *p != ',') return false;
    p = short_decimal(p + 1, end, r.hi);
    if (!p || p == end || *p != ')' || r.lo > r.hi) return false;
    if (++p == end) return true;
    if (*p++ != ',') return false;
  }
}


} // namespace

std::string FastDotReader::value_text(std::uint32_t v) const {
  std::string_view t = strs_.view(v);
  if (!t.empty() && strs_[v].html == 1) {
    std::string out;
    out.reserve(t.size() + 2);
    out += '<';
    out.append(t);
    out += '>';
    return out;
  }
  return std::string(t);
}

std::string FastDotReader::graph_name(std::uint32_t name) const {
  if (name == kNone) return {};
  std::string_view n = strs_.view(name);
  if (n.size() > 1 && n[0] == '%' && n.find_first_not_of("0123456789", 1) == std::string_view::npos) return {};
  return std::string(n);
}

/// The text of value \p v without a copy (HTML values: "<text>", built in \p html).
std::string_view FastDotReader::value_view(std::uint32_t v, std::string& html) const {
  if (strs_[v].html == 1 && !strs_.view(v).empty()) {
    html = value_text(v);
    return html;
  }
  return strs_.view(v);
}

/// \p k: the attribute's symbol (its name is only needed for a message).
void FastDotReader::node_model_attr(Node& node, std::uint8_t code, std::uint32_t k, std::string_view v, std::uint32_t line) const {
  std::string_view t = detail::trim(v);
  auto bad = [&](const std::string& expected) {
    fail(line, "node " + show(node.name) + ": " + sym_name(kNode, k) + "=" + show(v) + ": expected " + expected);
  };
  if (code == 1) {
    if (keyword_is(t, "none")) { node.engine = kNoEngine; return; } // any case, as detail::lower()
    auto e = detail::parse_uint(t, kNoEngine - 1);
    if (!e) bad("an integer >= 0 or 'none'");
    node.engine = static_cast<Engine>(*e);
  } else if (code == 2) {
    if (keyword_is(t, "inf")) { node.async_window = kAsyncInfinite; return; }
    auto w = detail::parse_uint(t, kAsyncInfinite - 1);
    if (!w) bad("an integer >= 0 (0 = synchronous) or 'inf'");
    node.async_window = static_cast<std::uint32_t>(*w);
  } else if (code == 3) {
    if (keyword_is(t, "true") || keyword_is(t, "yes") || t == "1") node.barrier = true;
    else if (keyword_is(t, "false") || keyword_is(t, "no") || t == "0") node.barrier = false;
    else bad("true or false");
  } else {
    std::vector<ByteRange>& dst = code == 4 ? node.reads : node.writes;
    if (read_usual_byte_ranges(v, dst)) return;
    std::vector<ByteRange> ranges;
    try {
      ranges = parse_byte_ranges(v, file_, line);
    } catch (const InputError& e) {
      fail(line, "node " + show(node.name) + ": " + sym_name(kNode, k) + "=" + show(v) + ": " + e.problem());
    }
    dst = std::move(ranges);
  }
}

/// Groups \p sets by object (stable: later assignments last), into \p out
/// (\p sets is moved there when it is grouped already, the usual case:
/// each object's attributes come with its statement, in object order).
void FastDotReader::group(std::vector<SetRec>& sets, std::size_t objects, std::vector<std::uint32_t>& start,
                  std::vector<SetRec>& out) {
  start.assign(objects + 1, 0);
  bool sorted = true;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    ++start[sets[i].obj + 1];
    if (i && sets[i].obj < sets[i - 1].obj) sorted = false;
  }
  for (std::size_t i = 0; i < objects; ++i) start[i + 1] += start[i];
  if (sorted) {
    out = std::move(sets);
  } else {
    out.resize(sets.size());
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (const SetRec& r : sets) out[fill[r.obj]++] = r;
  }
  sets.clear();
  sets.shrink_to_fit();
}

/// Resolves the attributes of one object: its creation defaults, then its
/// assignments in order. Calls \p emit(sym, value, line) for the symbols
/// that are set or whose root default is not "", in symbol order. Reads
/// the reader's state, writes only \p x (prepare_kind(kind, x) first).
template <class Emit>
void FastDotReader::resolve(int kind, ResolveScratch& x, std::uint32_t snap, const SetRec* b, const SetRec* e, Emit&& emit) const {
  x.touched.clear();
  auto touch = [&](std::uint32_t s, std::uint32_t v, std::uint32_t line) {
    if (x.stamp[s] != x.now) {
      x.stamp[s] = x.now;
      x.val[s] = 0;
      x.line_of[s] = 0;
      x.touched.push_back(s);
    }
    x.val[s] = v;
    if (line) x.line_of[s] = line;
  };
  ++x.now;
  for (const auto& [s, v] : snaps_[kind][snap]) touch(s, v, 0);
  for (const SetRec* r = b; r != e; ++r) touch(r->sym, r->val, r->line);
  for (std::uint32_t s : x.nonempty_default) touch(s, x.stamp[s] == x.now ? x.val[s] : 0, 0);
  if (!std::is_sorted(x.touched.begin(), x.touched.end())) std::sort(x.touched.begin(), x.touched.end());
  for (std::uint32_t s : x.touched) emit(s, x.val[s], x.line_of[s]);
}

void FastDotReader::prepare_kind(int kind, ResolveScratch& x) const {
  const std::size_t k = syms_[kind].size();
  x.stamp.assign(k, 0);
  x.val.assign(k, 0);
  x.line_of.assign(k, 0);
  x.now = 0;
  x.nonempty_default.clear();
  for (std::uint32_t s = 0; s < k; ++s)
    if (syms_[kind][s].root_def != 0) x.nonempty_default.push_back(s);
}

/// Fills \p node, default-constructed, as the InputGraph's node \p i: its
/// name, line, and attributes resolved (the model's parsed, the rest
/// verbatim); InputError for a bad model value. Reads the reader's records
/// and \p g; writes only \p node, \p x and \p html (value_view()'s scratch).
void FastDotReader::build_node(Node& node, std::uint32_t i, const GroupedSets& g, ResolveScratch& x, std::string& html) const {
  node.name = std::string(strs_.view(nodes_[i].name));
  node.line = nodes_[i].line;
  node.input_index = i;
  resolve(kNode, x, nodes_[i].snap, g.sets.data() + g.start[i], g.sets.data() + g.start[i + 1],
          [&](std::uint32_t s, std::uint32_t v, std::uint32_t line) {
            const Sym& sym = syms_[kNode][s];
            if (sym.model) {
              if (v != 0) node_model_attr(node, sym.model, s, value_view(v, html), line ? line : node.line);
              return;
            }
            if (strs_.same(v, sym.root_def)) return;
            node.attrs.emplace_back(sym_name(kNode, s), value_text(v));
          });
}

/// The InputGraph's nodes, in creation order (build_node()). Consumes node_sets_; touches nothing convert_edges() does.
void FastDotReader::convert_nodes(std::vector<Node>& nodes) {
  GroupedSets g;
  group(node_sets_, nodes_.size(), g.start, g.sets);
  ResolveScratch x;
  prepare_kind(kNode, x);
  std::string html;
  // Each record is built where it stays, once (reserve, then one
  // emplace_back each: no default-constructed array written twice).
  nodes.reserve(nodes_.size());
  for (std::uint32_t i = 0; i < nodes_.size(); ++i) build_node(nodes.emplace_back(), i, g, x, html);
}

/// The InputGraph's edges, as written, with their attributes resolved.
/// Reads the reader's records and consumes edge_sets_; touches nothing
/// convert_nodes() does (messages name nodes by their interned names).
void FastDotReader::convert_edges(std::vector<Edge>& edges) {
  std::vector<std::uint32_t> start;
  std::vector<SetRec> grouped;
  group(edge_sets_, edges_.size(), start, grouped);
  ResolveScratch x;
  prepare_kind(kEdge, x);
  std::string html; // value_view()'s scratch
  edges.reserve(edges_.size());
  struct KindsSeen {
    std::uint32_t value = kNone;
    KindSet kinds;
  };
  constexpr std::size_t kKindsSeen = 64;
  std::array<KindsSeen, kKindsSeen> kinds_seen{};
  for (std::uint32_t i = 0; i < edges_.size(); ++i) {
    Edge& edge = edges.emplace_back();
    const EdgeRec& r = edges_[i];
    edge.src = r.tail;
    edge.dst = r.head;
    edge.line = r.line;
    edge.input_index = i;
    auto who = [&]() { return "edge " + show(strs_.view(nodes_[edge.src].name)) + " -> " + show(strs_.view(nodes_[edge.dst].name)); };
    resolve(kEdge, x, r.snap, grouped.data() + start[i], grouped.data() + start[i + 1],
            [&](std::uint32_t s, std::uint32_t v, std::uint32_t line) {
              const Sym& sym = syms_[kEdge][s];
              if (sym.model == 3) return;
              if (sym.model) {
                if (v == 0) return;
                const std::string_view text = value_view(v, html);
                const std::uint32_t at = line ? line : edge.line;
                if (sym.model == 1) {
                  // A value id stands for one text: its kinds are parsed once.
                  KindsSeen& seen = kinds_seen[v & (kKindsSeen - 1)];
                  if (seen.value == v) {
                    edge.kinds = seen.kinds;
                    return;
                  }
                  auto k = parse_kinds(text);
                  if (!k)
                    fail(at, who() + ": kind=" + show(text) +
                                 ": expected a '|' or ',' list of flow, anti, output, ordered (raw, war, waw)");
                  edge.kinds = *k;
                  seen = KindsSeen{v, *k};
                } else {
                  auto f = parse_flags(text);
                  if (!f || f->empty())
                    fail(at, who() + ": flags=" + show(text) + ": expected a '|' or ',' list of wait, retain");
                  edge.flags = *f;
                }
                return;
              }
              if (strs_.same(v, sym.root_def)) return;
              edge.attrs.emplace_back(sym_name(kEdge, s), value_text(v));
            });
    if (r.key != kNone && !strs_.view(r.key).empty()) set_attr(edge.attrs, "key", std::string(strs_.view(r.key)));
  }
}

InputGraph FastDotReader::convert() {
  InputGraph out;
  out.file = file_;
  const GraphRec& root = graphs_[0];
  out.name = graph_name(root.name);
  out.strict = strict_;
  bool engines_given = false;
  for (std::uint32_t s = 0; s < syms_[kGraph].size(); ++s) {
    const std::uint32_t v = s < root.gval.size() ? root.gval[s] : 0;
    if (v == 0) continue;
    std::string text = value_text(v);
    if (syms_[kGraph][s].model == 1) {
      const std::uint32_t line = s < root.gline.size() && root.gline[s] ? root.gline[s] : root_line_;
      auto n = detail::parse_uint(detail::trim(text), kMaxEngines);
      if (!n || *n < 1)
        fail(line, "graph attribute engines=" + show(text) + ": expected an integer in [1, " +
                       std::to_string(kMaxEngines) + "]");
      out.num_engines = static_cast<std::uint32_t>(*n);
      engines_given = true;
      continue;
    }
    out.graph_attrs.emplace_back(sym_name(kGraph, s), std::move(text));
  }
  for (const Sym& s : syms_[kNode])
    if (s.model == 0 && s.root_def != 0) out.node_defaults.emplace_back(std::string(strs_.view(s.name)), value_text(s.root_def));
  for (const Sym& s : syms_[kEdge])
    if (s.model == 0 && s.root_def != 0) out.edge_defaults.emplace_back(std::string(strs_.view(s.name)), value_text(s.root_def));

  // Nodes and edges are built apart (neither reads the other's records),
  convert_nodes(out.nodes);
  convert_edges(out.edges);
  out.subgraphs = convert_subgraphs(0);
  if (!engines_given) {
    bool any = std::any_of(out.nodes.begin(), out.nodes.end(), [](const Node& n) { return n.engine != kNoEngine; });
    out.num_engines = any ? 8 : 0; // walrus default: numDataPathEngines
  }
  return out;
}

std::vector<Subgraph> FastDotReader::convert_subgraphs(std::uint32_t parent) {
  std::vector<Subgraph> out;
  const std::vector<std::uint32_t> kids = graphs_[parent].children; // creation order
  out.reserve(kids.size());
  for (std::uint32_t g : kids) {
    Subgraph sub;
    sub.name = graph_name(graphs_[g].name);
    const GraphRec& r = graphs_[g];
    const GraphRec& p = graphs_[parent];
    for (std::uint32_t s = 0; s < syms_[kGraph].size(); ++s) {
      if (syms_[kGraph][s].model == 1) continue; // engines: a root-graph model attribute only
      const std::uint32_t v = s < r.gval.size() ? r.gval[s] : 0;
      const std::uint32_t pv = s < p.gval.size() ? p.gval[s] : 0;
      if (v != pv) sub.attrs.emplace_back(sym_name(kGraph, s), value_text(v));
    }
    sub.children = convert_subgraphs(g);
    // Direct members: not in a child.
    ++mark_now_;
    if (mark_.size() < nodes_.size()) mark_.resize(nodes_.size(), 0);
    for (std::uint32_t k : graphs_[g].children)
      for (std::uint32_t v : graphs_[k].members) mark_[v] = mark_now_;
    for (std::uint32_t v : sorted_members(g))
      if (mark_[v] != mark_now_) sub.nodes.push_back(v);
    out.push_back(std::move(sub));
  }
  return out;
}

} // namespace dot
} // namespace depreduce::formats
