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
///   for each unique tracked WAIT candidate p:                // valid, 1 <= d(p) <= BL (below)
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
///  - *valid*: the producer's slot currently holds a published bitmap of the
///    candidate's generation at a non-zero distance. *tracked*: valid,
///    1 <= d <= BL, and - in same-ring mode - on the consumer's ring
///    (WindowStatus::Tracked).
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
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "depreduce/detail/window_arith.hpp"
#include "depreduce/error.hpp"
#include "depreduce/kinds.hpp"
#include "depreduce/status.hpp"

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

/// Which loop window_reducer::submit_flags() runs. Both give identical
/// results (tests and fuzz_window_reducer_diff compare them with submit()).
enum class WindowKernel : std::uint8_t {
  /// The AVX-512 kernel (eight candidates per step) when the library was
  /// built for x86-64 by GCC or Clang and the CPU and OS support AVX-512F
  /// and BMI2, for tasks of 1 to 64 candidates; the portable loop otherwise.
  Auto,
  /// The portable loop (standard C++, one candidate per step) always.
  Portable,
};

/// "auto" or "portable".
std::string to_string(WindowKernel kernel);

/// Geometry and behaviour of a reducer. Defaults: the runtime's four rings of
/// 16,384 slots, a 64-bit submit sequence starting at 0, global mode, the
/// fastest kernel the CPU supports.
struct WindowOptions {
  std::uint32_t rings = 4;             ///< Ring count, >= 1.
  std::uint32_t slots_per_ring = 16384; ///< Slots per ring, >= 1.
  /// Width of `submit_seq` in bits: 32 or 64. Distances are modulo 2^width.
  unsigned seq_width = 64;
  /// Sequence number of the first submit (< 2^seq_width); lets tests start
  /// just before a wrap.
  std::uint64_t initial_seq = 0;
  WindowMode mode = WindowMode::Global;
  WindowKernel kernel = WindowKernel::Auto;
  friend bool operator==(const WindowOptions&, const WindowOptions&) = default;
};

/// Largest rings * slots_per_ring a reducer accepts (16 Mi slots): the side
/// storage is allocated up front, so a typo must not ask for gigabytes.
inline constexpr std::uint64_t kMaxWindowSlots = std::uint64_t{1} << 24;

/// Checks \p options. \throws InputError (file "window_reducer", no line) if
/// rings or slots_per_ring is 0, rings * slots_per_ring > kMaxWindowSlots,
/// seq_width is not 32 or 64, or initial_seq does not fit in seq_width bits.
void validate_window_options(const WindowOptions& options);

/// validate_window_options() without exceptions: \returns ok, or BadArgument
/// with the same message (index 0). A -fno-exceptions caller checks its
/// options with it before constructing a window_reducer, whose constructor
/// throws only where this fails. Cost O(1).
Status check_window_options(const WindowOptions& options);

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
/// distance); then stale ones by (producer, generation). The oracle states
/// the order again (reference::in_canonical_order()).
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

