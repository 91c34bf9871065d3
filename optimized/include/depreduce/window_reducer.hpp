//===- depreduce/window_reducer.hpp - Bounded-window WAIT reduction -*- C++ -*-===//
///
/// \file
/// The online reducer a task runtime calls on every submit (SPEC §6): it
/// removes the WAIT flag from a dependency candidate when a *bounded window*
/// reachability bitmap proves that another direct predecessor already orders
/// the producer before the consumer.
///
/// Mirrors the *bounded window* proposal ("reduce redundant WAIT edges with a
/// bounded reachability bitmap", BL = 64/128/256, WAIT/RETAIN, submit
/// sequence, generations) in its two-pass direct/via form:
///
/// \code
///   direct = via = 0
///   for each unique WAIT candidate p with 1 <= d(p) <= BL:   // d = submit-sequence distance
///     direct |= bit(d - 1)
///     if d < BL: via |= R[p] << d                           // never shifts by BL or more
///   R[t] = direct | via                                      // published once, immutable
///   a tracked WAIT candidate whose bit is in via loses WAIT  // WAIT|RETAIN -> RETAIN
/// \endcode
///
/// `R[t]` bit i is set iff the task submitted i+1 before t has a WAIT path to
/// t. The result does not depend on the order in which candidates are given.
///
/// Vocabulary used throughout:
///  - *TaskId*: `(ring << 32) | slot`, the runtime's packed id (not monotonic).
///  - *generation*: how often a slot has been reused; (slot, generation)
///    names one task.
///  - *submit sequence*: a counter the reducer assigns, one per submit,
///    `width` bits wide (32 or 64), wrapping. *Distance* d between a consumer
///    t and a producer p is `(seq(t) - seq(p)) mod 2^width`, in submits.
///  - *tracked*: 1 <= d <= BL. *valid*: the producer's slot currently holds a
///    published bitmap of the candidate's generation at a non-zero distance.
///
/// Header-only templates (instantiated once for BL = 64, 128, 256 in
/// window_reducer.cpp); part of the vendorable core: standard library only,
/// no I/O. A Boost.Graph test oracle with the same `run_window` signature
/// lives in depreduce/reference/window_reducer.hpp.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_WINDOW_REDUCER_HPP
#define DEPREDUCE_WINDOW_REDUCER_HPP

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "depreduce/error.hpp"
#include "depreduce/kinds.hpp"

