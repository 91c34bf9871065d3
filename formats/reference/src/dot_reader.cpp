//===- formats/reference/src/dot_reader.cpp - DOT through cgraph ---------===//
///
/// \file
/// reference::read_dot(): the reference twin of formats::read_dot(). The text
/// is parsed by Graphviz's own parser (cgraph, the one `dot` uses), then the
/// cgraph graph is converted into an InputGraph.
///
/// cgraph keeps global state (a flex scanner, a bison parser, an error
/// channel), so:
///  - every call holds one process-wide mutex;
///  - the scanner is reset before and after every parse (`aaglex_destroy`),
///    so a parse that stopped inside a comment or string, or left text after
///    the graph, cannot leak into the next one;
///  - errors go to cgraph's message file (agseterr(AGMAX)) and are read back
///    with aglasterr(); cgraph 2.42's user-callback path (agseterrf) formats
///    messages over 1 KiB from a consumed va_list, which we must avoid.
///
/// Line numbers: cgraph records none, and the line it prints in syntax errors
/// is unreliable (it does not count most newlines inside quoted strings and it
/// obeys `#line` directives). Every line we report is a physical line of the
/// text, computed by us. We give the scanner the whole text as one in-memory
/// buffer (`aag_scan_buffer`), so the scanner's current token (`aagtext`) is a
/// pointer into our copy of the text. A callback discipline pushed when cgraph
/// opens a root graph sees every node/edge creation and every attribute
/// assignment. At that moment the parser has either read one token of
/// lookahead (`aagchar` holds it), so the object's statement ends at the
/// significant text just before that token, or none (`aagchar` is bison's
/// YYEMPTY), so the statement ends with the token just read. On a syntax error
/// the parser's error rule closes the graph before it reads another token; the
/// callback for that deletion sees the offending token. `SignificantRuns`
/// turns offsets into lines.
//===----------------------------------------------------------------------===//
#include <graphviz/cgraph.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/formats/reference/wfjson_reader.hpp"
#include "../../src/internal.hpp"

// Symbols of cgraph's flex scanner (prefix "aag"). They are exported by
// libcgraph but not declared in cgraph.h. Flex >= 2.5.33 (Debian's 2.6.4)
// declares yy_scan_buffer(char*, yy_size_t) with yy_size_t = size_t.
extern "C" {
struct yy_buffer_state;
yy_buffer_state* aag_scan_buffer(char* base, std::size_t size);
int aaglex_destroy(void);
extern char* aagtext;
extern int aagchar; // the bison parser's lookahead token
}

namespace depreduce::formats::reference {
namespace {

using detail::show;

std::mutex g_cgraph_mutex;

/// bison's value of the lookahead token (`aagchar`) when none has been read.
constexpr int kNoLookahead = -2; // YYEMPTY
/// ... and when the lookahead is the end of the input.
constexpr int kEndOfInput = 0; // YYEOF

bool is_id_char(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u >= 0x80;
}

/// Significant stretches of DOT text (tokens and runs of adjacent tokens),
/// separated by whitespace and comments; quoted and HTML strings are runs of
/// their own (they may span lines). Approximates cgraph's scanner for line
/// numbers only: it never influences what is parsed.
class SignificantRuns {
public:
  explicit SignificantRuns(std::string_view t) : lines_(t) {
    std::size_t i = 0;
    std::uint32_t line = 1;
    const std::size_t n = t.size();
    auto push = [&](std::size_t s, std::size_t e, std::uint32_t l0, std::uint32_t l1, bool str) {
      runs_.push_back(Run{s, e, l0, l1, str});
    };
    while (i < n) {
      char c = t[i];
      if (c == '\n') { ++line; ++i; continue; }
      if (c == ' ' || c == '\t' || c == '\r') { ++i; continue; }
      if (c == '/' && i + 1 < n && t[i + 1] == '*') {
        std::uint32_t l0 = line;
        i += 2;
        while (i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/')) {
          if (t[i] == '\n') ++line;
          ++i;
        }
        if (i >= n) unterminated_line_ = l0;
        i = std::min(n, i + 2);
        continue;
      }
      if ((c == '/' && i + 1 < n && t[i + 1] == '/') || c == '#') {
        while (i < n && t[i] != '\n') ++i;
        continue;
      }
      if (c == '"') {
        std::size_t s = i;
        std::uint32_t l0 = line;
        ++i;
        while (i < n && t[i] != '"') {
          if (t[i] == '\\' && i + 1 < n) {
            if (t[i + 1] == '\n') ++line;
            i += 2;
            continue;
          }
          if (t[i] == '\n') ++line;
          ++i;
        }
        if (i >= n) unterminated_line_ = l0;
        i = std::min(n, i + 1);
        push(s, i, l0, line, true);
        continue;
      }
      if (c == '<') {
        std::size_t s = i;
        std::uint32_t l0 = line;
        int nest = 1;
        ++i;
        while (i < n && nest > 0) {
          if (t[i] == '<') ++nest;
          else if (t[i] == '>') --nest;
          else if (t[i] == '\n') ++line;
          ++i;
        }
        if (nest > 0) unterminated_line_ = l0;
        push(s, i, l0, line, true);
        continue;
      }
      std::size_t s = i;
      while (i < n) {
        char d = t[i];
        if (d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == '"' || d == '<' || d == '#') break;
        if (d == '/' && i + 1 < n && (t[i + 1] == '*' || t[i + 1] == '/')) break;
        ++i;
      }
      push(s, i, line, line, false);
    }
  }

