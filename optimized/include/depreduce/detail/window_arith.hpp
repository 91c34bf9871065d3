//===- depreduce/detail/window_arith.hpp - Window reducer word arithmetic -*- C++ -*-===//
///
/// \file
/// The word arithmetic of window_reducer (depreduce/window_reducer.hpp) that
/// tests can only sample, written once as templates over the word type:
/// the check word and its one-compare validity test, parking, the shifted
/// bitmap `via |= R[p] << d`, and the per-lane formulas of the AVX-512
/// kernel. The library instantiates them with std::uint64_t / std::uint32_t;
/// proofs/ instantiates the same bodies with symbolic Z3 words and proves
/// them against SPEC §6 and docs/window.md (docs/proofs.md).
///
/// Rules for code in this file, so that both instantiations mean the same:
/// only the operators of unsigned integers, `static_cast` between the word
/// types, and `if`/`?:`/loops on their comparisons; constants as integer
/// literals; `W{0}` rather than a bare 0 where a word is expected.
///
/// Part of the vendorable core: standard library only.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_DETAIL_WINDOW_ARITH_HPP
#define DEPREDUCE_DETAIL_WINDOW_ARITH_HPP

#include <cstdint>

namespace depreduce::window_detail {

/// The 32-bit word type that goes with a 64-bit word type \p W
/// (std::uint32_t for std::uint64_t; proofs/ adds its symbolic words).
template <class W>
struct half_word;
template <>
struct half_word<std::uint64_t> {
  using type = std::uint32_t;
};
template <class W>
using half_word_t = typename half_word<W>::type;

//===----------------------------------------------------------------------===//
// Check word and parking (bounded window, one-load validation)
//===----------------------------------------------------------------------===//

/// A slot's check word: the low 32 bits of the submit sequence \p seq it was
/// published at (bits 32-63) and its \p generation (bits 0-31). submit_flags
/// (both kernels) validates a candidate by this word alone (check_tracked()),
/// which is exact because window_reducer *parks* the slots it could alias
/// for (park_visit(), window_reducer "Parking"). Cost O(1).
template <class W64, class W32>
constexpr W64 check_word(const W64& seq, const W32& generation) noexcept {
  return (seq << 32) | W64(generation);
}

/// (seq_m1 - check's sequence half) mod 2^32, in submits: d - 1 for a
/// candidate of the check word's generation, with d its submit-sequence
/// distance from the task after \p seq_m1; d - 1 < BL iff that candidate is
/// tracked (d = 0, aliasing the consumer, gives 2^32 - 1). Cost O(1).
template <class W64>
constexpr half_word_t<W64> check_distance_m1(const W64& check, const W64& seq_m1) noexcept {
  using W32 = half_word_t<W64>;
  return static_cast<W32>(static_cast<W32>(seq_m1) - static_cast<W32>(check >> 32));
}

/// The one-compare validity test of submit_flags (portable kernel; the
/// AVX-512 kernel's lane formula is kernel_check_difference()): non-zero iff
/// the slot's \p check word has the candidate's \p generation and
/// check_distance_m1(check, seq_m1) < \p bl, i.e. the candidate is valid and
/// 1 <= d <= bl (SPEC §6, "tracked"), given window_reducer's parking
/// invariant. \p seq_m1 is the submitting task's sequence - 1. Branch-free
/// (the two compares are combined with &, not &&). Cost O(1).
template <class W64, class W32>
constexpr auto check_tracked(const W64& check, const W64& seq_m1, const W32& generation, unsigned bl) noexcept {
  return (static_cast<W32>(check) == generation) & (check_distance_m1(check, seq_m1) < bl);
}

/// One slot's visit by a parking round (window_reducer, "Parking"): the
/// slot's new check word. A slot never published (\p published false) or,
/// with 64-bit sequences (\p wide), published at distance d - 1 >=
/// \p park_distance from the task at \p seq_m1 (the sequence just
/// submitted, masked to the sequence width) gets a sequence half as if
/// published 2 * park_distance submits before seq_m1, its generation half
/// kept; any other slot keeps \p check. The constructor parks every slot the
/// same way (\p published false). Cost O(1).
template <class W64, class B>
constexpr W64 park_visit(const W64& check, const W64& seq, const B& published, const W64& seq_m1, bool wide,
                         std::uint64_t park_distance) noexcept {
  using W32 = half_word_t<W64>;
  if (!published || (wide && seq_m1 - seq >= park_distance))
    return check_word(seq_m1 - 2 * park_distance, W32{0}) | W64(static_cast<W32>(check));
  return check;
}

/// How often (in submits, a power of two when \p park_distance, \p max_slots
/// and \p batch are) a parking round of \p batch slots runs, so that a
/// reducer of \p max_slots slots visits each at least once per
/// park_distance + that many submits.
constexpr std::uint64_t park_every(std::uint64_t park_distance, std::uint64_t max_slots, std::uint64_t batch) noexcept {
  const std::uint64_t e = park_distance / max_slots * batch;
  return e > 1 ? e : 1;
}
/// Longest time between two visits of a slot, in submits, for the parking
/// schedule of park_every().
constexpr std::uint64_t park_period(std::uint64_t park_distance, std::uint64_t max_slots, std::uint64_t batch) noexcept {
  return (max_slots / batch + 1) * park_every(park_distance, max_slots, batch);
}

//===----------------------------------------------------------------------===//
// Shifted bitmaps: via |= R[p] << d
//===----------------------------------------------------------------------===//

/// \p out = \p src moved \p d bits towards the high end, for bitmaps of \p K
/// 64-bit words (bit i in word i/64, bit i%64) and 0 <= d < 64*K; bits pushed
/// past bit 64*K-1 are lost. Branch-free barrel shifter: every word is shifted
/// by d%64 with the carry from the word below (`(w >> 1) >> (63 - d%64)`, so no
/// 64-bit word is ever shifted by 64 or more), then log2(K) stages each move
/// the words by 1, 2, ... positions or not, selected by a mask (no `?:` a
/// compiler could turn into a branch). \p src and \p out must not overlap.
/// Cost: about 4K + 3K*log2(K) ALU operations, no branch: 1 / 13 / 40 for
/// K = 1 / 2 / 4.
template <unsigned K, class W, class D>
constexpr void shift_left_words(const W* src, const D& d, W* out) noexcept {
  const D bs = d & 63u, ws = d >> 6;
  out[0] = src[0] << bs;
  for (unsigned i = 1; i < K; ++i) out[i] = (src[i] << bs) | ((src[i - 1] >> 1) >> (63u - bs));
  for (unsigned s = 1; s < K; s <<= 1) {
    const W m = W{0} - static_cast<W>((ws & s) != 0u);
    for (unsigned i = K; i-- > 0;) out[i] ^= (out[i] ^ (i >= s ? out[i - s] : W{0})) & m; // m ? moved : kept
  }
}

/// Deliberately wrong variants of window_accumulator::add(), for proofs/
/// only (docs/proofs.md, "teeth"); the library uses None.
enum class ShiftMutation : unsigned char {
  None,
  ShiftByDMinus1, ///< via |= R << (d - 1)
  NoWindowGuard,  ///< the d < BL guard dropped (one word: a plain R << d)
};

/// Pass-1 accumulator of one submit (bounded window, two-pass direct/via
/// form): direct = the bits of the tracked WAIT producers, via = the union
/// of their bitmaps shifted by their distance. add() is branch-free (plain
/// mask arithmetic: a compiler turns `on ? x : y` into a branch too readily,
/// and a random candidate list would mispredict it): a producer that does not
/// count (or d = BL) contributes nothing. One word: the shift is
/// (R << 1) << (d - 1), which is 0 for d = 64 without a test. Two words:
/// shift_left_words(). Four words: the producer's words are stored above
/// K + 1 zero words, and word j of R << d is read as
/// (w[j - d/64] << d%64) | (w[j - d/64 - 1] >> (64 - d%64)) from there - a
/// producer that does not count reads at d = BL, which is all zeros. That
/// is 2 loads and 5 ALU operations per word, against the 3 log2(BL/64) + 4
/// per word of the register barrel shifter (BL = 256: 97 against 109 ns
/// per task in cache; for BL = 128 the barrel shifter wins, 58 against 67).
template <unsigned BL, class W, ShiftMutation M = ShiftMutation::None>
struct window_accumulator {
  static constexpr unsigned kWords = BL / 64;
  W direct[kWords] = {};
  W via_[kWords] = {};
  W pad_[kWords > 2 ? 2 * kWords + 1 : 1] = {}; // kWords + 1 zero words, then the source

