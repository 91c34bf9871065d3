//===- formats/src/dot_reader.cpp - DOT, one pass, no Graphviz ------------===//
///
/// \file
/// read_dot(): the optimized DOT reader. Its reference twin is
/// formats::reference::read_dot() (Graphviz cgraph, formats/reference/); the
/// two must give the same InputGraph for every input and reject the same
/// inputs on the same line (fuzz/fuzz_dot_reader_diff.cpp holds them to it).
///
/// What it mirrors, and from where (Graphviz 2.42, lib/cgraph):
///  - the scanner (scan.l): keywords in any case, NAME / NUMBER (a number
///    glued to a letter or a second '.' splits), quoted strings (\" is a
///    quote, \\ stays \\, backslash-newline vanishes, a run of ordinary
///    characters that is exactly one newline vanishes, any other backslash
///    stays), HTML strings (nested <>), comments (/* */, //, # to the end of
///    the line), '@' ends the input, a byte-order mark standing alone is
///    blank, '->' is an edge operator in a digraph only (else the character
///    '-'), every other byte is a one-character token;
///  - the grammar and its actions (grammar.y): edge chains, node lists
///    (`a, b -> c`), subgraph endpoints (their nodes in creation order at the
///    time of the statement), ports `n:p:c` (tailport/headport declared
///    after the statement's own attributes), `key=` naming an edge, `+`
///    concatenation of quoted/HTML strings, the default attribute
///    statements and their scoping (a default set in a subgraph applies to
///    the nodes/edges created there and in its children), strict graphs
///    (one edge per pair, a keyed edge that would add a second is dropped);
///  - cgraph's attribute dictionaries: an attribute name is declared once per
///    kind, with default "", in the order first seen; objects created before
///    a default changes keep their value; a new subgraph starts from its
///    parent's graph-attribute defaults;
///  - cgraph's string pool: one text is an HTML string everywhere or nowhere,
///    decided by its first appearance in the graph (the graph's own name
///    counts as plain);
///  - bison's parser stack (YYMAXDEPTH 10000): nesting or edge chains deep
///    enough to exhaust it are rejected ("memory exhausted") as cgraph does.
///
/// One pass: the scanner hands tokens to a recursive-descent parser that
/// performs cgraph's actions at the points bison would. Names and values are
/// interned (views into the text when no escape changes them, else copied
/// once into an arena); attribute assignments are logged as (object,
/// attribute, value, line) and resolved once at the end, so no allocation is
/// made per token. Lines are physical lines, counted by the scanner. The
/// common statement of generated graphs is read without tokens
/// (SimpleScanner, apply_simple()); once the interning table outgrows the
/// caches, those statements are scanned a few ahead and their names' table
/// slots prefetched (top_up()). A large text is searched for NUL bytes on a
/// second thread while it is parsed (NulCheck), its simple statements from
/// 2/5 of it on are read on another (SecondHalf) and adopted when the
/// parser arrives there, and a large graph's records
/// become the InputGraph on two threads (convert_on_two_threads()).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "depreduce/formats/formats.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

using detail::show;

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
/// bison's YYMAXDEPTH in cgraph's parser: the stack may hold 9,999 states.
constexpr std::uint32_t kMaxParserStack = 10000;
/// flex's YY_BUF_SIZE, quoted in cgraph's messages about unterminated text.
constexpr int kFlexBufSize = 16384;

enum Kind : int { kGraph = 0, kNode = 1, kEdge = 2 };

// ---------------------------------------------------------------- strings

[[gnu::always_inline]] inline std::uint64_t hash_bytes(const char* p, std::size_t n) noexcept {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  // The last 0..7 bytes without a variable-length copy.
  std::uint64_t w = 0;
  if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    w = (std::uint64_t{hi} << 32) | lo;
  } else if (n) {
    w = static_cast<std::uint64_t>(static_cast<unsigned char>(p[0])) |
        static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8 |
        static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16;
  }
  h = (h ^ w) * 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

/// True if the \p n bytes at \p a and \p b are equal; short texts (the usual
/// node names) without a call.
inline bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
  if (n >= 8 && n <= 16) {
    std::uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 4 && n < 8) {
    std::uint32_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 4);
    std::memcpy(&b0, b, 4);
    std::memcpy(&a1, a + n - 4, 4);
    std::memcpy(&b1, b + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n < 4) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  return std::memcmp(a, b, n) == 0;
}

/// Asks for the cache line at \p p (a hint: never faults). GCC 12 drops a
/// __builtin_prefetch of these addresses (measured: none was left in the
/// object), so on x86 it is the instruction itself.
inline void prefetch_line(const void* p) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

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

/// Interned strings: ids are dense, 0 is "". Texts are views into the input
/// or into an arena owned here. append() adds a text without interning it
/// (an attribute value that nothing looks up, FastDotReader::simple_stmt()).
class Interner {
public:
  struct Entry {
    const char* p;
    std::uint32_t len;
    std::uint32_t hash;
    std::int8_t html = -1;           ///< -1 not seen in the graph yet, 0 plain, 1 HTML.
    bool tabled = true;              ///< In the table (interned); false: append()ed.
    std::uint32_t node = kNone;      ///< The node of that name.
  };

  Interner() {
    table_.assign(1024, kFree);
    intern(std::string_view("", 0), false);
    entries_[0].html = 0;
  }

  /// The id of \p s; \p copy when \p s does not outlive the reader.
  std::uint32_t intern(std::string_view s, bool copy) { return intern_hashed(s, hash_bytes(s.data(), s.size()), copy); }
  /// intern() with \p h = hash_bytes(s) computed already (FastDotReader::top_up()).
  std::uint32_t intern_hashed(std::string_view s, std::uint64_t h, bool copy) {
    if (s.empty()) s = std::string_view(kEmpty, 0); // never a null pointer
    const std::uint32_t h32 = static_cast<std::uint32_t>(h >> 32);
    // Generated graphs name recent nodes again soon: a small direct-mapped
    // cache of (tag, id) in front of the table, whose entries are then
    // recent too, saves the table's cache miss.
    Recent& r = recent_[(h >> 17) & (recent_.size() - 1)];
    if (r.tag == h32 && r.id != kNoId) {
      const Entry& e = entries_[r.id];
      if (e.len == s.size() && same_bytes(e.p, s.data(), s.size())) return r.id;
    }
    const std::uint32_t id = lookup(s, h, h32, copy);
    r = Recent{h32, id};
    return id;
  }

private:
  std::uint32_t lookup(std::string_view s, std::uint64_t h, std::uint32_t h32, bool copy) {
    std::size_t mask = table_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
      const std::uint64_t slot = table_[i];
      if (slot == kFree) break;
      if (static_cast<std::uint32_t>(slot >> 32) != h32) continue; // the tag saves a look at the entry
      const std::uint32_t id = static_cast<std::uint32_t>(slot);
      const Entry& e = entries_[id];
      if (e.len == s.size() && same_bytes(e.p, s.data(), s.size())) return id;
    }
    if (s.size() > 0xFFFFFFF0u) throw std::length_error("string too long");
    const char* p = copy ? store(s) : s.data();
    const std::uint32_t id = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back(Entry{p, static_cast<std::uint32_t>(s.size()), h32});
    if (++tabled_ * 2 > table_.size()) grow();
    else place(id, h);
    return id;
  }

public:
  /// A new id for \p s (\p copy when \p s does not outlive the reader),
  /// plain text, not in the table: intern() never returns it. "" is 0.
  std::uint32_t append(std::string_view s, bool copy) {
    if (s.empty()) return 0;
    if (s.size() > 0xFFFFFFF0u) throw std::length_error("string too long");
    const std::uint32_t id = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back(Entry{copy ? store(s) : s.data(), static_cast<std::uint32_t>(s.size()), 0});
    entries_.back().html = 0;
    entries_.back().tabled = false;
    return id;
  }

  /// True if \p a and \p b are the same text with the same HTML-ness
  /// (the same id, for interned texts).
  bool same(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return true;
    const Entry& x = entries_[a];
    const Entry& y = entries_[b];
    return x.len == y.len && x.html == y.html && same_bytes(x.p, y.p, x.len);
  }

  /// Room for about \p n strings; the recent-name cache grows with them (up
  /// to kRecent entries), so a small graph does not fault in 256 KiB.
  void reserve(std::size_t n) {
    entries_.reserve(n);
    std::size_t r = kRecentMin;
    while (r < kRecent && r < n) r *= 2;
    if (r > recent_.size()) recent_.assign(r, Recent{0, kNoId});
  }
  /// Room in the table for about \p n strings, so that it need not grow
  /// (rehashing what it holds) while it is filled: allocated now, on the
  /// calling thread (SecondHalf's constructor, on the parser's). O(slots).
  void reserve_table(std::size_t n) {
    std::size_t slots = table_.size();
    while (slots < 2 * n) slots *= 2;
    if (slots != table_.size()) rebuild(slots);
  }
  /// The table's size (a power of 2; it doubles at half full).
  std::size_t table_slots() const { return table_.size(); }
  /// Asks the cache for where intern_hashed(s, \p h) will look first.
  void prefetch(std::uint64_t h) const {
    prefetch_line(&recent_[(h >> 17) & (recent_.size() - 1)]);
    prefetch_line(&table_[static_cast<std::size_t>(h) & (table_.size() - 1)]);
  }
  /// The later stages of prefetch(\p h), once its lines have arrived: asks
  /// the cache for the entry that intern_hashed(s, \p h) will compare first
  /// (the recent-name cache's, else the one in the table's first slot), or
  /// with \p text for that entry's text, once the entry has arrived too.
  /// Only a hint: nothing is changed, and a text that is not there is not
  /// looked for further. O(1).
  void prefetch_entry(std::uint64_t h, bool text) const {
    const std::uint32_t h32 = static_cast<std::uint32_t>(h >> 32);
    std::uint32_t id = kNoId;
    const Recent& r = recent_[(h >> 17) & (recent_.size() - 1)];
    if (r.tag == h32) {
      id = r.id;
    } else {
      const std::uint64_t slot = table_[static_cast<std::size_t>(h) & (table_.size() - 1)];
      if (slot != kFree && static_cast<std::uint32_t>(slot >> 32) == h32) id = static_cast<std::uint32_t>(slot);
    }
    if (id >= entries_.size()) return;
    if (text) prefetch_line(entries_[id].p);
    else prefetch_line(&entries_[id]);
  }
  std::string_view view(std::uint32_t id) const { return {entries_[id].p, entries_[id].len}; }
  /// The entries, for where they are in memory (PrefaultAhead).
  const std::vector<Entry>& entries() const { return entries_; }
  Entry& operator[](std::uint32_t id) { return entries_[id]; }
  const Entry& operator[](std::uint32_t id) const { return entries_[id]; }
  std::size_t size() const { return entries_.size(); }

