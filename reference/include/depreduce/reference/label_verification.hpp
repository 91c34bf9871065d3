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

/// Same contract as depreduce::verify_labels(). Cost: one
/// reference::computed_kinds() plus a linear lookup per edge.
std::vector<LabelMismatch> verify_labels(const Graph& g);

} // namespace depreduce::reference

#endif