  /// Line on which the significant text before the token at \p offset ends
  /// (\p offset = start of a token, or the closing quote/bracket of a
  /// string token). 0 if unknown.
  std::uint32_t line_before(std::size_t offset) const {
    if (runs_.empty()) return 0;
    auto it = std::upper_bound(runs_.begin(), runs_.end(), offset,
                               [](std::size_t off, const Run& r) { return off < r.start; });
    if (it == runs_.begin()) return runs_.front().first_line;
    std::size_t r = static_cast<std::size_t>(it - runs_.begin()) - 1;
    const Run& run = runs_[r];
    if (offset >= run.end) return run.last_line; // between runs (e.g. at the end)
    if (!run.is_string && offset > run.start) return run.first_line;
    return r > 0 ? runs_[r - 1].last_line : run.first_line;
  }

  /// Line of the byte at \p offset (the physical line, whatever the token).
  std::uint32_t line_of(std::size_t offset) const { return lines_.line_of(offset); }

  /// Offset of the first significant byte at or after \p offset (skipping
  /// blanks and comments), or npos if there is none.
  std::size_t next_significant(std::size_t offset) const {
    auto it = std::upper_bound(runs_.begin(), runs_.end(), offset,
                               [](std::size_t off, const Run& r) { return off < r.end; });
    if (it == runs_.end()) return std::string_view::npos;
    return it->start >= offset || it->is_string ? it->start : offset;
  }

  /// Line of the end of the last significant text (1 if there is none).
  std::uint32_t last_line() const { return runs_.empty() ? 1 : runs_.back().last_line; }

  /// Start line of a string or comment still open at the end of the text, else 0.
  std::uint32_t unterminated_line() const { return unterminated_line_; }

private:
  struct Run {
    std::size_t start, end;
    std::uint32_t first_line, last_line;
    bool is_string;
  };
  detail::LineMap lines_;
  std::vector<Run> runs_;
  std::uint32_t unterminated_line_ = 0;
};

struct PairHash {
  std::size_t operator()(const std::pair<const void*, int>& p) const noexcept {
    return std::hash<const void*>()(p.first) * 31u + static_cast<std::size_t>(p.second);
  }
};

/// What the cgraph callbacks record during one parse.
struct ParseContext {
  const char* base = nullptr; ///< Our copy of the text, scanned in place by flex.
  std::size_t size = 0;
  const SignificantRuns* runs = nullptr;
  Agraph_t* root = nullptr; ///< The first root graph opened (later ones are ignored).
  std::unordered_map<const void*, std::uint32_t> created_line;
  /// Names starting with '%', taken at creation: cgraph keeps such names in an
  /// internal map that it clears when the graph is complete, after which
  /// agnameof() prints "%<id>" instead.
  std::unordered_map<const void*, std::string> percent_names;
  std::unordered_map<std::pair<const void*, int>, std::uint32_t, PairHash> attr_line;
  /// True while agread() runs (not while our own agclose() calls run).
  bool parsing = false;
  /// Where the parser stopped on a syntax error: the offset of the offending
  /// token (`size` for the end of the input); npos if no graph was open then.
  std::size_t error_at = std::string_view::npos;

  /// Offset of the scanner's current token in our text, npos if it is not in it.
  std::size_t token_offset() const {
    const char* p = aagtext;
    if (!p || p < base || p > base + size) return std::string_view::npos;
    return static_cast<std::size_t>(p - base);
  }

