//===- depreduce/online_reduction.hpp - Online exact reduction --*- C++ -*-===//
///
/// \file
/// The online form of the exact reduction (SPEC §4, "Online form"): nodes
/// arrive in program order, and for the node being added (the *open* node c)
/// the caller may ask `implied(p, c)` - does the relation an edge p -> c would
/// carry already hold through what was added so far, implicit engine order
/// (SPEC §3.2) included - and then adds c's incoming edges at once, getting
/// back exactly the edges reduce() removes for c on the whole graph, whatever
/// order the edges are listed in. This is the loop a list scheduler runs
/// (LLVM's ScheduleDAGTopologicalSort: `IsReachable`, then `AddPred`).
///
/// Mirrors walrus `dep_reduction` in the two-pass form of SPEC §4, one
/// consumer at a time: the closures (SyncState: bank A = completed-before,
/// bank B = issued-before, one lane per engine indexed by engine position,
/// plus one for nodes without engine indexed by node id) are those reduce()
/// builds, and a closure is released when the node can have no further
/// consumer (walrus `successorCounter`): the caller retires it, or declares
/// its successor count up front.
///
/// Protocol, per node in program order:
/// \code
///   depreduce::OnlineReducer r;                       // or r.reset({.num_engines = 2})
///   depreduce::NodeId c;
///   r.add_node({.engine = 0}, &c);                    // c is open
///   bool skip = false;
///   r.implied(p, c, depreduce::KindSet(depreduce::Kind::Flow), &skip);   // optional queries
///   std::vector<depreduce::RemovedEdge> removed;
///   r.add_edges(c, edges, removed);                   // c is finished; removed: reduce()'s verdict
///   r.retire(p);                                      // once p's last consumer was added
/// \endcode
///
/// **Memory bound.** Kept per node ever added: 16 bytes (its lane and key,
/// its closure handle, its remaining successor count, state bits). Kept per
/// *live* node: one closure, 2 * (num_engines + 1) lanes of 80 bytes in a
/// pool (dense prefix + 512-bit window; a lane whose keys spread beyond the
/// window also holds a Roaring bitmap, as in reduce()). A node is live from
/// add_node() until it is retired (retire(), or its declared successor count
/// reached 0) - and, if it has an engine, until the next node of its engine
/// was added, since that node's implicit edges read its closure (one closure
/// per engine at most: the engine lane's tail). Per engine, a heap of the
/// asynchronous nodes whose window has not yet reached the node they complete
/// into (8 bytes each). So live memory is O(n * 16 bytes + (live frontier +
/// engines) * closure), not O(n^2). Retired closures are reused.
///
/// Every entry point returns a Status (depreduce/status.hpp) and throws
/// nothing but std::bad_alloc (which terminates in a -fno-exceptions build):
/// usable from code built with -fno-exceptions -fno-rtti. On an error nothing
/// changed. Not thread-safe.
///
/// The test oracle with the same interface is
/// depreduce/reference/online_reduction.hpp (plain Boost.Graph reachability
/// on the graph so far).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_ONLINE_REDUCTION_HPP
#define DEPREDUCE_ONLINE_REDUCTION_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/kinds.hpp"
#include "depreduce/status.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {

/// Successor count meaning "not declared: the caller retires the node".
inline constexpr std::uint32_t kUnknownSuccessors = ~std::uint32_t{0};

/// One node as the online reducer takes it (SPEC §2).
struct OnlineNodeSpec {
  Engine engine = kNoEngine;      ///< Engine in [0, num_engines), or kNoEngine.
  std::uint32_t async_window = 0; ///< 0 sync, w >= 1 async, kAsyncInfinite.
  bool barrier = false;           ///< Waits for everything earlier on its engine.
  /// How many later nodes will list this one as the source of a WAIT edge
  /// (parallel parts to one consumer count once). When that many consumers
  /// were added the node retires itself; one more is an error. Default:
  /// undeclared (retire() it, or keep it live).
  std::uint32_t successors = kUnknownSuccessors;
};

/// One incoming edge (one *part*, SPEC §2) of the open node.
struct OnlineEdge {
  NodeId src = 0;                  ///< An earlier node (src == the open node: a self-loop, ignored).
  KindSet kinds;                   ///< Empty = unlabelled (orders as a C edge).
  FlagSet flags = FlagSet::wait(); ///< Only WAIT parts order anything.
};

/// Options of the online reducer.
struct OnlineOptions {
  std::uint32_t num_engines = 0; ///< Engines are 0 .. num_engines-1; at most kMaxEngines.
  KindFilter filter{};           ///< Which edges may be removed (as ReduceOptions::filter).
};

