//===- depreduce/reducer.hpp - Reusable exact reducer -----------*- C++ -*-===//
///
/// \file
/// `Reducer`: the exact reduction of SPEC §4 (walrus `dep_reduction`, fixed
/// two-pass form) as an object that keeps its scratch memory across calls, so
/// that reducing many small graphs (one per basic block or scheduling region)
/// costs what each graph costs, not what setting up costs.
///
/// Results are those of depreduce::reduce() (transitive_reduction.hpp): the
/// same Reduction, compared with ==, for every graph and options. How it gets
/// there depends on the size of the graph:
///  - up to kDenseMaxNodes nodes: a dense sweep over bit-matrix closures held
///    in reused scratch (row v = the nodes that completed-before v, bank A,
///    and issued-before v, bank B; SPEC §3.3 with engine positions replaced
///    by node ids), implicit engine edges, async windows and barriers
///    included. O(n + m) row operations of ceil(n / 64) words each;
///  - above that: the SyncState sweep of reduce() (lanes per engine, closures
///    released at their last consumer, memory following the live frontier).
///
/// Thread safety: a Reducer is used by one thread at a time; different
/// Reducer objects share nothing and may run concurrently.
/// Errors are `Status` values (depreduce/status.hpp); these entry points do
/// not throw, except std::bad_alloc when memory runs out.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REDUCER_HPP
#define DEPREDUCE_REDUCER_HPP

#include <cstdint>
#include <memory>
#include <span>

#include "depreduce/graph.hpp"
#include "depreduce/graph_builder.hpp"
#include "depreduce/status.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {

/// Exact reduction (SPEC §4) with scratch memory kept across calls.
///
/// Example, one region at a time:
///   Reducer r;  GraphBuilder b;  Reduction red;
///   for (const Region& region : regions) {
///     b.clear();
///     ... b.add_node(); b.add_edge(p, c, Kind::Flow); ...
///     if (Status s = r.reduce(b, red); !s.ok()) return s;
///     for (const RemovedEdge& e : red.removed) drop(e.src, e.dst);
///   }
class Reducer {
public:
  /// Graphs with at most this many nodes take the dense bit-matrix path.
  static constexpr std::uint32_t kDenseMaxNodes = 1024;

  Reducer();
  ~Reducer();
  Reducer(Reducer&&) noexcept;
  Reducer& operator=(Reducer&&) noexcept;
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  /// Reduces \p g into \p out (its vector's capacity is reused); the result
  /// is == to depreduce::reduce(g, options).
  ///
  /// \p g must satisfy the Graph invariants (graph.hpp; a Graph from
  /// make_program_order() or GraphBuilder::finish() does). The cheap ones
  /// are checked:
  /// \returns Status::success(), or BadArgument with index 0 if
  ///   g.num_engines > kMaxEngines, index = the node id whose engine is >=
  ///   g.num_engines, or index = the edge whose endpoints are out of range or
  ///   not src < dst (checked in that order) - \p out is then empty.
  /// Options: ReductionMode::Shipped and graphs above kDenseMaxNodes go to
  ///   depreduce::reduce() itself.
  /// Cost: O(n + m) row operations of ceil(n/64) words on the dense path,
  ///   reduce()'s cost above it; no allocation once the scratch has grown to
  ///   the graph.
  Status reduce(const Graph& g, Reduction& out, const ReduceOptions& options = {});

  /// Reduces the graph \p b holds, without materialising a Graph: the result
  /// is == to depreduce::reduce() of the Graph b.finish() would build (node
  /// ids are the builder's ids; `RemovedEdge::edge` indexes that Graph's
  /// merged, (src, dst)-sorted edges).
  /// \returns the errors of GraphBuilder::finish(), same codes and indices
  ///   (a backward edge is NotProgramOrder: renumber with
  ///   GraphBuilder::finish_renumbered() and call reduce(const Graph&)).
  /// Cost: as reduce(const Graph&) plus one counting sort of the edges.
  Status reduce(const GraphBuilder& b, Reduction& out, const ReduceOptions& options = {});

  /// The array entry (used by the Python module and by compilers that hold
  /// plain dependence lists): plain WAIT edges `src[i] -> dst[i]`, no
  /// engines, no kinds (every edge a C edge), node ids 0..n-1 in any order.
  ///
  /// If every edge goes forward (src < dst) the ids are used as they are;
  /// otherwise the nodes are put in a topological order internally (Kahn,
  /// smallest id first) and the verdicts come back in the caller's ids and
  /// edge order.
  ///
  /// On success `keep[i]` = 1 iff edge i survives the exact reduction (SPEC
  /// §4), else 0. Duplicate pairs are parts of one dependency: the first
  /// occurrence (lowest i) carries the pair's verdict, every later duplicate
  /// gets 0 (it is removed as a redundant part). Self-loops (src == dst) get
  /// 1 and play no part (SPEC §9).
  ///
  /// \returns Status::success(), or
  ///  - BadArgument, index 0: src, dst and keep differ in length;
  ///  - NodeOutOfRange, index = the first edge naming an id >= n;
  ///  - Cycle, index = an edge on a cycle, the message naming the nodes of
  ///    that cycle in order.
  ///  On error \p keep is unspecified.
  /// Cost: O(n + m) row operations of ceil(n/64) words for n <=
  ///   kDenseMaxNodes (reduce()'s sweep above), plus O(n log n) for the
  ///   topological order when some edge goes backward; no allocation once the
  ///   scratch has grown to the graph.
  Status reduce_edges(std::uint32_t n, std::span<const std::uint32_t> src, std::span<const std::uint32_t> dst,
                      std::span<std::uint8_t> keep);

  /// Frees the scratch memory (the next call grows it again).
  void release_memory() noexcept;

  /// Implementation detail: the scratch memory (reducer.cpp).
  struct Scratch;

private:
  std::unique_ptr<Scratch> scratch_;
};

} // namespace depreduce

#endif // DEPREDUCE_REDUCER_HPP
