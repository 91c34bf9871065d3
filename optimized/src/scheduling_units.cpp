//===- scheduling_units.cpp - walrus expand_scheduling_units ---------------===//
//
// The depth-first order is computed without recursion over units: every unit
// gets the id of its first leaf, every node the key (first leaf of each
// enclosing unit, outermost first, then its own id), and one sort by key
// yields the order. The recursive reading of the same definition is the
// reference twin.
//
//===----------------------------------------------------------------------===//
#include "depreduce/scheduling_units.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "depreduce/error.hpp"

namespace depreduce {

bool is_scheduling_unit(const Subgraph& s) noexcept { return s.name.rfind("cluster", 0) == 0; }

std::string unit_name(const Subgraph& s) {
  std::string_view rest(s.name);
  if (rest.rfind("cluster", 0) == 0) rest.remove_prefix(7);
  if (!rest.empty() && rest.front() == '_') rest.remove_prefix(1);
  return rest.empty() ? s.name : std::string(rest);
}

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

struct Unit {
  std::uint32_t parent = kNone;
  std::string path;              ///< "outer/inner"
  NodeId first = kNone;          ///< First leaf in program order.
  std::vector<NodeId> key;       ///< first of every unit from the outermost to this one.
};

class Expander {
public:
  explicit Expander(const Graph& g) : g_(g), unit_of_(g.nodes.size(), kNone) {}

  Graph run(std::vector<std::string>* warnings) {
    const std::size_t n = g_.nodes.size();
    // 1. Units and the innermost unit of every node (explicit stack, preorder).
    std::vector<std::pair<const Subgraph*, std::uint32_t>> stack;
    for (auto it = g_.subgraphs.rbegin(); it != g_.subgraphs.rend(); ++it) stack.emplace_back(&*it, kNone);
    while (!stack.empty()) {
      auto [s, enclosing] = stack.back();
      stack.pop_back();
      std::uint32_t here = enclosing;
      if (is_scheduling_unit(*s)) {
        here = static_cast<std::uint32_t>(units_.size());
        Unit u;
        u.parent = enclosing;
        u.path = (enclosing == kNone ? std::string() : units_[enclosing].path + "/") + unit_name(*s);
        units_.push_back(std::move(u));
      }
      for (NodeId v : s->nodes) assign(v, here, *s);
      for (auto it = s->children.rbegin(); it != s->children.rend(); ++it) stack.emplace_back(&*it, here);
    }

    // 2. First leaf of every unit: nodes in ascending id, so the first visit wins.
    for (NodeId v = 0; v < n; ++v)
      for (std::uint32_t u = unit_of_[v]; u != kNone && units_[u].first == kNone; u = units_[u].parent)
        units_[u].first = v;
    for (Unit& u : units_) { // parents were created before their children
      if (u.parent != kNone) u.key = units_[u.parent].key;
      u.key.push_back(u.first);
    }

    // 3. Depth-first order = sort by key (enclosing units' first leaves, then id).
    std::vector<NodeId> dfs(n);
    for (NodeId v = 0; v < n; ++v) dfs[v] = v;
    static const std::vector<NodeId> kTop;
    auto key_less = [&](NodeId a, NodeId b) {
      const std::vector<NodeId>& ka = unit_of_[a] == kNone ? kTop : units_[unit_of_[a]].key;
      const std::vector<NodeId>& kb = unit_of_[b] == kNone ? kTop : units_[unit_of_[b]].key;
      const std::size_t common = std::min(ka.size(), kb.size());
      for (std::size_t i = 0; i < common; ++i)
        if (ka[i] != kb[i]) return ka[i] < kb[i];
      NodeId xa = ka.size() > common ? ka[common] : a; // next item of the common body
      NodeId xb = kb.size() > common ? kb[common] : b;
      return xa < xb;
    };
    std::sort(dfs.begin(), dfs.end(), key_less);
    std::vector<std::uint32_t> dfs_pos(n);
    for (std::uint32_t i = 0; i < n; ++i) dfs_pos[dfs[i]] = i;

    // 4. Names: nodes outside units keep theirs; leaves get unit paths.
    std::unordered_set<std::string> used;
    used.reserve(n);
    for (NodeId v = 0; v < n; ++v)
      if (unit_of_[v] == kNone) used.insert(g_.nodes[v].name);
    std::vector<std::string> names(n);
    for (NodeId v : dfs) {
      if (unit_of_[v] == kNone) { names[v] = g_.nodes[v].name; continue; }
      const std::string base = units_[unit_of_[v]].path + "/" + g_.nodes[v].name;
      std::string name = base;
      for (std::uint64_t k = 2; used.count(name); ++k) name = base + "#" + std::to_string(k);
      used.insert(name);
      names[v] = std::move(name);
    }

    // 5. Program order: stable Kahn over the edges, ties by depth-first position.
    std::vector<std::vector<NodeId>> succ(n);
    std::vector<std::uint32_t> indegree(n, 0);
    const Edge* against = nullptr;
    for (const Edge& e : g_.edges) {
      check_node(e.src, "an edge");
      check_node(e.dst, "an edge");
      succ[e.src].push_back(e.dst);
      ++indegree[e.dst];
      if (!against && dfs_pos[e.src] > dfs_pos[e.dst]) against = &e;
    }
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready; // dfs positions
    for (NodeId v = 0; v < n; ++v)
      if (indegree[v] == 0) ready.push(dfs_pos[v]);
    std::vector<NodeId> new_id(n, kNone);
    NodeId next = 0;
    while (!ready.empty()) {
      NodeId v = dfs[ready.top()];
      ready.pop();
      new_id[v] = next++;
      for (NodeId w : succ[v])
        if (--indegree[w] == 0) ready.push(dfs_pos[w]);
    }
    if (next != n) throw InputError(g_.file, 0, "cycle among the edges (not a Graph from make_program_order)");
    if (against && warnings)
      warnings->push_back(g_.file + ": warning: scheduling units: the depth-first order puts '" +
                          g_.nodes[against->dst].name + "' before '" + g_.nodes[against->src].name +
                          "' but an edge orders them the other way; program order follows the edges");

    // 6. The expanded graph.
    Graph out;
    static_cast<GraphHeader&>(out) = static_cast<const GraphHeader&>(g_);
    out.subgraphs.clear();
    out.nodes.resize(n);
    for (NodeId v = 0; v < n; ++v) {
      Node& node = out.nodes[new_id[v]];
      node = g_.nodes[v];
      node.name = std::move(names[v]);
      node.input_index = dfs_pos[v];
    }
    std::vector<std::uint32_t> position(out.num_engines, 0);
    for (Node& node : out.nodes)
      if (node.engine != kNoEngine && node.engine < out.num_engines) node.engine_position = position[node.engine]++;
    out.edges = g_.edges;
    for (Edge& e : out.edges) { e.src = new_id[e.src]; e.dst = new_id[e.dst]; }
    std::sort(out.edges.begin(), out.edges.end(),
              [](const Edge& a, const Edge& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); });
    out.self_loops = g_.self_loops;
    for (Edge& e : out.self_loops) {
      check_node(e.src, "a self-loop");
      e.src = e.dst = new_id[e.src];
    }
    for (const Subgraph& s : g_.subgraphs) rebuild(s, out.subgraphs, nullptr, new_id);
    return out;
  }

private:
  void check_node(NodeId v, const char* what) const {
    if (v >= g_.nodes.size())
      throw InputError(g_.file, 0, std::string(what) + " names node id " + std::to_string(v) + ", out of range");
  }

