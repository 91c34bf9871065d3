//===- depreduce/error.hpp - The one error type for bad input --*- C++ -*-===//
///
/// \file
/// Every reader and every public entry point reports bad input by throwing
/// `InputError` (SPEC §9). The library never aborts on bad input.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_ERROR_HPP
#define DEPREDUCE_ERROR_HPP

#include <cstdint>
#include <stdexcept>
#include <string>

namespace depreduce {

/// Bad input: names the file, the line (0 = no line applies) and the problem.
/// `what()` is "file:line: problem" (or "file: problem" without a line).
class InputError : public std::runtime_error {
public:
  InputError(std::string file, std::uint32_t line, std::string problem);
  const std::string& file() const noexcept { return file_; }
  std::uint32_t line() const noexcept { return line_; }
  const std::string& problem() const noexcept { return problem_; }
  /// True for cycle errors (the CLI exits 2 for them, SPEC §9).
  bool is_cycle() const noexcept { return problem_.rfind("cycle", 0) == 0; }
private:
  std::string file_;
  std::uint32_t line_;
  std::string problem_;
};

} // namespace depreduce

#endif // DEPREDUCE_ERROR_HPP
