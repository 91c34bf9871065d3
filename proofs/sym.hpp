//===- proofs/sym.hpp - Symbolic words for the production templates -*- C++ -*-===//
///
/// \file
/// The word types the production arithmetic templates (window_detail::,
/// lane_arith.hpp) are instantiated with in proofs/: `sym<N>` is an N-bit
/// unsigned word whose value is a z3::expr bit-vector, with the operators of
/// a C++ unsigned integer (wrapping + - *, & | ^ ~, unsigned / % < <= == ...,
/// << and >>). Nothing is modelled by hand: the template body the library
/// runs is the body that builds the formula.
///
/// Control flow is executed symbolically, path by path (the `explorer`):
///  - a comparison is a `sym_bool`; converting it to bool (an `if`, a `while`,
///    `&&`, `?:`) asks the explorer, which follows one feasible side now and
///    the other on a later run of the same code;
///  - converting a word to std::uint64_t (an array subscript, pointer
///    arithmetic) enumerates its feasible values the same way;
///  - a shift by the word width or more (undefined behaviour in C++) and an
///    index the caller declares out of bounds are side conditions, checked on
///    every path: they make the obligation fail like a wrong result.
/// `static_cast<sym<M>>(x)` truncates or zero-extends, as static_cast does
/// between unsigned types; a sym<M> converts implicitly to a wider sym<N>, as
/// std::uint32_t does to std::uint64_t. A sym_bool converts to a word
/// explicitly (0 or 1), as static_cast<std::uint64_t>(bool).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_PROOFS_SYM_HPP
#define DEPREDUCE_PROOFS_SYM_HPP

#include <z3++.h>

#include <chrono>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace depreduce::proofs {

/// The one Z3 context of the proofs.
z3::context& ctx();

/// Explores every feasible path of a piece of code over sym words and checks
/// claims on each (file comment). One is active at a time (current()).
class explorer {
public:
  struct input {
    std::string name;
    z3::expr value;
  };
  explicit explorer(std::size_t max_paths = 100000);

  /// Runs \p body once per feasible path (depth first) until every path was
  /// run or a claim failed. \returns the number of paths run.
  template <class F>
  std::size_t explore(F&& body) {
    std::size_t paths = 0;
    for (;;) {
      start_run();
      body();
      ++paths;
      if (failure_ || paths >= max_paths_ || !backtrack()) break;
    }
    if (!failure_ && paths >= max_paths_) fail("too many paths (" + std::to_string(paths) + ")", std::nullopt);
    return paths;
  }

  /// Branch on \p c: true or false, whichever this run follows.
  bool branch(const z3::expr& c);
  /// One feasible value of \p x on this run (all of them over the runs).
  std::uint64_t value(const z3::expr& x);
  /// A side condition of the code (no undefined behaviour): must hold on the path.
  void require(const z3::expr& c, const std::string& what);
  /// A claim: must hold on every path. A failure keeps the first counterexample.
  void check(const z3::expr& claim, const std::string& what);
  /// Assumes \p c on this path (a precondition of the code under proof).
  void assume(const z3::expr& c);
  /// Assumes \p c until drop_assumption() (a case of an enumeration).
  void assume_scoped(const z3::expr& c);
  void drop_assumption();

  /// Registers an input shown in counterexamples.
  void show(const std::string& name, const z3::expr& value) { inputs_.push_back({name, value}); }
  /// The first failed claim and its counterexample ("name=value ..."), if any.
  const std::optional<std::string>& failure() const { return failure_; }
  std::size_t queries() const { return queries_; }

private:
  struct entry {
    z3::expr cond; // the branch condition, or x == v for a value
    bool taken;    // cond (true) or its negation on the current path
    bool open;     // the other side is feasible and not yet run
    bool is_value;
    std::uint64_t v;
  };
  void start_run();
  bool backtrack();
  bool feasible(const z3::expr& extra);
  void fail(const std::string& what, const std::optional<z3::model>& m);

  std::size_t max_paths_;
  z3::solver solver_;
  std::vector<entry> trail_;
  std::size_t pos_ = 0;
  std::vector<input> inputs_;
  std::optional<std::string> failure_;
  std::size_t queries_ = 0;
};

/// The explorer symbolic words report to (set by scoped_explorer).
explorer& current();
/// Makes \p e current for its lifetime.
class scoped_explorer {
public:
  explicit scoped_explorer(explorer& e);
  ~scoped_explorer();
  scoped_explorer(const scoped_explorer&) = delete;
  scoped_explorer& operator=(const scoped_explorer&) = delete;
private:
  explorer* prev_;
};