namespace depreduce {

//===----------------------------------------------------------------------===//
// Task identity
//===----------------------------------------------------------------------===//

/// A runtime task id: `(ring << 32) | slot`. Not monotonic in submit order.
using TaskId = std::uint64_t;
/// Reuse count of a slot; (slot, generation) names exactly one task.
using Generation = std::uint32_t;

/// Packs \p ring and \p slot into a TaskId. Cost O(1).
constexpr TaskId make_task_id(std::uint32_t ring, std::uint32_t slot) noexcept {
  return (static_cast<TaskId>(ring) << 32) | slot;
}
/// The ring of \p id (its high 32 bits).
constexpr std::uint32_t task_ring(TaskId id) noexcept { return static_cast<std::uint32_t>(id >> 32); }
/// The slot of \p id within its ring (its low 32 bits).
constexpr std::uint32_t task_slot(TaskId id) noexcept { return static_cast<std::uint32_t>(id); }

/// Which discoverer found a dependency candidate.
enum class DepSource : std::uint8_t {
  Creator = 1,   ///< The task that allocated the buffer (creator relation).
  TensorMap = 2, ///< The tensor map (last writer / readers of a region).
  Explicit = 4,  ///< Listed by the program (`deps=[...]`).
};

/// A set of DepSource (duplicates of one producer OR their sources).
class SourceSet {
public:
  constexpr SourceSet() = default;
  constexpr SourceSet(DepSource s) : bits_(static_cast<std::uint8_t>(s)) {} // NOLINT: implicit by design
  static constexpr SourceSet from_bits(std::uint8_t b) { SourceSet s; s.bits_ = b & 7u; return s; }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool has(DepSource s) const { return (bits_ & static_cast<std::uint8_t>(s)) != 0; }
  constexpr SourceSet operator|(SourceSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr SourceSet& operator|=(SourceSet o) { bits_ |= o.bits_; return *this; }
  friend constexpr bool operator==(SourceSet, SourceSet) = default;
private:
  std::uint8_t bits_ = 0;
};

/// "creator|tensormap|explicit" style text in that order; "" for the empty set.
std::string to_string(SourceSet sources);

/// One dependency candidate of a submitted task, as a discoverer reports it.
struct Candidate {
  TaskId producer = 0;            ///< The producer's TaskId.
  Generation generation = 0;      ///< The producer's slot generation as the discoverer saw it.
  FlagSet flags = FlagSet::wait(); ///< WAIT (orders) and/or RETAIN (keeps alive).
  DepSource source = DepSource::Explicit;
  friend bool operator==(const Candidate&, const Candidate&) = default;
};

/// One submitted task of a stream: its id, its slot generation and its
/// candidates (any order, duplicates allowed).
struct TaskRecord {
  TaskId id = 0;
  Generation generation = 0;
  std::vector<Candidate> candidates;
  friend bool operator==(const TaskRecord&, const TaskRecord&) = default;
};

/// A whole submit stream: tasks in submit order. Consumed by run_window() in
/// both depreduce:: and depreduce::reference::.
using TaskStream = std::vector<TaskRecord>;

//===----------------------------------------------------------------------===//
// Options and results
//===----------------------------------------------------------------------===//

/// Which candidates may read a producer's bitmap.
enum class WindowMode : std::uint8_t {
  /// Every valid tracked candidate, across rings (the global submit sequence
  /// orders all rings).
  Global,
  /// Only candidates whose producer is on the consumer's ring; cross-ring
  /// candidates keep WAIT and contribute nothing (the conservative prototype).
  SameRing,
};

/// "global" or "same-ring".
std::string to_string(WindowMode mode);
/// Parses "global" / "same-ring" (also "same_ring"); std::nullopt otherwise.
std::optional<WindowMode> parse_window_mode(std::string_view text);

/// Geometry and behaviour of a reducer. Defaults: the runtime's four rings of
/// 16,384 slots, a 64-bit submit sequence starting at 0, global mode.
struct WindowOptions {
  std::uint32_t rings = 4;             ///< Ring count, >= 1.
  std::uint32_t slots_per_ring = 16384; ///< Slots per ring, >= 1.
  /// Width of `submit_seq` in bits: 32 or 64. Distances are modulo 2^width.
  unsigned seq_width = 64;
  /// Sequence number of the first submit (< 2^seq_width); lets tests start
  /// just before a wrap.
  std::uint64_t initial_seq = 0;
  WindowMode mode = WindowMode::Global;
  friend bool operator==(const WindowOptions&, const WindowOptions&) = default;
};

/// Largest rings * slots_per_ring a reducer accepts (16 Mi slots): the side
/// storage is allocated up front, so a typo must not ask for gigabytes.
inline constexpr std::uint64_t kMaxWindowSlots = std::uint64_t{1} << 24;

/// Checks \p options. \throws InputError (file "window_reducer", no line) if
/// rings or slots_per_ring is 0, rings * slots_per_ring > kMaxWindowSlots,
/// seq_width is not 32 or 64, or initial_seq does not fit in seq_width bits.
void validate_window_options(const WindowOptions& options);

/// How a (deduplicated) candidate's producer was resolved at submit time.
/// The first rule that applies wins, in this order.
enum class WindowStatus : std::uint8_t {
  /// The producer's slot holds no published bitmap of the candidate's
  /// generation, or the recorded sequence is at distance 0 (the slot aliases
  /// the consumer itself, e.g. a self-dependency). Keeps WAIT; its bitmap is
  /// never read.
  Stale,
  /// Same-ring mode only: valid, but the producer is on another ring. Keeps
  /// WAIT and contributes nothing.
  CrossRing,
  /// Valid, d > BL: outside the window (a *window miss* if redundant). Keeps WAIT.
  Untracked,
  /// Valid, 1 <= d <= BL: sets a direct bit (if WAIT) and may lose WAIT.
  Tracked,
};

/// "stale", "cross-ring", "untracked", "tracked".
std::string to_string(WindowStatus status);

/// The reducer's verdict on one unique producer of a submitted task.
struct WindowEdge {
  TaskId producer = 0;
  Generation producer_generation = 0;
  FlagSet input_flags;  ///< OR of the flags of all duplicates.
  FlagSet flags;        ///< Effective flags: input_flags, minus WAIT if reduced.
  SourceSet sources;    ///< OR of the sources of all duplicates.
  WindowStatus status = WindowStatus::Stale;
  /// Submit-sequence distance d (mod 2^width), >= 1; 0 when Stale (unknown).
  std::uint64_t distance = 0;

