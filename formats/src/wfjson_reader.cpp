//===- formats/src/wfjson_reader.cpp - WfCommons WfFormat JSON -----------===//
///
/// \file
/// Schema 1.5: `workflow.specification.tasks[]`, each with `id`, `name`,
/// `parents`, `children`. Runtimes (`workflow.execution`) are not read.
///
/// One pass over the text, no JSON library: an iterative scanner that checks
/// the whole of RFC 8259 as nlohmann-json (the twin, formats::reference::
/// read_wfjson) does, and builds nothing it does not need. The six values it
/// reads (top-level `name`, `workflow`, `workflow.specification`, `...tasks`,
/// and per task `id`, `name`, `parents`, `children`) are recorded as kinds
/// and string references (views into the text; decoded into one arena only
/// when they hold escapes); everything else is skipped while it is checked.
/// A duplicate key replaces what its earlier value recorded (nlohmann keeps
/// the last value). The checks of the old reader run after the scan, in its
/// order and with its messages, so that a syntax error anywhere wins over any
/// schema error, as with a DOM. Every error names a line: a
/// syntax error, the line nlohmann stops at; a value of the wrong kind, the
/// line of its (last) key; a missing key, the line where the object lacking
/// it starts (a task without an `id`: its '{'); a task that is not an
/// object, the line where it starts; every other error of a task, the task's
/// line (its "id" key's).
///
/// What nlohmann accepts, this accepts (fuzz_wfjson_reader_diff holds the two
/// together): a UTF-8 byte-order mark at the very start; whitespace = space,
/// tab, CR, LF; strings of well-formed UTF-8 (RFC 3629: no overlongs, no
/// encoded surrogates, nothing above U+10FFFF) without raw control bytes,
/// escapes `\" \\ \/ \b \f \n \r \t \uXXXX`, surrogates only in pairs; numbers
/// of the RFC grammar, rejected when they overflow a double (`1e999`); and a
/// NUL byte where a token would start reads as the end of the input (so text
/// after a NUL that follows the document is ignored).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

using detail::show;

/// JSON value kinds, as far as the checks need them.
enum class Kind : std::uint8_t { None, Object, Array, String, Number, Bool, Null };

Kind kind_of(char c) {
  switch (c) {
  case '{': return Kind::Object;
  case '[': return Kind::Array;
  case '"': return Kind::String;
  case 't':
  case 'f': return Kind::Bool;
  case 'n': return Kind::Null;
  default: return c == '-' || (c >= '0' && c <= '9') ? Kind::Number : Kind::None;
  }
}

/// A string value: bytes of the text, or of the arena when it had escapes.
struct StrRef {
  std::size_t off = 0;
  std::size_t len = 0;
  bool arena = false;
};

/// A recorded value: its kind and, for strings, the string.
struct Value {
  Kind kind = Kind::None;
  StrRef str;
};

/// `parents` or `children` of one task: [begin, end) of Reader::elements_.
struct List {
  bool present = false;
  Kind kind = Kind::None;
  std::uint32_t begin = 0, end = 0;
};

struct Task {
  Kind kind = Kind::None;
  std::uint32_t line = 0;    ///< Line where the task's value starts (its '{').
  bool has_id = false;
  Value id;
  std::uint32_t id_line = 0; ///< Line of the (last) "id" key.
  bool has_name = false;
  Value name;
  List parents, children;
};

/// Bytes that need no attention inside a string: 0x20..0x7F but '"' and '\\'.
struct PlainTable {
  bool plain[256] = {};
  constexpr PlainTable() {
    for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  }
};
constexpr PlainTable kPlain;

class Reader {
public:
  Reader(std::string_view text, const std::string& file)
      : text_(text), begin_(text.data()), end_(text.data() + text.size()), p_(begin_), file_(file) {}

  InputGraph read() {
    scan_document();
    return build();
  }

private:
  std::string_view text_;
  const char* begin_;
  const char* end_;
  const char* p_;
  const std::string& file_;
  std::uint32_t line_ = 1; ///< 1 + newlines before p_ (newlines occur only between tokens).

