//===- formats/src/dot/reader.hpp - The DOT reader's state and stages -----===//
///
/// \file
/// FastDotReader: the one-pass DOT reader behind formats::read_dot()
/// (formats/src/dot_reader.cpp), declared once and defined by stage, each
/// stage in a file of its own:
///  - scanner.cpp: bytes -> tokens (scan(), as cgraph's scan.l);
///  - parser.cpp: tokens -> records, performing cgraph's grammar actions
///    (lib/cgraph/grammar.y) at the points bison would: nodes, edges,
///    attribute assignments (object, attribute, value, line), subgraphs and
///    the attribute dictionaries;
///  - fast_path.cpp: the common statement of generated graphs, read without
///    tokens (SimpleScanner, fast_path.hpp) into the same records;
///  - to_model.cpp: records -> InputGraph, resolving each object's
///    attributes once and parsing the model attributes.
/// Everything runs on the calling thread. The records (below, "model") are
/// what the parser hands to the conversion.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_DOT_READER_HPP
#define DEPREDUCE_FORMATS_DOT_READER_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "dot/fast_path.hpp"
#include "dot/interner.hpp"
#include "dot/scanner.hpp"
#include "internal.hpp"

namespace depreduce::formats {
// Hidden: the stages call each other across files, never from outside the
// library; so, in a position-independent build, calls within a file may be
// inlined (none can be interposed).
namespace [[gnu::visibility("hidden")]] dot {

using detail::show;

/// bison's YYMAXDEPTH in cgraph's parser: the stack may hold 9,999 states.
constexpr std::uint32_t kMaxParserStack = 10000;

enum Kind : int { kGraph = 0, kNode = 1, kEdge = 2 };

// ---------------------------------------------------------------- model

struct Sym {
  std::uint32_t name;     ///< Interned name.
  std::uint32_t root_def; ///< Default in the root graph's dictionary.
  std::uint8_t model;     ///< Model attribute code (see model_code()).
};

/// 0: ordinary; node: 1 engine, 2 async, 3 barrier, 4 reads, 5 writes;
/// edge: 1 kind, 2 flags, 3 key; graph: 1 engines.
inline std::uint8_t model_code(int kind, std::string_view k) {
  if (kind == kNode) {
    if (k == "engine") return 1;
    if (k == "async") return 2;
    if (k == "barrier") return 3;
    if (k == "reads") return 4;
    if (k == "writes") return 5;
  } else if (kind == kEdge) {
    if (k == "kind") return 1;
    if (k == "flags") return 2;
    if (k == "key") return 3;
  } else if (k == "engines") {
    return 1;
  }
  return 0;
}

struct GraphRec {
  std::uint32_t parent = kNone;
  std::uint32_t name = kNone; ///< Interned name, kNone if anonymous.
  std::vector<std::uint32_t> gval;  ///< Graph attribute values by symbol ("" beyond the end).
  std::vector<std::uint8_t> glocal; ///< Symbol has a local definition here (root: always).
  std::vector<std::uint32_t> gline; ///< Line of the last assignment here (0: none).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> local_def[3]; ///< Node/edge defaults set here.
  std::vector<std::uint32_t> children;
  std::vector<std::uint32_t> members; ///< Nodes (also those of children), in insertion order.
  bool members_sorted = true;
  std::uint32_t snap[3] = {kNone, kNone, kNone};
  std::uint64_t snap_version[3] = {0, 0, 0};
};

struct NodeRec {
  std::uint32_t name, line, snap;
};
struct EdgeRec {
  std::uint32_t tail, head, line, snap, key;
};
/// One attribute assignment (cgraph's agxset) on a node or edge.
struct SetRec {
  std::uint32_t obj, sym, val, line;
};

struct NodeRef {
  std::uint32_t node, port; ///< port: interned text or kNone.
};
/// An item of an edge statement: a node list or a subgraph.
struct EdgeItem {
  std::uint32_t sub = kNone;   ///< Subgraph, or kNone for a node list.
  std::uint32_t begin = 0, end = 0; ///< Range of Level::pool for a node list.
};
/// cgraph's parser stack entry (gstack_t): one per open graph/subgraph.
struct Level {
  std::uint32_t g = 0;
  std::vector<NodeRef> nodelist;
  std::vector<NodeRef> pool;
  std::vector<EdgeItem> edgelist;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> attrs; ///< (name, value), as written.
  std::uint32_t subg = kNone;
  void clear() {
    nodelist.clear();
    pool.clear();
    edgelist.clear();
    attrs.clear();
    subg = kNone;
  }
};

/// Thrown by the scanner when an HTML string follows appended values.
struct RestartInterningValues {};
/// Thrown once the text read so far holds a NUL byte (FastDotReader::report()):
/// the rest need not be read, the NUL is the error.
struct NulSeen {};

class ParseError {
public:
  std::uint32_t line;
  std::string problem;
};

// ---------------------------------------------------------------- reader

class FastDotReader {
public:
  FastDotReader(std::string_view text, const std::string& file) : t_(text), n_(text.size()), file_(file) {}
  FastDotReader(const FastDotReader&) = delete;
  FastDotReader& operator=(const FastDotReader&) = delete;