  /// True if WAIT was removed (the edge was WAIT and is redundant).
  bool wait_removed() const noexcept { return input_flags.has(Flag::Wait) && !flags.has(Flag::Wait); }
  /// True if the runtime must still wire this dependency (WAIT or RETAIN left).
  bool materialized() const noexcept { return !flags.empty(); }
  friend bool operator==(const WindowEdge&, const WindowEdge&) = default;
};

/// Counters over a replayed stream (WAIT counts are over unique candidates
/// carrying WAIT before the reduction).
struct WindowCounters {
  std::size_t tasks = 0;
  std::size_t candidates = 0;       ///< Unique (producer, generation) candidates with a flag.
  std::size_t wait_candidates = 0;  ///< ... of which carry WAIT.
  std::size_t tracked = 0;          ///< WAIT candidates with status Tracked.
  std::size_t untracked = 0;        ///< WAIT candidates beyond the window (d > BL).
  std::size_t cross_ring = 0;       ///< WAIT candidates skipped as cross-ring (same-ring mode).
  std::size_t stale = 0;            ///< WAIT candidates with a stale producer.
  std::size_t wait_removed = 0;     ///< WAIT flags removed.
  std::size_t retain_conversions = 0; ///< WAIT|RETAIN -> RETAIN.
  std::size_t pure_wait_removals = 0; ///< WAIT-only edges removed completely.
  friend bool operator==(const WindowCounters&, const WindowCounters&) = default;
};

/// Counts \p edges (one list per task, as run_window() returns). Cost O(total edges).
WindowCounters summarize(const std::vector<std::vector<WindowEdge>>& edges);

/// What run_window() returns: per task (submit order) its edges in canonical
/// order, and their counters.
struct WindowRun {
  std::vector<std::vector<WindowEdge>> edges;
  WindowCounters counters;
  friend bool operator==(const WindowRun&, const WindowRun&) = default;
};

/// Canonical order of one task's edges: resolved producers (every status but
/// Stale) first, by ascending producer submit sequence (= descending
/// distance); then stale ones by (producer, generation). Used by both twins.
inline bool canonical_before(const WindowEdge& a, const WindowEdge& b) noexcept {
  const bool ra = a.status != WindowStatus::Stale, rb = b.status != WindowStatus::Stale;
  if (ra != rb) return ra;
  if (a.distance != b.distance) return a.distance > b.distance;
  if (a.producer != b.producer) return a.producer < b.producer;
  return a.producer_generation < b.producer_generation;
}

//===----------------------------------------------------------------------===//
// The multiword bitmap
//===----------------------------------------------------------------------===//

/// A fixed BL-bit bitmap of BL/64 words (bit i in word i/64, bit i%64).
/// Every operation is branch-light and never shifts a 64-bit word by 64 or more.
template <unsigned BL>
class WindowBitmap {
  static_assert(BL >= 64 && BL % 64 == 0, "BL must be a positive multiple of 64");
public:
  static constexpr unsigned kBits = BL;
  static constexpr unsigned kWords = BL / 64;

  /// The empty bitmap.
  constexpr WindowBitmap() = default;

