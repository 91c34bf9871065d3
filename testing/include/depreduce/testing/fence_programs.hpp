//===- depreduce/testing/fence_programs.hpp - Random orchestration programs -*- C++ -*-===//
///
/// \file
/// The random program generator shared by props/phase_fence_props.cpp and
/// fuzz/fuzz_phase_fence_diff.cpp. A program is a sequence of *snippets*, each one
/// shape of SPEC §7 (phase chains, ping-pong, copies `x = a` and
/// `iter(acc = array(n))` inits included) built with random sizes, loop kinds, trip counts and an
/// optional wrapping loop, so that every compressed shape and every fallback
/// shape appears. Because each snippet is built for its shape, the generator
/// knows the answer: which barriers the pass must insert (with N, M and how
/// often the barrier runs) and why every fallback consumer keeps its deps.
///
/// Choices come from a `ChoiceStream` over bytes: libFuzzer's input, or a
/// byte vector RapidCheck generates and shrinks. Past the end it reads zeros,
/// so every byte string is a valid (possibly tiny) program.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_FENCE_PROGRAMS_HPP
#define DEPREDUCE_TESTING_FENCE_PROGRAMS_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "depreduce/orchestration_ir.hpp"
#include "depreduce/phase_fence.hpp"

namespace depreduce::testing {

/// Deterministic choices drawn from a byte string (zeros past its end).
class ChoiceStream {
public:
  ChoiceStream(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  explicit ChoiceStream(const std::vector<std::uint8_t>& bytes) : ChoiceStream(bytes.data(), bytes.size()) {}
  /// A value in [0, n) (0 when n <= 1); one byte per choice (two if n > 256).
  std::uint32_t pick(std::uint32_t n);
  /// A value in [lo, hi].
  std::uint32_t range(std::uint32_t lo, std::uint32_t hi) { return lo + pick(hi - lo + 1); }
  bool coin() { return pick(2) == 1; }
  bool exhausted() const { return pos_ >= size_; }

private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// The shapes of SPEC §7.
enum class FenceShape : std::uint8_t {
  // compressed (when N*M - (N+M) >= 1)
  Fanout,          ///< one loop, k consumers per iteration
  NestedHoist,     ///< consumers in an outer loop body and in an inner loop
  TwoArrays,       ///< two arrays with separate consumers: two barriers
  DoubleBuffered,  ///< reads one array, writes another carrier; then reads the carrier
  PhaseChain,      ///< seq loop's iteration argument T read by a parallel loop that writes a fresh next T
  PingPong,        ///< phases alternate between two preallocated arrays: read one, write the other
  // fallbacks
  ScalarDep, MixedDeps, MultipleArrays, PartialSlot, LoopIterArg, DefinedInBody, UpdatedInBody,
  UpdatedThroughAlias, NestedLoopReturn, IfReturn, ZeroTrip, DynamicParallel, Unprofitable,
  AutomaticScope, KernelFunction, InsideIf, NotInLoop,
  ChainWritesT,      ///< a phase chain whose parallel body also writes T's storage (or a copy of T)
  ChainCarrierIsT,   ///< a phase chain whose carrier starts as T (or a copy of T): T's storage is written
  ChainReturnVar,    ///< a phase chain whose consumers read a nested loop's result over T
  PingPongUnsafe,    ///< ping-pong whose two arrays start as one storage, or stop swapping
};
inline constexpr std::size_t kFenceShapeCount = 27;
const char* fence_shape_name(FenceShape s) noexcept;
bool is_fallback_shape(FenceShape s) noexcept;

/// A barrier the pass must insert, in program order.
struct ExpectedBarrier {
  std::string array;
  std::uint64_t n = 0;
  std::uint64_t m = 0;
  /// How many times the barrier statement runs (constant-trip programs only;
  /// its loop may sit in a wrapping loop). Edges saved = times * (N*M - (N+M)).
  std::uint64_t times = 1;
};

struct GeneratedFenceProgram {
  orch::Program program;
  std::map<std::string, std::int64_t> trips;   ///< values of the dynamic trip counts
  std::vector<FenceShape> shapes;              ///< snippets, in program order
  std::vector<ExpectedBarrier> expected;       ///< barriers the pass must insert
  /// Consumers of fallback snippets (by submit name) and the reason the pass
  /// must report for them.
  std::map<std::string, FenceFallback> expected_kept;
  /// True when no trip count is dynamic: then each `times` is exact and the
  /// dynamic edge count must drop by exactly the sum of the savings.
  bool constant_trips = true;
  /// Expected drop of dynamic edges (valid when constant_trips).
  std::uint64_t expected_edge_drop() const;
};

struct FenceGenOptions {
  std::size_t max_snippets = 4;     ///< snippets per program (at least 1)
  std::uint32_t max_length = 5;     ///< array length N
  std::uint32_t max_trip = 4;       ///< literal trip counts (and dynamic values)
  bool fallback_only = false;       ///< only fallback shapes
  bool allow_dynamic = true;        ///< allow dynamic trip counts
};

/// Builds a random program from \p choices. Always valid
/// (orch::find_problem reports nothing); at most a few hundred tasks.
GeneratedFenceProgram random_fence_program(ChoiceStream& choices, const FenceGenOptions& options = {});

/// One implementation of the phase fence contract (docs/phase-fence.md): a
/// name and the pass, same signature as depreduce::expand_manual_phase_fence.
/// The judge is not a twin but the interpreter oracle (reference/), so the
/// properties and fuzz_phase_fence_diff check every registered pass against it.
struct FencePassImpl {
  std::string name; ///< "optimized", ...
  orch::Program (*run)(const orch::Program&, PhaseFenceSummary*);
};

/// The optimized pass, then every pass added with register_fence_pass_impl().
const std::vector<FencePassImpl>& fence_pass_impls();

/// Adds a third-party pass (e.g. a compiler's own ExpandManualPhaseFence
/// wrapped to this IR), before the tests run: from a static initialiser in
/// an adapter file compiled into depreduce_props (docs/testing.md,
/// -DDEPREDUCE_EXTRA_PROPS_SOURCES). \returns true (so it can initialise a static).
bool register_fence_pass_impl(FencePassImpl impl);

} // namespace depreduce::testing

#endif // DEPREDUCE_TESTING_FENCE_PROGRAMS_HPP
