//===- reference/equivalence.cpp - TEST ORACLE ----------------------------===//
///
/// \file
/// THIS CODE IS A TEST ORACLE. Every pair, both relations, both graphs.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/equivalence.hpp"

#include <map>
#include <string>

#include "depreduce/error.hpp"

namespace depreduce::reference {
namespace {

/// \p input with its nodes listed in program order (the oracle's, of the
/// input as read: it is submission order), so the result's program order is
/// the identity. Every edge is kept: THE RULE of the kinds filter (SPEC §4)
/// is that it selects which edges a reduction may remove, and the edges
/// outside it still count as paths; the edges inside it count wherever they
/// are present. So every WAIT edge takes part in the relations whatever the
/// filter is, and the filter cannot change the answer.
InputGraph in_program_order(const InputGraph& input) {
  const std::vector<NodeId> order = program_order(input);
  std::vector<NodeId> position(order.size());
  for (NodeId p = 0; p < order.size(); ++p) position[order[p]] = p;
  InputGraph out = input;
  out.edges.clear();
  for (NodeId p = 0; p < order.size(); ++p) out.nodes[p] = input.nodes[order[p]];
  for (const Edge& e : input.edges) {
    Edge moved = e;
    moved.src = position[e.src];
    moved.dst = position[e.dst];
    out.edges.push_back(moved);
  }
  return out;
}

int level(const HappensBefore& hb, NodeId p, NodeId c) {
  if (hb.completed[p][c]) return 2;
  if (hb.issued[p][c]) return 1;
  return 0;
}

} // namespace

Equivalence equivalent(const InputGraph& a_in, const InputGraph& b_in, const EquivalenceOptions& /*options*/) {
  // The filter selects what a reduction may remove, never what counts (SPEC §4).
  const InputGraph a = in_program_order(a_in);
  const InputGraph b = in_program_order(b_in);
  const std::vector<NodeId> order_a = program_order(a), order_b = program_order(b);
  // Position of every name in each graph's program order.
  std::map<std::string, NodeId> pos_a, pos_b;
  for (NodeId p = 0; p < order_a.size(); ++p) pos_a[a.nodes[order_a[p]].name] = p;
  for (NodeId p = 0; p < order_b.size(); ++p) pos_b[b.nodes[order_b[p]].name] = p;
  for (const auto& [name, p] : pos_a)
    if (!pos_b.count(name)) throw InputError(b.file, 0, "no node named '" + name + "'");
  for (const auto& [name, p] : pos_b)
    if (!pos_a.count(name)) throw InputError(a.file, 0, "no node named '" + name + "'");

  const HappensBefore hb_a = happens_before(a), hb_b = happens_before(b);
  const std::size_t n = order_a.size();
  std::vector<NodeId> a_to_b(n);
  for (NodeId p = 0; p < n; ++p) a_to_b[p] = pos_b.at(a.nodes[order_a[p]].name);
  std::vector<NodeId> b_to_a(n);
  for (NodeId p = 0; p < n; ++p) b_to_a[a_to_b[p]] = p;

  Equivalence result;
  std::vector<RelationDifference> only_b;
  for (NodeId p = 0; p < n; ++p)
    for (NodeId c = 0; c < n; ++c) {
      if (p == c) continue;
      const int la = level(hb_a, p, c), lb = level(hb_b, a_to_b[p], a_to_b[c]);
      if (la > lb) result.differences.push_back({p, c, la == 2 ? Relation::CompletedBefore : Relation::IssuedBefore, true});
    }
  for (NodeId p = 0; p < n; ++p)
    for (NodeId c = 0; c < n; ++c) {
      if (p == c) continue;
      const int lb = level(hb_b, p, c), la = level(hb_a, b_to_a[p], b_to_a[c]);
      if (lb > la) result.differences.push_back({p, c, lb == 2 ? Relation::CompletedBefore : Relation::IssuedBefore, false});
    }
  result.equivalent = result.differences.empty();
  return result;
}

Equivalence equivalent(const Graph& a, const Graph& b, const EquivalenceOptions& options) {
  return equivalent(as_input(a), as_input(b), options);
}

} // namespace depreduce::reference
