//===- depreduce/testing/raw_input.hpp - The pipeline against the oracle -*- C++ -*-===//
///
/// \file
/// The check behind every raw-input property, fuzz target and exhaustive
/// tier (SPEC §1: the twins share types, never meaning). The production path
/// reads an InputGraph through make_program_order() (program order, merging
/// of parallel parts, self-loops, engine positions) and then runs the
/// algorithms on the merged Graph; the oracle works on the InputGraph as read
/// and states every rule itself. Whatever the shared code decides wrongly
/// shows up as a difference here.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_RAW_INPUT_HPP
#define DEPREDUCE_TESTING_RAW_INPUT_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "depreduce/transitive_reduction.hpp"

namespace depreduce::testing {

/// Every kinds filter: the 16 subsets of {FLOW, ANTI, OUTPUT, ORDERED}, each
/// with unlabelled edges admitted and not (32 filters), KindFilter{} first.
const std::vector<KindFilter>& every_kind_filter();

/// What raw_input_difference() compares besides program order and reduce().
struct RawInputChecks {
  bool happens_before = true; ///< Both relations for every ordered pair.
  bool races = true;          ///< find_races() (needs reads/writes to say anything).
  bool labels = true;         ///< verify_labels().
  /// The reduced graph has the input's C and S relations, for the first
  /// `relations_kept_for` filters (all by default; each costs one oracle
  /// happens_before).
  std::size_t relations_kept_for = static_cast<std::size_t>(-1);
};

/// Compares the production path on \p input with the oracle on it:
///  - make_program_order(input) rejects iff reference::program_order(input)
///    does, and then with the same message (file, line and problem);
///  - the program orders agree (Graph::nodes[i].input_index);
///  - for each filter of \p filters, every registered implementation but the
///    reference (optimized, and any added with register_reduction_impl())
///    gives reference::reduce(input, filter);
///  - and, as \p checks asks, happens_before(), find_races(), verify_labels()
///    equal the oracle's on \p input, and the reduced graphs keep both
///    relations for every pair.
/// \returns "" if everything agrees, else the first difference, naming the
///   implementation and the filter. Cost: the oracle's O(n * (n + m)) once
///   (plus one happens_before per filter with relations_kept).
std::string raw_input_difference(const InputGraph& input, const std::vector<KindFilter>& filters,
                                 const RawInputChecks& checks = {});

/// "kinds=flow|anti unlabelled=no" for messages.
std::string describe(const KindFilter& filter);

} // namespace depreduce::testing

#endif
