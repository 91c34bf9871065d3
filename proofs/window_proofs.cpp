//===- proofs/window_proofs.cpp - Window reducer obligations 1-4 ----------===//
///
/// \file
/// The bounded-window reducer's word arithmetic (SPEC §6, docs/window.md),
/// instantiated from depreduce/detail/window_arith.hpp with symbolic words:
///   1. validity: the one-compare check-word test == the SPEC predicate;
///   2. parking: the invariant that makes 1 true is kept by every step;
///   3. shifts: via |= R << d == the BL-bit shift, d == BL the direct bit only;
///   4. the AVX-512 kernel's lane formulas == the portable ones.
/// Each has teeth (docs/proofs.md). The SPEC side is written directly in Z3.
//===----------------------------------------------------------------------===//
#include "depreduce/detail/window_arith.hpp"

#include "obligation.hpp"
#include "sym.hpp"

#include <string>

namespace depreduce::proofs {
namespace {

using W64 = sym<64>;
using W32 = sym<32>;
namespace wd = depreduce::window_detail;

constexpr std::uint64_t kMaxSlots = std::uint64_t{1} << 24; // kMaxWindowSlots
constexpr std::uint64_t kBatch = 64;                        // kParkBatch
/// Default build: DEPREDUCE_WINDOW_PARK_LOG2 = 30.
constexpr std::uint64_t kDefaultPark = std::uint64_t{1} << 30;
/// Submits since a 64-bit slot was published, at most (SPEC §6 decision 3:
/// distances alias modulo 2^64 beyond; a contract, not a property of the code).
const std::uint64_t kAgeLimit = ~std::uint64_t{0} - (std::uint64_t{1} << 33);

std::string bl_name(unsigned bl) { return "BL=" + std::to_string(bl); }

//===----------------------------------------------------------------------===//
// 1, 2: check word and parking
//===----------------------------------------------------------------------===//

/// One slot and the reducer around it.
struct slot_state {
  W64 check, seq, next; // slot check word and sequence; the reducer's next_seq_
  z3::expr published;   // ever published (seq != never_seq_ in the code)
  W64 t;                // ghost: submits since the slot's last parking visit
};

slot_state fresh_slot(explorer& ex, const std::string& p, unsigned width) {
  slot_state s{W64::fresh(p + "check"), W64::fresh(p + "seq"), W64::fresh(p + "next_seq"),
               ctx().bool_const((p + "published").c_str()), W64::fresh(p + "t")};
  ex.show(p + "published", s.published);
  ex.show(p + "seq", s.seq.e);
  ex.show(p + "check", s.check.e);
  ex.show(p + "next_seq", s.next.e);
  ex.show(p + "t", s.t.e);
  if (width == 32) {
    ex.assume(z3::ult(s.next.e, bv(std::uint64_t{1} << 32, 64)));
    ex.assume(z3::implies(s.published, z3::ult(s.seq.e, bv(std::uint64_t{1} << 32, 64))));
  }
  return s;
}

/// The parking invariant (docs/window.md "Why that is enough"), in Z3 from
/// the docs' formula: with seq_m1 = next - 1, age = seq_m1 - seq (64-bit)
/// and dc = low32(seq_m1) - check's sequence half, either
///   exact:  published, sequence half = low 32 bits of seq, and (64-bit)
///           age < P + t; or
///   parked: 2P <= dc <= 2P + t, and a parked published slot is 64-bit with
///           P <= age <= kAgeLimit;
/// and t <= the visit period.
z3::expr invariant(const slot_state& s, unsigned width, std::uint64_t park, std::uint64_t period) {
  const z3::expr seq_m1 = s.next.e - 1;
  const z3::expr age = seq_m1 - s.seq.e;
  const z3::expr dc = zx(lo32(seq_m1) - hi32(s.check.e), 64);
  const z3::expr p = bv(park, 64), t = s.t.e;
  const bool wide = width == 64;
  const z3::expr exact = s.published && hi32(s.check.e) == lo32(s.seq.e) &&
                         (wide ? z3::ult(age, p + t) : ctx().bool_val(true));
  const z3::expr parked =
      z3::ule(2 * p, dc) && z3::ule(dc, 2 * p + t) &&
      z3::implies(s.published, wide ? (z3::uge(age, p) && z3::ule(age, bv(kAgeLimit, 64))) : ctx().bool_val(false));
  return z3::ule(t, bv(period, 64)) && (exact || parked);
}

/// SPEC §6: valid and tracked iff published with the candidate's generation
/// and 1 <= d <= BL, d = (seq(t) - seq(p)) mod 2^width.
z3::expr spec_tracked(const slot_state& s, const W32& gen, unsigned width, unsigned bl) {
  z3::expr d = s.next.e - s.seq.e;
  if (width == 32) d = zx(lo32(d), 64);
  return s.published && lo32(s.check.e) == gen.e && z3::ule(bv(1, 64), d) && z3::ule(d, bv(bl, 64));
}

/// 1: the code's test (check_tracked on seq_m1 = next_seq_ - 1, as
/// flags_impl calls it) == the SPEC predicate under the invariant.
void validity(explorer& ex, unsigned width, unsigned bl, std::uint64_t park, unsigned tested_bl) {
  const std::uint64_t period = wd::park_period(park, kMaxSlots, kBatch);
  const slot_state s = fresh_slot(ex, "", width);
  const W32 gen = W32::fresh("candidate_generation");
  ex.show("candidate_generation", gen.e);
  ex.assume(invariant(s, width, park, period));
  const sym_bool code = sym_bool(wd::check_tracked(s.check, s.next - 1, gen, tested_bl).e);
  ex.check(code.e == spec_tracked(s, gen, width, bl), "check-word test differs from SPEC §6 tracked");
}

void add_validity(unsigned width) {
  for (unsigned bl : {64u, 128u, 256u})
    add_obligation({"1", "validity: check-word test == SPEC tracked, " + std::to_string(width) + "-bit seq, " +
                             bl_name(bl) + ", parking invariant",
                    false, [=](explorer& ex) { validity(ex, width, bl, kDefaultPark, bl); }});
}

const bool r1 = [] {
  add_validity(32);
  add_validity(64);
  add_obligation({"1'", "teeth: parking after 2^32 submits (P = 2^32), 64-bit seq, BL=64", true,
                  [](explorer& ex) { validity(ex, 64, 64, std::uint64_t{1} << 32, 64); }});
  add_obligation({"1''", "teeth: tracked iff d < BL (test with BL - 1), 64-bit seq, BL=64", true,
                  [](explorer& ex) { validity(ex, 64, 64, kDefaultPark, 63); }});
  return true;
}();

/// 2a: a submit that publishes another slot: the slot is unchanged, the
/// sequence advances (next_seq_ = (next_seq_ + 1) & mask, stamp()).
void keep_other(explorer& ex, unsigned width) {
  const std::uint64_t park = kDefaultPark, period = wd::park_period(park, kMaxSlots, kBatch);
  const slot_state s = fresh_slot(ex, "", width);
  ex.assume(invariant(s, width, park, period));
  ex.assume(z3::ult(s.t.e, bv(period, 64))); // the round robin visits the slot within the period
  ex.assume(z3::implies(s.published, z3::ult(s.next.e - 1 - s.seq.e, bv(kAgeLimit, 64)))); // contract
  const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << 32) - 1;
  const slot_state after{s.check, s.seq, (s.next + 1) & mask, s.published, s.t + 1};
  ex.check(invariant(after, width, park, period), "invariant lost by a submit elsewhere");
}

/// 2b: the submit that publishes this slot (stamp(): seq = next_seq_, check =
/// check_word(next_seq_, generation)).
void keep_own(explorer& ex, unsigned width) {
  const std::uint64_t park = kDefaultPark, period = wd::park_period(park, kMaxSlots, kBatch);
  const slot_state s = fresh_slot(ex, "", width);
  const W32 gen = W32::fresh("generation");
  ex.assume(invariant(s, width, park, period));
  ex.assume(z3::ult(s.t.e, bv(period, 64)));
  const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << 32) - 1;
  const slot_state after{wd::check_word(s.next, gen), s.next, (s.next + 1) & mask, ctx().bool_val(true), s.t + 1};
  ex.check(invariant(after, width, park, period) && lo32(after.check.e) == gen.e, "invariant lost by publishing");
}

