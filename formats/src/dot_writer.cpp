//===- formats/src/dot_writer.cpp - Graph -> DOT, one buffer ------------===//
///
/// \file
/// write_dot() and write_edge_list(): everything is appended to one string,
/// numbers with std::to_chars, no per-node or per-edge attribute list is
/// built. Every id and value is quoted so that a DOT reader gives back the
/// same string; HTML-like values (`<...>` with balanced brackets) are
/// written as HTML strings. Nodes first (input order), then edges (input
/// order), then subgraph blocks that only list existing nodes, so reading the
/// output creates the nodes in the same order. Ports go back where the input
/// wrote them (`"a":"p" -> "b"`), unless WriteOptions::inline_ports is off:
/// then the text is byte for byte that of reference::write_dot(), the writer
/// this one replaced (tests/dot_writer_test.cpp).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <numeric>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

/// The writer's output: appends are a bounds check and a copy into storage
/// grown ahead of need (std::string's += re-checks capacity and
/// null-terminates on every call: most of the old writer's cost). With a
/// sink, what is written goes to it whenever 1 MiB is held (spill()), so the
/// text is never held whole.
class Buffer {
public:
  explicit Buffer(std::size_t expect) { grow(expect); }
  [[gnu::always_inline]] void operator+=(char c) {
    room(1);
    *p_++ = c;
  }
  [[gnu::always_inline]] void operator+=(std::string_view s) {
    room(s.size());
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  /// Room for \p n more bytes at cursor(); advance() past what was written.
  [[gnu::always_inline]] char* reserve(std::size_t n) {
    room(n);
    return p_;
  }
  void advance(char* to) { p_ = to; }
  std::size_t size() const { return static_cast<std::size_t>(p_ - store_.data()); }
  std::string_view view(std::size_t at, std::size_t n) const { return std::string_view(store_.data() + at, n); }
  void truncate(std::size_t n) { p_ = store_.data() + n; }
  /// Hands the text to \p sink and empties the buffer, once it holds 1 MiB.
  void spill(AtomicOutput& sink, std::size_t at_least = std::size_t{1} << 20) {
    if (size() < at_least) return;
    sink.write(view(0, size()));
    truncate(0);
  }
  std::string take() {
    store_.resize(size());
    p_ = nullptr;
    return std::move(store_);
  }

private:
  [[gnu::always_inline]] void room(std::size_t n) {
    if (static_cast<std::size_t>(store_.data() + store_.size() - p_) < n) grow(n);
  }
  [[gnu::noinline]] void grow(std::size_t n) {
    const std::size_t used = p_ ? size() : 0;
    store_.resize(std::max(2 * store_.size(), used + n + 64));
    p_ = store_.data() + used;
  }
  std::string store_;
  char* p_ = nullptr;
};

/// True if cgraph's scanner reads \p s, written unquoted, as exactly one HTML
/// string whose text is s without the outer brackets.
bool is_html_like(std::string_view s) {
  // "<>" would be an empty HTML string, which reads back as no value at all
  // (cgraph: an empty value is not set); quoted, it reads back as "<>".
  if (s.size() < 3 || s.front() != '<' || s.back() != '>') return false;
  int nest = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++nest;
    else if (s[i] == '>' && --nest == 0) return i + 1 == s.size();
  }
  return false;
}

/// Bytes that quoting may change: bit 0 '"', '\\', NUL; bit 1 also '\n'.
constexpr std::array<std::uint8_t, 256> kQuoteClass = [] {
  std::array<std::uint8_t, 256> t{};
  t[static_cast<unsigned char>('"')] = 3;
  t[static_cast<unsigned char>('\\')] = 3;
  t[0] = 3;
  t[static_cast<unsigned char>('\n')] = 2;
  return t;
}();
/// True if \p s holds a byte of class \p mask (one table look per byte).
bool has_class(std::string_view s, std::uint8_t mask) {
  for (char c : s)
    if (kQuoteClass[static_cast<unsigned char>(c)] & mask) return true;
  return false;
}

