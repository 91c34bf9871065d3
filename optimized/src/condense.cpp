//===- condense.cpp - Exact reduction across strongly connected components -===//
///
/// \file
/// reduce_input(): the components (iterative Tarjan), their condensation (a
/// DAG, reduced by reduce()), and the input merged in the condensed order.
//===----------------------------------------------------------------------===//
#include "depreduce/condense.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "depreduce/error.hpp"

namespace depreduce {
namespace {

constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();

std::uint64_t key_of(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} << 32) | b; }

/// Strongly connected components of the non-self-loop edges (with
/// \p wait_only, of those that carry WAIT; Tarjan, iterative). Returns the component of each node, numbered in the order of
/// their first node in the input.
std::vector<std::uint32_t> components(std::uint32_t n, const std::vector<Edge>& edges, bool wait_only,
                                      std::uint32_t& count) {
  auto counts = [wait_only](const Edge& e) { return e.src != e.dst && (!wait_only || is_wait(e)); };
  std::vector<std::uint32_t> out_begin(n + 1, 0), out_dst;
  for (const Edge& e : edges)
    if (counts(e)) ++out_begin[e.src + 1];
  for (std::uint32_t v = 0; v < n; ++v) out_begin[v + 1] += out_begin[v];
  out_dst.resize(out_begin[n]);
  {
    std::vector<std::uint32_t> fill(out_begin.begin(), out_begin.end() - 1);
    for (const Edge& e : edges)
      if (counts(e)) out_dst[fill[e.src]++] = e.dst;
  }
  std::vector<std::uint32_t> index(n, kUnset), low(n, 0), comp(n, kUnset), next(n, 0);
  std::vector<std::uint32_t> stack, call;
  std::vector<bool> on_stack(n, false);
  std::uint32_t counter = 0, found = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kUnset) continue;
    call.push_back(root);
    index[root] = low[root] = counter++;
    next[root] = out_begin[root];
    stack.push_back(root);
    on_stack[root] = true;
    while (!call.empty()) {
      const std::uint32_t v = call.back();
      if (next[v] < out_begin[v + 1]) {
        const std::uint32_t w = out_dst[next[v]++];
        if (index[w] == kUnset) {
          index[w] = low[w] = counter++;
          next[w] = out_begin[w];
          stack.push_back(w);
          on_stack[w] = true;
          call.push_back(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      call.pop_back();
      if (!call.empty()) low[call.back()] = std::min(low[call.back()], low[v]);
      if (low[v] == index[v]) {
        std::uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          comp[w] = found;
        } while (w != v);
        ++found;
      }
    }
  }
  // Renumber by first node in input order.
  std::vector<std::uint32_t> renumber(found, kUnset);
  count = 0;
  for (std::uint32_t v = 0; v < n; ++v)
    if (renumber[comp[v]] == kUnset) renumber[comp[v]] = count++;
  for (std::uint32_t& c : comp) c = renumber[c];
  return comp;
}

/// One cycle through \p start inside its component, as node indices in order.
std::vector<std::uint32_t> cycle_through(std::uint32_t start, const std::vector<Edge>& edges,
                                         const std::vector<std::uint32_t>& comp, std::uint32_t& closing_line) {
  const std::uint32_t n = static_cast<std::uint32_t>(comp.size());
  std::vector<std::vector<std::uint32_t>> out(n);
  for (std::uint32_t i = 0; i < edges.size(); ++i)
    if (edges[i].src != edges[i].dst && is_wait(edges[i]) && comp[edges[i].src] == comp[start] &&
        comp[edges[i].dst] == comp[start])
      out[edges[i].src].push_back(i);
  std::vector<std::uint32_t> via(n, kUnset); // edge that reached each node
  std::vector<std::uint32_t> queue{start};
  std::uint32_t closing = kUnset;
  for (std::size_t q = 0; q < queue.size() && closing == kUnset; ++q)
    for (std::uint32_t ei : out[queue[q]]) {
      const std::uint32_t w = edges[ei].dst;
      if (w == start) { closing = ei; break; }
      if (via[w] != kUnset) continue;
      via[w] = ei;
      queue.push_back(w);
    }
  std::vector<std::uint32_t> cycle;
  closing_line = edges[closing].line;
  for (std::uint32_t v = edges[closing].src; v != start; v = edges[via[v]].src) cycle.push_back(v);
  cycle.push_back(start);
  std::reverse(cycle.begin(), cycle.end());
  return cycle;
}

void check_nodes_and_edges(const InputGraph& input) {
  const std::string& file = input.file;
  if (input.num_engines > kMaxEngines)
    throw InputError(file, 0, "engine count " + std::to_string(input.num_engines) + " exceeds " +
                                  std::to_string(kMaxEngines));
  std::unordered_set<std::string_view> names;
  names.reserve(input.nodes.size());
  for (const Node& node : input.nodes) {
    if (!names.insert(node.name).second) throw InputError(file, node.line, "duplicate node name '" + node.name + "'");
    if (node.engine != kNoEngine && node.engine >= input.num_engines)
      throw InputError(file, node.line,
                       "node '" + node.name + "': engine " + std::to_string(node.engine) + " out of range [0, " +
                           std::to_string(input.num_engines) + ")");
  }
  const std::size_t n = input.nodes.size();
  for (const Edge& e : input.edges)
    if (e.src >= n || e.dst >= n)
      throw InputError(file, e.line, "edge names an unknown node (index " + std::to_string(std::max(e.src, e.dst)) + ")");
}

} // namespace

