//===- python/src/array_reduce.cpp - Reduction over edge arrays -----------===//
#include "array_reduce.hpp"

#include <algorithm>
#include <limits>
#include <span>
#include <string>

#include "depreduce/reducer.hpp"

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
  thread_local Reducer reducer; // its scratch is reused by this thread's calls
  if constexpr (std::is_same_v<T, std::uint32_t>) {
    return reducer.reduce_edges(n, std::span<const std::uint32_t>(src, m), std::span<const std::uint32_t>(dst, m),
                                std::span<std::uint8_t>(keep, m));
  } else {
    // Ids checked above (0 <= id < n < 2^32): narrowed to what Reducer takes.
    const std::vector<std::uint32_t> s(src, src + m), d(dst, dst + m);
    return reducer.reduce_edges(n, s, d, std::span<std::uint8_t>(keep, m));
  }
}

template Status reduce_edge_arrays<std::uint32_t>(std::uint64_t, const std::uint32_t*, const std::uint32_t*,
                                                  std::size_t, std::uint8_t*);
template Status reduce_edge_arrays<std::uint64_t>(std::uint64_t, const std::uint64_t*, const std::uint64_t*,
                                                  std::size_t, std::uint8_t*);
template Status reduce_edge_arrays<std::int64_t>(std::uint64_t, const std::int64_t*, const std::int64_t*,
                                                 std::size_t, std::uint8_t*);

} // namespace depreduce::python
