//===- ci/consumers/adapter/example_adapter.cpp - A third-party adapter ---===//
///
/// \file
/// What a team writes to hold its own implementations to our reference: one
/// registration per algorithm (docs/testing.md). Here the "team's" code is
/// our optimized library under another name, so every check passes;
/// ci/oss-fuzz-check links this file into the differential fuzz targets with
/// -DDEPREDUCE_EXTRA_FUZZ_SOURCES, and props take it with
/// -DDEPREDUCE_EXTRA_PROPS_SOURCES. Replace each function with a call into
/// your code (and its conversion from and to depreduce::Graph).
//===----------------------------------------------------------------------===//
#include "depreduce/dependence_builder.hpp"
#include "depreduce/label_verification.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/race_check.hpp"
#include "depreduce/scheduling_units.hpp"
#include "depreduce/testing/access_programs.hpp"
#include "depreduce/testing/implementations.hpp"
#include "depreduce/testing/fence_programs.hpp"
#include "depreduce/testing/task_streams.hpp"
#include "depreduce/transitive_reduction.hpp"
#include "depreduce/window_reducer.hpp"

namespace {

using namespace depreduce;

// The exact reduction (SPEC §4): reduce and find_witness.
Reduction example_reduce(const Graph& g, const ReduceOptions& o, ReduceStats* stats) { return reduce(g, o, stats); }
std::optional<Witness> example_witness(const Graph& g, NodeId src, NodeId dst) { return find_witness(g, src, dst); }

// The bounded-window reducer (SPEC §6): one function per window size; leave
// a size nullptr if you do not support it.
template <unsigned BL>
WindowRun example_window(const TaskStream& stream, const WindowOptions& options) {
  return run_window<BL>(stream, options);
}

// The builder, label verification, race check and unit expansion (SPEC §5,
// §8); leave any nullptr you do not implement.
std::vector<Dependence> example_kinds(const Graph& g, const DependenceOptions& o) { return computed_kinds(g, o); }
Graph example_build(const Graph& g) { return build_dependences(g); }
std::vector<LabelMismatch> example_labels(const Graph& g) { return verify_labels(g); }
std::vector<Race> example_races(const Graph& g) { return find_races(g); }
Graph example_expand(const Graph& g, std::vector<std::string>* warnings) {
  return expand_scheduling_units(g, warnings);
}

// The phase fence pass (SPEC §7).
orch::Program example_fence(const orch::Program& p, PhaseFenceSummary* summary) {
  return expand_manual_phase_fence(p, summary);
}

const bool registered = testing::register_reduction_impl({"example", &example_reduce, &example_witness}) &&
                        testing::register_window_impl({"example", &example_window<64>, &example_window<128>,
                                                       &example_window<256>}) &&
                        testing::register_builder_impl({"example", &example_kinds, &example_build, &example_labels,
                                                        &example_races, &example_expand}) &&
                        testing::register_fence_pass_impl({"example", &example_fence});

} // namespace
