//===- graph_pairs.cpp - Inputs for equiv and condense --------------------===//
#include "depreduce/testing/graph_pairs.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce::testing {

std::string to_string(Mutation m) {
  switch (m) {
  case Mutation::Shuffled: return "shuffled";
  case Mutation::Reduced: return "reduced";
  case Mutation::EdgeRemoved: return "edge-removed";
  case Mutation::MadeOrdered: return "made-ordered";
  case Mutation::EdgeAdded: return "edge-added";
  case Mutation::AsyncToggled: return "async-toggled";
  case Mutation::NodesShuffled: return "nodes-shuffled";
  case Mutation::BarrierToggled: return "barrier-toggled";
  }
  return "?";
}

InputGraph mutated(const InputGraph& a, Mutation m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  InputGraph b = a;
  switch (m) {
  case Mutation::Shuffled:
    std::shuffle(b.edges.begin(), b.edges.end(), rng);
    break;
  case Mutation::Reduced: {
    const Graph g = make_program_order(a);
    b = reference::as_input(apply(g, reduce(g)));
    break;
  }
  case Mutation::EdgeRemoved:
  case Mutation::MadeOrdered: {
    if (b.edges.empty()) break;
    // Mostly a pair the exact reduction keeps (its change shows), else any edge.
    const Graph g = make_program_order(a);
    const Reduction r = reduce(g);
    std::vector<std::pair<NodeId, NodeId>> kept; // input indices
    std::size_t next = 0;
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
      if (next < r.removed.size() && r.removed[next].edge == i) { ++next; continue; }
      if (is_wait(g.edges[i])) kept.emplace_back(g.nodes[g.edges[i].src].input_index, g.nodes[g.edges[i].dst].input_index);
    }
    std::pair<NodeId, NodeId> target{b.edges[0].src, b.edges[0].dst};
    bool whole_pair = !kept.empty() && pick(4) != 0;
    if (whole_pair) target = kept[pick(kept.size())];
    else {
      const Edge& e = b.edges[pick(b.edges.size())];
      target = {e.src, e.dst};
    }
    bool done = false;
    for (std::size_t i = b.edges.size(); i-- > 0;) {
      Edge& e = b.edges[i];
      if (e.src != target.first || e.dst != target.second || (done && !whole_pair)) continue;
      if (m == Mutation::EdgeRemoved) b.edges.erase(b.edges.begin() + static_cast<std::ptrdiff_t>(i));
      else if (e.flags.has(Flag::Wait)) e.kinds = Kind::Ordered;
      done = true;
    }
    break;
  }
  case Mutation::EdgeAdded: {
    const Graph g = make_program_order(a);
    if (g.nodes.size() < 2) break;
    NodeId p = static_cast<NodeId>(pick(g.nodes.size() - 1));
    NodeId q = p + 1 + static_cast<NodeId>(pick(g.nodes.size() - 1 - p));
    Edge e;
    e.src = g.nodes[p].input_index;
    e.dst = g.nodes[q].input_index;
    if (pick(3) == 0) e.kinds = Kind::Ordered;
    b.edges.push_back(e);
    break;
  }
  case Mutation::AsyncToggled: {
    std::vector<NodeId> on_engine;
    for (NodeId v = 0; v < b.nodes.size(); ++v)
      if (b.nodes[v].engine != kNoEngine) on_engine.push_back(v);
    if (on_engine.empty()) break;
    Node& v = b.nodes[on_engine[pick(on_engine.size())]];
    v.async_window = v.async_window == 0 ? 1 : 0;
    break;
  }
  case Mutation::BarrierToggled: {
    // A barrier matters where an asynchronous instruction is still in flight:
    // prefer a node with one in flight two or more positions back on its
    // engine, then one right after an async node, then any; flip its flag.
    const Graph g = make_program_order(a);
    std::vector<NodeId> any, near, far; // input indices
    std::vector<std::vector<NodeId>> on(g.num_engines);
    for (NodeId v = 0; v < g.nodes.size(); ++v) {
      const Node& node = g.nodes[v];
      if (node.engine == kNoEngine) continue;
      auto& prior = on[node.engine];
      const std::size_t i = prior.size();
      if (i > 0) any.push_back(node.input_index);
      for (std::size_t j = 0; j < i; ++j) {
        const std::uint32_t w = g.nodes[prior[j]].async_window;
        if (w == 0 || (w != kAsyncInfinite && j + w <= i)) continue; // completed before node
        (i - j >= 2 ? far : near).push_back(node.input_index);
      }
      prior.push_back(v);
    }
    const std::vector<NodeId>& from = !far.empty() ? far : !near.empty() ? near : any;
    if (from.empty()) break;
    Node& target = b.nodes[from[pick(from.size())]];
    target.barrier = !target.barrier;
    break;
  }
  case Mutation::NodesShuffled: {
    std::vector<NodeId> to(b.nodes.size());
    std::iota(to.begin(), to.end(), 0u);
    std::shuffle(to.begin(), to.end(), rng);
    for (NodeId v = 0; v < a.nodes.size(); ++v) {
      b.nodes[to[v]] = a.nodes[v];
      b.nodes[to[v]].input_index = to[v];
    }
    for (Edge& e : b.edges) {
      e.src = to[e.src];
      e.dst = to[e.dst];
    }
    break;
  }
  }
  b.file = "<mutated " + to_string(m) + ">";
  return b;
}