  /// Line on which the statement being reduced ends.
  std::uint32_t current_line() const {
    std::size_t at = token_offset();
    if (!runs || at == std::string_view::npos) return 0;
    // No lookahead: the statement ends with the token just read (for a
    // string token, aagtext is its closing quote or bracket).
    if (aagchar == kNoLookahead && at < size) return runs->line_of(at);
    return runs->line_before(at);
  }
};

ParseContext* g_ctx = nullptr; // guarded by g_cgraph_mutex

const void* key_of(Agobj_t* obj) {
  if (AGTYPE(obj) == AGINEDGE || AGTYPE(obj) == AGOUTEDGE)
    return AGMKOUT(reinterpret_cast<Agedge_t*>(obj));
  return obj;
}

extern "C" void on_insert(Agraph_t* g, Agobj_t* obj, void* state) {
  auto* ctx = static_cast<ParseContext*>(state);
  if (!ctx || agroot(g) != ctx->root) return;
  const void* key = key_of(obj);
  ctx->created_line.emplace(key, ctx->current_line());
  if (const char* name = agnameof(obj); name && name[0] == '%') ctx->percent_names.emplace(key, name);
}

extern "C" void on_update(Agraph_t* g, Agobj_t* obj, void* state, Agsym_t* sym) {
  auto* ctx = static_cast<ParseContext*>(state);
  if (!ctx || !sym || agroot(g) != ctx->root) return;
  // cgraph also reports every declaration of a node or edge attribute
  // (`node [...]`, `edge [...]`, an attribute name seen for the first time) as
  // an update of the graph with that node/edge symbol. Symbol ids are per
  // kind, so such an update must not be taken for the graph attribute with
  // the same id.
  int type = AGTYPE(obj) == AGINEDGE ? AGOUTEDGE : AGTYPE(obj);
  if (sym->kind != type) return;
  ctx->attr_line[{key_of(obj), sym->id}] = ctx->current_line();
}

/// A root graph closed while parsing: only the parser's error rule does that,
/// right after the error, before reading another token.
extern "C" void on_delete(Agraph_t* g, Agobj_t* obj, void* state) {
  auto* ctx = static_cast<ParseContext*>(state);
  if (!ctx || !ctx->parsing || ctx->error_at != std::string_view::npos) return;
  if (AGTYPE(obj) != AGRAPH || reinterpret_cast<Agraph_t*>(obj) != agroot(g)) return;
  std::size_t at = ctx->token_offset();
  // At the end of the input, unless the end is cgraph's end-of-graph token '@'
  // (aagtext then points at it; flex never overwrites a token's first byte).
  if (at == std::string_view::npos || at >= ctx->size || (aagchar == kEndOfInput && ctx->base[at] != '@'))
    at = ctx->size;
  ctx->error_at = at;
}

Agcbdisc_t g_callbacks = {
    {on_insert, on_update, on_delete},
    {on_insert, on_update, nullptr},
    {on_insert, on_update, nullptr},
};

Agiddisc_t g_id_disc; // AgIdDisc with our open(); filled on first use.

extern "C" void* id_open(Agraph_t* g, Agdisc_t* disc) {
  void* state = AgIdDisc.open(g, disc);
  if (g_ctx) {
    // Objects of the first root only are recorded; a later root (a second
    // graph in the file) is watched for the line of a syntax error.
    if (!g_ctx->root) g_ctx->root = g;
    agpushdisc(g, &g_callbacks, g_ctx);
  }
  return state;
}

extern "C" int no_read(void*, char*, int) { return 0; } // flex reads our buffer, never this.

Agiodisc_t g_io_disc = {no_read, nullptr, nullptr};

/// Turns cgraph's message ("syntax error in line 3 near 'x'\n") into cgraph's
/// line and a problem ("syntax error near 'x'").
std::pair<std::uint32_t, std::string> split_cgraph_message(std::string msg) {
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.pop_back();
  for (char& c : msg)
    if (c == '\n') c = ' ';
  std::uint32_t line = 0;
  static const std::string kMark = " in line ";
  std::size_t at = msg.find(kMark);
  if (at != std::string::npos) {
    std::size_t d = at + kMark.size(), e = d;
    while (e < msg.size() && msg[e] >= '0' && msg[e] <= '9') ++e;
    if (auto v = detail::parse_uint(std::string_view(msg).substr(d, e - d), UINT32_MAX)) {
      line = static_cast<std::uint32_t>(*v);
      msg.erase(at, e - at);
    }
  }
  if (msg.empty()) msg = "syntax error";
  return {line, msg};
}

/// Holds the parse state and resets cgraph's globals on every exit path.
class CgraphSession {
public:
  CgraphSession() : lock_(g_cgraph_mutex) {
    if (!g_id_disc.open) {
      g_id_disc = AgIdDisc;
      g_id_disc.open = id_open;
    }
    aaglex_destroy();
    agsetfile(nullptr);
    agreadline(1);
    old_level_ = agseterr(AGMAX); // no printing; messages go to aglasterr()
    old_errf_ = agseterrf(nullptr);
    agreseterrors();
  }
  ~CgraphSession() {
    for (Agraph_t* g : open_)
      if (g) agclose(g);
    aaglex_destroy(); // forget the pointer into our buffer
    agreseterrors();
    agseterr(old_level_);
    agseterrf(old_errf_);
    g_ctx = nullptr;
  }
  CgraphSession(const CgraphSession&) = delete;
  CgraphSession& operator=(const CgraphSession&) = delete;