namespace window_detail {
/// What went wrong in a submit, as the reducer's cores return it: a count
/// no submit reaches (a task has fewer candidates than 2^64 - 4).
enum SubmitFailure : std::size_t {
  kProducerOutOfRange = ~std::size_t{0} - 3, ///< a candidate's ring or slot is outside the configuration
  kShortOutput = ~std::size_t{0} - 2,        ///< the output span is shorter than the candidates
  kRepublished = ~std::size_t{0} - 1,        ///< the task's (slot, generation) was published already
  kTaskOutOfRange = ~std::size_t{0},         ///< the task's ring or slot is outside the configuration
};
/// True if a core's result \p r is a SubmitFailure rather than a count.
constexpr bool is_failure(std::size_t r) noexcept { return r >= kProducerOutOfRange; }
/// The Status of failure \p r of a submit of \p task / \p generation with
/// \p candidates, by \p function ("submit_flags", ...) into \p room outputs
/// named \p what (cold; defined in window_reducer.cpp). Codes:
/// kTaskOutOfRange and kProducerOutOfRange NodeOutOfRange (index: the task id,
/// or the position of the first offending candidate), kRepublished BadState
/// (index: the task id), kShortOutput BadArgument (index: the room).
/// Messages as the throwing API's.
Status submit_failure(std::size_t r, TaskId task, Generation generation, std::span<const Candidate> candidates,
                      std::uint32_t rings, std::uint32_t slots, const char* function, std::size_t room,
                      const char* what);
/// Throws InputError (file "window_reducer", no line) with submit_failure()'s message.
[[noreturn]] void throw_submit_failure(std::size_t r, TaskId task, Generation generation,
                                       std::span<const Candidate> candidates, std::uint32_t rings,
                                       std::uint32_t slots, const char* function, std::size_t room, const char* what);

/// What the AVX-512 submit_flags kernel reads of a reducer (window_kernel_avx512.cpp).
struct KernelSlots {
  /// Slot i at words + i * (BL/64 + 2): its bitmap's BL/64 words, its
  /// sequence, its check word (check_word(); the kernel reads the bitmap and
  /// the check word only).
  const std::uint64_t* words;
  std::uint32_t rings;
  std::uint32_t slots_per_ring;
  // Ready-made values the kernel puts in every lane of a register.
  std::uint64_t limits;     ///< (rings - 1) << 32 | (slots_per_ring - 1): the largest valid TaskId halves.
  std::uint64_t ring_words; ///< slots_per_ring * (BL/64 + 2): words per ring.
  std::uint64_t seq_m1;     ///< The submitting task's sequence - 1 (the low 32 bits matter).
  std::uint64_t own_ring;   ///< The submitting task's ring.
};
/// The kernel takes tasks of at most this many candidates.
inline constexpr std::size_t kVectorKernelMaxCandidates = 64;
/// True if this build has the AVX-512 kernel and the CPU and OS support it
/// (AVX-512F and BMI2). Checked once; cost O(1) after the first call.
bool avx512_kernel_available() noexcept;
/// submit_flags() on \p k <= 64 candidates, eight per step in the lanes of
/// a 512-bit register: the bounded-window proposal's two-pass direct/via
/// form (file comment), as window_reducer::flags_impl() does one candidate at
/// a time. Writes effective[0 .. k) (one FlagSet per raw candidate), R[t] =
/// direct | via to \p reach_out (BL/64 words; may be the task's own slot:
/// written after every candidate was read) and returns how many candidates
/// lost WAIT; the sequence and check word are the caller's to publish.
/// Validates by the check word alone (window_reducer's parking invariant).
/// Cost: ceil(k/8) steps of 2 (BL = 64) to 5 (BL = 256) eight-lane gathers
/// and about 30 vector operations, plus about 25 for set-up and the two
/// horizontal ORs. \returns kProducerOutOfRange, before writing anything, if
/// a producer is out of range (throws nothing). Only called when
/// avx512_kernel_available().
template <unsigned BL, bool SameRing>
std::size_t flags_avx512(const KernelSlots& slots, const Candidate* candidates, std::size_t k, FlagSet* effective,
                         std::uint64_t* reach_out);
/// True where Candidate's generation, flags and source are one little-endian
/// word at byte 8 (what the kernel and candidate_meta() load in one go).
inline constexpr bool kCandidateWordLayout = std::endian::native == std::endian::little &&
                                             offsetof(Candidate, generation) == 8 &&
                                             offsetof(Candidate, flags) == 12 && offsetof(Candidate, source) == 13 &&
                                             sizeof(FlagSet) == 1 && sizeof(DepSource) == 1 &&
                                             sizeof(Candidate) == 16;

// check_word(), check_distance_m1(), check_tracked(), park_visit(),
// shift_left_words() and the kernel's lane formulas are in
// depreduce/detail/window_arith.hpp (templates, also instantiated by proofs/).
/// Parking (window_reducer): a slot not republished for this many submits
/// (64-bit sequences), or never published, gets a check word at distance
/// 2 * kParkDistance. Tests build with a small value
/// (-DDEPREDUCE_WINDOW_PARK_LOG2=9, ci/sanitize) so that streams park all the time.
#ifndef DEPREDUCE_WINDOW_PARK_LOG2
#define DEPREDUCE_WINDOW_PARK_LOG2 30
#endif
inline constexpr std::uint64_t kParkDistance = std::uint64_t{1} << DEPREDUCE_WINDOW_PARK_LOG2;
/// A parking round visits kParkBatch slots (round robin) ...
inline constexpr unsigned kParkBatch = 64;
/// ... every kParkEvery submits (a power of two): 4,096 by default, so that
/// the largest reducer (kMaxWindowSlots) visits each slot at least once per
/// kParkDistance + kParkEvery submits, at 64 slot visits per 4,096 submits.
inline constexpr std::uint64_t kParkEvery = park_every(kParkDistance, kMaxWindowSlots, kParkBatch);
/// Longest time between two visits of a slot, in submits.
inline constexpr std::uint64_t kParkPeriod = park_period(kParkDistance, kMaxWindowSlots, kParkBatch);
// A slot visited unparked is at d - 1 < kParkDistance, one parked at
// 2 * kParkDistance; until its next visit neither check word reaches a
// distance whose low 32 bits are below BL (<= 256) again.
static_assert(kParkDistance >= 256 && 2 * kParkDistance + kParkPeriod < (std::uint64_t{1} << 32) - 256 &&
              (kParkEvery & (kParkEvery - 1)) == 0);

} // namespace window_detail