/// 2c: a parking visit (park_round() after stamp(): seq_m1 = (next_seq_ - 1)
/// & mask), resetting the ghost t; the generation half is kept.
void keep_parking(explorer& ex, unsigned width, bool wide_flag) {
  const std::uint64_t park = kDefaultPark, period = wd::park_period(park, kMaxSlots, kBatch);
  const slot_state s = fresh_slot(ex, "", width);
  ex.assume(invariant(s, width, park, period));
  const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << 32) - 1;
  const W64 check = wd::park_visit(s.check, s.seq, sym_bool(s.published), (s.next - 1) & mask, wide_flag, park);
  const slot_state after{check, s.seq, s.next, s.published, W64(0)};
  ex.check(invariant(after, width, park, period) && lo32(check.e) == lo32(s.check.e),
           "invariant lost by a parking visit");
}

/// 2d: the constructor's word (every slot unpublished and parked).
void initial(explorer& ex, unsigned width) {
  const std::uint64_t park = kDefaultPark, period = wd::park_period(park, kMaxSlots, kBatch);
  const slot_state s = fresh_slot(ex, "", width);
  ex.assume(!s.published);
  const W64 check = wd::park_visit(W64(0), s.seq, false, s.next - 1, false, park);
  const slot_state after{check, s.seq, s.next, s.published, W64(0)};
  ex.check(invariant(after, width, park, period), "the constructor's check word breaks the invariant");
}