private:
  void place(std::uint32_t id, std::uint64_t h) {
    std::size_t mask = table_.size() - 1;
    std::size_t i = static_cast<std::size_t>(h) & mask;
    while (table_[i] != kFree) i = (i + 1) & mask;
    table_[i] = (std::uint64_t{static_cast<std::uint32_t>(h >> 32)} << 32) | id;
  }
  void grow() { rebuild(table_.size() * 2); }
  void rebuild(std::size_t slots) {
    table_.assign(slots, kFree);
    for (std::uint32_t id = 0; id < entries_.size(); ++id)
      if (entries_[id].tabled) place(id, hash_bytes(entries_[id].p, entries_[id].len));
  }
  const char* store(std::string_view s) {
    if (s.size() > kChunk / 4) {
      big_.emplace_back(new char[s.size() + 1]);
      std::memcpy(big_.back().get(), s.data(), s.size());
      return big_.back().get();
    }
    if (chunks_.empty() || used_ + s.size() > kChunk) {
      chunks_.emplace_back(new char[kChunk]);
      used_ = 0;
    }
    char* p = chunks_.back().get() + used_;
    std::memcpy(p, s.data(), s.size());
    used_ += s.size();
    return p;
  }
  struct Recent {
    std::uint32_t tag, id;
  };
  static constexpr std::size_t kRecent = 1 << 15, kRecentMin = 1 << 8; // powers of 2
  static constexpr std::uint32_t kNoId = 0xFFFFFFFFu;
  std::vector<Recent> recent_ = std::vector<Recent>(kRecentMin, Recent{0, kNoId});
  static constexpr std::size_t kChunk = 1 << 16;
  static constexpr const char* kEmpty = "";
  static constexpr std::uint64_t kFree = ~0ull;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> table_; ///< (hash tag << 32) | id, or kFree.
  std::vector<std::unique_ptr<char[]>> chunks_, big_;
  std::size_t used_ = 0;
  std::size_t tabled_ = 0;
};

/// Open-addressing map from 64-bit keys to 32-bit values (no erase).
class FlatMap64 {
public:
  FlatMap64() { keys_.assign(16, kEmpty); vals_.assign(16, 0); }
  std::uint32_t* find(std::uint64_t k) {
    std::size_t mask = keys_.size() - 1;
    for (std::size_t i = mix(k) & mask;; i = (i + 1) & mask) {
      if (keys_[i] == k) return &vals_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  void insert(std::uint64_t k, std::uint32_t v) {
    if ((size_ + 1) * 2 > keys_.size()) grow();
    std::size_t mask = keys_.size() - 1;
    std::size_t i = mix(k) & mask;
    while (keys_[i] != kEmpty && keys_[i] != k) i = (i + 1) & mask;
    if (keys_[i] == kEmpty) ++size_;
    keys_[i] = k;
    vals_[i] = v;
  }

private:
  static constexpr std::uint64_t kEmpty = ~0ull;
  static std::size_t mix(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return static_cast<std::size_t>(k);
  }
  void grow() {
    std::vector<std::uint64_t> ok = std::move(keys_);
    std::vector<std::uint32_t> ov = std::move(vals_);
    keys_.assign(ok.size() * 2, kEmpty);
    vals_.assign(ok.size() * 2, 0);
    size_ = 0;
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (ok[i] != kEmpty) insert(ok[i], ov[i]);
  }
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> vals_;
  std::size_t size_ = 0;
};

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} << 32) | b; }

// ---------------------------------------------------------------- tokens

enum class Tok : std::uint8_t { Eof, Atom, QAtom, Graph, Digraph, Node, Edge, Subgraph, Strict, EdgeOp, Char };

/// Where the scanner was when the input ended (cgraph's YYSTATE).
enum class EofState : std::uint8_t { Initial, QString, HString, Comment };

struct Token {
  Tok kind = Tok::Eof;
  char ch = 0;               ///< For Tok::Char.
  bool html = false;         ///< QAtom from an HTML string.
  bool at_marker = false;    ///< Eof from '@'.
  EofState eof_state = EofState::Initial;
  std::uint32_t sid = 0;     ///< Atom / QAtom: interned text.
  std::size_t begin = 0;     ///< First byte of the token.
  std::size_t end = 0;       ///< One past its last byte.
  std::size_t at = 0;        ///< Where flex's yytext points: begin, or the closing quote / '>' of a string.
  std::uint32_t first_line = 1; ///< Line of `begin`.
  std::uint32_t at_line = 1;    ///< Line of `at`.
  std::uint32_t last_line = 1;  ///< Line of the token's last byte.
  std::uint32_t open_line = 0;  ///< Eof inside a string or comment: the line where it opened.
};

constexpr bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

bool keyword_is(std::string_view w, const char* kw) {
  std::size_t n = std::strlen(kw);
  if (w.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    char c = w[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kw[i]) return false;
  }
  return true;
}

// ---------------------------------------------------------------- model

struct Sym {
  std::uint32_t name;     ///< Interned name.
  std::uint32_t root_def; ///< Default in the root graph's dictionary.
  std::uint8_t model;     ///< Model attribute code (see model_code()).
};

/// 0: ordinary; node: 1 engine, 2 async, 3 barrier, 4 reads, 5 writes;
/// edge: 1 kind, 2 flags, 3 key; graph: 1 engines.
std::uint8_t model_code(int kind, std::string_view k) {
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

// ---------------------------------------------------------------- simple statements
//
// Almost every statement of a generated graph is `ID (-> ID)* [attr list]* ;?`
// with plain IDs. SimpleScanner::scan() reads the shape of such a statement
// straight from the bytes (a pure function of the text and the position: no
// parser state), and FastDotReader::apply_simple() then performs exactly the
// actions parse_stmt() would, in the same order and with the same lines.
// Anything else (ports, node lists, subgraphs, `=`, `+`, HTML strings,
// escapes or newlines in strings, comments, keywords, numbers the scanner
// would split, `--`, the end of the input) makes scan() return false, and
// parse_stmt() reads the statement the general way. Because scan() needs
// nothing but the bytes, the reader scans a few statements ahead of the
// parser and prefetches what their names will look up
// (FastDotReader::top_up()). The readers' differential fuzzer and
// tests/dot_reader_test.cpp hold both paths to cgraph.

/// One ID of a simple statement: its text (inside the quotes) and line.
struct SimpleId { // no initialisers: arrays of them live on the stack
  std::size_t b, e; ///< The text (inside the quotes).
  std::uint32_t line;
};
/// What scan() found besides the IDs: `ids[0..hops]` are the nodes,
/// `ids[hops + 1 + 2k]` / `ids[hops + 2 + 2k]` the k-th attribute's name and
/// value.
struct SimpleShape {
  std::uint32_t hops, nattrs;
  std::uint32_t close_line; ///< Line of the last attribute list's ']' (0: none).
  std::uint32_t end_line;   ///< Line at `end`.
  std::uint32_t semi_line;  ///< Line of the ';' (0: none).
  std::size_t end;          ///< One past the statement (after its ';', if any).
};
constexpr std::uint32_t kSimpleMaxHops = 64;
constexpr std::uint32_t kSimpleMaxAttrs = 64;
constexpr std::uint32_t kSimpleMaxIds = kSimpleMaxHops + 1 + 2 * kSimpleMaxAttrs;
/// An attribute value longer than this, of any name but `key`, is a *long
/// value*: the simple path appends it rather than interning it while no
/// HTML string has been read (FastDotReader::long_value()), and no one
/// hashes it ahead.
constexpr std::size_t kShortValueMax = 16;

/// The scan half of a simple statement, over a text it does not own.
class SimpleScanner {
public:
  explicit SimpleScanner(std::string_view text) : t_(text.data()), n_(text.size()) {}

  /// Reads a simple statement at \p pos (on line \p line) into \p ids (room
  /// for kSimpleMaxIds) and \p shape. False if the statement there is not a
  /// simple one; \p ids and \p shape are then unspecified. Never reads the
  /// parser's state: only the text. Cost: O(statement length).
  [[gnu::always_inline]] bool scan(std::size_t pos, std::uint32_t line, SimpleId* ids, SimpleShape& shape) const {
    std::uint32_t hops = 0, nattrs = 0;
    std::size_t i = simple_space(pos, line);
    i = simple_id(i, line, ids[0]);
    if (!i) return false;
    i = simple_space(i, line);
    // Edge operators and their targets.
    while (i + 1 < n_ && t_[i] == '-' && t_[i + 1] == '>') {
      if (hops == kSimpleMaxHops) return false;
      i = simple_space(i + 2, line);
      i = simple_id(i, line, ids[++hops]);
      if (!i) return false;
      i = simple_space(i, line);
    }
    // Attribute lists.
    SimpleId* attrs = ids + hops + 1;
    std::uint32_t close_line = 0;
    while (i < n_ && t_[i] == '[') {
      i = simple_space(i + 1, line);
      while (i < n_ && t_[i] != ']') {
        if (nattrs == kSimpleMaxAttrs) return false;
        SimpleId& k = attrs[2 * nattrs];
        SimpleId& v = attrs[2 * nattrs + 1];
        i = simple_id(i, line, k);
        if (!i) return false;
        i = simple_space(i, line);
        if (i >= n_ || t_[i] != '=') return false;
        i = simple_space(i + 1, line);
        i = simple_id(i, line, v);
        if (!i) return false;
        i = simple_space(i, line);
        if (i < n_ && (t_[i] == ',' || t_[i] == ';')) i = simple_space(i + 1, line);
        ++nattrs;
      }
      if (i >= n_) return false;
      close_line = line;
      i = simple_space(i + 1, line);
    }
    // The end: an optional ';', and nothing that would continue the statement.
    std::size_t end = i;
    std::uint32_t end_line = line, semi_line = 0;
    if (i < n_ && t_[i] == ';') {
      semi_line = line;
      end = i + 1;
      i = simple_space(i + 1, line);
    } else if (i >= n_ || continues_unsimply(t_[i])) {
      return false;
    }
    if (i >= n_) return false;
    shape = SimpleShape{hops, nattrs, close_line, end_line, semi_line, end};
    return true;
  }

private:
  /// Byte classes: bit 0 white space (' ', '\t', '\r', '\n'), bit 1 ends the
  /// inside of a plain quoted string ('"', '\\', '\n'), bit 2 continues an
  /// identifier (letters, '_', bytes >= 0x80, digits).
  static constexpr std::array<std::uint8_t, 256> kSimpleClass = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned char c : {' ', '\t', '\r', '\n'}) t[c] |= 1;
    for (unsigned char c : {'"', '\\', '\n'}) t[c] |= 2;
    for (int c = 0; c < 256; ++c)
      if (is_letter(static_cast<unsigned char>(c)) || is_digit(static_cast<unsigned char>(c))) t[c] |= 4;
    return t;
  }();
  [[gnu::always_inline]] std::uint8_t byte_class(std::size_t i) const { return kSimpleClass[static_cast<unsigned char>(t_[i])]; }

  /// The first position at or after \p j holding '"', '\\' or '\n' (the end
  /// of a plain quoted string's inside), or n_. Quoted names and values are
  /// most of a generated graph's bytes: 16 at a time where SSE2 is there.
  [[gnu::always_inline]] std::size_t plain_quoted_end(std::size_t j) const {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), newline = _mm_set1_epi8('\n');
    for (; j + 16 <= n_; j += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t_ + j));
      const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                       _mm_cmpeq_epi8(x, newline));
      if (const unsigned bits = static_cast<unsigned>(_mm_movemask_epi8(hit))) return j + static_cast<unsigned>(__builtin_ctz(bits));
    }
