//===- depreduce/race_check.hpp - Conflicting accesses must be ordered -*- C++ -*-===//
///
/// \file
/// The race check of SPEC §5: every pair p before c with non-empty computed
/// kinds must satisfy p C c (completed-before, SPEC §3: explicit WAIT edges
/// and the implicit engine order, async windows and barriers). This is the
/// proof obligation a reduction must keep: a race-free graph stays race-free
/// under reduce(), whatever the kinds filter.
///
/// Checking only the computed pairs gives the same verdict as checking every
/// pair that touches a common byte with at least one write: the writers in
/// between chain such a pair through computed pairs, and C;C = C.
///
/// Part of the `depreduce::builder` target. Twin:
/// depreduce/reference/race_check.hpp.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_RACE_CHECK_HPP
#define DEPREDUCE_RACE_CHECK_HPP

#include <string>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce {

/// A pair with non-empty computed kinds that is not ordered by p C c.
struct Race {
  NodeId src = 0;  ///< p, earlier in program order.
  NodeId dst = 0;  ///< c.
  KindSet kinds;   ///< The pair's computed kinds (non-empty).
  /// The bytes the pair conflicts on, canonical (see Dependence::bytes).
  std::vector<ByteRange> bytes;
  friend bool operator==(const Race&, const Race&) = default;
};

/// Every racing pair of \p g (see above).
///
/// Algorithm: computed_kinds(g) without bytes; one happens_before(g, queries)
/// sweep (the SyncState of reduce(), bank A) answers "p C c?" for all pairs;
/// only when some pair races, a second computed_kinds() pass records the bytes
/// of the racing pairs.
/// \returns the races sorted by (src, dst); empty when race-free.
/// Cost: computed_kinds(g) (twice if racy) plus one SyncState sweep (O(m)
/// Roaring unions) plus O(d).
/// \throws nothing but std::bad_alloc on a Graph from make_program_order().
std::vector<Race> find_races(const Graph& g);

/// The report line of \p r, exactly
/// `Race on: P -> C computed: KINDS bytes: space:[lo,hi),...`
/// (P, C node names; KINDS as depreduce::to_string(KindSet)). No trailing
/// newline. Cost: O(size of the byte list). An id outside \p g prints as `#<id>`.
std::string format_race(const Graph& g, const Race& r);

} // namespace depreduce

#endif // DEPREDUCE_RACE_CHECK_HPP