/// A symbolic truth value; see the file comment.
class sym_bool {
public:
  explicit sym_bool(z3::expr c) : e(std::move(c)) {}
  sym_bool(bool b) : e(ctx().bool_val(b)) {} // NOLINT: implicit, as bool
  /// Asks the explorer (a fork point).
  explicit operator bool() const { return current().branch(e); }
  /// Non-short-circuit and / or / xor (as bool & bool): no fork.
  friend sym_bool operator&(const sym_bool& a, const sym_bool& b) { return sym_bool(a.e && b.e); }
  friend sym_bool operator|(const sym_bool& a, const sym_bool& b) { return sym_bool(a.e || b.e); }
  friend sym_bool operator^(const sym_bool& a, const sym_bool& b) { return sym_bool(a.e != b.e); }
  z3::expr e;
};

template <unsigned N>
class sym;

namespace sym_detail {
template <class T>
concept word_literal = std::integral<T> && !std::same_as<T, bool>;
template <class T>
inline constexpr unsigned bits_of = 8 * sizeof(T) < 32 ? 32 : 8 * sizeof(T); // after integral promotion
z3::expr resize(const z3::expr& x, unsigned to);
} // namespace sym_detail

/// An N-bit unsigned word (N = 32 or 64 in production; any N for sets).
template <unsigned N>
class sym {
public:
  static constexpr unsigned bits = N;
  /// 0, as a value-initialised unsigned integer (`W w[K] = {}`).
  sym() : e(ctx().bv_val(std::uint64_t{0}, N)) {}
  /// A literal, converted modulo 2^N as an integer conversion does.
  template <sym_detail::word_literal T>
  sym(T v) : e(ctx().bv_val(static_cast<std::uint64_t>(v), N)) {} // NOLINT: implicit, as integers
  /// A Z3 bit-vector of N bits.
  explicit sym(z3::expr x) : e(std::move(x)) {
    if (!e.is_bv() || e.get_sort().bv_size() != N) throw z3::exception("sym<N>: width mismatch");
  }
  /// Widening (zero extension), implicit as std::uint32_t -> std::uint64_t.
  template <unsigned M>
    requires(M < N)
  sym(const sym<M>& x) : e(z3::zext(x.e, N - M)) {} // NOLINT
  /// Narrowing (keeps the low N bits), explicit as static_cast.
  template <unsigned M>
    requires(M > N)
  explicit sym(const sym<M>& x) : e(x.e.extract(N - 1, 0)) {}
  /// 0 or 1, as static_cast<unsigned>(bool).
  explicit sym(const sym_bool& b) : e(z3::ite(b.e, ctx().bv_val(std::uint64_t{1}, N), ctx().bv_val(std::uint64_t{0}, N))) {}
  /// A fresh unknown named \p name (shown in counterexamples when registered).
  static sym fresh(const std::string& name) { return sym(ctx().bv_const(name.c_str(), N)); }

  /// Concretises (a fork over the feasible values): array subscripts and
  /// pointer arithmetic need a number.
  operator std::uint64_t() const { return current().value(e); } // NOLINT: implicit, for subscripts

