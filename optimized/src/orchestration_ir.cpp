//===- orchestration_ir.cpp - Orchestration IR: checks and printer -------===//
#include "depreduce/orchestration_ir.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>

#include "depreduce/error.hpp"

namespace depreduce::orch {

bool Loop::operator==(const Loop&) const = default;
bool If::operator==(const If&) const = default;
bool Scope::operator==(const Scope&) const = default;
bool Stmt::operator==(const Stmt&) const = default;

const char* type_name(Type t) noexcept {
  switch (t) {
  case Type::Int: return "Int";
  case Type::TaskId: return "TaskId";
  case Type::TaskIdArray: return "Array[TASK_ID]";
  }
  return "?";
}

const char* cmp_op_text(CmpOp op) noexcept {
  switch (op) {
  case CmpOp::Eq: return "==";
  case CmpOp::Ne: return "!=";
  case CmpOp::Lt: return "<";
  case CmpOp::Le: return "<=";
  case CmpOp::Gt: return ">";
  case CmpOp::Ge: return ">=";
  }
  return "?";
}

const AttrValue* find_attr(const AttrList& attrs, const std::string& key) noexcept {
  for (const Attr& a : attrs)
    if (a.key == key) return &a.value;
  return nullptr;
}

namespace {

constexpr std::array<std::string_view, 20> kKeywords = {
    "orchestration", "kernel", "func",  "manual", "auto",  "array", "update",
    "submit",        "deps",   "for",   "in",     "seq",   "parallel", "iter",
    "yield",         "if",     "else",  "true",   "false", "system.task_dummy"};

//===--------------------------------------------------------------------===//
// Checker
//===--------------------------------------------------------------------===//

/// Walks one function in pre-order, keeping the visible names and their types.
class Checker {
public:
  explicit Checker(std::size_t fn) : fn_(fn) {}

  std::optional<Problem> run(const Function& f) {
    for (const std::string& p : f.params) {
      if (!is_valid_name(p)) return fail_header("invalid parameter name '" + p + "'");
      if (!defined_.insert(p).second) return fail_header("parameter '" + p + "' declared twice");
      visible_[p] = Type::Int;
    }
    block(f.body);
    return problem_;
  }

private:
  std::optional<Problem> fail_header(std::string msg) {
    return Problem{fn_, Problem::npos, std::move(msg)};
  }
  void fail(std::string msg) {
    if (!problem_) problem_ = Problem{fn_, cur_, std::move(msg)};
  }
  bool failed() const { return problem_.has_value(); }

  void define(const std::string& name, Type t, std::vector<std::string>* scope_names) {
    if (!is_valid_name(name)) return fail("invalid name '" + name + "'");
    if (!defined_.insert(name).second) return fail("'" + name + "' is defined twice");
    visible_[name] = t;
    if (scope_names) scope_names->push_back(name);
  }
  std::optional<Type> use(const std::string& name) {
    auto it = visible_.find(name);
    if (it == visible_.end()) {
      fail("use of undefined name '" + name + "'");
      return std::nullopt;
    }
    return it->second;
  }
  void use_as(const std::string& name, Type want, const char* what) {
    if (auto t = use(name); t && *t != want)
      fail(std::string(what) + " '" + name + "' must be " + type_name(want) + ", not " + type_name(*t));
  }
  void int_atom(const IntAtom& a, const char* what, bool non_negative) {
    if (const auto* v = std::get_if<std::int64_t>(&a)) {
      if (non_negative && *v < 0) fail(std::string(what) + " must be >= 0");
    } else {
      use_as(std::get<std::string>(a), Type::Int, what);
    }
  }
  void deps(const std::vector<std::string>& names, const char* what) {
    for (const std::string& d : names)
      if (auto t = use(d); t && *t == Type::Int)
        fail(std::string(what) + " '" + d + "' must be a TaskId or an Array[TASK_ID], not Int");
  }
  void attrs(const AttrList& list, bool is_dummy) {
    std::set<std::string> keys;
    for (const Attr& a : list) {
      if (!keys.insert(a.key).second) fail("attribute '" + a.key + "' given twice");
      if (a.key == kAttrManualDepEdges) {
        if (!is_dummy) fail("manual_dep_edges is only allowed on system.task_dummy (use deps=[...])");
        else if (a.value.kind != AttrValue::Kind::Names) fail("manual_dep_edges must be a list of names");
        else deps(a.value.names, "manual_dep_edges entry");
      } else if (a.key == kAttrDummyTask && a.value.kind != AttrValue::Kind::Bool) {
        fail("dummy_task must be true or false");
      } else if (a.value.kind == AttrValue::Kind::Names) {
        for (const std::string& n : a.value.names) use(n);
      }
    }
  }