InputReduction reduce_input(InputGraph input, const ReduceOptions& options, ReduceStats* stats,
                            std::vector<std::string>* warnings) {
  InputReduction out;
  auto acyclic = [&](InputGraph in) {
    out.graph = make_program_order(std::move(in), warnings);
    out.reduction = reduce(out.graph, options, stats);
    out.component.resize(out.graph.nodes.size());
    std::iota(out.component.begin(), out.component.end(), 0u);
    return std::move(out);
  };
  if (options.cycles == CycleMode::Error) return acyclic(std::move(input));

  check_nodes_and_edges(input);
  const std::uint32_t n = static_cast<std::uint32_t>(input.nodes.size());
  std::uint32_t count = 0;
  {
    // No cycle at all (RETAIN-only edges included, as make_program_order()
    // counts them): the plain reduction.
    components(n, input.edges, false, count);
    if (count == n) return acyclic(std::move(input));
  }
  // Components over the edges that order (WAIT): a cycle closed only by a
  // RETAIN-only edge orders nothing, and must not make its nodes one.
  const std::vector<std::uint32_t> comp = components(n, input.edges, true, count);
  std::vector<std::uint32_t> size(count, 0);
  for (std::uint32_t c : comp) ++size[c];
  std::size_t cyclic = 0;
  for (std::uint32_t s : size) cyclic += s > 1;

  for (std::uint32_t v = 0; v < n; ++v)
    if (size[comp[v]] > 1 && input.nodes[v].engine != kNoEngine) {
      std::uint32_t line = 0;
      const std::vector<std::uint32_t> cycle = cycle_through(v, input.edges, comp, line);
      std::string text;
      for (std::uint32_t u : cycle) text += "'" + input.nodes[u].name + "' -> ";
      text += "'" + input.nodes[cycle.front()].name + "'";
      throw InputError(input.file, line,
                       "cycle among engine nodes: " + text +
                           " (program order must be topological where engines are, even when condensing cycles)");
    }

  // The condensation: one node per component (a component of several nodes
  // is one synchronous node without engine), every edge between components.
  InputGraph cond;
  cond.file = input.file;
  cond.num_engines = input.num_engines;
  cond.nodes.resize(count);
  {
    std::unordered_set<std::string_view> names;
    for (const Node& node : input.nodes) names.insert(node.name);
    std::vector<bool> named(count, false);
    for (std::uint32_t v = 0; v < n; ++v) {
      const std::uint32_t c = comp[v];
      if (named[c]) continue;
      named[c] = true;
      if (size[c] == 1) {
        cond.nodes[c] = input.nodes[v];
        cond.nodes[c].attrs.clear();
        continue;
      }
      std::string name = "<component of '" + input.nodes[v].name + "'>";
      while (names.count(name)) name += "'";
      cond.nodes[c].name = std::move(name);
      cond.nodes[c].line = input.nodes[v].line;
    }
  }
  for (const Edge& e : input.edges) {
    // Parts without WAIT order nothing, but constrain program order as
    // make_program_order() has them do (unless they close a cycle, below).
    if (comp[e.src] == comp[e.dst]) continue;
    Edge part;
    part.src = comp[e.src];
    part.dst = comp[e.dst];
    part.kinds = e.kinds;
    part.flags = e.flags;
    part.line = e.line;
    cond.edges.push_back(part);
  }
  Graph cg;
  try {
    cg = make_program_order(cond);
  } catch (const InputError& e) {
    if (!e.is_cycle()) throw;
    // Only edges without WAIT can close a cycle of the condensation; they
    // order nothing, so then none of them constrains program order.
    std::erase_if(cond.edges, [](const Edge& x) { return !is_wait(x); });
    cg = make_program_order(std::move(cond));
  }
  const Reduction rc = reduce(cg, options, stats);
  std::vector<std::uint32_t> cg_pos(count);
  for (std::uint32_t p = 0; p < count; ++p) cg_pos[cg.nodes[p].input_index] = p;
  std::unordered_set<std::uint64_t> removed_pairs;
  for (const RemovedEdge& r : rc.removed) removed_pairs.insert(key_of(r.src, r.dst));
  std::unordered_map<std::uint64_t, bool> pair_completes; // condensed pair -> its relation is C
  for (const Edge& e : cg.edges)
    if (is_wait(e)) pair_completes.emplace(key_of(e.src, e.dst), is_completion_edge(e));

  // Output order: components in condensed program order, members in input order.
  std::vector<std::uint32_t> position(n);
  {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return cg_pos[comp[a]] < cg_pos[comp[b]]; });
    for (std::uint32_t p = 0; p < n; ++p) position[order[p]] = p;
  }

  // Merge parallel edges exactly as make_program_order() does: every pair
  // gets two fresh nodes of its own in one acyclic helper input.
  std::vector<Edge> self_loops;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> group_ends;
  std::vector<std::uint32_t> original_index;
  InputGraph merger;
  merger.file = input.file;
  {
    std::unordered_map<std::uint64_t, std::uint32_t> group;
    for (std::uint32_t i = 0; i < input.edges.size(); ++i) {
      Edge& e = input.edges[i];
      if (e.src == e.dst) {
        e.input_index = i;
        e.src = e.dst = position[e.src];
        self_loops.push_back(std::move(e));
        continue;
      }
      auto [it, fresh] = group.emplace(key_of(position[e.src], position[e.dst]), static_cast<std::uint32_t>(group_ends.size()));
      if (fresh) group_ends.emplace_back(position[e.src], position[e.dst]);
      Edge part = std::move(e);
      part.src = 2 * it->second;
      part.dst = 2 * it->second + 1;
      merger.edges.push_back(std::move(part));
      original_index.push_back(i);
    }
    merger.nodes.resize(2 * group_ends.size());
    for (std::uint32_t i = 0; i < merger.nodes.size(); ++i) merger.nodes[i].name = std::to_string(i);
  }
  Graph merged = make_program_order(std::move(merger));
  if (!self_loops.empty() && warnings) {
    std::uint32_t first = 0; // the node of the first self-loop, in input order
    while (position[first] != self_loops.front().src) ++first;
    warnings->push_back(input.file + ": warning: " + std::to_string(self_loops.size()) +
                        " self-loop(s) kept in the output and ignored for reachability (first: '" +
                        input.nodes[first].name + "')");
  }

  Graph& g = out.graph;
  static_cast<GraphHeader&>(g) = std::move(static_cast<GraphHeader&>(input));
  std::function<void(Subgraph&)> renumber = [&](Subgraph& s) {
    for (NodeId& v : s.nodes) v = position[v];
    for (Subgraph& c : s.children) renumber(c);
  };
  for (Subgraph& s : g.subgraphs) renumber(s);
  g.nodes.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    input.nodes[v].input_index = v;
    g.nodes[position[v]] = std::move(input.nodes[v]);
  }
  std::vector<std::uint32_t> next_position(g.num_engines, 0);
  for (Node& node : g.nodes)
    if (node.engine != kNoEngine) node.engine_position = next_position[node.engine]++;
  g.edges = std::move(merged.edges);
  for (Edge& e : g.edges) {
    const std::uint32_t grp = merged.nodes[e.src].input_index / 2;
    std::tie(e.src, e.dst) = group_ends[grp];
    e.input_index = original_index[e.input_index];
  }
  std::sort(g.edges.begin(), g.edges.end(),
            [](const Edge& a, const Edge& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); });
  g.self_loops = std::move(self_loops);

  // Component of each output node, numbered in program order.
  out.component.resize(n);
  {
    std::vector<std::uint32_t> comp_at(n);
    for (std::uint32_t v = 0; v < n; ++v) comp_at[position[v]] = cg_pos[comp[v]];
    out.component = std::move(comp_at);
  }
  out.cyclic_components = cyclic;

  // Decide every WAIT edge between components, condensed pair by pair.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_pair;
  for (std::uint32_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    const std::uint32_t u = out.component[e.src], v = out.component[e.dst];
    if (u == v || !is_wait(e)) continue;
    by_pair[key_of(u, v)].push_back(i);
  }
  std::vector<std::uint8_t> removed(g.edges.size(), 0);
  std::size_t candidates = 0;
  for (const auto& [key, members] : by_pair) {
    std::vector<std::uint32_t> admitted;
    bool covered = false; // a kept edge the filter protects carries the pair's relation
    const bool completes = pair_completes.at(key);
    for (std::uint32_t i : members) {
      if (options.filter.admits(g.edges[i])) admitted.push_back(i);
      else covered = covered || is_completion_edge(g.edges[i]) || !completes;
    }
    candidates += admitted.size();
    if (removed_pairs.count(key)) {
      for (std::uint32_t i : admitted) removed[i] = 1;
      continue;
    }
    std::uint32_t keep = kUnset;
    if (!covered)
      for (std::uint32_t i : admitted) {
        if (is_completion_edge(g.edges[i]) != completes) continue;
        auto names = [&](std::uint32_t k) {
          return std::tie(g.nodes[g.edges[k].src].name, g.nodes[g.edges[k].dst].name);
        };
        if (keep == kUnset || names(i) < names(keep)) keep = i;
      }
    for (std::uint32_t i : admitted)
      if (i != keep) removed[i] = 1;
  }
  for (std::uint32_t i = 0; i < g.edges.size(); ++i) {
    if (!removed[i]) continue;
    const Edge& e = g.edges[i];
    out.reduction.removed.push_back({e.src, e.dst, e.kinds, e.flags, e.flags.has(Flag::Retain), i});
  }
  if (stats) stats->candidates = candidates;
  return out;
}

} // namespace depreduce
