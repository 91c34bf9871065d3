//===- label_verification.cpp - walrus verifyAntiDependence ---------------===//
#include "depreduce/label_verification.hpp"

#include <tuple>

#include "depreduce/dependence_builder.hpp"

namespace depreduce {

std::vector<LabelMismatch> verify_labels(const Graph& g) {
  const std::vector<Dependence> deps = computed_kinds(g);
  std::vector<LabelMismatch> out;
  // Both lists are sorted by (src, dst): a merge join.
  std::size_t d = 0;
  for (const Edge& e : g.edges) {
    if (e.kinds.empty()) continue; // unlabelled: orders as a C edge, not checked
    while (d < deps.size() && std::tie(deps[d].src, deps[d].dst) < std::tie(e.src, e.dst)) ++d;
    const KindSet computed =
        d < deps.size() && deps[d].src == e.src && deps[d].dst == e.dst ? deps[d].kinds : KindSet{};
    const KindSet labeled = e.kinds & KindSet::data();
    if (computed != labeled) out.push_back({e.src, e.dst, computed, labeled});
  }
  return out;
}

std::string kinds_or_none(KindSet kinds) { return kinds.empty() ? "none" : to_string(kinds); }

std::string node_name(const Graph& g, NodeId v) {
  if (v < g.nodes.size()) return g.nodes[v].name;
  std::string text = "#"; // appended step by step: GCC 12 -O3 -Wrestrict false positive on "#" + s
  text += std::to_string(v);
  return text;
}

std::string format_label_mismatch(const Graph& g, const LabelMismatch& m) {
  return "Inconsistent dependence labeling on: " + node_name(g, m.src) + " -> " + node_name(g, m.dst) +
         " computed: " + kinds_or_none(m.computed) + " labeled: " + kinds_or_none(m.labeled);
}

} // namespace depreduce