  std::string arena_;      ///< Decoded strings that had escapes.
  std::string key_;        ///< The current key, when it had escapes.
  std::string stack_;      ///< Open containers while skipping ('{' or '[').

  // What the scan records (the last value of a duplicate key wins).
  Kind top_ = Kind::None;
  Value name_;
  bool has_workflow_ = false, workflow_has_spec_ = false, workflow_has_tasks_ = false, spec_has_tasks_ = false;
  Kind workflow_ = Kind::None, spec_ = Kind::None, tasks_kind_ = Kind::None;
  // Lines for the WfFormat errors (docs/formats.md, "WfCommons"): where the
  // top-level value, `workflow` and `workflow.specification` start, and the
  // (last) `workflow`, `workflow.tasks`, `specification` and `tasks` keys.
  std::uint32_t top_line_ = 1, workflow_key_line_ = 1, workflow_line_ = 1, workflow_tasks_key_line_ = 1;
  std::uint32_t spec_key_line_ = 1, spec_line_ = 1, tasks_key_line_ = 1;
  std::vector<Task> tasks_;
  std::vector<Value> elements_; ///< Entries of every recorded parents/children array.

  // --- errors -------------------------------------------------------------

  /// A syntax error at \p at (the byte nlohmann would stop at, or end_): its
  /// line is 1 + the newlines before it, as for the twin's byte offset.
  [[noreturn]] void fail(const char* at, const std::string& what) const {
    const char* line_start = at;
    while (line_start > begin_ && line_start[-1] != '\n') --line_start;
    std::uint32_t line = 1 + static_cast<std::uint32_t>(std::count(begin_, at, '\n'));
    throw InputError(file_, line,
                     "JSON syntax error at column " + std::to_string(at - line_start + 1) + ": " + what);
  }
  std::string found(const char* at) const {
    if (at >= end_ || *at == '\0') return "end of input";
    unsigned char c = static_cast<unsigned char>(*at);
    if (c >= 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
    static const char* hex = "0123456789ABCDEF";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }
  [[noreturn]] void unexpected(const char* at, const char* expected) const {
    fail(at, "unexpected " + found(at) + "; expected " + expected);
  }

  // --- tokens -------------------------------------------------------------

  /// The byte at p_, or '\0' at the end (a NUL byte reads as the end, as in nlohmann).
  char peek() const { return p_ < end_ ? *p_ : '\0'; }

  void ws() {
    while (p_ < end_) {
      char c = *p_;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p_;
      } else if (c == '\n') {
        ++p_;
        ++line_;
      } else {
        break;
      }
    }
  }

  void expect(char c, const char* expected) {
    if (peek() != c) unexpected(p_, expected);
    ++p_;
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  /// Four hex digits at \p q; returns the code unit and advances \p q.
  unsigned hex4(const char*& q) const {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i, ++q) {
      int d = q < end_ ? hex_digit(*q) : -1;
      if (d < 0) fail(q, "'\\u' must be followed by 4 hex digits");
      v = v * 16 + static_cast<unsigned>(d);
    }
    return v;
  }

