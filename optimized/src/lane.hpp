//===- lane.hpp - One SyncState lane: dense prefix + window, or sparse -*- C++ -*-===//
///
/// \file
/// The lane of transitive_reduction.cpp's SyncState (docs/model.md "SyncState
/// lanes"), written once as a template over the word type, the key type and
/// the sparse remainder: the library uses basic_lane<std::uint64_t,
/// std::uint32_t, roaring_rest> (`Lane`); proofs/ instantiates the same body
/// with symbolic words and a bit-vector remainder and proves its union, insert
/// and lookup equal to set operations (docs/proofs.md, obligation 5).
/// Internal to libdepreduce (not installed).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_SRC_LANE_HPP
#define DEPREDUCE_SRC_LANE_HPP

#include <roaring/roaring.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <new>

#ifndef DEPREDUCE_LANE_WORDS // window width in 64-bit words; a tuning knob, 8 by default
#define DEPREDUCE_LANE_WORDS 8
#endif

namespace depreduce::detail {

/// The sparse form's remainder in the library: a CRoaring bitmap, created on
/// the first switch to sparse form and kept for reuse (walrus's representation).
struct roaring_rest {
  roaring_bitmap_t* bits = nullptr;

  bool contains(std::uint32_t key) const { return roaring_bitmap_contains(bits, key); }
  void add(std::uint32_t key) { roaring_bitmap_add(bits, key); }
  /// Creates the bitmap if there is none. \throws std::bad_alloc.
  void ensure() {
    if (!bits) {
      bits = roaring_bitmap_create();
      if (!bits) throw std::bad_alloc();
    }
  }
  /// Adds the keys {from + i : bit i of w} at or above \p min_key. Cost
  /// O(popcount(w)) plus one roaring_bitmap_add_many.
  template <unsigned K>
  void add_window(std::uint32_t from, const std::uint64_t (&w)[K], std::uint32_t min_key) {
    std::uint32_t keys[64 * K];
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < K; ++i)
      for (std::uint64_t b = w[i]; b; b &= b - 1) {
        const std::uint32_t key = from + 64 * i + static_cast<std::uint32_t>(std::countr_zero(b));
        if (key >= min_key) keys[count++] = key;
      }
    if (count) roaring_bitmap_add_many(bits, count, keys);
  }
  void or_with(const roaring_rest& o) { roaring_bitmap_or_inplace(bits, o.bits); }
  void clear() { roaring_bitmap_clear(bits); }
  void run_optimize() { roaring_bitmap_run_optimize(bits); }
  void release() {
    if (bits) roaring_bitmap_free(bits);
    bits = nullptr;
  }
  std::size_t bytes() const { return roaring_bitmap_portable_size_in_bytes(bits); }
};

/// Deliberately wrong variants, for proofs/ only (docs/proofs.md, "teeth");
/// the library uses None.
enum class LaneMutation : unsigned char {
  None,
  DropWindowWord,    ///< the dense union ORs one window word too few
  LoseWindowOnSparse, ///< the switch to sparse form forgets the window
};

/// One lane of a SyncState: the set of keys (engine positions, or node ids on
/// the slot of nodes without engine) recorded for one slot in one bank.
///
/// Closures of dependency graphs are a dense prefix (everything long
/// finished) plus a ragged recent tail (in-flight async positions, parallel
/// branches). A lane starts *dense*: every key below `base` (a multiple of
/// 64) plus a fixed window of 64 * Words bits (512 by default) for the keys
/// [base, base + 64 * Words), so a union is Words word-wise ORs at a
/// whole-word offset and nothing is allocated; whenever the window's first
/// word fills up, base moves up by 64. When a key falls beyond the window (an
/// old hole pins the base: a long-running async instruction, a wide graph),
/// the lane turns *sparse*: every key below `base` plus the remainder \p Rest
/// (a Roaring bitmap, walrus's representation), with the prefix kept as the
/// implied add_range_closed run. A lane stays sparse until its closure is
/// released.
///
/// \p W: 64-bit window words; \p Key: 32-bit keys; \p Rest: the sparse
/// remainder (roaring_rest's members).
template <class W, class Key, class Rest, unsigned Words = DEPREDUCE_LANE_WORDS,
          LaneMutation M = LaneMutation::None>
struct basic_lane {
  static constexpr std::uint32_t kWords = Words;
  static constexpr std::uint32_t kBits = 64 * kWords;
  static constexpr std::uint64_t kFull = ~std::uint64_t{0};

