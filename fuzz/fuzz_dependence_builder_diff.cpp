//===- fuzz/fuzz_dependence_builder_diff.cpp - Builder, optimized vs reference ---------===//
///
/// bytes -> access program (testing::access_program_from_bytes) -> every
/// registered builder's (testing::builder_impls) computed kinds (with and
/// without bytes) and built graph -> compare with the reference; abort with
/// the program and both results printed on any difference, or if the built
/// graph does not verify clean and race-free under every registered verifier
/// and race check.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "depreduce/testing/access_programs.hpp"

namespace {

using namespace depreduce;

void print(const char* who, const Graph& g, const std::vector<Dependence>& deps) {
  std::fprintf(stderr, "%s: %zu pairs\n", who, deps.size());
  for (const Dependence& d : deps)
    std::fprintf(stderr, "  %s -> %s %s %s\n", g.nodes[d.src].name.c_str(), g.nodes[d.dst].name.c_str(),
                 to_string(d.kinds).c_str(), to_string(d.bytes).c_str());
}

[[noreturn]] void fail(const char* what, const Graph& g) {
  std::fprintf(stderr, "MISMATCH: %s\n%s", what, testing::describe(g).c_str());
  std::abort();
}

} // namespace

/// Programs of up to this many nodes (access_program_from_bytes' cap; the
/// decoder allows 32). The reference's computed kinds work byte piece by byte
/// piece and cost ~n^3: 0.3 ms per input at n = 1, 2.7 at n = 8, 55 at n = 32
/// under ASan (docs/fuzzing.md, "Throughput"); props/ and tests/ hold the
/// builders to each other on larger programs.
constexpr std::uint32_t kMaxNodes = 8;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Graph g = testing::access_program_from_bytes(data, size, kMaxNodes);
  const testing::BuilderImpl& ref = testing::reference_builder();
  const Graph expected = ref.build_dependences(g);
  // The reference's answers once, then every registered builder (optimized
  // first, then any third party's) against them.
  std::optional<std::vector<Dependence>> ref_kinds[2];
  for (const testing::BuilderImpl& impl : testing::builder_impls()) {
    if (&impl == &ref) continue;
    if (impl.computed_kinds)
      for (bool bytes : {true, false}) {
        auto& b = ref_kinds[bytes];
        if (!b) b = ref.computed_kinds(g, {bytes});
        const auto a = impl.computed_kinds(g, {bytes});
        if (a != *b) {
          print(impl.name.c_str(), g, a);
          print(ref.name.c_str(), g, *b);
          fail("computed kinds differ", g);
        }
      }
    if (!impl.build_dependences) continue;
    const Graph built = impl.build_dependences(g);
    if (built != expected) fail((impl.name + ": built graphs differ").c_str(), g);
  }
  if (!ref.verify_labels(expected).empty()) fail("a built graph does not verify clean", g);
  if (!ref.find_races(expected).empty()) fail("a built graph races", g);
  for (const testing::BuilderImpl& impl : testing::builder_impls()) {
    if (&impl == &ref) continue; // checked just above
    if (impl.verify_labels && !impl.verify_labels(expected).empty())
      fail((impl.name + ": a built graph does not verify clean").c_str(), g);
    if (impl.find_races && !impl.find_races(expected).empty()) fail((impl.name + ": a built graph races").c_str(), g);
  }
  return 0;
}
