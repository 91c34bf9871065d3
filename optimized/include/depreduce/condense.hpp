//===- depreduce/condense.hpp - Reduction of cyclic inputs -----*- C++ -*-===//
///
/// \file
/// The exact reduction of an input as read, cycles allowed on request
/// (Graphviz `tred` handles cycles the same way).
///
/// With `ReduceOptions::cycles == CycleMode::Condense`, the strongly
/// connected components of the input over its WAIT edges (self-loops aside;
/// a cycle closed only by a RETAIN-only edge orders nothing) are condensed: a
/// component of two or more nodes becomes one synchronous node without engine,
/// and the exact reduction of SPEC §4 runs on the condensation (a DAG). Then:
///  - every edge inside a component is kept;
///  - the edges from component U to component V are removed (WAIT-only) or
///    demoted (WAIT|RETAIN) when the condensed pair U -> V is redundant;
///    otherwise one of them stays: the edges the kinds filter does not admit,
///    plus - if none of those carries the pair's relation (C if some WAIT
///    part between U and V demands C, else S) - the admitted edge with that
///    relation whose (source name, destination name) is smallest; the other
///    admitted edges of the pair are removed;
///  - edges without WAIT are never touched.
/// So the output is a subset of the input's edges with the same reachability
/// over WAIT edges (the nodes of one component reach each other; between
/// components, the condensation's C and S relations are kept), and it does not depend on the order of the input's
/// edges (nor of its nodes, on graphs without engines). On an acyclic input
/// the result is exactly reduce(make_program_order(input)).
///
/// Program order is the condensation's, with the edges without WAIT between
/// components taking part as make_program_order() has them (so an input whose
/// only cycles are closed by RETAIN-only edges is ordered as usual) - unless
/// they close a cycle of the condensation; then none of them constrains it.
/// Engines need program order to be a topological order: a
/// component of two or more nodes with a node on an engine is an error.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_CONDENSE_HPP
#define DEPREDUCE_CONDENSE_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {

/// What reduce_input() returns.
struct InputReduction {
  /// The input, merged as make_program_order() merges it (SPEC §2), nodes in
  /// program order. With cycles condensed, the order is a topological order
  /// of the components (the ready component whose first node came first in
  /// the input), a component's nodes consecutive in input order; edges inside
  /// a component may then go backwards (src > dst), the one Graph invariant
  /// that does not hold. Writers (write_dot) and apply() accept it.
  Graph graph;
  /// The removed and demoted edges of `graph`, sorted by (src, dst).
  Reduction reduction;
  /// Component index of each node of `graph` (0.. in program order).
  std::vector<std::uint32_t> component;
  /// Components of two or more nodes (0 on an acyclic input).
  std::size_t cyclic_components = 0;
};

/// Reduces \p input as read: with `options.cycles == CycleMode::Error` (the
/// default) it is reduce(make_program_order(input)) with make_program_order's
/// errors, cycles included; with CycleMode::Condense see the file comment.
/// Self-loop warnings go to \p warnings as make_program_order() writes them.
/// `stats`, if given, gets reduce()'s counters (on the condensation); its
/// `candidates` counts the admitted WAIT edges between different components.
///
/// Cost: acyclic input, as reduce(); condensed: O((n + m) log n) for the
/// components (iterative Tarjan), the condensation and the merge, plus
/// reduce() on the condensation.
/// \throws InputError as make_program_order() (duplicate names, unknown
///   nodes, engines out of range; in Error mode cycles), and in Condense mode
///   for a component of two or more nodes one of which has an engine
///   ("cycle among engine nodes: 'a' -> 'b' -> 'a' ...").
InputReduction reduce_input(InputGraph input, const ReduceOptions& options = {}, ReduceStats* stats = nullptr,
                            std::vector<std::string>* warnings = nullptr);

} // namespace depreduce

#endif // DEPREDUCE_CONDENSE_HPP