  /// The escape at \p q (the byte after '\\'); advances \p q past it and, if
  /// \p out, appends its UTF-8 bytes.
  void escape(const char*& q, std::string* out) const {
    char c = q < end_ ? *q : '\0';
    char simple = 0;
    switch (c) {
    case '"': simple = '"'; break;
    case '\\': simple = '\\'; break;
    case '/': simple = '/'; break;
    case 'b': simple = '\b'; break;
    case 'f': simple = '\f'; break;
    case 'n': simple = '\n'; break;
    case 'r': simple = '\r'; break;
    case 't': simple = '\t'; break;
    case 'u': break;
    default:
      if (q >= end_) fail(q, "unterminated string");
      fail(q, "invalid escape '\\" + std::string(1, c) + "'");
    }
    ++q;
    if (simple) {
      if (out) out->push_back(simple);
      return;
    }
    std::uint32_t cp = hex4(q);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (!(q < end_ && *q == '\\')) fail(q, "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
      ++q;
      if (!(q < end_ && *q == 'u')) fail(q, "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
      ++q;
      std::uint32_t lo = hex4(q);
      if (lo < 0xDC00 || lo > 0xDFFF) fail(q - 1, "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      fail(q - 1, "surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF");
    }
    if (!out) return;
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  /// The multi-byte UTF-8 sequence at \p q (RFC 3629, as nlohmann checks it);
  /// advances \p q past it.
  void utf8(const char*& q) const {
    auto byte = [&](const char* at) { return at < end_ ? static_cast<unsigned char>(*at) : 0x100u; };
    unsigned c = byte(q);
    unsigned lo1 = 0x80, hi1 = 0xBF;
    int more = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) lo1 = 0xA0;
      if (c == 0xED) hi1 = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) lo1 = 0x90;
      if (c == 0xF4) hi1 = 0x8F;
    } else {
      fail(q, "ill-formed UTF-8 byte in a string");
    }
    ++q;
    for (int i = 0; i < more; ++i, ++q) {
      unsigned b = byte(q);
      unsigned lo = i == 0 ? lo1 : 0x80, hi = i == 0 ? hi1 : 0xBF;
      if (b < lo || b > hi) fail(q, q >= end_ ? "unterminated string" : "ill-formed UTF-8 byte in a string");
    }
  }

  /// The string at p_ ('"'): checks it and moves p_ past the closing quote.
  /// Returns whether it had an escape. Without escapes (or without \p into)
  /// [off, off + len) are its bytes in the text; with escapes and \p into,
  /// the decoded bytes are appended to *into at [off, off + len).
  bool string(std::size_t& off, std::size_t& len, std::string* into) {
    const char* q = p_ + 1;
    const char* start = q;
    bool escaped = false;
    for (;;) {
      while (q < end_ && kPlain.plain[static_cast<unsigned char>(*q)]) ++q;
      if (q >= end_) fail(q, "unterminated string");
      unsigned char c = static_cast<unsigned char>(*q);
      if (c == '"') break;
      if (c == '\\') {
        escaped = true;
        ++q;
        escape(q, nullptr);
      } else if (c < 0x20) {
        fail(q, "control character " + found(q) + " in a string must be escaped");
      } else {
        utf8(q);
      }
    }
    const char* stop = q;
    p_ = q + 1;
    if (!escaped || !into) {
      off = static_cast<std::size_t>(start - begin_);
      len = static_cast<std::size_t>(stop - start);
      return escaped;
    }
    // Second pass over a checked string with escapes: decode.
    off = into->size();
    for (const char* r = start; r < stop;) {
      const char* plain = r;
      while (r < stop && *r != '\\') ++r;
      into->append(plain, static_cast<std::size_t>(r - plain));
      if (r < stop) {
        ++r;
        escape(r, into);
      }
    }
    len = into->size() - off;
    return true;
  }

  void skip_string() {
    std::size_t off, len;
    string(off, len, nullptr);
  }

  /// A string value to keep.
  StrRef string_value() {
    StrRef s;
    s.arena = string(s.off, s.len, &arena_);
    return s;
  }

  /// An object key, decoded (valid until the next key).
  std::string_view key() {
    key_.clear();
    std::size_t off, len;
    if (string(off, len, &key_)) return std::string_view(key_).substr(off, len);
    return text_.substr(off, len);
  }

  void literal(std::string_view word) {
    for (std::size_t i = 0; i < word.size(); ++i)
      if (p_ + i >= end_ || p_[i] != word[i]) fail(p_ + i, "invalid literal (expected '" + std::string(word) + "')");
    p_ += word.size();
  }

  static bool digit(const char* q, const char* end) { return q < end && *q >= '0' && *q <= '9'; }