/// A DOT quoted string that the scanner turns back into \p s: \" is a
/// quote, \\ stays \\, backslash-newline vanishes, any other backslash stays.
/// An odd run of backslashes right before a quote, a newline or the end gets
/// one more backslash (only text from non-DOT sources has one). NUL bytes
/// are dropped.
void append_quoted(Buffer& out, std::string_view s) {
  out += '"';
  if (!has_class(s, 1)) {
    out += s;
    out += '"';
    return;
  }
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

/// What the scanner makes of the inside of a quoted string (cgraph 2.42):
/// \" is a quote, \\ stays \\, backslash-newline vanishes, and a run of
/// ordinary characters that is exactly one newline vanishes too.
std::string unquote(std::string_view w) {
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
bool html_safe(std::string_view s) {
  long nest = 0;
  for (char c : s) {
    if (c == '\0') return false;
    if (c == '<') ++nest;
    else if (c == '>' && --nest < 0) return false;
  }
  return nest == 0;
}

/// An id (node, graph, subgraph or attribute name): quoted when the quoted
/// form reads back unchanged, else as an HTML string when that is exact (text
/// that came from an HTML id can hold a lone newline before a quote).
void append_id(Buffer& out, std::string_view s) {
  // Fast path: nothing the quoted form could change.
  if (!has_class(s, 2)) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  const std::size_t at = out.size();
  append_quoted(out, s);
  if (!html_safe(s) || unquote(out.view(at + 1, out.size() - at - 2)) == s) return;
  out.truncate(at);
  out += '<';
  out += s;
  out += '>';
}

void append_value(Buffer& out, std::string_view v) {
  if (is_html_like(v) && v.find('\0') == std::string_view::npos) out += v;
  else append_quoted(out, v);
}

void append_number(Buffer& out, std::uint64_t v) {
  char* p = out.reserve(20);
  out.advance(std::to_chars(p, p + 20, v).ptr);
}

/// Writes ` [k=v, ...]` (nothing when empty) straight into the buffer.
class AttrWriter {
public:
  explicit AttrWriter(Buffer& out) : out_(out) {}
  void add(std::string_view k, std::string_view v) {
    out_ += first_ ? " [" : ", ";
    first_ = false;
    append_id(out_, k);
    out_ += '=';
    append_value(out_, v);
  }
  void add_number(std::string_view k, std::uint64_t v) {
    out_ += first_ ? " [" : ", ";
    first_ = false;
    append_id(out_, k);
    out_ += "=\"";
    append_number(out_, v);
    out_ += '"';
  }
  /// `k="space:[lo,hi),..."`: the text format_byte_ranges() gives, written
  /// straight into the buffer when no space name needs quoting.
  void add_ranges(std::string_view k, const std::vector<ByteRange>& ranges) {
    for (const ByteRange& r : ranges)
      if (has_class(r.space, 1)) {
        add(k, format_byte_ranges(ranges));
        return;
      }
    out_ += first_ ? " [" : ", ";
    first_ = false;
    append_id(out_, k);
    out_ += "=\"";
    bool first = true;
    for (const ByteRange& r : ranges) {
      if (!first) out_ += ',';
      first = false;
      out_ += r.space;
      out_ += ":[";
      append_number(out_, r.lo);
      out_ += ',';
      append_number(out_, r.hi);
      out_ += ')';
    }
    out_ += '"';
  }
  void finish() {
    if (!first_) out_ += ']';
  }

private:
  Buffer& out_;
  bool first_ = true;
};

bool is_node_model_key(std::string_view k) {
  return k == "engine" || k == "async" || k == "barrier" || k == "reads" || k == "writes";
}
bool is_edge_model_key(std::string_view k) { return k == "kind" || k == "flags"; }
bool is_port_key(std::string_view k) { return k == "tailport" || k == "headport"; }

void write_list(Buffer& out, const char* what, const AttrList& attrs, bool (*model)(std::string_view)) {
  bool any = false;
  for (const auto& kv : attrs)
    if (!model(kv.first)) any = true;
  if (!any) return;
  out += "  ";
  out += what;
  AttrWriter w(out);
  for (const auto& [k, v] : attrs)
    if (!model(k)) w.add(k, v);
  w.finish();
  out += ";\n";
}

/// \p rank: each node's position in the written node list. Members are
/// written in that order: cgraph lists a subgraph's members in the order the
/// nodes were created, so any other order would not read back the same.
void write_subgraph(Buffer& out, const Graph& g, const Subgraph& s, int depth,
                    const std::vector<std::uint32_t>& rank) {
  const std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  out += indent;
  out += "subgraph ";
  if (!s.name.empty()) {
    append_id(out, s.name);
    out += ' ';
  }
  out += "{\n";
  if (!s.attrs.empty()) {
    out += indent;
    out += "  graph";
    AttrWriter w(out);
    for (const auto& [k, v] : s.attrs) w.add(k, v);
    w.finish();
    out += ";\n";
  }
  std::vector<NodeId> members;
  for (NodeId v : s.nodes)
    if (v < g.nodes.size()) members.push_back(v);
  std::stable_sort(members.begin(), members.end(), [&](NodeId a, NodeId b) { return rank[a] < rank[b]; });
  for (NodeId v : members) {
    out += indent;
    out += "  ";
    append_id(out, g.nodes[v].name);
    out += ";\n";
  }
  for (const Subgraph& c : s.children) write_subgraph(out, g, c, depth + 1, rank);
  out += indent;
  out += "}\n";
}

/// A port spelled back onto its endpoint: \p id (the node's id as
/// append_id() writes it), then `:"port"`.
void append_endpoint(Buffer& out, std::string_view id, const std::string* port) {
  out += id;
  if (port) {
    out += ':';
    append_value(out, *port);
  }
}

/// to_string() of every KindSet (4 bits) and FlagSet (2 bits), computed once.
const std::string& kinds_text(KindSet k) {
  static const std::array<std::string, 16> table = [] {
    std::array<std::string, 16> t;
    for (unsigned b = 0; b < 16; ++b) t[b] = to_string(KindSet::from_bits(static_cast<std::uint8_t>(b)));
    return t;
  }();
  return table[k.bits() & 15u];
}
const std::string& flags_text(FlagSet f) {
  static const std::array<std::string, 4> table = [] {
    std::array<std::string, 4> t;
    for (unsigned b = 0; b < 4; ++b) t[b] = to_string(FlagSet::from_bits(static_cast<std::uint8_t>(b)));
    return t;
  }();
  return table[f.bits() & 3u];
}


/// The edges to write, in input order: placed by `input_index` when those
/// are distinct and dense (every graph a reader made), else a stable sort.
std::vector<const Edge*> edges_in_input_order(const Graph& g) {
  const std::size_t m = g.edges.size() + g.self_loops.size();
  std::uint32_t top = 0;
  for (const Edge& e : g.edges) top = std::max(top, e.input_index);
  for (const Edge& e : g.self_loops) top = std::max(top, e.input_index);
  if (m > 0 && top < 4 * m) {
    std::vector<const Edge*> slot(std::size_t{top} + 1, nullptr);
    bool distinct = true;
    auto place = [&](const Edge& e) {
      if (slot[e.input_index]) distinct = false;
      slot[e.input_index] = &e;
    };
    for (const Edge& e : g.edges) place(e);
    for (const Edge& e : g.self_loops) place(e);
    if (distinct) {
      slot.erase(std::remove(slot.begin(), slot.end(), nullptr), slot.end());
      return slot;
    }
  }
  std::vector<const Edge*> edges;
  edges.reserve(m);
  for (const Edge& e : g.edges) edges.push_back(&e);
  for (const Edge& e : g.self_loops) edges.push_back(&e);
  std::stable_sort(edges.begin(), edges.end(),
                   [](const Edge* a, const Edge* b) { return a->input_index < b->input_index; });
  return edges;
}

} // namespace

namespace {

/// Hands the buffer to \p sink once it holds 1 MiB (nothing without a sink).
void spill(Buffer& out, AtomicOutput* sink) {
  if (sink) out.spill(*sink);
}

/// Appends statements [0, \p count) to \p out in order, \p format(buffer, i)
/// writing statement i; \p out goes to \p sink as it fills (spill()). From
/// DotWriteTuning::parallel_from statements on, with a second hardware
/// thread, they are formatted in chunks of DotWriteTuning::chunk on two
/// threads: this one writes chunks 0, 2, 4, ... straight into \p out, a
/// helper writes chunks 1, 3, 5, ... into one of its two buffers, and this
/// thread appends each of those when its turn comes. The bytes and their
/// order are those of one thread writing every statement. \p format must
/// only read shared state. An exception on either thread stops both and is
/// rethrown here, after the helper has been joined.
template <class Format>
void write_statements(Buffer& out, AtomicOutput* sink, std::size_t count, const Format& format,
                      const detail::DotWriteTuning& tuning) {
  const std::size_t chunk = std::max<std::size_t>(tuning.chunk, 1);
  const std::size_t chunks = count / chunk + (count % chunk != 0);
  const auto write_chunk = [&](Buffer& into, std::size_t c, AtomicOutput* to) {
    const std::size_t end = std::min(count, (c + 1) * chunk);
    for (std::size_t i = c * chunk; i < end; ++i) {
      format(into, i);
      spill(into, to);
    }
  };
  if (chunks < 2 || !detail::worth_a_thread(count, tuning.parallel_from)) {
    for (std::size_t c = 0; c < chunks; ++c) write_chunk(out, c, sink);
    return;
  }
  constexpr std::size_t kFree = ~std::size_t{0};
  struct Slot {
    Buffer text{std::size_t{1} << 16};
    std::size_t chunk = kFree; ///< The chunk it holds, or kFree.
  };
  std::array<Slot, 2> slots;
  std::mutex mutex;
  std::condition_variable changed;
  bool stop = false;           // this thread has thrown: the helper returns
  std::exception_ptr failed;   // the helper has thrown
  const auto helper_run = [&] {
    try {
      for (std::size_t c = 1, k = 0; c < chunks; c += 2, k ^= 1) {
        Slot& slot = slots[k];
        {
          std::unique_lock lock(mutex);
          changed.wait(lock, [&] { return stop || slot.chunk == kFree; });
          if (stop) return;
        }
        slot.text.truncate(0);
        write_chunk(slot.text, c, nullptr);
        {
          std::lock_guard lock(mutex);
          slot.chunk = c;
        }
        changed.notify_all();
      }
    } catch (...) {
      {
        std::lock_guard lock(mutex);
        failed = std::current_exception();
      }
      changed.notify_all();
    }
  };
  std::thread helper;
  try {
    helper = std::thread(helper_run);
  } catch (const std::system_error&) { // no thread: one does it all
    for (std::size_t c = 0; c < chunks; ++c) write_chunk(out, c, sink);
    return;
  }
  struct Join {
    std::thread& helper;
    std::mutex& mutex;
    std::condition_variable& changed;
    bool& stop;
    ~Join() {
      {
        std::lock_guard lock(mutex);
        stop = true;
      }
      changed.notify_all();
      helper.join();
    }
  } join{helper, mutex, changed, stop};
  for (std::size_t c = 0, k = 0; c < chunks; ++c) {
    if (c % 2 == 0) {
      write_chunk(out, c, sink);
      continue;
    }
    Slot& slot = slots[k];
    k ^= 1;
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return failed || slot.chunk == c; });
      if (failed) std::rethrow_exception(failed);
    }
    out += slot.text.view(0, slot.text.size());
    {
      std::lock_guard lock(mutex);
      slot.chunk = kFree;
    }
    changed.notify_all();
    spill(out, sink);
  }
}

