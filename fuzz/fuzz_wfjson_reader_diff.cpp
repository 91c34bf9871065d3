//===- fuzz/fuzz_wfjson_reader_diff.cpp - one-pass WfCommons reader vs nlohmann ===//
///
/// \file
/// bytes -> formats::read_wfjson (the one-pass JSON scanner) and
/// formats::reference::read_wfjson (nlohmann-json's DOM). Both must return
/// the same InputGraph (==: name, nodes with their label attribute, lines
/// and input order, edges in order with their lines), or both must throw
/// InputError: on the same line for JSON syntax errors, on the same line and
/// with the same message for WfFormat errors (wfjson_reader_diff.hpp).
/// Otherwise both results are printed and the target aborts.
///
/// Inputs above 4 MiB are skipped (nlohmann builds its DOM at about 20 MB/s;
/// the largest real file, replayed from the seeds, is 2 MB).
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/wfjson_reader.hpp"
#include "wfjson_reader_diff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (4u << 20)) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const depreduce::formats::ReaderOutcome fast = depreduce::formats::outcome_of(
      [&] { return depreduce::formats::read_wfjson(text, "in.json"); });
  const depreduce::formats::ReaderOutcome ref = depreduce::formats::outcome_of(
      [&] { return depreduce::formats::reference::read_wfjson(text, "in.json"); });
  if (auto why = depreduce::formats::wfjson_mismatch(fast, ref)) {
    std::fprintf(stderr,
                 "fuzz_wfjson_reader_diff: %s\n--- input (%zu bytes)\n%.*s\n--- fast\n%s--- reference (nlohmann)\n%s",
                 why->c_str(), size, static_cast<int>(size < 4096 ? size : 4096), text.data(),
                 depreduce::formats::describe(fast).c_str(), depreduce::formats::describe(ref).c_str());
    std::abort();
  }
  return 0;
}
