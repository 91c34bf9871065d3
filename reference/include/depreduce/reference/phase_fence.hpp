//===- depreduce/reference/phase_fence.hpp - Orchestration interpreter -*- C++ -*-===//
///
/// \file
/// TEST ORACLE — NOT FOR PRODUCTION. The reference for the phase-fence pass
/// (`depreduce/phase_fence.hpp`, SPEC §7): an interpreter that runs an
/// orchestration program and records the *dynamic task graph* it submits,
/// plus happens-before among the real tasks computed as plain reachability
/// with Boost.Graph. It is written to be obviously right, not fast:
/// every loop is unrolled, and happens-before costs O(T * (T + E)) time and
/// O(R^2) memory for T tasks, E edges and R real tasks.
///
/// The pass is correct on a program iff, for the same trip counts,
/// `real_happens_before` of the graphs before and after are identical (and the
/// real tasks are the same submissions in the same order); with constant trip
/// counts the edge count also drops by exactly N*M - (N+M) per barrier.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_PHASE_FENCE_HPP
#define DEPREDUCE_REFERENCE_PHASE_FENCE_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "depreduce/orchestration_ir.hpp"

namespace depreduce::reference {

/// One submitted task, in submission order.
struct DynTask {
  std::string label;               ///< "kernel(args)" with Int args evaluated, or "task_dummy"
  bool dummy = false;              ///< true for system.task_dummy tasks
  std::vector<std::uint32_t> deps; ///< WAIT predecessors (task indices), sorted, unique
  bool operator==(const DynTask&) const = default;
};

/// The dynamic task graph of one run: tasks in submission order; edge p -> c
/// for every p in `tasks[c].deps` (all edges are WAIT edges).
struct DynamicGraph {
  std::vector<DynTask> tasks;
  /// Number of distinct WAIT edges.
  std::size_t edge_count() const noexcept;
  std::size_t real_task_count() const noexcept;
  bool operator==(const DynamicGraph&) const = default;
};

/// Values of the dynamic trip counts (function parameters), by name. A name
/// used by several functions gets the same value in each.
using TripCounts = std::map<std::string, std::int64_t>;

/// Caps that keep the oracle bounded on hostile programs.
struct InterpretLimits {
  std::size_t max_tasks = 1'000'000;      ///< tasks submitted in one run
  std::int64_t max_array_length = 1 << 20; ///< slots of one array(n)
  std::size_t max_steps = 100'000'000;   ///< statements run plus loop iterations
};

/// Runs every function of \p program once, in program order (the body of a
/// kernel function runs like any other: the pass must leave it alone, so its
/// tasks are compared too). Loops run their iterations in index order, sequential
/// or parallel alike; arrays are storage updated in place (handles alias:
/// a copy `x = a` is the same storage; `array(n)`, as a statement or as an
/// iteration argument's init, is new storage each time it runs).
/// A submit waits for each TaskId dep that names a task and for every filled
/// slot of each array dep, read when it is submitted; a system.task_dummy
/// waits for the names in its `manual_dep_edges` attribute the same way.
///
/// \throws InputError (file "<program>") if \p program is not valid, a
///         parameter has no value in \p trips, a trip count or array length is
///         negative or over the limit, an index is out of range, or more than
///         `limits.max_tasks` tasks are submitted or `limits.max_steps` steps run.
DynamicGraph interpret(const orch::Program& program, const TripCounts& trips = {},
                       const InterpretLimits& limits = {});

/// Happens-before among the real (non-dummy) tasks of \p g: every pair (a, b)
/// of *real-task ordinals* (0 = the first real task submitted, ...) such that
/// a path of WAIT edges leads from a to b, through dummy tasks or not.
/// Sorted. Computed by a Boost.Graph breadth-first search from each real task.
std::vector<std::pair<std::uint32_t, std::uint32_t>> real_happens_before(const DynamicGraph& g);

/// The verdict of comparing a program before and after the pass.
struct FenceComparison {
  bool equivalent = false;       ///< same real tasks (labels, order) and same real happens-before
  std::size_t edges_before = 0;
  std::size_t edges_after = 0;
  std::size_t dummies_before = 0;
  std::size_t dummies_after = 0;
  std::string mismatch;          ///< first difference, human readable ("" if equivalent)
};

/// Interprets \p before and \p after with the same \p trips and compares them.
/// \throws InputError as `interpret`.
FenceComparison compare_fence(const orch::Program& before, const orch::Program& after, const TripCounts& trips = {},
                              const InterpretLimits& limits = {});

} // namespace depreduce::reference

#endif // DEPREDUCE_REFERENCE_PHASE_FENCE_HPP
