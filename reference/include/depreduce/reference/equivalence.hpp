//===- depreduce/reference/equivalence.hpp - Oracle for equivalent() -*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Twin of depreduce/equivalence.hpp: both
/// relations of both graphs for every pair of nodes (reference::happens_before
/// on the input as read), compared pair by pair through the node names.
/// States its own rules: what counts (every WAIT edge, whatever the kinds
/// filter: SPEC §4 counts the edges outside a filter as paths, and a filter
/// only selects what a reduction may remove), and what differs per pair.
/// Cost: O(n * (n + m)) time and O(n^2) bits per graph.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_EQUIVALENCE_HPP
#define DEPREDUCE_REFERENCE_EQUIVALENCE_HPP

#include "depreduce/equivalence.hpp"
#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::equivalent(), on the inputs as read; but
/// `differences` lists *every* ordered pair (p, c) of names on which the
/// relations differ: with level(x) = 2 if p C c in x, 1 if only p S c, 0
/// otherwise, the graph of higher level has the pair (`in_first` iff it is
/// a), `relation` is C for level 2, S for level 1. Ids are positions in the
/// oracle's program order of the graph that has it.
/// \throws InputError as program_order(), and if the node names differ.
Equivalence equivalent(const InputGraph& a, const InputGraph& b, const EquivalenceOptions& options = {});

/// equivalent(as_input(a), as_input(b), options).
Equivalence equivalent(const Graph& a, const Graph& b, const EquivalenceOptions& options = {});

} // namespace depreduce::reference

#endif
