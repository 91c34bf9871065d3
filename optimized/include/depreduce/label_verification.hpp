//===- depreduce/label_verification.hpp - Edge labels vs accesses -*- C++ -*-===//
///
/// \file
/// Label verification of SPEC §5: walrus `verifyAntiDependence`, which
/// recomputes the expected EdgeKind of a surviving edge from the accesses of
/// its two ends and prints "Inconsistent dependence labeling on:" when the
/// edge's label disagrees.
///
/// Part of the `depreduce::builder` target. Twin:
/// depreduce/reference/label_verification.hpp.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_LABEL_VERIFICATION_HPP
#define DEPREDUCE_LABEL_VERIFICATION_HPP

#include <string>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce {

/// One edge whose labelled data kinds differ from its computed kinds.
struct LabelMismatch {
  NodeId src = 0;
  NodeId dst = 0;
  KindSet computed; ///< Computed kinds of (src, dst), SPEC §5; may be empty.
  KindSet labeled;  ///< The edge's kinds without ORDERED; may be empty.
  friend bool operator==(const LabelMismatch&, const LabelMismatch&) = default;
};

/// Checks every explicit edge of \p g (`g.edges`, whatever its flags) whose
/// kinds are non-empty: its labelled data kinds (kinds & FLOW|ANTI|OUTPUT;
/// ORDERED ignored) must equal the computed kinds of the pair (SPEC §5, see
/// computed_kinds()). Unlabelled edges (no kinds at all) are not checked, and
/// neither are self-loops (no pair p before c). An ORDERED-only edge is
/// checked: its labelled data kinds are empty, so it is reported iff its ends
/// conflict. Pairs that conflict but have no edge are the race check's
/// business, not this one's.
///
/// Algorithm: computed_kinds(g) once, then a merge join with the sorted edges.
/// \returns the mismatches sorted by (src, dst); empty for a built graph.
/// Cost: computed_kinds(g) plus O(m + d).
/// \throws nothing but std::bad_alloc. \p g must keep the Graph invariants
///   (edges sorted by (src, dst), as make_program_order() leaves them).
std::vector<LabelMismatch> verify_labels(const Graph& g);

/// The report line of \p m, exactly
/// `Inconsistent dependence labeling on: P -> C computed: KINDS labeled: KINDS`
/// with P, C the node names and KINDS as depreduce::to_string(KindSet)
/// ("flow|anti"), or `none` for an empty set. No trailing newline. Cost: O(1).
/// \throws nothing but std::bad_alloc (an id outside \p g prints as `#<id>`).
std::string format_label_mismatch(const Graph& g, const LabelMismatch& m);

/// "none" for an empty set, depreduce::to_string(kinds) otherwise.
std::string kinds_or_none(KindSet kinds);

/// The name of node \p v of \p g, or `#<v>` if \p v is not a node of \p g.
std::string node_name(const Graph& g, NodeId v);

} // namespace depreduce

#endif // DEPREDUCE_LABEL_VERIFICATION_HPP
