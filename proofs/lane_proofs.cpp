//===- proofs/lane_proofs.cpp - SyncState lane obligations (5) ------------===//
///
/// \file
/// The SyncState lane of transitive_reduction.cpp (optimized/src/lane.hpp,
/// docs/model.md "SyncState lanes"), instantiated with symbolic words, keys
/// and a membership predicate in place of the Roaring bitmap, on the bounded
/// universe of keys [0, kUniverse) (2^32 - 1024: no window wraps):
///   5a. union (merge) == set union, for each pair of forms (dense or sparse),
///       including the switch to sparse form; the result is in normal form;
///   5b. insert (add) == set insert, including turning sparse beyond the window;
///   5c. lookup (contains) == membership.
/// A lane's set is every key below base plus, dense, bit i of the window as
/// key base + i, or, sparse, the remainder's keys; claims are for a symbolic
/// key (membership), so sets are never built as bit-vectors.
//===----------------------------------------------------------------------===//
#include "lane.hpp"

#include "obligation.hpp"
#include "sym.hpp"

#include <functional>
#include <string>
#include <vector>

namespace depreduce::proofs {
namespace {

using W64 = sym<64>;
using W32 = sym<32>;
using membership = std::function<z3::expr(const z3::expr&)>; // key (32 bits) -> is it in the set

/// Keys are 32-bit; the universe is bounded so that no window reaches the
/// wrap of 2^32: base + 64 * Words <= kUniverse, every key < kUniverse.
constexpr std::uint64_t kUniverse = (std::uint64_t{1} << 32) - 1024;

/// Bit \p index32 (< 64 K) of the K words \p w: the word by an 8-way choice,
/// then a 64-bit shift (a 64K-bit shifter would cost the solver far more).
template <unsigned K>
z3::expr key_bit(const W64 (&w)[K], const z3::expr& index32) {
  const z3::expr word_index = z3::lshr(index32, bv(6, 32)), bit = zx(index32 & 63, 64);
  z3::expr word = w[0].e;
  for (unsigned i = 1; i < K; ++i) word = z3::ite(word_index == bv(i, 32), w[i].e, word);
  return (z3::lshr(word, bit) & bv(1, 64)) == bv(1, 64);
}

/// The remainder of the sparse form as a set given by its membership
/// predicate (Roaring's semantics; roaring_rest's loop over the window's
/// bits is left to tests).
struct pred_rest {
  membership has = [](const z3::expr&) { return ctx().bool_val(false); };
  sym_bool contains(const W32& key) const { return sym_bool(has(key.e)); }
  void add(const W32& key) {
    membership old = has;
    const z3::expr k = key.e;
    has = [old, k](const z3::expr& x) { return old(x) || x == k; };
  }
  void ensure() {}
  template <unsigned K>
  void add_window(const W32& from, const W64 (&w)[K], const W32& min_key) {
    membership old = has;
    const z3::expr f = from.e, m = min_key.e;
    std::vector<W64> copy(w, w + K);
    has = [old, f, m, copy](const z3::expr& x) {
      W64 words[K];
      for (unsigned i = 0; i < K; ++i) words[i] = copy[i];
      return old(x) || (z3::uge(x, m) && z3::uge(x, f) && z3::ult(x - f, bv(64 * K, 32)) && key_bit(words, x - f));
    };
  }
  void or_with(const pred_rest& o) {
    membership old = has, other = o.has;
    has = [old, other](const z3::expr& x) { return old(x) || other(x); };
  }
  void clear() {
    has = [](const z3::expr&) { return ctx().bool_val(false); };
  }
};

template <unsigned Words, detail::LaneMutation M = detail::LaneMutation::None>
using lane = detail::basic_lane<W64, W32, pred_rest, Words, M>;

/// Whether \p x is in lane \p l: below base, or in the window / remainder.
template <class L>
z3::expr member(const L& l, const z3::expr& x) {
  const z3::expr rest = l.sparse ? l.rest.has(x)
                                 : z3::ult(x - l.base.e, bv(L::kBits, 32)) &&
                                       key_bit(l.window, x - l.base.e);
  return z3::ult(x, l.base.e) || rest;
}

/// A reachable lane of the given form, keys below kUniverse: dense with base
/// a multiple of 64, the window inside the universe and its first word not
/// full (advance()'s normal form); sparse with an all-zero window and any
/// remainder (an uninterpreted set).
template <class L>
L fresh_lane(explorer& ex, const std::string& name, bool sparse) {
  L l;
  l.sparse = sparse;
  l.base = W32::fresh(name + ".base");
  ex.show(name + ".base", l.base.e);
  if (!sparse) {
    for (unsigned i = 0; i < L::kWords; ++i) {
      l.window[i] = W64::fresh(name + ".window" + std::to_string(i));
      ex.show(name + ".window[" + std::to_string(i) + "]", l.window[i].e);
    }
    ex.assume((l.base.e & 63) == 0 && z3::ule(zx(l.base.e, 64) + bv(64 * L::kWords, 64), bv(kUniverse, 64)));
    ex.assume(l.window[0].e != bv(~std::uint64_t{0}, 64));
  } else {
    const z3::func_decl f = ctx().function((name + ".rest").c_str(), ctx().bv_sort(32), ctx().bool_sort());
    l.rest.has = [f](const z3::expr& x) { return f(x); };
    ex.assume(z3::ule(l.base.e, bv(kUniverse, 32)));
  }
  return l;
}

/// The normal form the code keeps (docs/model.md): dense lanes have a base
/// that is a multiple of 64 and a first window word that is not full; sparse
/// lanes an all-zero window.
template <class L>
z3::expr normal_form(const L& l) {
  if (l.sparse) return concat_words(l.window, L::kWords) == 0;
  return (l.base.e & 63) == 0 && l.window[0].e != bv(~std::uint64_t{0}, 64);
}

/// A key of the universe (the claims are for all of them).
z3::expr fresh_key(explorer& ex) {
  const z3::expr k = ctx().bv_const("key", 32);
  ex.show("key", k);
  ex.assume(z3::ult(k, bv(kUniverse, 32)));
  return k;
}

template <unsigned Words, detail::LaneMutation M = detail::LaneMutation::None>
void merge_forms(explorer& ex, bool a_sparse, bool b_sparse) {
  lane<Words, M> a = fresh_lane<lane<Words, M>>(ex, "a", a_sparse);
  const lane<Words, M> b = fresh_lane<lane<Words, M>>(ex, "b", b_sparse);
  const z3::expr k = fresh_key(ex);
  const z3::expr want = member(a, k) || member(b, k);
  a.merge(b);
  ex.check(member(a, k) == want, "merge differs from set union");
  ex.check(normal_form(a), "merge leaves the lane out of normal form");
}

template <unsigned Words>
void add_key(explorer& ex, bool sparse) {
  lane<Words> a = fresh_lane<lane<Words>>(ex, "a", sparse);
  const W32 key = W32::fresh("added");
  ex.show("added", key.e);
  ex.assume(z3::ult(key.e, bv(kUniverse, 32)));
  const z3::expr k = fresh_key(ex);
  const z3::expr want = member(a, k) || k == key.e;
  a.add(key);
  ex.check(member(a, k) == want, "add differs from set insert");
  ex.check(normal_form(a), "add leaves the lane out of normal form");
}

template <unsigned Words>
void contains_key(explorer& ex, bool sparse) {
  const lane<Words> a = fresh_lane<lane<Words>>(ex, "a", sparse);
  const W32 key = W32::fresh("key");
  ex.show("key", key.e);
  const bool got = a.contains(key); // forks: one path per answer and case
  const z3::expr in = member(a, key.e);
  ex.check(got ? in : !in, "contains differs from membership");
}

const char* form(bool sparse) { return sparse ? "sparse" : "dense"; }

template <unsigned Words>
void add_lane_obligations() {
  const std::string w = std::to_string(64 * Words) + "-bit window";
  for (bool as : {false, true})
    for (bool bs : {false, true})
      add_obligation({"5a", std::string("lane union == set union, ") + form(as) + " with " + form(bs) + ", " + w, false,
                      [=](explorer& ex) { merge_forms<Words>(ex, as, bs); }});
  for (bool s : {false, true}) {
    add_obligation({"5b", std::string("lane insert == set insert, ") + form(s) + ", " + w, false,
                    [=](explorer& ex) { add_key<Words>(ex, s); }});
    add_obligation({"5c", std::string("lane lookup == membership, ") + form(s) + ", " + w, false,
                    [=](explorer& ex) { contains_key<Words>(ex, s); }});
  }
}

const bool r5 = [] {
  add_lane_obligations<8>(); // the default DEPREDUCE_LANE_WORDS
  add_lane_obligations<1>(); // ci/sanitize (-DDEPREDUCE_LANE_WORDS=1)
  using M = detail::LaneMutation;
  add_obligation({"5a'", "teeth: dense union drops a window word, 512-bit window", true,
                  [](explorer& ex) { merge_forms<8, M::DropWindowWord>(ex, false, false); }});
  add_obligation({"5a''", "teeth: switch to sparse forgets the window, dense with sparse, 512-bit window", true,
                  [](explorer& ex) { merge_forms<8, M::LoseWindowOnSparse>(ex, false, true); }});
  return true;
}();

} // namespace
} // namespace depreduce::proofs
