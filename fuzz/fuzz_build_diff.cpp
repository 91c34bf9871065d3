//===- fuzz/fuzz_build_diff.cpp - Builder, optimized vs reference ---------===//
///
/// bytes -> access program (testing::access_program_from_bytes) -> both
/// twins' computed kinds (with and without bytes) and built graphs ->
/// compare; abort with the program and both results printed on any
/// difference, or if a built graph does not verify clean and race-free.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>

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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Graph g = testing::access_program_from_bytes(data, size);
  const auto& impls = testing::builder_impls();
  for (bool bytes : {true, false}) {
    const auto a = impls[0].computed_kinds(g, {bytes}), b = impls[1].computed_kinds(g, {bytes});
    if (a != b) {
      print(impls[0].name.c_str(), g, a);
      print(impls[1].name.c_str(), g, b);
      fail("computed kinds differ", g);
    }
  }
  const Graph built = impls[0].build_dependences(g);
  if (built != impls[1].build_dependences(g)) fail("built graphs differ", g);
  if (!impls[0].verify_labels(built).empty()) fail("a built graph does not verify clean", g);
  if (!impls[0].find_races(built).empty()) fail("a built graph races", g);
  return 0;
}