/// The writer: into \p out, which goes to \p sink whenever it holds 1 MiB
/// (and what is left at the end), or all of it into \p out without a sink.
void write_dot_into(Buffer& out, const Graph& g, const WriteOptions& options, AtomicOutput* sink,
                    const detail::DotWriteTuning& tuning) {
  // A strict graph merges parallel edges as it reads them (the last value of
  // each attribute wins), so a pair written as parts must not be strict.
  const bool parts = std::any_of(g.edges.begin(), g.edges.end(),
                                 [](const Edge& e) { return !written_as_one_part(e) && parts_to_write(e).size() > 1; });
  if (g.strict && !parts) out += "strict ";
  out += "digraph ";
  if (!g.name.empty()) {
    append_id(out, g.name);
    out += ' ';
  }
  out += "{\n";

  bool gattrs = g.num_engines != 0;
  for (const auto& kv : g.graph_attrs)
    if (kv.first != "engines") gattrs = true;
  if (gattrs) {
    out += "  graph";
    AttrWriter w(out);
    for (const auto& [k, v] : g.graph_attrs)
      if (k != "engines") w.add(k, v);
    if (g.num_engines != 0) w.add_number("engines", g.num_engines);
    w.finish();
    out += ";\n";
  }
  write_list(out, "node", g.node_defaults, is_node_model_key);
  write_list(out, "edge", g.edge_defaults, is_edge_model_key);

  // Nodes in input order, as tred does, unless the graph has engines and its
  // input order is not its program order: program order decides engine order
  // (SPEC §3.2), and a reduction may have removed the edges that made program
  // order differ from input order, so such a graph is written in program
  // order, which reads back as the same program order whatever edges remain.
  std::vector<NodeId> order(g.nodes.size());
  std::iota(order.begin(), order.end(), NodeId{0});
  const bool sorted = std::is_sorted(g.nodes.begin(), g.nodes.end(),
                                     [](const Node& a, const Node& b) { return a.input_index < b.input_index; });
  if (!sorted && g.num_engines == 0)
    std::stable_sort(order.begin(), order.end(),
                     [&](NodeId a, NodeId b) { return g.nodes[a].input_index < g.nodes[b].input_index; });
  // Every node's id as written, once, into one buffer: node statements and
  // both ends of every edge copy it from there (a compact array, where the
  // Node records are large and the quoting check is a look per byte).
  Buffer ids(12 * g.nodes.size() + 64);
  std::vector<std::size_t> id_at(g.nodes.size() + 1);
  for (NodeId v = 0; v < g.nodes.size(); ++v) {
    id_at[v] = ids.size();
    append_id(ids, g.nodes[v].name);
  }
  id_at[g.nodes.size()] = ids.size();
  const auto id_of = [&](NodeId v) { return ids.view(id_at[v], id_at[v + 1] - id_at[v]); };

  const auto write_node = [&](Buffer& b, NodeId v) {
    const Node& n = g.nodes[v];
    b += "  ";
    b += id_of(v);
    AttrWriter w(b);
    for (const auto& [k, val] : n.attrs)
      if (!is_node_model_key(k)) w.add(k, val);
    if (n.engine != kNoEngine) w.add_number("engine", n.engine);
    if (n.async_window == kAsyncInfinite) w.add("async", "inf");
    else if (n.async_window != 0) w.add_number("async", n.async_window);
    if (n.barrier) w.add("barrier", "true");
    if (!n.reads.empty()) w.add_ranges("reads", n.reads);
    if (!n.writes.empty()) w.add_ranges("writes", n.writes);
    w.finish();
    b += ";\n";
  };
  const auto write_edge = [&](Buffer& b, const Edge* e) {
    if (e->src >= g.nodes.size() || e->dst >= g.nodes.size()) return;
    const std::string* tport = options.inline_ports ? find_attr(e->attrs, "tailport") : nullptr;
    const std::string* hport = options.inline_ports ? find_attr(e->attrs, "headport") : nullptr;
    const auto write_part = [&](KindSet kinds, FlagSet flags, bool first) {
      b += "  ";
      append_endpoint(b, id_of(e->src), first ? tport : nullptr);
      b += " -> ";
      append_endpoint(b, id_of(e->dst), first ? hport : nullptr);
      AttrWriter w(b);
      if (first)
        for (const auto& [k, v] : e->attrs)
          if (!is_edge_model_key(k) && !(options.inline_ports && is_port_key(k))) w.add(k, v);
      if (!kinds.empty()) w.add("kind", kinds_text(kinds));
      if (flags != FlagSet::wait()) w.add("flags", flags_text(flags));
      w.finish();
      b += ";\n";
    };
    // A merged pair whose union of kinds and flags would read back as another
    // demand is written as its parts (SPEC §2), the first one carrying the
    // other attributes and the ports. The usual edge is one part, written
    // from its fields: the EdgeParts returned by parts_to_write(), assembled
    // on the stack a byte at a time, cost a third of the writer's time in
    // store-forwarding stalls.
    if (written_as_one_part(*e)) write_part(e->kinds, e->flags, true);
    else
      for (const EdgePart& part : parts_to_write(*e)) write_part(part.kinds, part.flags, part.first);
  };
  // Node statements, then edge statements: one sequence, so that both may
  // be split between two threads (write_statements()).
  const std::vector<const Edge*> edges = edges_in_input_order(g);
  write_statements(
      out, sink, order.size() + edges.size(),
      [&](Buffer& b, std::size_t i) {
        if (i < order.size()) write_node(b, order[i]);
        else write_edge(b, edges[i - order.size()]);
      },
      tuning);

  std::vector<std::uint32_t> rank(g.nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
  for (const Subgraph& s : g.subgraphs) {
    write_subgraph(out, g, s, 1, rank);
    spill(out, sink);
  }
  out += "}\n";
  if (sink) out.spill(*sink, 0);
}

} // namespace