  /// Sets bit \p i; no effect if i >= BL. Cost O(1).
  constexpr void set(unsigned i) noexcept {
    if (i < BL) words_[i >> 6] |= std::uint64_t{1} << (i & 63);
  }
  /// Value of bit \p i; false if i >= BL. Cost O(1).
  constexpr bool test(unsigned i) const noexcept {
    return i < BL && ((words_[i >> 6] >> (i & 63)) & 1u) != 0;
  }
  /// The bitmap moved \p d bits towards the high end (bit i -> bit i+d); bits
  /// pushed past BL-1 are lost. d == 0 returns a copy; d >= BL returns an
  /// empty bitmap (no shift by the word size or more ever happens).
  /// Cost O(BL/64) word operations.
  constexpr WindowBitmap shifted_left(unsigned d) const noexcept {
    WindowBitmap out;
    if (d >= BL) return out;
    const unsigned ws = d >> 6, bs = d & 63;
    for (unsigned i = kWords; i-- > ws;) {
      std::uint64_t w = words_[i - ws] << bs;
      if (bs != 0 && i > ws) w |= words_[i - ws - 1] >> (64 - bs);
      out.words_[i] = w;
    }
    return out;
  }
  /// Bitwise union with \p o, in place. Cost O(BL/64).
  constexpr WindowBitmap& operator|=(const WindowBitmap& o) noexcept {
    for (unsigned i = 0; i < kWords; ++i) words_[i] |= o.words_[i];
    return *this;
  }
  /// Bitwise union. Cost O(BL/64).
  constexpr WindowBitmap operator|(const WindowBitmap& o) const noexcept { WindowBitmap r = *this; r |= o; return r; }
  /// Bitwise intersection. Cost O(BL/64).
  constexpr WindowBitmap operator&(const WindowBitmap& o) const noexcept {
    WindowBitmap r;
    for (unsigned i = 0; i < kWords; ++i) r.words_[i] = words_[i] & o.words_[i];
    return r;
  }
  /// True if no bit is set.
  constexpr bool none() const noexcept {
    std::uint64_t acc = 0;
    for (unsigned i = 0; i < kWords; ++i) acc |= words_[i];
    return acc == 0;
  }
  /// Number of set bits.
  constexpr unsigned count() const noexcept {
    unsigned c = 0;
    for (unsigned i = 0; i < kWords; ++i) c += static_cast<unsigned>(std::popcount(words_[i]));
    return c;
  }
  /// Word \p i (i < kWords), bits 64*i .. 64*i+63.
  constexpr std::uint64_t word(unsigned i) const noexcept { return i < kWords ? words_[i] : 0; }
  friend constexpr bool operator==(const WindowBitmap&, const WindowBitmap&) = default;
private:
  std::uint64_t words_[kWords] = {};
};

//===----------------------------------------------------------------------===//
// The reducer
//===----------------------------------------------------------------------===//

/// Bounded-window WAIT reducer for window size BL (64, 128 or 256 bits).
///
/// Keeps side storage per slot (rings * slots_per_ring entries): the slot's
/// last published bitmap R (BL/8 bytes), its submit sequence (8 bytes, of
/// which seq_width bits are meaningful; a packed runtime layout keeps 4 for
/// 32-bit sequences) and generation (4 bytes) plus a published mark. Nothing
/// else is kept: memory does not grow with the stream.
///
/// Not thread-safe: the runtime's orchestrator submits from one thread.
///
/// \code
///   depreduce::window_reducer<64> r({.rings = 1, .slots_per_ring = 8});
///   r.submit(depreduce::make_task_id(0, 0), 0, {});                      // A
///   r.submit(depreduce::make_task_id(0, 1), 0, std::vector{Candidate{0, 0}}); // B <- A
///   auto c = r.submit(depreduce::make_task_id(0, 2), 0,                  // C <- A, B
///                     std::vector{Candidate{0, 0}, Candidate{1, 0}});
///   // c[0]: producer A, flags {} (removed); c[1]: producer B, flags WAIT.
/// \endcode
template <unsigned BL>
class window_reducer {
  static_assert(BL == 64 || BL == 128 || BL == 256, "window_reducer supports BL = 64, 128, 256");
public:
  using Bitmap = WindowBitmap<BL>;
  static constexpr unsigned kWindow = BL;