template <unsigned BL>
class window_reducer;

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
  /// Cost O(BL/64) word operations, branch-free for d < BL
  /// (window_detail::shift_left_words, which the reducer uses too).
  constexpr WindowBitmap shifted_left(unsigned d) const noexcept {
    WindowBitmap out;
    if (d >= BL) return out;
    window_detail::shift_left_words<kWords>(words_, d, out.words_);
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
  friend class window_reducer<BL>; // reads and writes the words in its hot loops
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
/// 32-bit sequences; a slot never published holds a sequence no submit gets)
/// and its check word (window_detail::check_word: the low 32 bits of the
/// sequence and the generation). Nothing else is kept: memory does not grow
/// with the stream.
///
/// Parking. The hot paths (submit_flags, both kernels) validate a candidate
/// by the check word alone: same generation, and d - 1 < BL computed on 32
/// bits. That is exact for published slots of 32-bit sequences. It could
/// alias for a never-published slot, or (64-bit sequences) for a slot not
/// republished for 2^32 submits, so such slots are *parked*: every
/// kParkEvery (4,096) submits, the next kParkBatch (64) slots, round robin,
/// are visited, and those unpublished or, 64-bit, at d - 1 >= kParkDistance
/// (2^30) get the check word's sequence half set to distance
/// 2 * kParkDistance. Every slot is visited at least once per kParkPeriod
/// (about 2^30) submits, so no check word reaches distance 2^32 - BL unparked
/// or parked between visits: it never claims a distance below BL that the
/// exact sequence (which parking leaves alone, as submit()'s distances use
/// it) does not. Cost: 64 slot visits per 4,096 submits.
///
/// Four entry points, all changing the reducer identically (same sequence
/// number, same R[t] published, same verdicts):
///  - submit_flags(): the runtime's hot path, one effective FlagSet per raw
///    candidate into a caller buffer;
///  - submit_into(): one WindowEdge per unique producer, canonical order, into
///    a caller buffer;
///  - submit(..., out): the same into a std::vector;
///  - submit(...): the same, returned by value (allocates).
/// None allocates once the reducer's scratch has grown to the largest
/// candidate count (and, for the vector form, \p out's capacity too).
///
/// Not thread-safe: the runtime's orchestrator submits from one thread.
///
/// \code
///   depreduce::window_reducer<64> r({.rings = 1, .slots_per_ring = 8});
///   r.submit(depreduce::make_task_id(0, 0), 0, {});                      // A
///   using depreduce::Candidate;
///   r.submit(depreduce::make_task_id(0, 1), 0, std::vector{Candidate{0, 0}}); // B <- A
///   auto c = r.submit(depreduce::make_task_id(0, 2), 0,                  // C <- A, B
///                     std::vector{Candidate{0, 0}, Candidate{1, 0}});
///   // c[0]: producer A, flags {} (removed); c[1]: producer B, flags WAIT.
///   // The runtime's form: one effective FlagSet per raw candidate.
///   depreduce::FlagSet eff[2];
///   r.submit_flags(depreduce::make_task_id(0, 3), 0, std::vector{Candidate{1, 0}, Candidate{2, 0}}, eff);
///   // eff[0] = {} (B reaches D through C), eff[1] = WAIT.
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
        slots_(static_cast<std::size_t>(options.rings) * options.slots_per_ring),
        never_seq_(options.seq_width >= 64 ? options.initial_seq - 1 : std::uint64_t{1} << 32),
        vector_kernel_(options.kernel == WindowKernel::Auto && window_detail::kCandidateWordLayout &&
                       window_detail::avx512_kernel_available()) {
    // Every slot starts unpublished, hence parked.
    const std::uint64_t parked = window_detail::park_visit(std::uint64_t{0}, never_seq_, false, next_seq_ - 1,
                                                           false, window_detail::kParkDistance);
    for (Slot& s : slots_) {
      s.seq = never_seq_;
      s.check = parked;
    }
  }

  /// Submits task \p task (generation \p generation) with its dependency
  /// \p candidates (any order, duplicates allowed) and writes the verdicts to
  /// \p out (resized to their count): one WindowEdge per unique (producer,
  /// generation) with at least one flag, in canonical order (canonical_before()).
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
  /// Cost: as submit_into(), plus resizing \p out (value-initializes the
  /// elements it grows by; no allocation once its capacity reached the
  /// largest k).
  /// \throws InputError (file "window_reducer") if \p task or a producer names
  ///   a ring >= rings or a slot >= slots_per_ring, or if \p task's slot already
  ///   holds a published bitmap of \p generation (each (slot, generation) is
  ///   published once). On a throw nothing changed (\p out included): no
  ///   sequence was consumed.
  void submit(TaskId task, Generation generation, std::span<const Candidate> candidates,
              std::vector<WindowEdge>& out) {
    const std::size_t r = vector_core(task, generation, candidates, out);
    if (window_detail::is_failure(r)) [[unlikely]]
      fail(r, task, generation, candidates, "submit", candidates.size(), "verdict(s)");
  }

  /// submit() without exceptions: the same reducer change and verdicts in
  /// \p out on success; on an error \p out is as it was and nothing changed.
  /// \returns ok, or NodeOutOfRange (index: the task id, or the position of
  ///   the first candidate whose producer is out of range), BadState (index:
  ///   the task id; its (slot, generation) was published already); messages
  ///   as submit()'s InputError. Cost as submit().
  Status try_submit(TaskId task, Generation generation, std::span<const Candidate> candidates,
                    std::vector<WindowEdge>& out) {
    const std::size_t r = vector_core(task, generation, candidates, out);
    if (window_detail::is_failure(r)) [[unlikely]]
      return failure(r, task, generation, candidates, "submit", candidates.size(), "verdict(s)");
    return Status();
  }

  /// Same as the four-argument submit() but returns the verdicts by value.
  std::vector<WindowEdge> submit(TaskId task, Generation generation, std::span<const Candidate> candidates) {
    std::vector<WindowEdge> out;
    submit(task, generation, candidates, out);
    return out;
  }

  /// submit() into a caller-provided buffer: writes the verdicts (one
  /// WindowEdge per unique (producer, generation) with at least one flag, in
  /// canonical order) to out[0 .. n) and returns n <= candidates.size();
  /// out[n ..) is left as it was. Same reducer change and same verdicts as
  /// submit(); the form for callers that keep one buffer of the largest
  /// candidate count.
  ///
  /// Shapes: \p candidates k raw candidates (16 bytes each); \p out at
  /// least k WindowEdge (24 bytes each).
  ///
  /// Cost: O(k) branch-free work per candidate (range check, slot look-up,
  /// validation, a per-distance table that deduplicates and orders producers
  /// within the window), plus O(BL/64) word operations for the direct bit and
  /// the shifted bitmap per candidate (BL = 64) or per unique tracked
  /// producer (BL = 128, 256), plus an insertion sort of the f candidates that are
  /// stale or beyond the window (std::sort when f > 16), plus O(unique) to
  /// write the verdicts. Never allocates once the scratch has grown to the
  /// largest k. About 1,250 / 1,570 / 2,130 instructions and 8 branch
  /// mispredictions per task of 8 random candidates for BL = 64 / 128 / 256
  /// (docs/performance.md).
  /// \throws InputError as submit(), and if \p out is shorter than
  ///   \p candidates; on a throw nothing changed and \p out was not written.
  std::size_t submit_into(TaskId task, Generation generation, std::span<const Candidate> candidates,
                          std::span<WindowEdge> out) {
    const std::size_t r = into_core(task, generation, candidates, out);
    if (window_detail::is_failure(r)) [[unlikely]]
      fail(r, task, generation, candidates, "submit_into", out.size(), "verdict(s)");
    return r;
  }

  /// submit_into() without exceptions: on success writes the verdict count
  /// to \p *count (if not null). \returns ok, or as try_submit(), or
  ///   BadArgument (index: out.size()) if \p out is shorter than
  ///   \p candidates; on an error nothing changed and \p out was not
  ///   written. Cost as submit_into().
  Status try_submit_into(TaskId task, Generation generation, std::span<const Candidate> candidates,
                         std::span<WindowEdge> out, std::size_t* count) {
    const std::size_t r = into_core(task, generation, candidates, out);
    if (window_detail::is_failure(r)) [[unlikely]]
      return failure(r, task, generation, candidates, "submit_into", out.size(), "verdict(s)");
    if (count) *count = r;
    return Status();
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
  /// Shapes: \p candidates k raw candidates; \p effective at least k FlagSet
  /// (1 byte each); effective[k ..) is left as it was.
  ///
  /// \returns how many raw candidates lost WAIT.
  /// Cost: two branch-free passes over the k candidates (range check, slot
  /// look-up, validation, O(BL/64) word operations for the direct bit and the
  /// shifted bitmap; then one bit test each); never allocates once the
  /// scratch has grown to the largest k. Kernel (WindowOptions::kernel,
  /// kernel_name()): with the AVX-512 kernel eight candidates per step, else
  /// one; in cache, per task of 0..16 (8 on average) random candidates,
  /// about 19 / 30 / 47 ns (AVX-512) and 37 / 61 / 99 ns (portable) for
  /// BL = 64 / 128 / 256 on a 2.6 GHz Sapphire Rapids (docs/performance.md).
  /// \throws InputError as submit(), and if \p effective is shorter than
  ///   \p candidates; on a throw nothing changed and \p effective was not written.
  std::size_t submit_flags(TaskId task, Generation generation, std::span<const Candidate> candidates,
                           std::span<FlagSet> effective) {
    const std::size_t r = flags_core(task, generation, candidates, effective);
    if (window_detail::is_failure(r)) [[unlikely]]
      fail(r, task, generation, candidates, "submit_flags", effective.size(), "effective flag set(s)");
    return r;
  }

  /// submit_flags() without exceptions, for runtimes built with
  /// -fno-exceptions: the same hot path (both forms share it), the count of
  /// candidates that lost WAIT to \p *removed (if not null).
  /// \returns ok, or NodeOutOfRange (index: the task id, or the position of
  ///   the first candidate whose producer is out of range), BadState (index:
  ///   the task id; its (slot, generation) was published already),
  ///   BadArgument (index: effective.size()) if \p effective is shorter than
  ///   \p candidates; messages as submit_flags()'s InputError. On an error
  ///   nothing changed and \p effective was not written. Cost as
  ///   submit_flags(); building the message is the error path's only allocation.
  Status try_submit_flags(TaskId task, Generation generation, std::span<const Candidate> candidates,
                          std::span<FlagSet> effective, std::size_t* removed) {
    const std::size_t r = flags_core(task, generation, candidates, effective);
    if (window_detail::is_failure(r)) [[unlikely]]
      return failure(r, task, generation, candidates, "submit_flags", effective.size(), "effective flag set(s)");
    if (removed) *removed = r;
    return Status();
  }

  /// The bitmap R published by slot \p id with generation \p generation, or
  /// std::nullopt if that slot holds no bitmap of that generation (never
  /// published, overwritten by a later generation) or \p id is out of range.
  /// Bit i: the task submitted i+1 before it reaches it through WAIT edges.
  std::optional<Bitmap> published(TaskId id, Generation generation) const noexcept {
    const std::size_t at = index_or_npos(id);
    if (at == kNpos || !holds(at, generation)) return std::nullopt;
    return slots_[at].reach;
  }

  /// The submit sequence the next submit() will get (mod 2^seq_width).
  std::uint64_t next_seq() const noexcept { return next_seq_; }
  /// The loop submit_flags() runs: "avx512" (tasks of 1 to 64 candidates;
  /// others take the portable loop) or "portable" (WindowKernel).
  const char* kernel_name() const noexcept { return vector_kernel_ ? "avx512" : "portable"; }
  /// Whether submit_flags() on a task of \p k candidates runs the AVX-512
  /// kernel (kernel_name() "avx512" and 1 <= k <= 64) rather than the portable loop.
  bool runs_vector_kernel(std::size_t k) const noexcept {
    return vector_kernel_ && k - 1 < window_detail::kVectorKernelMaxCandidates;
  }
  /// The options the reducer was built with.
  const WindowOptions& options() const noexcept { return options_; }

  /// Checks the invariant the hot paths rely on (class comment, "Parking"):
  /// every slot's check word is either exact (published, the sequence half
  /// is the sequence's low 32 bits and, 64-bit, d - 1 < kParkDistance + the
  /// visit period) or parked (its distance half, seen by the next submit, in
  /// [2 kParkDistance, 2 kParkDistance + the visit period]); the visit period
  /// is ceil(rings * slots_per_ring / kParkBatch) * kParkEvery submits.
  /// \returns std::nullopt, or the first offending slot and why.
  /// Cost O(rings * slots_per_ring); for tests and debugging.
  std::optional<std::string> audit() const {
    const std::uint64_t seq_m1 = (next_seq_ - 1) & mask_;
    const std::uint64_t period =
        (slots_.size() + window_detail::kParkBatch - 1) / window_detail::kParkBatch * window_detail::kParkEvery;
    const std::uint64_t parked_lo = 2 * window_detail::kParkDistance, parked_hi = parked_lo + period;
    for (std::size_t at = 0; at < slots_.size(); ++at) {
      const Slot& s = slots_[at];
      const bool exact = is_published(at) && (s.check >> 32) == (s.seq & 0xffff'ffffu) &&
                         (mask_ != ~std::uint64_t{0} || seq_m1 - s.seq < window_detail::kParkDistance + period);
      const std::uint32_t dc = window_detail::check_distance_m1(s.check, seq_m1);
      if (!exact && (dc < parked_lo || dc > parked_hi))
        return "slot " + std::to_string(at) + ": check word neither exact nor parked (distance half " +
               std::to_string(dc) + ", sequence " + std::to_string(s.seq) + ", next sequence " +
               std::to_string(next_seq_) + (is_published(at) ? "" : ", never published") + ")";
    }
    return std::nullopt;
  }
  /// Bytes of side storage per slot: bitmap + sequence + check word.
  static constexpr std::size_t bytes_per_slot() noexcept { return sizeof(Slot); }
  /// Total side storage in bytes: rings * slots_per_ring * bytes_per_slot().
  std::size_t storage_bytes() const noexcept { return slots_.size() * bytes_per_slot(); }

private:
  static constexpr std::size_t kNpos = ~std::size_t{0};
  static constexpr unsigned kWords = BL / 64;
  static constexpr std::uint8_t kWaitBit = static_cast<std::uint8_t>(Flag::Wait);

  struct Slot {
    Bitmap reach;
    /// The submit sequence it was published at (exact: submit()'s
    /// distances), or never_seq_ if it never was.
    std::uint64_t seq = 0;
    /// window_detail::check_word(seq, generation), or parked (class comment):
    /// what the hot paths validate by, in one load.
    std::uint64_t check = 0;
  };
  static_assert(sizeof(Slot) == (kWords + 2) * 8 && offsetof(Slot, seq) == kWords * 8 &&
                    offsetof(Slot, check) == (kWords + 1) * 8,
                "window_detail::KernelSlots reads a slot as BL/64 + 2 words");

  /// Whether slot \p at was ever published.
  bool is_published(std::size_t at) const noexcept { return slots_[at].seq != never_seq_; }
  /// Whether slot \p at holds a bitmap published with \p generation.
  bool holds(std::size_t at, Generation generation) const noexcept {
    return is_published(at) && static_cast<Generation>(slots_[at].check) == generation;
  }

  /// The small fields of a candidate or verdict in one word, so that table
  /// and scratch entries are written with two or three stores: generation
  /// (bits 0-31), raw flag bits (32-39), raw source bits (40-47), status
  /// (48-55). Duplicates of one producer differ only in flags and sources, so
  /// OR-ing their words merges them.
  /// On little-endian targets with Candidate's usual layout this is one
  /// 8-byte load (generation, flags, source, 2 padding bytes masked off).
  static std::uint64_t candidate_meta(const Candidate& c) noexcept {
    if constexpr (window_detail::kCandidateWordLayout) {
      std::uint64_t w;
      std::memcpy(&w, reinterpret_cast<const unsigned char*>(&c) + 8, sizeof w);
      return w & 0xffff'ffff'ffffu;
    } else {
      return static_cast<std::uint64_t>(c.generation) | (static_cast<std::uint64_t>(c.flags.bits()) << 32) |
             (static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.source)) << 40);
    }
  }
  static constexpr std::uint64_t kFlagsMask = std::uint64_t{0xff} << 32;

  /// Scratch entry: one raw candidate that is stale or beyond the window.
  /// `key` orders canonically: ~distance for a resolved producer (one
  /// distance names one task, so equal keys are duplicates), all ones for a
  /// stale one (ties broken by producer, generation).
  struct Work {
    std::uint64_t key;
    TaskId producer;
    std::uint64_t meta;
  };
  static constexpr std::uint64_t kStaleKey = ~std::uint64_t{0};
  static bool work_before(const Work& a, const Work& b) noexcept {
    if (a.key != b.key) return a.key < b.key;
    if (a.producer != b.producer) return a.producer < b.producer;
    return static_cast<Generation>(a.meta) < static_cast<Generation>(b.meta);
  }
  static bool same_producer(const Work& a, const Work& b) noexcept {
    return a.key == b.key && a.producer == b.producer && static_cast<Generation>(a.meta) == static_cast<Generation>(b.meta);
  }

  /// A resolved producer at distance d <= BL, at near_[d - 1]. One distance
  /// names one task, so the table deduplicates and orders them; only entries
  /// whose bit is set in this submit's `seen` bitmap are live. near_[BL] is a
  /// sink that absorbs the writes of other candidates.
  struct Near {
    TaskId producer;
    std::uint64_t meta;
  };

  /// Writes one verdict from a packed word; \p lose is kWaitBit to remove WAIT.
  static void write_edge(WindowEdge& o, TaskId producer, std::uint64_t meta, std::uint8_t lose,
                         std::uint64_t distance) noexcept {
    const auto in = static_cast<std::uint8_t>(meta >> 32);
    o.producer = producer;
    o.producer_generation = static_cast<Generation>(meta);
    o.input_flags = FlagSet::from_bits(in);
    o.flags = FlagSet::from_bits(static_cast<std::uint8_t>(in & ~lose));
    o.sources = SourceSet::from_bits(static_cast<std::uint8_t>(meta >> 40));
    o.status = static_cast<WindowStatus>(static_cast<std::uint8_t>(meta >> 48));
    o.distance = distance;
  }

  std::size_t index_or_npos(TaskId id) const noexcept {
    const std::uint32_t ring = task_ring(id), slot = task_slot(id);
    if (ring >= options_.rings || slot >= options_.slots_per_ring) return kNpos;
    return static_cast<std::size_t>(ring) * options_.slots_per_ring + slot;
  }

  /// The slot index of \p task, checked: in range and not yet published with
  /// \p generation; else kTaskOutOfRange or kRepublished.
  std::size_t self_index(TaskId task, Generation generation) const noexcept {
    const std::size_t self = index_or_npos(task);
    if (self == kNpos) [[unlikely]] return window_detail::kTaskOutOfRange;
    if (holds(self, generation)) [[unlikely]] return window_detail::kRepublished;
    return self;
  }

  // The cores of the entry points: a count, or a window_detail::SubmitFailure
  // (nothing changed then). The throwing and the Status forms wrap the same core.
  std::size_t flags_core(TaskId task, Generation generation, std::span<const Candidate> candidates,
                         std::span<FlagSet> effective) {
    const std::size_t self = self_index(task, generation);
    if (window_detail::is_failure(self)) [[unlikely]] return self;
    if (effective.size() < candidates.size()) [[unlikely]] return window_detail::kShortOutput;
    // The kernel for 1..64 candidates; a task without any takes the portable
    // loop, which only publishes an empty bitmap (no kernel set-up to pay for).
    if (runs_vector_kernel(candidates.size()))
      return flags_vector(self, task, generation, candidates, effective.data());
    return options_.mode == WindowMode::SameRing ? flags_impl<true>(self, task, generation, candidates, effective.data())
                                                 : flags_impl<false>(self, task, generation, candidates, effective.data());
  }
  std::size_t into_core(TaskId task, Generation generation, std::span<const Candidate> candidates,
                        std::span<WindowEdge> out) {
    const std::size_t self = self_index(task, generation);
    if (window_detail::is_failure(self)) [[unlikely]] return self;
    if (out.size() < candidates.size()) [[unlikely]] return window_detail::kShortOutput;
    return options_.mode == WindowMode::SameRing ? submit_impl<true>(self, task, generation, candidates, out.data())
                                                 : submit_impl<false>(self, task, generation, candidates, out.data());
  }
  /// into_core() into a std::vector, resized to the verdicts (left as it was on a failure).
  std::size_t vector_core(TaskId task, Generation generation, std::span<const Candidate> candidates,
                          std::vector<WindowEdge>& out) {
    const std::size_t old = out.size();
    if (old < candidates.size()) out.resize(candidates.size());
    const std::size_t r = into_core(task, generation, candidates, out);
    // On a failure into_core wrote nothing: the first `old` elements are intact.
    out.resize(window_detail::is_failure(r) ? old : r);
    return r;
  }
  [[noreturn]] void fail(std::size_t r, TaskId task, Generation generation, std::span<const Candidate> candidates,
                         const char* function, std::size_t room, const char* what) const {
    window_detail::throw_submit_failure(r, task, generation, candidates, options_.rings, options_.slots_per_ring,
                                        function, room, what);
  }
  Status failure(std::size_t r, TaskId task, Generation generation, std::span<const Candidate> candidates,
                 const char* function, std::size_t room, const char* what) const {
    return window_detail::submit_failure(r, task, generation, candidates, options_.rings, options_.slots_per_ring,
                                         function, room, what);
  }

  /// Pass-1 accumulator of one submit: window_detail::window_accumulator
  /// (direct bits and the union of the shifted bitmaps, branch-free) over
  /// the slots' bitmaps.
  struct Accumulator : window_detail::window_accumulator<BL, std::uint64_t> {
    /// Adds producer bitmap \p reach at distance \p d if \p on (0 or 1);
    /// 1 <= d <= BL when on, any d otherwise.
    void add(const Bitmap& reach, std::uint64_t d, std::uint64_t on) noexcept {
      window_detail::window_accumulator<BL, std::uint64_t>::add(reach.words_, d, on);
    }
    /// The union of the shifted bitmaps (call after the last add()).
    void via(std::uint64_t (&out)[kWords]) const noexcept {
      for (unsigned i = 0; i < kWords; ++i) out[i] = this->via_[i];
    }
  };

  /// Writes R[t] = direct | via into slot \p self and consumes the sequence.
  void publish(std::size_t self, Generation generation, const Accumulator& acc,
               const std::uint64_t (&via)[kWords]) noexcept {
    Slot& mine = slots_[self];
    for (unsigned j = 0; j < kWords; ++j) mine.reach.words_[j] = acc.direct[j] | via[j];
    stamp(self, generation);
  }

  /// Marks slot \p self (its bitmap already written) published with
  /// \p generation at this submit's sequence, consumes the sequence, and
  /// every kParkEvery submits runs a parking round.
  void stamp(std::size_t self, Generation generation) noexcept {
    Slot& mine = slots_[self];
    mine.seq = next_seq_;
    mine.check = window_detail::check_word(next_seq_, generation);
    next_seq_ = (next_seq_ + 1) & mask_;
    if ((next_seq_ & (window_detail::kParkEvery - 1)) == 0) [[unlikely]] park_round();
  }

  /// One parking round (class comment): the next kParkBatch slots after the
  /// cursor, parked relative to the next submit's sequence if unpublished or
  /// (64-bit sequences) at d - 1 >= kParkDistance. Cost O(kParkBatch).
  void park_round() noexcept {
    const std::uint64_t seq_m1 = (next_seq_ - 1) & mask_;
    const bool wide = mask_ == ~std::uint64_t{0};
    const std::size_t n = slots_.size();
    std::size_t at = park_cursor_;
    for (unsigned i = 0; i < window_detail::kParkBatch; ++i) {
      Slot& s = slots_[at];
      s.check = window_detail::park_visit(s.check, s.seq, is_published(at), seq_m1, wide, window_detail::kParkDistance);
      at = at + 1 == n ? 0 : at + 1;
    }
    park_cursor_ = at;
  }

  /// The slot index of a candidate's producer, or kNpos if its ring or slot
  /// is outside the configuration (the only branch of the candidate loops,
  /// predicted: the loops then return kProducerOutOfRange, having written
  /// only scratch). A branch, not a mask: the slot's load then issues
  /// speculatively instead of waiting for the range check (a mask made the
  /// portable submit_flags 15-25 % slower, window_reducer_bench).
  std::size_t producer_index(TaskId producer) const noexcept {
    if (!window_detail::slot_in_range(producer, options_.rings, options_.slots_per_ring)) [[unlikely]]
      return kNpos;
    return static_cast<std::size_t>(window_detail::slot_index(producer, options_.slots_per_ring));
  }
  template <bool SameRing>
  std::size_t submit_impl(std::size_t self, TaskId task, Generation generation, std::span<const Candidate> candidates,
                          WindowEdge* out);
  /// submit_flags through window_detail::flags_avx512 (1 <= k <= 64).
  std::size_t flags_vector(std::size_t self, TaskId task, Generation generation, std::span<const Candidate> candidates,
                           FlagSet* effective) noexcept {
    const window_detail::KernelSlots view{reinterpret_cast<const std::uint64_t*>(slots_.data()),
                                          options_.rings,
                                          options_.slots_per_ring,
                                          window_detail::kernel_limits<std::uint64_t>(options_.rings, options_.slots_per_ring),
                                          window_detail::kernel_ring_words<std::uint64_t>(options_.slots_per_ring, kWords + 2),
                                          next_seq_ - 1,
                                          task_ring(task)};
    // The kernel writes R[t] straight into the task's slot (after reading
    // every candidate, and not at all if one is out of range); the rest of the publish is here.
    std::uint64_t* const mine = slots_[self].reach.words_;
    const std::size_t removed =
        options_.mode == WindowMode::SameRing
            ? window_detail::flags_avx512<BL, true>(view, candidates.data(), candidates.size(), effective,
                                                    mine)
            : window_detail::flags_avx512<BL, false>(view, candidates.data(), candidates.size(), effective, mine);
    if (removed == window_detail::kProducerOutOfRange) [[unlikely]] return removed;
    stamp(self, generation);
    return removed;
  }
  template <bool SameRing>
  std::size_t flags_impl(std::size_t self, TaskId task, Generation generation, std::span<const Candidate> candidates,
                         FlagSet* effective);

  WindowOptions options_;
  std::uint64_t mask_;
  std::uint64_t next_seq_;
  std::vector<Slot> slots_;
  /// Slot::seq of a slot never published: a sequence no submit gets (32-bit:
  /// 2^32; 64-bit: initial_seq - 1, the sequence of the 2^64-th submit).
  std::uint64_t never_seq_;
  std::size_t park_cursor_ = 0;               // the next slot a parking round visits
  std::vector<Work> scratch_;                 // submit: far (d > BL) and stale candidates
  std::vector<std::uint64_t> tracked_;        // submit_flags: per candidate, see flags_impl
  std::vector<Near> near_ = std::vector<Near>(BL + 1);
  bool vector_kernel_;                        // submit_flags: the AVX-512 kernel (kernel_name())
};

