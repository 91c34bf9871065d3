//===- python/src/array_reduce.cpp - Reduction over edge arrays -----------===//
#include "array_reduce.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <string>

#include "depreduce/transitive_reduction.hpp"

// The switch to the library's own array entry: once depreduce/reducer.hpp
// (depreduce::Reducer::reduce_edges, from the compiler-lib branch) is in the
// library, set this to 1 (or -DDEPREDUCE_PYTHON_USE_REDUCER=1). The checks
// above the reduction stay (negative ids, 64-bit ids: Reducer takes uint32).
#ifndef DEPREDUCE_PYTHON_USE_REDUCER
#define DEPREDUCE_PYTHON_USE_REDUCER 0
#endif
#if DEPREDUCE_PYTHON_USE_REDUCER
#include <span>

#include "depreduce/reducer.hpp"
#endif

namespace depreduce::python {

std::vector<std::uint32_t> find_cycle(std::uint32_t n, const std::uint32_t* src, const std::uint32_t* dst,
                                      std::size_t m, std::size_t* edge) {
  // Kahn's algorithm peels every node not on or behind a cycle; from any node
  // left, walking to a left-over predecessor must revisit a node, and the
  // revisited stretch is a cycle (walked backwards).
  std::vector<std::uint32_t> indeg(n, 0), in_begin(std::size_t{n} + 1, 0), in_list;
  std::vector<std::uint32_t> out_begin(std::size_t{n} + 1, 0), out_list;
  for (std::size_t i = 0; i < m; ++i)
    if (src[i] != dst[i]) ++in_begin[dst[i] + 1], ++out_begin[src[i] + 1], ++indeg[dst[i]];
  for (std::uint32_t v = 0; v < n; ++v) in_begin[v + 1] += in_begin[v], out_begin[v + 1] += out_begin[v];
  in_list.resize(in_begin[n]);
  out_list.resize(out_begin[n]);
  {
    std::vector<std::uint32_t> fi(in_begin.begin(), in_begin.end() - 1), fo(out_begin.begin(), out_begin.end() - 1);
    for (std::size_t i = 0; i < m; ++i)
      if (src[i] != dst[i]) in_list[fi[dst[i]]++] = static_cast<std::uint32_t>(i), out_list[fo[src[i]]++] = dst[i];
  }
  std::vector<std::uint32_t> stack;
  std::vector<char> done(n, 0);
  for (std::uint32_t v = 0; v < n; ++v)
    if (indeg[v] == 0) stack.push_back(v);
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    done[v] = 1;
    for (std::uint32_t k = out_begin[v]; k < out_begin[v + 1]; ++k)
      if (--indeg[out_list[k]] == 0) stack.push_back(out_list[k]);
  }
  std::uint32_t start = n;
  for (std::uint32_t v = 0; v < n && start == n; ++v)
    if (!done[v]) start = v;
  if (start == n) return {};
  std::vector<std::uint32_t> seen_at(n, std::numeric_limits<std::uint32_t>::max()), walk, walk_edge;
  std::uint32_t v = start;
  while (seen_at[v] == std::numeric_limits<std::uint32_t>::max()) {
    seen_at[v] = static_cast<std::uint32_t>(walk.size());
    walk.push_back(v);
    // A predecessor not peeled: one exists, or v would have been peeled.
    std::uint32_t via = 0;
    for (std::uint32_t k = in_begin[v]; k < in_begin[v + 1]; ++k)
      if (!done[src[in_list[k]]]) { via = in_list[k]; break; }
    walk_edge.push_back(via);
    v = src[via];
  }
  std::vector<std::uint32_t> cycle(walk.begin() + seen_at[v], walk.end());
  if (edge) *edge = walk_edge[seen_at[v]]; // an edge into the cycle's first node, from the cycle
  std::reverse(cycle.begin(), cycle.end()); // predecessor walk -> forward order
  return cycle;
}