  /// A number (RFC 8259 grammar); one that overflows a double is an error,
  /// as in nlohmann (its strtod gives inf). Only numbers of magnitude about
  /// 1e307 and above are converted to find out.
  void number() {
    const char* start = p_;
    const char* q = p_;
    if (*q == '-') ++q;
    const char* int_begin = q;
    if (q < end_ && *q == '0') {
      ++q;
    } else if (digit(q, end_)) {
      while (digit(q, end_)) ++q;
    } else {
      fail(q, "invalid number: expected a digit after '-'");
    }
    const char* int_end = q;
    const char* frac_begin = q;
    const char* frac_end = q;
    if (q < end_ && *q == '.') {
      ++q;
      frac_begin = q;
      if (!digit(q, end_)) fail(q, "invalid number: expected a digit after '.'");
      while (digit(q, end_)) ++q;
      frac_end = q;
    }
    std::int64_t exponent = 0;
    if (q < end_ && (*q == 'e' || *q == 'E')) {
      ++q;
      bool negative = false;
      if (q < end_ && (*q == '+' || *q == '-')) negative = *q++ == '-';
      if (!digit(q, end_)) fail(q, "invalid number: expected a digit in the exponent");
      while (digit(q, end_)) {
        if (exponent < 1000000000) exponent = exponent * 10 + (*q - '0');
        ++q;
      }
      if (negative) exponent = -exponent;
    }
    p_ = q;
    // Decimal exponent of the leading digit.
    std::int64_t magnitude;
    if (*int_begin != '0') {
      magnitude = (int_end - int_begin - 1) + exponent;
    } else {
      const char* f = frac_begin;
      while (f < frac_end && *f == '0') ++f;
      if (f == frac_end) return; // zero
      magnitude = exponent - (f - frac_begin + 1);
    }
    if (magnitude < 307) return;
    double v = 0;
    auto r = std::from_chars(start, q, v);
    if (r.ec == std::errc::result_out_of_range)
      fail(q - 1, "number overflow: '" + std::string(start, std::min<std::size_t>(q - start, 40)) +
                      (q - start > 40 ? "...'" : "'") + " does not fit in a double");
  }

