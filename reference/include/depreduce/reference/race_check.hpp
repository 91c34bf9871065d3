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

/// Same contract as depreduce::find_races(). Cost: reference::computed_kinds()
/// plus O(n * (n + m)) for the relation.
std::vector<Race> find_races(const Graph& g);

/// The other verdict SPEC §5 allows: true iff every pair p < c that touches a
/// common byte with at least one write (no "no writer in between" condition)
/// satisfies p C c. Must equal find_races(g).empty(); a property checks it.
/// Cost: O(n^2 * P) plus the relation.
bool race_free_by_all_conflicts(const Graph& g);

} // namespace depreduce::reference

#endif
