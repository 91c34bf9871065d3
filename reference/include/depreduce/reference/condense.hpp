//===- depreduce/reference/condense.hpp - Oracle for reduce_input() -*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Twin of depreduce/condense.hpp in
/// Condense mode, with its own rules: components from all-pairs reachability
/// over the WAIT edges (two nodes are in one component iff each reaches the
/// other), the condensation reduced by reference::reduce(InputGraph), and the
/// pair rule of condense.hpp stated again over the input's parts.
/// Cost: O(n * (n + m)) time, O(n^2) bits.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_CONDENSE_HPP
#define DEPREDUCE_REFERENCE_CONDENSE_HPP

#include <vector>

#include "depreduce/condense.hpp"
#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::reference {

/// What depreduce::reduce_input(input, options with CycleMode::Condense)
/// removes, as RemovedEdge entries whose `src` and `dst` are indices into
/// `input.nodes` (input order), `kinds` / `flags` the unions over the pair's
/// parts, `demoted_to_retain` iff one part carries RETAIN, `edge` = 0;
/// sorted by (src, dst) input indices. `options.mode` is ignored (exact).
/// \throws InputError for edges naming unknown nodes, and for a component of
///   two or more nodes that holds a node with an engine.
std::vector<RemovedEdge> reduce_condensed(const InputGraph& input, const ReduceOptions& options = {});

} // namespace depreduce::reference

#endif