  /// Allocates the side storage for \p options (all slots unpublished).
  /// Cost O(rings * slots_per_ring) time and memory (bytes_per_slot each).
  /// \throws InputError as validate_window_options(); std::bad_alloc.
  explicit window_reducer(const WindowOptions& options = {})
      : options_((validate_window_options(options), options)),
        mask_(options.seq_width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << options.seq_width) - 1),
        next_seq_(options.initial_seq),
        slots_(static_cast<std::size_t>(options.rings) * options.slots_per_ring) {}

  /// Submits task \p task (generation \p generation) with its dependency
  /// \p candidates (any order, duplicates allowed) and writes the verdicts to
  /// \p out (cleared first): one WindowEdge per unique (producer, generation)
  /// with at least one flag, in canonical order (canonical_before()).
  ///
  /// The task gets the next submit sequence; its bitmap R[t] is published in
  /// its slot after the candidates were read, so a candidate may name the
  /// previous occupant of the task's own slot.
  ///
  /// Mirrors the bounded-window proposal in its two-pass direct/via form
  /// (file comment): distances are submit-sequence distances, modulo
  /// 2^seq_width. Precondition for exactness: no slot keeps one generation
  /// valid for 2^seq_width submits or more (distances would alias).
  ///
  /// Cost: O(k) for k candidates, plus an insertion sort of the f candidates
  /// that are stale or beyond the window (std::sort when f > 16), plus
  /// O(BL/64) word operations per tracked WAIT candidate and per word of the
  /// near-candidate table; no allocation once \p out and the internal scratch
  /// have grown to the largest k. About 1,100 / 1,250 / 1,400 instructions
  /// per task of 8 candidates for BL = 64 / 128 / 256 (docs/performance.md).
  /// \throws InputError (file "window_reducer") if \p task or a producer names
  ///   a ring >= rings or a slot >= slots_per_ring, or if \p task's slot already
  ///   holds a published bitmap of \p generation (each (slot, generation) is
  ///   published once). On a throw nothing changed: no sequence was consumed.
  void submit(TaskId task, Generation generation, std::span<const Candidate> candidates,
              std::vector<WindowEdge>& out);

  /// Same as the four-argument submit() but returns the verdicts by value.
  std::vector<WindowEdge> submit(TaskId task, Generation generation, std::span<const Candidate> candidates) {
    std::vector<WindowEdge> out;
    submit(task, generation, candidates, out);
    return out;
  }

  /// The runtime's hot path: the same submit as submit() - same sequence
  /// number, same R[t] published, same verdicts - but the answer is one
  /// FlagSet per raw candidate instead of one WindowEdge per unique producer:
  /// \p effective[i] = candidates[i].flags, minus WAIT if that candidate's
  /// producer lost WAIT. Duplicates are neither merged nor reported (each gets
  /// its own flags, minus WAIT alike), candidates keep their order, nothing is
  /// sorted and no per-edge diagnostics are built. This is the form of the
  /// proposal's loop `materialize_dependency(p, effective)`.
  ///
  /// \returns how many raw candidates lost WAIT.
  /// Cost: O(k) for k candidates plus O(BL/64) word operations per tracked
  /// WAIT candidate; never allocates once the scratch has grown to the largest k.
  /// \throws InputError as submit(), and if \p effective is shorter than
  ///   \p candidates; on a throw nothing changed.
  std::size_t submit_flags(TaskId task, Generation generation, std::span<const Candidate> candidates,
                           std::span<FlagSet> effective);

  /// The bitmap R published by slot \p id with generation \p generation, or
  /// std::nullopt if that slot holds no bitmap of that generation (never
  /// published, overwritten by a later generation) or \p id is out of range.
  /// Bit i: the task submitted i+1 before it reaches it through WAIT edges.
  std::optional<Bitmap> published(TaskId id, Generation generation) const noexcept {
    const std::size_t at = index_or_npos(id);
    if (at == kNpos || !slots_[at].published || slots_[at].generation != generation) return std::nullopt;
    return slots_[at].reach;
  }

