//===- depreduce/graph_builder.hpp - Building a Graph by id --*- C++ -*-===//
///
/// \file
/// The construction path a compiler or runtime uses (SPEC §1 "embedding",
/// §2): nodes by integer id in the caller's program order, names optional,
/// each with engine, async window and barrier; edges with kinds and flags,
/// parallel edges between one pair being *parts* of one dependency (SPEC §2).
/// No string hashing and no renumbering when the caller's order already is
/// program order: finish() only validates it.
///
/// What happens when the order is not program order (an edge goes backward):
/// finish() refuses with `ErrorCode::NotProgramOrder`, index = the first such
/// edge (in add_edge() call order). A caller that wants its graph reordered
/// instead calls finish_renumbered(), which computes the same program order
/// as make_program_order() (Kahn's algorithm taking the ready node with the
/// smallest id first, so an order that already is topological is kept) and
/// reports the mapping.
///
/// Errors are `depreduce::Status` values (depreduce/status.hpp); nothing on
/// this path throws except std::bad_alloc when memory runs out. The builder
/// keeps its capacity across clear(), so building one graph per basic block
/// or scheduling region allocates only while the regions grow.
///
/// Example (a 3-instruction, 2-engine graph; docs/vendoring.md):
///   GraphBuilder b;
///   b.clear(/*num_engines=*/2);
///   NodeId load = b.add_node({.engine = 0});
///   NodeId mul  = b.add_node({.engine = 1});
///   NodeId st   = b.add_node({.engine = 0});
///   b.add_edge(load, mul, Kind::Flow);
///   b.add_edge(mul, st, Kind::Flow);
///   b.add_edge(load, st, Kind::Output); // implied by load -> st on engine 0
///   Graph g;
///   if (Status s = b.finish(g); !s.ok()) report(s.message());
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_GRAPH_BUILDER_HPP
#define DEPREDUCE_GRAPH_BUILDER_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/kinds.hpp"
#include "depreduce/status.hpp"

namespace depreduce {

/// What a node is, for GraphBuilder::add_node() (SPEC §2, §3.2).
struct NodeSpec {
  Engine engine = kNoEngine;      ///< Engine in [0, num_engines), or kNoEngine.
  std::uint32_t async_window = 0; ///< 0 sync, w >= 1 async window, kAsyncInfinite.
  bool barrier = false;           ///< Waits for everything earlier on its engine.
  friend bool operator==(const NodeSpec&, const NodeSpec&) = default;
};

/// One edge as the caller added it (before parts are merged).
struct BuilderEdge {
  NodeId src = 0;
  NodeId dst = 0;
  KindSet kinds;                  ///< Empty = unlabelled (a C edge).
  FlagSet flags = FlagSet::wait();
  friend bool operator==(const BuilderEdge&, const BuilderEdge&) = default;
};

/// Builds a Graph from integer ids in program order (SPEC §2), reusing its
/// memory across graphs.
///
/// Not thread-safe; one builder per thread. Cheap to keep around: it holds
/// the current graph's nodes and edges (12 bytes each) and the names
/// given, nothing else.
class GraphBuilder {
public:
  GraphBuilder() = default;

  /// Starts a new graph with \p num_engines engines (0..kMaxEngines; checked
  /// by finish()). Keeps the capacity of every internal array. Cost: O(1).
  void clear(std::uint32_t num_engines = 0) noexcept;

  /// Appends a node; returns its id: 0, 1, 2, ... in call order, which is the
  /// caller's program order. Engine and window are checked by finish().
  /// Cost: amortised O(1), no allocation once capacity is reached.
  NodeId add_node(NodeSpec spec = {});
  /// add_node() that also gives the node a name, used in error messages and
  /// kept in the finished Graph's `Node::name`. Names are stored only when
  /// given (a graph where no node has a name stores none); nodes without a
  /// name in a graph where some have one get their id as name ("7") in the
  /// Graph. Duplicate names are reported by finish() (DuplicateName).
  /// Cost: amortised O(|name|).
  NodeId add_node(NodeSpec spec, std::string_view name);

