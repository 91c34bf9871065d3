//===- formats/reference/src/byte_ranges.cpp - Plain byte-range lists -----===//
///
/// \file
/// reference::read_byte_ranges(): the reference reader's own parser of
/// `space:[lo,hi),...`. The text is cut into tokens first (names, numbers,
/// the four punctuation marks), then the token list is matched against the
/// grammar one range at a time; numbers are converted by std::from_chars,
/// which reports the values that do not fit in 64 bits.
//===----------------------------------------------------------------------===//
#include "depreduce/formats/reference/dot_reader.hpp"

#include <charconv>
#include <string>
#include <vector>

#include "depreduce/error.hpp"

namespace depreduce::formats::reference {
namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool hex_digit(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit(c) || c == '_' || c == '.' || c == '-';
}

struct Token {
  enum Kind { Name, Number, Punct } kind;
  std::string text; // a name; a number's digits (without 0x); the punctuation mark
  bool hex = false;
};

} // namespace

std::vector<ByteRange> read_byte_ranges(std::string_view text, const std::string& file, std::uint32_t line) {
  auto fail = [&](const std::string& why) -> void {
    throw InputError(file, line, "malformed byte range list \"" + std::string(text) + "\": " + why);
  };

  // 1. Tokens. A name starts with a name character that is not a digit; a
  //    number with a digit ("0x"/"0X" then hexadecimal digits, or decimal
  //    digits); ':', '[', ',' and ')' stand alone.
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (blank(c)) {
      ++i;
    } else if (c == ':' || c == '[' || c == ',' || c == ')') {
      tokens.push_back({Token::Punct, std::string(1, c)});
      ++i;
    } else if (digit(c)) {
      Token t{Token::Number, ""};
      if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
        t.hex = true;
        i += 2;
        while (i < text.size() && hex_digit(text[i])) t.text += text[i++];
        if (t.text.empty()) fail("\"0x\" without hexadecimal digits");
      } else {
        while (i < text.size() && digit(text[i])) t.text += text[i++];
      }
      tokens.push_back(t);
    } else if (name_char(c)) {
      Token t{Token::Name, ""};
      while (i < text.size() && name_char(text[i])) t.text += text[i++];
      tokens.push_back(t);
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
  }

  // 2. The grammar, one range at a time.
  std::vector<ByteRange> ranges;
  std::size_t k = 0;
  auto punct = [&](const char* mark) {
    if (k >= tokens.size() || tokens[k].kind != Token::Punct || tokens[k].text != mark)
      fail(std::string("expected '") + mark + "'");
    ++k;
  };
  auto number = [&]() -> std::uint64_t {
    if (k >= tokens.size() || tokens[k].kind != Token::Number) fail("expected a number");
    const Token& t = tokens[k++];
    std::uint64_t value = 0;
    const char* end = t.text.data() + t.text.size();
    const auto [stop, error] = std::from_chars(t.text.data(), end, value, t.hex ? 16 : 10);
    if (error == std::errc::result_out_of_range) fail("number " + t.text + " does not fit in 64 bits");
    if (error != std::errc() || stop != end) fail("bad number " + t.text);
    return value;
  };
  while (k < tokens.size()) {
    if (!ranges.empty()) punct(",");
    ByteRange r;
    if (k >= tokens.size() || tokens[k].kind != Token::Name) fail("expected a space name (e.g. sbuf)");
    r.space = tokens[k++].text;
    punct(":");
    punct("[");
    r.lo = number();
    punct(",");
    r.hi = number();
    punct(")");
    if (r.lo > r.hi) fail("lo " + std::to_string(r.lo) + " > hi " + std::to_string(r.hi) + " in space " + r.space);
    ranges.push_back(r);
  }
  return ranges;
}

std::string write_byte_ranges(const std::vector<ByteRange>& ranges) {
  std::string out;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (i > 0) out += ",";
    out += ranges[i].space + ":[" + std::to_string(ranges[i].lo) + "," + std::to_string(ranges[i].hi) + ")";
  }
  return out;
}

} // namespace depreduce::formats::reference
