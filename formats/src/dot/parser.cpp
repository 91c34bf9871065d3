//===- formats/src/dot/parser.cpp - The DOT parser and cgraph's actions ===//
///
/// \file
/// The parser stage of the DOT reader (dot/reader.hpp): a recursive-descent
/// reading of cgraph's grammar (lib/cgraph/grammar.y) that performs its
/// actions at the points bison would: edge chains, node lists (`a, b -> c`),
/// subgraph endpoints (their nodes in creation order at the time of the
/// statement), ports `n:p:c` (tailport/headport declared after the
/// statement's own attributes), `key=` naming an edge, `+` concatenation of
/// quoted/HTML strings, default attribute statements and their scoping,
/// strict graphs (one edge per pair, a keyed edge that would add a second is
/// dropped), the attribute dictionaries (declared once per kind, default "",
/// in the order first seen), and bison's stack limit (YYMAXDEPTH 10000).
/// Between statements it offers each one to the fast path (fast_path.cpp)
/// first. Errors name the line of the token cgraph would stop at. Hands on:
/// the records (nodes, edges, attribute assignments, subgraphs, symbols and
/// snapshots) to the conversion (to_model.cpp).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "dot/reader.hpp"

namespace depreduce::formats {
// Hidden: the stages call each other across files, never from outside the
// library; so, in a position-independent build, calls within a file may be
// inlined (none can be interposed).
namespace [[gnu::visibility("hidden")]] dot {

std::string FastDotReader::token_text(const Token& t) const {
  if (t.kind == Tok::Eof) return t.at_marker ? "@" : "";
  if (t.kind == Tok::QAtom) return t.html ? ">" : "\"";
  return std::string(t_.substr(t.begin, t.end - t.begin));
}

/// cgraph's message for an error at \p t (aagerror), without the line.
std::string FastDotReader::cgraph_problem(const std::string& what, const Token& t) const {
  std::string m = what;
  std::string near = token_text(t);
  if (!near.empty()) return m + " near '" + near + "'";
  if (t.kind == Tok::Eof && t.eof_state != EofState::Initial) {
    std::string buf = eof_buffer_;
    if (t.eof_state == EofState::QString) {
      m += " scanning a quoted string (missing endquote? longer than " + std::to_string(kFlexBufSize) + "?)";
      if (!buf.empty()) m += " String starting:\"" + buf.substr(0, 80);
    } else if (t.eof_state == EofState::HString) {
      m += " scanning a HTML string (missing '>'? bad nesting? longer than " + std::to_string(kFlexBufSize) + "?)";
      if (!buf.empty()) m += " String starting:<" + buf.substr(0, 80);
    } else {
      m += " scanning a /*...*/ comment (missing '*/? longer than " + std::to_string(kFlexBufSize) + "?)";
    }
    // cgraph's message loses its trailing line ends (split_cgraph_message() in the twin).
    while (!m.empty() && (m.back() == '\n' || m.back() == '\r')) m.pop_back();
    for (char& c : m)
      if (c == '\n') c = ' ';
  }
  return m;
}

/// Line of an error cgraph reports with no graph open: the first token of
/// the parse, or the one after a leading `strict`; but the line of the
/// parse's first byte-order mark standing alone, if one was skipped before
/// the graph opened (measured on cgraph 2.42: corpus/fuzz_dot_reader_diff/regress-bom-*).
std::uint32_t FastDotReader::no_graph_line(bool* at_end) const {
  *at_end = first_tok_.kind == Tok::Eof && !first_tok_.at_marker;
  if (*at_end) return end_line(first_tok_);
  if (first_tok_.kind == Tok::Strict) {
    *at_end = after_strict_.kind == Tok::Eof && !after_strict_.at_marker;
    if (bom_line_) return bom_line_;
    return *at_end ? end_line(after_strict_) : after_strict_.first_line;
  }
  return bom_line_ ? bom_line_ : first_tok_.first_line;
}

std::uint32_t FastDotReader::end_line(const Token& eof) const {
  return eof.open_line ? eof.open_line : last_sig_line_;
}

[[noreturn]] void FastDotReader::fail_at(const Token& t, const std::string& what) {
  std::uint32_t line;
  bool at_end;
  if (!graph_open_) {
    line = no_graph_line(&at_end);
  } else {
    at_end = t.kind == Tok::Eof && !t.at_marker;
    line = at_end ? end_line(t) : t.at_line;
  }
  std::string problem = cgraph_problem(what, t);
  if (at_end && problem.rfind("syntax error", 0) == 0)
    problem = detail::end_of_file_problem(problem);
  throw ParseError{line, detail::with_byte_order_mark_hint(std::move(problem)) + suffix_};
}

[[noreturn]] void FastDotReader::exhausted() {
  bool at_end;
  std::uint32_t line = no_graph_line(&at_end);
  throw ParseError{line, cgraph_problem("memory exhausted", peek_copy()) + suffix_};
}

/// Returns false for an empty input (cgraph's `graph: /* empty */`).
bool FastDotReader::parse_graph() {
  sd_ = 1;
  pos_ = start_;
  const Token& t0 = peek();
  first_tok_ = t0;
  if (t0.kind == Tok::Eof) return false;
  strict_ = false;
  if (t0.kind == Tok::Strict) {
    take();
    push();
    strict_ = true;
    after_strict_ = peek();
  } else {
    push();
  }
  const Token& tg = peek();
  if (tg.kind != Tok::Graph && tg.kind != Tok::Digraph) syntax(tg);
  directed_ = tg.kind == Tok::Digraph;
  take();
  push();
  std::uint32_t name = kNone;
  if (peek_atom()) {
    name = parse_atom(); // cgraph interns it in the global pool: not the graph's
  } else {
    push();
  }
  pop(2); // hdr
  start_graph(name);
  if (!peek_char('{')) syntax(peek());
  take();
  push();
  parse_body();
  pop(2); // body, then graph: hdr body
  close_end_ = cur_.end; // bison accepts on the '}': nothing after it was read
  close_line_ = cur_.last_line;
  return true;
}

/// After '{' (on the stack): statements, then '}'.
void FastDotReader::parse_body() {
  const std::uint32_t d0 = sd_;
  bool first = true;
  for (;;) {
    if (!have_ && simple_stmt()) {
      ++simple_statements_;
      if (!first) pop(1); // stmtlist: stmtlist stmt
      first = false;
      continue;
    }
    if (peek_char('}')) {
      if (first) push(); // optstmtlist: empty
      take();
      push();
      sd_ = d0 + 2;
      pop(2); // body: '{' optstmtlist '}' (the '{' is popped by the caller)
      sd_ = d0;
      return;
    }
    parse_stmt();
    if (!first) pop(1); // stmtlist: stmtlist stmt
    first = false;
    unpeek_id();
  }
}

/// Gives back the token parse_stmt() read ahead when its statement had no
/// ';', if it is an ID (a name, number or quoted string; not an HTML
/// string, whose scan may restart the read), so that the
/// statement it opens can go through simple_stmt(): without this, every
/// statement after one such is read the general way (have_ stays true).
/// The scanner stands at the token's first byte, on its line, as if it
/// had not been read; the text stays interned (scan() interned it, and
/// whichever path reads it next interns it first). The white space and
/// comments before it are not read again.
void FastDotReader::unpeek_id() {
  if (!have_ || !(cur_.kind == Tok::Atom || (cur_.kind == Tok::QAtom && !cur_.html))) return;
  pos_ = cur_.begin;
  line_ = cur_.first_line;
  have_ = false;
}

/// A statement; leaves one state (stmt) on the stack.
void FastDotReader::parse_stmt() {
  const Token& t = peek();
  switch (t.kind) {
  case Tok::Graph:
  case Tok::Node:
  case Tok::Edge: {
    const int kind = t.kind == Tok::Graph ? kGraph : t.kind == Tok::Node ? kNode : kEdge;
    take();
    push(); // attrtype
    if (peek_atom()) {
      parse_atom(); // attribute macro name: cgraph warns and ignores it
      if (!peek_char('=')) syntax(peek());
      take();
      push();
      pop(2); // optmacroname
    } else {
      push(); // optmacroname: empty
    }
    if (!peek_char('[')) syntax(peek());
    parse_attrlists(); // attrlist
    pop(2);            // attrstmt: attrtype optmacroname attrlist
    attr_stmt(kind);
    break;
  }
  case Tok::Atom:
  case Tok::QAtom: {
    const std::uint32_t a = parse_atom();
    if (peek_char('=')) {
      take();
      push();
      if (!peek_atom()) syntax(peek());
      const std::uint32_t v = parse_atom();
      pop(2); // attrassignment -> graphattrdefs -> attrstmt
      top().attrs.emplace_back(a, v);
      attr_stmt(kGraph);
      break;
    }
    parse_node_rest(a);
    while (peek_char(',')) {
      take();
      push();
      if (!peek_atom()) syntax(peek());
      parse_node_rest(parse_atom());
      pop(2); // nodelist: nodelist ',' node
    }
    compound_rest();
    break;
  }
  case Tok::Subgraph:
    parse_subgraph();
    compound_rest();
    break;
  case Tok::Char:
    if (t.ch == '{') {
      parse_subgraph();
      compound_rest();
      break;
    }
    syntax(t);
  default: syntax(t);
  }
  // optsemi, then stmt
  if (peek_char(';')) take();
  push();
  pop(1);
}

/// After `simple` (one state): rcompound, optattr, then the compound's action.
void FastDotReader::compound_rest() {
  const std::uint32_t r = sd_;
  std::uint32_t hops = 0;
  while (peek().kind == Tok::EdgeOp) {
    take();
    push();             // T_edgeop
    edge_items();       // getedgeitems(1)
    push();             // $@1
    const Token& t = peek();
    if (t.kind == Tok::Subgraph || (t.kind == Tok::Char && t.ch == '{')) {
      parse_subgraph();
    } else if (peek_atom()) {
      parse_node_rest(parse_atom());
      while (peek_char(',')) {
        take();
        push();
        if (!peek_atom()) syntax(peek());
        parse_node_rest(parse_atom());
        pop(2);
      }
    } else {
      syntax(t);
    }
    edge_items();       // getedgeitems(2)
    push();             // $@2
    ++hops;
  }
  push();               // rcompound: empty
  sd_ = r + 1;
  // optattr
  push();
  if (peek_char('[')) {
    pop(1);
    parse_attrlists();
  }
  sd_ = r + 2;
  pop(2); // compound: simple rcompound optattr
  if (hops) end_edge();
  else end_node();
}

/// One or more `[ ... ]`; leaves one state (attrlist / optattr).
void FastDotReader::parse_attrlists() {
  const std::uint32_t a = sd_;
  push(); // optattr: empty
  while (peek_char('[')) {
    sd_ = a + 1;
    take();
    push(); // '['
    push(); // optattrdefs: empty
    for (;;) {
      if (peek_char(']')) break;
      if (!peek_atom()) syntax(peek());
      const std::uint32_t k = parse_atom();
      if (!peek_char('=')) syntax(peek());
      take();
      push();
      if (!peek_atom()) syntax(peek());
      const std::uint32_t v = parse_atom();
      pop(2); // attrassignment
      top().attrs.emplace_back(k, v);
      if (peek_char(';') || peek_char(',')) take();
      push(); // optseparator
      pop(2); // attrdefs, optattrdefs
    }
    take();
    push(); // ']'
    sd_ = a + 1; // attrlist, then optattr: attrlist
  }
}

/// atom: T_atom | qatom ('+' T_qatom)*; leaves one state. Returns the text.
std::uint32_t FastDotReader::parse_atom() {
  const Token& t = take();
  push();
  if (t.kind == Tok::Atom) return t.sid;
  std::uint32_t v = t.sid;
  while (peek_char('+')) {
    take();
    push();
    const Token& q = peek();
    if (q.kind != Tok::QAtom) syntax(q);
    const std::uint32_t b = take().sid;
    push();
    pop(2);
    // cgraph's concat(): agstrdup of the joined text (plain unless known).
    std::string joined(strs_.view(v));
    joined.append(strs_.view(b));
    v = intern_plain(joined, true);
  }
  return v;
}

/// The rest of `node: atom (':' atom (':' atom)?)?` after its first atom
/// (one state on the stack, left there), then cgraph's appendnode().
void FastDotReader::parse_node_rest(std::uint32_t name) {
  std::uint32_t port = kNone;
  if (peek_char(':')) {
    take();
    push();
    if (!peek_atom()) syntax(peek());
    port = parse_atom();
    if (peek_char(':')) {
      take();
      push();
      if (!peek_atom()) syntax(peek());
      const std::uint32_t p2 = parse_atom();
      pop(2);
      std::string joined(strs_.view(port));
      joined += ':';
      joined.append(strs_.view(p2));
      port = intern_plain(joined, true);
    }
    pop(2);
  }
  append_node(name, port);
}

/// subgraph: optsubghdr {opensubg} body; leaves one state.
void FastDotReader::parse_subgraph() {
  const std::uint32_t b = sd_;
  std::uint32_t name = kNone;
  bool named = false;
  if (peek().kind == Tok::Subgraph) {
    take();
    push();
    if (peek_atom()) {
      name = parse_atom();
      named = true;
      pop(1);
    }
  } else {
    push(); // optsubghdr: empty
  }
  push(); // $@ (opensubg)
  open_subgraph(named ? name : kNone);
  if (!peek_char('{')) syntax(peek());
  take();
  push();
  parse_body();
  sd_ = b + 1; // body, subgraph
  close_subgraph();
}

void FastDotReader::start_graph(std::uint32_t name) {
  graph_open_ = true;
  if (name != kNone) {
    // agopen() interns the name in the graph's own pool, as plain text.
    if (strs_[name].html < 0) strs_[name].html = 0;
  }
  graphs_.clear();
  graphs_.emplace_back();
  graphs_[0].name = name;
  root_line_ = last_line_;
  levels_.resize(1);
  depth_ = 0;
  levels_[0].clear();
  levels_[0].g = 0;
}

void FastDotReader::open_subgraph(std::uint32_t name) {
  const std::uint32_t parent = top().g;
  std::uint32_t g = kNone;
  if (name != kNone) {
    if (std::uint32_t* hit = sub_by_name_.find(pair_key(parent, name))) g = *hit;
  }
  if (g == kNone) {
    g = static_cast<std::uint32_t>(graphs_.size());
    graphs_.emplace_back();
    GraphRec& r = graphs_.back();
    r.parent = parent;
    r.name = name;
    const std::size_t k = syms_[kGraph].size();
    r.gval.resize(k, 0);
    r.glocal.assign(k, 0);
    r.gline.assign(k, 0);
    for (std::uint32_t s = 0; s < k; ++s) r.gval[s] = graph_default(parent, s);
    graphs_[parent].children.push_back(g);
    if (name != kNone) sub_by_name_.insert(pair_key(parent, name), g);
  }
  ++depth_;
  if (levels_.size() <= depth_) levels_.emplace_back();
  levels_[depth_].clear();
  levels_[depth_].g = g;
}

void FastDotReader::close_subgraph() {
  const std::uint32_t g = top().g;
  levels_[depth_].clear();
  --depth_;
  top().subg = g;
}

/// getedgeitems(): the current node list or subgraph becomes an item.
void FastDotReader::edge_items() {
  Level& L = top();
  if (!L.nodelist.empty()) {
    EdgeItem it;
    it.begin = static_cast<std::uint32_t>(L.pool.size());
    L.pool.insert(L.pool.end(), L.nodelist.begin(), L.nodelist.end());
    it.end = static_cast<std::uint32_t>(L.pool.size());
    L.edgelist.push_back(it);
    L.nodelist.clear();
  } else if (L.subg != kNone) {
    EdgeItem it;
    it.sub = L.subg;
    L.edgelist.push_back(it);
    L.subg = kNone;
  }
}

std::uint32_t FastDotReader::declare(int kind, std::uint32_t name) {
  std::uint32_t s = find_sym(kind, name);
  if (s != kNone) return s;
  s = static_cast<std::uint32_t>(syms_[kind].size());
  syms_[kind].push_back(Sym{name, 0, model_code(kind, strs_.view(name))});
  if (sym_of_[kind].size() <= name) sym_of_[kind].resize(name + 1, kNone);
  sym_of_[kind][name] = s;
  if (strs_[name].html < 0) strs_[name].html = 0; // cgraph interns the name: plain
  return s;
}

/// Graph attribute default that a subgraph created in \p g starts from.
std::uint32_t FastDotReader::graph_default(std::uint32_t g, std::uint32_t s) const {
  for (;;) {
    const GraphRec& r = graphs_[g];
    if (r.parent == kNone) return s < r.gval.size() ? r.gval[s] : 0;
    if (s < r.glocal.size() && r.glocal[s]) return r.gval[s];
    g = r.parent;
  }
}

void FastDotReader::set_graph_attr(std::uint32_t g, std::uint32_t s, std::uint32_t v) {
  GraphRec& r = graphs_[g];
  if (r.gval.size() <= s) {
    r.gval.resize(s + 1, 0);
    r.glocal.resize(s + 1, 0);
    r.gline.resize(s + 1, 0);
  }
  r.gval[s] = v;
  r.glocal[s] = 1;
  r.gline[s] = last_line_;
}

/// Node/edge default of \p s in graph \p g (the dictionary view path).
std::uint32_t FastDotReader::object_default(int kind, std::uint32_t g, std::uint32_t s) const {
  for (;;) {
    const GraphRec& r = graphs_[g];
    if (r.parent == kNone) return syms_[kind][s].root_def;
    for (const auto& [k, v] : r.local_def[kind])
      if (k == s) return v;
    g = r.parent;
  }
}

std::uint32_t FastDotReader::new_snapshot(int kind, std::uint32_t g) {
  GraphRec& r = graphs_[g];
  std::vector<std::pair<std::uint32_t, std::uint32_t>> snap;
  for (std::uint32_t s = 0; s < syms_[kind].size(); ++s)
    if (std::uint32_t v = object_default(kind, g, s); v != 0) snap.emplace_back(s, v);
  std::uint32_t id;
  if (!snaps_[kind].empty() && snaps_[kind].back() == snap) {
    id = static_cast<std::uint32_t>(snaps_[kind].size() - 1);
  } else {
    id = static_cast<std::uint32_t>(snaps_[kind].size());
    snaps_[kind].push_back(std::move(snap));
  }
  r.snap[kind] = id;
  r.snap_version[kind] = version_[kind];
  return id;
}

/// cgraph's bindattrs(): every attribute name of the statement is declared
/// for \p kind (default ""), except an edge's `key`.
void FastDotReader::bind_attrs(int kind) {
  for (auto& [k, v] : top().attrs) {
    if (kind == kEdge && strs_.view(k) == "key") continue;
    if (find_sym(kind, k) != kNone) continue;
    declare(kind, k);
    if (kind == kGraph) set_graph_attr(top().g, find_sym(kind, k), 0);
  }
}

void FastDotReader::attr_stmt(int kind) {
  bind_attrs(kind);
  Level& L = top();
  const std::uint32_t g = L.g;
  for (auto& [k, v] : L.attrs) {
    if (kind == kEdge && strs_.view(k) == "key") continue;
    const std::uint32_t s = find_sym(kind, k);
    if (kind == kGraph) {
      set_graph_attr(g, s, v);
      continue;
    }
    if (g == 0) {
      syms_[kind][s].root_def = v;
    } else {
      auto& loc = graphs_[g].local_def[kind];
      auto it = std::find_if(loc.begin(), loc.end(), [&](const auto& p) { return p.first == s; });
      if (it != loc.end()) it->second = v;
      else loc.emplace_back(s, v);
    }
    ++version_[kind];
  }
  L.attrs.clear();
}

/// cgraph's agnode(S->g, name, TRUE) + appendnode().
void FastDotReader::append_node(std::uint32_t name, std::uint32_t port) {
  Level& L = top();
  std::uint32_t node = strs_[name].node;
  if (node == kNone) {
    node = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(NodeRec{name, last_line_, snapshot(kNode, L.g)});
    strs_[name].node = node;
  }
  add_member(L.g, node);
  L.nodelist.push_back(NodeRef{node, port});
}

void FastDotReader::end_node() {
  bind_attrs(kNode);
  Level& L = top();
  if (!L.attrs.empty()) room_for_sets(node_sets_);
  for (const NodeRef& r : L.nodelist)
    for (const auto& [k, v] : L.attrs) node_sets_.push_back(SetRec{r.node, find_sym(kNode, k), v, last_line_});
  L.clear();
}

const std::vector<std::uint32_t>& FastDotReader::sorted_members(std::uint32_t g) {
  GraphRec& r = graphs_[g];
  if (!r.members_sorted) {
    std::sort(r.members.begin(), r.members.end());
    r.members_sorted = true;
  }
  return r.members;
}

void FastDotReader::end_edge() {
  bind_attrs(kEdge);
  Level& L = top();
  std::uint32_t key = kNone;
  for (const auto& [k, v] : L.attrs)
    if (strs_.view(k) == "key") key = v;
  for (std::size_t i = 0; i + 1 < L.edgelist.size(); ++i) {
    const EdgeItem tail = L.edgelist[i];
    const EdgeItem head = L.edgelist[i + 1];
    auto each_head = [&](std::uint32_t t, std::uint32_t tport) {
      if (head.sub != kNone) {
        tmp_heads_ = sorted_members(head.sub);
        for (std::uint32_t h : tmp_heads_) new_edge(t, tport, h, kNone, key);
      } else {
        for (std::uint32_t j = head.begin; j < head.end; ++j) {
          const NodeRef h = top().pool[j];
          new_edge(t, tport, h.node, h.port, key);
        }
      }
    };
    if (tail.sub != kNone) {
      std::vector<std::uint32_t> tails = sorted_members(tail.sub);
      for (std::uint32_t t : tails) each_head(t, kNone);
    } else {
      for (std::uint32_t j = tail.begin; j < tail.end; ++j) {
        const NodeRef t = top().pool[j];
        each_head(t.node, t.port);
      }
    }
  }
  top().clear();
}

/// cgraph's agedge(S->g, t, h, key, TRUE) + newedge() of the grammar.
void FastDotReader::new_edge(std::uint32_t t, std::uint32_t tport, std::uint32_t h, std::uint32_t hport, std::uint32_t key) {
  std::uint32_t e = kNone;
  if (key != kNone) {
    auto it = keyed_.find(KeyedEdge{t, h, key});
    if (it != keyed_.end()) e = it->second;
  } else if (strict_) {
    if (std::uint32_t* hit = pair_edge_.find(pair_key(t, h))) e = *hit;
  }
  // An edge found again (by its key, or the pair in a strict graph) takes
  // the statement's attributes without their line: cgraph reports no update
  // for it, so an error in them names the line the edge was created on.
  const std::uint32_t line = e == kNone ? last_line_ : 0;
  if (e == kNone) {
    if (strict_ && pair_edge_.find(pair_key(t, h))) return; // a second edge in a strict graph
    e = static_cast<std::uint32_t>(edges_.size());
    edges_.push_back(EdgeRec{t, h, last_line_, snapshot(kEdge, top().g), key});
    if (strict_) pair_edge_.insert(pair_key(t, h), e);
    if (key != kNone) keyed_.emplace(KeyedEdge{t, h, key}, e);
  }
  if (tport != kNone) edge_set(e, declare(kEdge, tailport_), tport, line);
  if (hport != kNone) edge_set(e, declare(kEdge, headport_), hport, line);
  for (const auto& [k, v] : top().attrs) {
    const std::uint32_t s = find_sym(kEdge, k);
    if (s == kNone) continue; // key
    edge_set(e, s, v, line);
  }
}

/// \p line 0: no line of its own (resolve() keeps the one before).
void FastDotReader::edge_set(std::uint32_t e, std::uint32_t s, std::uint32_t v, std::uint32_t line) {
  room_for_sets(edge_sets_);
  edge_sets_.push_back(SetRec{e, s, v, line});
}

/// cgraph's second agread(): anything after the graph must be empty.
void FastDotReader::second_parse() {
  // Only blanks after the graph (the common case): the parse below would
  // scan them to the end and find no graph; skip building its reader (a
  // batch reads hundreds of small graphs).
  if (std::all_of(t_.begin() + static_cast<std::ptrdiff_t>(close_end_), t_.end(),
                  [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }))
    return;
  // A fresh parse from right after the graph's '}': new graph state, new
  // string pool, graph type unset (cgraph's aglexinit).
  FastDotReader second(t_, file_);
  second.allow_append_ = false;
  second.start_ = close_end_;
  second.line_ = close_line_;
  second.last_sig_line_ = close_line_;
  second.suffix_ = " (after the end of the graph)";
  bool more;
  try {
    more = second.parse_graph();
  } catch (ParseError& e) {
    throw InputError(file_, e.line, e.problem);
  }
  if (more)
    throw InputError(file_, second.lead_bom_line_ ? second.lead_bom_line_ : second.first_tok_.first_line,
                     "more than one graph in the input (one graph per file)");
}

/// Every kReportEvery bytes: searches the text read since the last call
/// for a NUL byte (NulSeen: a NUL anywhere is the error, whatever the
/// parser makes of the text), reports progress and gives back what is
/// more than 1 MiB behind the cursor.
void FastDotReader::report() {
  check_no_nul(pos_);
  if (progress_) (*progress_)(pos_, n_);
  if (release_ && pos_ > (std::size_t{1} << 20)) (*release_)(pos_ - (std::size_t{1} << 20));
  next_report_ = pos_ + kReportEvery;
}

} // namespace dot
} // namespace depreduce::formats
