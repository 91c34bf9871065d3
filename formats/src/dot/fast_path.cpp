//===- formats/src/dot/fast_path.cpp - Simple statements, in one pass ===//
///
/// \file
/// The fast path of the DOT reader (dot/reader.hpp): almost every statement
/// of a generated graph is `ID (-> ID)* [attr list]* ;?` with plain IDs.
/// SimpleScanner::scan() (dot/fast_path.hpp) reads its shape from the bytes;
/// apply_simple() then performs exactly the actions parse_stmt() would, in
/// the same order and with the same lines, into the same records. Anything
/// else (ports, node lists, subgraphs, `=`, `+`, HTML strings, escapes or
/// newlines in strings, comments, keywords, numbers the scanner would split,
/// `--`, the end of the input) is left to the parser (parser.cpp). Once the
/// interner's table outgrows the caches, statements are scanned a few
/// ahead and their names' table slots prefetched (top_up()). Long attribute
/// values are appended rather than interned while no HTML string has been
/// read (long_value()); an HTML string after one restarts the read
/// (RestartInterningValues). Hands on: the same records as the parser; the
/// readers' differential fuzzer and tests/dot_reader_test.cpp hold both
/// paths to cgraph.
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

/// Called between statements with no token peeked; returns true if it
/// read a whole simple statement (the stmt state left on the stack, as
/// parse_stmt() leaves it), false having changed nothing. Once the
/// interner's table is large, statements are scanned ahead (Ahead below,
/// top_up()).
bool FastDotReader::simple_stmt() {
  if (graph_type_ != Tok::Digraph) return false;
  if (strs_.table_slots() >= lookahead_from_) return simple_stmt_ahead();
  // The interner's table fits the caches: nothing to hide, so no scanning
  // ahead (its bookkeeping would cost more than it saves).
  SimpleId ids[kSimpleMaxIds];
  SimpleShape shape;
  return scanner_.scan(pos_, line_, ids, shape) && apply_simple(ids, shape, nullptr);
}

/// simple_stmt() with the statements scanned ahead.
bool FastDotReader::simple_stmt_ahead() {
  if (!ahead_count_ || ahead_[ahead_head_].start != pos_ || ahead_[ahead_head_].start_line != line_) {
    if (!ahead_) ahead_ = std::make_unique<Ahead[]>(kLookahead);
    ahead_head_ = 0;
    ahead_count_ = 0;
    ahead_stopped_ = false;
    ahead_next_ = pos_;
    ahead_next_line_ = line_;
    top_up();
    if (!ahead_count_) return false; // not a simple statement
  }
  // The names of the statements 4 and 2 ahead: the cache lines their
  // scan asked for have arrived, so ask for the next ones in the chain
  // that interning them follows (prefetch_entry()): the entry, then its
  // text. Attribute keys and short values are few and stay cached.
  if (ahead_count_ > 4) prefetch_names(ahead_[(ahead_head_ + 4) % kLookahead], false);
  if (ahead_count_ > 2) prefetch_names(ahead_[(ahead_head_ + 2) % kLookahead], true);
  const Ahead& a = ahead_[ahead_head_];
  if (!apply_simple(a.ids, a.shape, a.hash)) return false; // the next call starts a new run
  ahead_head_ = (ahead_head_ + 1) % kLookahead;
  --ahead_count_;
  top_up();
  return true;
}

/// Interner::prefetch_entry() for the node names of \p a (all hashed by top_up()).
void FastDotReader::prefetch_names(const Ahead& a, bool text) const {
  for (std::uint32_t k = 0; k <= a.shape.hops; ++k) strs_.prefetch_entry(a.hash[k], text);
}

/// Scans statements after the last one scanned until kLookahead are
/// ahead of the parser or one is not simple. Each one's names are hashed
/// and their interner slots prefetched: with 10^6 names every lookup
/// misses the caches, and this way the misses of the next statements
/// overlap the work on this one.
void FastDotReader::top_up() {
  while (ahead_count_ < kLookahead && !ahead_stopped_) {
    Ahead& a = ahead_[(ahead_head_ + ahead_count_) % kLookahead];
    if (!scanner_.scan(ahead_next_, ahead_next_line_, a.ids, a.shape)) {
      ahead_stopped_ = true;
      return;
    }
    a.start = ahead_next_;
    a.start_line = ahead_next_line_;
    ahead_next_ = a.shape.end;
    ahead_next_line_ = a.shape.end_line;
    // Names, keys, and the values apply_simple() interns (16 bytes or
    // fewer; it may append longer ones, which need no hash).
    const std::uint32_t count = a.shape.hops + 1 + 2 * a.shape.nattrs;
    for (std::uint32_t k = 0; k < count; ++k) {
      const SimpleId& id = a.ids[k];
      if (k > a.shape.hops && ((k - a.shape.hops - 1) & 1) && id.e - id.b > kShortValueMax) continue;
      a.hash[k] = hash_bytes(t_.data() + id.b, id.e - id.b);
      strs_.prefetch(a.hash[k]);
    }
    ++ahead_count_;
  }
}

/// The interned id of a simple statement's ID \p k, with its hash from
/// \p hash if given (top_up()).
inline std::uint32_t FastDotReader::intern_id(const SimpleId* ids, const std::uint64_t* hash, std::uint32_t k) {
  const std::string_view w = view(ids[k]);
  if (!hash) return intern_plain(w, copy_);
  return first_seen_as(strs_.intern_hashed(w, hash[k], copy_), false);
}