  /// The submit sequence the next submit() will get (mod 2^seq_width).
  std::uint64_t next_seq() const noexcept { return next_seq_; }
  /// The options the reducer was built with.
  const WindowOptions& options() const noexcept { return options_; }
  /// Bytes of side storage per slot (bitmap + sequence + generation + mark).
  static constexpr std::size_t bytes_per_slot() noexcept { return sizeof(Slot); }
  /// Total side storage in bytes: rings * slots_per_ring * bytes_per_slot().
  std::size_t storage_bytes() const noexcept { return slots_.size() * sizeof(Slot); }

private:
  static constexpr std::size_t kNpos = ~std::size_t{0};

  struct Slot {
    Bitmap reach;
    std::uint64_t seq = 0;
    Generation generation = 0;
    std::uint32_t published = 0;
  };

  /// Scratch entry: one raw candidate after its producer was resolved
  /// (24 bytes, written in one go). `key` orders canonically: ~distance for a
  /// resolved producer (one distance names one task, so equal keys are
  /// duplicates), all ones for a stale one (ties broken by producer, generation).
  struct Work {
    std::uint64_t key;
    TaskId producer;
    Generation generation;
    std::uint8_t flags;
    std::uint8_t sources;
    WindowStatus status;
    std::uint8_t pad;
  };
  static constexpr std::uint64_t kStaleKey = ~std::uint64_t{0};
  static bool work_before(const Work& a, const Work& b) noexcept {
    if (a.key != b.key) return a.key < b.key;
    if (a.producer != b.producer) return a.producer < b.producer;
    return a.generation < b.generation;
  }

  std::size_t index_or_npos(TaskId id) const noexcept {
    const std::uint32_t ring = task_ring(id), slot = task_slot(id);
    if (ring >= options_.rings || slot >= options_.slots_per_ring) return kNpos;
    return static_cast<std::size_t>(ring) * options_.slots_per_ring + slot;
  }
  std::size_t index_or_throw(TaskId id, const char* what) const;