  InputGraph run();

private:
  // ------------------------------------------------------------ scanner (scanner.cpp)
  const char* s() const { return t_.data(); }

  Token scan();

  std::uint32_t count_newlines(std::size_t b, std::size_t e) const;

  void skip_to_eol();

  Token begin_token(Tok k) const;
  Token finish(Token tok);
  Token char_token(char c);
  Token eof_token(EofState st, std::uint32_t open) const;

  /// NUMBER [-]?((DIGIT+(.DIGIT*)?)|(.DIGIT+))(.|LETTER)? starts at \p i.
  bool number_ahead(std::size_t i) const;

  Token scan_number();

  Token scan_qstring();

  Token scan_hstring();

  /// Interns a token's text; inside the graph, its first appearance decides
  /// whether the text is HTML (cgraph's agstrdup / agstrdup_html).
  std::uint32_t intern_token(std::string_view w, bool copy, bool html) { return first_seen_as(strs_.intern(w, copy), html); }
  /// \p id, whose HTML-ness is decided here if this is its first appearance in the graph.
  std::uint32_t first_seen_as(std::uint32_t id, bool html) {
    if (graph_open_ && strs_[id].html < 0) strs_[id].html = html ? 1 : 0;
    return id;
  }
  std::uint32_t intern_plain(std::string_view w, bool copy) { return intern_token(w, copy, false); }

  // ------------------------------------------------------------ tokens for the parser
  const Token& peek() {
    if (!have_) {
      cur_ = scan();
      have_ = true;
    }
    return cur_;
  }
  const Token& take() {
    peek();
    if (pos_ >= next_report_) report();
    have_ = false;
    last_line_ = cur_.last_line;
    return cur_;
  }
  bool peek_char(char c) {
    const Token& t = peek();
    return t.kind == Tok::Char && t.ch == c;
  }
  bool peek_atom() {
    Tok k = peek().kind;
    return k == Tok::Atom || k == Tok::QAtom;
  }

  /// One more state on bison's stack.
  void push(std::uint32_t k = 1) {
    sd_ += k;
    if (sd_ >= kMaxParserStack) exhausted();
  }
  void pop(std::uint32_t k) { sd_ -= k; }

  // ------------------------------------------------------------ errors (parser.cpp)
  std::string token_text(const Token& t) const;

  /// cgraph's message for an error at \p t (aagerror), without the line.
  std::string cgraph_problem(const std::string& what, const Token& t) const;

  /// Line of an error cgraph reports with no graph open: the first token of
  /// the parse, or the one after a leading `strict`; but the line of the
  /// parse's first byte-order mark standing alone, if one was skipped before
  /// the graph opened (measured on cgraph 2.42: corpus/fuzz_dot_reader_diff/regress-bom-*).
  std::uint32_t no_graph_line(bool* at_end) const;
  std::uint32_t end_line(const Token& eof) const;

  [[noreturn]] void fail_at(const Token& t, const std::string& what);
  [[noreturn]] void syntax(const Token& t) { fail_at(t, "syntax error"); }
  [[noreturn]] void exhausted();
  Token peek_copy() { return have_ ? cur_ : Token{}; }