// Both hot loops resolve each raw candidate the same way, without a branch
// on its data (a random candidate list would mispredict most of them):
//   range check (the only branch; fails the submit) -> slot s
//   d = (seq - s.seq) mod 2^width
//   valid     = s published && its generation == the candidate's && d != 0
//   in_window = valid && d <= BL                 (tracked, or cross-ring within the window)
//   tracked   = in_window && same ring (same-ring mode only)
// and Accumulator::add() the direct bit and the shifted bitmap under the mask
// `tracked && WAIT`. submit_flags needs `tracked` only, and takes it from the
// check word (same generation, (seq - 1 - its sequence half) mod 2^32 < BL),
// one load instead of three; parking (class comment) makes the two agree.
// The mode is a template parameter.

template <unsigned BL>
template <bool SameRing>
std::size_t window_reducer<BL>::submit_impl(std::size_t self, TaskId task, Generation generation,
                                            std::span<const Candidate> candidates, WindowEdge* out) {
  const std::uint64_t seq = next_seq_, mask = mask_;
  const std::uint32_t spr = options_.slots_per_ring, own_ring = task_ring(task);
  const Slot* const slots = slots_.data();
  const Candidate* const cand = candidates.data();
  const std::size_t k = candidates.size();
  if (scratch_.size() < k) scratch_.resize(k);
  Work* const w = scratch_.data();
  Near* const table = near_.data();

  // Resolve every raw candidate (fails before anything changes). One in the
  // window updates its table entry (a duplicate ORs flags and sources: same
  // distance, same task); any other is appended to the scratch list. Both
  // writes happen for every candidate; the one that does not apply goes to
  // the sink entry or is overwritten by the next candidate.
  Accumulator acc;
  std::uint64_t seen[kWords] = {};
  std::size_t nw = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const Candidate& c = cand[i];
    const std::uint32_t ring = task_ring(c.producer);
    const std::size_t at = producer_index(c.producer);
    if (at == kNpos) [[unlikely]] return window_detail::kProducerOutOfRange; // only scratch was written
    const Slot& s = slots[at];
    const std::uint64_t d = (seq - s.seq) & mask;
    // Exact: published (a real sequence), the generation, and the full sequence.
    const std::uint64_t valid = static_cast<std::uint64_t>(s.seq != never_seq_) &
                                static_cast<std::uint64_t>(static_cast<Generation>(s.check) == c.generation) &
                                static_cast<std::uint64_t>(d != 0);
    const std::uint64_t cross = SameRing ? static_cast<std::uint64_t>(ring != own_ring) : 0;
    const std::uint64_t in_window = valid & static_cast<std::uint64_t>(d <= BL);
    const std::uint64_t tracked = in_window & (cross ^ 1);
    const std::uint64_t cm = candidate_meta(c);
    if constexpr (kWords == 1) acc.add(s.reach, d, tracked & (cm >> 32) & kWaitBit); // else: below, once per producer

    // Status: Stale, CrossRing, Untracked, Tracked (the first rule that applies).
    const std::uint64_t status =
        valid * (cross ? static_cast<unsigned>(WindowStatus::CrossRing)
                       : static_cast<unsigned>(WindowStatus::Tracked) - static_cast<unsigned>(d > BL));
    static_assert(static_cast<unsigned>(WindowStatus::Stale) == 0 &&
                  static_cast<unsigned>(WindowStatus::Untracked) + 1 == static_cast<unsigned>(WindowStatus::Tracked));
    const std::uint64_t meta = cm | (status << 48);

    // Near table: was this distance seen already in this submit? Then OR.
    const unsigned bit = static_cast<unsigned>(d - 1) & (BL - 1);
    std::uint64_t dup = 0;
    for (unsigned j = 0; j < kWords; ++j) {
      const std::uint64_t here = static_cast<std::uint64_t>((bit >> 6) == j) & in_window;
      dup |= (seen[j] >> (bit & 63)) & here;
      seen[j] |= here << (bit & 63);
    }
    Near& e = table[in_window ? bit : BL];
    e.meta = meta | (e.meta & (std::uint64_t{0} - dup));
    e.producer = c.producer;
    Work& x = w[nw];
    x.key = ~(d & (std::uint64_t{0} - valid));
    x.producer = c.producer;
    x.meta = meta;
    nw += in_window ^ 1;
  }

  // Several words: the shift costs more than the loop, so it is done once
  // per unique producer in the window (duplicates and far or stale
  // candidates skip it); its slot is known valid, so no check is repeated.
  if constexpr (kWords > 1)
    for (unsigned wi = 0; wi < kWords; ++wi)
      for (std::uint64_t bits = seen[wi]; bits != 0; bits &= bits - 1) {
        const unsigned bit = wi * 64 + static_cast<unsigned>(std::countr_zero(bits));
        const Near& e = table[bit];
        const std::uint64_t on = static_cast<std::uint64_t>((e.meta >> 48) == static_cast<unsigned>(WindowStatus::Tracked)) &
                                 (e.meta >> 32) & kWaitBit;
        const Slot& s = slots[static_cast<std::size_t>(task_ring(e.producer)) * spr + task_slot(e.producer)];
        acc.add(s.reach, bit + 1, on);
      }
  std::uint64_t via[kWords];
  acc.via(via);

  // Far and stale candidates: canonical order (insertion sort, they are few),
  // then merge adjacent duplicates.
  if (nw > 16) {
    std::sort(w, w + nw, work_before);
  } else {
    for (std::size_t i = 1; i < nw; ++i) {
      const Work x = w[i];
      std::size_t j = i;
      for (; j > 0 && work_before(x, w[j - 1]); --j) w[j] = w[j - 1];
      w[j] = x;
    }
  }
  std::size_t nu = 0;
  for (std::size_t i = 0; i < nw; ++i) {
    if (nu > 0 && same_producer(w[nu - 1], w[i])) w[nu - 1].meta |= w[i].meta;
    else w[nu++] = w[i];
  }

  // Verdicts in canonical order: far (descending distance), near
  // (descending), stale. A tracked WAIT producer found in via loses WAIT. An
  // entry without flags is written and then overwritten (n does not advance).
  std::size_t n = 0, i = 0;
  for (; i < nu && w[i].key != kStaleKey; ++i) {
    write_edge(out[n], w[i].producer, w[i].meta, 0, ~w[i].key);
    n += (w[i].meta & kFlagsMask) != 0;
  }
  for (unsigned wi = kWords; wi-- > 0;) {
    const std::uint64_t vw = via[wi];
    for (std::uint64_t bits = seen[wi]; bits != 0;) {
      const unsigned top = 63 - static_cast<unsigned>(std::countl_zero(bits));
      bits ^= std::uint64_t{1} << top;
      const Near& e = table[wi * 64 + top];
      const auto lose = static_cast<std::uint8_t>(
          static_cast<std::uint8_t>((e.meta >> 48) == static_cast<unsigned>(WindowStatus::Tracked)) &
          static_cast<std::uint8_t>(vw >> top) & kWaitBit);
      write_edge(out[n], e.producer, e.meta, lose, wi * 64 + top + 1);
      n += (e.meta & kFlagsMask) != 0;
    }
  }
  for (; i < nu; ++i) {
    write_edge(out[n], w[i].producer, w[i].meta, 0, 0);
    n += (w[i].meta & kFlagsMask) != 0;
  }

  publish(self, generation, acc, via);
  return n;
}

