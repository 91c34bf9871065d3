//===- depreduce/reference/scheduling_units.hpp - Oracle ---------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Twin of depreduce/scheduling_units.hpp:
/// a plain recursive flatten. A body is its direct leaves and child units,
/// each placed by its first leaf in program order; flattening a body emits a
/// leaf, or recurses into a unit, in that order. Program order of the result
/// is chosen one node at a time: the first node in depth-first order whose
/// predecessors are all placed.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_SCHEDULING_UNITS_HPP
#define DEPREDUCE_REFERENCE_SCHEDULING_UNITS_HPP

#include <string>
#include <vector>

#include "depreduce/scheduling_units.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::expand_scheduling_units(). Cost: O(n^2 + n*m)
/// for the order, fine for the test sizes.
Graph expand_scheduling_units(const Graph& g, std::vector<std::string>* warnings = nullptr);

} // namespace depreduce::reference

#endif
