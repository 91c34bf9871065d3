//===- depreduce/testing/show.hpp - Readable counterexamples ---*- C++ -*-===//
///
/// \file
/// RapidCheck `showValue` and GoogleTest `PrintTo` for the model's types, so a
/// failing property prints its counterexample instead of `<???>`.
/// Graphs print as a small DOT-like text (generators.hpp: nodes with engine,
/// position, async window, barrier; edges with kinds and flags); results
/// print their entries one per line. Found by argument-dependent lookup:
/// include this header before using the types in a property.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_SHOW_HPP
#define DEPREDUCE_TESTING_SHOW_HPP

#include <iosfwd>

#include "depreduce/condense.hpp"
#include "depreduce/equivalence.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {
void showValue(const KindFilter& f, std::ostream& os);
void showValue(const ReduceOptions& o, std::ostream& os);
void showValue(const RemovedEdge& r, std::ostream& os);
void showValue(const Reduction& r, std::ostream& os);
void showValue(const Hop& h, std::ostream& os);
void showValue(const Witness& w, std::ostream& os);
void showValue(const HappensBeforeQuery& q, std::ostream& os);
void showValue(const EquivalenceOptions& o, std::ostream& os);
void showValue(const RelationDifference& d, std::ostream& os);
void showValue(const Equivalence& e, std::ostream& os);
void showValue(const InputReduction& r, std::ostream& os);
void PrintTo(const KindFilter& f, std::ostream* os);
void PrintTo(const ReduceOptions& o, std::ostream* os);
void PrintTo(const RemovedEdge& r, std::ostream* os);
void PrintTo(const Reduction& r, std::ostream* os);
void PrintTo(const Witness& w, std::ostream* os);
void PrintTo(const RelationDifference& d, std::ostream* os);
void PrintTo(const Equivalence& e, std::ostream* os);
} // namespace depreduce

#endif