const bool r2 = [] {
  for (unsigned w : {32u, 64u}) {
    const std::string ws = std::to_string(w) + "-bit seq";
    add_obligation({"2a", "parking invariant kept by a submit to another slot, " + ws, false,
                    [=](explorer& ex) { keep_other(ex, w); }});
    add_obligation({"2b", "parking invariant kept by publishing the slot (check_word), " + ws, false,
                    [=](explorer& ex) { keep_own(ex, w); }});
    add_obligation({"2c", "parking invariant kept by a parking visit (park_visit), " + ws, false,
                    [=](explorer& ex) { keep_parking(ex, w, w == 64); }});
    add_obligation({"2d", "parking invariant holds for the constructor's word (park_visit), " + ws, false,
                    [=](explorer& ex) { initial(ex, w); }});
  }
  add_obligation({"2c'", "teeth: parking never parks published 64-bit slots (wide = false)", true,
                  [](explorer& ex) { keep_parking(ex, 64, false); }});
  return true;
}();

//===----------------------------------------------------------------------===//
// 3: shifts
//===----------------------------------------------------------------------===//

/// 3a: one add() of a counting producer at 1 <= d <= BL onto any prior
/// direct / via: via |= R << d (BL-bit shift) if d < BL, direct |= bit(d-1).
/// Every d is run (d concrete, R, direct and via symbolic): bit-blasting a
/// 256-bit shift by a symbolic amount costs minutes, BL concrete ones a second.
template <unsigned BL, wd::ShiftMutation M>
void shift_counting(explorer& ex) {
  constexpr unsigned K = BL / 64;
  W64 reach[K], direct0[K], via0[K];
  for (unsigned j = 0; j < K; ++j) {
    reach[j] = W64::fresh("R" + std::to_string(j));
    direct0[j] = W64::fresh("direct" + std::to_string(j));
    via0[j] = W64::fresh("via" + std::to_string(j));
    ex.show("R[" + std::to_string(j) + "]", reach[j].e);
  }
  const W64 dsym = W64::fresh("d");
  ex.show("d", dsym.e);
  const z3::expr r = concat_words(reach, K);
  for (unsigned d = 1; d <= BL && !ex.failure(); ++d) {
    ex.assume_scoped(dsym.e == bv(d, 64)); // names d in a counterexample
    wd::window_accumulator<BL, W64, M> acc;
    for (unsigned j = 0; j < K; ++j) {
      acc.direct[j] = direct0[j];
      acc.via_[j] = via0[j];
    }
    acc.add(reach, W64(d), W64(1));
    const z3::expr want_via = concat_words(via0, K) | (d < BL ? z3::shl(r, bv(d, BL)) : ctx().bv_val(0, BL));
    const z3::expr want_direct = concat_words(direct0, K) | z3::shl(ctx().bv_val(1, BL), bv(d - 1, BL));
    ex.check(concat_words(acc.via_, K) == want_via, "via differs from via | (R << d if d < BL)");
    ex.check(concat_words(acc.direct, K) == want_direct, "direct differs from direct | bit(d - 1)");
    ex.drop_assumption();
  }
}

/// 3b: a producer that does not count (on = 0) at any d changes nothing.
template <unsigned BL>
void shift_not_counting(explorer& ex) {
  constexpr unsigned K = BL / 64;
  wd::window_accumulator<BL, W64> acc;
  W64 reach[K], direct0[K], via0[K];
  for (unsigned j = 0; j < K; ++j) {
    reach[j] = W64::fresh("R" + std::to_string(j));
    direct0[j] = acc.direct[j] = W64::fresh("direct" + std::to_string(j));
    via0[j] = acc.via_[j] = W64::fresh("via" + std::to_string(j));
  }
  const W64 d = W64::fresh("d");
  ex.show("d", d.e);
  acc.add(reach, d, W64(0));
  ex.check(concat_words(acc.via_, K) == concat_words(via0, K) && concat_words(acc.direct, K) == concat_words(direct0, K),
           "a producer that does not count changed direct or via");
}

