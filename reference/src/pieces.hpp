//===- reference/src/pieces.hpp - TEST ORACLE: bytes as pieces -------------===//
#ifndef DEPREDUCE_REFERENCE_SRC_PIECES_HPP
#define DEPREDUCE_REFERENCE_SRC_PIECES_HPP

#include <cstddef>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce::reference {

/// The pieces of a graph's byte spaces (see dependence_builder.hpp) and which
/// node reads/writes which piece.
struct Pieces {
  explicit Pieces(const Graph& g);
  std::vector<ByteRange> pieces;          ///< Sorted by (space, lo); disjoint.
  std::vector<std::vector<bool>> reads;   ///< reads[v][x]: node v reads piece x.
  std::vector<std::vector<bool>> writes;  ///< writes[v][x]: node v writes piece x.

  /// Some node strictly between p and c writes piece x.
  bool written_between(NodeId p, NodeId c, std::size_t x) const;
  /// The kinds piece x gives the pair p < c (SPEC §5).
  KindSet kinds_on(NodeId p, NodeId c, std::size_t x) const;
  /// The pieces \p xs (ascending) as canonical ranges.
  std::vector<ByteRange> merged(const std::vector<std::size_t>& xs) const;
};

} // namespace depreduce::reference

#endif