namespace {
/// True if a WAIT cycle goes through a node with an engine. O(n * (n + m)).
bool engine_in_cycle(const InputGraph& in) {
  const std::size_t n = in.nodes.size();
  std::vector<std::vector<NodeId>> succ(n);
  for (const Edge& e : in.edges)
    if (e.src != e.dst && e.flags.has(Flag::Wait)) succ[e.src].push_back(e.dst);
  for (NodeId v = 0; v < n; ++v) {
    if (in.nodes[v].engine == kNoEngine) continue;
    std::vector<bool> seen(n, false);
    std::vector<NodeId> todo(succ[v]);
    while (!todo.empty()) {
      const NodeId x = todo.back();
      todo.pop_back();
      if (x == v) return true;
      if (seen[x]) continue;
      seen[x] = true;
      for (NodeId y : succ[x]) todo.push_back(y);
    }
  }
  return false;
}
} // namespace

InputGraph random_cyclic_input(const EngineGraphParams& params, std::uint64_t seed, bool engine_cycle) {
  InputGraph in = random_input_graph(params, seed);
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const std::size_t n = in.nodes.size();
  if (n < 2) return in;
  std::vector<NodeId> free;
  for (NodeId v = 0; v < n; ++v)
    if (in.nodes[v].engine == kNoEngine) free.push_back(v);
  // Back edges among nodes without engine close cycles through any forward path.
  const std::size_t backs = free.size() < 2 ? 0 : 1 + pick(std::max<std::size_t>(1, free.size() / 2));
  for (std::size_t k = 0; k < backs; ++k) {
    NodeId x = free[pick(free.size())], y = free[pick(free.size())];
    if (x == y) continue;
    const std::size_t before = in.edges.size();
    Edge e1, e2; // x -> y and y -> x: a cycle for sure
    e1.src = x, e1.dst = y;
    e2.src = y, e2.dst = x;
    switch (pick(4)) {
    case 0: e2.kinds = Kind::Ordered; break;
    case 1: e2.kinds = Kind::Flow; e2.flags = FlagSet::wait() | Flag::Retain; break;
    default: break;
    }
    in.edges.push_back(e1);
    in.edges.push_back(e2);
    if (pick(3) == 0) { // a RETAIN-only part beside the back edge
      Edge r = e2;
      r.kinds = Kind::Anti;
      r.flags = FlagSet::retain();
      in.edges.push_back(r);
    }
    if (pick(2) == 0) { // and a third node into the cycle now and then
      NodeId z = free[pick(free.size())];
      if (z != x && z != y) {
        Edge e3, e4;
        e3.src = y, e3.dst = z;
        e4.src = z, e4.dst = x;
        in.edges.push_back(e3);
        in.edges.push_back(e4);
      }
    }
    // Cycles stay among nodes without engine (a path through an engine node
    // would put it in the cycle): such back edges are taken out again.
    if (engine_in_cycle(in)) in.edges.resize(before);
  }
  if (engine_cycle) {
    NodeId v = 0;
    while (v < n && in.nodes[v].engine == kNoEngine) ++v;
    if (v == n) {
      in.num_engines = std::max<std::uint32_t>(in.num_engines, 1);
      v = 0;
      in.nodes[v].engine = 0;
    }
    NodeId w = v == 0 ? 1 : 0;
    Edge e1, e2;
    e1.src = v, e1.dst = w;
    e2.src = w, e2.dst = v;
    in.edges.push_back(e1);
    in.edges.push_back(e2);
  }
  std::shuffle(in.edges.begin(), in.edges.end(), rng);
  for (std::uint32_t i = 0; i < in.edges.size(); ++i) in.edges[i].line = i + 1;
  in.file = "<random_cyclic_input>";
  return in;
}

} // namespace depreduce::testing
