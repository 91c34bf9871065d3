//===- depreduce/transitive_reduction.hpp - Exact reduction ---*- C++ -*-===//
///
/// \file
/// Exact transitive reduction of explicit WAIT edges under the two
/// happens-before relations of SPEC §3 (completed-before C, issued-before S),
/// with implicit engine order, asynchronous windows and barriers.
///
/// Mirrors walrus `dep_reduction` (`applyReorderReduction` for FLOW,
/// `applyAntiDependenceReduction` for ANTI/OUTPUT), in the fixed two-pass form
/// of SPEC §4: per consumer, first `via` = union of the closures of *all* its
/// incoming edges (explicit and implicit), then every candidate found in `via`
/// is redundant. The result does not depend on edge enumeration order.
///
/// The same functions, with the same signatures, exist in
/// `depreduce::reference` (reference/, Boost.Graph); the two must agree.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TRANSITIVE_REDUCTION_HPP
#define DEPREDUCE_TRANSITIVE_REDUCTION_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce {

/// Which explicit edges a reduction may remove. Edges outside the filter are
/// kept but still count as paths.
///
/// An explicit WAIT edge is a candidate iff every one of its WAIT parts is
/// (SPEC §2; a single edge is its only part): a part with kinds K is admitted
/// iff K is non-empty and K ⊆ `kinds`, or K is empty (unlabelled) and
/// `unlabelled` is true. Parts without WAIT are never removed and do not count.
struct KindFilter {
  KindSet kinds = KindSet::all();
  bool unlabelled = true;

  /// walrus applyReorderReduction: FLOW edges only.
  static KindFilter reorder() { return {KindSet(Kind::Flow), false}; }
  /// walrus applyAntiDependenceReduction: ANTI/OUTPUT edges only.
  static KindFilter anti_dependence() { return {KindSet(Kind::Anti) | Kind::Output, false}; }

  /// True iff WAIT parts whose kinds union to \p wait_kinds, one of them
  /// unlabelled iff \p unlabelled_part, are all admitted. Cost: O(1).
  bool admits(KindSet wait_kinds, bool unlabelled_part) const noexcept {
    return (wait_kinds.bits() & ~kinds.bits()) == 0 && (!unlabelled_part || unlabelled);
  }
  /// True iff the WAIT edge \p e is a candidate. Cost: O(1).
  bool admits(const Edge& e) const noexcept { return admits(wait_kinds(e), has_unlabelled_wait_part(e)); }
  friend bool operator==(const KindFilter&, const KindFilter&) = default;
};

/// How redundancy is tested.
enum class ReductionMode : std::uint8_t {
  /// Two-pass, exact, order-independent (SPEC §4). The default.
  Exact,
  /// Replica of the seed's one-pass loop: explicit predecessors folded in
  /// ascending program order, each tested after merging its own closure
  /// against what was merged so far (implicit engine edges are merged first).
  /// Safe (never drops a needed edge) but not minimal; for comparison only.
  Shipped,
};

/// What reduce_input() (depreduce/condense.hpp) does with a cyclic input.
enum class CycleMode : std::uint8_t {
  /// A cycle is bad input: InputError naming the nodes of one (the default).
  Error,
  /// Reduce exactly across the strongly connected components: edges inside a
  /// component are kept, redundant edges between components removed.
  Condense,
};

/// Options of reduce(). Defaults: exact mode, every edge a candidate.
/// `cycles` matters only to reduce_input(), which takes the input as read; a
/// Graph is acyclic by construction.
struct ReduceOptions {
  KindFilter filter{};
  ReductionMode mode = ReductionMode::Exact;
  CycleMode cycles = CycleMode::Error;
  friend bool operator==(const ReduceOptions&, const ReduceOptions&) = default;
};

