//===- depreduce/testing/graph_pairs.hpp - Inputs for equiv and condense -*- C++ -*-===//
///
/// \file
/// Generators for the equivalence and condense properties and fuzz targets: a second
/// graph over the same nodes (for equivalent()) and cyclic inputs (for
/// reduce_input() in Condense mode).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_GRAPH_PAIRS_HPP
#define DEPREDUCE_TESTING_GRAPH_PAIRS_HPP

#include <cstdint>
#include <string>

#include "depreduce/graph.hpp"
#include "depreduce/testing/generators.hpp"

namespace depreduce::testing {

/// How mutated() changes a graph.
enum class Mutation : std::uint8_t {
  Shuffled,      ///< Edges listed in another order: same relations.
  Reduced,       ///< Its exact reduction (as input again): same relations.
  EdgeRemoved,   ///< Mostly every part of a pair the reduction keeps left out, else one input edge.
  MadeOrdered,   ///< The same pick, its WAIT parts relabelled ORDERED (C -> S if it was C).
  EdgeAdded,     ///< A WAIT edge between two nodes, forward in program order.
  AsyncToggled,  ///< One engine node's async window 0 <-> 1.
  NodesShuffled, ///< Nodes listed in another order (program order may change).
  BarrierToggled, ///< One engine node's barrier flag flipped (preferably one after an async node).
};
inline constexpr std::uint32_t kMutations = 8;

/// The name of \p m ("edge-removed", ...), for RC_TAG and messages.
std::string to_string(Mutation m);

/// \p a changed by \p m, with choices drawn from \p seed; the same node names.
/// Acyclic if \p a is. Cost: O(n + m) (Reduced: one reduce()).
InputGraph mutated(const InputGraph& a, Mutation m, std::uint64_t seed);

/// random_input_graph() plus back edges that close cycles among nodes
/// without engine (WAIT, some of them ORDERED or WAIT|RETAIN, some beside a
/// RETAIN-only part). With
/// \p engine_cycle, one WAIT cycle goes through a node with an engine.
InputGraph random_cyclic_input(const EngineGraphParams& params, std::uint64_t seed, bool engine_cycle = false);

} // namespace depreduce::testing

#endif
