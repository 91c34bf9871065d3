//===- depreduce/paths.hpp - Paths that carry a relation -------*- C++ -*-===//
///
/// \file
/// Paths in the event graph of SPEC §3.1 between two nodes: the witness of a
/// removed edge in the *reduced* graph (what `explain` and `reduce --json`
/// print), and the path behind a relation that `equiv` reports.
///
/// A path is a `Witness`: hops of explicit WAIT edges and implicit engine
/// edges (SPEC §3.2). Its relation is that of its first hop (C;x = C,
/// S;x = S), so a path proves `src C dst` iff its first hop is a completion
/// hop, and `src S dst` always.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_PATHS_HPP
#define DEPREDUCE_PATHS_HPP

#include <cstdint>
#include <optional>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {

/// Answers many path questions on one graph. Built once in O(n + m); each
/// search is a backward breadth-first search from start(dst) over the nodes
/// between src and dst in program order (no path leaves that interval), so
/// it costs what it explores, not O(n). On a graph with a WAIT edge going
/// backwards (reduce_input()'s condensed graphs) the search is not bounded
/// and may cost O(n + m). Not thread-safe (scratch is reused).
/// The Graph must outlive the finder.
class PathFinder {
public:
  /// Paths over every explicit WAIT edge of \p g and the implicit edges.
  explicit PathFinder(const Graph& g);
  /// Paths over the edges the reduction \p kept_only of \p g keeps: its
  /// removed (and demoted) edges are no path. A reduction keeps both
  /// relations, so every relation of \p g still has such a path.
  /// \throws std::invalid_argument if \p kept_only names an edge \p g lacks.
  PathFinder(const Graph& g, const Reduction& kept_only);

  /// A path proving \p relation from \p src to \p dst with the fewest hops,
  /// or std::nullopt if the relation does not hold (also for src == dst, ids
  /// out of range, and src > dst when every edge goes forward). With \p without_edge, the explicit edge src -> dst
  /// itself is not used (a witness of that edge, SPEC §4).
  std::optional<Witness> find(NodeId src, NodeId dst, Relation relation, bool without_edge = false);

  /// The witness of the explicit WAIT edge src -> dst: find() with the edge's
  /// own relation (C if is_completion_edge(), else S) and without the edge.
  /// std::nullopt if there is no such edge or it is needed.
  std::optional<Witness> witness(NodeId src, NodeId dst);

private:
  const Graph* g_;
  std::vector<std::uint32_t> in_begin_, in_edge_; // CSR by dst over usable explicit WAIT edges
  std::vector<NodeId> engine_prev_;               // previous node on the engine, or kNone
  std::vector<std::uint32_t> async_begin_;        // CSR: async nodes whose slot is reused at v
  std::vector<NodeId> async_into_;
  std::vector<std::vector<NodeId>> engine_nodes_; // per engine, program order
  struct Step {
    std::uint32_t next_event = 0;
    HopKind kind = HopKind::ExplicitCompletion;
    std::uint32_t stamp = 0;
  };
  std::vector<Step> step_; // per event, valid iff stamp == stamp_
  std::uint32_t stamp_ = 0;
  bool forward_only_ = true; // every usable WAIT edge has src < dst
  void build(const std::vector<std::uint8_t>* removed);
};

/// The witness that `explain` prints for the explicit edge src -> dst: if the
/// exact reduction of \p g (default options) removes it, a path of edges the
/// reduction keeps (so that the witness reads next to the reduced output);
/// std::nullopt if the edge is needed or does not exist. Cost: one reduce()
/// plus O(n + m).
std::optional<Witness> find_kept_witness(const Graph& g, NodeId src, NodeId dst);

/// True iff \p w is a path of \p g from \p src to \p dst that proves
/// \p relation: it starts at src, ends at dst, hops are connected, every hop
/// exists in \p g (an explicit WAIT edge, a C hop on a C edge; or an implicit
/// engine edge of SPEC §3.2), and for C the first hop is a completion hop.
/// Unlike is_witness(), the edge src -> dst itself may be used. Cost: O(hops log m).
bool is_path(const Graph& g, NodeId src, NodeId dst, Relation relation, const Witness& w);

} // namespace depreduce

#endif // DEPREDUCE_PATHS_HPP