namespace {

template <class T>
Status check_ids(std::uint64_t n, const T* src, const T* dst, std::size_t m) {
  for (std::size_t i = 0; i < m; ++i) {
    for (int end = 0; end < 2; ++end) {
      const T v = end ? dst[i] : src[i];
      const char* which = end ? "dst" : "src";
      if constexpr (std::is_signed_v<T>) {
        if (v < 0)
          return Status(ErrorCode::NodeOutOfRange, i,
                        "edge " + std::to_string(i) + ": " + which + " id " + std::to_string(v) + " is negative");
      }
      if (static_cast<std::uint64_t>(v) >= n)
        return Status(ErrorCode::NodeOutOfRange, i,
                      "edge " + std::to_string(i) + ": " + which + " id " + std::to_string(v) +
                          " is out of range (n = " + std::to_string(n) + ")");
    }
  }
  return Status::success();
}

} // namespace

template <EdgeId T>
Status reduce_edge_arrays(std::uint64_t n64, const T* src, const T* dst, std::size_t m, std::uint8_t* keep) {
  if (n64 > std::numeric_limits<std::uint32_t>::max() - 1)
    return Status(ErrorCode::BadArgument, 0, "n = " + std::to_string(n64) + " nodes: at most 2^32 - 2");
  if (m > std::numeric_limits<std::uint32_t>::max() - 1)
    return Status(ErrorCode::BadArgument, 0, std::to_string(m) + " edges: at most 2^32 - 2");
  if (Status s = check_ids(n64, src, dst, m); !s.ok()) return s;
  const auto n = static_cast<std::uint32_t>(n64);
#if DEPREDUCE_PYTHON_USE_REDUCER
  thread_local Reducer reducer; // its scratch is reused by this thread's calls
  if constexpr (std::is_same_v<T, std::uint32_t>) {
    return reducer.reduce_edges(n, std::span<const std::uint32_t>(src, m), std::span<const std::uint32_t>(dst, m),
                                std::span<std::uint8_t>(keep, m));
  } else {
    // Ids checked above (0 <= id < n < 2^32): narrowed to what Reducer takes.
    const std::vector<std::uint32_t> s(src, src + m), d(dst, dst + m);
    return reducer.reduce_edges(n, s, d, std::span<std::uint8_t>(keep, m));
  }
#endif
  auto S = [&](std::size_t i) { return static_cast<std::uint32_t>(src[i]); };
  auto D = [&](std::size_t i) { return static_cast<std::uint32_t>(dst[i]); };

  // Program order: the ids themselves when every edge goes forward, else
  // Kahn's algorithm taking the smallest ready id (make_program_order()'s rule).
  bool forward = true;
  for (std::size_t i = 0; i < m && forward; ++i) forward = S(i) <= D(i);
  std::vector<std::uint32_t> rank; // empty: identity
  if (!forward) {
    std::vector<std::uint32_t> indeg(n, 0), out_begin(std::size_t{n} + 1, 0), out_list;
    for (std::size_t i = 0; i < m; ++i)
      if (S(i) != D(i)) ++out_begin[S(i) + 1], ++indeg[D(i)];
    for (std::uint32_t v = 0; v < n; ++v) out_begin[v + 1] += out_begin[v];
    out_list.resize(out_begin[n]);
    {
      std::vector<std::uint32_t> fill(out_begin.begin(), out_begin.end() - 1);
      for (std::size_t i = 0; i < m; ++i)
        if (S(i) != D(i)) out_list[fill[S(i)]++] = D(i);
    }
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    for (std::uint32_t v = 0; v < n; ++v)
      if (indeg[v] == 0) ready.push(v);
    rank.assign(n, 0);
    std::uint32_t next = 0;
    while (!ready.empty()) {
      const std::uint32_t v = ready.top();
      ready.pop();
      rank[v] = next++;
      for (std::uint32_t k = out_begin[v]; k < out_begin[v + 1]; ++k)
        if (--indeg[out_list[k]] == 0) ready.push(out_list[k]);
    }
    if (next != n) {
      std::vector<std::uint32_t> s32(m), d32(m);
      for (std::size_t i = 0; i < m; ++i) s32[i] = S(i), d32[i] = D(i);
      std::size_t edge = 0;
      const std::vector<std::uint32_t> cycle = find_cycle(n, s32.data(), d32.data(), m, &edge);
      std::string text;
      for (std::uint32_t v : cycle) text += std::to_string(v) + " -> ";
      text += std::to_string(cycle.front());
      return Status(ErrorCode::Cycle, edge, "cycle: " + text);
    }
  }
  auto R = [&](std::uint32_t v) { return rank.empty() ? v : rank[v]; };

  // The edges sorted by (src, dst) in program order: as given if they are,
  // else two stable counting passes (by dst, then by src).
  std::vector<std::uint32_t> order;
  order.reserve(m);
  for (std::size_t i = 0; i < m; ++i)
    if (S(i) != D(i)) order.push_back(static_cast<std::uint32_t>(i));
  bool sorted = true;
  for (std::size_t k = 1; k < order.size() && sorted; ++k) {
    const std::uint32_t a = order[k - 1], b = order[k];
    sorted = R(S(a)) < R(S(b)) || (R(S(a)) == R(S(b)) && R(D(a)) <= R(D(b)));
  }
  if (!sorted) {
    std::vector<std::uint32_t> tmp(order.size()), count(std::size_t{n} + 1);
    auto pass = [&](auto key, std::vector<std::uint32_t>& from, std::vector<std::uint32_t>& to) {
      std::fill(count.begin(), count.end(), 0);
      for (std::uint32_t i : from) ++count[key(i) + 1];
      for (std::uint32_t v = 0; v < n; ++v) count[v + 1] += count[v];
      for (std::uint32_t i : from) to[count[key(i)]++] = i;
    };
    pass([&](std::uint32_t i) { return R(D(i)); }, order, tmp);
    pass([&](std::uint32_t i) { return R(S(i)); }, tmp, order);
  }

  // The Graph and the index arrays are this thread's scratch, kept between
  // calls up to kKeepScratchBytes: each call of a fresh Graph paid its pages'
  // first-touch faults again (3,111 minor faults, 12 MB, on the 20k DAG; the
  // larger part of the call on this host), since glibc gives large blocks
  // back at free. Larger graphs release theirs at the end of the call.
  struct Scratch {
    Graph g;
    std::vector<std::uint32_t> input_of;
  };
  thread_local Scratch scratch;
  Graph& g = scratch.g;
  g.nodes.clear();
  g.edges.clear();
  g.nodes.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) g.nodes[v].input_index = v; // position -> id when renumbered: unused
  g.edges.reserve(order.size());
  std::vector<std::uint32_t>& input_of = scratch.input_of; // g.edges index -> first occurrence in the arrays
  input_of.clear();
  input_of.reserve(order.size());
  std::fill(keep, keep + m, std::uint8_t{1});
  for (std::uint32_t i : order) {
    const std::uint32_t s = R(S(i)), d = R(D(i));
    if (!g.edges.empty() && g.edges.back().src == s && g.edges.back().dst == d) {
      // A repeated pair: one dependency; the first occurrence (smallest index) carries it.
      if (i < input_of.back()) keep[input_of.back()] = 0, input_of.back() = i;
      else keep[i] = 0;
      continue;
    }
    Edge e;
    e.src = s;
    e.dst = d;
    e.input_index = i;
    g.edges.push_back(std::move(e));
    input_of.push_back(i);
  }
  const Reduction r = reduce(g);
  for (const RemovedEdge& x : r.removed) keep[input_of[x.edge]] = 0;
  constexpr std::size_t kKeepScratchBytes = std::size_t{64} << 20;
  if (g.nodes.capacity() * sizeof(Node) + g.edges.capacity() * sizeof(Edge) + input_of.capacity() * 4 >
      kKeepScratchBytes)
    scratch = Scratch{};
  return Status::success();
}

template Status reduce_edge_arrays<std::uint32_t>(std::uint64_t, const std::uint32_t*, const std::uint32_t*,
                                                  std::size_t, std::uint8_t*);
template Status reduce_edge_arrays<std::uint64_t>(std::uint64_t, const std::uint64_t*, const std::uint64_t*,
                                                  std::size_t, std::uint8_t*);
template Status reduce_edge_arrays<std::int64_t>(std::uint64_t, const std::int64_t*, const std::int64_t*,
                                                 std::size_t, std::uint8_t*);

} // namespace depreduce::python