#endif
    while (j < n_ && !(byte_class(j) & 2)) ++j;
    return j;
  }

  /// Skips ' ', '\t', '\r' and '\n' from \p i (counting lines into \p line).
  [[gnu::always_inline]] std::size_t simple_space(std::size_t i, std::uint32_t& line) const {
    while (i < n_ && (byte_class(i) & 1)) {
      line += t_[i] == '\n';
      ++i;
    }
    return i;
  }

  /// Reads a plain ID at \p i: a quoted string without backslash or newline,
  /// an identifier that is not a keyword, or digits the scanner keeps whole.
  /// Returns the position after it, or 0 (not simple).
  [[gnu::always_inline]] std::size_t simple_id(std::size_t i, std::uint32_t line, SimpleId& out) const {
    if (i >= n_) return 0;
    const unsigned char c = static_cast<unsigned char>(t_[i]);
    if (c == '"') {
      const std::size_t j = plain_quoted_end(i + 1);
      if (j >= n_ || t_[j] != '"') return 0;
      out = SimpleId{i + 1, j, line};
      return j + 1;
    }
    if (is_letter(c)) {
      std::size_t j = i + 1;
      while (j < n_ && (byte_class(j) & 4)) ++j;
      std::string_view w(t_ + i, j - i);
      if (w.size() <= 8 && (keyword_is(w, "node") || keyword_is(w, "edge") || keyword_is(w, "graph") ||
                            keyword_is(w, "digraph") || keyword_is(w, "strict") || keyword_is(w, "subgraph")))
        return 0;
      if (w.size() >= 3 && w.substr(0, 3) == "\xEF\xBB\xBF") return 0; // the scanner may skip a byte-order mark
      out = SimpleId{i, j, line};
      return j;
    }
    if (is_digit(c)) {
      std::size_t j = i + 1;
      while (j < n_ && is_digit(static_cast<unsigned char>(t_[j]))) ++j;
      if (j < n_ && (t_[j] == '.' || is_letter(static_cast<unsigned char>(t_[j])))) return 0;
      out = SimpleId{i, j, line};
      return j;
    }
    return 0;
  }

  /// True if \p c, after an ID, could continue the statement in a way scan()
  /// does not read (or hides what follows: a comment).
  static bool continues_unsimply(char c) {
    return c == '-' || c == ':' || c == ',' || c == '=' || c == '+' || c == '/' || c == '#' || c == '.' ||
           c == '[' || c == '@' || c == '\xEF'; // '\xEF': a byte-order mark, blank to the scanner, may follow
  }

  const char* t_;
  std::size_t n_;
};

/// Thrown by the scanner when an HTML string follows appended values.
struct RestartInterningValues {};

/// The first NUL byte of a text, which makes the whole text an error
/// ("NUL byte in DOT text", on its line, before anything else is said).
/// A large text is searched on a second thread while the parser reads it
/// (the parser treats a NUL as any other byte: only the answer changes);
/// the parser looks at seen() as it reports progress, and read_dot_releasing()
/// asks result() before it returns or throws, so a NUL always wins.
class NulCheck {
public:
  /// Searches \p text, on a thread if \p on_thread and one can be started.
  NulCheck(std::string_view text, bool on_thread) {
    if (on_thread) try {
        thread_ = std::thread([this, text] {
          at_ = text.find('\0');
          if (at_ != std::string_view::npos) seen_.store(true, std::memory_order_relaxed);
        });
        return;
      } catch (const std::system_error&) { // no thread: search now
      }
    at_ = text.find('\0');
    seen_.store(at_ != std::string_view::npos, std::memory_order_relaxed);
  }
  ~NulCheck() {
    if (thread_.joinable()) thread_.join();
  }
  NulCheck(const NulCheck&) = delete;
  NulCheck& operator=(const NulCheck&) = delete;
  /// True once a NUL has been found (false may be "not yet").
  bool seen() const { return seen_.load(std::memory_order_relaxed); }
  /// The offset of the first NUL, or npos; waits for the search.
  std::size_t result() {
    if (thread_.joinable()) thread_.join();
    return at_;
  }

private:
  std::size_t at_ = std::string_view::npos;
  std::atomic<bool> seen_{false};
  std::thread thread_;
};
/// Thrown by the parser once NulCheck::seen(): the rest need not be read.
struct NulSeen {};

#if defined(__linux__)
#if defined(MADV_POPULATE_WRITE)
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23; // Linux 5.14's value; older kernels answer EINVAL
#endif

/// Faults in, writable, the whole pages of [\p lo, \p hi) (page-aligned) a
/// huge page (2 MiB) at a time with madvise(MADV_POPULATE_WRITE), from the
/// front (or from the back if \p backwards), until done, \p stop is set or
/// a step fails. Changes no byte. Returns false on a failure.
inline bool populate_write(std::uintptr_t lo, std::uintptr_t hi, bool backwards, const std::atomic<bool>& stop) {
  constexpr std::uintptr_t kStep = std::uintptr_t{1} << 21;
  while (lo < hi && !stop.load(std::memory_order_relaxed)) {
    const std::uintptr_t from = backwards ? std::max(lo, (hi - 1) & ~(kStep - 1)) : lo;
    const std::uintptr_t to = backwards ? hi : std::min(hi, (lo + kStep) & ~(kStep - 1));
    if (::madvise(reinterpret_cast<void*>(from), to - from, kPopulateWrite) != 0) return false;
    (backwards ? hi : lo) = backwards ? from : to;
  }
  return true;
}
#endif

/// Faults in, writable, the pages of an array this thread is about to fill
/// from its front: on a helper thread, from the array's end backwards, 2 MiB
/// (a huge page) at a time, with madvise(MADV_POPULATE_WRITE), so the two
/// threads meet in the middle. It changes no byte (only page tables); it
/// moves the kernel's work of handing out fresh zeroed pages, which was the
/// largest part of convert_edges() and of adopting a second half on the 20k
/// DAG (docs/performance.md, "Twelfth pass"), half onto a second core.
/// Nothing happens where no thread can be started or the kernel has no
/// MADV_POPULATE_WRITE (Linux < 5.14): this thread faults the pages in as
/// it writes, as before.
class Prefault {
public:
  /// The whole pages inside [\p begin, \p begin + \p bytes), on a thread if
  /// \p on_thread (DotReadTuning::prefault_from).
  Prefault(const void* begin, std::size_t bytes, bool on_thread) {
#if defined(__linux__)
    constexpr std::uintptr_t kPage = 4096;
    const auto b = reinterpret_cast<std::uintptr_t>(begin);
    const std::uintptr_t lo = (b + kPage - 1) & ~(kPage - 1), hi = (b + bytes) & ~(kPage - 1);
    if (!on_thread || bytes == 0 || hi <= lo) return;
    try {
      thread_ = std::thread([this, lo, hi] { populate_write(lo, hi, /*backwards=*/true, stop_); });
    } catch (const std::system_error&) { // no thread: the pages fault in as they are written
    }
#else
    (void)begin, (void)bytes, (void)on_thread;
#endif
  }
  /// Stops the helper after its current step and waits for it.
  ~Prefault() {
    stop_.store(true, std::memory_order_relaxed);
    if (thread_.joinable()) thread_.join();
  }
  Prefault(const Prefault&) = delete;
  Prefault& operator=(const Prefault&) = delete;

private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// Keeps the pages just past the filled part of a few growing arrays faulted
/// in, writable, on a helper thread, while this thread appends to them: the
/// parser's records (nodes, edges, attribute assignments, the interner's
/// entries) on a large text: on this project's VM a fresh page can cost the
/// parser more than the bytes that fill it (docs/performance.md,
/// "Thirteenth pass"), and the second core has time for them where no
/// second half is read, or once it is adopted. The parser publishes where
/// each array is and how far it is filled (FastDotReader::report(), every 4 MiB of text); the helper
/// then faults in the pages from there up to twice what the array grew
/// since the last publication (at least 2 MiB), never past its capacity.
/// Like Prefault it changes no byte, only page tables. An array that moved
/// (grew past its capacity) is followed at its new place. A publication
/// read while it is rewritten, or a range given back meanwhile, only makes
/// the helper fault in pages that did not need it, or fail (and skip it).
/// Nothing happens where no thread can be started or the kernel has no
/// MADV_POPULATE_WRITE (Linux < 5.14).
class PrefaultAhead {
public:
  static constexpr std::size_t kArrays = 5;
  /// A helper thread if \p on_thread (DotReadTuning::prefault_ahead_from).
  explicit PrefaultAhead(bool on_thread) {
#if defined(__linux__)
    if (!on_thread) return;
    try {
      thread_ = std::thread([this] { run(); });
    } catch (const std::system_error&) { // no thread: the pages fault in as they are written
    }
#else
    (void)on_thread;
#endif
  }
  /// Stops the helper after its current step and waits for it.
  ~PrefaultAhead() {
    stop_.store(true, std::memory_order_relaxed);
    gen_.fetch_add(1, std::memory_order_release);
    gen_.notify_one();
    if (thread_.joinable()) thread_.join();
  }
  PrefaultAhead(const PrefaultAhead&) = delete;
  PrefaultAhead& operator=(const PrefaultAhead&) = delete;