template <unsigned BL>
template <bool SameRing>
std::size_t window_reducer<BL>::flags_impl(std::size_t self, TaskId task, Generation generation,
                                           std::span<const Candidate> candidates, FlagSet* effective) {
  const std::uint64_t seq_m1 = next_seq_ - 1;
  const std::uint32_t own_ring = task_ring(task);
  const Slot* const slots = slots_.data();
  const Candidate* const cand = candidates.data();
  const std::size_t k = candidates.size();
  if (tracked_.size() < k) tracked_.resize(k);
  std::uint64_t* const tr = tracked_.data();

  // Pass 1 (also validates every candidate before anything changes).
  Accumulator acc;
  for (std::size_t i = 0; i < k; ++i) {
    const Candidate& c = cand[i];
    const std::uint32_t ring = task_ring(c.producer);
    const std::size_t at = producer_index(c.producer);
    if (at == kNpos) [[unlikely]] return window_detail::kProducerOutOfRange; // only scratch was written
    const Slot& s = slots[at];
    // The check word alone (class comment, "Parking"): same generation and d - 1 < BL.
    const std::uint64_t d = std::uint64_t{window_detail::check_distance_m1(s.check, seq_m1)} + 1;
    const std::uint64_t tracked_wait =
        static_cast<std::uint64_t>(window_detail::check_tracked(s.check, seq_m1, c.generation, BL)) &
        (SameRing ? static_cast<std::uint64_t>(ring == own_ring) : 1) & (c.flags.bits() & kWaitBit);
    acc.add(s.reach, d, tracked_wait);
    // One word: the candidate's own bit (0 if not tracked); else d (0 if not tracked).
    if constexpr (kWords == 1)
      tr[i] = (std::uint64_t{1} << (static_cast<unsigned>(d - 1) & 63)) & (std::uint64_t{0} - tracked_wait);
    else
      tr[i] = d & (std::uint64_t{0} - tracked_wait);
  }

  // Pass 2: a tracked WAIT candidate found in via loses WAIT (WAIT-only ->
  // empty, WAIT|RETAIN -> RETAIN: only the RETAIN bit is kept).
  std::uint64_t vw[kWords];
  acc.via(vw);
  std::size_t removed = 0;
  for (std::size_t i = 0; i < k; ++i) {
    unsigned lose;
    if constexpr (kWords == 1) {
      lose = static_cast<unsigned>((vw[0] & tr[i]) != 0);
    } else {
      const std::uint64_t t = tr[i];
      const unsigned b = static_cast<unsigned>(t - 1) & (BL - 1);
      lose = static_cast<unsigned>(t != 0) & static_cast<unsigned>(vw[b >> 6] >> (b & 63)) & 1u;
    }
    static_assert(kWaitBit == 1, "lose (0 or 1) is the WAIT bit");
    effective[i] = FlagSet(static_cast<Flag>(cand[i].flags.bits() & ~lose)); // = f.without(Wait) if lose
    removed += lose;
  }

  publish(self, generation, acc, vw);
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
