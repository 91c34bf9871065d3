//===- depreduce/reference/transitive_reduction.hpp - Oracle ---*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Deliberately simple Boost.Graph twin of
/// depreduce/transitive_reduction.hpp (SPEC §3, §4), written to be read rather
/// than to be fast.
///
/// The oracle works from the input *as it was read* (an InputGraph: input
/// order, parallel edges, self-loops, unlabelled edges), and states every rule
/// itself: program order, what each edge (each *part* of a pair) demands, and
/// which edges the kinds filter admits. It calls nothing of the optimized
/// side's meaning (make_program_order, KindFilter::admits, is_completion_edge
/// ...), so a bug there cannot hide from the comparison (SPEC §1).
///
/// It builds the event graph of SPEC §3.1 (a start and an end event per node,
/// start(v) -> end(v); one event edge per WAIT part: end -> start for a part
/// that is unlabelled or has a kind other than ORDERED, start -> start for an
/// ORDERED-only part; the implicit engine edges of §3.2) and answers every
/// question as plain reachability on it.
///
/// Node ids in results are positions in the oracle's own program order
/// (program_order() below), which equals the production program order when both are
/// right: results of the twins then compare with ==.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_TRANSITIVE_REDUCTION_HPP
#define DEPREDUCE_REFERENCE_TRANSITIVE_REDUCTION_HPP

#include <optional>
#include <vector>

#include "depreduce/transitive_reduction.hpp"

namespace depreduce::reference {

/// Program order of SPEC §2 for \p input: the topological order of its edges
/// (self-loops ignored) that takes, at every step, the ready node first in
/// input order. Returns the input index of the node at each position.
/// \throws InputError (file of \p input), with make_program_order()'s
///   message for the first problem in this order: num_engines > kMaxEngines
///   (line 0); then node by node in input order, a name an earlier node has
///   (at the later node's line), an engine >= num_engines; then edge by edge,
///   an edge naming an unknown node; then a cycle (naming one, `cycle:
///   'a' -> 'b' -> 'a'`, at the line of the edge that closes it). The rules
///   and messages are written here again, not called: the differential
///   checks (testing::raw_input_difference) compare the two messages.
///   Cost: O(n * (n + m)).
std::vector<NodeId> program_order(const InputGraph& input);

/// \p g as input again: its nodes in order, each merged edge spelled as the
/// parts it stands for (SPEC §2: the WAIT parts carry the kinds outside
/// `retain_only_kinds`, plus an unlabelled one if `unlabelled_wait_part`; a
/// part without WAIT carries `retain_only_kinds`), self-loops kept. Its
/// program order is the identity, so ids are unchanged. Cost: O(n + m).
InputGraph as_input(const Graph& g);

/// Same contract as depreduce::reduce() on the merged Graph of \p input,
/// computed on \p input directly: a pair (all parallel edges between two
/// nodes) is a candidate iff it has a WAIT part and every WAIT part is
/// admitted (labelled: its kinds ⊆ filter.kinds; unlabelled: filter.unlabelled);
/// it is redundant iff its relation (C if some WAIT part demands C, else S)
/// holds in the event graph without any of its parts. `kinds` and `flags` of
/// a removed pair are the unions over its parts; `edge` is its index among the
/// pairs sorted by (src, dst) in program order. `stats` gets `candidates`.
/// Cost: O(n * (n + m)) for the all-pairs reachability plus O(m * deg).
/// \throws InputError as program_order().
Reduction reduce(const InputGraph& input, const ReduceOptions& options = {}, ReduceStats* stats = nullptr);

/// The graph reduce(input, ...) leaves, built from the input as read:
/// nodes in program_order(input) (engine positions numbered), one Edge per
/// pair stated by this oracle from its parts (SPEC §2: kinds and flags the
/// unions; `retain_only_kinds` the kinds only parts without WAIT carry;
/// `unlabelled_wait_part` when an unlabelled WAIT part meets a labelled one;
/// every other attribute's first value, distinct `label`s joined with '|'),
/// sorted by (src, dst), self-loops aside; then the pairs \p r removes are
/// dropped (or, demoted, keep RETAIN only). With an empty \p r it is the
/// merged Graph the production path must give. What `depreduce reduce --impl
/// reference` writes. Cost: program_order() plus O(m log m).
/// \throws InputError as program_order(); std::invalid_argument if \p r
///   names a pair the input does not have.
Graph apply(const InputGraph& input, const Reduction& r);

/// reduce(input, options[k]) for every k, with one all-pairs reachability
/// (redundancy does not depend on the filter; only candidacy does). If
/// \p candidates is given it gets the candidate count per options entry.
/// Cost: as one reduce() plus O(m * options.size()).
std::vector<Reduction> reduce_each(const InputGraph& input, const std::vector<ReduceOptions>& options,
                                   std::vector<std::size_t>* candidates = nullptr);

/// Same contract as depreduce::reduce(): reduce(as_input(g), ...).
Reduction reduce(const Graph& g, const ReduceOptions& options = {}, ReduceStats* stats = nullptr);

/// True iff the oracle admits a pair whose WAIT parts have \p part_kinds
/// (one entry per WAIT part; empty KindSet = unlabelled) under \p filter.
/// The kinds-filter rule, stated on its own. Cost: O(parts).
bool admitted(const std::vector<KindSet>& part_kinds, const KindFilter& filter);

/// Same contract as depreduce::find_witness(): a shortest path (in hops) in the
/// event graph without the edge (all of its parts), found by Boost's
/// breadth_first_search.
std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst);

/// Both happens-before relations of SPEC §3 for every pair of nodes:
/// `completed[p][c]` iff p C c, `issued[p][c]` iff p S c (p != c), computed as
/// reachability on the event graph. Indexed by program-order position.
/// Cost: O(n * (n + m)) time, O(n^2) bits.
struct HappensBefore {
  std::vector<std::vector<bool>> completed;
  std::vector<std::vector<bool>> issued;
  friend bool operator==(const HappensBefore&, const HappensBefore&) = default;
};
/// From the input as read. \throws InputError as program_order().
HappensBefore happens_before(const InputGraph& input);
/// happens_before(as_input(g)).
HappensBefore happens_before(const Graph& g);

/// Same contract as depreduce::happens_before(g, queries), answered from the
/// all-pairs relations above.
std::vector<bool> happens_before(const Graph& g, const std::vector<HappensBeforeQuery>& queries);

} // namespace depreduce::reference

#endif
