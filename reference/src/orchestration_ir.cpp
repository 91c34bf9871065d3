//===- orchestration_ir.cpp - TEST ORACLE: the IR's well-formedness -------===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. See depreduce/reference/orchestration_ir.hpp.
/// One recursive walk per function. The visible names live in a stack of
/// scopes (one per lexical block: the function body, each loop body, each if
/// branch); the names defined anywhere in the function in one set. The walk
/// stops at the first problem by throwing `Found`.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/orchestration_ir.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "depreduce/error.hpp"

namespace depreduce::reference {

using namespace depreduce::orch;

namespace {

const char* const kKeywords[] = {"orchestration", "kernel", "func",  "manual",   "auto", "array",  "update",
                                 "submit",        "deps",   "for",   "in",       "seq",  "parallel", "iter",
                                 "yield",         "if",     "else",  "true",     "false", "system.task_dummy"};

std::string name_of(Type t) {
  if (t == Type::Int) return "Int";
  if (t == Type::TaskId) return "TaskId";
  return "Array[TASK_ID]";
}

/// The first problem, thrown to end the walk.
struct Found {
  std::size_t stmt;
  std::string message;
};

class FunctionCheck {
public:
  /// Checks the parameters and body of one function; throws Found.
  void run(const Function& f) {
    scopes_.emplace_back();
    for (const std::string& p : f.params) {
      if (!is_valid_ir_name(p)) throw Found{Problem::npos, "invalid parameter name '" + p + "'"};
      if (defined_.count(p)) throw Found{Problem::npos, "parameter '" + p + "' declared twice"};
      defined_.insert(p);
      scopes_.back()[p] = Type::Int;
    }
    for (const Stmt& s : f.body) statement(s);
  }

private:
  std::set<std::string> defined_;                 // every name defined so far in the function
  std::vector<std::map<std::string, Type>> scopes_; // visible names, innermost last
  std::size_t count_ = 0;                          // statements seen, in pre-order
  std::size_t here_ = 0;                           // the statement being checked

  [[noreturn]] void problem(const std::string& message) { throw Found{here_, message}; }

  void define(const std::string& name, Type type) {
    if (!is_valid_ir_name(name)) problem("invalid name '" + name + "'");
    if (defined_.count(name)) problem("'" + name + "' is defined twice");
    defined_.insert(name);
    scopes_.back()[name] = type;
  }

  Type type_of(const std::string& name) {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
      if (scope->count(name)) return scope->at(name);
    problem("use of undefined name '" + name + "'");
  }

  void expect(const std::string& name, Type want, const std::string& what) {
    const Type got = type_of(name);
    if (got != want) problem(what + " '" + name + "' must be " + name_of(want) + ", not " + name_of(got));
  }

  void integer(const IntAtom& atom, const std::string& what, bool must_be_non_negative) {
    if (std::holds_alternative<std::int64_t>(atom)) {
      if (must_be_non_negative && std::get<std::int64_t>(atom) < 0) problem(what + " must be >= 0");
    } else {
      expect(std::get<std::string>(atom), Type::Int, what);
    }
  }

  void dependence(const std::string& name, const std::string& what) {
    if (type_of(name) == Type::Int)
      problem(what + " '" + name + "' must be a TaskId or an Array[TASK_ID], not Int");
  }

  void attributes(const AttrList& list, bool on_task_dummy) {
    std::set<std::string> keys;
    for (const Attr& a : list) {
      if (keys.count(a.key)) problem("attribute '" + a.key + "' given twice");
      keys.insert(a.key);
      if (a.key == kAttrManualDepEdges) {
        if (!on_task_dummy) problem("manual_dep_edges is only allowed on system.task_dummy (use deps=[...])");
        if (a.value.kind != AttrValue::Kind::Names) problem("manual_dep_edges must be a list of names");
        for (const std::string& n : a.value.names) dependence(n, "manual_dep_edges entry");
      } else if (a.key == kAttrDummyTask) {
        if (a.value.kind != AttrValue::Kind::Bool) problem("dummy_task must be true or false");
      } else if (a.value.kind == AttrValue::Kind::Names) {
        for (const std::string& n : a.value.names) type_of(n);
      }
    }
  }

  /// Runs a lexical block: a new scope, already holding \p own, dropped after
  /// the yields are read. Returns the yields' types.
  std::vector<Type> lexical(const Block& body, const std::vector<std::string>& yields,
                            std::map<std::string, Type> own, std::size_t owner) {
    scopes_.push_back(std::move(own));
    for (const Stmt& s : body) statement(s);
    here_ = owner; // yields belong to the loop or if
    std::vector<Type> types;
    for (const std::string& y : yields) types.push_back(type_of(y));
    scopes_.pop_back();
    return types;
  }

  void statement(const Stmt& s) {
    here_ = count_++;
    std::visit([&](const auto& node) { check(node); }, s.node);
  }

