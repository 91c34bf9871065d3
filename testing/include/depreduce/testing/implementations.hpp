//===- depreduce/testing/implementations.hpp - "An implementation" -*- C++ -*-===//
///
/// \file
/// The adapter interface that props/, fuzz/, tests/ and bench/ are written
/// against, so each of them runs over both twins (optimized and reference) -
/// and over a third team's implementation, if they provide one (docs/testing.md).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_IMPLEMENTATIONS_HPP
#define DEPREDUCE_TESTING_IMPLEMENTATIONS_HPP

#include <optional>
#include <string>
#include <vector>

#include "depreduce/transitive_reduction.hpp"

namespace depreduce::testing {

/// One implementation of the reduction contracts (SPEC §4).
struct ReductionImpl {
  std::string name; ///< "optimized", "reference", ...
  Reduction (*reduce)(const Graph&, const ReduceOptions&, ReduceStats*);
  std::optional<Witness> (*find_witness)(const Graph&, NodeId, NodeId);
};

/// The optimized library (depreduce::) and the Boost.Graph oracle
/// (depreduce::reference::), in that order, then any implementation added with
/// register_reduction_impl(). Properties and fuzzers compare every one of them
/// with the reference.
const std::vector<ReductionImpl>& reduction_impls();

/// Adds a third-party implementation (docs/testing.md). Call it before the
/// tests run, e.g. from a static initializer in an adapter file compiled into
/// depreduce_props with -DDEPREDUCE_EXTRA_PROPS_SOURCES=adapter.cpp.
/// \returns true (so it can initialise a static).
bool register_reduction_impl(ReductionImpl impl);
const ReductionImpl& optimized_reduction();
const ReductionImpl& reference_reduction();

} // namespace depreduce::testing

#endif
