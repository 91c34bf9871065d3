//===- fuzz/fuzz_transitive_reduction_diff.cpp - DAG reduction, optimized vs reference ===//
///
/// bytes -> DAG without engines (testing::dag_from_bytes) -> both twins ->
/// compare; abort with both results printed on any difference.
//===----------------------------------------------------------------------===//
#include "reduce_diff_common.hpp"

#include "depreduce/testing/generators.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace depreduce;
  Graph g = testing::dag_from_bytes(data, size);
  fuzz::compare_all(g, {});
  return 0;
}