  z3::expr e;

#define DEPREDUCE_SYM_BINOP(OP, MK)                                                                 \
  friend sym operator OP(const sym& a, const sym& b) { return sym(MK(a.e, b.e)); }                  \
  template <sym_detail::word_literal T>                                                            \
  friend sym operator OP(const sym& a, T b) { return a OP sym(b); }                                 \
  template <sym_detail::word_literal T>                                                            \
  friend sym operator OP(T a, const sym& b) { return sym(a) OP b; }                                 \
  template <class U>                                                                               \
  sym& operator OP##=(const U& b) { return *this = *this OP sym(b); }
  DEPREDUCE_SYM_BINOP(+, [](const z3::expr& x, const z3::expr& y) { return x + y; })
  DEPREDUCE_SYM_BINOP(-, [](const z3::expr& x, const z3::expr& y) { return x - y; })
  DEPREDUCE_SYM_BINOP(*, [](const z3::expr& x, const z3::expr& y) { return x * y; })
  DEPREDUCE_SYM_BINOP(&, [](const z3::expr& x, const z3::expr& y) { return x & y; })
  DEPREDUCE_SYM_BINOP(|, [](const z3::expr& x, const z3::expr& y) { return x | y; })
  DEPREDUCE_SYM_BINOP(^, [](const z3::expr& x, const z3::expr& y) { return x ^ y; })
  DEPREDUCE_SYM_BINOP(/, div_checked)
  DEPREDUCE_SYM_BINOP(%, rem_checked)
#undef DEPREDUCE_SYM_BINOP

#define DEPREDUCE_SYM_CMP(OP, MK)                                                                   \
  friend sym_bool operator OP(const sym& a, const sym& b) { return sym_bool(MK(a.e, b.e)); }        \
  template <sym_detail::word_literal T>                                                            \
  friend sym_bool operator OP(const sym& a, T b) { return a OP sym(b); }                            \
  template <sym_detail::word_literal T>                                                            \
  friend sym_bool operator OP(T a, const sym& b) { return sym(a) OP b; }
  DEPREDUCE_SYM_CMP(==, [](const z3::expr& x, const z3::expr& y) { return x == y; })
  DEPREDUCE_SYM_CMP(!=, [](const z3::expr& x, const z3::expr& y) { return x != y; })
  DEPREDUCE_SYM_CMP(<, z3::ult)
  DEPREDUCE_SYM_CMP(<=, z3::ule)
  DEPREDUCE_SYM_CMP(>, z3::ugt)
  DEPREDUCE_SYM_CMP(>=, z3::uge)
#undef DEPREDUCE_SYM_CMP

  friend sym operator~(const sym& a) { return sym(~a.e); }
  friend sym operator-(const sym& a) { return sym(-a.e); }

  /// Shifts: the amount (any width) must be below N on the path (else
  /// undefined behaviour in C++, a failed side condition here).
  template <unsigned M>
  friend sym operator<<(const sym& a, const sym<M>& n) { return sym(z3::shl(a.e, amount(n.e))); }
  template <unsigned M>
  friend sym operator>>(const sym& a, const sym<M>& n) { return sym(z3::lshr(a.e, amount(n.e))); }
  template <sym_detail::word_literal T>
  friend sym operator<<(const sym& a, T n) { return a << sym<64>(static_cast<std::uint64_t>(n)); }
  template <sym_detail::word_literal T>
  friend sym operator>>(const sym& a, T n) { return a >> sym<64>(static_cast<std::uint64_t>(n)); }
  /// A literal shifted by a word: the literal's (promoted) width, as in C++.
  template <sym_detail::word_literal T>
  friend sym<sym_detail::bits_of<T>> operator<<(T a, const sym& n) { return sym<sym_detail::bits_of<T>>(a) << n; }
  template <sym_detail::word_literal T>
  friend sym<sym_detail::bits_of<T>> operator>>(T a, const sym& n) { return sym<sym_detail::bits_of<T>>(a) >> n; }
  template <class U>
  sym& operator<<=(const U& n) { return *this = *this << n; }
  template <class U>
  sym& operator>>=(const U& n) { return *this = *this >> n; }

private:
  static z3::expr amount(const z3::expr& n) {
    const unsigned m = n.get_sort().bv_size();
    current().require(z3::ult(n, ctx().bv_val(std::uint64_t{N}, m)), "shift by the word width or more");
    return sym_detail::resize(n, N);
  }
  static z3::expr div_checked(const z3::expr& x, const z3::expr& y) {
    current().require(y != 0, "division by zero");
    return z3::udiv(x, y);
  }
  static z3::expr rem_checked(const z3::expr& x, const z3::expr& y) {
    current().require(y != 0, "division by zero");
    return z3::urem(x, y);
  }
};

} // namespace depreduce::proofs

namespace depreduce::window_detail {
template <class W>
struct half_word;
/// The symbolic 32-bit word that goes with the symbolic 64-bit one.
template <>
struct half_word<proofs::sym<64>> {
  using type = proofs::sym<32>;
};
} // namespace depreduce::window_detail

namespace depreduce::proofs {

/// Declares \p i < \p size a side condition (an array bound) and returns \p i
/// concretised: for the proofs' own reads of production arrays at symbolic
/// positions.
template <unsigned N>
std::uint64_t checked_index(const sym<N>& i, std::uint64_t size, const std::string& what) {
  current().require(z3::ult(i.e, ctx().bv_val(size, N)), what);
  return static_cast<std::uint64_t>(i);
}

/// A formatted counterexample value: decimal and hex for words up to 64 bits.
std::string show_value(const z3::expr& v);

} // namespace depreduce::proofs

#endif // DEPREDUCE_PROOFS_SYM_HPP
