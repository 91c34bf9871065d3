//===- reference/src/label_verification.cpp - TEST ORACLE ------------------===//
#include "depreduce/reference/label_verification.hpp"

#include <map>

#include "depreduce/reference/dependence_builder.hpp"
#include "depreduce/reference/race_check.hpp"
#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::reference {

std::vector<LabelMismatch> verify_labels(const InputGraph& input) {
  const Graph nodes = nodes_in_program_order(input);
  const std::vector<NodeId> order = program_order(input);
  std::vector<NodeId> position(input.nodes.size());
  for (NodeId p = 0; p < order.size(); ++p) position[order[p]] = p;
  // A pair's labels are the union of its parts' kinds (SPEC §2); self-loops
  // are not dependences.
  std::map<std::pair<NodeId, NodeId>, KindSet> labels; // sorted by (src, dst): so is the result
  for (const Edge& e : input.edges)
    if (e.src != e.dst) labels[{position[e.src], position[e.dst]}] |= e.kinds;
  const std::vector<Dependence> deps = reference::computed_kinds(nodes);
  std::vector<LabelMismatch> out;
  for (const auto& [ends, kinds] : labels) {
    if (kinds.empty()) continue; // unlabelled: not checked
    KindSet computed;
    for (const Dependence& d : deps)
      if (d.src == ends.first && d.dst == ends.second) computed = d.kinds;
    KindSet labeled;
    for (Kind k : {Kind::Flow, Kind::Anti, Kind::Output})
      if (kinds.has(k)) labeled |= k;
    if (computed != labeled) out.push_back({ends.first, ends.second, computed, labeled});
  }
  return out;
}

std::vector<LabelMismatch> verify_labels(const Graph& g) { return verify_labels(as_input(g)); }

} // namespace depreduce::reference
