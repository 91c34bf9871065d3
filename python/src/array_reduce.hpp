//===- python/src/array_reduce.hpp - Reduction over edge arrays -*- C++ -*-===//
///
/// \file
/// The exact reduction (SPEC §4) of a plain graph given as two arrays of node
/// ids, the engine of `depreduce.reduce_edges` (python/src/module.cpp).
///
/// One function, `reduce_edge_arrays()`, behind which the module reduces: it
/// checks the ids the caller's buffers hold (negative, >= n, 64-bit) and hands
/// them to `depreduce::Reducer::reduce_edges` (depreduce/reducer.hpp), one
/// Reducer per thread so its scratch memory is reused across calls.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_PYTHON_ARRAY_REDUCE_HPP
#define DEPREDUCE_PYTHON_ARRAY_REDUCE_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/status.hpp"

namespace depreduce::python {

/// Ids of one edge array: 32-bit unsigned, 64-bit unsigned or 64-bit signed
/// (the layouts the module reads without a copy).
template <class T>
concept EdgeId = std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> ||
                 std::is_same_v<T, std::int64_t>;

/// Reduces the graph of \p m edges `src[i] -> dst[i]` over nodes 0..\p n-1
/// (every edge a plain WAIT edge without kind; no engines): `keep[i]` is set
/// to 1 if edge i stays in the exact reduction, 0 if it is redundant (SPEC
/// §4: another path implies it). Node ids may come in any order; when every
/// edge goes from a smaller to a larger id they are the program order and
/// are not renumbered. A self-loop (`src[i] == dst[i]`) is kept and plays no
/// part. A pair listed twice is one dependency (SPEC §2): its first
/// occurrence carries the verdict, the later ones are 0.
///
/// \returns ok, or (nothing written to \p keep then):
///  - NodeOutOfRange, index = the edge, for an id >= n or < 0 (signed ids);
///  - Cycle, index = an edge on the cycle, the message naming its nodes
///    ("cycle: 3 -> 5 -> 3");
///  - BadArgument for n > 2^32 - 1.
/// Cost: O(n + m) time when ids are in program order, O((n + m) log n) (a
/// heap, as make_program_order()) otherwise; O(n + m) memory, plus reduce()'s.
/// Thread-safety: no shared state; concurrent calls are fine.
template <EdgeId T>
Status reduce_edge_arrays(std::uint64_t n, const T* src, const T* dst, std::size_t m, std::uint8_t* keep);

/// The nodes of one cycle of the graph `src[i] -> dst[i]` over 0..n-1 (ids
/// already checked < n), in edge order (each to the next, the last to the
/// first), and in \p edge one edge of it; empty if the graph (self-loops
/// aside) is acyclic. Cost: O(n + m).
std::vector<std::uint32_t> find_cycle(std::uint32_t n, const std::uint32_t* src, const std::uint32_t* dst,
                                      std::size_t m, std::size_t* edge = nullptr);

extern template Status reduce_edge_arrays<std::uint32_t>(std::uint64_t, const std::uint32_t*, const std::uint32_t*,
                                                         std::size_t, std::uint8_t*);
extern template Status reduce_edge_arrays<std::uint64_t>(std::uint64_t, const std::uint64_t*, const std::uint64_t*,
                                                         std::size_t, std::uint8_t*);
extern template Status reduce_edge_arrays<std::int64_t>(std::uint64_t, const std::int64_t*, const std::int64_t*,
                                                        std::size_t, std::uint8_t*);

} // namespace depreduce::python

#endif
