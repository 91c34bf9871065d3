//===- fuzz/fuzz_transitive_reduction_engines_diff.cpp - Engine graphs, optimized vs reference
///
/// bytes -> walrus-style graph (engines, async windows, barriers, kinds,
/// WAIT/RETAIN; testing::engine_graph_from_bytes) -> both twins under each
/// kinds filter -> compare; abort with both results printed on any difference.
//===----------------------------------------------------------------------===//
#include "reduce_diff_common.hpp"

#include "depreduce/testing/generators.hpp"

/// Graphs of up to this many nodes (the decoder allows 48): the reference is
/// O(E * (V + E)) per kinds filter (docs/fuzzing.md, "Throughput").
constexpr std::uint32_t kMaxNodes = 16;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace depreduce;
  Graph g = testing::engine_graph_from_bytes(data, size, kMaxNodes);
  for (const KindFilter& f : {KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence()})
    fuzz::compare_all(g, {f, ReductionMode::Exact});
  return 0;
}
