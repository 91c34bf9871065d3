//===- fuzz/fuzz_dot_writer_roundtrip.cpp - non-DOT reader -> DOT -> DOT reader ===//
///
/// \file
/// bytes -> the reader the content names (formats::read_graph_text with
/// Format::Auto on "-": '{' or '[' WfCommons JSON, '<' Pegasus DAX, a digit
/// STG) -> make_program_order -> formats::write_dot -> formats::read_dot and
/// cgraph: the same graph (dot_roundtrip.hpp). DOT input is skipped (DOT ->
/// DOT is fuzz_dot_reader_diff's and the DOT props'); rejected input is
/// the readers' own fuzzers' business. On a mismatch the input, the DOT text
/// and the reason are printed and the target aborts. It is the fuzzer that
/// writes DOT from a non-DOT reader's graph, whose names DOT must still carry
/// (a WfCommons task named `C:\tmp\` ends in a backslash that would escape
/// the closing quote).
///
/// Inputs above 64 KiB are skipped: the readers' cost is linear, but the
/// cgraph read-back and the second write triple it, and every construct of
/// the three formats fits in a few KiB (max_len in the .options file).
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "depreduce/formats/formats.hpp"
#include "dot_roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace f = depreduce::formats;
  if (size > (64u << 10)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (f::resolve_format("-", text, f::Format::Auto) == f::Format::Dot) return 0;
  depreduce::Graph g;
  try {
    g = depreduce::make_program_order(f::read_graph_text(text, "-", f::Format::Auto));
  } catch (const depreduce::InputError&) {
    return 0;
  }
  const std::string dot = f::write_dot(g);
  if (auto why = f::dot_roundtrip_mismatch(g, dot)) {
    std::fprintf(stderr, "fuzz_dot_writer_roundtrip: %s\n--- input (%zu bytes)\n%.*s\n--- written DOT\n%s\n",
                 why->c_str(), size, static_cast<int>(size < 4096 ? size : 4096), text.data(), dot.c_str());
    std::abort();
  }
  return 0;
}
