//===- reference/src/label_verification.cpp - TEST ORACLE ------------------===//
#include "depreduce/reference/label_verification.hpp"

#include "depreduce/reference/dependence_builder.hpp"

namespace depreduce::reference {

std::vector<LabelMismatch> verify_labels(const Graph& g) {
  const std::vector<Dependence> deps = reference::computed_kinds(g);
  std::vector<LabelMismatch> out;
  for (const Edge& e : g.edges) { // sorted by (src, dst): so is the result
    if (e.kinds.empty()) continue; // unlabelled: not checked
    KindSet computed;
    for (const Dependence& d : deps)
      if (d.src == e.src && d.dst == e.dst) computed = d.kinds;
    KindSet labeled;
    for (Kind k : {Kind::Flow, Kind::Anti, Kind::Output})
      if (e.kinds.has(k)) labeled |= k;
    if (computed != labeled) out.push_back({e.src, e.dst, computed, labeled});
  }
  return out;
}

} // namespace depreduce::reference