  // ------------------------------------------------------------ grammar (parser.cpp)
  /// Returns false for an empty input (cgraph's `graph: /* empty */`).
  bool parse_graph();

  /// After '{' (on the stack): statements, then '}'.
  void parse_body();

  /// Gives back the token parse_stmt() read ahead when its statement had no
  /// ';', if it is an ID (a name, number or quoted string; not an HTML
  /// string, whose scan may restart the read), so that the
  /// statement it opens can go through simple_stmt(): without this, every
  /// statement after one such is read the general way (have_ stays true).
  /// The scanner stands at the token's first byte, on its line, as if it
  /// had not been read; the text stays interned (scan() interned it, and
  /// whichever path reads it next interns it first). The white space and
  /// comments before it are not read again.
  void unpeek_id();

  /// A statement; leaves one state (stmt) on the stack.
  void parse_stmt();

  // ------------------------------------------------------------ the common statement, in one pass (fast_path.cpp)
  // (SimpleScanner above: the shape; apply_simple(): the actions.)

  /// A simple statement scanned ahead of the parser (top_up()).
  struct Ahead {
    std::size_t start;        ///< pos_ before the statement.
    std::uint32_t start_line; ///< line_ there.
    SimpleShape shape;
    SimpleId ids[kSimpleMaxIds];
    std::uint64_t hash[kSimpleMaxIds]; ///< hash_bytes() of each ID that apply_simple() may intern.
  };

  /// Called between statements with no token peeked; returns true if it
  /// read a whole simple statement (the stmt state left on the stack, as
  /// parse_stmt() leaves it), false having changed nothing. Once the
  /// interner's table is large, statements are scanned ahead (Ahead below,
  /// top_up()).
  bool simple_stmt();
  /// simple_stmt() with the statements scanned ahead.
  [[gnu::noinline]] bool simple_stmt_ahead();

  /// Interner::prefetch_entry() for the node names of \p a (all hashed by top_up()).
  void prefetch_names(const Ahead& a, bool text) const;

  /// Scans statements after the last one scanned until kLookahead are
  /// ahead of the parser or one is not simple. Each one's names are hashed
  /// and their interner slots prefetched: with 10^6 names every lookup
  /// misses the caches, and this way the misses of the next statements
  /// overlap the work on this one.
  [[gnu::noinline]] void top_up();

  /// The interned id of a simple statement's ID \p k, with its hash from
  /// \p hash if given (top_up()).
  [[gnu::always_inline]] std::uint32_t intern_id(const SimpleId* ids, const std::uint64_t* hash, std::uint32_t k);

  /// The id of a long value (kShortValueMax) of a simple statement:
  /// appended while no HTML string has been read, else interned.
  std::uint32_t long_value(std::string_view value);
  /// An attribute assignment of a simple statement: symbol and value ids.
  struct SymValue {
    std::uint32_t sym, value; // no initialisers: a stack array per statement
  };

  /// What parse_stmt() does with the simple statement \p shape describes
  /// (\p ids: its IDs, SimpleShape; \p hash: their hashes, or nullptr),
  /// starting at pos_ / line_. False, having changed nothing, where the
  /// parser stack would be exhausted (the general path reports it).
  [[gnu::always_inline]] bool apply_simple(const SimpleId* ids, const SimpleShape& shape, const std::uint64_t* hash);
  /// append_node() without the node list: the node of \p name (created if new).
  [[gnu::always_inline]] std::uint32_t simple_node(std::uint32_t name);
  std::string_view view(const SimpleId& id) const { return std::string_view(t_.data() + id.b, id.e - id.b); }

  // ------------------------------------------------------------ grammar, continued (parser.cpp)
  /// After `simple` (one state): rcompound, optattr, then the compound's action.
  void compound_rest();

  /// One or more `[ ... ]`; leaves one state (attrlist / optattr).
  void parse_attrlists();

  /// atom: T_atom | qatom ('+' T_qatom)*; leaves one state. Returns the text.
  std::uint32_t parse_atom();