  /// Appends an edge \p src -> \p dst. Several edges between one pair are the
  /// *parts* of one dependency, merged by finish() exactly as
  /// make_program_order() merges them (SPEC §2: the pair demands the
  /// strongest relation a WAIT part demands; parts without WAIT order
  /// nothing; kinds and flags are unions). \p src == \p dst is a self-loop:
  /// kept in Graph::self_loops, never a path (SPEC §9). Ids are checked by
  /// finish(), so an edge may name a node not yet added.
  /// Cost: amortised O(1).
  void add_edge(NodeId src, NodeId dst, KindSet kinds = {}, FlagSet flags = FlagSet::wait());

  /// Nodes and edges added so far.
  std::uint32_t num_nodes() const noexcept { return static_cast<std::uint32_t>(nodes_.size()); }
  std::uint32_t num_edges() const noexcept { return static_cast<std::uint32_t>(edges_.size()); }
  std::uint32_t num_engines() const noexcept { return num_engines_; }
  const std::vector<NodeSpec>& nodes() const noexcept { return nodes_; }
  const std::vector<BuilderEdge>& edges() const noexcept { return edges_; }
  /// True if some node was given a name.
  bool has_names() const noexcept { return !name_of_.empty(); }
  /// The name of node \p v ("" if it has none). Precondition: v < num_nodes().
  std::string_view name(NodeId v) const noexcept;

  /// Checks the graph added so far without building anything: the checks of
  /// finish(), in its order. \returns Status::success() or the first problem
  /// (see finish()). Cost: O(n + m) (plus O(total name length) with names).
  Status validate() const;

  /// Writes the canonical Graph (graph.hpp invariants) into \p out, reusing
  /// \p out's vectors. Node v of the builder is node v of \p out (no
  /// renumbering); edges are merged and sorted by (src, dst); engine
  /// positions assigned; self-loops moved to `self_loops`. Nodes carry
  /// `input_index` = id, `line` = 0; edges `input_index` = the position of
  /// their first part in add_edge() order. The result equals
  /// make_program_order() of the equivalent InputGraph (names "0".."n-1"
  /// where no name was given).
  ///
  /// \returns Status::success(), or (checked in this order, the first found):
  ///  - BadArgument, index 0: num_engines > kMaxEngines;
  ///  - EngineOutOfRange, index = node id: engine >= num_engines (and not
  ///    kNoEngine);
  ///  - DuplicateName, index = the later node's id;
  ///  - NodeOutOfRange, index = edge index (add_edge() order): an endpoint
  ///    >= num_nodes();
  ///  - NotProgramOrder, index = edge index: the first edge with src > dst
  ///    (use finish_renumbered() to have the graph put in program order).
  ///  On error \p out is left in a valid but unspecified state.
  /// Cost: O(n + m) time (two counting passes, no comparison sort), O(n + m)
  /// memory in \p out plus the builder's reused scratch.
  Status finish(Graph& out);

  /// finish() for a caller whose node order may not be program order: the
  /// nodes are put in program order first (make_program_order()'s rule:
  /// Kahn's algorithm, ready node of smallest id first, so an order that is
  /// already topological is kept and the call costs what finish() costs).
  /// \p program_order_of (if given) receives, per builder id, its id in
  /// \p out. Errors as finish(), except that a backward edge is not one;
  /// a cycle is `Cycle`, index = an edge on the cycle, the message naming
  /// the nodes of one cycle in order. Cost: O(n log n + m).
  Status finish_renumbered(Graph& out, std::vector<NodeId>* program_order_of = nullptr);

private:
  friend class Reducer;
  std::string node_label(NodeId v) const;

  std::uint32_t num_engines_ = 0;
  std::vector<NodeSpec> nodes_;
  std::vector<BuilderEdge> edges_;
  // Names, only when some node has one: name_of_[v] = [begin, end) in names_
  // (empty range = no name). name_of_ is shorter than nodes_ for nodes added
  // before the first name and after the last one.
  std::string names_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> name_of_;
  // Scratch reused by finish().
  std::vector<std::uint32_t> count_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> order2_;
};

} // namespace depreduce

#endif // DEPREDUCE_GRAPH_BUILDER_HPP