  Agraph_t* keep(Agraph_t* g) { open_.push_back(g); return g; }

  /// The last cgraph message if the parse reported an error, else "".
  static std::string last_error() {
    if (agerrors() < AGERR) return {};
    std::string out;
    if (char* m = aglasterr()) {
      out = m;
      std::free(m);
    }
    if (out.empty()) out = "syntax error";
    return out;
  }

private:
  std::lock_guard<std::mutex> lock_;
  agerrlevel_t old_level_;
  agusererrf old_errf_;
  std::vector<Agraph_t*> open_;
};

/// Where the syntax error of the agread() that started at \p start is: its
/// line, and whether the parser ran out of input (the file ends inside a graph).
struct ErrorPlace {
  std::uint32_t line;
  bool at_end;
};
ErrorPlace error_place(const ParseContext& ctx, std::string_view text, std::size_t start) {
  const SignificantRuns& runs = *ctx.runs;
  auto at_end = [&]() { return runs.unterminated_line() ? runs.unterminated_line() : runs.last_line(); };
  std::size_t at = ctx.error_at;
  if (at == std::string_view::npos) {
    // No graph was open: the error is at the first token, or at the one after
    // a leading `strict` (keywords are case-insensitive; right after
    // `graph`/`digraph`, cgraph opens the graph whatever follows).
    at = runs.next_significant(start);
    if (at != std::string_view::npos && detail::lower(text.substr(at, 6)) == "strict" &&
        (at + 6 >= text.size() || !is_id_char(text[at + 6])))
      at = runs.next_significant(at + 6);
    if (at == std::string_view::npos) at = text.size();
  }
  if (at >= text.size()) return {at_end(), true};
  return {runs.line_of(at), false};
}

/// The InputError for cgraph message \p err at \p place; \p suffix is added
/// to the problem. A syntax error at the end of the input says so.
InputError syntax_error(const std::string& file, ErrorPlace place, const std::string& err, const std::string& suffix) {
  std::string problem = split_cgraph_message(err).second;
  if (place.at_end && problem.rfind("syntax error", 0) == 0)
    problem = detail::end_of_file_problem(problem);
  return InputError(file, place.line, detail::with_byte_order_mark_hint(std::move(problem)) + suffix);
}

/// The name of \p obj as written in the input (see ParseContext::percent_names).
std::string name_of(const ParseContext& ctx, void* obj) {
  if (auto it = ctx.percent_names.find(key_of(static_cast<Agobj_t*>(obj))); it != ctx.percent_names.end())
    return it->second;
  const char* n = agnameof(obj);
  return n && n[0] != '%' ? n : "";
}

/// Graph/subgraph names: anonymous ones are printed "%<digits>" -> "".
std::string graph_name(const ParseContext& ctx, Agraph_t* g) {
  std::string n = name_of(ctx, g);
  if (n.size() > 1 && n[0] == '%' && n.find_first_not_of("0123456789", 1) == std::string::npos) return {};
  return n;
}

/// Attribute value as our model keeps it: HTML strings as "<...>". cgraph
/// interns strings, so one text is HTML everywhere in a graph or nowhere
/// (whichever was seen first); the empty string is never taken as HTML because
/// cgraph itself uses "" for every attribute default.
std::string value_text(char* v) {
  if (!v) return {};
  if (v[0] && aghtmlstr(v)) return std::string("<") + v + ">";
  return v;
}

std::vector<Agsym_t*> symbols(Agraph_t* root, int kind) {
  std::vector<Agsym_t*> out;
  for (Agsym_t* s = agnxtattr(root, kind, nullptr); s; s = agnxtattr(root, kind, s)) out.push_back(s);
  std::sort(out.begin(), out.end(), [](Agsym_t* a, Agsym_t* b) { return a->id < b->id; });
  return out;
}

bool is_node_model_attr(std::string_view k) {
  return k == "engine" || k == "async" || k == "barrier" || k == "reads" || k == "writes";
}
bool is_edge_model_attr(std::string_view k) { return k == "kind" || k == "flags"; }

class Converter {
public:
  Converter(Agraph_t* g, const std::string& file, const ParseContext& ctx)
      : g_(g), file_(file), ctx_(ctx) {}