std::string detail::write_dot_tuned(const Graph& g, AtomicOutput* sink, const WriteOptions& options,
                                    const DotWriteTuning& tuning) {
  if (sink) {
    // Small to start (a small graph's output, and nothing zero-filled that
    // is not written: a batch writes hundreds of outputs of 1-2 KB); it grows
    // to the 1 MiB that spill() hands over at a time.
    Buffer out(std::min(std::size_t{1} << 16, 64 + 24 * g.nodes.size() + 32 * (g.edges.size() + g.self_loops.size())));
    write_dot_into(out, g, options, sink, tuning);
    return std::string();
  }
  // Roughly the size of the output, so the buffer grows once or twice.
  Buffer out(64 + 24 * g.nodes.size() + 32 * (g.edges.size() + g.self_loops.size()));
  write_dot_into(out, g, options, nullptr, tuning);
  return out.take();
}

std::string write_dot(const Graph& g, const WriteOptions& options) {
  return detail::write_dot_tuned(g, nullptr, options, detail::DotWriteTuning{});
}

void write_dot(const Graph& g, AtomicOutput& sink, const WriteOptions& options) {
  detail::write_dot_tuned(g, &sink, options, detail::DotWriteTuning{});
}

std::string write_dot(const Graph& g) { return write_dot(g, WriteOptions{}); }

std::string write_edge_list(const Graph& g) {
  std::size_t size = 0;
  for (const Edge& e : g.edges) size += g.nodes[e.src].name.size() + g.nodes[e.dst].name.size() + 2;
  std::string out;
  out.reserve(size);
  for (const Edge& e : g.edges) {
    out.append(g.nodes[e.src].name);
    out += '\t';
    out.append(g.nodes[e.dst].name);
    out += '\n';
  }
  return out;
}

} // namespace depreduce::formats
