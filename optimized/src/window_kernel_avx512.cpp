//===- window_kernel_avx512.cpp - submit_flags, eight candidates a step ---===//
///
/// \file
/// The AVX-512 form of window_reducer<BL>::submit_flags (declared in
/// depreduce/window_reducer.hpp, window_detail::flags_avx512): the same two
/// passes as the portable loop, over eight candidates per step in the lanes
/// of a 512-bit register instead of one.
///
/// Pass 1, per step of eight: masked loads of the candidates (lanes past k
/// read nothing), range check, slot index, two (BL = 64) to five (BL = 256)
/// gathers of the producers' slot words (bitmap and check word), the
/// validity test of the portable loop (one 32-bit-lane subtraction and one
/// test below), and the union of the shifted bitmaps under that mask.
/// Pass 2: one bit test per lane against the finished `via`, the
/// effective flags stored as bytes under the lane mask (nothing past k is
/// written). Results are identical to the portable loop: tests and the
/// fuzzers compare both kernels with submit().
///
/// Compiled with function-level target attributes, so the rest of the
/// library needs no -mavx512f; window_reducer calls it only when
/// avx512_kernel_available() (CPU and OS support, checked once). Other
/// compilers and architectures get a stub that is never called.
//===----------------------------------------------------------------------===//
#include "depreduce/window_reducer.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(DEPREDUCE_NO_AVX512)
#define DEPREDUCE_AVX512_KERNEL 1
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 intrinsics start their results from _mm512_undefined_*(),
// which -Wmaybe-uninitialized reports inside the intrinsic headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#endif

namespace depreduce::window_detail {

#if DEPREDUCE_AVX512_KERNEL

bool avx512_kernel_available() noexcept {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("bmi2") != 0;
  }();
  return available;
}

namespace {

constexpr unsigned kMaxSteps = kVectorKernelMaxCandidates / 8;

#define DEPREDUCE_KERNEL_FN __attribute__((target("avx512f,bmi2"), always_inline)) inline

/// One submit_flags call. GCC does not give lambdas their enclosing
/// function's target attribute, hence a struct of attributed members.
template <unsigned BL, bool SameRing>
struct FlagsKernel {
  static constexpr unsigned K = BL / 64;
  static constexpr unsigned kStride = K + 2; // reach words, seq, check word
  static constexpr unsigned kCheck = K + 1;

  /// One step of eight candidates, as pass 2 needs it.
  struct Step {
    __m512i meta; // candidate meta words (flags in bits 32-39)
    __m512i d1;   // d - 1 per lane; one word: the lane's own bit (0 if not tracked)
    __mmask8 on;  // tracked WAIT lanes
  };

  const KernelSlots& s;
  const Candidate* c;
  std::size_t k;
  __m512i zero, one, limits, ring_words, stride, seq_high, reject, wait_bit, own_ring, even, odd;
  __m512i via[K], direct[K];
  __mmask8 all_in_range = 0xff;

  DEPREDUCE_KERNEL_FN FlagsKernel(const KernelSlots& slots, const Candidate* candidates, std::size_t count)
      : s(slots), c(candidates), k(count) {
    zero = _mm512_setzero_si512();
    one = _mm512_set1_epi64(1);
    limits = _mm512_set1_epi64(static_cast<long long>(s.limits));
    ring_words = _mm512_set1_epi64(static_cast<long long>(s.ring_words));
    stride = _mm512_set1_epi64(kStride);
    seq_high = _mm512_set1_epi64(static_cast<long long>(s.seq_m1 << 32));
    // Bits that must be 0 in (seq_m1:generation) - check word: the generation
    // half, and the distance half's bits from log2(BL) up.
    reject = _mm512_set1_epi64(static_cast<long long>(kernel_check_reject(BL)));
    wait_bit = _mm512_set1_epi64(0x1'0000'0000LL); // WAIT in a candidate's meta word
    own_ring = _mm512_set1_epi64(static_cast<long long>(s.own_ring));
    even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    for (unsigned j = 0; j < K; ++j) via[j] = direct[j] = zero;
  }

