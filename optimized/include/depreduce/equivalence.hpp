//===- depreduce/equivalence.hpp - Same happens-before relations? -*- C++ -*-===//
///
/// \file
/// Do two graphs over the same nodes order exactly the same? (The
/// question a compiler engineer asks after every pass that touches
/// dependencies - a scheduler, a `dep_opt`-style rebuild, a reducer.)
///
/// Two graphs are *equivalent* iff they have the same completed-before (C)
/// and issued-before (S) relations of SPEC §3, implicit engine order
/// included, on every ordered pair of node names. Every explicit WAIT edge
/// counts as a path, whatever kinds filter is given (SPEC §4: a filter only
/// selects what a reduction may remove; the edges outside it still count).
///
/// Algorithm (near-linear, not all pairs): a graph's relations are generated
/// by its event edges - the explicit WAIT edges and the implicit engine
/// edges - and the exact reduction (SPEC §4, unique) keeps a generating set
/// of explicit edges. So A's relations are contained in B's iff every
/// *generator* of A holds in B: each edge the exact reduction of A keeps
/// (its own relation, C or S), each implicit engine edge of A (S to the next
/// instruction; C for a synchronous next, an async window's slot reuse, and
/// for a barrier from the instructions since the previous barrier; earlier
/// ones reach it through that barrier). Both directions are checked with one
/// SyncState sweep per graph (happens_before()).
///
/// The same function exists in `depreduce::reference` (all pairs on the
/// event graph); the two must agree on `equivalent`, and every difference the
/// optimized form reports is one the reference finds.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_EQUIVALENCE_HPP
#define DEPREDUCE_EQUIVALENCE_HPP

#include <cstddef>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {

/// Options of equivalent().
struct EquivalenceOptions {
  /// The kinds filter, read as SPEC §4 reads it for reduce(): it selects
  /// which explicit edges a reduction may remove, and every edge outside it
  /// always counts as a path (an edge inside it counts too, wherever it is
  /// present). So the relations compared are those of every WAIT edge
  /// and the implicit engine edges, whatever the filter: the answer does not
  /// depend on it, and `equiv G R --kinds K` is equivalent for R =
  /// apply(G, reduce(G, {.filter = K})) as for every other reduction. It is
  /// here so that equivalent() takes reduce()'s options; leaving the edges
  /// it does not admit out of both graphs would report a pair as lost whose
  /// path ran through such an edge.
  KindFilter filter{};
  friend bool operator==(const EquivalenceOptions&, const EquivalenceOptions&) = default;
};

/// One ordered pair of nodes on which the two graphs' relations differ.
/// Relations are nested (C implies S), so per pair one graph has strictly
/// more: `relation` is the strongest relation that graph has (C, or S when
/// it has S only) and the other lacks.
struct RelationDifference {
  NodeId src = 0;   ///< Ids in the graph that has the relation (a if in_first, else b).
  NodeId dst = 0;
  Relation relation = Relation::CompletedBefore;
  bool in_first = true; ///< True: a has it and b does not; false: the other way round.
  friend bool operator==(const RelationDifference&, const RelationDifference&) = default;
};

/// The answer of equivalent().
struct Equivalence {
  bool equivalent = true;
  /// Optimized: one entry per *generator* pair that fails in the other graph
  /// (an edge the reduction keeps, or an implicit engine edge), so every entry
  /// is a true difference and the list is empty iff the graphs are equivalent;
  /// pairs that differ only as a consequence of these are not listed.
  /// Reference: every differing pair. Sorted: in_first first, then (src, dst).
  std::vector<RelationDifference> differences;
  friend bool operator==(const Equivalence&, const Equivalence&) = default;
};

/// Compares the C and S relations of \p a and \p b (SPEC §3), node names
/// matched between the graphs (program orders may differ).
///
/// \returns equivalent == true and no differences iff both relations agree on
///   every ordered pair of names; otherwise the differing generator pairs.
/// Cost: two reduce(), two happens_before() sweeps, and a third pair of
///   sweeps over the differing pairs: O(n + m) time with SyncState unions, plus
///   O(n) for the name map; memory of the reductions.
/// \throws InputError (file of the graph lacking it) if a node name of one
///   graph is missing from the other, or the node counts differ.
Equivalence equivalent(const Graph& a, const Graph& b, const EquivalenceOptions& options = {});

} // namespace depreduce

#endif // DEPREDUCE_EQUIVALENCE_HPP
