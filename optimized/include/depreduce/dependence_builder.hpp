//===- depreduce/dependence_builder.hpp - Edges from accesses --*- C++ -*-===//
///
/// \file
/// The access-based dependence builder of SPEC §5: walrus `dep_opt`, whose
/// headline helper `build_flow_deps::constructBIRGraph` throws the stale edge
/// set away and derives a correct one from what every instruction reads and
/// writes, in program order.
///
/// **Computed kinds** of a pair p before c (node ids, p < c in program order):
///   - FLOW   if some byte x is written by p and read by c,
///   - OUTPUT if some byte x is written by p and by c,
///   - ANTI   if some byte x is read by p and written by c,
/// each with no writer of x strictly between p and c. A node that reads and
/// writes the same byte (read-modify-write, e.g. PSUM accumulation) is both a
/// writer and a reader "since the last write" of that byte: the next writer
/// gets OUTPUT|ANTI from it (docs/builder.md).
///
/// Bytes are per named space (`ByteRange::space`); ranges are half-open, so
/// `[0,64)` and `[64,128)` touch but do not conflict, `[0,64)` and `[63,65)`
/// share byte 63. Empty ranges (`lo == hi`) touch nothing.
///
/// Part of the `depreduce::builder` target (optimized/CMakeLists.txt), which
/// uses header-only Boost.ICL interval maps; the core `depreduce` library
/// stays Boost-free. Twin: depreduce/reference/dependence_builder.hpp.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_DEPENDENCE_BUILDER_HPP
#define DEPREDUCE_DEPENDENCE_BUILDER_HPP

#include <string>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce {

/// One pair p -> c with non-empty computed kinds.
struct Dependence {
  NodeId src = 0;  ///< p, the earlier node (program order).
  NodeId dst = 0;  ///< c, the later node.
  KindSet kinds;   ///< Non-empty subset of FLOW|ANTI|OUTPUT.
  /// The bytes that give rise to the kinds (the union over the three kinds of
  /// the bytes x of the definition above), canonical: sorted by (space, lo),
  /// overlapping and touching ranges merged, no empty range. Filled only when
  /// DependenceOptions::bytes is set; empty otherwise.
  std::vector<ByteRange> bytes;
  friend bool operator==(const Dependence&, const Dependence&) = default;
};

/// Options of computed_kinds().
struct DependenceOptions {
  /// Also return the conflicting bytes of every pair (costs memory
  /// proportional to the number of distinct pieces per pair).
  bool bytes = false;
  friend bool operator==(const DependenceOptions&, const DependenceOptions&) = default;
};

/// The computed kinds of every pair of \p g with non-empty kinds (SPEC §5).
///
/// Program order is `g`'s node order (make_program_order(): input order,
/// constrained by whatever edges the input had). The existing edges of \p g
/// play no part.
///
/// Algorithm (walrus `constructBIRGraph`): one sweep in program order over a
/// Boost.ICL `split_interval_map` per space whose segments hold the last
/// writer and the sorted readers since that write. For node c: every read
/// segment yields FLOW from its writer; every written segment yields OUTPUT
/// from its writer and ANTI from its readers; then c's writes overwrite their
/// segments (`set`: writer c, no readers) and c's reads add c to theirs
/// (`+=`). Kinds of one pair are OR-ed.
///
/// \returns the pairs sorted by (src, dst).
/// Cost: O(sum over accesses of (log s + segments touched + readers listed))
/// time, s = live segments of the space, plus O(h log h) per node to group its
/// h hits by source and O(n + d) to order the d pairs (a bucket pass by
/// source); memory O(segments + readers since last write + d).
/// \throws nothing for any Graph (every ByteRange with lo > hi is treated as
///   empty; readers reject those); std::bad_alloc on exhaustion.
std::vector<Dependence> computed_kinds(const Graph& g, const DependenceOptions& options = {});

/// walrus dep_opt `constructBIRGraph`: \p g with its edges replaced by exactly
/// one edge p -> c per pair of computed_kinds(g), labelled with the computed
/// kinds, flags WAIT, no attributes, line 0, `input_index` = position in the
/// canonical (src, dst) order. All existing edges, self-loops included, are
/// dropped: the builder re-derives the graph, it does not patch it. Header,
/// nodes (program order, names, accesses) and subgraphs are kept.
///
/// The result verifies clean (verify_labels() finds nothing) and is race-free
/// (find_races() finds nothing): every conflicting pair is a direct C edge.
/// Cost: computed_kinds(g) plus O(n + d) to copy.
/// \throws nothing but std::bad_alloc (as computed_kinds()).
Graph build_dependences(const Graph& g);

/// "sbuf:[0,64),psum:[0,8)": the byte ranges as the DOT `reads=`/`writes=`
/// attributes spell them (decimal numbers), "" for an empty list. Cost: O(size).
std::string to_string(const std::vector<ByteRange>& ranges);

/// \p ranges in canonical form: empty ranges dropped, sorted by (space, lo),
/// overlapping and touching ranges of one space merged. Cost: O(r log r).
std::vector<ByteRange> canonical_ranges(std::vector<ByteRange> ranges);

} // namespace depreduce

#endif // DEPREDUCE_DEPENDENCE_BUILDER_HPP
