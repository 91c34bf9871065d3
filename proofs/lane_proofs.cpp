//===- proofs/lane_proofs.cpp - SyncState lane obligations (5) ------------===//
///
/// \file
/// The SyncState lane of transitive_reduction.cpp (optimized/src/lane.hpp,
/// docs/model.md "SyncState lanes"), instantiated with symbolic words, keys
/// and a bit-vector remainder in place of the Roaring bitmap, on a bounded
/// universe of keys [0, kUniverse):
///   5a. union (merge) == set union, for each pair of forms (dense or sparse),
///       including the switch to sparse form; the result is in normal form;
///   5b. insert (add) == set insert, including turning sparse beyond the window;
///   5c. lookup (contains) == membership.
/// A lane's set is every key below base plus, dense, bit i of the window as
/// key base + i, or, sparse, the remainder's keys.
//===----------------------------------------------------------------------===//
#include "lane.hpp"

#include "obligation.hpp"
#include "sym.hpp"

#include <string>

namespace depreduce::proofs {
namespace {

using W64 = sym<64>;
using W32 = sym<32>;

/// Keys of the inputs are below kUniverse; sets are kSem bits wide, so a key
/// an operation wrongly puts at or above kUniverse shows as a difference.
constexpr unsigned kUniverse = 1024;
constexpr unsigned kSem = 2048;

z3::expr below(const z3::expr& key32) { // {k : k < key} as a kSem-bit set
  return ~z3::shl(~ctx().bv_val(0, kSem), zx(key32, kSem));
}

/// The remainder of the sparse form: a kSem-bit set (Roaring's semantics;
/// roaring_rest's loop over the window's bits is left to tests).
struct bv_rest {
  z3::expr bits = ctx().bv_val(0, kSem);
  sym_bool contains(const W32& key) const {
    return sym_bool((z3::lshr(bits, zx(key.e, kSem)) & ctx().bv_val(1, kSem)) == ctx().bv_val(1, kSem));
  }
  void add(const W32& key) { bits = bits | z3::shl(ctx().bv_val(1, kSem), zx(key.e, kSem)); }
  void ensure() {}
  template <unsigned K>
  void add_window(const W32& from, const W64 (&w)[K], const W32& min_key) {
    bits = bits | (z3::shl(zx(concat_words(w, K), kSem), zx(from.e, kSem)) & ~below(min_key.e));
  }
  void or_with(const bv_rest& o) { bits = bits | o.bits; }
  void clear() { bits = ctx().bv_val(0, kSem); }
};

template <unsigned Words, detail::LaneMutation M = detail::LaneMutation::None>
using lane = detail::basic_lane<W64, W32, bv_rest, Words, M>;

template <class L>
z3::expr set_of(const L& l) {
  const z3::expr part = l.sparse ? l.rest.bits : z3::shl(zx(concat_words(l.window, L::kWords), kSem), zx(l.base.e, kSem));
  return below(l.base.e) | part;
}

/// A reachable lane of the given form, keys below kUniverse: dense with base
/// a multiple of 64, the window inside the universe and its first word not
/// full (advance()'s normal form); sparse with an all-zero window.
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
    ex.assume((l.base.e & 63) == 0 && z3::ule(zx(l.base.e, 64) + 64 * L::kWords, bv(kUniverse, 64)));
    ex.assume(l.window[0].e != bv(~std::uint64_t{0}, 64));
  } else {
    l.rest.bits = ctx().bv_const((name + ".rest").c_str(), kSem);
    ex.show(name + ".rest", l.rest.bits);
    ex.assume(z3::ule(l.base.e, bv(kUniverse, 32)));
    ex.assume((l.rest.bits & ~below(bv(kUniverse, 32))) == 0);
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

template <unsigned Words, detail::LaneMutation M = detail::LaneMutation::None>
void merge_forms(explorer& ex, bool a_sparse, bool b_sparse) {
  lane<Words, M> a = fresh_lane<lane<Words, M>>(ex, "a", a_sparse);
  const lane<Words, M> b = fresh_lane<lane<Words, M>>(ex, "b", b_sparse);
  const z3::expr want = set_of(a) | set_of(b);
  a.merge(b);
  ex.check(set_of(a) == want, "merge differs from set union");
  ex.check(normal_form(a), "merge leaves the lane out of normal form");
}

template <unsigned Words>
void add_key(explorer& ex, bool sparse) {
  lane<Words> a = fresh_lane<lane<Words>>(ex, "a", sparse);
  const W32 key = W32::fresh("key");
  ex.show("key", key.e);
  ex.assume(z3::ult(key.e, bv(kUniverse, 32)));
  const z3::expr want = set_of(a) | z3::shl(ctx().bv_val(1, kSem), zx(key.e, kSem));
  a.add(key);
  ex.check(set_of(a) == want, "add differs from set insert");
  ex.check(normal_form(a), "add leaves the lane out of normal form");
}

template <unsigned Words>
void contains_key(explorer& ex, bool sparse) {
  const lane<Words> a = fresh_lane<lane<Words>>(ex, "a", sparse);
  const W32 key = W32::fresh("key");
  ex.show("key", key.e);
  const bool got = a.contains(key); // forks: one path per answer and case
  const z3::expr member = (z3::lshr(set_of(a), zx(key.e, kSem)) & ctx().bv_val(1, kSem)) == ctx().bv_val(1, kSem);
  ex.check(got ? member : !member, "contains differs from membership");
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
  add_lane_obligations<1>(); // ci/narrow-lanes
  using M = detail::LaneMutation;
  add_obligation({"5a'", "teeth: dense union drops a window word, 512-bit window", true,
                  [](explorer& ex) { merge_forms<8, M::DropWindowWord>(ex, false, false); }});
  add_obligation({"5a''", "teeth: switch to sparse forgets the window, dense with sparse, 512-bit window", true,
                  [](explorer& ex) { merge_forms<8, M::LoseWindowOnSparse>(ex, false, true); }});
  return true;
}();

} // namespace
} // namespace depreduce::proofs
