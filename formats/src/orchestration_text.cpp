//===- orchestration_text.cpp - Recursive-descent orchestration reader ---===//
#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/formats/formats.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

namespace depreduce::formats {

OrchestrationSyntaxError::OrchestrationSyntaxError(std::string file, std::uint32_t line, std::uint32_t column,
                                                   std::string message)
    : InputError(file, line, message), column_(column),
      full_((file.empty() ? std::string("<input>") : file) + ":" + std::to_string(line) + ":" +
            std::to_string(column) + ": " + message) {}

namespace {

using namespace depreduce::orch;

enum class Tok : std::uint8_t { Ident, Int, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string text; // identifier, digits (with sign) or punctuation
  std::uint32_t line = 1, col = 1;
};

/// Splits the text into tokens. Identifiers: [A-Za-z_][A-Za-z0-9_.]*;
/// integers: -?[0-9]+; punctuation: ( ) [ ] { } , = == != < <= > >=.
class Lexer {
public:
  Lexer(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space();
      Token t;
      t.line = line_;
      t.col = col_;
      if (i_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[i_];
      if (alpha(c)) {
        std::size_t b = i_;
        while (i_ < s_.size() && (alpha(s_[i_]) || digit(s_[i_]) || s_[i_] == '.')) advance();
        t.kind = Tok::Ident;
        t.text = std::string(s_.substr(b, i_ - b));
        if (t.text.back() == '.') fail(t.line, t.col, "a name cannot end with '.'");
      } else if (digit(c) || (c == '-' && i_ + 1 < s_.size() && digit(s_[i_ + 1]))) {
        std::size_t b = i_;
        advance();
        while (i_ < s_.size() && digit(s_[i_])) advance();
        if (i_ < s_.size() && (alpha(s_[i_]) || s_[i_] == '.')) fail(line_, col_, "unexpected character after number");
        t.kind = Tok::Int;
        t.text = std::string(s_.substr(b, i_ - b));
      } else {
        static constexpr std::string_view two[] = {"==", "!=", "<=", ">="};
        t.kind = Tok::Punct;
        for (std::string_view p : two)
          if (s_.substr(i_, 2) == p) t.text = std::string(p);
        if (t.text.empty()) {
          if (std::string_view("()[]{},=<>").find(c) == std::string_view::npos) {
            unsigned char u = static_cast<unsigned char>(c);
            std::string shown = (u >= 0x20 && u < 0x7f) ? std::string("'") + c + "'" : "byte " + std::to_string(u);
            fail(t.line, t.col, "unexpected character " + shown);
          }
          t.text = std::string(1, c);
        }
        for (std::size_t k = 0; k < t.text.size(); ++k) advance();
      }
      out.push_back(std::move(t));
    }
  }

  [[noreturn]] void fail(std::uint32_t line, std::uint32_t col, std::string msg) const {
    throw OrchestrationSyntaxError(file_, line, col, std::move(msg));
  }

private:
  static bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
  static bool digit(char c) { return c >= '0' && c <= '9'; }
  void advance() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  void skip_space() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        advance();
      } else if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') advance();
      } else {
        return;
      }
    }
  }

  std::string_view s_;
  const std::string& file_;
  std::size_t i_ = 0;
  std::uint32_t line_ = 1, col_ = 1;
};

/// Recursive descent over the tokens (grammar in docs/orchestration-ir.md).
class Parser {
public:
  Parser(std::vector<Token> toks, const std::string& file) : t_(std::move(toks)), file_(file) {}

