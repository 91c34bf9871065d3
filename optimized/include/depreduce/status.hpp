//===- depreduce/status.hpp - Errors as values --------------------*- C++ -*-===//
///
/// \file
/// The error value of the entry points a compiler or runtime calls per graph,
/// per node or per task (SPEC §1, "embedding"): they return a `Status` instead
/// of throwing, so they work in code built with `-fno-exceptions`. The
/// throwing convenience API (`InputError`, depreduce/error.hpp) stays for tools.
///
/// A `Status` names the problem by a stable code (also the C API's error code,
/// depreduce/c_api.h), the index it concerns (a node id, an edge's position in
/// the caller's arrays, a task id's slot...: each function documents which)
/// and a message written for a person ("edge 7: 3 -> 2 goes backward in
/// program order"). Building the message is the only allocation on an error
/// path; the success path allocates nothing.
///
/// No exceptions, no RTTI, no I/O: this header is part of the vendorable core.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_STATUS_HPP
#define DEPREDUCE_STATUS_HPP

#include <cstdint>
#include <string>
#include <utility>

namespace depreduce {

/// What went wrong. The numeric values are the C API's `dr_status` codes and
/// never change meaning; new codes are appended.
enum class ErrorCode : std::int32_t {
  Ok = 0,
  /// A node id (or task id) is outside the graph (or the reducer's rings and slots).
  NodeOutOfRange = 1,
  /// An edge goes backward (or to itself where a self-loop is not allowed)
  /// in the program order the caller promised.
  NotProgramOrder = 2,
  /// The graph has a cycle (the message names the nodes of one).
  Cycle = 3,
  /// An engine is >= the declared engine count, or the count exceeds kMaxEngines.
  EngineOutOfRange = 4,
  /// Two nodes share a name.
  DuplicateName = 5,
  /// Arrays of different lengths, an output buffer too short, a null pointer,
  /// an option out of its documented range.
  BadArgument = 6,
  /// A call out of its documented order (an edge to a node not yet added, a
  /// retired node used again, a task published twice).
  BadState = 7,
  /// Memory ran out (only where the library can report it rather than terminate).
  OutOfMemory = 8,
};

/// The result of a call that can fail on bad input: `ok()` or a code, the
/// index it concerns and a message. Cheap to return when ok (no allocation).
class [[nodiscard]] Status {
public:
  Status() noexcept = default;
  Status(ErrorCode code, std::uint64_t index, std::string message)
      : code_(code), index_(index), message_(std::move(message)) {}

  /// The success value.
  static Status success() noexcept { return Status(); }

  bool ok() const noexcept { return code_ == ErrorCode::Ok; }
  explicit operator bool() const noexcept { return ok(); }
  ErrorCode code() const noexcept { return code_; }
  /// The node, edge or task index the error concerns (documented per function; 0 if none).
  std::uint64_t index() const noexcept { return index_; }
  /// A sentence for a person; empty when ok().
  const std::string& message() const noexcept { return message_; }

private:
  ErrorCode code_ = ErrorCode::Ok;
  std::uint64_t index_ = 0;
  std::string message_;
};

/// A short stable name of \p code ("node out of range", ...). Never null.
inline const char* error_code_name(ErrorCode code) noexcept {
  switch (code) {
  case ErrorCode::Ok: return "ok";
  case ErrorCode::NodeOutOfRange: return "node out of range";
  case ErrorCode::NotProgramOrder: return "not in program order";
  case ErrorCode::Cycle: return "cycle";
  case ErrorCode::EngineOutOfRange: return "engine out of range";
  case ErrorCode::DuplicateName: return "duplicate name";
  case ErrorCode::BadArgument: return "bad argument";
  case ErrorCode::BadState: return "call out of order";
  case ErrorCode::OutOfMemory: return "out of memory";
  }
  return "unknown error";
}

} // namespace depreduce

#endif // DEPREDUCE_STATUS_HPP