  /// The rest of `node: atom (':' atom (':' atom)?)?` after its first atom
  /// (one state on the stack, left there), then cgraph's appendnode().
  void parse_node_rest(std::uint32_t name);

  /// subgraph: optsubghdr {opensubg} body; leaves one state.
  void parse_subgraph();

  // ------------------------------------------------------------ cgraph's actions (parser.cpp)
  Level& top() { return levels_[depth_]; }

  void start_graph(std::uint32_t name);

  void open_subgraph(std::uint32_t name);

  void close_subgraph();

  /// getedgeitems(): the current node list or subgraph becomes an item.
  void edge_items();

  // Attribute symbols.
  std::uint32_t find_sym(int kind, std::uint32_t name) const {
    return name < sym_of_[kind].size() ? sym_of_[kind][name] : kNone;
  }
  std::uint32_t declare(int kind, std::uint32_t name);

  /// Graph attribute default that a subgraph created in \p g starts from.
  std::uint32_t graph_default(std::uint32_t g, std::uint32_t s) const;
  void set_graph_attr(std::uint32_t g, std::uint32_t s, std::uint32_t v);
  /// Node/edge default of \p s in graph \p g (the dictionary view path).
  std::uint32_t object_default(int kind, std::uint32_t g, std::uint32_t s) const;
  /// The defaults a node/edge created in \p g starts with (non-empty ones).
  [[gnu::always_inline]] std::uint32_t snapshot(int kind, std::uint32_t g) {
    const GraphRec& r = graphs_[g];
    if (r.snap[kind] != kNone && r.snap_version[kind] == version_[kind]) return r.snap[kind];
    return new_snapshot(kind, g);
  }
  std::uint32_t new_snapshot(int kind, std::uint32_t g);

  /// cgraph's bindattrs(): every attribute name of the statement is declared
  /// for \p kind (default ""), except an edge's `key`.
  void bind_attrs(int kind);

  void attr_stmt(int kind);

  bool in_graph(std::uint32_t g, std::uint32_t node) {
    return g == 0 || membership_.find(pair_key(g, node)) != nullptr;
  }
  void add_member(std::uint32_t g, std::uint32_t node) {
    while (g != 0 && !in_graph(g, node)) {
      membership_.insert(pair_key(g, node), 1);
      GraphRec& r = graphs_[g];
      if (!r.members.empty() && r.members.back() > node) r.members_sorted = false;
      r.members.push_back(node);
      g = r.parent;
    }
  }

  /// cgraph's agnode(S->g, name, TRUE) + appendnode().
  void append_node(std::uint32_t name, std::uint32_t port);

  void end_node();

  const std::vector<std::uint32_t>& sorted_members(std::uint32_t g);

  void end_edge();

  /// cgraph's agedge(S->g, t, h, key, TRUE) + newedge() of the grammar.
  void new_edge(std::uint32_t t, std::uint32_t tport, std::uint32_t h, std::uint32_t hport, std::uint32_t key);
  /// \p line 0: no line of its own (resolve() keeps the one before).
  void edge_set(std::uint32_t e, std::uint32_t s, std::uint32_t v, std::uint32_t line);
  /// Room, at the first attribute assignment, for what a generated graph of
  /// this size holds (a matmul: 4 assignments of about 64 bytes a node
  /// statement), so the array is not copied while it grows; a graph with no
  /// attributes (the 20k DAG) maps none of it: with huge pages, room
  /// reserved but never written is still memory the kernel zeroes once a
  /// neighbour touches its 2 MiB.
  void room_for_sets(std::vector<SetRec>& sets) {
    if (sets.capacity() == 0) sets.reserve(n_ / 48);
  }

  // ------------------------------------------------------------ after the graph (parser.cpp)
  /// cgraph's second agread(): anything after the graph must be empty.
  void second_parse();

  // ------------------------------------------------------------ conversion to the model (to_model.cpp)
  std::string value_text(std::uint32_t v) const;
  std::string graph_name(std::uint32_t name) const;
  std::string sym_name(int kind, std::uint32_t s) const { return std::string(strs_.view(syms_[kind][s].name)); }