  /// Runs \p b as a lexical block: names defined directly in it disappear after.
  /// Its yields belong to the statement \p owner (the loop or if).
  void lexical_block(const Block& b, const std::vector<std::string>& yields,
                     std::vector<Type>* yield_types, std::vector<std::string> own, std::size_t owner) {
    for (const Stmt& s : b) stmt(s, &own);
    if (!failed()) cur_ = owner;
    for (const std::string& y : yields) {
      auto t = use(y);
      if (yield_types) yield_types->push_back(t.value_or(Type::Int));
    }
    for (const std::string& n : own) visible_.erase(n);
  }
  void block(const Block& b) {
    for (const Stmt& s : b) stmt(s, nullptr);
  }

  void stmt(const Stmt& s, std::vector<std::string>* scope_names) {
    if (failed()) return;
    cur_ = next_++;
    std::visit([&](const auto& n) { node(n, scope_names); }, s.node);
  }

  void node(const ArrayCreate& n, std::vector<std::string>* sn) {
    int_atom(n.length, "array length", true);
    define(n.result, Type::TaskIdArray, sn);
  }
  void node(const ArrayUpdate& n, std::vector<std::string>* sn) {
    use_as(n.array, Type::TaskIdArray, "updated array");
    int_atom(n.index, "array index", true);
    use_as(n.task, Type::TaskId, "stored task");
    define(n.result, Type::TaskIdArray, sn);
  }
  void node(const ArrayGet& n, std::vector<std::string>* sn) {
    use_as(n.array, Type::TaskIdArray, "indexed array");
    int_atom(n.index, "array index", true);
    define(n.result, Type::TaskId, sn);
  }
  void node(const Copy& n, std::vector<std::string>* sn) {
    auto t = use(n.source);
    if (t) define(n.result, *t, sn);
  }
  void node(const Submit& n, std::vector<std::string>* sn) {
    if (!is_valid_name(n.kernel)) fail("invalid kernel name '" + n.kernel + "'");
    for (const Arg& a : n.args)
      if (const auto* name = std::get_if<std::string>(&a)) use(*name);
    deps(n.deps, "dep");
    attrs(n.attrs, false);
    if (!n.result.empty()) define(n.result, Type::TaskId, sn);
  }
  void node(const TaskDummy& n, std::vector<std::string>* sn) {
    attrs(n.attrs, true);
    if (n.result.empty()) return fail("system.task_dummy needs a result name");
    define(n.result, Type::TaskId, sn);
  }
  void node(const Loop& n, std::vector<std::string>* sn) {
    int_atom(n.trip, "trip count", true);
    if ((!n.results.empty() && n.results.size() != n.iter_args.size()) || n.yields.size() != n.iter_args.size())
      return fail("loop has " + std::to_string(n.iter_args.size()) + " iteration argument(s), " +
                  std::to_string(n.yields.size()) + " yielded value(s) and " +
                  std::to_string(n.results.size()) + " result(s); they must match");
    std::vector<Type> arg_types;
    for (const IterArg& a : n.iter_args) {
      if (a.init_length) {
        if (!a.init.empty()) return fail("iteration argument '" + a.name + "' has both a name and array(n) as init");
        int_atom(*a.init_length, "array length", true);
        arg_types.push_back(Type::TaskIdArray);
      } else {
        arg_types.push_back(use(a.init).value_or(Type::Int));
      }
    }
    if (failed()) return;
    std::vector<std::string> own;
    define(n.var, Type::Int, &own);
    for (std::size_t k = 0; k < n.iter_args.size(); ++k) define(n.iter_args[k].name, arg_types[k], &own);
    std::size_t loop_stmt = cur_;
    std::vector<Type> yield_types;
    lexical_block(n.body, n.yields, &yield_types, std::move(own), loop_stmt);
    if (failed()) return;
    cur_ = loop_stmt;
    for (std::size_t k = 0; k < yield_types.size(); ++k)
      if (yield_types[k] != arg_types[k])
        return fail("yielded '" + n.yields[k] + "' is " + type_name(yield_types[k]) + " but iteration argument '" +
                    n.iter_args[k].name + "' is " + type_name(arg_types[k]));
    for (std::size_t k = 0; k < n.results.size(); ++k) define(n.results[k], arg_types[k], sn);
  }
  void node(const If& n, std::vector<std::string>* sn) {
    int_atom(n.cond.lhs, "condition operand", false);
    int_atom(n.cond.rhs, "condition operand", false);
    if (n.then_yields.size() != n.results.size() || n.else_yields.size() != n.results.size() ||
        (!n.results.empty() && !n.has_else) || (!n.has_else && !n.else_body.empty()))
      return fail("if has " + std::to_string(n.results.size()) +
                  " result(s); each branch must exist and yield that many values");
    std::size_t if_stmt = cur_;
    std::vector<Type> then_types, else_types;
    lexical_block(n.then_body, n.then_yields, &then_types, {}, if_stmt);
    if (n.has_else) lexical_block(n.else_body, n.else_yields, &else_types, {}, if_stmt);
    if (failed()) return;
    cur_ = if_stmt;
    for (std::size_t k = 0; k < n.results.size(); ++k) {
      if (then_types[k] != else_types[k])
        return fail("branches yield " + std::string(type_name(then_types[k])) + " and " +
                    type_name(else_types[k]) + " for result '" + n.results[k] + "'");
      define(n.results[k], then_types[k], sn);
    }
  }
  void node(const Scope& n, std::vector<std::string>* sn) {
    for (const Stmt& s : n.body) stmt(s, sn);
  }

