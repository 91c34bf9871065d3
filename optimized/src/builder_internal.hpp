//===- builder_internal.hpp - Shared between the builder's sources ------===//
#ifndef DEPREDUCE_SRC_BUILDER_INTERNAL_HPP
#define DEPREDUCE_SRC_BUILDER_INTERNAL_HPP

#include <functional>
#include <vector>

#include "depreduce/dependence_builder.hpp"

namespace depreduce::detail {

/// computed_kinds() recording the bytes only of the pairs \p want accepts
/// (the race check asks for the racing pairs only).
std::vector<Dependence> computed_kinds_with_bytes_of(const Graph& g,
                                                     const std::function<bool(NodeId, NodeId)>& want);

} // namespace depreduce::detail

#endif