  InputGraph run() {
    InputGraph out;
    out.file = file_;
    out.name = graph_name(ctx_, g_);
    out.strict = agisstrict(g_) != 0;
    read_graph_attrs(out);
    read_defaults(out);
    read_nodes(out);
    read_edges(out);
    out.subgraphs = read_subgraphs(g_);
    if (!engines_given_) {
      bool any = std::any_of(out.nodes.begin(), out.nodes.end(),
                             [](const Node& n) { return n.engine != kNoEngine; });
      out.num_engines = any ? 8 : 0; // walrus default: numDataPathEngines
    }
    return out;
  }

private:
  std::uint32_t created(const void* obj) const {
    auto it = ctx_.created_line.find(obj);
    return it == ctx_.created_line.end() ? 0 : it->second;
  }
  std::uint32_t attr_line(const void* obj, Agsym_t* sym, std::uint32_t fallback) const {
    auto it = ctx_.attr_line.find({obj, sym->id});
    return it == ctx_.attr_line.end() || it->second == 0 ? fallback : it->second;
  }

  [[noreturn]] void fail(std::uint32_t line, std::string problem) const {
    throw InputError(file_, line, std::move(problem));
  }

  void read_graph_attrs(InputGraph& out) {
    for (Agsym_t* s : symbols(g_, AGRAPH)) {
      std::string v = value_text(agxget(g_, s));
      if (v.empty()) continue;
      if (std::strcmp(s->name, "engines") == 0) {
        std::uint32_t line = attr_line(g_, s, created(g_));
        auto n = detail::parse_uint(detail::trim(v), kMaxEngines);
        if (!n || *n < 1)
          fail(line, "graph attribute engines=" + show(v) + ": expected an integer in [1, " +
                         std::to_string(kMaxEngines) + "]");
        out.num_engines = static_cast<std::uint32_t>(*n);
        engines_given_ = true;
        continue;
      }
      out.graph_attrs.emplace_back(s->name, std::move(v));
    }
  }

  void read_defaults(InputGraph& out) {
    node_syms_ = symbols(g_, AGNODE);
    edge_syms_ = symbols(g_, AGEDGE);
    for (Agsym_t* s : node_syms_) {
      if (is_node_model_attr(s->name)) continue;
      std::string v = value_text(s->defval);
      if (!v.empty()) out.node_defaults.emplace_back(s->name, std::move(v));
    }
    for (Agsym_t* s : edge_syms_) {
      if (is_edge_model_attr(s->name) || std::strcmp(s->name, "key") == 0) continue;
      std::string v = value_text(s->defval);
      if (!v.empty()) out.edge_defaults.emplace_back(s->name, std::move(v));
    }
  }