  /// Adds the producer bitmap \p reach (kWords words) at distance \p d if
  /// \p on (0 or 1): direct |= bit(d - 1); if d < BL, via |= reach << d.
  /// 1 <= d <= BL when on, any d otherwise. Cost O(BL/64), no branch.
  constexpr void add(const W* reach, const W& d, const W& on) noexcept {
    const W bit = (d - 1) & (BL - 1);
    if constexpr (kWords == 1) {
      direct[0] |= on << bit;
      if constexpr (M == ShiftMutation::ShiftByDMinus1) via_[0] |= (reach[0] << bit) & (W{0} - on);
      else if constexpr (M == ShiftMutation::NoWindowGuard) via_[0] |= (reach[0] << d) & (W{0} - on);
      else via_[0] |= ((reach[0] << 1) << bit) & (W{0} - on);
    } else if constexpr (kWords == 2) { // the barrel shifter is cheaper for two words
      const W keep = M == ShiftMutation::NoWindowGuard ? W{0} - on : W{0} - (on & static_cast<W>(d < BL));
      const W src[2] = {reach[0] & keep, reach[1] & keep};
      W shifted[2];
      const W by = M == ShiftMutation::ShiftByDMinus1 ? d - 1 : d;
      shift_left_words<2>(src, by & (BL - 1), shifted);
      direct[bit >> 6] |= on << (bit & 63);
      via_[0] |= shifted[0];
      via_[1] |= shifted[1];
    } else {
      for (unsigned j = 0; j < kWords; ++j) pad_[kWords + 1 + j] = reach[j];
      const W m = M == ShiftMutation::NoWindowGuard ? W{0} - on : W{0} - (on & static_cast<W>(d < BL));
      const W by = M == ShiftMutation::ShiftByDMinus1 ? d - 1 : d;
      const W shift = (by & m) | (W{BL} & ~m); // d, or BL (nothing) if it does not count
      const W bs = shift & 63u;
      const W* w = pad_ + kWords + 1 - (shift >> 6); // w[j] = word j - d/64 of reach
      for (unsigned j = 0; j < kWords; ++j) via_[j] |= (w[j] << bs) | ((w[static_cast<int>(j) - 1] >> 1) >> (63u - bs));
      direct[bit >> 6] |= on << (bit & 63);
    }
  }
};

//===----------------------------------------------------------------------===//
// Producer slots: range check and index (portable and AVX-512 lane formulas)
//===----------------------------------------------------------------------===//

/// Whether TaskId \p producer ((ring << 32) | slot) names a slot of a
/// reducer of \p rings rings of \p slots_per_ring slots: non-zero iff
/// ring < rings and slot < slots_per_ring. Branch-free. Cost O(1).
template <class W64, class W32>
constexpr auto slot_in_range(const W64& producer, const W32& rings, const W32& slots_per_ring) noexcept {
  using H = half_word_t<W64>;
  return (static_cast<H>(producer >> 32) < rings) & (static_cast<H>(producer) < slots_per_ring);
}
/// The slot index ring * slots_per_ring + slot of an in-range \p producer.
template <class W64, class W32>
constexpr W64 slot_index(const W64& producer, const W32& slots_per_ring) noexcept {
  using H = half_word_t<W64>;
  return W64(static_cast<H>(producer >> 32)) * W64(slots_per_ring) + W64(static_cast<H>(producer));
}

/// The AVX-512 kernel's range-check limits: (rings - 1) << 32 | (slots_per_ring - 1),
/// the largest valid TaskId halves (rings, slots_per_ring >= 1).
template <class W64, class W32>
constexpr W64 kernel_limits(const W32& rings, const W32& slots_per_ring) noexcept {
  return (W64(static_cast<W32>(rings - 1u)) << 32) | W64(static_cast<W32>(slots_per_ring - 1u));
}
/// What each lane of the kernel's range check computes
/// (`_mm512_cmpeq_epi64_mask(_mm512_min_epu32(producer, limits), producer)`):
/// the unsigned 32-bit minimum of each half with \p limits changes nothing.
template <class W64>
constexpr auto kernel_in_range(const W64& producer, const W64& limits) noexcept {
  using H = half_word_t<W64>;
  const H ph = static_cast<H>(producer >> 32), pl = static_cast<H>(producer);
  const H lh = static_cast<H>(limits >> 32), ll = static_cast<H>(limits);
  const H mh = lh < ph ? lh : ph, ml = ll < pl ? ll : pl; // _mm512_min_epu32, per 32-bit half
  return ((W64(mh) << 32) | W64(ml)) == producer;
}
/// Words per ring in the kernel's view of the slots (\p stride words a slot).
template <class W64, class W32>
constexpr W64 kernel_ring_words(const W32& slots_per_ring, unsigned stride) noexcept {
  return W64(slots_per_ring) * stride;
}
/// What each lane of the kernel's slot address computes: the word index
/// ring * ring_words + slot * stride, with `_mm512_mul_epu32` (the unsigned
/// product of the low 32 bits of each operand) for both products.
template <class W64>
constexpr W64 kernel_slot_word(const W64& producer, const W64& ring_words, const W64& stride) noexcept {
  using H = half_word_t<W64>;
  const W64 ring = producer >> 32;
  return W64(static_cast<H>(ring)) * W64(static_cast<H>(ring_words)) +
         W64(static_cast<H>(producer)) * W64(static_cast<H>(stride));
}

/// The bits that must be 0 in kernel_check_difference() for a tracked
/// candidate at window \p bl (a power of two): the generation half, and the
/// distance half's bits from log2(bl) up.
constexpr std::uint64_t kernel_check_reject(unsigned bl) noexcept {
  return ((std::uint64_t{0xffff'ffff} & ~std::uint64_t{bl - 1u}) << 32) | 0xffff'ffff;
}
/// What each lane of the kernel's validity test computes: the candidate's
/// \p meta word (generation in bits 0-31) blended with \p seq_m1 << 32
/// (`_mm512_mask_blend_epi32(0xaaaa, meta, seq_high)`), minus the slot's
/// \p check word in two 32-bit halves (`_mm512_sub_epi32`): the low half is 0
/// iff the generations match, the high half is check_distance_m1(). Tracked
/// iff (result & kernel_check_reject(BL)) == 0.
template <class W64>
constexpr W64 kernel_check_difference(const W64& meta, const W64& seq_m1, const W64& check) noexcept {
  using H = half_word_t<W64>;
  const W64 x = (seq_m1 << 32) | W64(static_cast<H>(meta));
  const H hi = static_cast<H>(static_cast<H>(x >> 32) - static_cast<H>(check >> 32));
  const H lo = static_cast<H>(static_cast<H>(x) - static_cast<H>(check));
  return (W64(hi) << 32) | W64(lo);
}

} // namespace depreduce::window_detail

#endif // DEPREDUCE_DETAIL_WINDOW_ARITH_HPP
