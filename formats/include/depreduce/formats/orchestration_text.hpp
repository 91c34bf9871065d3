//===- depreduce/formats/orchestration_text.hpp - Orchestration text -*- C++ -*-===//
///
/// \file
/// Reader of the text form of the orchestration IR (`depreduce/orchestration_ir.hpp`),
/// the input of the phase-fence pass (`depreduce fence`). The grammar, with
/// examples, is in docs/orchestration-ir.md; the writer is `orch::print`.
///
/// This is our own small language, so the reader is a hand-written
/// recursive-descent parser. Every error names `file:line:col`.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_ORCHESTRATION_TEXT_HPP
#define DEPREDUCE_FORMATS_ORCHESTRATION_TEXT_HPP

#include <cstdint>
#include <string>
#include <string_view>

#include "depreduce/error.hpp"
#include "depreduce/orchestration_ir.hpp"

namespace depreduce::formats {

/// A syntax or semantic error in orchestration text. It is an InputError
/// (file(), line(), problem() = the message without position) that also knows
/// the column; `what()` is "file:line:col: message". Columns count bytes from 1.
class OrchestrationSyntaxError : public InputError {
public:
  OrchestrationSyntaxError(std::string file, std::uint32_t line, std::uint32_t column, std::string message);
  std::uint32_t column() const noexcept { return column_; }
  const char* what() const noexcept override { return full_.c_str(); }

private:
  std::uint32_t column_;
  std::string full_;
};

/// Limits that keep the reader safe on hostile input (the fuzzers feed it
/// arbitrary bytes): deeper nesting would exhaust the stack of the recursive
/// descent, so it is rejected with an error instead.
inline constexpr std::size_t kMaxOrchestrationNesting = 128;

/// Parses orchestration text into a checked program.
///
/// \param text the whole file (UTF-8 or ASCII; `#` starts a comment to the end
///        of the line).
/// \param file the name used in error messages.
/// \returns a program for which `orch::find_problem` reports nothing, so
///        `orch::print` of it parses back to an equal program.
/// \throws OrchestrationSyntaxError ("file:line:col: message") for a lexical or
///        syntax error, for nesting deeper than kMaxOrchestrationNesting, and
///        for every rule of `orch::find_problem` (undefined or twice-defined
///        names, type mismatches, yield counts...; the column is the start of
///        the offending statement). Never aborts; cost O(text size).
orch::Program parse_orchestration(std::string_view text, const std::string& file = "<orchestration>");

/// Reads \p path and parses it. \throws InputError if the file cannot be read,
/// OrchestrationSyntaxError as above.
orch::Program read_orchestration(const std::string& path);

} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_ORCHESTRATION_TEXT_HPP
