//===- depreduce/phase_fence.hpp - ExpandManualPhaseFence -----*- C++ -*-===//
///
/// \file
/// The *phase fence* pass (SPEC §7), our version of the orchestration pass
/// "ExpandManualPhaseFence": in a manual runtime scope, M task submissions in
/// a loop nest that each depend on the whole of one stable task-id array of N
/// ids cost N*M dependency edges; one dependency-only barrier task
/// (`system.task_dummy`) submitted once before the loop, depending on the
/// array, and the M consumers depending on the barrier cost N+M.
///
///     tids[N] -> consumers[M]   becomes   tids[N] -> phase_fence_barrier_k -> consumers[M]
///
/// Kernels, their arguments and attributes are untouched; only the `deps` of
/// the rewritten submits change, and one barrier statement per accepted
/// (loop, array) pair is inserted. The test oracle is the interpreter in
/// `depreduce/reference/phase_fence.hpp`: happens-before among the real tasks
/// is identical before and after. docs/phase-fence.md explains the design.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_PHASE_FENCE_HPP
#define DEPREDUCE_PHASE_FENCE_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "depreduce/orchestration_ir.hpp"

namespace depreduce {

/// Why a submit with dependencies keeps its direct deps (one per fallback
/// shape of the seed, plus the conservative cases of this IR).
enum class FenceFallback : std::uint8_t {
  NotOrchestration,  ///< in a kernel function
  NotManualScope,    ///< the innermost runtime scope is automatic, or there is none
  NotInLoop,         ///< no loop between the manual scope and the submit
  InsideIf,          ///< under an if inside its innermost loop (its count is not static)
  ScalarDep,         ///< its only dep is a scalar TaskId
  PartialSlot,       ///< its only dep is one slot read from an array (`prev = tids[i]`)
  MixedDeps,         ///< scalar and array deps together
  MultipleArrays,    ///< two or more array deps
  LoopIterArg,       ///< the array is an iteration argument of the submit's innermost loop
  DefinedInBody,     ///< the array is created or updated (a new name) in the loop body
  ReturnValue,       ///< the array is a result of a loop or if nested in the loop body
  UpdatedInBody,     ///< the array itself (or a copy of it) is updated in the loop body (any depth)
  UpdatedThroughAlias, ///< another handle that may hold its storage is updated in the loop body
  UnresolvedArray,   ///< its length is not one literal for every array(n) it may hold, or it is an if result
  DynamicParallelTrip, ///< its innermost loop is parallel with a dynamic trip count
  ZeroTrip,          ///< a loop around it (up to the hoisting point) runs zero times
  Unprofitable,      ///< N*M - (N+M) < 1 for its (loop, array) group (N->1, 2x2, ...)
};

/// "scalar-dep", "mixed-deps", ... (kebab-case name of \p reason).
const char* fence_fallback_name(FenceFallback reason) noexcept;

/// One inserted barrier.
struct FenceBarrier {
  std::string function;   ///< function it was inserted in
  std::string name;       ///< `phase_fence_barrier_<k>`
  std::string array;      ///< the array it depends on (its `manual_dep_edges`)
  std::string loop_var;   ///< variable of the loop it is inserted before
  std::size_t loop_stmt = 0; ///< that loop's pre-order statement index in the input function (as orch::Problem counts)
  std::uint64_t n = 0;    ///< array length
  std::uint64_t m = 0;    ///< consumer submissions per execution of that loop
  std::size_t sites = 0;  ///< consumer submit statements rewritten
  /// Edges saved per execution of the loop: N*M - (N+M) = (N-1)(M-1) - 1
  /// (>= 1; saturates at the largest uint64_t instead of overflowing).
  std::uint64_t saved() const noexcept {
    if (n == 0 || m == 0) return 0;
    const std::uint64_t a = n - 1, b = m - 1;
    if (a != 0 && b > ~std::uint64_t{0} / a) return ~std::uint64_t{0};
    return a * b == 0 ? 0 : a * b - 1;
  }
  bool operator==(const FenceBarrier&) const = default;
};

/// One submit that kept its direct deps, and why.
struct FenceKept {
  std::string function;
  std::string submit;     ///< its result name, or "submit#<k>" (k = pre-order statement index)
  FenceFallback reason;
  std::size_t stmt = 0;   ///< its pre-order statement index in the input function
  bool operator==(const FenceKept&) const = default;
};

/// What the pass did. Barriers and kept submits are listed in program order.
struct PhaseFenceSummary {
  std::vector<FenceBarrier> barriers;
  std::vector<FenceKept> kept;  ///< every submit with at least one dep that was not rewritten
  bool operator==(const PhaseFenceSummary&) const = default;
};

/// Expands profitable manual-scope fanouts into phase fences (mirrors
/// "ExpandManualPhaseFence").
///
/// A submit is a *consumer* of array `A` when it is in an orchestration
/// function, its innermost runtime scope is manual, it sits (outside any if)
/// in the body of a loop L inside that scope, and its only dep is the whole
/// array `A` (copies `x = A` are followed back to `A`). `A` must be *stable*
/// for L: not defined in L (so not L's iteration argument, not created,
/// updated or returned by something in L), and no `update` in L (at any
/// depth) may write `A`'s storage. That is decided per storage instance
/// (docs/phase-fence.md, "Alias safety per storage instance"): every array
/// handle has a set of storage roots (allocation sites in the current
/// iteration, iteration-argument values at the start of the current
/// iteration, storage made by a finished loop); an update is harmless when
/// all its roots are provably different storages from all of `A`'s: two
/// allocations, an allocation made in the current iteration of the loop whose
/// iteration argument the other root is, or two iteration arguments of one
/// loop proven distinct by induction (distinct inits, distinct yields). So in
/// the phase chain (a seq loop's iteration argument T read by a parallel loop
/// that fills a fresh `array(n)` yielded as the next T) T is stable for the
/// parallel loop, and ping-pong between two preallocated arrays too.
///
/// The barrier is hoisted to the outermost loop of the chain of directly
/// nested loops around the submit for which this still holds and whose loops
/// have static counts; a parallel loop with a dynamic trip count stops the
/// chain (and is a fallback when it is the innermost loop); a sequential loop
/// with a dynamic trip count counts as one iteration. All consumers of the
/// same array hoisted to the same loop form one group with M = sum over its
/// submits of the product of the trip counts from the hoisting loop down;
/// N = A's array length (the literal n shared by every `array(n)`, statement
/// or iteration-argument init, that its alias class can hold). The group is
/// rewritten when N*M - (N+M) >= 1: the statement
///
///     phase_fence_barrier_<k> = system.task_dummy() {dummy_task = true, manual_dep_edges = [A]}
///
/// is inserted just before the hoisting loop and each consumer's deps become
/// `[phase_fence_barrier_<k>]`. k counts barriers over the whole program in
/// program order, skipping numbers whose name is already used, so the pass is
/// idempotent (a rewritten consumer has a scalar dep).
///
/// \param program a valid program (`orch::find_problem` reports nothing).
/// \param summary if not null, receives the inserted barriers and, for every
///        other submit with deps, the FenceFallback that kept it.
/// \returns the rewritten program (equal to \p program when nothing applies).
/// \throws InputError (file "<program>") if \p program is not valid.
/// Cost: O(S log S + S * D) for S statements nested D loops deep to build the
/// index (each loop summarised once: its updates, its iteration arguments'
/// root closures, a fixpoint over at most 64 array arguments for the
/// distinct pairs), plus, per distinct (loop, array) pair tested, O(U * R^2)
/// for the U updates inside the loop and root sets of size R (pairwise root
/// answers memoised). Memory O(S * D).
orch::Program expand_manual_phase_fence(const orch::Program& program, PhaseFenceSummary* summary = nullptr);

/// Checks the output invariants of the pass on \p program and returns the
/// first violation, or "" if none: every `system.task_dummy` named
/// `phase_fence_barrier_<k>` has `dummy_task = true` and `manual_dep_edges`
/// naming exactly one array; `manual_dep_edges` appears on no submit (the IR's
/// ManualDepsOnSubmitOnly); every barrier is used only as the single dep of
/// submits. Cost: O(program size).
std::string check_phase_fence_invariants(const orch::Program& program);

} // namespace depreduce

#endif // DEPREDUCE_PHASE_FENCE_HPP