  bool active() const { return thread_.joinable(); }
  /// Array \p i (< kArrays) is at \p data, \p filled of its \p capacity
  /// bytes written. Seen by the helper at the next kick().
  void publish(std::size_t i, const void* data, std::size_t filled, std::size_t capacity) {
    pub_[i].data.store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_relaxed);
    pub_[i].filled.store(filled, std::memory_order_relaxed);
    pub_[i].capacity.store(capacity, std::memory_order_relaxed);
  }
  /// Wakes the helper for what was published.
  void kick() {
    gen_.fetch_add(1, std::memory_order_release);
    gen_.notify_one();
  }

private:
  void run() {
    constexpr std::uintptr_t kPage = 4096, kStep = std::uintptr_t{1} << 21;
    std::array<std::uintptr_t, kArrays> base{}, done{}, last{};
    std::uint32_t seen = 0;
    for (;;) {
      gen_.wait(seen, std::memory_order_acquire);
      seen = gen_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      for (std::size_t i = 0; i < kArrays; ++i) {
        const std::uintptr_t data = pub_[i].data.load(std::memory_order_relaxed);
        const std::uintptr_t filled = pub_[i].filled.load(std::memory_order_relaxed);
        const std::uintptr_t capacity = pub_[i].capacity.load(std::memory_order_relaxed);
        if (!data || filled > capacity) continue;
        if (data != base[i]) base[i] = data, done[i] = data, last[i] = 0;
        const std::uintptr_t lead = std::max<std::uintptr_t>(kStep, 2 * (filled - std::min(filled, last[i])));
        last[i] = filled;
        const std::uintptr_t lo = std::max(done[i], (data + filled + kPage - 1) & ~(kPage - 1));
        const std::uintptr_t hi = (data + std::min(capacity, filled + lead)) & ~(kPage - 1);
#if defined(__linux__)
        populate_write(lo, hi, /*backwards=*/false, stop_); // a failure: the rest of the range is skipped
#endif
        done[i] = std::max(done[i], hi);
      }
    }
  }
  struct Published {
    std::atomic<std::uintptr_t> data{0}, filled{0}, capacity{0};
  };
  std::array<Published, kArrays> pub_;
  std::atomic<std::uint32_t> gen_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// The statements from a split point on, read on a second thread while the
/// parser reads the text before it (FastDotReader::start_second_half()):
/// only simple statements (`a -> b -> c;`, `a;`, `a [k=v];`,
/// `a -> b [k=v, ...];`: the whole of a generated DAG or matmul) and no
/// edge statement with a `key` (cgraph's keyed edges, FastDotReader::new_edge()).
/// Each name, attribute name and short value (16 bytes or fewer, or a node's
/// `key`: what apply_simple() interns) is interned here, in a table of its
/// own, as a *token*; a longer value (which apply_simple() appends, or
/// interns once an HTML string has been read) is kept as its place in the text.
/// The parser adopts what was read (FastDotReader::adopt_second_half())
/// if it arrives at the split point between two statements of the root
/// graph, with nothing but white space before it; then it interns each
/// token once, in their order of first appearance, creates the nodes in
/// the order of their names' first appearance as a node (the order a
/// one-thread read creates them), declares the attribute names of each
/// kind in their order of first appearance (as bind_attrs() would), and
/// renumbers the edges and attribute assignments, instead of scanning and
/// interning every statement itself. The
/// parser does not wait for the second half to finish: it stops it there,
/// adopts the statements read so far and reads the rest itself.
/// Anywhere else (the split point inside a string, a comment, a subgraph, a
/// statement; a strict or undirected graph) the work is dropped and the
/// parser reads on alone: the result is the same either way.
/// Where the second half starts (SecondHalf; the first line start after
/// this fraction of the text). The parser is the slower of the two per
/// statement: it also creates the nodes and edge records, and adopting
/// costs it some 20 ns a statement. On the 20k DAG it read a statement in
/// about 110 ns, the second thread in about 45: from 2/5 of the text the
/// two arrive together.
constexpr struct {
  std::size_t num, den;
} kSecondHalfFrom{2, 5};

class SecondHalf {
public:
  struct LocalEdge {
    std::uint32_t tail, head, line; ///< Tokens' ranks; line (of its records) from 1 at `from`.
  };
  /// One attribute assignment: the ranks of its name and value tokens, or
  /// for a long value (`long_value`) its index in long_values.
  struct LocalSet {
    std::uint32_t key, value;
    bool long_value;
  };
  /// The attributes of a statement that has some: for an edge statement its
  /// `hops` edges from edges[first]; for a node statement (`hops` 0) the
  /// node of token rank `first`. Its assignments are sets[sets_begin] up to
  /// the next statement's sets_begin (or the end).
  struct LocalAttrs {
    std::uint32_t first, hops, sets_begin, line;
  };
  /// A token's first appearance as a node's name: its rank and line.
  struct LocalNode {
    std::uint32_t rank, line;
  };
  /// Will read \p text from byte \p from (a line start), at most \p limit
  /// statements, scanning ahead where its table has \p lookahead_from slots
  /// or more (DotReadTuning::lookahead_table_slots, as the parser).
  SecondHalf(std::string_view text, std::size_t from, std::uint32_t limit, std::size_t lookahead_from)
      : scanner_(text), t_(text), from_(from), limit_(limit), lookahead_from_(lookahead_from) {
    // About what FastDotReader::run() reserves for the whole text, here on
    // the parser's thread, so that it comes from that thread's heap: from
    // the helper's own, the 20k DAG faulted in 950 pages instead of 360
    // (a fresh allocator segment). start_second_half() constructs this only
    // where the first statement can be taken.
    const std::size_t rest = text.size() - from;
    names_.reserve(rest / 128);
    names_.reserve_table(rest / 128);
    first_.reserve(rest / 128);
    // The hashes are kept for the parser's table where it is large (as
    // this one is then): on the 20k DAG their room cost a 2 MiB page more.
    ahead_ = names_.table_slots() >= lookahead_from_;
    if (ahead_) hash_.reserve(rest / 128);
    nodes.reserve(rest / 128);
    edges.reserve(rest / 20);
  }

  /// Reads from `from` until a statement is not simple or is an edge
  /// statement with a `key`, `limit` statements are read, or stop() is
  /// called (each statement is then read whole or not at all). On the
  /// helper thread; nothing else touches this object until joined.
  void run() {
    try {
      if (ahead_) run_ahead();
      else run_plain();
    } catch (...) { // bad_alloc: the parser reads on alone
      failed = true;
    }
  }
  void stop() { stop_.store(true, std::memory_order_relaxed); }

private:
  /// run() where the table fits the caches: a statement at a time.
  void run_plain() {
    std::size_t pos = from_;
    std::uint32_t line = 1; // 0 means "none" in a SimpleShape
    SimpleId ids[kSimpleMaxIds];
    SimpleShape shape;
    while (statements < limit_ && !stop_.load(std::memory_order_relaxed)) {
      if (!scanner_.scan(pos, line, ids, shape) || !takes(ids, shape)) break;
      take(ids, shape, nullptr);
      pos = shape.end;
      line = shape.end_line;
    }
  }
  /// run() where the table is large (a graph with some 10^5 names): as the
  /// parser's top_up(), the next kRing statements are scanned ahead, their
  /// tokens hashed and the table's slots asked for, then the entry and its
  /// text, so that the cache misses of interning overlap.
  void run_ahead() {
    struct Scanned {
      SimpleShape shape;
      SimpleId ids[kSimpleMaxIds];
      std::uint64_t hash[kSimpleMaxIds];
    };
    constexpr std::uint32_t kRing = 8;
    const std::unique_ptr<Scanned[]> ring = std::make_unique<Scanned[]>(kRing);
    std::uint32_t head = 0, count = 0;
    bool stopped = false;
    std::size_t next = from_;
    std::uint32_t next_line = 1;
    const auto prefetch_entries = [&](const Scanned& a, bool text) {
      for (std::uint32_t k = 0; k <= a.shape.hops; ++k) names_.prefetch_entry(a.hash[k], text);
    };
    while (statements < limit_ && !stop_.load(std::memory_order_relaxed)) {
      while (count < kRing && !stopped) {
        Scanned& a = ring[(head + count) % kRing];
        if (!scanner_.scan(next, next_line, a.ids, a.shape) || !takes(a.ids, a.shape)) {
          stopped = true;
          break;
        }
        next = a.shape.end;
        next_line = a.shape.end_line;
        const std::uint32_t n = a.shape.hops + 1 + 2 * a.shape.nattrs;
        for (std::uint32_t k = 0; k < n; ++k) {
          a.hash[k] = hash_bytes(t_.data() + a.ids[k].b, a.ids[k].e - a.ids[k].b);
          names_.prefetch(a.hash[k]);
        }
        ++count;
      }
      if (!count) break;
      if (count > 4) prefetch_entries(ring[(head + 4) % kRing], false);
      if (count > 2) prefetch_entries(ring[(head + 2) % kRing], true);
      const Scanned& a = ring[head];
      take(a.ids, a.shape, a.hash);
      head = (head + 1) % kRing;
      --count;
    }
  }
  /// False for a statement this does not take: an edge statement with a
  /// `key` (new_edge()'s keyed path, the parser's).
  bool takes(const SimpleId* ids, const SimpleShape& shape) const { return takes(t_.data(), ids, shape); }

public:
  /// takes() for the simple statement \p ids / \p shape of the text at \p t.
  static bool takes(const char* t, const SimpleId* ids, const SimpleShape& shape) {
    const SimpleId* attrs = ids + shape.hops + 1;
    for (std::uint32_t k = 0; shape.hops && k < shape.nattrs; ++k)
      if (is_key(std::string_view(t + attrs[2 * k].b, attrs[2 * k].e - attrs[2 * k].b))) return false;
    return true;
  }

private:
  /// Records the statement \p ids / \p shape (hash_bytes() of each ID in
  /// \p hash, or nullptr), in apply_simple()'s order: the names, then each
  /// attribute's name and value.
  void take(const SimpleId* ids, const SimpleShape& shape, const std::uint64_t* hash) {
    const std::uint32_t hops = shape.hops, nattrs = shape.nattrs;
    const std::uint32_t a0 = hops + 1; // the first attribute's name
    std::uint32_t node[kSimpleMaxHops + 1];
    for (std::uint32_t h = 0; h <= hops; ++h) node[h] = node_rank(ids[h], hash ? hash[h] : 0, hash);
    const std::uint32_t sets_begin = static_cast<std::uint32_t>(sets.size());
    for (std::uint32_t k = 0; k < nattrs; ++k) {
      const SimpleId& key_id = ids[a0 + 2 * k];
      const SimpleId& v = ids[a0 + 2 * k + 1];
      const std::uint32_t key = token_rank(key_id, hash ? hash[a0 + 2 * k] : 0, hash);
      if (v.e - v.b > kShortValueMax && !is_key(text_of(key_id))) {
        sets.push_back(LocalSet{key, static_cast<std::uint32_t>(long_values.size()), true});
        long_values.push_back(text_of(v));
      } else {
        sets.push_back(LocalSet{key, token_rank(v, hash ? hash[a0 + 2 * k + 1] : 0, hash), false});
      }
      note_key(hops ? kEdgeKey : kNodeKey, key);
    }
    // The line of the records: the last ']' if any, else the last name.
    const std::uint32_t rec_line = shape.close_line ? shape.close_line : ids[hops].line;
    if (nattrs)
      attr_stmts.push_back(LocalAttrs{hops ? static_cast<std::uint32_t>(edges.size()) : node[0], hops, sets_begin, rec_line});
    for (std::uint32_t h = 0; h < hops; ++h) edges.push_back(LocalEdge{node[h], node[h + 1], rec_line});
    last_first = node[0];
    last_first_text = text_of(ids[0]);
    end = shape.end;
    end_line = shape.end_line;
    last_line = shape.semi_line ? shape.semi_line : rec_line;
    max_hops = std::max(max_hops, hops);
    ++statements;
  }

public:
  std::size_t from() const { return from_; }
  /// The text of the token of rank \p r (ranks: order of first appearance).
  std::string_view token(std::uint32_t r) const { return names_.view(first_[r]); }
  /// True if token_hash() is kept (a large table: scanned ahead).
  bool keeps_hashes() const { return ahead_; }
  /// hash_bytes() of token(\p r), where keeps_hashes().
  std::uint64_t token_hash(std::uint32_t r) const { return hash_[r]; }
  std::size_t token_count() const { return first_.size(); }