  bool encloses(std::uint32_t outer, std::uint32_t inner) const {
    for (std::uint32_t u = inner; u != kNone; u = units_[u].parent)
      if (u == outer) return true;
    return false;
  }

  /// Records that \p v sits (directly) in a subgraph whose innermost unit is \p u.
  void assign(NodeId v, std::uint32_t u, const Subgraph& s) {
    if (v >= g_.nodes.size())
      throw InputError(g_.file, 0, "subgraph '" + s.name + "' lists node id " + std::to_string(v) + ", out of range");
    std::uint32_t& have = unit_of_[v];
    if (u == kNone || have == u || (have != kNone && encloses(u, have))) return;
    if (have == kNone || encloses(have, u)) { have = u; return; }
    throw InputError(g_.file, g_.nodes[v].line,
                     "node '" + g_.nodes[v].name + "' is in two scheduling units, '" + units_[have].path +
                         "' and '" + units_[u].path + "'");
  }

  /// Appends the surviving form of \p s: a non-cluster subgraph is kept (its
  /// members renumbered); a cluster is dissolved into \p parent_nodes (the
  /// nearest surviving subgraph's members; nullptr at top level) and \p siblings.
  static void rebuild(const Subgraph& s, std::vector<Subgraph>& siblings, std::vector<NodeId>* parent_nodes,
                      const std::vector<NodeId>& new_id) {
    if (is_scheduling_unit(s)) {
      if (parent_nodes)
        for (NodeId v : s.nodes) parent_nodes->push_back(new_id[v]);
      for (const Subgraph& c : s.children) rebuild(c, siblings, parent_nodes, new_id);
      return;
    }
    Subgraph t;
    t.name = s.name;
    t.attrs = s.attrs;
    for (NodeId v : s.nodes) t.nodes.push_back(new_id[v]);
    for (const Subgraph& c : s.children) rebuild(c, t.children, &t.nodes, new_id);
    std::sort(t.nodes.begin(), t.nodes.end());
    t.nodes.erase(std::unique(t.nodes.begin(), t.nodes.end()), t.nodes.end());
    siblings.push_back(std::move(t));
  }

  const Graph& g_;
  std::vector<std::uint32_t> unit_of_; ///< Innermost unit of each node, or kNone.
  std::vector<Unit> units_;            ///< In preorder: parents before children.
};

} // namespace

Graph expand_scheduling_units(const Graph& g, std::vector<std::string>* warnings) {
  return Expander(g).run(warnings);
}

} // namespace depreduce
