//===- depreduce/graph.hpp - The dependency graph model -------*- C++ -*-===//
///
/// \file
/// The one graph model every part of depreduce works on (SPEC §2).
///
/// Two value types:
///  - `InputGraph`: what a reader produced, in input order. Nodes are in the
///    order they were first seen; edges are listed as written (parallel edges,
///    self-loops and even cycles are allowed here). Every node and edge carries
///    the source line it came from so later checks can name it.
///  - `Graph`: the checked, canonical form every algorithm takes. Nodes are
///    numbered 0..n-1 in *program order* (a topological order of the edges
///    that is stable with respect to input order); parallel edges are merged;
///    self-loops are set aside; engine positions are assigned.
///
/// `make_program_order()` turns the first into the second.
///
/// No I/O happens here: this header is part of the vendorable core.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_GRAPH_HPP
#define DEPREDUCE_GRAPH_HPP

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "depreduce/kinds.hpp"

namespace depreduce {

/// Index of a node: a position in program order for `Graph`, a position in
/// input order for `InputGraph`.
using NodeId = std::uint32_t;

/// Engine index in [0, Graph::num_engines), or `kNoEngine`.
using Engine = std::uint32_t;
inline constexpr Engine kNoEngine = std::numeric_limits<Engine>::max();

/// Largest engine count a graph may declare (walrus graphs use 8 =
/// numDataPathEngines; the library does not hard-code 8).
inline constexpr std::uint32_t kMaxEngines = 64;

/// Asynchronous window of an instruction, in engine positions: 0 means
/// synchronous (completes before the next instruction of its engine starts),
/// w >= 1 means its slot is reused w positions later (SPEC §3.2), and
/// `kAsyncInfinite` means it completes only through explicit edges or barriers.
inline constexpr std::uint32_t kAsyncInfinite = std::numeric_limits<std::uint32_t>::max();

/// Attributes kept verbatim from the input (DOT attributes, JSON fields...),
/// in the order they were first seen. Keys are unique within one list.
///
/// A sequence of (key, value) pairs with the part of std::vector's interface
/// the project uses (iteration, size, emplace_back, erase, comparison), one
/// pointer wide and null while empty: most nodes and edges carry no attribute
/// outside the model fields, and an Edge exists once per input edge, so the
/// 24 bytes of a std::vector would be half of a 48-byte Edge. A list that
/// holds something costs one more allocation than a vector (its vector). Iterators are pointers; like std::vector's they are
/// invalidated by anything that adds or removes a pair.
class AttrList {
public:
  using value_type = std::pair<std::string, std::string>;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = value_type&;
  using const_reference = const value_type&;
  using iterator = value_type*;
  using const_iterator = const value_type*;

  AttrList() noexcept = default;
  AttrList(std::initializer_list<value_type> pairs)
      : items_(pairs.size() ? std::make_unique<std::vector<value_type>>(pairs) : nullptr) {}
  AttrList(const AttrList& other)
      : items_(other.empty() ? nullptr : std::make_unique<std::vector<value_type>>(*other.items_)) {}
  AttrList(AttrList&&) noexcept = default;
  AttrList& operator=(const AttrList& other) {
    if (this != &other) *this = AttrList(other);
    return *this;
  }
  AttrList& operator=(AttrList&&) noexcept = default;
  ~AttrList() = default;

  bool empty() const noexcept { return !items_ || items_->empty(); }
  size_type size() const noexcept { return items_ ? items_->size() : 0; }
  iterator begin() noexcept { return items_ ? items_->data() : nullptr; }
  iterator end() noexcept { return items_ ? items_->data() + items_->size() : nullptr; }
  const_iterator begin() const noexcept { return items_ ? items_->data() : nullptr; }
  const_iterator end() const noexcept { return items_ ? items_->data() + items_->size() : nullptr; }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  value_type& operator[](size_type i) { return (*items_)[i]; }
  const value_type& operator[](size_type i) const { return (*items_)[i]; }
  value_type& front() { return items_->front(); }
  const value_type& front() const { return items_->front(); }
  value_type& back() { return items_->back(); }
  const value_type& back() const { return items_->back(); }