  [[noreturn]] void fail(std::uint32_t line, std::string problem) const { throw InputError(file_, line, std::move(problem)); }

  /// The text of value \p v without a copy (HTML values: "<text>", built in \p html).
  std::string_view value_view(std::uint32_t v, std::string& html) const;

  /// \p k: the attribute's symbol (its name is only needed for a message).
  void node_model_attr(Node& node, std::uint8_t code, std::uint32_t k, std::string_view v, std::uint32_t line) const;

  /// Groups \p sets by object (stable: later assignments last), into \p out
  /// (\p sets is moved there when it is grouped already, the usual case:
  /// each object's attributes come with its statement, in object order).
  static void group(std::vector<SetRec>& sets, std::size_t objects, std::vector<std::uint32_t>& start,
                    std::vector<SetRec>& out);

  /// The attribute resolution's scratch for one kind of object (nodes or
  /// edges): convert_nodes() and convert_edges() each have their own.
  struct ResolveScratch {
    std::vector<std::uint32_t> stamp, val, line_of, touched, nonempty_default;
    std::uint32_t now = 0;
  };

  /// Resolves the attributes of one object: its creation defaults, then its
  /// assignments in order. Calls \p emit(sym, value, line) for the symbols
  /// that are set or whose root default is not "", in symbol order. Reads
  /// the reader's state, writes only \p x (prepare_kind(kind, x) first).
  template <class Emit>
  void resolve(int kind, ResolveScratch& x, std::uint32_t snap, const SetRec* b, const SetRec* e, Emit&& emit) const;

  void prepare_kind(int kind, ResolveScratch& x) const;

  /// The node assignments grouped by node: node i's are
  /// sets[start[i] .. start[i + 1]).
  struct GroupedSets {
    std::vector<std::uint32_t> start;
    std::vector<SetRec> sets;
  };

  /// Fills \p node, default-constructed, as the InputGraph's node \p i: its
  /// name, line, and attributes resolved (the model's parsed, the rest
  /// verbatim); InputError for a bad model value. Reads the reader's records
  /// and \p g; writes only \p node, \p x and \p html (value_view()'s scratch).
  void build_node(Node& node, std::uint32_t i, const GroupedSets& g, ResolveScratch& x, std::string& html) const;

  /// The InputGraph's nodes, in creation order (build_node()). Consumes node_sets_; touches nothing convert_edges() does.
  void convert_nodes(std::vector<Node>& nodes);

  /// The InputGraph's edges, as written, with their attributes resolved.
  /// Reads the reader's records and consumes edge_sets_; touches nothing
  /// convert_nodes() does (messages name nodes by their interned names).
  void convert_edges(std::vector<Edge>& edges);

  InputGraph convert();

  std::vector<Subgraph> convert_subgraphs(std::uint32_t parent);

