//===- depreduce/reference/transitive_reduction.hpp - Oracle ---*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Deliberately simple Boost.Graph twin of
/// depreduce/transitive_reduction.hpp: same signatures, same contracts
/// (SPEC §3, §4), written to be read rather than to be fast.
///
/// It builds the event graph of SPEC §3.1 (a start and an end event per node,
/// start(v) -> end(v); C edges end -> start, S edges start -> start; implicit
/// engine edges of §3.2) and asks, per explicit WAIT edge, whether the edge's
/// target event is reachable from its source event without the edge.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_TRANSITIVE_REDUCTION_HPP
#define DEPREDUCE_REFERENCE_TRANSITIVE_REDUCTION_HPP

#include <optional>
#include <vector>

#include "depreduce/transitive_reduction.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::reduce(). Cost: O(m * (n + m)): one
/// breadth-first search per candidate edge. `stats` gets only `candidates`.
Reduction reduce(const Graph& g, const ReduceOptions& options = {}, ReduceStats* stats = nullptr);

/// Same contract as depreduce::find_witness(): a shortest path (in hops) in the
/// event graph without the edge, found by Boost's breadth_first_search.
std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst);

/// Both happens-before relations of SPEC §3 for every pair of nodes:
/// `completed[p][c]` iff p C c, `issued[p][c]` iff p S c (p != c), computed as
/// reachability on the event graph. Cost: O(n * (n + m)) time, O(n^2) bits.
struct HappensBefore {
  std::vector<std::vector<bool>> completed;
  std::vector<std::vector<bool>> issued;
  friend bool operator==(const HappensBefore&, const HappensBefore&) = default;
};
HappensBefore happens_before(const Graph& g);

/// Same contract as depreduce::happens_before(g, queries), answered from the
/// all-pairs relations above.
std::vector<bool> happens_before(const Graph& g, const std::vector<HappensBeforeQuery>& queries);

} // namespace depreduce::reference

#endif
