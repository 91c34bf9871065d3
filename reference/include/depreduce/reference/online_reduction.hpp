//===- depreduce/reference/online_reduction.hpp - Oracle -------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. Boost.Graph twin of
/// depreduce/online_reduction.hpp (SPEC §4, "Online form"), written to be
/// read: it keeps every node and every edge part it was given, and answers
/// each question by building the event graph of SPEC §3.1 for the graph so
/// far (a start and an end event per node, start(v) -> end(v); one event edge
/// per WAIT part: end -> start for a part that is unlabelled or has a kind
/// other than ORDERED, start -> start for an ORDERED-only part; the implicit
/// engine edges of §3.2) and searching it breadth-first. It states every rule
/// itself (parts, the kinds filter, engine order) and calls nothing of the
/// optimized side's meaning.
///
/// Same interface and errors as depreduce::OnlineReducer, so props/ and fuzz/
/// drive both with one code path; it also checks the same protocol (retired
/// nodes, declared successor counts) so their Status codes can be compared.
/// Memory: everything added (it never forgets). Cost: O(n + m) per implied()
/// and per source in add_edges().
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_ONLINE_REDUCTION_HPP
#define DEPREDUCE_REFERENCE_ONLINE_REDUCTION_HPP

#include <span>
#include <vector>

#include "depreduce/online_reduction.hpp"

namespace depreduce::reference {

/// The oracle online reducer (file comment); members as depreduce::OnlineReducer's.
class OnlineReducer {
public:
  OnlineReducer() = default;
  Status reset(const OnlineOptions& options);
  Status add_node(const OnlineNodeSpec& spec, NodeId* id = nullptr);
  Status implied(NodeId p, NodeId c, KindSet kinds, bool* out) const;
  Status implied(NodeId p, NodeId c, Relation relation, bool* out) const;
  Status add_edges(NodeId c, std::span<const OnlineEdge> edges, std::vector<RemovedEdge>& removed);
  Status retire(NodeId v);
  NodeId size() const noexcept { return static_cast<NodeId>(nodes_.size()); }
  const OnlineOptions& options() const noexcept { return options_; }

private:
  struct Added {
    OnlineNodeSpec spec;
    std::vector<OnlineEdge> parts; ///< its incoming edges as given (after add_edges)
    std::uint32_t consumers = 0;   ///< WAIT consumers added so far
    bool finished = false;
    bool retired = false;
  };
  /// Whether \p p reaches \p c in the event graph of nodes 0..c, with the
  /// explicit parts of every finished node, except those of the pair
  /// (\p skip_src, c) if \p skip_src != c. \p issue: from start(p), else end(p).
  bool reaches(NodeId p, NodeId c, bool issue, NodeId skip_src) const;

  OnlineOptions options_{};
  std::vector<Added> nodes_;
  bool open_ = false;
};

} // namespace depreduce::reference

#endif // DEPREDUCE_REFERENCE_ONLINE_REDUCTION_HPP
