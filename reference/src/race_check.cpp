//===- reference/src/race_check.cpp - TEST ORACLE --------------------------===//
#include "depreduce/reference/race_check.hpp"

#include "depreduce/reference/dependence_builder.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "pieces.hpp"

namespace depreduce::reference {

Graph nodes_in_program_order(const InputGraph& input) {
  Graph g;
  static_cast<GraphHeader&>(g) = input;
  for (NodeId i : program_order(input)) g.nodes.push_back(input.nodes[i]);
  return g;
}

std::vector<Race> find_races(const InputGraph& input) {
  const HappensBefore hb = reference::happens_before(input);
  std::vector<Race> out;
  for (const Dependence& d : reference::computed_kinds(nodes_in_program_order(input), {.bytes = true}))
    if (!hb.completed[d.src][d.dst]) out.push_back({d.src, d.dst, d.kinds, d.bytes});
  return out;
}

std::vector<Race> find_races(const Graph& g) { return find_races(as_input(g)); }

bool race_free_by_all_conflicts(const Graph& g) {
  const HappensBefore hb = reference::happens_before(g);
  const Pieces pieces(g);
  for (NodeId p = 0; p < g.nodes.size(); ++p)
    for (NodeId c = p + 1; c < g.nodes.size(); ++c)
      for (std::size_t x = 0; x < pieces.pieces.size(); ++x) {
        bool conflict = (pieces.writes[p][x] && (pieces.reads[c][x] || pieces.writes[c][x])) ||
                        (pieces.reads[p][x] && pieces.writes[c][x]);
        if (conflict && !hb.completed[p][c]) return false;
      }
  return true;
}

} // namespace depreduce::reference