/// An explicit edge a reduction made redundant. Node ids are positions in
/// the Graph's program order (Graph::nodes), not the input's numbering: use
/// `g.nodes[src].name` or `.input_index` to name them.
struct RemovedEdge {
  NodeId src = 0;
  NodeId dst = 0;
  KindSet kinds;   ///< The edge's kinds.
  FlagSet flags;   ///< The edge's flags before the reduction.
  /// True if the edge carried RETAIN and survives as a RETAIN-only edge;
  /// false if it was WAIT-only and disappeared.
  bool demoted_to_retain = false;
  /// Its index in the reduced graph's `edges` (which are sorted by (src, dst)).
  std::uint32_t edge = 0;
  friend bool operator==(const RemovedEdge&, const RemovedEdge&) = default;
};

/// The result of a reduction: what changed, in canonical order, so two
/// results compare with ==. Every edge of the graph not listed is kept as it
/// is; kept_edges() and apply() give the reduced edge list and graph. (The
/// result is proportional to what the reduction removed, not to the graph:
/// a caller editing its own IR needs no copy of the edges it keeps.)
struct Reduction {
  /// The redundant edges, sorted by (src, dst), i.e. by `edge`.
  std::vector<RemovedEdge> removed;
  friend bool operator==(const Reduction&, const Reduction&) = default;
};

/// Counters a caller may ask reduce() for, and an optional progress hook.
struct ReduceStats {
  /// Input: if set, called with (consumers processed, total nodes) about every
  /// 65,536 nodes and once at the end. For progress bars; must not throw.
  std::function<void(std::size_t done, std::size_t total)> progress;
  std::size_t candidates = 0;       ///< Explicit WAIT edges admitted by the filter.
  std::size_t peak_live_closures = 0; ///< Max closures held at once (live frontier).
  std::size_t peak_closure_bytes = 0; ///< Max bytes held by live closures (lanes and Roaring sizes).
  /// Closures that kept at least one lane in sparse (Roaring) form: the keys
  /// outgrew the dense 512-bit window above the lane's prefix.
  std::size_t sparse_closures = 0;
};

/// Removes every redundant explicit WAIT edge of \p g (SPEC §4).
///
/// An explicit WAIT edge p -> c admitted by `options.filter` is redundant iff
/// its relation (C, or S when its only kind is ORDERED) between p and c still
/// holds without it, implicit engine edges included. RETAIN-only edges are
/// never touched and never a path. Self-loops are not in `g.edges` and play no part.
///
/// Optimized form: SyncState of two banks (A = completed-before, B =
/// issued-before), one lane per engine per bank indexed by engine position
/// (plus one indexed by node id for nodes without engine); a closure is
/// released when its node's last consumer has been processed (walrus
/// `successorCounter`), so memory follows the live frontier. A lane is the
/// walrus Roaring bitmap with its two common shapes made cheap: a dense
/// prefix [0, p) (walrus's add_range_closed run) plus a 512-bit window of
/// recent keys above it; a lane whose keys reach beyond the window turns into
/// prefix + CRoaring bitmap (see docs/model.md, "SyncState lanes").
///
/// \returns the removed (and demoted) edges, canonical order; kept_edges()
///   or apply() turn them into the reduced edge list or graph.
/// Cost: O(n + m) time with O(m) lane unions (word-wise ORs, or Roaring
/// unions for sparse lanes) and O(m) lookups; memory proportional to the
/// closures of the live frontier.
/// \throws nothing on a Graph built by make_program_order(); std::bad_alloc on
///   exhaustion.
Reduction reduce(const Graph& g, const ReduceOptions& options = {}, ReduceStats* stats = nullptr);

/// The kind of one hop of a witness path.
enum class HopKind : std::uint8_t {
  ExplicitCompletion, ///< An explicit WAIT C edge (end(from) -> start(to)).
  ExplicitIssue,      ///< An explicit WAIT S edge, ORDERED only (start -> start).
  EngineIssue,        ///< Implicit: `to` is the next instruction on `from`'s engine (S).
  EngineCompletion,   ///< Implicit C: sync next, async window slot reuse, or barrier.
};