  void node_model_attr(Node& node, std::string_view key, const std::string& v, std::uint32_t line) {
    std::string_view t = detail::trim(v);
    auto bad = [&](const std::string& expected) {
      fail(line, "node " + show(node.name) + ": " + std::string(key) + "=" + show(v) + ": expected " +
                     expected);
    };
    if (key == "engine") {
      if (detail::lower(t) == "none") { node.engine = kNoEngine; return; }
      auto e = detail::parse_uint(t, kNoEngine - 1);
      if (!e) bad("an integer >= 0 or 'none'");
      node.engine = static_cast<Engine>(*e);
    } else if (key == "async") {
      if (detail::lower(t) == "inf") { node.async_window = kAsyncInfinite; return; }
      auto w = detail::parse_uint(t, kAsyncInfinite - 1);
      if (!w) bad("an integer >= 0 (0 = synchronous) or 'inf'");
      node.async_window = static_cast<std::uint32_t>(*w);
    } else if (key == "barrier") {
      std::string l = detail::lower(t);
      if (l == "true" || l == "yes" || l == "1") node.barrier = true;
      else if (l == "false" || l == "no" || l == "0") node.barrier = false;
      else bad("true or false");
    } else {
      std::vector<ByteRange> ranges;
      try {
        ranges = read_byte_ranges(v, file_, line);
      } catch (const InputError& e) {
        fail(line, "node " + show(node.name) + ": " + std::string(key) + "=" + show(v) + ": " + e.problem());
      }
      (key == "reads" ? node.reads : node.writes) = std::move(ranges);
    }
  }

  void read_nodes(InputGraph& out) {
    for (Agnode_t* n = agfstnode(g_); n; n = agnxtnode(g_, n)) {
      Node node;
      node.name = name_of(ctx_, n);
      node.line = created(n);
      node.input_index = static_cast<std::uint32_t>(out.nodes.size());
      for (Agsym_t* s : node_syms_) {
        char* raw = agxget(n, s);
        if (is_node_model_attr(s->name)) {
          std::string v = value_text(raw);
          if (!v.empty()) node_model_attr(node, s->name, v, attr_line(n, s, node.line));
          continue;
        }
        if (raw == s->defval || std::strcmp(raw ? raw : "", s->defval ? s->defval : "") == 0) continue;
        node.attrs.emplace_back(s->name, value_text(raw));
      }
      index_.emplace(n, node.input_index);
      out.nodes.push_back(std::move(node));
    }
  }

  void read_edges(InputGraph& out) {
    std::vector<Agedge_t*> edges;
    for (Agnode_t* n = agfstnode(g_); n; n = agnxtnode(g_, n))
      for (Agedge_t* e = agfstout(g_, n); e; e = agnxtout(g_, e)) edges.push_back(AGMKOUT(e));
    std::sort(edges.begin(), edges.end(), [](Agedge_t* a, Agedge_t* b) { return AGSEQ(a) < AGSEQ(b); });
    out.edges.reserve(edges.size());
    for (Agedge_t* e : edges) {
      Edge edge;
      edge.src = index_.at(agtail(e));
      edge.dst = index_.at(aghead(e));
      edge.line = created(e);
      edge.input_index = static_cast<std::uint32_t>(out.edges.size());
      auto who = [&]() {
        return "edge " + show(out.nodes[edge.src].name) + " -> " + show(out.nodes[edge.dst].name);
      };
      for (Agsym_t* s : edge_syms_) {
        char* raw = agxget(e, s);
        if (std::strcmp(s->name, "key") == 0) continue; // the edge's name, below
        if (is_edge_model_attr(s->name)) {
          std::string v = value_text(raw);
          if (v.empty()) continue;
          std::uint32_t line = attr_line(e, s, edge.line);
          if (std::strcmp(s->name, "kind") == 0) {
            auto k = parse_kinds(v);
            if (!k)
              fail(line, who() + ": kind=" + show(v) +
                             ": expected a '|' or ',' list of flow, anti, output, ordered (raw, war, waw)");
            edge.kinds = *k;
          } else {
            auto f = parse_flags(v);
            if (!f || f->empty())
              fail(line, who() + ": flags=" + show(v) + ": expected a '|' or ',' list of wait, retain");
            edge.flags = *f;
          }
          continue;
        }
        if (raw == s->defval || std::strcmp(raw ? raw : "", s->defval ? s->defval : "") == 0) continue;
        edge.attrs.emplace_back(s->name, value_text(raw));
      }
      if (std::string key = name_of(ctx_, e); !key.empty()) set_attr(edge.attrs, "key", key);
      out.edges.push_back(std::move(edge));
    }
  }