/// The id of a long value (kShortValueMax) of a simple statement:
/// appended while no HTML string has been read, else interned.
std::uint32_t FastDotReader::long_value(std::string_view value) {
  if (!no_html_ || seen_html_) return intern_plain(value, copy_);
  appended_ = true;
  return strs_.append(value, copy_);
}

/// What parse_stmt() does with the simple statement \p shape describes
/// (\p ids: its IDs, SimpleShape; \p hash: their hashes, or nullptr),
/// starting at pos_ / line_. False, having changed nothing, where the
/// parser stack would be exhausted (the general path reports it).
inline bool FastDotReader::apply_simple(const SimpleId* ids, const SimpleShape& shape, const std::uint64_t* hash) {
  const std::uint32_t hops = shape.hops, nattrs = shape.nattrs;
  const SimpleId* attrs = ids + hops + 1;
  const std::uint32_t close_line = shape.close_line, end_line = shape.end_line, semi_line = shape.semi_line;
  const std::size_t end = shape.end;
  if (sd_ + 8 * hops + 16 >= kMaxParserStack) return false; // the general path reports exhaustion
  // What parse_stmt() does with such a statement, in its order: the nodes
  // (created on their own lines), then the attributes, then the edges or
  // the node's assignments, on the line of the statement's last token
  // before the ';'.
  const std::uint32_t stmt_sd = sd_;
  Level& L = top();
  last_line_ = ids[0].line;
  std::uint32_t node[kSimpleMaxHops + 1];
  // Edge lists often repeat the source of the statement before.
  const std::string_view first_name = view(ids[0]);
  std::uint32_t first_id;
  if (first_name.size() == prev_first_.size() && same_bytes(first_name.data(), prev_first_.data(), first_name.size()))
    first_id = prev_first_id_;
  else
    first_id = intern_id(ids, hash, 0);
  prev_first_ = first_name;
  prev_first_id_ = first_id;
  node[0] = simple_node(first_id);
  for (std::uint32_t h = 1; h <= hops; ++h) {
    last_line_ = ids[h].line;
    node[h] = simple_node(intern_id(ids, hash, h));
  }
  // Values are looked up by nothing but `key`, and while no HTML string
  // has been read none can share its text with one: long ones (byte
  // ranges, labels: mostly distinct) are appended, not interned; short
  // ones ("flow", "3") are interned, one entry for all their uses. Once an
  // HTML string has been read every value is interned (it may have that
  // text, which then stays HTML), and an HTML string after an appended
  // value restarts the read (scan_hstring()).
  for (std::uint32_t k = 0; k < nattrs; ++k) {
    const std::uint32_t name = intern_id(ids, hash, hops + 1 + 2 * k);
    const std::string_view value = view(attrs[2 * k + 1]);
    if (name != key_ && value.size() > kShortValueMax) {
      L.attrs.emplace_back(name, long_value(value));
    } else {
      // top_up() hashed short values only.
      L.attrs.emplace_back(name, intern_id(ids, value.size() > kShortValueMax ? nullptr : hash, hops + 2 + 2 * k));
    }
  }
  if (close_line) last_line_ = close_line;
  if (hops) {
    // end_edge() for node lists of one node each.
    if (!L.attrs.empty()) bind_attrs(kEdge);
    std::uint32_t key = kNone;
    for (const auto& [k, v] : L.attrs)
      if (k == key_) key = v;
    if (key != kNone || strict_) {
      for (std::uint32_t h = 0; h < hops; ++h) new_edge(node[h], kNone, node[h + 1], kNone, key);
    } else {
      // new_edge() without key or strictness: every edge is new, with the
      // same creation defaults and the same assignments.
      const std::uint32_t snap = snapshot(kEdge, L.g);
      SymValue sets[kSimpleMaxAttrs];
      std::uint32_t nsets = 0;
      for (const auto& [k, v] : L.attrs)
        if (const std::uint32_t sym = find_sym(kEdge, k); sym != kNone) sets[nsets++] = SymValue{sym, v};
      for (std::uint32_t h = 0; h < hops; ++h) {
        const std::uint32_t e = static_cast<std::uint32_t>(edges_.size());
        edges_.push_back(EdgeRec{node[h], node[h + 1], last_line_, snap, kNone});
        if (nsets) room_for_sets(edge_sets_);
        for (std::uint32_t k = 0; k < nsets; ++k) edge_sets_.push_back(SetRec{e, sets[k].sym, sets[k].value, last_line_});
      }
    }
  } else {
    // end_node() for one node.
    if (!L.attrs.empty()) {
      bind_attrs(kNode);
      room_for_sets(node_sets_);
    }
    for (const auto& [k, v] : L.attrs) node_sets_.push_back(SetRec{node[0], find_sym(kNode, k), v, last_line_});
  }
  L.clear();
  if (semi_line) last_line_ = semi_line;
  // The scanner's state after the last byte read, as if that token was taken.
  pos_ = end;
  line_ = end_line;
  last_sig_line_ = end_line;
  sd_ = stmt_sd + 1;
  if (pos_ >= next_report_) report();
  return true;
}

/// append_node() without the node list: the node of \p name (created if new).
inline std::uint32_t FastDotReader::simple_node(std::uint32_t name) {
  std::uint32_t node = strs_[name].node;
  if (node == kNone) {
    node = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(NodeRec{name, last_line_, snapshot(kNode, top().g)});
    strs_[name].node = node;
  }
  add_member(top().g, node);
  return node;
}

} // namespace dot
} // namespace depreduce::formats