/// 3c: shift_left_words<K> (also WindowBitmap::shifted_left) == the 64K-bit
/// shift for 0 <= d < 64K, every d run (src symbolic).
template <unsigned K>
void barrel(explorer& ex) {
  W64 src[K], out[K];
  for (unsigned j = 0; j < K; ++j) src[j] = W64::fresh("src" + std::to_string(j));
  const W64 d = W64::fresh("d");
  ex.show("d", d.e);
  for (unsigned dv = 0; dv < 64 * K && !ex.failure(); ++dv) {
    ex.assume_scoped(d.e == bv(dv, 64));
    wd::shift_left_words<K>(src, W64(dv), out);
    ex.check(concat_words(out, K) == z3::shl(concat_words(src, K), bv(dv, 64 * K)), "barrel shifter differs");
    ex.drop_assumption();
  }
}

const bool r3 = [] {
  using M = wd::ShiftMutation;
  add_obligation({"3a", "shift: via |= R << d, direct |= bit(d-1), 1 <= d <= BL, BL=64", false, shift_counting<64, M::None>});
  add_obligation({"3a", "shift: via |= R << d, direct |= bit(d-1), 1 <= d <= BL, BL=128", false, shift_counting<128, M::None>});
  add_obligation({"3a", "shift: via |= R << d, direct |= bit(d-1), 1 <= d <= BL, BL=256", false, shift_counting<256, M::None>});
  add_obligation({"3b", "shift: a producer that does not count changes nothing, any d, BL=64", false, shift_not_counting<64>});
  add_obligation({"3b", "shift: a producer that does not count changes nothing, any d, BL=128", false, shift_not_counting<128>});
  add_obligation({"3b", "shift: a producer that does not count changes nothing, any d, BL=256", false, shift_not_counting<256>});
  add_obligation({"3c", "shift_left_words<2> == 128-bit shift, 0 <= d < 128", false, barrel<2>});
  add_obligation({"3c", "shift_left_words<4> == 256-bit shift, 0 <= d < 256", false, barrel<4>});
  add_obligation({"3a'", "teeth: shift by d - 1, BL=64", true, shift_counting<64, M::ShiftByDMinus1>});
  add_obligation({"3a'", "teeth: shift by d - 1, BL=128", true, shift_counting<128, M::ShiftByDMinus1>});
  add_obligation({"3a'", "teeth: shift by d - 1, BL=256", true, shift_counting<256, M::ShiftByDMinus1>});
  add_obligation({"3a''", "teeth: no d < BL guard (plain R << d), BL=64", true, shift_counting<64, M::NoWindowGuard>});
  add_obligation({"3a''", "teeth: no d < BL guard, BL=128", true, shift_counting<128, M::NoWindowGuard>});
  return true;
}();

//===----------------------------------------------------------------------===//
// 4: the AVX-512 kernel's lane formulas
//===----------------------------------------------------------------------===//

struct geometry {
  W64 producer;
  W32 rings, spr;
};
geometry fresh_geometry(explorer& ex) {
  geometry g{W64::fresh("producer"), W32::fresh("rings"), W32::fresh("slots_per_ring")};
  ex.show("producer", g.producer.e);
  ex.show("rings", g.rings.e);
  ex.show("slots_per_ring", g.spr.e);
  // validate_window_options: rings, slots >= 1, rings * slots <= 2^24.
  ex.assume(z3::uge(g.rings.e, bv(1, 32)) && z3::uge(g.spr.e, bv(1, 32)) &&
            z3::ule(zx(g.rings.e, 64) * zx(g.spr.e, 64), bv(kMaxSlots, 64)));
  return g;
}

/// 4a: the kernel's range check (unsigned 32-bit min against the limits) ==
/// producer_index's (ring < rings and slot < slots_per_ring).
void kernel_range(explorer& ex, bool limits_without_minus_one) {
  const geometry g = fresh_geometry(ex);
  const W64 limits = limits_without_minus_one ? (W64(g.rings) << 32) | W64(g.spr) // teeth
                                              : wd::kernel_limits<W64>(g.rings, g.spr);
  const sym_bool kernel = wd::kernel_in_range(g.producer, limits);
  const sym_bool portable = wd::slot_in_range(g.producer, g.rings, g.spr);
  ex.check(kernel.e == portable.e, "kernel range check differs from the portable one");
}