/// Online exact reducer (file comment). Keeps its memory across reset().
class OnlineReducer {
public:
  /// An empty reducer with default options (no engines, every edge a candidate).
  /// A moved-from reducer may only be destroyed or assigned to.
  OnlineReducer();
  ~OnlineReducer();
  OnlineReducer(OnlineReducer&&) noexcept;
  OnlineReducer& operator=(OnlineReducer&&) noexcept;
  OnlineReducer(const OnlineReducer&) = delete;
  OnlineReducer& operator=(const OnlineReducer&) = delete;

  /// Forgets every node and starts over with \p options, keeping the memory
  /// already allocated (one reducer per thread serves many regions).
  /// \returns EngineOutOfRange if num_engines > kMaxEngines (the reducer is
  ///   then reset with the previous options). Cost: O(live closures).
  Status reset(const OnlineOptions& options);

  /// Adds the next node in program order; it becomes the *open* node, whose
  /// implicit engine edges (SPEC §3.2: the previous node of its engine issues
  /// before it, and completes before it if synchronous; the node w positions
  /// back with async window w completes before it; a barrier waits for every
  /// earlier node of its engine) are in place at once. If the previous node
  /// is still open, it is finished first without explicit edges.
  /// \param [out] id its NodeId (= the number of nodes added before it); may be null.
  /// \returns EngineOutOfRange (index = the node's would-be id) for an engine
  ///   >= num_engines other than kNoEngine; NodeOutOfRange when 2^32 - 1
  ///   nodes were added. Cost: one closure union (the engine's previous
  ///   node), O(log a) per asynchronous completion landing here (a = pending
  ///   asynchronous nodes of the engine).
  Status add_node(const OnlineNodeSpec& spec, NodeId* id = nullptr);

  /// Whether the relation an edge \p p -> \p c with kinds \p kinds would carry
  /// (C, or S if \p kinds is ORDERED only: SPEC §3.1) already holds through the
  /// edges added so far. For the open node \p c that is its implicit edges
  /// and every finished node's edges (its own explicit edges are not added
  /// yet); for a finished, still live \p c, its explicit edges too. \p p may
  /// be retired. Writes the answer to \p *out.
  /// \returns NodeOutOfRange (index = \p c, or \p p) if a node was not added;
  ///   NotProgramOrder (index = \p p) if p >= c; BadState (index = \p c) if c is
  ///   retired; BadArgument if
  ///   \p out is null. Cost: one lane lookup (O(1) dense, Roaring sparse).
  Status implied(NodeId p, NodeId c, KindSet kinds, bool* out) const;
  /// implied() for a relation given directly.
  Status implied(NodeId p, NodeId c, Relation relation, bool* out) const;

  /// Adds the incoming edges of the open node \p c (each a part, SPEC §2:
  /// parts with one source are one dependency, demanding C if a WAIT part
  /// is unlabelled or has a kind other than ORDERED, else S; parts without
  /// WAIT order nothing) and finishes it. \p removed is cleared and gets
  /// exactly the edges reduce() on the whole graph removes with target c,
  /// one per source, sorted by source: `src`, `dst` = c, `kinds` and
  /// `flags` the unions over the parts, `demoted_to_retain` if a part
  /// carries RETAIN, and `edge` = the index in \p edges of the pair's first
  /// part. The answer does not depend on the order of \p edges. Sources whose
  /// declared successor count reaches 0 retire.
  /// \returns BadState (index = \p c) if \p c is not the open node;
  ///   NotProgramOrder (index = position in \p edges) for a source > c;
  ///   BadState (index = position) for a WAIT part whose source is retired,
  ///   or one more consumer than a source declared. Nothing changes on an error.
  /// Cost: O(k log k) to group the k parts by source (insertion sort for
  ///   k <= 16), then as reduce() per consumer: one closure union per source
  ///   not already covered, one lookup per candidate.
  Status add_edges(NodeId c, std::span<const OnlineEdge> edges, std::vector<RemovedEdge>& removed);

  /// Releases \p v's closure (if it is its engine's last node so far, once the
  /// next node of the engine was added). Later WAIT edges from \p v are errors;
  /// implied(p = v, ...) still works.
  /// \returns NodeOutOfRange if \p v was not added; BadState if \p v is the open
  ///   node or already retired. Cost: O(1).
  Status retire(NodeId v);

  /// Nodes added so far (the next node's id).
  NodeId size() const noexcept;
  /// Closures held now, and the most held at once since reset() (the open
  /// node's included).
  std::size_t live_closures() const noexcept;
  std::size_t peak_live_closures() const noexcept;
  /// The options in force.
  const OnlineOptions& options() const noexcept;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace depreduce

#endif // DEPREDUCE_ONLINE_REDUCTION_HPP
