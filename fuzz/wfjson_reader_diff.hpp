//===- fuzz/wfjson_reader_diff.hpp - Comparing the two WfCommons readers -*- C++ -*-===//
///
/// \file
/// What fuzz_wfjson_reader_diff and tests/wfjson_reader_test.cpp compare:
/// formats::read_wfjson (one pass) against formats::reference::read_wfjson
/// (nlohmann-json). Outcomes and their printing are those of the DOT pair
/// (dot_reader_diff.hpp); the agreement asked of errors is WfCommons' own:
///  * a JSON syntax error (both messages start with "JSON "): both reject,
///    on the same line; the wording is each reader's (nlohmann's is its own);
///  * any other error (the WfFormat checks, which both run in the same order
///    with the same text): the same line and the same message.
/// A syntax error on one side and a WfFormat error on the other is a mismatch.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FUZZ_WFJSON_READER_DIFF_HPP
#define DEPREDUCE_FUZZ_WFJSON_READER_DIFF_HPP

#include <optional>
#include <string>

#include "dot_reader_diff.hpp"

namespace depreduce::formats {

/// Whether \p o is a rejection of the JSON text itself (not of its content).
inline bool is_json_syntax_error(const ReaderOutcome& o) { return !o.ok && o.problem.rfind("JSON ", 0) == 0; }

/// Why \p fast and \p ref (the one-pass reader and nlohmann) differ, or nothing.
inline std::optional<std::string> wfjson_mismatch(const ReaderOutcome& fast, const ReaderOutcome& ref) {
  if (fast.ok != ref.ok) return std::string(fast.ok ? "only the reference rejects" : "only the fast reader rejects");
  if (!fast.ok) {
    const bool syntax = is_json_syntax_error(fast);
    if (syntax != is_json_syntax_error(ref))
      return std::string(syntax ? "only the fast reader rejects the JSON syntax"
                                : "only the reference rejects the JSON syntax");
    if (fast.line != ref.line) return std::string("both reject, on different lines");
    if (!syntax && fast.problem != ref.problem) return std::string("both reject the content, with different messages");
    return std::nullopt;
  }
  return mismatch(fast, ref);
}

} // namespace depreduce::formats

#endif // DEPREDUCE_FUZZ_WFJSON_READER_DIFF_HPP
