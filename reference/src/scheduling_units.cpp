//===- reference/src/scheduling_units.cpp - TEST ORACLE --------------------===//
//
// TEST ORACLE. NOT FOR PRODUCTION. A plain recursive flatten.
//
//===----------------------------------------------------------------------===//
#include "depreduce/reference/scheduling_units.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "depreduce/error.hpp"

namespace depreduce::reference {
namespace {

/// The clusters enclosing a node, outermost first.
using Chain = std::vector<const Subgraph*>;

bool is_prefix(const Chain& a, const Chain& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

std::string path_of(const Chain& chain) {
  std::string path;
  for (const Subgraph* s : chain) {
    if (!path.empty()) path += '/';
    path += unit_name(*s);
  }
  return path;
}

/// Records, for every node listed in \p s or below, the deepest chain of
/// clusters it is listed under.
void collect_chains(const Graph& g, const Subgraph& s, Chain chain, std::vector<Chain>& chain_of) {
  if (is_scheduling_unit(s)) chain.push_back(&s);
  for (NodeId v : s.nodes) {
    if (v >= g.nodes.size())
      throw InputError(g.file, 0, "subgraph '" + s.name + "' lists node id " + std::to_string(v) + ", out of range");
    Chain& have = chain_of[v];
    if (is_prefix(chain, have)) continue;
    if (is_prefix(have, chain)) { have = chain; continue; }
    throw InputError(g.file, g.nodes[v].line,
                     "node '" + g.nodes[v].name + "' is in two scheduling units, '" + path_of(have) + "' and '" +
                         path_of(chain) + "'");
  }
  for (const Subgraph& child : s.children) collect_chains(g, child, chain, chain_of);
}

/// Appends the leaves of the body \p body (the nodes whose chain starts with
/// it) to \p out in depth-first order: the body's items - its own leaves and
/// its child units - by their first leaf, a unit flattened recursively.
void flatten(const Chain& body, const std::vector<Chain>& chain_of, std::vector<NodeId>& out) {
  struct Item {
    NodeId first;
    const Subgraph* unit; // nullptr for a leaf
  };
  std::vector<Item> items;
  for (NodeId v = 0; v < chain_of.size(); ++v) { // ascending: the first leaf is met first
    if (!is_prefix(body, chain_of[v])) continue;
    if (chain_of[v].size() == body.size()) { items.push_back({v, nullptr}); continue; }
    const Subgraph* unit = chain_of[v][body.size()];
    bool seen = false;
    for (const Item& item : items)
      if (item.unit == unit) seen = true;
    if (!seen) items.push_back({v, unit});
  }
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.first < b.first; });
  for (const Item& item : items) {
    if (!item.unit) {
      out.push_back(item.first);
      continue;
    }
    Chain inner = body;
    inner.push_back(item.unit);
    flatten(inner, chain_of, out);
  }
}

/// The subgraph tree without clusters (see the contract).
void rebuild(const Subgraph& s, std::vector<Subgraph>& siblings, std::vector<NodeId>* parent_nodes,
             const std::vector<NodeId>& new_id) {
  if (is_scheduling_unit(s)) {
    for (NodeId v : s.nodes)
      if (parent_nodes) parent_nodes->push_back(new_id[v]);
    for (const Subgraph& child : s.children) rebuild(child, siblings, parent_nodes, new_id);
    return;
  }
  Subgraph kept;
  kept.name = s.name;
  kept.attrs = s.attrs;
  for (NodeId v : s.nodes) kept.nodes.push_back(new_id[v]);
  for (const Subgraph& child : s.children) rebuild(child, kept.children, &kept.nodes, new_id);
  std::set<NodeId> members(kept.nodes.begin(), kept.nodes.end());
  kept.nodes.assign(members.begin(), members.end());
  siblings.push_back(kept);
}

} // namespace

Graph expand_scheduling_units(const Graph& g, std::vector<std::string>* warnings) {
  const NodeId n = static_cast<NodeId>(g.nodes.size());
  std::vector<Chain> chain_of(n);
  for (const Subgraph& s : g.subgraphs) collect_chains(g, s, {}, chain_of);

  std::vector<NodeId> dfs;
  flatten({}, chain_of, dfs);
  std::vector<NodeId> dfs_pos(n);
  for (NodeId i = 0; i < n; ++i) dfs_pos[dfs[i]] = i;

  // Names, in depth-first order; nodes outside units keep theirs.
  std::set<std::string> used;
  for (NodeId v = 0; v < n; ++v)
    if (chain_of[v].empty()) used.insert(g.nodes[v].name);
  std::vector<std::string> names(n);
  for (NodeId v : dfs) {
    if (chain_of[v].empty()) {
      names[v] = g.nodes[v].name;
      continue;
    }
    const std::string base = path_of(chain_of[v]) + "/" + g.nodes[v].name;
    std::string name = base;
    for (int k = 2; used.count(name); ++k) name = base + "#" + std::to_string(k);
    used.insert(name);
    names[v] = name;
  }

  // Program order: repeatedly the first node in depth-first order whose
  // predecessors are all placed.
  for (const Edge& e : g.edges)
    if (e.src >= n || e.dst >= n) throw InputError(g.file, 0, "an edge names a node out of range");
  std::vector<bool> placed(n, false);
  std::vector<NodeId> new_id(n);
  for (NodeId next = 0; next < n; ++next) {
    bool found = false;
    for (NodeId v : dfs) {
      if (placed[v]) continue;
      bool ready = true;
      for (const Edge& e : g.edges)
        if (e.dst == v && !placed[e.src]) ready = false;
      if (!ready) continue;
      placed[v] = true;
      new_id[v] = next;
      found = true;
      break;
    }
    if (!found) throw InputError(g.file, 0, "cycle among the edges (not a Graph from make_program_order)");
  }
  for (const Edge& e : g.edges)
    if (dfs_pos[e.src] > dfs_pos[e.dst]) {
      if (warnings)
        warnings->push_back(g.file + ": warning: scheduling units: the depth-first order puts '" +
                            g.nodes[e.dst].name + "' before '" + g.nodes[e.src].name +
                            "' but an edge orders them the other way; program order follows the edges");
      break;
    }

  Graph out;
  static_cast<GraphHeader&>(out) = g;
  out.subgraphs.clear();
  out.nodes.resize(n);
  for (NodeId v = 0; v < n; ++v) {
    out.nodes[new_id[v]] = g.nodes[v];
    out.nodes[new_id[v]].name = names[v];
    out.nodes[new_id[v]].input_index = dfs_pos[v];
  }
  for (std::uint32_t engine = 0; engine < out.num_engines; ++engine) {
    std::uint32_t position = 0;
    for (Node& node : out.nodes)
      if (node.engine == engine) node.engine_position = position++;
  }
  for (Edge e : g.edges) {
    e.src = new_id[e.src];
    e.dst = new_id[e.dst];
    out.edges.push_back(e);
  }
  std::sort(out.edges.begin(), out.edges.end(),
            [](const Edge& a, const Edge& b) { return a.src != b.src ? a.src < b.src : a.dst < b.dst; });
  for (Edge e : g.self_loops) {
    if (e.src >= n) throw InputError(g.file, 0, "a self-loop names a node out of range");
    e.src = e.dst = new_id[e.src];
    out.self_loops.push_back(e);
  }
  for (const Subgraph& s : g.subgraphs) rebuild(s, out.subgraphs, nullptr, new_id);
  return out;
}

} // namespace depreduce::reference
