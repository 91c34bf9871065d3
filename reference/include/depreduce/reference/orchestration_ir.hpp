//===- depreduce/reference/orchestration_ir.hpp - Oracle ------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. The oracle's own check of an
/// orchestration program, the twin of depreduce::orch::find_problem() and
/// orch::validate() (depreduce/orchestration_ir.hpp): the same rules of the
/// IR (docs/orchestration-ir.md), written again as one recursive walk with a
/// stack of scopes, so that the interpreter (reference/phase_fence.hpp)
/// validates its input with code of its own. props/phase_fence_props.cpp holds
/// the two checks to the same verdict, place and message.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_ORCHESTRATION_IR_HPP
#define DEPREDUCE_REFERENCE_ORCHESTRATION_IR_HPP

#include <optional>
#include <string>

#include "depreduce/orchestration_ir.hpp"

namespace depreduce::reference {

/// The first problem of \p program, or nothing. The rules, checked per
/// function in order (the function header first, then its statements in
/// pre-order, a statement before its nested blocks, a then-block before its
/// else-block):
///  - function names are valid names (see is_valid_ir_name()) and unique;
///    parameters are valid names, declared once, of type Int;
///  - in a function, every name is defined once and is a valid name; a use
///    names a visible value (visible after its definition in its block and in
///    the blocks nested there; loop and if bodies are lexical, manual/auto
///    scopes are not) of the type the place asks for;
///  - literal array lengths, indices and trip counts are >= 0;
///  - deps (and manual_dep_edges entries) are TaskIds or arrays, never Int;
///  - attribute keys are unique in a list; manual_dep_edges is a list of
///    names and only on system.task_dummy; dummy_task is a boolean; a
///    system.task_dummy has a result name;
///  - a loop has as many yields (and results, if any) as iteration
///    arguments, each argument has a name or array(n) as init, not both, and
///    each yield has its argument's type; an if with results has both
///    branches, each yielding one value per result, of equal types.
/// Within a statement, problems are found in the order the statement is
/// written (operands, then the body, then yields, then results). A problem of
/// a loop's or if's own header, yields or results belongs to that statement.
/// Cost: O(program size * log names).
std::optional<orch::Problem> first_program_problem(const orch::Program& program);

/// Throws InputError(\p file, 0, "function 'F', statement S: message") (", statement S"
/// left out for a header problem) for first_program_problem(); returns
/// otherwise, as orch::validate() does.
void check_program(const orch::Program& program, const std::string& file);

/// A name of the IR: a letter or '_', then letters, digits, '_' and '.', not
/// ending in '.', and none of the text form's keywords.
bool is_valid_ir_name(const std::string& word);

} // namespace depreduce::reference

#endif // DEPREDUCE_REFERENCE_ORCHESTRATION_IR_HPP
