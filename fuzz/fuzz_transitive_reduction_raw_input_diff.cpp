//===- fuzz/fuzz_transitive_reduction_raw_input_diff.cpp - The pipeline vs the oracle on raw input
///
/// bytes -> an engine graph *as a reader would produce it*
/// (testing::input_graph_from_bytes: input order != program order, parallel
/// parts in every kind/flag combination, self-loops) -> the production path
/// (make_program_order, then every registered implementation on the merged
/// Graph) against the oracle on the InputGraph itself
/// (testing::raw_input_difference), under two kinds filters taken from the
/// bytes' last byte; abort with the difference printed. A next-to-last byte
/// of 0xD0 or more injects a fault (testing::inject_fault: a duplicate name,
/// an engine out of range, too many engines, an unknown node, a cycle): both
/// must then reject with the same message. SPEC §1: the twins share types,
/// never meaning.
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
  InputGraph in = testing::input_graph_from_bytes(data, size, kMaxNodes);
  // A next-to-last byte of 0xD0 or more makes the input bad
  // (testing::inject_fault, the kind from that byte, where from the two
  // bytes before it): both sides must then reject it with the same message.
  if (size >= 4 && data[size - 2] >= 0xD0)
    testing::inject_fault(in, static_cast<testing::InputFault>((data[size - 2] - 0xD0) % testing::kInputFaults),
                          data[size - 3], data[size - 4]);
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