  /// Pass 1 over candidates 8g .. 8g+7 (those below k).
  DEPREDUCE_KERNEL_FN Step step(unsigned g) {
    const std::size_t left = k - std::size_t{8} * g;
    // Two loads of four 16-byte candidates: lanes hold producer, meta, producer, meta, ...
    const auto mask16 = _bzhi_u32(0xffffu, static_cast<unsigned>(left >= 8 ? 16 : 2 * left));
    const __m512i lo = _mm512_maskz_loadu_epi64(static_cast<__mmask8>(mask16), c + 8 * g);
    const __m512i hi = _mm512_maskz_loadu_epi64(static_cast<__mmask8>(mask16 >> 8), c + 8 * g + 4);
    const __m512i producer = _mm512_permutex2var_epi64(lo, even, hi);
    const __m512i meta = _mm512_permutex2var_epi64(lo, odd, hi);

    const __m512i ring = _mm512_srli_epi64(producer, 32);
    // In range iff slot <= slots - 1 and ring <= rings - 1: both 32-bit
    // halves at most the limit's, i.e. the unsigned 32-bit minimum changes
    // nothing (per lane: kernel_in_range(producer, kernel_limits(...)),
    // proved equal to slot_in_range() in proofs/).
    const __mmask8 in_range = _mm512_cmpeq_epi64_mask(_mm512_min_epu32(producer, limits), producer);
    all_in_range &= in_range; // a lane past k (producer 0) is in range
    // Lanes that can count: WAIT (a lane past k loaded meta = 0) and in range.
    // The others load nothing.
    const __mmask8 wait = _mm512_mask_test_epi64_mask(in_range, meta, wait_bit);
    // Word index of the slot: ring * (slots * stride) + slot * stride (the
    // unsigned 32-bit multiply reads the low half of each lane: the slot;
    // per lane: kernel_slot_word(), proved equal to slot_index() * stride).
    const __m512i idx = _mm512_add_epi64(_mm512_mul_epu32(ring, ring_words), _mm512_mul_epu32(producer, stride));

    // Tracked WAIT <=> WAIT, the check word's generation is the candidate's,
    // d1 = d - 1 < BL (2^32 - 1 for d = 0), and the consumer's ring if asked.
    // Per 32-bit half of (seq_m1 << 32 | generation) - check word: the low
    // half is 0 iff the generations match, the high half is d1 (mod 2^32)
    // (per lane: kernel_check_difference(), proved equal to check_tracked()).
    const __m512i check = gather(wait, idx, kCheck);
    const __m512i y = _mm512_sub_epi32(_mm512_mask_blend_epi32(0xaaaa, meta, seq_high), check);
    __mmask8 on = _mm512_mask_testn_epi64_mask(wait, y, reject);
    if constexpr (SameRing) on = _mm512_mask_cmpeq_epi64_mask(on, ring, own_ring);
    const __m512i d1 = _mm512_srli_epi64(y, 32);

    if constexpr (K == 1) {
      // (R << 1) << d1 == R << d, and 0 for d = 64.
      const __m512i reach = gather(wait, idx, 0);
      via[0] = _mm512_mask_or_epi64(via[0], on, via[0], _mm512_sllv_epi64(_mm512_add_epi64(reach, reach), d1));
      const __m512i bit = _mm512_maskz_sllv_epi64(on, one, d1);
      direct[0] = _mm512_or_si512(direct[0], bit);
      return Step{meta, bit, on};
    } else {
      // R << d for d = 64q + r: word j takes (R[j-q] << r) | (R[j-q-1] >> (64-r))
      // (a count of 64 gives 0); q = K (d = BL) contributes nothing.
      const __m512i d = _mm512_add_epi64(d1, one);
      const __m512i q = _mm512_srli_epi64(d, 6);
      const __m512i r = _mm512_and_si512(d, _mm512_set1_epi64(63));
      const __m512i rc = _mm512_sub_epi64(_mm512_set1_epi64(64), r);
      __m512i moved[K]; // moved[i] = word i of R, shifted by r, with the carry of word i-1
      __m512i below = zero;
      for (unsigned i = 0; i < K; ++i) {
        const __m512i w = gather(wait, idx, i);
        moved[i] = _mm512_or_si512(_mm512_sllv_epi64(w, r), _mm512_srlv_epi64(below, rc));
        below = w;
      }
      for (unsigned sh = 0; sh < K; ++sh) {
        const __mmask8 take = on & _mm512_cmpeq_epi64_mask(q, _mm512_set1_epi64(sh));
        for (unsigned j = sh; j < K; ++j) via[j] = _mm512_mask_or_epi64(via[j], take, via[j], moved[j - sh]);
      }
      const __m512i q1 = _mm512_srli_epi64(d1, 6);
      const __m512i bit = _mm512_sllv_epi64(one, _mm512_and_si512(d1, _mm512_set1_epi64(63)));
      for (unsigned j = 0; j < K; ++j) {
        const __mmask8 here = on & _mm512_cmpeq_epi64_mask(q1, _mm512_set1_epi64(j));
        direct[j] = _mm512_mask_or_epi64(direct[j], here, direct[j], bit);
      }
      return Step{meta, d1, on};
    }
  }