  void check(const ArrayCreate& n) {
    integer(n.length, "array length", true);
    define(n.result, Type::TaskIdArray);
  }
  void check(const ArrayUpdate& n) {
    expect(n.array, Type::TaskIdArray, "updated array");
    integer(n.index, "array index", true);
    expect(n.task, Type::TaskId, "stored task");
    define(n.result, Type::TaskIdArray);
  }
  void check(const ArrayGet& n) {
    expect(n.array, Type::TaskIdArray, "indexed array");
    integer(n.index, "array index", true);
    define(n.result, Type::TaskId);
  }
  void check(const Copy& n) { define(n.result, type_of(n.source)); }
  void check(const Submit& n) {
    if (!is_valid_ir_name(n.kernel)) problem("invalid kernel name '" + n.kernel + "'");
    for (const Arg& a : n.args)
      if (std::holds_alternative<std::string>(a)) type_of(std::get<std::string>(a));
    for (const std::string& d : n.deps) dependence(d, "dep");
    attributes(n.attrs, false);
    if (!n.result.empty()) define(n.result, Type::TaskId);
  }
  void check(const TaskDummy& n) {
    attributes(n.attrs, true);
    if (n.result.empty()) problem("system.task_dummy needs a result name");
    define(n.result, Type::TaskId);
  }
  void check(const Loop& n) {
    const std::size_t self = here_;
    integer(n.trip, "trip count", true);
    const std::size_t args = n.iter_args.size();
    if ((!n.results.empty() && n.results.size() != args) || n.yields.size() != args)
      problem("loop has " + std::to_string(args) + " iteration argument(s), " + std::to_string(n.yields.size()) +
              " yielded value(s) and " + std::to_string(n.results.size()) + " result(s); they must match");
    std::vector<Type> arg_types;
    for (const IterArg& a : n.iter_args) {
      if (a.init_length) {
        if (!a.init.empty()) problem("iteration argument '" + a.name + "' has both a name and array(n) as init");
        integer(*a.init_length, "array length", true);
        arg_types.push_back(Type::TaskIdArray);
      } else {
        arg_types.push_back(type_of(a.init));
      }
    }
    // The loop variable and the iteration arguments are names of the body.
    scopes_.emplace_back();
    define(n.var, Type::Int);
    for (std::size_t k = 0; k < args; ++k) define(n.iter_args[k].name, arg_types[k]);
    std::map<std::string, Type> own = std::move(scopes_.back());
    scopes_.pop_back();
    const std::vector<Type> yield_types = lexical(n.body, n.yields, std::move(own), self);
    for (std::size_t k = 0; k < args; ++k)
      if (yield_types[k] != arg_types[k])
        problem("yielded '" + n.yields[k] + "' is " + name_of(yield_types[k]) + " but iteration argument '" +
                n.iter_args[k].name + "' is " + name_of(arg_types[k]));
    for (std::size_t k = 0; k < n.results.size(); ++k) define(n.results[k], arg_types[k]);
  }
  void check(const If& n) {
    const std::size_t self = here_;
    integer(n.cond.lhs, "condition operand", false);
    integer(n.cond.rhs, "condition operand", false);
    const std::size_t results = n.results.size();
    const bool branches_fit = n.then_yields.size() == results && n.else_yields.size() == results &&
                              (results == 0 || n.has_else) && (n.has_else || n.else_body.empty());
    if (!branches_fit)
      problem("if has " + std::to_string(results) + " result(s); each branch must exist and yield that many values");
    const std::vector<Type> then_types = lexical(n.then_body, n.then_yields, {}, self);
    std::vector<Type> else_types;
    if (n.has_else) else_types = lexical(n.else_body, n.else_yields, {}, self);
    for (std::size_t k = 0; k < results; ++k) {
      if (then_types[k] != else_types[k])
        problem("branches yield " + name_of(then_types[k]) + " and " + name_of(else_types[k]) + " for result '" +
                n.results[k] + "'");
      define(n.results[k], then_types[k]);
    }
  }
  void check(const Scope& n) {
    for (const Stmt& s : n.body) statement(s); // a runtime scope adds no scope of names
  }
};

} // namespace

bool is_valid_ir_name(const std::string& word) {
  if (word.empty()) return false;
  for (const char* k : kKeywords)
    if (word == k) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!letter(word[0])) return false;
  for (char c : word)
    if (!letter(c) && !digit(c) && c != '.') return false;
  return word.back() != '.';
}

std::optional<Problem> first_program_problem(const Program& program) {
  std::set<std::string> functions;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Function& fn = program.functions[f];
    if (!is_valid_ir_name(fn.name)) return Problem{f, Problem::npos, "invalid function name '" + fn.name + "'"};
    if (functions.count(fn.name)) return Problem{f, Problem::npos, "function '" + fn.name + "' defined twice"};
    functions.insert(fn.name);
    try {
      FunctionCheck().run(fn);
    } catch (const Found& found) {
      return Problem{f, found.stmt, found.message};
    }
  }
  return std::nullopt;
}

void check_program(const Program& program, const std::string& file) {
  const std::optional<Problem> p = first_program_problem(program);
  if (!p) return;
  std::string where = "function '" + program.functions[p->function].name + "'";
  if (p->stmt != Problem::npos) where += ", statement " + std::to_string(p->stmt);
  throw InputError(file, 0, where + ": " + p->message);
}

} // namespace depreduce::reference