/// 4b: the kernel's slot word index == slot_index() * (BL/64 + 2) for an
/// in-range producer.
template <unsigned BL>
void kernel_index(explorer& ex, unsigned stride_in_ring_words) {
  const unsigned stride = BL / 64 + 2;
  const geometry g = fresh_geometry(ex);
  ex.assume(sym_bool(wd::slot_in_range(g.producer, g.rings, g.spr)).e);
  const W64 ring_words = wd::kernel_ring_words<W64>(g.spr, stride_in_ring_words);
  const W64 kernel = wd::kernel_slot_word(g.producer, ring_words, W64(stride));
  const W64 portable = wd::slot_index(g.producer, g.spr) * stride;
  // Equivalence of two 64-bit multipliers does not bit-blast in reasonable
  // time, so in two steps: (i) ring_words survives the kernel's truncation
  // to 32 bits (mul_epu32 reads the low half), (ii) with the truncated term
  // replaced by ring_words (equal by (i)), both sides are the same
  // polynomial: Z3's sum-of-monomials normal form decides it.
  const z3::expr truncated = z3::zext(ring_words.e.extract(31, 0), 32);
  ex.check(truncated == ring_words.e, "ring words do not fit the kernel's 32-bit multiply");
  z3::expr_vector from(ctx()), to(ctx());
  from.push_back(truncated);
  to.push_back(ring_words.e);
  z3::params som(ctx());
  som.set("som", true);
  z3::expr k = kernel.e;
  k = k.substitute(from, to).simplify(som);
  const z3::expr p = portable.e.simplify(som);
  ex.check(k == p, "kernel slot word differs from slot_index * stride");
}

/// 4c: the kernel's check-word lane test == check_tracked(), and its d - 1
/// (the high half) == check_distance_m1() when tracked.
template <unsigned BL>
void kernel_check(explorer& ex, bool reject_of_twice_bl) {
  const W64 meta = W64::fresh("meta"), seq_m1 = W64::fresh("seq_m1"), check = W64::fresh("check");
  ex.show("meta", meta.e);
  ex.show("seq_m1", seq_m1.e);
  ex.show("check", check.e);
  const W64 y = wd::kernel_check_difference(meta, seq_m1, check);
  const W64 reject = wd::kernel_check_reject(reject_of_twice_bl ? 2 * BL : BL);
  const z3::expr kernel = (y & reject).e == 0;
  const sym_bool portable = wd::check_tracked(check, seq_m1, static_cast<W32>(meta), BL);
  ex.check(kernel == portable.e, "kernel check-word test differs from check_tracked");
  ex.check(z3::implies(portable.e, (y >> 32).e == zx(wd::check_distance_m1(check, seq_m1).e, 64)),
           "kernel d - 1 differs from check_distance_m1");
}

const bool r4 = [] {
  add_obligation({"4a", "kernel range check (min_epu32 vs limits) == portable range check", false,
                  [](explorer& ex) { kernel_range(ex, false); }});
  add_obligation({"4b", "kernel slot word (mul_epu32) == slot_index * stride, BL=64", false,
                  [](explorer& ex) { kernel_index<64>(ex, 3); }});
  add_obligation({"4b", "kernel slot word (mul_epu32) == slot_index * stride, BL=128", false,
                  [](explorer& ex) { kernel_index<128>(ex, 4); }});
  add_obligation({"4b", "kernel slot word (mul_epu32) == slot_index * stride, BL=256", false,
                  [](explorer& ex) { kernel_index<256>(ex, 6); }});
  add_obligation({"4c", "kernel check-word lane test == check_tracked, BL=64", false,
                  [](explorer& ex) { kernel_check<64>(ex, false); }});
  add_obligation({"4c", "kernel check-word lane test == check_tracked, BL=128", false,
                  [](explorer& ex) { kernel_check<128>(ex, false); }});
  add_obligation({"4c", "kernel check-word lane test == check_tracked, BL=256", false,
                  [](explorer& ex) { kernel_check<256>(ex, false); }});
  add_obligation({"4a'", "teeth: kernel limits without the - 1", true, [](explorer& ex) { kernel_range(ex, true); }});
  add_obligation({"4b'", "teeth: ring words from a stride without the check word, BL=64", true,
                  [](explorer& ex) { kernel_index<64>(ex, 2); }});
  add_obligation({"4c'", "teeth: reject mask of 2 BL, BL=64", true, [](explorer& ex) { kernel_check<64>(ex, true); }});
  return true;
}();

} // namespace
} // namespace depreduce::proofs