  /// Word \p j of each lane's producer slot (\p idx: slot index times the
  /// stride), for the lanes in \p lanes; 0 and no load elsewhere.
  DEPREDUCE_KERNEL_FN __m512i gather(__mmask8 lanes, __m512i idx, unsigned j) const {
    return _mm512_mask_i64gather_epi64(zero, lanes, idx, static_cast<const void*>(s.words + j), 8);
  }

  /// Lane j: word j of via (one word: via in every lane); writes R[t] =
  /// direct | via to \p reach_out. Built in registers, not through memory:
  /// a 64-byte load of eight 8-byte stores cannot be forwarded and stalls.
  DEPREDUCE_KERNEL_FN __m512i finish_bitmaps(std::uint64_t* reach_out) const {
    if constexpr (K == 1) {
      // Both ORs in one register: 128-bit blocks [via, via, direct, direct],
      // then every lane of a block holds its total.
      __m512i t = _mm512_or_si512(_mm512_shuffle_i64x2(via[0], direct[0], 0x44),  // via 0,1 | direct 0,1
                                  _mm512_shuffle_i64x2(via[0], direct[0], 0xee)); // via 2,3 | direct 2,3
      t = _mm512_or_si512(t, _mm512_shuffle_i64x2(t, t, 0xb1));
      t = _mm512_or_si512(t, _mm512_shuffle_epi32(t, _MM_PERM_BADC));
      reach_out[0] = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(t)) |
                                                _mm_cvtsi128_si64(_mm512_extracti32x4_epi32(t, 2)));
      return _mm512_shuffle_i64x2(t, t, 0x00);
    } else {
      __m512i via_vec = zero;
      for (unsigned j = 0; j < K; ++j) {
        const auto word = static_cast<long long>(_mm512_reduce_or_epi64(via[j]));
        via_vec = _mm512_mask_set1_epi64(via_vec, static_cast<__mmask8>(1u << j), word);
        reach_out[j] = static_cast<std::uint64_t>(word) | static_cast<std::uint64_t>(_mm512_reduce_or_epi64(direct[j]));
      }
      return via_vec;
    }
  }

  /// Pass 2 over step \p g: a lane loses WAIT iff it is tracked WAIT and bit
  /// d1 of via is set; stores its effective flags. Returns how many lost WAIT.
  DEPREDUCE_KERNEL_FN std::size_t verdicts(unsigned g, const Step& st, __m512i via_vec, FlagSet* effective) const {
    const std::size_t left = k - std::size_t{8} * g;
    const auto lanes = static_cast<__mmask8>(_bzhi_u32(0xffu, static_cast<unsigned>(left >= 8 ? 8 : left)));
    __mmask8 lose;
    if constexpr (K == 1) {
      lose = _mm512_test_epi64_mask(st.d1, via_vec);
    } else {
      const __m512i word = _mm512_permutexvar_epi64(_mm512_srli_epi64(st.d1, 6), via_vec);
      const __m512i shifted = _mm512_srlv_epi64(word, _mm512_and_si512(st.d1, _mm512_set1_epi64(63)));
      lose = st.on & _mm512_test_epi64_mask(shifted, one);
    }
    const __m512i flags = _mm512_srli_epi64(st.meta, 32); // low byte: the flag bits
    _mm512_mask_cvtepi64_storeu_epi8(effective + 8 * g, lanes, _mm512_mask_xor_epi64(flags, lose, flags, one));
    return static_cast<std::size_t>(__builtin_popcount(lose));
  }
};