  template <class... Args>
  value_type& emplace_back(Args&&... args) {
    return list().emplace_back(std::forward<Args>(args)...);
  }
  void push_back(value_type pair) { list().push_back(std::move(pair)); }
  void reserve(size_type n) {
    if (n) list().reserve(n);
  }
  /// Removes the pair at \p pos; returns the position after it.
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  /// Removes [first, last); returns the position after the last removed.
  iterator erase(const_iterator first, const_iterator last) {
    if (first == last) return begin() + (first - cbegin());
    const auto at = items_->begin() + (first - cbegin());
    return items_->data() + (items_->erase(at, at + (last - first)) - items_->begin());
  }
  void clear() noexcept { items_.reset(); }
  /// std::erase_if for an AttrList (found by argument-dependent lookup):
  /// removes the pairs \p pred accepts, keeps the others' order; returns how
  /// many went.
  template <class Pred>
  friend size_type erase_if(AttrList& list, Pred pred) {
    return list.items_ ? std::erase_if(*list.items_, pred) : 0;
  }

  friend bool operator==(const AttrList& a, const AttrList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend auto operator<=>(const AttrList& a, const AttrList& b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  std::vector<value_type>& list() {
    if (!items_) items_ = std::make_unique<std::vector<value_type>>();
    return *items_;
  }
  std::unique_ptr<std::vector<value_type>> items_; ///< null = empty
};

/// Returns the value of \p key in \p attrs, or nullptr.
const std::string* find_attr(const AttrList& attrs, const std::string& key) noexcept;
/// Sets \p key to \p value in \p attrs (replacing an existing value).
void set_attr(AttrList& attrs, const std::string& key, std::string value);

/// A half-open byte range `space:[lo,hi)` (SPEC §2, walrus accesses).
struct ByteRange {
  std::string space;    ///< Named storage: "sbuf", "psum", "dram", ...
  std::uint64_t lo = 0; ///< First byte.
  std::uint64_t hi = 0; ///< One past the last byte; lo <= hi.
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

/// A node: an instruction or a task.
struct Node { // 112 bytes: `line` fills what was padding after `barrier`
  std::string name;             ///< Unique, kept from the input.
  Engine engine = kNoEngine;    ///< Engine or kNoEngine.
  std::uint32_t async_window = 0; ///< 0 sync, w >= 1 async, kAsyncInfinite.
  bool barrier = false;         ///< Waits for everything earlier on its engine.
  std::uint32_t line = 0;       ///< Source line (0 = unknown).
  AttrList attrs;               ///< Other attributes, verbatim.
  std::vector<ByteRange> reads; ///< Optional accesses (SPEC §5).
  std::vector<ByteRange> writes;
  std::uint32_t input_index = 0; ///< Position in input order.
  std::uint32_t engine_position = 0; ///< Index among the nodes of its engine, in program order (Graph only).
  friend bool operator==(const Node&, const Node&) = default;
};

/// An edge p -> c: one dependency between a pair of nodes.
///
/// In an InputGraph an Edge is one edge as written. In a Graph it is the merge
/// of every edge the input wrote for the pair (its *parts*, SPEC §2), and the
/// merge must not change what the pair demands. `kinds` and `flags` are the
/// union of the parts' (labels, lifetime); the two part fields below keep what
/// a union loses. Their defaults describe a single edge, so an Edge built by
/// hand means what it says; make_program_order() sets them, normalised (both
/// cleared when no part carries WAIT; `unlabelled_wait_part` only when some
/// WAIT part is labelled), so merged edges compare with ==.
///
/// What the pair orders follows from its WAIT parts only (a part without WAIT
/// orders nothing): wait_kinds() and has_unlabelled_wait_part() below, and
/// from them is_completion_edge().
struct Edge { // 32 bytes: the two part fields sit in what was padding
  NodeId src = 0;
  NodeId dst = 0;
  KindSet kinds;                  ///< Union of the parts' kinds. Empty = unlabelled (orders as a C edge).
  FlagSet flags = FlagSet::wait(); ///< Union of the parts' flags. Default WAIT.
  /// Kinds that only parts without WAIT carried (labels that order nothing):
  /// `a -> b [kind=ordered]; a -> b [kind=flow, flags=retain]` merges to kinds
  /// FLOW|ORDERED with retain_only_kinds FLOW, an S edge. Subset of `kinds`.
  KindSet retain_only_kinds;
  /// Some WAIT part was unlabelled while another WAIT part was labelled:
  /// `a -> b; a -> b [kind=ordered]` merges to kinds ORDERED, a C edge.
  bool unlabelled_wait_part = false;
  AttrList attrs;                 ///< Other attributes, verbatim.
  std::uint32_t line = 0;         ///< Source line of the first occurrence.
  std::uint32_t input_index = 0;  ///< Position of the first occurrence in input order.
  friend bool operator==(const Edge&, const Edge&) = default;
};

/// A subgraph as written in the input (DOT `subgraph`/`{...}` blocks). Kept so
/// the writers can reproduce layout hints (`rank=same`) and so DOT clusters can
/// serve as scheduling units (SPEC §8). Members are node ids of the owning graph.
struct Subgraph {
  std::string name;               ///< Empty for anonymous `{...}` blocks.
  AttrList attrs;                 ///< Graph attributes set inside the block.
  std::vector<NodeId> nodes;      ///< Direct members (not those of children), in order.
  std::vector<Subgraph> children; ///< Nested subgraphs, in order.
  friend bool operator==(const Subgraph&, const Subgraph&) = default;
};

/// Header data shared by InputGraph and Graph.
struct GraphHeader {
  std::string file;              ///< File it was read from (for messages).
  std::string name;              ///< DOT graph id, workflow name...
  bool strict = false;           ///< DOT `strict digraph`.
  std::uint32_t num_engines = 0; ///< 0 when no node has an engine.
  AttrList graph_attrs;          ///< Graph attributes (`graph [...]`, `size=...`).
  AttrList node_defaults;        ///< `node [...]` at top level.
  AttrList edge_defaults;        ///< `edge [...]` at top level.
  std::vector<Subgraph> subgraphs;
  friend bool operator==(const GraphHeader&, const GraphHeader&) = default;
};

/// What a reader produces: nodes in input order, edges as written.
struct InputGraph : GraphHeader {
  std::vector<Node> nodes; ///< Input order; `input_index` == position.
  std::vector<Edge> edges; ///< As written; src/dst index `nodes`.
};

/// The checked canonical graph (SPEC §2).
///
/// Invariants (established by make_program_order()):
///  - `nodes` are in program order: every edge has src < dst;
///  - node names are unique;
///  - `edges` hold no self-loop and no parallel edge, sorted by (src, dst);
///  - `engine_position` is the index among the nodes of the same engine;
///  - every engine is < num_engines.
struct Graph : GraphHeader {
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Edge> self_loops; ///< Kept untouched for output; never a path.
  friend bool operator==(const Graph&, const Graph&) = default;
};

/// Turns reader output into the canonical Graph.
///
/// Program order is the topological order that takes, at every step, the
/// ready node that came first in input order (Kahn's algorithm with a min-heap),
/// so an input already in topological order keeps its order exactly.
/// Parallel edges are merged into one Edge whose demand is that of its parts
/// (SPEC §2): C if some WAIT part is unlabelled or has a kind other than
/// ORDERED, else S; parts without WAIT order nothing; kinds and flags are the
/// unions, and `retain_only_kinds` / `unlabelled_wait_part` keep the rest
/// (see Edge). For every other attribute the first occurrence's value is kept,
/// except `label`, whose distinct values are joined with "|" (docs/formats.md).
/// Self-loops move to `self_loops`; one warning per graph is appended to
/// \p warnings (if given), as Graphviz `tred` does.
///
/// Cost: O(n log n + m) time (the heap only when some edge goes backward in
/// input order; the merge's (src, dst) order is one radix pass over the
/// targets, no comparison sort), O(n + m) memory.
///
/// \throws InputError naming the file, a line and the problem for: duplicate
///   node names, edges naming unknown nodes, engines >= num_engines or
///   num_engines > kMaxEngines, and cycles (the message lists the nodes of one
///   cycle in order). The first problem is reported, in the order that
///   reference::program_order() documents (its twin, which states the same
///   rules and messages for itself).
Graph make_program_order(InputGraph input, std::vector<std::string>* warnings = nullptr);

/// Graph without engines from plain edge pairs over nodes named "0".."n-1".
/// For tests, properties and fuzzers. Same checks as make_program_order().
/// The result is in program order, so its NodeIds are *positions*, not your
/// numbers: for the edges {2->1, 1->0} node "2" gets id 0. Map ids back
/// through `g.nodes[id].name` (or `input_index`), as for any Graph.
Graph graph_from_edges(std::uint32_t n, const std::vector<std::pair<NodeId, NodeId>>& edges);

/// True if \p e orders anything: one of its parts carries WAIT.
inline bool is_wait(const Edge& e) noexcept { return e.flags.has(Flag::Wait); }

/// The union of the kinds of \p e's WAIT parts (empty if they are all
/// unlabelled). Meaningful for WAIT edges only. Cost: O(1).
inline KindSet wait_kinds(const Edge& e) noexcept {
  return KindSet::from_bits(static_cast<std::uint8_t>(e.kinds.bits() & ~e.retain_only_kinds.bits()));
}

/// True if one of \p e's WAIT parts is unlabelled (it then orders as a C
/// edge, SPEC §3.1). Meaningful for WAIT edges only. Cost: O(1).
inline bool has_unlabelled_wait_part(const Edge& e) noexcept {
  return e.unlabelled_wait_part || wait_kinds(e).empty();
}

/// Relation an explicit WAIT edge imposes (SPEC §3.1, §2): completed-before (C)
/// if one of its WAIT parts is unlabelled or has a kind other than ORDERED,
/// issued-before (S) if every WAIT part is ORDERED only. Cost: O(1).
inline bool is_completion_edge(const Edge& e) noexcept {
  return has_unlabelled_wait_part(e) || wait_kinds(e).intersects(KindSet::data());
}

/// One edge as it would be written so that reading it back, and merging,
/// gives \p e again: a single edge where that suffices, else its parts.
struct EdgePart {
  KindSet kinds;
  FlagSet flags;
  bool first = false; ///< The part that carries `attrs` (exactly one).
  friend bool operator==(const EdgePart&, const EdgePart&) = default;
};

/// Up to three EdgeParts, iterable (no allocation).
struct EdgeParts {
  std::array<EdgePart, 3> part{};
  std::uint8_t count = 0;
  const EdgePart* begin() const noexcept { return part.data(); }
  const EdgePart* end() const noexcept { return part.data() + count; }
  std::size_t size() const noexcept { return count; }
};

/// True if \p e is written as it is: one part {kinds, flags}, which reads
/// back as \p e (not a WAIT edge, or one whose parts all wait and carry its
/// kinds). parts_to_write() decides by it; writers call it to skip that call
/// for the usual edge. Cost: O(1).
inline bool written_as_one_part(const Edge& e) noexcept {
  return !is_wait(e) || (e.retain_only_kinds.empty() && !e.unlabelled_wait_part);
}

/// The parts to write for \p e (1 to 3): one part {kinds, flags} when that
/// spelling means what \p e means; otherwise an unlabelled WAIT part (if
/// has_unlabelled_wait_part() beside labelled ones), a WAIT part with
/// wait_kinds(), and a part without WAIT carrying retain_only_kinds. Merging
/// them as make_program_order() does gives back \p e's kinds, flags and
/// part fields. Used by every writer. Cost: O(1).
EdgeParts parts_to_write(const Edge& e) noexcept;

} // namespace depreduce

#endif // DEPREDUCE_GRAPH_HPP
