//===- formats/src/dot/scanner.hpp - DOT tokens, as cgraph's scanner --------===//
///
/// \file
/// The tokens of DOT as cgraph's scanner (lib/cgraph/scan.l, Graphviz 2.42)
/// makes them: keywords in any case, NAME / NUMBER (a number glued to a
/// letter or a second '.' splits), quoted strings (\" is a quote, \\ stays
/// \\, backslash-newline vanishes, a run of ordinary characters that is
/// exactly one newline vanishes, any other backslash stays), HTML strings
/// (nested <>), comments (/* */, //, # to the end of the line), '@' ends the
/// input, a byte-order mark standing alone is blank, '->' is an edge
/// operator in a digraph only (else the character '-'), every other byte is
/// a one-character token. The scanner itself is FastDotReader::scan() and
/// its helpers (scanner.cpp), which read the reader's cursor and count its
/// lines. Hands on: a Token (kind, byte range, lines, interned text) to the
/// parser (parser.cpp), one at a time, through peek() / take().
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_DOT_SCANNER_HPP
#define DEPREDUCE_FORMATS_DOT_SCANNER_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace depreduce::formats {
// Hidden: the stages call each other across files, never from outside the
// library; so, in a position-independent build, calls within a file may be
// inlined (none can be interposed).
namespace [[gnu::visibility("hidden")]] dot {

/// flex's YY_BUF_SIZE, quoted in cgraph's messages about unterminated text.
constexpr int kFlexBufSize = 16384;

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

inline bool keyword_is(std::string_view w, const char* kw) {
  std::size_t n = std::strlen(kw);
  if (w.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    char c = w[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kw[i]) return false;
  }
  return true;
}

} // namespace dot
} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_DOT_SCANNER_HPP
