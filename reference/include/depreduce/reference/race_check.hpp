//===- depreduce/reference/race_check.hpp - Oracle ---------------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Twin of depreduce/race_check.hpp: the
/// reference's computed pairs (with bytes) checked against the all-pairs
/// completed-before relation of reference::happens_before(g) (reachability on
/// the event graph of SPEC §3, Boost.Graph breadth-first searches).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_RACE_CHECK_HPP
#define DEPREDUCE_REFERENCE_RACE_CHECK_HPP

#include <vector>

#include "depreduce/race_check.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::find_races() on the merged Graph, on the
/// input as read: the accesses' computed pairs (in the oracle's program order)
/// against reference::happens_before(input). Node ids are program-order
/// positions. Cost: reference::computed_kinds() plus O(n * (n + m)).
/// \throws InputError as reference::program_order().
std::vector<Race> find_races(const InputGraph& input);

/// find_races(as_input(g)).
std::vector<Race> find_races(const Graph& g);

/// The nodes of \p input in the oracle's program order (no edges): what the
/// access-based parts (computed kinds, pieces) read. Cost: O(n * (n + m)).
Graph nodes_in_program_order(const InputGraph& input);

/// The other verdict SPEC §5 allows: true iff every pair p < c that touches a
/// common byte with at least one write (no "no writer in between" condition)
/// satisfies p C c. Must equal find_races(g).empty(); a property checks it.
/// Cost: O(n^2 * P) plus the relation.
bool race_free_by_all_conflicts(const Graph& g);

} // namespace depreduce::reference

#endif