  struct KeyedEdge {
    std::uint32_t t, h, key;
    bool operator==(const KeyedEdge& o) const { return t == o.t && h == o.h && key == o.key; }
  };
  struct KeyedHash {
    std::size_t operator()(const KeyedEdge& k) const noexcept {
      return std::hash<std::uint64_t>()(pair_key(k.t, k.h) * 31 + k.key);
    }
  };

public:
  /// Called with (bytes read, total) about every 4 MiB and once at the end.
  const std::function<void(std::size_t, std::size_t)>* progress_ = nullptr;
  /// Called with the bytes before which the reader needs no text (1 MiB
  /// behind the cursor, every 4 MiB): a mapped input's pages can go back.
  /// Strings of simple statements are then copied (copy_), so the rest of
  /// the read does not bring those pages back.
  const std::function<void(std::size_t)>* release_ = nullptr;
  bool copy_ = false;
  /// May simple_stmt() append long attribute values instead of interning
  /// them? False for the second parse and for a read restarted by an HTML string.
  bool allow_append_ = true;
  /// Scan ahead once the interner's table has this many slots (detail::DotReadTuning).
  std::size_t lookahead_from_ = detail::DotReadTuning{}.lookahead_table_slots;
  std::size_t* simple_read_ = nullptr;

private:
  /// Every kReportEvery bytes: searches the text read since the last call
  /// for a NUL byte (NulSeen: a NUL anywhere is the error, whatever the
  /// parser makes of the text), reports progress and gives back what is
  /// more than 1 MiB behind the cursor.
  void report();
  /// Throws NulSeen if the text before \p upto holds a NUL byte; searches
  /// only what no earlier call did.
  void check_no_nul(std::size_t upto) {
    if (upto <= nul_checked_) return;
    if (std::memchr(s() + nul_checked_, 0, upto - nul_checked_)) throw NulSeen{};
    nul_checked_ = upto;
  }
  std::size_t nul_checked_ = 0; ///< The text before it holds no NUL byte.
  static constexpr std::size_t kReportEvery = std::size_t{4} << 20;
  std::size_t next_report_ = kReportEvery;
  // Input and scanner.
  std::string_view t_;
  std::size_t n_;
  const std::string& file_;
  SimpleScanner scanner_{t_};
  /// Simple statements scanned ahead of the parser (simple_stmt(), top_up()):
  /// a ring of kLookahead, ahead_count_ of them from ahead_head_; the next
  /// scan starts at ahead_next_ unless ahead_stopped_ (the statement there
  /// is not simple).
  static constexpr std::uint32_t kLookahead = 8;
  std::unique_ptr<Ahead[]> ahead_;
  std::uint32_t ahead_head_ = 0, ahead_count_ = 0;
  bool ahead_stopped_ = false;
  std::size_t ahead_next_ = 0;
  std::uint32_t ahead_next_line_ = 0;
  std::size_t start_ = 0;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  Tok graph_type_ = Tok::Eof;
  bool graph_open_ = false;
  std::string scratch_;
  std::string eof_buffer_;
  Token cur_;
  bool have_ = false;
  std::size_t simple_statements_ = 0; ///< Read by simple_stmt() (DotReadTuning::simple_read).
  Token first_tok_, after_strict_;
  std::uint32_t last_line_ = 1;
  std::uint32_t last_sig_line_ = 1;
  std::uint32_t bom_line_ = 0; ///< Line of the parse's first byte-order mark standing alone before its graph opens, or 0.
  std::uint32_t lead_bom_line_ = 0; ///< The same, before the parse's first token (the line of "more than one graph").
  bool any_token_ = false;          ///< finish() has made a token in this parse.
  std::uint32_t sd_ = 0;
  std::string suffix_;
  std::size_t close_end_ = 0;
  std::uint32_t close_line_ = 1;

  // Graph state.
  Interner strs_;
  bool strict_ = false;
  bool directed_ = true;
  std::uint32_t root_line_ = 0;
  std::vector<GraphRec> graphs_;
  std::vector<Level> levels_;
  std::uint32_t depth_ = 0;
  std::vector<Sym> syms_[3];
  std::vector<std::uint32_t> sym_of_[3]; ///< Interned name -> its attribute symbol per kind, or kNone.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> snaps_[3];
  std::uint64_t version_[3] = {1, 1, 1};
  std::vector<NodeRec> nodes_;
  std::vector<EdgeRec> edges_;
  std::vector<SetRec> node_sets_, edge_sets_;
  FlatMap64 membership_, pair_edge_, sub_by_name_;
  std::unordered_map<KeyedEdge, std::uint32_t, KeyedHash> keyed_;
  std::uint32_t tailport_ = strs_.intern("tailport", false);
  std::uint32_t key_ = strs_.intern("key", false);
  /// simple_stmt() may append long values (run(): allow_append_); whether it
  /// did (an HTML string then restarts the read).
  bool no_html_ = false;
  bool appended_ = false;
  bool seen_html_ = false; ///< An HTML string was read: values are interned from then on.
  std::string_view prev_first_;       ///< The first ID of the last simple statement,
  std::uint32_t prev_first_id_ = 0;   ///< and its id.
  std::uint32_t headport_ = strs_.intern("headport", false);
  std::vector<std::uint32_t> tmp_heads_;
  // Conversion scratch.
  std::vector<std::uint32_t> mark_;
  std::uint32_t mark_now_ = 0;
};

} // namespace dot
} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_DOT_READER_HPP
