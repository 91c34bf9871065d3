//===- fuzz/fuzz_dot_reader_diff.cpp - fast DOT reader vs cgraph --------===//
///
/// \file
/// bytes -> formats::read_dot (the one-pass reader; also down its large-graph
/// paths from the first statement, read_dot_as_large())
/// and formats::reference::read_dot (Graphviz cgraph). They must return the same
/// InputGraph (==: header, graph attributes, defaults, nodes with their
/// attributes in order, model fields and lines, edges with attributes and
/// lines, the subgraph tree), or both must throw InputError on the same
/// line. Otherwise both results are printed and the target aborts.
///
/// Inputs above 1 MiB are skipped (cgraph is slow and keeps an ever-growing
/// error file; docs/formats.md, "cgraph quirks").
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "dot_reader_diff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const depreduce::formats::ReaderOutcome ref = depreduce::formats::outcome_of(
      [&] { return depreduce::formats::reference::read_dot(text, "in.dot"); });
  auto check = [&](const char* path, const depreduce::formats::ReaderOutcome& fast) {
    if (auto why = depreduce::formats::mismatch(fast, ref)) {
      std::fprintf(stderr, "fuzz_dot_reader_diff%s: %s\n--- input (%zu bytes)\n%.*s\n--- fast\n%s--- reference (cgraph)\n%s",
                   path, why->c_str(), size, static_cast<int>(size < 4096 ? size : 4096), text.data(),
                   depreduce::formats::describe(fast).c_str(), depreduce::formats::describe(ref).c_str());
      std::abort();
    }
  };
  check("", depreduce::formats::outcome_of([&] { return depreduce::formats::read_dot(text, "in.dot"); }));
  // The same with the simple statements scanned ahead from the first one.
  check(" (scanning ahead)", depreduce::formats::outcome_of(
                                 [&] { return depreduce::formats::read_dot_as_large(text, "in.dot"); }));
  return 0;
}
