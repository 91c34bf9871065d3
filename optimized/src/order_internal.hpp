//===- order_internal.hpp - Pair sort and Kahn order for the by-id entries ===//
///
/// \file
/// Shared by graph_builder.cpp and reducer.cpp: the counting sort that puts
/// edges in (src, dst) order with each pair's parts together in call order
/// (as make_program_order() merges them), and the stable Kahn order with
/// the nodes of one cycle when there is none. Both work on edge ends given
/// by accessors, so the builder's records and the caller's arrays share them.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_SRC_ORDER_INTERNAL_HPP
#define DEPREDUCE_SRC_ORDER_INTERNAL_HPP

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/graph_builder.hpp"

namespace depreduce::detail {

/// Fills \p out with the indices of the edges (self-loops left out) in (src,
/// dst) order, the parts of one pair in index order: one counting pass by
/// dst, then a stable one by src. \p count and \p tmp are scratch.
/// Preconditions: every end < n. Cost: O(n + m).
template <class Src, class Dst>
void sort_by_pair(std::uint32_t n, std::uint32_t m, Src src_of, Dst dst_of, std::vector<std::uint32_t>& count,
                  std::vector<std::uint32_t>& tmp, std::vector<std::uint32_t>& out) {
  count.assign(std::size_t{n} + 1, 0);
  std::uint32_t links = 0;
  for (std::uint32_t i = 0; i < m; ++i)
    if (src_of(i) != dst_of(i)) ++count[dst_of(i) + 1], ++links;
  for (std::uint32_t v = 0; v < n; ++v) count[v + 1] += count[v];
  tmp.resize(links);
  for (std::uint32_t i = 0; i < m; ++i)
    if (src_of(i) != dst_of(i)) tmp[count[dst_of(i)]++] = i;
  count.assign(std::size_t{n} + 1, 0);
  for (std::uint32_t k = 0; k < links; ++k) ++count[src_of(tmp[k]) + 1];
  for (std::uint32_t v = 0; v < n; ++v) count[v + 1] += count[v];
  out.resize(links);
  for (std::uint32_t k = 0; k < links; ++k) out[count[src_of(tmp[k])]++] = tmp[k];
}

/// Program order of n nodes under the edges (self-loops ignored): Kahn's
/// algorithm taking the ready node of smallest id first (make_program_order()'s
/// rule). On success fills \p rank (rank[v] = position of v) and returns
/// true; on a cycle fills \p cycle with its nodes in forward order, sets
/// \p cycle_edge to the index of the edge cycle.back() -> cycle.front(), and
/// returns false. Cost: O(n log n + m).
template <class Src, class Dst>
bool stable_topological_rank(std::uint32_t n, std::uint32_t m, Src src_of, Dst dst_of, std::vector<NodeId>& rank,
                             std::vector<NodeId>& cycle, std::uint32_t& cycle_edge) {
  std::vector<std::uint32_t> out_begin(std::size_t{n} + 1, 0), in_begin(std::size_t{n} + 1, 0);
  for (std::uint32_t i = 0; i < m; ++i)
    if (src_of(i) != dst_of(i)) ++out_begin[src_of(i) + 1], ++in_begin[dst_of(i) + 1];
  for (std::uint32_t v = 0; v < n; ++v) out_begin[v + 1] += out_begin[v], in_begin[v + 1] += in_begin[v];
  std::vector<std::uint32_t> out_list(out_begin[n]), in_list(in_begin[n]);
  {
    std::vector<std::uint32_t> fo(out_begin.begin(), out_begin.end() - 1), fi(in_begin.begin(), in_begin.end() - 1);
    for (std::uint32_t i = 0; i < m; ++i)
      if (src_of(i) != dst_of(i)) out_list[fo[src_of(i)]++] = i, in_list[fi[dst_of(i)]++] = i;
  }
  std::vector<std::uint32_t> indegree(n);
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
  for (NodeId v = 0; v < n; ++v)
    if ((indegree[v] = in_begin[v + 1] - in_begin[v]) == 0) ready.push(v);
  rank.assign(n, 0);
  std::vector<bool> done(n, false);
  std::uint32_t at = 0;
  while (!ready.empty()) {
    const NodeId v = ready.top();
    ready.pop();
    rank[v] = at++;
    done[v] = true;
    for (std::uint32_t k = out_begin[v]; k < out_begin[v + 1]; ++k)
      if (--indegree[dst_of(out_list[k])] == 0) ready.push(dst_of(out_list[k]));
  }
  if (at == n) return true;
  // Every node left has a predecessor left: walking those must revisit one.
  NodeId v = 0;
  while (done[v]) ++v;
  std::vector<std::int64_t> seen_at(n, -1);
  std::vector<NodeId> walk;
  std::vector<std::uint32_t> via; // via[k]: the edge walk[k+1] -> walk[k]
  while (seen_at[v] < 0) {
    seen_at[v] = static_cast<std::int64_t>(walk.size());
    walk.push_back(v);
    for (std::uint32_t k = in_begin[v]; k < in_begin[v + 1]; ++k)
      if (!done[src_of(in_list[k])]) {
        via.push_back(in_list[k]);
        v = src_of(in_list[k]);
        break;
      }
  }
  const auto first = static_cast<std::size_t>(seen_at[v]);
  cycle.assign(walk.begin() + static_cast<std::ptrdiff_t>(first), walk.end());
  std::reverse(cycle.begin(), cycle.end()); // predecessor walk -> forward order
  // via[k] is the edge walk[k+1] -> walk[k]; the last step found
  // walk[first] as a predecessor of walk.back(): via.back() is the edge
  // walk[first] -> walk.back(), i.e. cycle.back() -> cycle.front().
  cycle_edge = via.back();
  return false;
}

/// The Graph GraphBuilder::finish() writes, for a builder already validated
/// (graph_builder.cpp); \p count, \p tmp, \p order are scratch. Without
/// names (\p with_names false) every node's name is left empty: for a Graph
/// that only reduce() reads.
void build_graph_in_order(const GraphBuilder& b, Graph& out, std::vector<std::uint32_t>& count,
                          std::vector<std::uint32_t>& tmp, std::vector<std::uint32_t>& order, bool with_names);

/// The nameless Graph of \p n nodes without engines and the unlabelled WAIT
/// edges src[i] -> dst[i] (all src[i] <= dst[i] < n), edge input_index = i.
void build_plain_graph(std::uint32_t n, std::uint32_t m, const std::uint32_t* src, const std::uint32_t* dst,
                       Graph& out, std::vector<std::uint32_t>& count, std::vector<std::uint32_t>& tmp,
                       std::vector<std::uint32_t>& order);

} // namespace depreduce::detail

#endif // DEPREDUCE_SRC_ORDER_INTERNAL_HPP