  Key base = 0;            // every key < base is present; a multiple of 64 while dense
  bool sparse = false;
  W window[kWords] = {};   // dense form: bit i = key base + i; all zero when sparse
  Rest rest{};             // sparse form: keys >= base (and maybe some below); kept for reuse

  /// Whether \p key is in the lane. Cost O(1) dense, a Roaring lookup sparse.
  auto contains(const Key& key) const {
    if (key < base) return true;
    if (sparse) return static_cast<bool>(rest.contains(key));
    const Key d = key - base;
    return d < kBits && ((window[d / 64] >> (d % 64)) & 1u) != 0u;
  }
  /// Adds \p key; a key 64 * Words or more above base turns the lane sparse.
  void add(const Key& key) {
    if (key < base) return;
    if (!sparse) {
      const Key d = key - base;
      if (d < kBits) {
        window[d / 64] |= std::uint64_t{1} << (d % 64);
        if (window[0] == kFull) advance();
        return;
      }
      make_sparse();
    }
    rest.add(key);
  }
  /// Adds [0, last].
  void add_prefix(const Key& last) {
    const Key end = last + 1;
    if (end <= base) return;
    if (sparse) {
      base = end;
      return;
    }
    if (end - base >= kBits) drop_words_below(end & ~std::uint32_t{63});
    const Key d = end - base; // < kBits: keys base .. end-1 go in the window
    for (std::uint32_t i = 0; i < d / 64; ++i) window[i] = kFull;
    if (d % 64 != 0u) window[d / 64] |= (std::uint64_t{1} << (d % 64)) - 1;
    advance();
  }
  /// this ∪= o. The common case - both dense, o's prefix no longer than
  /// this one's - is inline: at most kWords word ORs.
  void merge(const basic_lane& o) {
    if (!sparse && !o.sparse && o.base <= base) [[likely]] {
      const Key q = (base - o.base) / 64; // o's words seen from base
      if (q < kWords) {
        constexpr std::uint32_t drop = M == LaneMutation::DropWindowWord ? 1 : 0;
        for (std::uint32_t i = 0; i + q + drop < kWords; ++i) window[i] |= o.window[i + q];
        if (window[0] == kFull) advance();
      }
      return;
    }
    merge_other(o);
  }
  void clear() {
    base = 0;
    if (sparse) rest.clear();
    else std::fill(std::begin(window), std::end(window), W{0});
    sparse = false;
  }
  /// minimizeSyncState: a dense lane is already minimal; a sparse one is
  /// run-length compressed, as walrus's add_range_closed + andnot pair leaves it.
  void minimize() {
    if (sparse) rest.run_optimize();
  }
  void release() { rest.release(); }
  std::size_t bytes() const { return sizeof(basic_lane) + (sparse ? rest.bytes() : 0); }

private:
  /// merge() when a lane is sparse or o's prefix is longer.
  [[gnu::noinline]] void merge_other(const basic_lane& o) {
    if (!sparse && !o.sparse) {
      drop_words_below(o.base); // o.base > base: every key below it is in o
      for (std::uint32_t i = 0; i < kWords; ++i) window[i] |= o.window[i];
      if (window[0] == kFull) advance();
      return;
    }
    if (!sparse) make_sparse();
    base = std::max(base, o.base);
    if (o.sparse) rest.or_with(o.rest);
    else rest.add_window(o.base, o.window, base);
  }
  void make_sparse() {
    rest.ensure();
    if constexpr (M != LaneMutation::LoseWindowOnSparse) rest.add_window(base, window, base);
    std::fill(std::begin(window), std::end(window), W{0});
    sparse = true;
  }
  /// Moves base up to \p new_base (a multiple of 64): the keys below it are
  /// all present, so the window words below it are dropped.
  void drop_words_below(const Key& new_base) {
    const Key q = (new_base - base) / 64;
    for (std::uint32_t i = 0; i < kWords; ++i) window[i] = i + q < kWords ? window[i + q] : W{0};
    base = new_base;
  }
  /// Dense form: moves base over the full words at the front of the window.
  void advance() {
    std::uint32_t q = 0;
    while (q < kWords && window[q] == kFull) ++q;
    drop_words_below(base + 64 * q);
  }
};

/// The library's lane.
using Lane = basic_lane<std::uint64_t, std::uint32_t, roaring_rest>;

} // namespace depreduce::detail

#endif // DEPREDUCE_SRC_LANE_HPP
