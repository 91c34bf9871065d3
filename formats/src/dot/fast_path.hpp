//===- formats/src/dot/fast_path.hpp - The simple statement, without tokens ===//
///
/// \file
/// The scan half of the DOT reader's fast path: SimpleScanner::scan() reads
/// the shape of a statement `ID (-> ID)* [attr list]* ;?` with plain IDs
/// straight from the bytes, a pure function of the text and a position (no
/// parser state). The action half is FastDotReader::apply_simple()
/// (fast_path.cpp), which does what the general parser (parser.cpp) would
/// with it. Hands on: a SimpleShape and the IDs' byte ranges and lines, or
/// false (the statement is read the general way).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_DOT_FAST_PATH_HPP
#define DEPREDUCE_FORMATS_DOT_FAST_PATH_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "dot/interner.hpp"
#include "dot/scanner.hpp"

namespace depreduce::formats {
// Hidden: the stages call each other across files, never from outside the
// library; so, in a position-independent build, calls within a file may be
// inlined (none can be interposed).
namespace [[gnu::visibility("hidden")]] dot {

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

} // namespace dot
} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_DOT_FAST_PATH_HPP