  std::size_t fn_;
  std::size_t next_ = 0;
  std::size_t cur_ = Problem::npos;
  std::set<std::string> defined_;
  std::map<std::string, Type> visible_;
  std::optional<Problem> problem_;
};

//===--------------------------------------------------------------------===//
// Printer
//===--------------------------------------------------------------------===//

std::string atom_text(const IntAtom& a) {
  if (const auto* v = std::get_if<std::int64_t>(&a)) return std::to_string(*v);
  return std::get<std::string>(a);
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

std::string attrs_text(const AttrList& attrs) {
  if (attrs.empty()) return "";
  std::string out = " {";
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    const AttrValue& v = attrs[i].value;
    if (i) out += ", "; // appended step by step: GCC 12 -O3 -Wrestrict false positive
    out += attrs[i].key;
    out += " = ";
    switch (v.kind) {
    case AttrValue::Kind::Bool: out += v.boolean ? "true" : "false"; break;
    case AttrValue::Kind::Int: out += std::to_string(v.integer); break;
    case AttrValue::Kind::Names:
      out += '[';
      out += join(v.names);
      out += ']';
      break;
    }
  }
  return out + "}";
}

class Printer {
public:
  std::string out;

  void block(const Block& b, int indent) {
    for (const Stmt& s : b) stmt(s, indent);
  }
  void stmt(const Stmt& s, int indent) {
    std::visit([&](const auto& n) { node(n, indent); }, s.node);
  }

private:
  void line(int indent, const std::string& text) {
    out.append(static_cast<std::size_t>(indent) * 2, ' ');
    out += text;
    out += '\n';
  }
  static std::string lhs(const std::vector<std::string>& results) {
    return results.empty() ? std::string() : join(results) + " = ";
  }
  void yield_line(int indent, const std::vector<std::string>& yields) {
    if (!yields.empty()) line(indent, "yield " + join(yields));
  }

