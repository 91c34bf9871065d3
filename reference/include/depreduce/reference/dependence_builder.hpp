//===- depreduce/reference/dependence_builder.hpp - Oracle ------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. The definition of SPEC §5 spelled out
/// pair by pair, twin of depreduce/dependence_builder.hpp (same signatures,
/// same contracts), written to be read rather than to be fast.
///
/// Bytes are handled through *pieces*: per space, the sorted distinct ends of
/// every range cut the line into pieces [b_i, b_{i+1}); every byte of a piece
/// is in exactly the same ranges, so "some byte x" becomes "some piece x".
/// Then, for every pair p < c and every piece x:
///   FLOW   if x ∈ W(p) ∩ R(c),
///   OUTPUT if x ∈ W(p) ∩ W(c),
///   ANTI   if x ∈ R(p) ∩ W(c),
/// each only if no node q with p < q < c writes x.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_DEPENDENCE_BUILDER_HPP
#define DEPREDUCE_REFERENCE_DEPENDENCE_BUILDER_HPP

#include <vector>

#include "depreduce/dependence_builder.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::computed_kinds(). Cost: O(n^3 * P) time for P
/// pieces, O(n * P) memory: for the test sizes only.
std::vector<Dependence> computed_kinds(const Graph& g, const DependenceOptions& options = {});

/// Same contract as depreduce::build_dependences(), from the pairs above.
Graph build_dependences(const Graph& g);

} // namespace depreduce::reference

#endif