  // Valid after run() (the thread joined).
  std::vector<LocalNode> nodes;        ///< Names' first appearances as a node, in order.
  std::vector<LocalEdge> edges;
  std::vector<LocalAttrs> attr_stmts;  ///< The statements with attributes, in order.
  std::vector<LocalSet> sets;
  std::vector<std::string_view> long_values;
  std::vector<std::uint32_t> node_keys, edge_keys; ///< Attribute names' ranks, first appearance in each kind.
  std::uint32_t statements = 0, max_hops = 0;
  std::uint32_t last_first = 0;   ///< Rank of the last statement's first name,
  std::string_view last_first_text; ///< and that name where it stands there.
  std::size_t end = 0;            ///< One past the last statement read.
  std::uint32_t end_line = 0;     ///< Line there (from 1 at `from`).
  std::uint32_t last_line = 0;    ///< The parser's last_line_ after the last statement.
  bool failed = false;

private:
  enum : std::uint8_t { kIsNode = 1, kNodeKey = 2, kEdgeKey = 4 };
  std::string_view text_of(const SimpleId& id) const { return std::string_view(t_.data() + id.b, id.e - id.b); }
  static bool is_key(std::string_view w) { return w == "key"; }
  /// The rank of the token \p id (hashed to \p h if \p hashed), ranked now if new.
  std::uint32_t token_rank(const SimpleId& id, std::uint64_t h, bool hashed) {
    const std::string_view w = text_of(id);
    if (!hashed) h = hash_bytes(w.data(), w.size());
    const std::uint32_t s = names_.intern_hashed(w, h, false);
    if (s >= rank_.size()) rank_.resize(std::max<std::size_t>(s + 1, 2 * rank_.size()), kNone);
    if (rank_[s] == kNone) {
      rank_[s] = static_cast<std::uint32_t>(first_.size());
      first_.push_back(s);
      if (ahead_) hash_.push_back(h);
      flags_.push_back(0);
    }
    return rank_[s];
  }
  std::uint32_t node_rank(const SimpleId& id, std::uint64_t h, bool hashed) {
    const std::uint32_t r = token_rank(id, h, hashed);
    if (!(flags_[r] & kIsNode)) {
      flags_[r] |= kIsNode;
      nodes.push_back(LocalNode{r, id.line});
    }
    return r;
  }
  void note_key(std::uint8_t kind, std::uint32_t r) {
    if (flags_[r] & kind) return;
    flags_[r] |= kind;
    (kind == kNodeKey ? node_keys : edge_keys).push_back(r);
  }
  SimpleScanner scanner_;
  std::string_view t_;
  std::size_t from_;
  std::uint32_t limit_;
  std::size_t lookahead_from_;
  bool ahead_ = false; ///< Scanning ahead, and keeping hash_.
  Interner names_;
  std::vector<std::uint32_t> rank_;  ///< Interned id -> rank, or kNone.
  std::vector<std::uint32_t> first_; ///< Rank -> interned id.
  std::vector<std::uint64_t> hash_;  ///< Rank -> hash_bytes() of its text.
  std::vector<std::uint8_t> flags_;  ///< Rank -> kIsNode, kNodeKey, kEdgeKey.
  std::atomic<bool> stop_{false};
};

class ParseError {
public:
  std::uint32_t line;
  std::string problem;
};

// ---------------------------------------------------------------- reader

class FastDotReader {
public:
  FastDotReader(std::string_view text, const std::string& file) : t_(text), n_(text.size()), file_(file) {}
  ~FastDotReader() {
    fill_ahead_.reset();
    drop_second_half();
  }
  FastDotReader(const FastDotReader&) = delete;
  FastDotReader& operator=(const FastDotReader&) = delete;

  InputGraph run() {
    // Parse 1: the graph. Parse 2: whatever follows it must be empty.
    bool have = false;
    no_html_ = allow_append_;
    // Room for what a generated graph of this size holds, so the big arrays
    // are not copied while they grow: the 20k DAG writes 22 bytes of text
    // per edge (n / 32 was too little). The attribute assignments get theirs
    // when the first one comes (room_for_sets()).
    edges_.reserve(n_ / 20);
    nodes_.reserve(n_ / 128);
    strs_.reserve(n_ / 64);
    // The interner's table too, for a name per 256 bytes (the 10^6 matmul
    // has one per 260, the 20k DAG one per 215): grown from 1,024 slots it
    // was rebuilt eleven times on the 10^6 matmul, each time re-placing
    // every name at random in a table larger than the caches (about 7 % of
    // the read's user time; docs/performance.md, "Thirteenth pass"). Where
    // the text holds fewer names it costs a table of 1/16 to 1/8 of the
    // text's size, written once.
    strs_.reserve_table(n_ / 256);
    if (detail::worth_a_thread(n_, prefault_ahead_from_)) {
      fill_ahead_ = std::make_unique<PrefaultAhead>(true);
      if (fill_ahead_->active()) publish_fill();
      else fill_ahead_.reset();
    }
    if (detail::worth_a_thread(n_ - start_, speculate_from_)) start_second_half();
    try {
      have = parse_graph();
      fill_ahead_.reset(); // the records grow no more
      drop_second_half(); // adopted, or never reached
      if (simple_read_) *simple_read_ += simple_statements_;
    } catch (ParseError& e) {
      throw InputError(file_, e.line, e.problem);
    }
    if (!have) throw InputError(file_, 0, "no graph found");
    const bool directed = directed_;
    const std::uint32_t root_line = root_line_;
    second_parse();
    if (!directed) throw InputError(file_, root_line, "undirected graph: a dependency graph must be a 'digraph'");
    return convert();
  }

private:
  // ------------------------------------------------------------ scanner
  const char* s() const { return t_.data(); }

  Token scan() {
    Token tok;
    for (;;) {
      if (pos_ >= n_) return eof_token(EofState::Initial, 0);
      const unsigned char c = static_cast<unsigned char>(t_[pos_]);
      switch (c) {
      case '\n': ++line_; ++pos_; continue;
      case ' ': case '\t': case '\r': ++pos_; continue;
      case '@': {
        tok = begin_token(Tok::Eof);
        tok.at_marker = true;
        ++pos_;
        return finish(tok);
      }
      case '#': skip_to_eol(); continue;
      case '/':
        if (pos_ + 1 < n_ && t_[pos_ + 1] == '/') { skip_to_eol(); continue; }
        if (pos_ + 1 < n_ && t_[pos_ + 1] == '*') {
          const std::uint32_t open = line_;
          std::size_t i = pos_ + 2;
          for (;;) {
            const void* hit = std::memchr(s() + i, '*', n_ - i);
            std::size_t j = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - s()) : n_;
            line_ += count_newlines(i, j);
            if (j >= n_) { pos_ = n_; return eof_token(EofState::Comment, open); }
            if (j + 1 < n_ && t_[j + 1] == '/') { pos_ = j + 2; break; }
            i = j + 1;
          }
          continue;
        }
        return char_token('/');
      case '"': return scan_qstring();
      case '<': return scan_hstring();
      case '-':
        if (pos_ + 1 < n_ && (t_[pos_ + 1] == '>' || t_[pos_ + 1] == '-')) {
          const bool arrow = t_[pos_ + 1] == '>';
          tok = begin_token(Tok::EdgeOp);
          pos_ += 2;
          if (!(arrow ? graph_type_ == Tok::Digraph : graph_type_ == Tok::Graph)) {
            tok.kind = Tok::Char;
            tok.ch = '-';
          }
          return finish(tok);
        }
        if (number_ahead(pos_)) return scan_number();
        return char_token('-');
      case '.':
        if (number_ahead(pos_)) return scan_number();
        return char_token('.');
      default: break;
      }
      if (is_digit(c)) return scan_number();
      if (is_letter(c)) {
        std::size_t b = pos_, i = pos_ + 1;
        while (i < n_ && (is_letter(static_cast<unsigned char>(t_[i])) || is_digit(static_cast<unsigned char>(t_[i])))) ++i;
        std::string_view w = t_.substr(b, i - b);
        if (w == "\xEF\xBB\xBF") { // a byte-order mark standing alone
          // cgraph gives lines as if it were a token read ahead: the
          // first one (errors with no graph open), the last before the end
          // of the input, and the line of what the parser does after
          // reading ahead (a node or edge the statement before creates).
          if (!bom_line_ && !graph_open_) bom_line_ = line_;
          if (!lead_bom_line_ && !any_token_) lead_bom_line_ = line_;
          last_sig_line_ = line_;
          last_line_ = line_;
          pos_ = i;
          continue;
        }
        tok = begin_token(Tok::Atom);
        pos_ = i;
        if (w.size() <= 8) {
          if (keyword_is(w, "node")) tok.kind = Tok::Node;
          else if (keyword_is(w, "edge")) tok.kind = Tok::Edge;
          else if (keyword_is(w, "graph")) tok.kind = Tok::Graph;
          else if (keyword_is(w, "digraph")) tok.kind = Tok::Digraph;
          else if (keyword_is(w, "strict")) tok.kind = Tok::Strict;
          else if (keyword_is(w, "subgraph")) tok.kind = Tok::Subgraph;
        }
        if ((tok.kind == Tok::Graph || tok.kind == Tok::Digraph) && graph_type_ == Tok::Eof) graph_type_ = tok.kind;
        if (tok.kind == Tok::Atom) tok.sid = intern_token(w, false, false);
        return finish(tok);
      }
      return char_token(static_cast<char>(c));
    }
  }

  std::uint32_t count_newlines(std::size_t b, std::size_t e) const {
    std::uint32_t k = 0;
    const char* p = s() + b;
    const char* end = s() + e;
    while (p < end) {
      const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      if (!hit) break;
      ++k;
      p = static_cast<const char*>(hit) + 1;
    }
    return k;
  }