  void node(const ArrayCreate& n, int ind) { line(ind, n.result + " = array(" + atom_text(n.length) + ")"); }
  void node(const ArrayUpdate& n, int ind) {
    line(ind, n.result + " = update(" + n.array + ", " + atom_text(n.index) + ", " + n.task + ")");
  }
  void node(const ArrayGet& n, int ind) { line(ind, n.result + " = " + n.array + "[" + atom_text(n.index) + "]"); }
  void node(const Copy& n, int ind) { line(ind, n.result + " = " + n.source); }
  void node(const Submit& n, int ind) {
    std::string args;
    for (std::size_t i = 0; i < n.args.size(); ++i) args += (i ? ", " : "") + atom_text(n.args[i]);
    std::string text = (n.result.empty() ? "" : n.result + " = ") + "submit(" + n.kernel + ", [" + args + "]";
    if (!n.deps.empty()) text += ", deps=[" + join(n.deps) + "]";
    line(ind, text + ")" + attrs_text(n.attrs));
  }
  void node(const TaskDummy& n, int ind) {
    line(ind, n.result + " = system.task_dummy()" + attrs_text(n.attrs));
  }
  void node(const Loop& n, int ind) {
    std::string text = lhs(n.results) + "for " + n.var + " in " +
                       (n.kind == LoopKind::Parallel ? "parallel(" : "seq(") + atom_text(n.trip) + ")";
    if (!n.iter_args.empty()) {
      text += " iter(";
      for (std::size_t i = 0; i < n.iter_args.size(); ++i)
        text += (i ? ", " : "") + n.iter_args[i].name + " = " +
                (n.iter_args[i].init_length ? "array(" + atom_text(*n.iter_args[i].init_length) + ")"
                                            : n.iter_args[i].init);
      text += ")";
    }
    line(ind, text + " {");
    block(n.body, ind + 1);
    yield_line(ind + 1, n.yields);
    line(ind, "}");
  }
  void node(const If& n, int ind) {
    line(ind, lhs(n.results) + "if " + atom_text(n.cond.lhs) + " " + cmp_op_text(n.cond.op) + " " +
                  atom_text(n.cond.rhs) + " {");
    block(n.then_body, ind + 1);
    yield_line(ind + 1, n.then_yields);
    if (n.has_else) {
      line(ind, "} else {");
      block(n.else_body, ind + 1);
      yield_line(ind + 1, n.else_yields);
    }
    line(ind, "}");
  }
  void node(const Scope& n, int ind) {
    line(ind, std::string(n.manual ? "manual" : "auto") + " {");
    block(n.body, ind + 1);
    line(ind, "}");
  }
};

} // namespace

bool is_keyword(const std::string& word) noexcept {
  return std::find(kKeywords.begin(), kKeywords.end(), std::string_view(word)) != kKeywords.end();
}

bool is_valid_name(const std::string& word) noexcept {
  if (word.empty() || is_keyword(word)) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(word[0])) return false;
  for (char c : word)
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '.') return false;
  return word.back() != '.';
}

std::optional<Problem> find_problem(const Program& program) {
  std::set<std::string> names;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Function& fn = program.functions[f];
    if (!is_valid_name(fn.name)) return Problem{f, Problem::npos, "invalid function name '" + fn.name + "'"};
    if (!names.insert(fn.name).second) return Problem{f, Problem::npos, "function '" + fn.name + "' defined twice"};
    if (auto p = Checker(f).run(fn)) return p;
  }
  return std::nullopt;
}

void validate(const Program& program, const std::string& file) {
  if (auto p = find_problem(program)) {
    std::string where = "function '" + (p->function < program.functions.size()
                                            ? program.functions[p->function].name
                                            : std::string("?")) + "'";
    if (p->stmt != Problem::npos) where += ", statement " + std::to_string(p->stmt);
    throw InputError(file, 0, where + ": " + p->message);
  }
}

std::string print(const Stmt& stmt, int indent) {
  Printer p;
  p.stmt(stmt, indent);
  return std::move(p.out);
}

std::string print(const Program& program) {
  Printer p;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Function& fn = program.functions[f];
    if (f) p.out += '\n';
    p.out += std::string(fn.kind == FunctionKind::Orchestration ? "orchestration" : "kernel") + " func " +
             fn.name + "(" + join(fn.params) + ") {\n";
    p.block(fn.body, 1);
    p.out += "}\n";
  }
  return std::move(p.out);
}

} // namespace depreduce::orch