  /// Checks and skips one value of any depth at p_ (iteratively: no limit).
  void skip_value() {
    const std::size_t base = stack_.size();
    for (;;) {
      // A value starts at p_.
      bool closed = true;
      switch (peek()) {
      case '{':
        ++p_;
        ws();
        if (peek() == '}') {
          ++p_;
        } else {
          stack_.push_back('{');
          if (peek() != '"') unexpected(p_, "'\"' (an object key) or '}'");
          skip_string();
          ws();
          expect(':', "':'");
          ws();
          closed = false;
        }
        break;
      case '[':
        ++p_;
        ws();
        if (peek() == ']') {
          ++p_;
        } else {
          stack_.push_back('[');
          closed = false;
        }
        break;
      case '"': skip_string(); break;
      case 't': literal("true"); break;
      case 'f': literal("false"); break;
      case 'n': literal("null"); break;
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
          number();
          break;
        }
        unexpected(p_, "a value");
      }
      if (!closed) continue;
      // After a value: close what ends, until the next value or the base.
      for (;;) {
        if (stack_.size() == base) return;
        ws();
        char c = peek();
        if (stack_.back() == '{') {
          if (c == ',') {
            ++p_;
            ws();
            if (peek() != '"') unexpected(p_, "'\"' (an object key)");
            skip_string();
            ws();
            expect(':', "':'");
            ws();
            break;
          }
          if (c != '}') unexpected(p_, "',' or '}'");
        } else {
          if (c == ',') {
            ++p_;
            ws();
            break;
          }
          if (c != ']') unexpected(p_, "',' or ']'");
        }
        ++p_;
        stack_.pop_back();
      }
    }
  }

  /// An object at p_: \p member(key, key_line) reads each member's value.
  template <class Member> void object(Member&& member) {
    ++p_;
    ws();
    if (peek() == '}') {
      ++p_;
      return;
    }
    for (;;) {
      if (peek() != '"') unexpected(p_, "'\"' (an object key)");
      const std::uint32_t key_line = line_;
      const std::string_view k = key();
      ws();
      expect(':', "':'");
      ws();
      member(k, key_line);
      ws();
      char c = peek();
      if (c == ',') {
        ++p_;
        ws();
        continue;
      }
      if (c != '}') unexpected(p_, "',' or '}'");
      ++p_;
      return;
    }
  }

  /// An array at p_: \p element() reads each element.
  template <class Element> void array(Element&& element) {
    ++p_;
    ws();
    if (peek() == ']') {
      ++p_;
      return;
    }
    for (;;) {
      element();
      ws();
      char c = peek();
      if (c == ',') {
        ++p_;
        ws();
        continue;
      }
      if (c != ']') unexpected(p_, "',' or ']'");
      ++p_;
      return;
    }
  }

  /// A value whose kind, and string, are kept.
  Value value() {
    Value v;
    v.kind = kind_of(peek());
    if (v.kind == Kind::String)
      v.str = string_value();
    else
      skip_value();
    return v;
  }

  // --- the document -------------------------------------------------------

  void scan_document() {
    if (p_ < end_ && static_cast<unsigned char>(*p_) == 0xEF) {
      // nlohmann: "invalid BOM; must be 0xEF 0xBB 0xBF if given".
      if (!(p_ + 1 < end_ && static_cast<unsigned char>(p_[1]) == 0xBB)) fail(p_ + 1, "invalid byte-order mark");
      if (!(p_ + 2 < end_ && static_cast<unsigned char>(p_[2]) == 0xBF)) fail(p_ + 2, "invalid byte-order mark");
      p_ += 3;
    }
    ws();
    top_ = kind_of(peek());
    top_line_ = line_;
    if (top_ == Kind::Object)
      object([this](std::string_view k, std::uint32_t key_line) { top_member(k, key_line); });
    else
      skip_value();
    ws();
    if (peek() != '\0') unexpected(p_, "the end of the input");
  }

  void top_member(std::string_view k, std::uint32_t key_line) {
    if (k == "name") {
      name_ = value();
    } else if (k == "workflow") {
      has_workflow_ = true;
      workflow_has_spec_ = workflow_has_tasks_ = false;
      reset_spec();
      workflow_key_line_ = key_line;
      workflow_line_ = line_;
      workflow_ = kind_of(peek());
      if (workflow_ == Kind::Object)
        object([this](std::string_view k2, std::uint32_t key_line2) { workflow_member(k2, key_line2); });
      else
        skip_value();
    } else {
      skip_value();
    }
  }

  void reset_spec() {
    spec_ = Kind::None;
    spec_has_tasks_ = false;
    reset_tasks();
  }
  void reset_tasks() {
    tasks_kind_ = Kind::None;
    tasks_.clear();
    elements_.clear();
  }

  void workflow_member(std::string_view k, std::uint32_t key_line) {
    if (k == "specification") {
      workflow_has_spec_ = true;
      reset_spec();
      spec_key_line_ = key_line;
      spec_line_ = line_;
      spec_ = kind_of(peek());
      if (spec_ == Kind::Object)
        object([this](std::string_view k2, std::uint32_t key_line2) { spec_member(k2, key_line2); });
      else
        skip_value();
    } else {
      if (k == "tasks") {
        workflow_has_tasks_ = true;
        workflow_tasks_key_line_ = key_line;
      }
      skip_value();
    }
  }

  void spec_member(std::string_view k, std::uint32_t key_line) {
    if (k != "tasks") return skip_value();
    spec_has_tasks_ = true;
    reset_tasks();
    tasks_key_line_ = key_line;
    tasks_kind_ = kind_of(peek());
    if (tasks_kind_ != Kind::Array) return skip_value();
    array([this] {
      tasks_.emplace_back();
      tasks_.back().line = line_;
      tasks_.back().kind = kind_of(peek());
      if (tasks_.back().kind != Kind::Object) return skip_value();
      const std::size_t i = tasks_.size() - 1;
      object([this, i](std::string_view k2, std::uint32_t key_line) { task_member(tasks_[i], k2, key_line); });
    });
  }

  void task_member(Task& t, std::string_view k, std::uint32_t key_line) {
    if (k == "id") {
      t.has_id = true;
      t.id_line = key_line;
      t.id = value();
    } else if (k == "name") {
      t.has_name = true;
      t.name = value();
    } else if (k == "parents" || k == "children") {
      List& l = k == "parents" ? t.parents : t.children;
      l.present = true;
      l.kind = kind_of(peek());
      if (l.kind != Kind::Array) return skip_value();
      l.begin = static_cast<std::uint32_t>(elements_.size());
      array([this] { elements_.push_back(value()); });
      l.end = static_cast<std::uint32_t>(elements_.size());
    } else {
      skip_value();
    }
  }

  // --- the graph ----------------------------------------------------------

  std::string_view view(const StrRef& s) const {
    return s.arena ? std::string_view(arena_).substr(s.off, s.len) : text_.substr(s.off, s.len);
  }

  [[noreturn]] void error(std::uint32_t line, std::string problem) const {
    throw InputError(file_, line, std::move(problem));
  }

  InputGraph build() {
    InputGraph g;
    g.file = file_;
    // Lines: a value of the wrong kind, at its (last) key's line; a missing
    // key, at the line where the object lacking it starts.
    if (top_ != Kind::Object) error(top_line_, "expected a JSON object (WfFormat) at the top level");
    if (name_.kind == Kind::String) g.name = std::string(view(name_.str));
    if (!has_workflow_)
      error(top_line_, "missing key 'workflow' (a WfCommons workflow, WfFormat 1.5, has one; window-report "
                       "also reads deps.json: top-level \"tasks\" and \"edges\" arrays)");
    if (workflow_ != Kind::Object) error(workflow_key_line_, "'workflow' must be an object");
    if (!workflow_has_spec_ && workflow_has_tasks_)
      error(workflow_tasks_key_line_, "WfFormat schema 1.4 (workflow.tasks) is not supported; expected schema 1.5 "
                                      "(workflow.specification.tasks)");
    if (!workflow_has_spec_) error(workflow_line_, "missing key 'workflow.specification'");
    if (spec_ != Kind::Object) error(spec_key_line_, "'workflow.specification' must be an object");
    if (!spec_has_tasks_) error(spec_line_, "missing key 'workflow.specification.tasks'");
    if (tasks_kind_ != Kind::Array) error(tasks_key_line_, "'workflow.specification.tasks' must be an array");

    // Pass 1: nodes; ids interned in an open-addressing table of views.
    const std::size_t n = tasks_.size();
    std::vector<std::string_view> ids;
    ids.reserve(n);
    std::size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    std::vector<std::uint32_t> slots(cap, 0); // NodeId + 1; 0 = empty
    const std::hash<std::string_view> hash;
    auto find = [&](std::string_view s) -> std::uint32_t* {
      for (std::size_t h = hash(s) & (cap - 1);; h = (h + 1) & (cap - 1))
        if (slots[h] == 0 || ids[slots[h] - 1] == s) return &slots[h];
    };
    g.nodes.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Task& t = tasks_[i];
      // A task's errors: before it has an id, at the line where the task
      // starts ('{'), or of its "id" key; then at its line (the "id" key's).
      if (t.kind != Kind::Object)
        error(t.line, "workflow.specification.tasks[" + std::to_string(i) + "] must be an object");
      if (!t.has_id) error(t.line, "missing key 'workflow.specification.tasks[" + std::to_string(i) + "].id'");
      if (t.id.kind != Kind::String)
        error(t.id_line, "workflow.specification.tasks[" + std::to_string(i) + "].id must be a string");
      const std::string_view id = view(t.id.str);
      Node node;
      node.name = std::string(id);
      node.line = t.id_line;
      node.input_index = static_cast<std::uint32_t>(i);
      if (t.has_name) {
        if (t.name.kind != Kind::String) error(node.line, "task " + show(node.name) + ": 'name' must be a string");
        if (std::string_view nm = view(t.name.str); nm != id) node.attrs.emplace_back("label", std::string(nm));
      }
      std::uint32_t* slot = find(id);
      if (*slot != 0) error(node.line, "duplicate task id " + show(node.name));
      ids.push_back(id);
      *slot = static_cast<std::uint32_t>(i + 1);
      g.nodes.push_back(std::move(node));
    }

    // Pass 2: edges from parents; children must agree.
    auto resolve = [&](const List& l, const char* key, const Node& node, bool required, auto&& each) {
      if (!l.present) {
        if (required) error(node.line, "task " + show(node.name) + ": missing key '" + key + "'");
        return;
      }
      if (l.kind != Kind::Array) error(node.line, "task " + show(node.name) + ": '" + key + "' must be an array");
      for (std::uint32_t e = l.begin; e < l.end; ++e) {
        const Value& v = elements_[e];
        if (v.kind != Kind::String)
          error(node.line, "task " + show(node.name) + ": '" + key + "' must list task ids (strings)");
        const std::string_view s = view(v.str);
        const std::uint32_t hit = *find(s);
        if (hit == 0)
          error(node.line, "task " + show(node.name) + ": " + (key[0] == 'p' ? "parent " : "child ") + show(s) +
                               " is not a task id");
        each(hit - 1);
      }
    };
    auto pair = [](NodeId p, NodeId c) { return (std::uint64_t{p} << 32) | c; };
    std::vector<std::uint64_t> from_parents, from_children;
    std::vector<char> has_children(n, 0);
    bool any_children = false;
    for (std::size_t i = 0; i < n; ++i) {
      const Node& node = g.nodes[i];
      const NodeId c = static_cast<NodeId>(i);
      resolve(tasks_[i].parents, "parents", node, true, [&](NodeId p) {
        Edge e;
        e.src = p;
        e.dst = c;
        e.line = node.line;
        e.input_index = static_cast<std::uint32_t>(g.edges.size());
        g.edges.push_back(std::move(e));
        from_parents.push_back(pair(p, c));
      });
      if (tasks_[i].children.present) {
        any_children = true;
        has_children[i] = 1;
        resolve(tasks_[i].children, "children", node, false, [&](NodeId ch) { from_children.push_back(pair(c, ch)); });
      }
    }
    if (any_children) {
      for (auto* v : {&from_parents, &from_children}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
      }
      for (std::uint64_t pc : from_parents) {
        const NodeId p = static_cast<NodeId>(pc >> 32), c = static_cast<NodeId>(pc);
        if (has_children[p] && !std::binary_search(from_children.begin(), from_children.end(), pc))
          error(g.nodes[c].line, "task " + show(g.nodes[c].name) + " lists parent " + show(g.nodes[p].name) +
                                     ", but " + show(g.nodes[p].name) + " does not list it among its children");
      }
      for (std::uint64_t pc : from_children) {
        const NodeId p = static_cast<NodeId>(pc >> 32), c = static_cast<NodeId>(pc);
        if (!std::binary_search(from_parents.begin(), from_parents.end(), pc))
          error(g.nodes[p].line, "task " + show(g.nodes[p].name) + " lists child " + show(g.nodes[c].name) +
                                     ", but " + show(g.nodes[c].name) + " does not list it among its parents");
      }
    }
    return g;
  }
};

} // namespace

InputGraph read_wfjson(std::string_view text, const std::string& file) { return Reader(text, file).read(); }

} // namespace depreduce::formats