/// One hop of a witness path.
struct Hop {
  NodeId from = 0;
  NodeId to = 0;
  HopKind kind = HopKind::ExplicitCompletion;
  friend bool operator==(const Hop&, const Hop&) = default;
};

/// True for the hop kinds that impose completed-before (C).
inline bool is_completion_hop(HopKind k) noexcept {
  return k == HopKind::ExplicitCompletion || k == HopKind::EngineCompletion;
}

/// The other path that makes an edge redundant: hops from the edge's source to
/// its destination, not using the edge itself. Its relation is that of its
/// first hop (C;x = C, S;x = S, SPEC §3.1).
struct Witness {
  std::vector<Hop> hops;
  friend bool operator==(const Witness&, const Witness&) = default;
};

/// Finds a witness for the explicit edge \p src -> \p dst of \p g: a path of
/// WAIT edges and implicit engine edges, other than that edge, that implies the
/// edge's relation. Works for any explicit edge (kept or not); edges that are
/// not WAIT, or not redundant, have none.
///
/// \returns the witness (fewest hops among those found by a backward
///   breadth-first search over nodes between src and dst in program order), or
///   std::nullopt if the edge is not redundant or does not exist.
/// It is PathFinder(g).witness(src, dst) (depreduce/paths.hpp), the one
/// witness search of the library.
/// Cost: O(n + m) time and memory per call.
std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst);

/// True iff \p w is a valid witness for the explicit edge \p src -> \p dst:
/// it starts at src, ends at dst, every hop exists in \p g (explicit WAIT
/// edges other than src -> dst, or implicit engine edges of SPEC §3.2), and its
/// relation implies the edge's: is_path() with the edge's relation, the edge
/// itself excluded. Used by tests and properties for both twins.
/// Cost: O(hops log m).
bool is_witness(const Graph& g, NodeId src, NodeId dst, const Witness& w);

/// The two happens-before relations of SPEC §3.1.
enum class Relation : std::uint8_t {
  CompletedBefore, ///< p C c: end(p) precedes start(c).
  IssuedBefore,    ///< p S c: start(p) precedes start(c).
};

/// One question "does `before` <relation> `after`?" (node ids of the graph).
struct HappensBeforeQuery {
  NodeId before = 0;
  NodeId after = 0;
  Relation relation = Relation::CompletedBefore;
  friend bool operator==(const HappensBeforeQuery&, const HappensBeforeQuery&) = default;
};

/// Answers \p queries on \p g (explicit WAIT edges and implicit engine edges,
/// SPEC §3) with the same SyncState sweep as reduce(): each answer is one
/// Roaring lookup in the SyncState of `after`. Used by the race check.
/// Queries with before >= after, or naming nodes out of range, answer false.
/// \returns one bool per query, in query order.
/// Cost: one sweep (as reduce()) plus O(q log q) to sort the queries.
std::vector<bool> happens_before(const Graph& g, const std::vector<HappensBeforeQuery>& queries);

/// The edges of \p g after the reduction \p r of \p g, sorted by (src, dst):
/// kept edges unchanged (attributes included), demoted edges with flags ==
/// RETAIN, WAIT-only redundant edges left out.
/// Cost: O(m) time, one copy of each kept edge.
/// \throws std::invalid_argument if \p r names an edge index or endpoints
///   that \p g does not have (a Reduction of another graph).
std::vector<Edge> kept_edges(const Graph& g, const Reduction& r);

/// \p g with its edges replaced by kept_edges(g, r) (header, nodes,
/// self-loops kept). Cost and errors as kept_edges().
Graph apply(const Graph& g, const Reduction& r);
/// apply() that reuses \p g: its kept edges are moved down in place, nothing
/// is copied (a whole-process run holds one graph, not two). Errors as
/// kept_edges(), thrown before \p g is touched. Cost: O(m).
Graph apply(Graph&& g, const Reduction& r);

} // namespace depreduce

#endif // DEPREDUCE_TRANSITIVE_REDUCTION_HPP
