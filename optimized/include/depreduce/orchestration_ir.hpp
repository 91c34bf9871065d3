//===- depreduce/orchestration_ir.hpp - Orchestration IR ------*- C++ -*-===//
///
/// \file
/// A small orchestration IR: the input of the phase-fence pass
/// (`phase_fence.hpp`, SPEC §7, "ExpandManualPhaseFence") and of its test
/// oracle, the interpreter in `depreduce/reference/phase_fence.hpp`.
///
/// A `Program` is a list of functions, each `orchestration` (host code that
/// submits tasks) or `kernel` (code the pass must leave alone). A function body
/// is a block of statements in SSA form: every name is defined exactly once in
/// a function, and is visible after its definition in its block and in the
/// blocks nested there. Loop and if bodies are lexical (their names are not
/// visible after them; values leave them through `yield` and result names);
/// runtime scopes (`manual` / `auto`) are transparent.
///
/// Values have one of three types:
///  - `Int` — function parameters (dynamic trip counts) and loop variables;
///  - `TaskId` — one task, or no task (an empty array slot read with `a[i]`);
///  - `Array[TASK_ID]` — a handle to array *storage*. `array(n)` creates new
///    storage with n empty slots (new storage each time it runs, so once per
///    iteration in a loop body); `update(a, i, t)` writes slot i of a's storage
///    *in place* and returns another handle to the same storage. Copies
///    (`x = a`), iteration arguments, loop results and if results pass handles
///    along, so several names can alias one storage.
///
/// The text form, its grammar and examples are in docs/orchestration-ir.md;
/// the parser is `depreduce/formats/orchestration_text.hpp`. Everything here
/// is a plain value type (vectors and variants) that compares with `==`.
/// No I/O: this header is part of the vendorable core.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_ORCHESTRATION_IR_HPP
#define DEPREDUCE_ORCHESTRATION_IR_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace depreduce::orch {

/// The type of a value.
enum class Type : std::uint8_t {
  Int,         ///< trip counts, loop variables, indices
  TaskId,      ///< `Scalar[TASK_ID]`: one task or none
  TaskIdArray, ///< `Array[TASK_ID]`: a handle to array storage
};

/// "Int", "TaskId" or "Array[TASK_ID]".
const char* type_name(Type t) noexcept;

/// An integer operand: a literal or the name of an `Int` value.
using IntAtom = std::variant<std::int64_t, std::string>;

/// A kernel argument: an integer literal or the name of any value. Arguments
/// never create dependencies; they are carried for the task's label.
using Arg = IntAtom;

/// Attribute value: a boolean, an integer or a list of value names.
struct AttrValue {
  enum class Kind : std::uint8_t { Bool, Int, Names };
  Kind kind = Kind::Bool;
  bool boolean = false;
  std::int64_t integer = 0;
  std::vector<std::string> names;

  static AttrValue of_bool(bool b) { AttrValue v; v.kind = Kind::Bool; v.boolean = b; return v; }
  static AttrValue of_int(std::int64_t i) { AttrValue v; v.kind = Kind::Int; v.integer = i; return v; }
  static AttrValue of_names(std::vector<std::string> n) {
    AttrValue v; v.kind = Kind::Names; v.names = std::move(n); return v;
  }
  bool operator==(const AttrValue&) const = default;
};

/// One `key = value` attribute. Keys are unique within a list; order is kept.
struct Attr {
  std::string key;
  AttrValue value;
  bool operator==(const Attr&) const = default;
};
using AttrList = std::vector<Attr>;

/// Returns the attribute named \p key, or nullptr.
const AttrValue* find_attr(const AttrList& attrs, const std::string& key) noexcept;

/// Attribute keys with a meaning to the pass and the interpreter.
inline constexpr const char* kAttrDummyTask = "dummy_task";
inline constexpr const char* kAttrManualDepEdges = "manual_dep_edges";

struct Stmt;
/// A sequence of statements.
using Block = std::vector<Stmt>;

/// `result = array(length)`: new `Array[TASK_ID]` storage, all slots empty.
struct ArrayCreate {
  std::string result;
  IntAtom length;
  bool operator==(const ArrayCreate&) const = default;
};

/// `result = update(array, index, task)`: writes slot `index` of `array`'s
/// storage in place; `result` is another handle to the same storage.
struct ArrayUpdate {
  std::string result;
  std::string array;
  IntAtom index;
  std::string task;
  bool operator==(const ArrayUpdate&) const = default;
};

/// `result = source`: a copy (rename) of any value. For an array it is one
/// more handle to the same storage (PyPTO's variable rebinding); the pass
/// follows it back to `source`.
struct Copy {
  std::string result;
  std::string source;
  bool operator==(const Copy&) const = default;
};

/// `result = array[index]`: reads one slot (a partial-slot `TaskId`).
struct ArrayGet {
  std::string result;
  std::string array;
  IntAtom index;
  bool operator==(const ArrayGet&) const = default;
};

/// `[result =] submit(kernel, [args], deps=[d, ...]) [{attrs}]`: submits one
/// real task that waits for every task named by `deps` (a `TaskId` names one
/// task or none; an array names every filled slot at submission time).
/// `result` may be empty (the TaskId is then not bound).
struct Submit {
  std::string result;
  std::string kernel;
  std::vector<Arg> args;
  std::vector<std::string> deps;
  AttrList attrs;
  bool operator==(const Submit&) const = default;
};

