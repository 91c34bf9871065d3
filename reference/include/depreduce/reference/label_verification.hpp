//===- depreduce/reference/label_verification.hpp - Oracle ------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Twin of depreduce/label_verification.hpp:
/// every labelled edge is compared with the kinds the reference computes for
/// its own pair, one edge at a time.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_LABEL_VERIFICATION_HPP
#define DEPREDUCE_REFERENCE_LABEL_VERIFICATION_HPP

#include <vector>

#include "depreduce/label_verification.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::verify_labels() on the merged Graph, on
/// the input as read: a pair's labels are the union of its parts' kinds.
/// Node ids are program-order positions. Cost: one reference::computed_kinds()
/// plus a linear lookup per pair. \throws InputError as reference::program_order().
std::vector<LabelMismatch> verify_labels(const InputGraph& input);

/// verify_labels(as_input(g)).
std::vector<LabelMismatch> verify_labels(const Graph& g);

} // namespace depreduce::reference

#endif
