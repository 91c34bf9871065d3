//===- formats/src/dot/scanner.cpp - The DOT scanner ===//
///
/// \file
/// The scanner stage of the DOT reader (dot/reader.hpp): FastDotReader::scan()
/// turns the bytes at the cursor into the next token as cgraph's scan.l
/// does (dot/scanner.hpp lists its rules), counting physical lines and
/// interning names and strings (dot/interner.hpp). Hands on: Tokens, to the
/// parser (parser.cpp) through peek() / take().
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

Token FastDotReader::scan() {
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

std::uint32_t FastDotReader::count_newlines(std::size_t b, std::size_t e) const {
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

void FastDotReader::skip_to_eol() {
  const void* hit = std::memchr(s() + pos_, '\n', n_ - pos_);
  pos_ = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - s()) : n_;
}

Token FastDotReader::begin_token(Tok k) const {
  Token tok;
  tok.kind = k;
  tok.begin = tok.at = pos_;
  tok.first_line = tok.at_line = line_;
  return tok;
}

Token FastDotReader::finish(Token tok) {
  tok.end = pos_;
  tok.last_line = line_;
  if (tok.kind != Tok::Eof) last_sig_line_ = line_;
  any_token_ = true;
  return tok;
}

Token FastDotReader::char_token(char c) {
  Token tok = begin_token(Tok::Char);
  tok.ch = c;
  ++pos_;
  return finish(tok);
}

Token FastDotReader::eof_token(EofState st, std::uint32_t open) const {
  Token tok;
  tok.kind = Tok::Eof;
  tok.eof_state = st;
  tok.begin = tok.end = tok.at = n_;
  tok.first_line = tok.at_line = tok.last_line = line_;
  tok.open_line = open;
  return tok;
}

/// NUMBER [-]?((DIGIT+(.DIGIT*)?)|(.DIGIT+))(.|LETTER)? starts at \p i.
bool FastDotReader::number_ahead(std::size_t i) const {
  if (i < n_ && t_[i] == '-') ++i;
  if (i < n_ && is_digit(static_cast<unsigned char>(t_[i]))) return true;
  return i + 1 < n_ && t_[i] == '.' && is_digit(static_cast<unsigned char>(t_[i + 1]));
}

Token FastDotReader::scan_number() {
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

Token FastDotReader::scan_qstring() {
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

Token FastDotReader::scan_hstring() {
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

} // namespace dot
} // namespace depreduce::formats
