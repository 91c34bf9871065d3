//===- fuzz/fuzz_online_reduction_diff.cpp - Online reducer, optimized vs reference
///
/// bytes -> walrus-style graph (testing::engine_graph_from_bytes: engines,
/// async windows, barriers, kinds, WAIT/RETAIN) -> fed node by node to the
/// optimized online reducer and its Boost.Graph oracle under each kinds
/// filter, with edge orders, retirement and queries drawn from a hash of the
/// bytes (fuzz/online_reduction_diff.hpp) -> abort on the first difference.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>

#include "online_reduction_diff.hpp"

#include "depreduce/testing/generators.hpp"

/// Graphs of up to this many nodes (the decoder allows 48): the oracle does a
/// breadth-first search of the graph so far per query and per source, so a
/// graph costs O(n * (n + m) * (queries + degree)) (docs/fuzzing.md, "Throughput").
constexpr std::uint32_t kMaxNodes = 24;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace depreduce;
  Graph g = testing::engine_graph_from_bytes(data, size, kMaxNodes);
  // An odd last byte takes the engines away: explicit edges alone, where
  // bank B is kept apart only from the first ORDERED-only edge on.
  if (size > 0 && (data[size - 1] & 1u)) fuzz::strip_engines(g);
  std::uint64_t seed = 1469598103934665603u; // FNV-1a of the bytes: edge orders, retirement, queries
  for (std::size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 1099511628211u;
  for (const KindFilter& f : {KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence()}) {
    const std::string d = fuzz::online_difference(g, f, seed);
    if (!d.empty()) {
      std::fprintf(stderr, "online reduction differs (filter %s): %s\n", to_string(f.kinds).c_str(), d.c_str());
      std::abort();
    }
  }
  return 0;
}
