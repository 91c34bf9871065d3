//===- fuzz/fuzz_reduce_input_diff.cpp - The pipeline vs the oracle on raw input
///
/// bytes -> an engine graph *as a reader would produce it*
/// (testing::input_graph_from_bytes: input order != program order, parallel
/// parts in every kind/flag combination, self-loops) -> the production path
/// (make_program_order, then every registered implementation on the merged
/// Graph) against the oracle on the InputGraph itself
/// (testing::raw_input_difference), under two kinds filters taken from the
/// bytes' last byte; abort with the difference printed. SPEC §1: the twins
/// share types, never meaning.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>

#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/raw_input.hpp"

/// Graphs of up to this many nodes (the decoder allows 48): the oracle's
/// all-pairs relations are super-linear in n (docs/fuzzing.md, "Throughput").
constexpr std::uint32_t kMaxNodes = 12;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace depreduce;
  const InputGraph in = testing::input_graph_from_bytes(data, size, kMaxNodes);
  const auto& all = testing::every_kind_filter();
  const std::uint8_t pick = size ? data[size - 1] : 0;
  const std::vector<KindFilter> filters{all.front(), all[pick % all.size()], all[(pick / 32u) % all.size()]};
  const std::string difference = testing::raw_input_difference(in, filters);
  if (!difference.empty()) {
    std::fprintf(stderr, "MISMATCH: %s\n", difference.c_str());
    std::abort();
  }
  return 0;
}