  void skip_to_eol() {
    const void* hit = std::memchr(s() + pos_, '\n', n_ - pos_);
    pos_ = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - s()) : n_;
  }

  Token begin_token(Tok k) const {
    Token tok;
    tok.kind = k;
    tok.begin = tok.at = pos_;
    tok.first_line = tok.at_line = line_;
    return tok;
  }
  Token finish(Token tok) {
    tok.end = pos_;
    tok.last_line = line_;
    if (tok.kind != Tok::Eof) last_sig_line_ = line_;
    any_token_ = true;
    return tok;
  }
  Token char_token(char c) {
    Token tok = begin_token(Tok::Char);
    tok.ch = c;
    ++pos_;
    return finish(tok);
  }
  Token eof_token(EofState st, std::uint32_t open) const {
    Token tok;
    tok.kind = Tok::Eof;
    tok.eof_state = st;
    tok.begin = tok.end = tok.at = n_;
    tok.first_line = tok.at_line = tok.last_line = line_;
    tok.open_line = open;
    return tok;
  }

  /// NUMBER [-]?((DIGIT+(.DIGIT*)?)|(.DIGIT+))(.|LETTER)? starts at \p i.
  bool number_ahead(std::size_t i) const {
    if (i < n_ && t_[i] == '-') ++i;
    if (i < n_ && is_digit(static_cast<unsigned char>(t_[i]))) return true;
    return i + 1 < n_ && t_[i] == '.' && is_digit(static_cast<unsigned char>(t_[i + 1]));
  }

  Token scan_number() {
    Token tok = begin_token(Tok::Atom);
    std::size_t i = pos_;
    if (t_[i] == '-') ++i;
    if (is_digit(static_cast<unsigned char>(t_[i]))) {
      while (i < n_ && is_digit(static_cast<unsigned char>(t_[i]))) ++i;
      if (i < n_ && t_[i] == '.') {
        ++i;
        while (i < n_ && is_digit(static_cast<unsigned char>(t_[i]))) ++i;
      }
    } else {
      ++i; // '.'
      while (i < n_ && is_digit(static_cast<unsigned char>(t_[i]))) ++i;
    }
    if (i < n_ && (t_[i] == '.' || is_letter(static_cast<unsigned char>(t_[i])))) {
      // cgraph's chkNum: a trailing letter, or a '.' after another '.',
      // splits the token (a warning, not an error).
      const unsigned char last = static_cast<unsigned char>(t_[i]);
      bool split = last != '.';
      if (!split)
        for (std::size_t k = pos_; k < i; ++k)
          if (t_[k] == '.') split = true;
      if (!split) ++i;
    }
    pos_ = i;
    tok.sid = intern_token(t_.substr(tok.begin, i - tok.begin), false, false);
    return finish(tok);
  }

  Token scan_qstring() {
    Token tok = begin_token(Tok::QAtom);
    const std::uint32_t open = line_;
    std::size_t i = pos_ + 1;
    // Fast path: no backslash before the closing quote.
    std::size_t j = i;
    while (j < n_ && t_[j] != '"' && t_[j] != '\\') ++j;
    if (j < n_ && t_[j] == '"') {
      line_ += count_newlines(i, j);
      std::string_view content = t_.substr(i, j - i);
      if (content == "\n") content = {};
      pos_ = j;
      tok.at = j;
      tok.at_line = line_;
      ++pos_;
      tok.sid = intern_token(content, false, false);
      return finish(tok);
    }
    scratch_.clear();
    while (i < n_) {
      const char c = t_[i];
      if (c == '"') break;
      if (c == '\\') {
        if (i + 1 < n_ && t_[i + 1] == '"') { scratch_ += '"'; i += 2; continue; }
        if (i + 1 < n_ && t_[i + 1] == '\\') { scratch_ += "\\\\"; i += 2; continue; }
        if (i + 1 < n_ && t_[i + 1] == '\n') { ++line_; i += 2; continue; }
        scratch_ += '\\';
        ++i;
        continue;
      }
      std::size_t k = i;
      while (k < n_ && t_[k] != '"' && t_[k] != '\\') ++k;
      line_ += count_newlines(i, k);
      if (!(k - i == 1 && c == '\n')) scratch_.append(t_.data() + i, k - i);
      i = k;
    }
    if (i >= n_) {
      pos_ = n_;
      eof_buffer_ = scratch_;
      return eof_token(EofState::QString, open);
    }
    pos_ = i;
    tok.at = i;
    tok.at_line = line_;
    ++pos_;
    tok.sid = intern_token(scratch_, true, false);
    return finish(tok);
  }

  Token scan_hstring() {
    // An HTML string may have the text of an appended value, which cgraph
    // would then treat as plain (the first appearance decides): read again,
    // interning every value.
    if (appended_) throw RestartInterningValues{};
    seen_html_ = true; // and from now on every value is interned: it may have this text
    Token tok = begin_token(Tok::QAtom);
    tok.html = true;
    const std::uint32_t open = line_;
    std::size_t i = pos_ + 1;
    int nest = 1;
    while (i < n_) {
      const char c = t_[i];
      if (c == '>') {
        if (--nest == 0) break;
      } else if (c == '<') {
        ++nest;
      } else if (c == '\n') {
        ++line_;
      }
      ++i;
    }
    if (i >= n_) {
      pos_ = n_;
      eof_buffer_ = std::string(t_.substr(tok.begin + 1));
      return eof_token(EofState::HString, open);
    }
    std::string_view content = t_.substr(pos_ + 1, i - pos_ - 1);
    pos_ = i;
    tok.at = i;
    tok.at_line = line_;
    ++pos_;
    tok.sid = intern_token(content, false, true);
    return finish(tok);
  }

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

  // ------------------------------------------------------------ errors
  std::string token_text(const Token& t) const {
    if (t.kind == Tok::Eof) return t.at_marker ? "@" : "";
    if (t.kind == Tok::QAtom) return t.html ? ">" : "\"";
    return std::string(t_.substr(t.begin, t.end - t.begin));
  }

  /// cgraph's message for an error at \p t (aagerror), without the line.
  std::string cgraph_problem(const std::string& what, const Token& t) const {
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
  std::uint32_t no_graph_line(bool* at_end) const {
    *at_end = first_tok_.kind == Tok::Eof && !first_tok_.at_marker;
    if (*at_end) return end_line(first_tok_);
    if (first_tok_.kind == Tok::Strict) {
      *at_end = after_strict_.kind == Tok::Eof && !after_strict_.at_marker;
      if (bom_line_) return bom_line_;
      return *at_end ? end_line(after_strict_) : after_strict_.first_line;
    }
    return bom_line_ ? bom_line_ : first_tok_.first_line;
  }
  std::uint32_t end_line(const Token& eof) const {
    return eof.open_line ? eof.open_line : last_sig_line_;
  }

  [[noreturn]] void fail_at(const Token& t, const std::string& what) {
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
  [[noreturn]] void syntax(const Token& t) { fail_at(t, "syntax error"); }
  [[noreturn]] void exhausted() {
    bool at_end;
    std::uint32_t line = no_graph_line(&at_end);
    throw ParseError{line, cgraph_problem("memory exhausted", peek_copy()) + suffix_};
  }
  Token peek_copy() { return have_ ? cur_ : Token{}; }

  // ------------------------------------------------------------ grammar
  /// Returns false for an empty input (cgraph's `graph: /* empty */`).
  bool parse_graph() {
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
  void parse_body() {
    const std::uint32_t d0 = sd_;
    bool first = true;
    for (;;) {
      if (half_ && !have_ && depth_ == 0 && adopt_second_half(d0)) {
        if (!first) pop(1); // stmtlist: stmtlist stmt, once a statement for each adopted
        first = false;
        continue;
      }
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
  void unpeek_id() {
    if (!have_ || !(cur_.kind == Tok::Atom || (cur_.kind == Tok::QAtom && !cur_.html))) return;
    pos_ = cur_.begin;
    line_ = cur_.first_line;
    have_ = false;
  }

  /// A statement; leaves one state (stmt) on the stack.
  void parse_stmt() {
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

  // ------------------------------------------------------------ the common statement, in one pass
  // (SimpleScanner above: the shape; apply_simple(): the actions.)

  // ------------------------------------------------------------ the second half, on a second thread

  /// Starts reading the statements from the first line start after
  /// kSecondHalfFrom of the text (DotReadTuning::speculate_at for tests)
  /// on a second thread (SecondHalf). Nothing if no thread can be started,
  /// or if the statement there is not one it would take.
  void start_second_half() {
    std::size_t from = speculate_at_;
    if (from == 0) {
      const std::size_t mid = start_ + (n_ - start_) / kSecondHalfFrom.den * kSecondHalfFrom.num;
      const void* nl = std::memchr(s() + mid, '\n', n_ - mid);
      if (!nl) return;
      from = static_cast<std::size_t>(static_cast<const char*>(nl) - s()) + 1;
    }
    if (from <= start_ || from >= n_) return;
    // A second half that would stop at its first statement (not a simple
    // one, or an edge statement with a `key`) is not worth its room.
    SimpleId ids[kSimpleMaxIds];
    SimpleShape shape;
    if (!scanner_.scan(from, 1, ids, shape) || !SecondHalf::takes(s(), ids, shape)) return;
    try {
      half_ = std::make_unique<SecondHalf>(t_, from, speculate_limit_, lookahead_from_);
      half_thread_ = std::thread([h = half_.get()] { h->run(); });
    } catch (...) { // no thread, or no memory for one: read alone
      half_.reset();
    }
  }

  /// Stops and forgets the second half's work (waiting for its thread).
  void drop_second_half() {
    if (!half_) return;
    half_->stop();
    if (half_thread_.joinable()) half_thread_.join();
    half_.reset();
  }

  /// Between two statements of the root graph's body (entered with parser
  /// stack depth \p d0): if the cursor has reached the second half's split
  /// point with only white space before it, does what simple_stmt() would
  /// do with each statement the second half read, and returns true (its
  /// statements count as one for the caller: the stack ends as after
  /// them all). Past the split point the work is dropped; before it,
  /// nothing happens. A one-thread read gives the same records, lines and
  /// cursor (tests/dot_reader_test.cpp, TheSecondHalfReadsAsOneThreadDoes).
  bool adopt_second_half(std::uint32_t d0) {
    const std::size_t from = half_->from();
    if (pos_ > from) {
      drop_second_half();
      return false;
    }
    for (std::size_t i = pos_; i < from; ++i) {
      const char c = t_[i];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false; // a statement before the split point
    }
    if (!speculate_wait_) half_->stop(); // what it has not read yet, the parser reads
    if (half_thread_.joinable()) half_thread_.join();
    const std::unique_ptr<SecondHalf> h = std::move(half_);
    // What simple_stmt() requires, and the parser stack room apply_simple() checks.
    if (h->failed || h->statements == 0 || graph_type_ != Tok::Digraph || strict_ || top().g != 0 ||
        std::max(sd_, d0 + 1) + 8 * h->max_hops + 16 >= kMaxParserStack)
      return false;
    const std::uint32_t base = line_ + count_newlines(pos_, from); // the line at `from`
    const auto at = [base](std::uint32_t line) { return base + line - 1; };
    // The tokens once each, in their order of first appearance, as
    // apply_simple() interns them; each hashed already, and the table's
    // slot and entry asked for some tokens ahead (as top_up() does).
    const std::uint32_t ntokens = static_cast<std::uint32_t>(h->token_count());
    std::vector<std::uint32_t> id_of(ntokens), node_of(ntokens, kNone);
    if (!h->keeps_hashes()) {
      for (std::uint32_t r = 0; r < ntokens; ++r) id_of[r] = intern_plain(h->token(r), copy_);
    } else {
      for (std::uint32_t r = 0; r < ntokens; ++r) {
        if (r + 16 < ntokens) strs_.prefetch(h->token_hash(r + 16));
        if (r + 8 < ntokens) strs_.prefetch_entry(h->token_hash(r + 8), false);
        if (r + 4 < ntokens) strs_.prefetch_entry(h->token_hash(r + 4), true);
        id_of[r] = first_seen_as(strs_.intern_hashed(h->token(r), h->token_hash(r), copy_), false);
      }
    }
    // The nodes, in the order their names first appear as one, as
    // simple_node() creates them.
    std::uint32_t node_snap = kNone;
    for (const SecondHalf::LocalNode& n : h->nodes) {
      const std::uint32_t name = id_of[n.rank];
      std::uint32_t node = strs_[name].node;
      if (node == kNone) {
        if (node_snap == kNone) node_snap = snapshot(kNode, 0);
        node = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back(NodeRec{name, at(n.line), node_snap});
        strs_[name].node = node;
      }
      node_of[n.rank] = node;
    }
    // bind_attrs(): the attribute names of each kind, in their order of
    // first appearance (declaring one changes no snapshot: its default is "").
    for (const std::uint32_t r : h->node_keys) declare(kNode, id_of[r]);
    for (const std::uint32_t r : h->edge_keys) declare(kEdge, id_of[r]);
    const std::uint32_t edge_base = static_cast<std::uint32_t>(edges_.size());
    if (!h->edges.empty()) {
      edges_.reserve(edges_.size() + h->edges.size());
      const Prefault prefault(edges_.data() + edges_.size(), h->edges.size() * sizeof(EdgeRec),
                              detail::worth_a_thread(h->edges.size() * sizeof(EdgeRec), prefault_from_));
      const std::uint32_t snap = snapshot(kEdge, 0);
      for (const SecondHalf::LocalEdge& e : h->edges)
        edges_.push_back(EdgeRec{node_of[e.tail], node_of[e.head], at(e.line), snap, kNone});
    }
    // The attribute assignments, statement by statement: each value as
    // apply_simple() takes it (a long one appended, or interned once an
    // HTML string has been read), once for all the edges of its statement.
    if (!h->attr_stmts.empty()) {
      std::vector<SymValue> sv;
      for (std::size_t a = 0; a < h->attr_stmts.size(); ++a) {
        const SecondHalf::LocalAttrs& st = h->attr_stmts[a];
        const std::size_t sets_end = a + 1 < h->attr_stmts.size() ? h->attr_stmts[a + 1].sets_begin : h->sets.size();
        const int kind = st.hops ? kEdge : kNode;
        sv.clear();
        for (std::size_t k = st.sets_begin; k < sets_end; ++k) {
          const SecondHalf::LocalSet& set = h->sets[k];
          const std::uint32_t value = set.long_value ? long_value(h->long_values[set.value]) : id_of[set.value];
          sv.push_back(SymValue{find_sym(kind, id_of[set.key]), value});
        }
        std::vector<SetRec>& out = st.hops ? edge_sets_ : node_sets_;
        room_for_sets(out);
        const std::uint32_t line = at(st.line);
        if (!st.hops) {
          for (const SymValue& x : sv) out.push_back(SetRec{node_of[st.first], x.sym, x.value, line});
        } else {
          for (std::uint32_t e = st.first; e < st.first + st.hops; ++e)
            for (const SymValue& x : sv) out.push_back(SetRec{edge_base + e, x.sym, x.value, line});
        }
      }
    }
    prev_first_ = h->last_first_text;
    prev_first_id_ = id_of[h->last_first];
    pos_ = h->end;
    line_ = at(h->end_line);
    last_line_ = at(h->last_line);
    last_sig_line_ = line_;
    sd_ += 1; // as apply_simple() leaves it; the caller pops as after one statement
    ahead_count_ = 0; // the scan-ahead ring restarts at pos_
    ahead_stopped_ = false;
    if (pos_ >= next_report_) report();
    if (adopted_) *adopted_ += h->statements;
    return true;
  }

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
  bool simple_stmt() {
    if (graph_type_ != Tok::Digraph) return false;
    if (strs_.table_slots() >= lookahead_from_) return simple_stmt_ahead();
    // The interner's table fits the caches: nothing to hide, so no scanning
    // ahead (its bookkeeping would cost more than it saves).
    SimpleId ids[kSimpleMaxIds];
    SimpleShape shape;
    return scanner_.scan(pos_, line_, ids, shape) && apply_simple(ids, shape, nullptr);
  }
  /// simple_stmt() with the statements scanned ahead.
  [[gnu::noinline]] bool simple_stmt_ahead() {
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
  void prefetch_names(const Ahead& a, bool text) const {
    for (std::uint32_t k = 0; k <= a.shape.hops; ++k) strs_.prefetch_entry(a.hash[k], text);
  }

  /// Scans statements after the last one scanned until kLookahead are
  /// ahead of the parser or one is not simple. Each one's names are hashed
  /// and their interner slots prefetched: with 10^6 names every lookup
  /// misses the caches, and this way the misses of the next statements
  /// overlap the work on this one.
  [[gnu::noinline]] void top_up() {
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
  [[gnu::always_inline]] std::uint32_t intern_id(const SimpleId* ids, const std::uint64_t* hash, std::uint32_t k) {
    const std::string_view w = view(ids[k]);
    if (!hash) return intern_plain(w, copy_);
    return first_seen_as(strs_.intern_hashed(w, hash[k], copy_), false);
  }

  /// The id of a long value (kShortValueMax) of a simple statement:
  /// appended while no HTML string has been read, else interned.
  std::uint32_t long_value(std::string_view value) {
    if (!no_html_ || seen_html_) return intern_plain(value, copy_);
    appended_ = true;
    return strs_.append(value, copy_);
  }
  /// An attribute assignment of a simple statement: symbol and value ids.
  struct SymValue {
    std::uint32_t sym, value; // no initialisers: a stack array per statement
  };

  /// What parse_stmt() does with the simple statement \p shape describes
  /// (\p ids: its IDs, SimpleShape; \p hash: their hashes, or nullptr),
  /// starting at pos_ / line_. False, having changed nothing, where the
  /// parser stack would be exhausted (the general path reports it).
  [[gnu::always_inline]] bool apply_simple(const SimpleId* ids, const SimpleShape& shape, const std::uint64_t* hash) {
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
  [[gnu::always_inline]] std::uint32_t simple_node(std::uint32_t name) {
    std::uint32_t node = strs_[name].node;
    if (node == kNone) {
      node = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(NodeRec{name, last_line_, snapshot(kNode, top().g)});
      strs_[name].node = node;
    }
    add_member(top().g, node);
    return node;
  }
  std::string_view view(const SimpleId& id) const { return std::string_view(t_.data() + id.b, id.e - id.b); }

  /// After `simple` (one state): rcompound, optattr, then the compound's action.
  void compound_rest() {
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
  void parse_attrlists() {
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
  std::uint32_t parse_atom() {
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
  void parse_node_rest(std::uint32_t name) {
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
  void parse_subgraph() {
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

  // ------------------------------------------------------------ cgraph's actions
  Level& top() { return levels_[depth_]; }

  void start_graph(std::uint32_t name) {
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

  void open_subgraph(std::uint32_t name) {
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

  void close_subgraph() {
    const std::uint32_t g = top().g;
    levels_[depth_].clear();
    --depth_;
    top().subg = g;
  }

  /// getedgeitems(): the current node list or subgraph becomes an item.
  void edge_items() {
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

  // Attribute symbols.
  std::uint32_t find_sym(int kind, std::uint32_t name) const {
    return name < sym_of_[kind].size() ? sym_of_[kind][name] : kNone;
  }
  std::uint32_t declare(int kind, std::uint32_t name) {
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
  std::uint32_t graph_default(std::uint32_t g, std::uint32_t s) const {
    for (;;) {
      const GraphRec& r = graphs_[g];
      if (r.parent == kNone) return s < r.gval.size() ? r.gval[s] : 0;
      if (s < r.glocal.size() && r.glocal[s]) return r.gval[s];
      g = r.parent;
    }
  }
  void set_graph_attr(std::uint32_t g, std::uint32_t s, std::uint32_t v) {
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
  std::uint32_t object_default(int kind, std::uint32_t g, std::uint32_t s) const {
    for (;;) {
      const GraphRec& r = graphs_[g];
      if (r.parent == kNone) return syms_[kind][s].root_def;
      for (const auto& [k, v] : r.local_def[kind])
        if (k == s) return v;
      g = r.parent;
    }
  }
  /// The defaults a node/edge created in \p g starts with (non-empty ones).
  [[gnu::always_inline]] std::uint32_t snapshot(int kind, std::uint32_t g) {
    const GraphRec& r = graphs_[g];
    if (r.snap[kind] != kNone && r.snap_version[kind] == version_[kind]) return r.snap[kind];
    return new_snapshot(kind, g);
  }
  std::uint32_t new_snapshot(int kind, std::uint32_t g) {
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
  void bind_attrs(int kind) {
    for (auto& [k, v] : top().attrs) {
      if (kind == kEdge && strs_.view(k) == "key") continue;
      if (find_sym(kind, k) != kNone) continue;
      declare(kind, k);
      if (kind == kGraph) set_graph_attr(top().g, find_sym(kind, k), 0);
    }
  }

  void attr_stmt(int kind) {
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
  void append_node(std::uint32_t name, std::uint32_t port) {
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

  void end_node() {
    bind_attrs(kNode);
    Level& L = top();
    if (!L.attrs.empty()) room_for_sets(node_sets_);
    for (const NodeRef& r : L.nodelist)
      for (const auto& [k, v] : L.attrs) node_sets_.push_back(SetRec{r.node, find_sym(kNode, k), v, last_line_});
    L.clear();
  }

  const std::vector<std::uint32_t>& sorted_members(std::uint32_t g) {
    GraphRec& r = graphs_[g];
    if (!r.members_sorted) {
      std::sort(r.members.begin(), r.members.end());
      r.members_sorted = true;
    }
    return r.members;
  }

  void end_edge() {
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
  void new_edge(std::uint32_t t, std::uint32_t tport, std::uint32_t h, std::uint32_t hport, std::uint32_t key) {
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
  void edge_set(std::uint32_t e, std::uint32_t s, std::uint32_t v, std::uint32_t line) {
    room_for_sets(edge_sets_);
    edge_sets_.push_back(SetRec{e, s, v, line});
  }
  /// Room, at the first attribute assignment, for what a generated graph of
  /// this size holds (a matmul: 4 assignments of about 64 bytes a node
  /// statement), so the array is not copied while it grows; a graph with no
  /// attributes (the 20k DAG) maps none of it: with huge pages, room
  /// reserved but never written is still memory the kernel zeroes once a
  /// neighbour touches its 2 MiB.
  void room_for_sets(std::vector<SetRec>& sets) {
    if (sets.capacity() == 0) sets.reserve(n_ / 48);
  }

  // ------------------------------------------------------------ after the graph
  /// cgraph's second agread(): anything after the graph must be empty.
  void second_parse() {
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

  // ------------------------------------------------------------ conversion
  std::string value_text(std::uint32_t v) const {
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
  std::string graph_name(std::uint32_t name) const {
    if (name == kNone) return {};
    std::string_view n = strs_.view(name);
    if (n.size() > 1 && n[0] == '%' && n.find_first_not_of("0123456789", 1) == std::string_view::npos) return {};
    return std::string(n);
  }
  std::string sym_name(int kind, std::uint32_t s) const { return std::string(strs_.view(syms_[kind][s].name)); }

  [[noreturn]] void fail(std::uint32_t line, std::string problem) const { throw InputError(file_, line, std::move(problem)); }

  /// The text of value \p v without a copy (HTML values: "<text>", built in \p html).
  std::string_view value_view(std::uint32_t v, std::string& html) const {
    if (strs_[v].html == 1 && !strs_.view(v).empty()) {
      html = value_text(v);
      return html;
    }
    return strs_.view(v);
  }

  /// \p k: the attribute's symbol (its name is only needed for a message).
  void node_model_attr(Node& node, std::uint8_t code, std::uint32_t k, std::string_view v, std::uint32_t line) const {
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
  static void group(std::vector<SetRec>& sets, std::size_t objects, std::vector<std::uint32_t>& start,
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

  /// The attribute resolution's scratch for one kind of object (nodes or
  /// edges): each convert task has its own (convert_nodes(), convert_edges(),
  /// each thread of convert_on_two_threads()).
  struct ResolveScratch {
    std::vector<std::uint32_t> stamp, val, line_of, touched, nonempty_default;
    std::uint32_t now = 0;
  };

  /// Resolves the attributes of one object: its creation defaults, then its
  /// assignments in order. Calls \p emit(sym, value, line) for the symbols
  /// that are set or whose root default is not "", in symbol order. Reads
  /// the reader's state, writes only \p x (prepare_kind(kind, x) first).
  template <class Emit>
  void resolve(int kind, ResolveScratch& x, std::uint32_t snap, const SetRec* b, const SetRec* e, Emit&& emit) const {
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

  void prepare_kind(int kind, ResolveScratch& x) const {
    const std::size_t k = syms_[kind].size();
    x.stamp.assign(k, 0);
    x.val.assign(k, 0);
    x.line_of.assign(k, 0);
    x.now = 0;
    x.nonempty_default.clear();
    for (std::uint32_t s = 0; s < k; ++s)
      if (syms_[kind][s].root_def != 0) x.nonempty_default.push_back(s);
  }

  /// Whether convert() builds nodes and edges on two threads: where both
  /// are many (DotReadTuning::parallel_convert_from) and the machine has a
  /// second hardware thread. The result is the same either way.
  bool convert_in_parallel() const {
    return detail::worth_a_thread(std::min(nodes_.size(), edges_.size()), parallel_convert_from_);
  }

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
  void build_node(Node& node, std::uint32_t i, const GroupedSets& g, ResolveScratch& x, std::string& html) const {
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

  /// The InputGraph's nodes, in creation order (build_node()), on this
  /// thread. Consumes node_sets_; touches nothing convert_edges() does.
  void convert_nodes(std::vector<Node>& nodes) {
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

  /// The nodes shared out in chunks between the threads of a parallel
  /// convert() (work()): the array is constructed first, then each thread
  /// takes the next chunk of kChunk nodes until none is left. A thread
  /// stops at its first bad node, and of the bad nodes met the first one's
  /// error is kept (failed()), which is the error of the sequential order:
  /// every chunk before a thread's bad one was taken, by it or another, and
  /// is built up to its own first bad node, if any.
  struct NodeChunks {
    static constexpr std::uint32_t kChunk = 4096;
    GroupedSets g;
    std::atomic<std::uint32_t> next{0};
    std::mutex mutex;
    std::uint32_t first_bad = kNone; ///< Under mutex.
    std::exception_ptr error;        ///< first_bad's, under mutex.

    /// One thread's share: chunks until none is left or one of its nodes is bad.
    template <class Build>
    void work(std::vector<Node>& nodes, Build&& build) {
      const std::uint32_t n = static_cast<std::uint32_t>(nodes.size());
      for (;;) {
        const std::uint32_t c = next.fetch_add(1, std::memory_order_relaxed);
        if (c >= (n + kChunk - 1) / kChunk) return;
        for (std::uint32_t i = c * kChunk, e = std::min(n, i + kChunk); i < e; ++i) try {
            build(nodes[i], i);
          } catch (...) {
            failed(i, std::current_exception());
            return;
          }
      }
    }
    /// Keeps \p e, the error of node \p i, if no earlier node's is kept.
    void failed(std::uint32_t i, std::exception_ptr e) {
      std::lock_guard<std::mutex> lock(mutex);
      if (i < first_bad) {
        first_bad = i;
        error = std::move(e);
      }
    }
  };

  /// The InputGraph's edges, as written, with their attributes resolved.
  /// Reads the reader's records and consumes edge_sets_; touches nothing
  /// convert_nodes() does (messages name nodes by their interned names).
  void convert_edges(std::vector<Edge>& edges) {
    std::vector<std::uint32_t> start;
    std::vector<SetRec> grouped;
    group(edge_sets_, edges_.size(), start, grouped);
    ResolveScratch x;
    prepare_kind(kEdge, x);
    std::string html; // value_view()'s scratch
    edges.reserve(edges_.size());
    const Prefault prefault(edges.data() + edges.size(), (edges.capacity() - edges.size()) * sizeof(Edge),
                            detail::worth_a_thread(edges_.size() * sizeof(Edge), prefault_from_));
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

  InputGraph convert() {
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
    // on two threads where both are large (convert_in_parallel()).
    if (!convert_in_parallel() || !convert_on_two_threads(out)) {
      convert_nodes(out.nodes);
      convert_edges(out.edges);
    }
    out.subgraphs = convert_subgraphs(0);
    if (!engines_given) {
      bool any = std::any_of(out.nodes.begin(), out.nodes.end(), [](const Node& n) { return n.engine != kNoEngine; });
      out.num_engines = any ? 8 : 0; // walrus default: numDataPathEngines
    }
    return out;
  }

  /// convert_nodes() and convert_edges() on two threads: a second one builds
  /// the edges while this one groups the node assignments and constructs the
  /// node array; then both build nodes, a chunk at a time (NodeChunks; the
  /// nodes take about three times as long as the edges on a generated
  /// matmul). Errors are those of the sequential order: the first bad node's,
  /// else the edges'. False, having done nothing, if no thread can be started.
  bool convert_on_two_threads(InputGraph& out) {
    NodeChunks chunks;
    std::exception_ptr edge_error, error;
    std::atomic<int> nodes_ready{0}; // 1: the helper may build nodes; 2: it may not
    auto build_nodes = [&] {
      ResolveScratch x;
      prepare_kind(kNode, x);
      std::string html;
      chunks.work(out.nodes, [&](Node& node, std::uint32_t i) { build_node(node, i, chunks.g, x, html); });
    };
    std::thread helper;
    try {
      helper = std::thread([&] {
        try {
          convert_edges(out.edges);
        } catch (...) {
          edge_error = std::current_exception();
        }
        nodes_ready.wait(0);
        if (nodes_ready.load() != 1) return;
        try {
          build_nodes();
        } catch (...) { // the scratch's allocation: before any node
          chunks.failed(0, std::current_exception());
        }
      });
    } catch (const std::system_error&) {
      return false;
    }
    try {
      group(node_sets_, nodes_.size(), chunks.g.start, chunks.g.sets);
      out.nodes.resize(nodes_.size());
      nodes_ready.store(1);
      nodes_ready.notify_one();
      build_nodes();
    } catch (...) {
      error = std::current_exception(); // an allocation before or around the chunks
    }
    if (nodes_ready.load() == 0) {
      nodes_ready.store(2);
      nodes_ready.notify_one();
    }
    helper.join();
    if (error) std::rethrow_exception(error);
    if (chunks.error) std::rethrow_exception(chunks.error);
    if (edge_error) std::rethrow_exception(edge_error);
    return true;
  }

  std::vector<Subgraph> convert_subgraphs(std::uint32_t parent) {
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
  const NulCheck* nul_ = nullptr; ///< Searching the text beside the parser, if set.
  bool copy_ = false;
  /// May simple_stmt() append long attribute values instead of interning
  /// them? False for the second parse and for a read restarted by an HTML string.
  bool allow_append_ = true;
  /// Scan ahead once the interner's table has this many slots (detail::DotReadTuning).
  std::size_t lookahead_from_ = detail::DotReadTuning{}.lookahead_table_slots;
  std::size_t parallel_convert_from_ = detail::DotReadTuning{}.parallel_convert_from;
  std::size_t prefault_from_ = detail::DotReadTuning{}.prefault_from;
  std::size_t prefault_ahead_from_ = detail::DotReadTuning{}.prefault_ahead_from;
  /// Faulting in pages ahead of the parser's records, if set (run()).
  std::unique_ptr<PrefaultAhead> fill_ahead_;
  /// Read the statements of a second part on a second thread (SecondHalf)
  /// from this many bytes of text, splitting at speculate_at_ if it is not
  /// 0; the rest as in detail::DotReadTuning.
  std::size_t speculate_from_ = detail::DotReadTuning{}.speculate_from;
  std::size_t speculate_at_ = 0;
  bool speculate_wait_ = false;
  std::uint32_t speculate_limit_ = UINT32_MAX;
  std::size_t* adopted_ = nullptr;
  std::size_t* simple_read_ = nullptr;

private:
  void report() {
    if (nul_ && nul_->seen()) throw NulSeen{};
    if (fill_ahead_) publish_fill();
    if (progress_) (*progress_)(pos_, n_);
    if (release_ && pos_ > (std::size_t{1} << 20)) (*release_)(pos_ - (std::size_t{1} << 20));
    next_report_ = pos_ + kReportEvery;
  }
  /// Tells fill_ahead_ where the parser's growing arrays are (PrefaultAhead).
  void publish_fill() {
    auto put = [&](std::size_t i, const auto& v) {
      using T = typename std::remove_reference_t<decltype(v)>::value_type;
      fill_ahead_->publish(i, v.data(), v.size() * sizeof(T), v.capacity() * sizeof(T));
    };
    put(0, nodes_);
    put(1, edges_);
    put(2, node_sets_);
    put(3, edge_sets_);
    put(4, strs_.entries());
    fill_ahead_->kick();
  }
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
  std::unique_ptr<SecondHalf> half_; ///< Being read on half_thread_, until adopted or dropped.
  std::thread half_thread_;
  std::string_view prev_first_;       ///< The first ID of the last simple statement,
  std::uint32_t prev_first_id_ = 0;   ///< and its id.
  std::uint32_t headport_ = strs_.intern("headport", false);
  std::vector<std::uint32_t> tmp_heads_;
  // Conversion scratch.
  std::vector<std::uint32_t> mark_;
  std::uint32_t mark_now_ = 0;
};

} // namespace

InputGraph read_dot(std::string_view text, const std::string& file) {
  return read_dot(text, file, std::function<void(std::size_t, std::size_t)>());
}

InputGraph read_dot(std::string_view text, const std::string& file,
                    const std::function<void(std::size_t, std::size_t)>& progress) {
  return detail::read_dot_releasing(text, file, progress, {});
}

namespace detail {

InputGraph read_dot_releasing(std::string_view text, const std::string& file,
                              const std::function<void(std::size_t, std::size_t)>& progress,
                              const std::function<void(std::size_t)>& release, const DotReadTuning& tuning) {
  NulCheck nul(text, detail::worth_a_thread(text.size(), tuning.nul_check_thread_from));
  auto no_nul = [&] {
    if (const std::size_t at = nul.result(); at != std::string_view::npos)
      throw InputError(file, detail::LineMap(text).line_of(at), "NUL byte in DOT text");
  };
  if (nul.seen()) no_nul(); // searched already (a small text)
  auto read = [&](bool allow_append) {
    FastDotReader reader(text, file);
    reader.allow_append_ = allow_append;
    reader.lookahead_from_ = tuning.lookahead_table_slots;
    reader.parallel_convert_from_ = tuning.parallel_convert_from;
    reader.prefault_from_ = tuning.prefault_from;
    reader.prefault_ahead_from_ = tuning.prefault_ahead_from;
    reader.speculate_from_ = tuning.speculate_from;
    reader.speculate_at_ = tuning.speculate_at;
    reader.speculate_wait_ = tuning.speculate_wait;
    reader.speculate_limit_ = tuning.speculate_limit;
    reader.adopted_ = tuning.adopted;
    reader.simple_read_ = tuning.simple_read;
    reader.nul_ = &nul;
    if (progress) reader.progress_ = &progress;
    if (release && text.size() >= tuning.release_from) {
      reader.release_ = &release;
      reader.copy_ = true;
    }
    return reader.run();
  };
  InputGraph g;
  try {
    try {
      g = read(true);
    } catch (const RestartInterningValues&) {
      g = read(false); // released pages of a mapped input are read again from the page cache
    }
  } catch (const NulSeen&) {
    no_nul();
    throw std::logic_error("read_dot: NulSeen without a NUL"); // cannot happen
  } catch (...) {
    no_nul(); // a NUL is the error, whatever the parser met
    throw;
  }
  no_nul();
  if (progress) progress(text.size(), text.size());
  return g;
}

} // namespace detail

} // namespace depreduce::formats