  WindowOptions options_;
  std::uint64_t mask_;
  std::uint64_t next_seq_;
  std::vector<Slot> slots_;
  /// Resolved candidates at distance d <= BL, indexed by d - 1 (only the
  /// entries whose bit is set in this submit's `near` bitmap are live).
  struct Near {
    TaskId producer;
    Generation generation;
    std::uint32_t slot;
    std::uint8_t flags;
    std::uint8_t sources;
    WindowStatus status;
  };
  std::vector<Work> scratch_; // far (d > BL) and stale candidates
  std::vector<std::uint16_t> tracked_bit_; // submit_flags: 1 + bit of a tracked WAIT candidate, else 0
  std::vector<Near> near_ = std::vector<Near>(BL);
};

namespace window_detail {
[[noreturn]] void throw_range(const char* what, TaskId id, std::uint32_t rings, std::uint32_t slots);
[[noreturn]] void throw_republished(TaskId id, Generation generation);
[[noreturn]] void throw_short_output(std::size_t candidates, std::size_t effective);
} // namespace window_detail

template <unsigned BL>
std::size_t window_reducer<BL>::index_or_throw(TaskId id, const char* what) const {
  const std::size_t at = index_or_npos(id);
  if (at == kNpos) window_detail::throw_range(what, id, options_.rings, options_.slots_per_ring);
  return at;
}

template <unsigned BL>
void window_reducer<BL>::submit(TaskId task, Generation generation, std::span<const Candidate> candidates,
                                std::vector<WindowEdge>& out) {
  const std::size_t self = index_or_throw(task, "task");
  if (slots_[self].published && slots_[self].generation == generation)
    window_detail::throw_republished(task, generation);
  const std::uint64_t seq = next_seq_;
  const std::uint32_t own_ring = task_ring(task);
  const bool same_ring = options_.mode == WindowMode::SameRing;
  const std::size_t k = candidates.size();
  scratch_.clear();

  // Resolve every raw candidate (throws before anything changes). A resolved
  // producer at distance d <= BL goes to near_[d - 1]: one distance names one
  // task, so the table deduplicates and orders them. Others go to scratch_.
  Bitmap near;
  for (std::size_t i = 0; i < k; ++i) {
    const Candidate& c = candidates[i];
    const std::size_t at = index_or_throw(c.producer, "producer");
    const Slot& s = slots_[at];
    const std::uint64_t d = (seq - s.seq) & mask_;
    const std::uint8_t src = SourceSet(c.source).bits();
    if (!s.published || s.generation != c.generation || d == 0) {
      scratch_.push_back(Work{kStaleKey, c.producer, c.generation, c.flags.bits(), src, WindowStatus::Stale, 0});
      continue;
    }
    const WindowStatus status = same_ring && task_ring(c.producer) != own_ring ? WindowStatus::CrossRing
                                : d > BL                                        ? WindowStatus::Untracked
                                                                                : WindowStatus::Tracked;
    if (d > BL) {
      scratch_.push_back(Work{~d, c.producer, c.generation, c.flags.bits(), src, status, 0});
      continue;
    }
    const auto bit = static_cast<unsigned>(d) - 1;
    Near& e = near_[bit];
    if (near.test(bit)) { // a duplicate: same slot entry, so same producer and generation
      e.flags |= c.flags.bits();
      e.sources |= src;
    } else {
      near.set(bit);
      e = Near{c.producer, c.generation, static_cast<std::uint32_t>(at), c.flags.bits(), src, status};
    }
  }

  // Far and stale candidates: canonical order (insertion sort, they are few),
  // then merge adjacent duplicates.
  Work* const w = scratch_.data();
  const std::size_t kw = scratch_.size();
  if (kw > 16) {
    std::sort(w, w + kw, work_before);
  } else {
    for (std::size_t i = 1; i < kw; ++i) {
      const Work x = w[i];
      std::size_t j = i;
      for (; j > 0 && work_before(x, w[j - 1]); --j) w[j] = w[j - 1];
      w[j] = x;
    }
  }
  std::size_t nw = 0;
  for (std::size_t i = 0; i < kw; ++i) {
    if (nw > 0 && w[nw - 1].key == w[i].key && w[nw - 1].producer == w[i].producer &&
        w[nw - 1].generation == w[i].generation) {
      w[nw - 1].flags |= w[i].flags;
      w[nw - 1].sources |= w[i].sources;
    } else {
      w[nw++] = w[i];
    }
  }

  // Pass 1: direct bits and the union of the tracked producers' bitmaps.
  constexpr std::uint8_t kWaitBit = static_cast<std::uint8_t>(Flag::Wait);
  Bitmap direct, via;
  for (unsigned wi = 0; wi < Bitmap::kWords; ++wi)
    for (std::uint64_t bits = near.word(wi); bits != 0; bits &= bits - 1) {
      const unsigned bit = wi * 64 + static_cast<unsigned>(std::countr_zero(bits));
      const Near& e = near_[bit];
      if (e.status != WindowStatus::Tracked || !(e.flags & kWaitBit)) continue;
      direct.set(bit);
      if (bit + 1 < BL) via |= slots_[e.slot].reach.shifted_left(bit + 1);
    }

  // Pass 2: a tracked WAIT candidate found in via loses WAIT. Output in
  // canonical order: far (descending distance), near (descending), stale.
  out.clear();
  out.reserve(k);
  auto emit = [&out](TaskId producer, Generation gen, std::uint8_t in, std::uint8_t flags, std::uint8_t sources,
                     WindowStatus status, std::uint64_t d) {
    out.push_back(WindowEdge{producer, gen, FlagSet::from_bits(in), FlagSet::from_bits(flags),
                             SourceSet::from_bits(sources), status, d});
  };
  std::size_t i = 0;
  for (; i < nw && w[i].status != WindowStatus::Stale; ++i)
    if (w[i].flags != 0) emit(w[i].producer, w[i].generation, w[i].flags, w[i].flags, w[i].sources, w[i].status, ~w[i].key);
  for (unsigned wi = Bitmap::kWords; wi-- > 0;)
    for (std::uint64_t bits = near.word(wi); bits != 0;) {
      const unsigned top = 63 - static_cast<unsigned>(std::countl_zero(bits));
      bits &= ~(std::uint64_t{1} << top);
      const unsigned bit = wi * 64 + top;
      const Near& e = near_[bit];
      if (e.flags == 0) continue;
      std::uint8_t flags = e.flags;
      if (e.status == WindowStatus::Tracked && (flags & kWaitBit) && via.test(bit)) flags &= ~kWaitBit;
      emit(e.producer, e.generation, e.flags, flags, e.sources, e.status, bit + 1);
    }
  for (; i < nw; ++i)
    if (w[i].flags != 0) emit(w[i].producer, w[i].generation, w[i].flags, w[i].flags, w[i].sources, w[i].status, 0);

  // Publish R[t] once.
  Slot& mine = slots_[self];
  mine.reach = direct | via;
  mine.seq = seq;
  mine.generation = generation;
  mine.published = 1;
  next_seq_ = (seq + 1) & mask_;
}

template <unsigned BL>
std::size_t window_reducer<BL>::submit_flags(TaskId task, Generation generation, std::span<const Candidate> candidates,
                                             std::span<FlagSet> effective) {
  const std::size_t self = index_or_throw(task, "task");
  if (slots_[self].published && slots_[self].generation == generation)
    window_detail::throw_republished(task, generation);
  const std::size_t k = candidates.size();
  if (effective.size() < k) window_detail::throw_short_output(k, effective.size());
  const std::uint64_t seq = next_seq_;
  const std::uint32_t own_ring = task_ring(task);
  const bool same_ring = options_.mode == WindowMode::SameRing;
  if (tracked_bit_.size() < k) tracked_bit_.resize(k);
  std::uint16_t* const tb = tracked_bit_.data();

  // Pass 1 (also validates every candidate before anything changes).
  Bitmap direct, via;
  for (std::size_t i = 0; i < k; ++i) {
    const Candidate& c = candidates[i];
    const Slot& s = slots_[index_or_throw(c.producer, "producer")];
    const std::uint64_t d = (seq - s.seq) & mask_;
    const bool tracked = s.published && s.generation == c.generation && d != 0 && d <= BL &&
                         !(same_ring && task_ring(c.producer) != own_ring) && c.flags.has(Flag::Wait);
    tb[i] = tracked ? static_cast<std::uint16_t>(d) : 0;
    if (!tracked) continue;
    direct.set(static_cast<unsigned>(d) - 1);
    if (d < BL) via |= s.reach.shifted_left(static_cast<unsigned>(d));
  }

  // Pass 2: a tracked WAIT candidate found in via loses WAIT.
  std::size_t removed = 0;
  for (std::size_t i = 0; i < k; ++i) {
    FlagSet f = candidates[i].flags;
    if (tb[i] != 0 && via.test(tb[i] - 1u)) {
      f = f.without(Flag::Wait);
      ++removed;
    }
    effective[i] = f;
  }

  Slot& mine = slots_[self];
  mine.reach = direct | via;
  mine.seq = seq;
  mine.generation = generation;
  mine.published = 1;
  next_seq_ = (seq + 1) & mask_;
  return removed;
}

/// Replays \p stream through a fresh window_reducer<BL> built with \p options.
/// \returns per task (submit order) its verdicts in canonical order, and the
///   counters (summarize()).
/// Cost: O(total candidates * BL/64) plus the reducer's storage.
/// \throws InputError as window_reducer's constructor and submit() (file
///   "<stream>", line = 1-based position of the offending task in \p stream).
/// Defined in window_reducer.cpp for BL = 64, 128 and 256.
template <unsigned BL>
WindowRun run_window(const TaskStream& stream, const WindowOptions& options);

extern template class window_reducer<64>;
extern template class window_reducer<128>;
extern template class window_reducer<256>;

} // namespace depreduce

#endif // DEPREDUCE_WINDOW_REDUCER_HPP
