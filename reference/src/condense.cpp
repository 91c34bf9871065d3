//===- reference/condense.cpp - TEST ORACLE -------------------------------===//
///
/// \file
/// THIS CODE IS A TEST ORACLE. Components by all-pairs reachability.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/condense.hpp"

#include <map>
#include <set>
#include <string>

#include "depreduce/error.hpp"

namespace depreduce::reference {
namespace {

bool part_waits(const Edge& part) { return part.flags.has(Flag::Wait); }

/// SPEC §3.1: an unlabelled WAIT part, or one with a data kind, demands C.
bool part_completes(const Edge& part) {
  return part.kinds.empty() || part.kinds.has(Kind::Flow) || part.kinds.has(Kind::Anti) ||
         part.kinds.has(Kind::Output);
}

} // namespace

std::vector<RemovedEdge> reduce_condensed(const InputGraph& input, const ReduceOptions& options) {
  const std::size_t n = input.nodes.size();
  std::vector<std::vector<NodeId>> succ(n);
  for (const Edge& e : input.edges) {
    if (e.src >= n || e.dst >= n) throw InputError(input.file, e.line, "edge names an unknown node");
    if (e.src != e.dst && part_waits(e)) succ[e.src].push_back(e.dst);
  }
  // reach[u][v]: a path of WAIT edges from u to v (u reaches itself).
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (NodeId u = 0; u < n; ++u) {
    std::vector<NodeId> todo{u};
    reach[u][u] = true;
    while (!todo.empty()) {
      NodeId x = todo.back();
      todo.pop_back();
      for (NodeId y : succ[x])
        if (!reach[u][y]) { reach[u][y] = true; todo.push_back(y); }
    }
  }
  // Component = the first node (input order) that reaches v and is reached by it.
  std::vector<NodeId> leader(n);
  std::map<NodeId, std::vector<NodeId>> members; // leader -> members, in input order
  for (NodeId v = 0; v < n; ++v) {
    NodeId l = 0;
    while (!(reach[l][v] && reach[v][l])) ++l;
    leader[v] = l;
    members[l].push_back(v);
  }
  for (const auto& [l, ms] : members)
    if (ms.size() > 1)
      for (NodeId v : ms)
        if (input.nodes[v].engine != kNoEngine)
          throw InputError(input.file, 0, "cycle among engine nodes through '" + input.nodes[v].name + "'");

  // The condensation, one node per component, in order of their leaders.
  std::map<NodeId, NodeId> index_of; // leader -> condensed node index
  InputGraph cond;
  cond.file = input.file;
  cond.num_engines = input.num_engines;
  for (const auto& [l, ms] : members) {
    index_of[l] = static_cast<NodeId>(cond.nodes.size());
    Node node;
    if (ms.size() == 1) {
      node.name = input.nodes[l].name;
      node.engine = input.nodes[l].engine;
      node.async_window = input.nodes[l].async_window;
      node.barrier = input.nodes[l].barrier;
    } else {
      node.name = "component " + std::to_string(l); // made unique below
      while (true) {
        bool clash = false;
        for (const Node& x : input.nodes) clash = clash || x.name == node.name;
        if (!clash) break;
        node.name += "'";
      }
    }
    cond.nodes.push_back(node);
  }
  // Every part between components, grouped per pair of input nodes.
  std::map<std::pair<NodeId, NodeId>, std::vector<Edge>> parts;
  for (const Edge& e : input.edges) {
    if (e.src == e.dst || leader[e.src] == leader[e.dst]) continue;
    parts[{e.src, e.dst}].push_back(e);
    Edge c; // every part, WAIT or not: they all constrain program order
    c.src = index_of[leader[e.src]];
    c.dst = index_of[leader[e.dst]];
    c.kinds = e.kinds;
    c.flags = e.flags;
    cond.edges.push_back(c);
  }
  // Parts without WAIT constrain program order unless they close a cycle of
  // the condensation; then none of them does (they order nothing).
  try {
    (void)program_order(cond);
  } catch (const InputError&) {
    std::vector<Edge> waiting;
    for (const Edge& e : cond.edges)
      if (part_waits(e)) waiting.push_back(e);
    cond.edges = waiting;
  }
  const Reduction rc = reduce(cond, options);
  const std::vector<NodeId> order = program_order(cond); // position -> condensed index
  std::set<std::pair<NodeId, NodeId>> removed_pairs;     // condensed indices
  for (const RemovedEdge& r : rc.removed) removed_pairs.insert({order[r.src], order[r.dst]});

  // Per condensed pair: its node pairs with a WAIT part.
  struct NodePair {
    NodeId src, dst;
    bool completes = false, admitted = false;
  };
  std::map<std::pair<NodeId, NodeId>, std::vector<NodePair>> by_condensed;
  for (const auto& [ends, ps] : parts) {
    std::vector<KindSet> wait_kinds;
    NodePair np{ends.first, ends.second};
    for (const Edge& p : ps)
      if (part_waits(p)) {
        wait_kinds.push_back(p.kinds);
        np.completes = np.completes || part_completes(p);
      }
    if (wait_kinds.empty()) continue; // orders nothing, never removed
    np.admitted = admitted(wait_kinds, options.filter);
    by_condensed[{index_of[leader[ends.first]], index_of[leader[ends.second]]}].push_back(np);
  }
  std::set<std::pair<NodeId, NodeId>> removed;
  for (const auto& [cpair, nps] : by_condensed) {
    bool completes = false; // the condensed pair's relation
    for (const NodePair& np : nps) completes = completes || np.completes;
    if (removed_pairs.count(cpair)) {
      for (const NodePair& np : nps)
        if (np.admitted) removed.insert({np.src, np.dst});
      continue;
    }
    // One edge carrying the pair's relation stays: a protected one if there
    // is one, else the admitted one with the smallest names.
    bool protected_carries = false;
    for (const NodePair& np : nps)
      if (!np.admitted && (np.completes || !completes)) protected_carries = true;
    const NodePair* keep = nullptr;
    if (!protected_carries)
      for (const NodePair& np : nps) {
        if (!np.admitted || np.completes != completes) continue;
        auto names = [&](const NodePair* x) {
          return std::make_pair(input.nodes[x->src].name, input.nodes[x->dst].name);
        };
        if (!keep || names(&np) < names(keep)) keep = &np;
      }
    for (const NodePair& np : nps)
      if (np.admitted && &np != keep) removed.insert({np.src, np.dst});
  }
  std::vector<RemovedEdge> out;
  for (auto [s, d] : removed) {
    RemovedEdge r{s, d, KindSet(), FlagSet(), false, 0};
    for (const Edge& p : parts.at({s, d})) {
      r.kinds |= p.kinds;
      r.flags |= p.flags;
    }
    r.demoted_to_retain = r.flags.has(Flag::Retain);
    out.push_back(r);
  }
  return out;
}

} // namespace depreduce::reference