/// `result = system.task_dummy() [{attrs}]`: a dependency-only dummy task that
/// waits for the values listed in `attrs["manual_dep_edges"]` (the only call
/// allowed to carry that attribute). The phase-fence barrier is one of these.
struct TaskDummy {
  std::string result;
  AttrList attrs;
  bool operator==(const TaskDummy&) const = default;
};

/// Loop kinds. The interpreter runs both the same way (iterations in index
/// order); the pass treats a dynamic trip count differently (phase_fence.hpp).
enum class LoopKind : std::uint8_t { Sequential, Parallel };

/// One iteration argument: `name = init` (the value of a visible name) or
/// `name = array(n)` (an expression: new storage of n empty slots, created
/// once each time the loop statement runs, before its first iteration; the
/// argument is then an `Array[TASK_ID]`).
struct IterArg {
  std::string name;
  std::string init;                  ///< the initial value's name; empty when `init_length` is set
  std::optional<IntAtom> init_length; ///< set for `name = array(n)`: the length n
  bool operator==(const IterArg&) const = default;
};

/// `[r, ...] = for var in seq|parallel(trip) [iter(a = init, ...)] { body; [yield v, ...] }`
/// Runs `body` `trip` times with `var` = 0..trip-1. Iteration argument k starts
/// as `init` (or as new storage, for `array(n)`) and takes the k-th yielded value after each iteration; result k
/// is its final value (the init when the loop runs zero times).
/// `iter_args` and `yields` have the same length; `results` too, or it is
/// empty (the final values are dropped).
struct Loop {
  std::vector<std::string> results;
  std::string var;
  LoopKind kind = LoopKind::Sequential;
  IntAtom trip;
  std::vector<IterArg> iter_args;
  Block body;
  std::vector<std::string> yields;
  bool operator==(const Loop&) const;
};

/// Comparison operators of an if condition.
enum class CmpOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
/// "==", "!=", "<", "<=", ">", ">=".
const char* cmp_op_text(CmpOp op) noexcept;

/// `lhs op rhs` over integers.
struct Cond {
  IntAtom lhs;
  CmpOp op = CmpOp::Eq;
  IntAtom rhs;
  bool operator==(const Cond&) const = default;
};

/// `[r, ...] = if cond { then; [yield ...] } [else { else; [yield ...] }]`.
/// With results, both branches exist and yield one value per result.
struct If {
  std::vector<std::string> results;
  Cond cond;
  Block then_body;
  std::vector<std::string> then_yields;
  bool has_else = false;
  Block else_body;
  std::vector<std::string> else_yields;
  bool operator==(const If&) const;
};

/// `manual { ... }` or `auto { ... }`: a runtime scope. In a manual scope the
/// user's `deps=[...]` are the task dependencies (the pass only looks there);
/// in an automatic scope the runtime derives them (the interpreter still
/// honours explicit deps). Scopes are transparent for name visibility.
struct Scope {
  bool manual = true;
  Block body;
  bool operator==(const Scope&) const;
};

/// One statement.
struct Stmt {
  std::variant<ArrayCreate, ArrayUpdate, ArrayGet, Copy, Submit, TaskDummy, Loop, If, Scope> node;
  bool operator==(const Stmt&) const;
};

/// Function kinds. Only orchestration functions are rewritten by the pass.
enum class FunctionKind : std::uint8_t { Orchestration, Kernel };

/// `orchestration|kernel func name(params) { body }`; params are `Int` values
/// (dynamic trip counts, bound by the interpreter from a name -> value map).
struct Function {
  std::string name;
  FunctionKind kind = FunctionKind::Orchestration;
  std::vector<std::string> params;
  Block body;
  bool operator==(const Function&) const = default;
};

/// A program: functions in order (names unique).
struct Program {
  std::vector<Function> functions;
  bool operator==(const Program&) const = default;
};

/// A well-formedness problem found by `find_problem`: the function index, the
/// statement's index in pre-order within that function (a statement counts
/// before its nested blocks; a then-block before its else-block; `npos` when
/// the problem is the function header itself) and the message.
struct Problem {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t function = 0;
  std::size_t stmt = npos;
  std::string message;
};

/// Checks the rules of the IR: unique function names; every name defined once
/// per function and not a keyword; uses refer to visible names of the right
/// type (a copy takes its source's type); yields match results and iteration
/// arguments in number and type; an iteration argument has exactly one of a
/// name and an `array(n)` init; literal trip counts, lengths and indices are >= 0; `manual_dep_edges` only
/// on `system.task_dummy`; `dummy_task` is a bool. Returns the first problem
/// in program order, or nothing. Cost: O(program size * log names).
std::optional<Problem> find_problem(const Program& program);

/// Throws depreduce::InputError(file, 0, "function F, statement S: message")
/// for the first problem `find_problem` reports; returns otherwise.
void validate(const Program& program, const std::string& file = "<program>");

/// True for the reserved words of the text form (they cannot name values).
bool is_keyword(const std::string& word) noexcept;

/// True if \p word is a valid name: [A-Za-z_][A-Za-z0-9_.]*, not a keyword.
bool is_valid_name(const std::string& word) noexcept;

/// The canonical text form (docs/orchestration-ir.md): two-space indents, one
/// statement per line, no comments. `parse_orchestration(print(p)) == p` for
/// every valid program, so print -> parse -> print is stable.
std::string print(const Program& program);

/// Prints one statement (and its nested blocks) at \p indent levels.
std::string print(const Stmt& stmt, int indent = 0);

} // namespace depreduce::orch

#endif // DEPREDUCE_ORCHESTRATION_IR_HPP