  Program program() {
    Program p;
    while (peek().kind != Tok::End) {
      Token head = peek();
      p.functions.push_back(function());
      fn_pos_.push_back(head);
    }
    if (auto prob = find_problem(p)) {
      const Token& at = prob->stmt == Problem::npos ? fn_pos_.at(prob->function)
                                                    : stmt_pos_.at(prob->function).at(prob->stmt);
      fail(at, prob->message);
    }
    return p;
  }

private:
  [[noreturn]] void fail(const Token& at, const std::string& msg) const {
    throw OrchestrationSyntaxError(file_, at.line, at.col, msg);
  }
  const Token& peek(std::size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  Token take() {
    Token t = peek();
    if (i_ < t_.size() - 1) ++i_;
    return t;
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
    case Tok::End: return "end of input";
    case Tok::Int: return "number " + t.text;
    case Tok::Ident: return "'" + t.text + "'";
    case Tok::Punct: return "'" + t.text + "'";
    }
    return "?";
  }
  bool is_punct(const char* p, std::size_t k = 0) const { return peek(k).kind == Tok::Punct && peek(k).text == p; }
  bool is_word(const char* w, std::size_t k = 0) const { return peek(k).kind == Tok::Ident && peek(k).text == w; }
  void expect(const char* p) {
    if (!is_punct(p)) fail(peek(), std::string("expected '") + p + "', found " + describe(peek()));
    take();
  }
  void expect_word(const char* w) {
    if (!is_word(w)) fail(peek(), std::string("expected '") + w + "', found " + describe(peek()));
    take();
  }
  std::string name(const char* what) {
    const Token& t = peek();
    if (t.kind != Tok::Ident) fail(t, std::string("expected ") + what + ", found " + describe(t));
    if (is_keyword(t.text)) fail(t, std::string("expected ") + what + ", found keyword '" + t.text + "'");
    return take().text;
  }
  std::int64_t integer() {
    const Token& t = peek();
    if (t.kind != Tok::Int) fail(t, "expected a number, found " + describe(t));
    std::int64_t v = 0;
    const char* b = t.text.data();
    const char* e = b + t.text.size();
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e) fail(t, "number " + t.text + " is out of range");
    take();
    return v;
  }
  IntAtom atom(const char* what) {
    if (peek().kind == Tok::Int) return integer();
    return name(what);
  }
  /// name (',' name)*
  std::vector<std::string> names(const char* what) {
    std::vector<std::string> out{name(what)};
    while (is_punct(",")) {
      take();
      out.push_back(name(what));
    }
    return out;
  }
  /// '[' [name (',' name)*] ']'
  std::vector<std::string> name_list(const char* what) {
    expect("[");
    std::vector<std::string> out;
    if (!is_punct("]")) out = names(what);
    expect("]");
    return out;
  }

  void enter(const Token& at) {
    if (++depth_ > kMaxOrchestrationNesting)
      fail(at, "nesting deeper than " + std::to_string(kMaxOrchestrationNesting) + " levels");
  }
  void leave() { --depth_; }

  Function function() {
    Function f;
    const Token& head = peek();
    if (is_word("orchestration")) f.kind = FunctionKind::Orchestration;
    else if (is_word("kernel")) f.kind = FunctionKind::Kernel;
    else fail(head, "expected 'orchestration' or 'kernel' to start a function, found " + describe(head));
    take();
    expect_word("func");
    f.name = name("a function name");
    expect("(");
    if (!is_punct(")")) f.params = names("a parameter name");
    expect(")");
    stmt_pos_.emplace_back();
    f.body = block(nullptr);
    return f;
  }

  /// '{' stmt* ['yield' names] '}'. Yields are accepted only when \p yields.
  Block block(std::vector<std::string>* yields) {
    Token open = peek();
    expect("{");
    enter(open);
    Block b;
    while (!is_punct("}")) {
      if (peek().kind == Tok::End) fail(peek(), "expected '}' to close the block opened at " +
                                                    std::to_string(open.line) + ":" + std::to_string(open.col));
      if (is_word("yield")) {
        if (!yields) fail(peek(), "'yield' is only allowed at the end of a loop or if body");
        take();
        *yields = names("a yielded name");
        if (!is_punct("}")) fail(peek(), "expected '}' after the yield, found " + describe(peek()));
        break;
      }
      b.push_back(stmt());
    }
    expect("}");
    leave();
    return b;
  }

  Stmt stmt() {
    Token start = peek();
    stmt_pos_.back().push_back(start); // pre-order, as orch::find_problem counts
    if (is_word("manual") || is_word("auto")) {
      Scope s;
      s.manual = take().text == "manual";
      s.body = block(nullptr);
      return Stmt{std::move(s)};
    }
    std::vector<std::string> results;
    // `a, b = ...` (a binding) vs a statement that starts with a keyword.
    if (peek().kind == Tok::Ident && !is_keyword(peek().text) && (is_punct("=", 1) || is_punct(",", 1))) {
      results = names("a result name");
      expect("=");
    }
    const Token& head = peek();
    if (is_word("for")) return Stmt{loop(std::move(results))};
    if (is_word("if")) return Stmt{if_stmt(std::move(results))};
    auto single = [&](const char* what) -> std::string {
      if (results.size() > 1) fail(start, std::string(what) + " has exactly one result");
      if (results.empty()) fail(head, std::string(what) + " needs a result name ('x = ...')");
      return results[0];
    };
    if (is_word("submit")) {
      if (results.size() > 1) fail(start, "submit has exactly one result");
      Submit s;
      s.result = results.empty() ? std::string() : results[0];
      take();
      expect("(");
      s.kernel = name("a kernel name");
      expect(",");
      expect("[");
      if (!is_punct("]")) {
        s.args.push_back(atom("an argument"));
        while (is_punct(",")) {
          take();
          s.args.push_back(atom("an argument"));
        }
      }
      expect("]");
      if (is_punct(",")) {
        take();
        expect_word("deps");
        expect("=");
        s.deps = name_list("a dependency name");
      }
      expect(")");
      s.attrs = attrs();
      return Stmt{std::move(s)};
    }
    if (is_word("system.task_dummy")) {
      TaskDummy d;
      d.result = single("system.task_dummy");
      take();
      expect("(");
      expect(")");
      d.attrs = attrs();
      return Stmt{std::move(d)};
    }
    if (is_word("array")) {
      ArrayCreate a;
      a.result = single("array()");
      take();
      expect("(");
      a.length = atom("an array length");
      expect(")");
      return Stmt{std::move(a)};
    }
    if (is_word("update")) {
      ArrayUpdate u;
      u.result = single("update()");
      take();
      expect("(");
      u.array = name("an array name");
      expect(",");
      u.index = atom("an index");
      expect(",");
      u.task = name("a task name");
      expect(")");
      return Stmt{std::move(u)};
    }
    if (peek().kind == Tok::Ident && !is_keyword(peek().text) && is_punct("[", 1)) {
      ArrayGet g;
      g.result = single("an element read");
      g.array = take().text;
      expect("[");
      g.index = atom("an index");
      expect("]");
      return Stmt{std::move(g)};
    }
    if (peek().kind == Tok::Ident && !is_keyword(peek().text) && !results.empty()) {
      if (is_punct("(", 1)) fail(head, "unknown operation '" + head.text + "' (expected array, update, submit or system.task_dummy)");
      Copy c;
      c.result = single("a copy");
      c.source = take().text;
      return Stmt{std::move(c)};
    }
    if (!results.empty())
      fail(head, "expected a name, array(...), update(...), name[index], submit(...), system.task_dummy(), for or if, found " +
                     describe(head));
    fail(head, "expected a statement, found " + describe(head));
  }

  orch::AttrList attrs() {
    orch::AttrList out;
    if (!is_punct("{")) return out;
    take();
    for (;;) {
      Attr a;
      const Token& k = peek();
      if (k.kind != Tok::Ident) fail(k, "expected an attribute name, found " + describe(k));
      a.key = take().text;
      expect("=");
      if (is_word("true") || is_word("false")) a.value = AttrValue::of_bool(take().text == "true");
      else if (peek().kind == Tok::Int) a.value = AttrValue::of_int(integer());
      else if (is_punct("[")) a.value = AttrValue::of_names(name_list("a name"));
      else fail(peek(), "expected true, false, a number or [names], found " + describe(peek()));
      out.push_back(std::move(a));
      if (is_punct(",")) {
        take();
        continue;
      }
      expect("}");
      return out;
    }
  }

  Loop loop(std::vector<std::string> results) {
    Loop l;
    l.results = std::move(results);
    take(); // for
    l.var = name("a loop variable");
    expect_word("in");
    if (is_word("seq")) l.kind = LoopKind::Sequential;
    else if (is_word("parallel")) l.kind = LoopKind::Parallel;
    else fail(peek(), "expected 'seq' or 'parallel', found " + describe(peek()));
    take();
    expect("(");
    l.trip = atom("a trip count");
    expect(")");
    if (is_word("iter")) {
      take();
      expect("(");
      for (;;) {
        IterArg a;
        a.name = name("an iteration argument");
        expect("=");
        if (is_word("array") && is_punct("(", 1)) { // an expression: new storage
          take();
          expect("(");
          a.init_length = atom("an array length");
          expect(")");
        } else {
          a.init = name("an initial value (a name or array(n))");
        }
        l.iter_args.push_back(std::move(a));
        if (!is_punct(",")) break;
        take();
      }
      expect(")");
    }
    l.body = block(&l.yields);
    return l;
  }

  If if_stmt(std::vector<std::string> results) {
    If s;
    s.results = std::move(results);
    take(); // if
    s.cond.lhs = atom("a condition operand");
    const Token& op = peek();
    static constexpr std::pair<const char*, CmpOp> ops[] = {{"==", CmpOp::Eq}, {"!=", CmpOp::Ne}, {"<", CmpOp::Lt},
                                                            {"<=", CmpOp::Le}, {">", CmpOp::Gt},  {">=", CmpOp::Ge}};
    bool found = false;
    for (const auto& [text, o] : ops)
      if (op.kind == Tok::Punct && op.text == text) {
        s.cond.op = o;
        found = true;
      }
    if (!found) fail(op, "expected a comparison (== != < <= > >=), found " + describe(op));
    take();
    s.cond.rhs = atom("a condition operand");
    s.then_body = block(&s.then_yields);
    if (is_word("else")) {
      take();
      s.has_else = true;
      s.else_body = block(&s.else_yields);
    }
    return s;
  }

  std::vector<Token> t_;
  std::size_t i_ = 0;
  const std::string& file_;
  std::size_t depth_ = 0;
  std::vector<Token> fn_pos_;
  std::vector<std::vector<Token>> stmt_pos_; // per function, pre-order
};

} // namespace

orch::Program parse_orchestration(std::string_view text, const std::string& file) {
  Lexer lexer(text, file);
  Parser parser(lexer.run(), file);
  return parser.program();
}

orch::Program read_orchestration(const std::string& path) {
  // read_file rejects folders and unreadable files with file-named errors.
  return parse_orchestration(read_file(path), path);
}

} // namespace depreduce::formats