/// submit_flags on k candidates; Long: any k <= 64, else k <= 16 (most
/// tasks: both steps in registers, a smaller stack frame).
template <unsigned BL, bool SameRing, bool Long>
__attribute__((target("avx512f,bmi2"))) std::size_t flags_kernel(const KernelSlots& s, const Candidate* c,
                                                                  std::size_t k, FlagSet* effective,
                                                                  std::uint64_t* reach_out) {
  FlagsKernel<BL, SameRing> kernel(s, c, k);
  // Steps 0 and 1 stay in registers; further steps (k > 16) keep theirs in
  // a small array for pass 2. No masked access at all when k = 0
  // (window_reducer does not call the kernel then, but it must hold for any
  // caller): the span may be empty with a null pointer, and a fully masked
  // access to an unmapped page still costs a microcode assist (about 50 ns, measured).
  using Step = typename FlagsKernel<BL, SameRing>::Step;
  Step first{kernel.zero, kernel.zero, 0}, second = first;
  if (k != 0) first = kernel.step(0);
  if (k > 8) second = kernel.step(1);
  [[maybe_unused]] Step rest[Long ? kMaxSteps - 2 : 1];
  const unsigned steps = Long ? static_cast<unsigned>((k + 7) / 8) : 2u;
  if constexpr (Long)
    for (unsigned g = 2; g < steps; ++g) rest[g - 2] = kernel.step(g);

  // A producer out of range: nothing written; the caller names the first one.
  if (kernel.all_in_range != 0xff) [[unlikely]] return kProducerOutOfRange;

  const __m512i via_vec = kernel.finish_bitmaps(reach_out);
  std::size_t removed = k != 0 ? kernel.verdicts(0, first, via_vec, effective) : 0;
  if (k > 8) removed += kernel.verdicts(1, second, via_vec, effective);
  if constexpr (Long)
    for (unsigned g = 2; g < steps; ++g) removed += kernel.verdicts(g, rest[g - 2], via_vec, effective);
  return removed;
}

#undef DEPREDUCE_KERNEL_FN

} // namespace

// The header declares flags_avx512 without a target attribute, and GCC does
// not take one from a later definition of the template; hence this forwarder
// to the attributed flags_kernel (a tail jump).
template <unsigned BL, bool SameRing>
std::size_t flags_avx512(const KernelSlots& s, const Candidate* c, std::size_t k, FlagSet* effective,
                         std::uint64_t* reach_out) {
  return k <= 16 ? flags_kernel<BL, SameRing, false>(s, c, k, effective, reach_out)
                 : flags_kernel<BL, SameRing, true>(s, c, k, effective, reach_out);
}

#else // no AVX-512 kernel in this build: never called (avx512_kernel_available() is false)

bool avx512_kernel_available() noexcept { return false; }

template <unsigned BL, bool SameRing>
std::size_t flags_avx512(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*) {
  return 0;
}

#endif

template std::size_t flags_avx512<64, false>(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*);
template std::size_t flags_avx512<64, true>(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*);
template std::size_t flags_avx512<128, false>(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*);
template std::size_t flags_avx512<128, true>(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*);
template std::size_t flags_avx512<256, false>(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*);
template std::size_t flags_avx512<256, true>(const KernelSlots&, const Candidate*, std::size_t, FlagSet*, std::uint64_t*);

} // namespace depreduce::window_detail