  std::vector<Subgraph> read_subgraphs(Agraph_t* parent) {
    std::vector<Agraph_t*> subs;
    for (Agraph_t* s = agfstsubg(parent); s; s = agnxtsubg(s)) subs.push_back(s);
    std::sort(subs.begin(), subs.end(), [](Agraph_t* a, Agraph_t* b) { return AGSEQ(a) < AGSEQ(b); });
    std::vector<Subgraph> out;
    out.reserve(subs.size());
    const std::vector<Agsym_t*> gsyms = symbols(g_, AGRAPH);
    for (Agraph_t* s : subs) {
      Subgraph sub;
      sub.name = graph_name(ctx_, s);
      for (Agsym_t* sym : gsyms) {
        if (std::strcmp(sym->name, "engines") == 0) continue; // a root-graph model attribute only
        char* v = agxget(s, sym);
        char* pv = agxget(parent, sym);
        if (std::strcmp(v ? v : "", pv ? pv : "") != 0) sub.attrs.emplace_back(sym->name, value_text(v));
      }
      sub.children = read_subgraphs(s);
      std::vector<Agraph_t*> kids;
      for (Agraph_t* k = agfstsubg(s); k; k = agnxtsubg(k)) kids.push_back(k);
      for (Agnode_t* n = agfstnode(s); n; n = agnxtnode(s, n)) {
        bool in_child = std::any_of(kids.begin(), kids.end(),
                                    [&](Agraph_t* k) { return agsubnode(k, n, 0) != nullptr; });
        if (!in_child) sub.nodes.push_back(index_.at(agsubnode(g_, n, 0)));
      }
      out.push_back(std::move(sub));
    }
    return out;
  }

  Agraph_t* g_;
  const std::string& file_;
  const ParseContext& ctx_;
  bool engines_given_ = false;
  std::vector<Agsym_t*> node_syms_, edge_syms_;
  std::unordered_map<const Agnode_t*, std::uint32_t> index_;
};

} // namespace

InputGraph read_dot(std::string_view text, const std::string& file) {
  if (std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError(file, detail::LineMap(text).line_of(nul), "NUL byte in DOT text");

  // flex scans this buffer in place; it must end with two NUL bytes.
  std::string buffer(text);
  buffer.push_back('\0');
  buffer.push_back('\0');
  SignificantRuns runs(text);
  ParseContext ctx;
  ctx.base = buffer.data();
  ctx.size = text.size();
  ctx.runs = &runs;

  CgraphSession session;
  g_ctx = &ctx;
  if (!aag_scan_buffer(buffer.data(), buffer.size()))
    throw InputError(file, 0, "cannot set up the Graphviz scanner");
  Agdisc_t disc = {&AgMemDisc, &g_id_disc, &g_io_disc};
  int chan = 0; // flex never reads it: the scanner works on our buffer
  auto parse = [&]() {
    ctx.parsing = true;
    ctx.error_at = std::string_view::npos;
    Agraph_t* r = session.keep(agread(&chan, &disc));
    ctx.parsing = false;
    return r;
  };
  Agraph_t* g = parse();
  if (std::string err = CgraphSession::last_error(); !err.empty()) {
    throw syntax_error(file, error_place(ctx, text, 0), err, "");
  }
  if (!g) throw InputError(file, 0, "no graph found");
  // Anything after the graph must be blank: a second graph is an error. The
  // parser ends a graph at its '}' without reading further; cgraph then puts
  // its end-of-graph token back in place of that '}', which is the last token
  // the first parse read.
  std::size_t end = ctx.token_offset();
  if (end == std::string_view::npos || end >= text.size()) end = text.size();
  else if (text[end] == '}') ++end;
  Agraph_t* more = parse();
  if (more) {
    std::size_t second = runs.next_significant(end);
    throw InputError(file, second == std::string_view::npos ? runs.last_line() : runs.line_of(second),
                     "more than one graph in the input (one graph per file)");
  }
  if (std::string err = CgraphSession::last_error(); !err.empty()) {
    throw syntax_error(file, error_place(ctx, text, end), err, " (after the end of the graph)");
  }
  if (!agisdirected(g))
    throw InputError(file, ctx.created_line.count(g) ? ctx.created_line.at(g) : 1,
                     "undirected graph: a dependency graph must be a 'digraph'");
  return Converter(g, file, ctx).run();
}

InputGraph read_graph(const std::string& path, Format format) {
  std::string text = read_file(path);
  const std::string file = input_name(path); // "-" is "<stdin>", as formats::read_graph() names it
  switch (resolve_format(path, text, format)) {
  case Format::Stg: return read_stg(text, file);
  case Format::WfJson: return reference::read_wfjson(text, file);
  case Format::Dax: return read_dax(text, file);
  case Format::Dot:
  case Format::Auto: break;
  }
  return read_dot(text, file);
}

} // namespace depreduce::formats::reference
