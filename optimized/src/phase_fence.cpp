//===- phase_fence.cpp - ExpandManualPhaseFence ---------------------------===//
///
/// \file
/// One analysis walk per function builds a *safety index*: every value's
/// definition site and alias class (union-find over array handles), every
/// loop's place in the tree (pre-order interval, directly enclosing loop,
/// trip count) and every update. Each loop is then summarised once, bottom-up
/// (the alias classes and names it updates, nested loops included), so a
/// candidate's stability test is a lookup, not a rescan of nested bodies.
/// A second walk with the same pre-order numbering rewrites the function.
//===----------------------------------------------------------------------===//
#include "depreduce/phase_fence.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "depreduce/error.hpp"

namespace depreduce {

const char* fence_fallback_name(FenceFallback reason) noexcept {
  switch (reason) {
  case FenceFallback::NotOrchestration: return "not-orchestration";
  case FenceFallback::NotManualScope: return "not-manual-scope";
  case FenceFallback::NotInLoop: return "not-in-loop";
  case FenceFallback::InsideIf: return "inside-if";
  case FenceFallback::ScalarDep: return "scalar-dep";
  case FenceFallback::PartialSlot: return "partial-slot";
  case FenceFallback::MixedDeps: return "mixed-deps";
  case FenceFallback::MultipleArrays: return "multiple-arrays";
  case FenceFallback::LoopIterArg: return "loop-iter-arg";
  case FenceFallback::DefinedInBody: return "defined-in-body";
  case FenceFallback::ReturnValue: return "return-value";
  case FenceFallback::UpdatedInBody: return "updated-in-body";
  case FenceFallback::UpdatedThroughAlias: return "updated-through-alias";
  case FenceFallback::UnresolvedArray: return "unresolved-array";
  case FenceFallback::DynamicParallelTrip: return "dynamic-parallel-trip";
  case FenceFallback::ZeroTrip: return "zero-trip";
  case FenceFallback::Unprofitable: return "unprofitable";
  }
  return "?";
}

namespace {

using namespace depreduce::orch;

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}
std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return b > kSaturated - a ? kSaturated : a + b; }

/// N*M - (N+M) >= 1, i.e. (N-1)(M-1) >= 2, without overflow.
bool profitable(std::uint64_t n, std::uint64_t m) {
  return n >= 2 && m >= 2 && sat_mul(n - 1, m - 1) >= 2;
}

constexpr int kNone = -1;

/// Union-find over array handles.
struct AliasClasses {
  std::vector<int> parent;
  int add() {
    parent.push_back(static_cast<int>(parent.size()));
    return parent.back();
  }
  int find(int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

enum class Def : std::uint8_t { Param, LoopVar, IterArg, LoopResult, IfResult, Create, Update, Get, Submit, Dummy };

struct ValueInfo {
  Type type = Type::Int;
  Def def = Def::Param;
  int def_loop = kNone;  ///< stmt index of the innermost loop containing the definition (the loop itself for its var/iter-args)
  int node = kNone;      ///< alias node for arrays
  std::optional<std::int64_t> length; ///< literal length of array(n)
};

struct LoopInfo {
  int stmt = 0;             ///< pre-order statement index (the loop's id)
  int last = 0;             ///< largest statement index inside it
  int parent = kNone;       ///< innermost enclosing loop (any)
  int chain_parent = kNone; ///< enclosing loop whose body holds this loop directly (no if/scope between)
  LoopKind kind = LoopKind::Sequential;
  std::optional<std::int64_t> trip; ///< literal trip count
  std::string var;
  std::vector<int> updated_classes;       ///< alias-class roots updated in it, nested loops included
  std::vector<std::string> updated_names; ///< array names updated in it, nested loops included
};

struct Consumer {
  int stmt = 0;
  std::string label;
  std::optional<FenceFallback> reason;
  int hoist = kNone;       ///< loop stmt index to insert before
  std::string array;
  std::uint64_t multiplier = 0;
};

struct Ctx {
  int loop_any = kNone;      ///< innermost loop (any)
  int loop_in_scope = kNone; ///< innermost loop inside the innermost runtime scope
  int direct_loop = kNone;   ///< loop whose body is the block being walked (directly)
  std::optional<bool> manual; ///< innermost scope kind (none outside scopes)
  bool in_if = false;        ///< under an if since the innermost loop
};

/// Analysis and rewrite of one function.
class FunctionPass {
public:
  FunctionPass(const Function& fn) : fn_(fn) {}

  void analyse() {
    for (const std::string& p : fn_.params) values_[p] = ValueInfo{Type::Int, Def::Param, kNone, kNone, {}};
    next_ = 0;
    walk(fn_.body, Ctx{});
    summarise_loops();
    for (Consumer& c : consumers_)
      if (!c.reason) decide(c);
  }

  const std::vector<Consumer>& consumers() const { return consumers_; }
  std::vector<Consumer>& consumers() { return consumers_; }
  const LoopInfo& loop(int stmt) const { return loops_[loop_index_.at(stmt)]; }
  std::optional<std::int64_t> length_of(const std::string& array) {
    const ValueInfo& v = values_.at(array);
    return resolved_length(v);
  }

  /// Rewrites \p body: inserts \p inserts[loop stmt] before each such loop
  /// and replaces the deps of each submit in \p new_deps.
  void rewrite(Block& body, const std::map<int, std::vector<Stmt>>& inserts,
               const std::map<int, std::string>& new_deps) {
    next_ = 0;
    rewrite_block(body, inserts, new_deps);
  }

private:
  //===------------------------------------------------------------------===//
  // Walk 1: the safety index
  //===------------------------------------------------------------------===//
  void define(const std::string& name, Type type, Def def, int def_loop) {
    ValueInfo v{type, def, def_loop, kNone, {}};
    if (type == Type::TaskIdArray) v.node = classes_.add();
    values_[name] = v;
  }
  int node_of(const std::string& name) const { return values_.at(name).node; }

  void walk(const Block& b, Ctx ctx) {
    for (const Stmt& s : b) {
      int idx = next_++;
      std::visit([&](const auto& n) { visit(n, idx, ctx); }, s.node);
    }
  }

  void visit(const ArrayCreate& n, int, const Ctx& ctx) {
    define(n.result, Type::TaskIdArray, Def::Create, ctx.loop_any);
    if (const auto* len = std::get_if<std::int64_t>(&n.length)) values_[n.result].length = *len;
    creations_.push_back({values_[n.result].node, values_[n.result].length});
  }
  void visit(const ArrayUpdate& n, int, const Ctx& ctx) {
    define(n.result, Type::TaskIdArray, Def::Update, ctx.loop_any);
    classes_.unite(node_of(n.result), node_of(n.array));
    updates_.push_back({ctx.loop_any, n.array});
  }
  void visit(const ArrayGet& n, int, const Ctx& ctx) { define(n.result, Type::TaskId, Def::Get, ctx.loop_any); }
  void visit(const TaskDummy& n, int, const Ctx& ctx) { define(n.result, Type::TaskId, Def::Dummy, ctx.loop_any); }
  void visit(const Submit& n, int idx, const Ctx& ctx) {
    if (!n.result.empty()) define(n.result, Type::TaskId, Def::Submit, ctx.loop_any);
    if (n.deps.empty()) return;
    Consumer c;
    c.stmt = idx;
    c.label = n.result.empty() ? "submit#" + std::to_string(idx) : n.result;
    if (fn_.kind != FunctionKind::Orchestration) c.reason = FenceFallback::NotOrchestration;
    else if (!ctx.manual.value_or(false)) c.reason = FenceFallback::NotManualScope;
    else if (ctx.loop_in_scope == kNone) c.reason = FenceFallback::NotInLoop;
    else if (ctx.in_if) c.reason = FenceFallback::InsideIf;
    else classify_deps(n, c);
    c.hoist = ctx.loop_in_scope; // innermost loop; decide() hoists it
    consumers_.push_back(std::move(c));
  }
  void classify_deps(const Submit& n, Consumer& c) {
    std::size_t scalars = 0, arrays = 0;
    for (const std::string& d : n.deps) (values_.at(d).type == Type::TaskIdArray ? arrays : scalars)++;
    if (arrays == 0) {
      bool slot = scalars == 1 && values_.at(n.deps[0]).def == Def::Get;
      c.reason = slot ? FenceFallback::PartialSlot : FenceFallback::ScalarDep;
    } else if (scalars > 0) {
      c.reason = FenceFallback::MixedDeps;
    } else if (arrays > 1) {
      c.reason = FenceFallback::MultipleArrays;
    } else {
      c.array = n.deps[0];
    }
  }
  void visit(const Loop& n, int idx, const Ctx& ctx) {
    LoopInfo info;
    info.stmt = idx;
    info.parent = ctx.loop_any;
    info.chain_parent = ctx.direct_loop;
    info.kind = n.kind;
    if (const auto* t = std::get_if<std::int64_t>(&n.trip)) info.trip = *t;
    info.var = n.var;
    loop_index_[idx] = loops_.size();
    loops_.push_back(info);

    define(n.var, Type::Int, Def::LoopVar, idx);
    for (const IterArg& a : n.iter_args) {
      const ValueInfo init = values_.at(a.init);
      define(a.name, init.type, Def::IterArg, idx);
      if (init.type == Type::TaskIdArray) classes_.unite(node_of(a.name), init.node);
    }
    Ctx inner = ctx;
    inner.loop_any = idx;
    inner.loop_in_scope = idx;
    inner.direct_loop = idx;
    inner.in_if = false;
    walk(n.body, inner);
    loops_[loop_index_[idx]].last = next_ - 1;
    for (std::size_t k = 0; k < n.iter_args.size(); ++k) {
      const ValueInfo arg = values_.at(n.iter_args[k].name);
      if (arg.type == Type::TaskIdArray) classes_.unite(arg.node, node_of(n.yields[k]));
      if (k >= n.results.size()) continue;
      define(n.results[k], arg.type, Def::LoopResult, ctx.loop_any);
      if (arg.type == Type::TaskIdArray) classes_.unite(arg.node, node_of(n.results[k]));
    }
  }
  void visit(const If& n, int, const Ctx& ctx) {
    Ctx inner = ctx;
    inner.direct_loop = kNone;
    inner.in_if = true;
    walk(n.then_body, inner);
    if (n.has_else) walk(n.else_body, inner);
    for (std::size_t k = 0; k < n.results.size(); ++k) {
      Type t = values_.at(n.then_yields[k]).type;
      define(n.results[k], t, Def::IfResult, ctx.loop_any);
      if (t == Type::TaskIdArray) {
        classes_.unite(node_of(n.results[k]), node_of(n.then_yields[k]));
        classes_.unite(node_of(n.results[k]), node_of(n.else_yields[k]));
      }
    }
  }
  void visit(const Scope& n, int, const Ctx& ctx) {
    Ctx inner = ctx;
    inner.manual = n.manual;
    inner.loop_in_scope = kNone;
    inner.direct_loop = kNone;
    inner.in_if = false;
    walk(n.body, inner);
  }

  //===------------------------------------------------------------------===//
  // Loop summaries: computed once, bottom-up
  //===------------------------------------------------------------------===//
  void summarise_loops() {
    for (const auto& [loop, array] : updates_) {
      if (loop == kNone) continue;
      LoopInfo& l = loops_[loop_index_.at(loop)];
      l.updated_classes.push_back(classes_.find(node_of(array)));
      l.updated_names.push_back(array);
    }
    // Pre-order ids: children come after parents, so a reverse sweep sees
    // every nested loop complete before its parent.
    for (std::size_t k = loops_.size(); k-- > 0;) {
      LoopInfo& l = loops_[k];
      std::sort(l.updated_classes.begin(), l.updated_classes.end());
      l.updated_classes.erase(std::unique(l.updated_classes.begin(), l.updated_classes.end()), l.updated_classes.end());
      std::sort(l.updated_names.begin(), l.updated_names.end());
      l.updated_names.erase(std::unique(l.updated_names.begin(), l.updated_names.end()), l.updated_names.end());
      if (l.parent == kNone) continue;
      LoopInfo& p = loops_[loop_index_.at(l.parent)];
      p.updated_classes.insert(p.updated_classes.end(), l.updated_classes.begin(), l.updated_classes.end());
      p.updated_names.insert(p.updated_names.end(), l.updated_names.begin(), l.updated_names.end());
    }
    // Lengths of classes with exactly one creation.
    std::map<int, std::vector<std::optional<std::int64_t>>> by_class;
    for (const auto& [node, len] : creations_) by_class[classes_.find(node)].push_back(len);
    for (const auto& [root, lens] : by_class)
      if (lens.size() == 1 && lens[0]) class_length_[root] = *lens[0];
  }

  bool defined_in(const ValueInfo& v, const LoopInfo& l) const {
    return v.def_loop != kNone && v.def_loop >= l.stmt && v.def_loop <= l.last;
  }
  bool class_updated_in(const ValueInfo& v, const LoopInfo& l) {
    return std::binary_search(l.updated_classes.begin(), l.updated_classes.end(), classes_.find(v.node));
  }
  std::optional<std::int64_t> resolved_length(const ValueInfo& v) {
    if (v.def == Def::IfResult) return std::nullopt;
    auto it = class_length_.find(classes_.find(v.node));
    if (it == class_length_.end()) return std::nullopt;
    return it->second;
  }
  static bool countable(const LoopInfo& l) { return l.kind == LoopKind::Sequential || l.trip.has_value(); }

  /// Decides one single-array consumer: a fallback reason, or its hoisting
  /// loop and trip multiplier (profitability is decided per group later).
  void decide(Consumer& c) {
    const ValueInfo& v = values_.at(c.array);
    const LoopInfo* l0 = &loop(c.hoist);
    if (v.def == Def::IterArg && v.def_loop == l0->stmt) {
      c.reason = FenceFallback::LoopIterArg;
    } else if (defined_in(v, *l0)) {
      c.reason = (v.def == Def::LoopResult || v.def == Def::IfResult) ? FenceFallback::ReturnValue
                                                                      : FenceFallback::DefinedInBody;
    } else if (class_updated_in(v, *l0)) {
      c.reason = std::binary_search(l0->updated_names.begin(), l0->updated_names.end(), c.array)
                     ? FenceFallback::UpdatedInBody
                     : FenceFallback::UpdatedThroughAlias;
    } else if (!resolved_length(v)) {
      c.reason = FenceFallback::UnresolvedArray;
    } else if (!countable(*l0)) {
      c.reason = FenceFallback::DynamicParallelTrip;
    }
    if (c.reason) return;
    // Hoist outwards through directly nested loops while the array stays
    // stable and the trip counts stay countable.
    const LoopInfo* h = l0;
    while (h->chain_parent != kNone) {
      const LoopInfo& p = loop(h->chain_parent);
      if (defined_in(v, p) || class_updated_in(v, p) || !countable(p)) break;
      h = &p;
    }
    std::uint64_t mult = 1;
    for (const LoopInfo* l = l0;; l = &loop(l->chain_parent)) {
      if (l->trip && *l->trip == 0) {
        c.reason = FenceFallback::ZeroTrip;
        return;
      }
      mult = sat_mul(mult, l->trip ? static_cast<std::uint64_t>(*l->trip) : 1);
      if (l == h) break;
    }
    c.hoist = h->stmt;
    c.multiplier = mult;
  }

  //===------------------------------------------------------------------===//
  // Walk 2: the rewrite (same pre-order numbering as walk 1)
  //===------------------------------------------------------------------===//
  void rewrite_block(Block& b, const std::map<int, std::vector<Stmt>>& inserts,
                     const std::map<int, std::string>& new_deps) {
    Block out;
    out.reserve(b.size());
    for (Stmt& s : b) {
      int idx = next_++;
      if (auto it = inserts.find(idx); it != inserts.end())
        out.insert(out.end(), it->second.begin(), it->second.end());
      if (auto* sub = std::get_if<Submit>(&s.node)) {
        if (auto it = new_deps.find(idx); it != new_deps.end()) sub->deps = {it->second};
      } else if (auto* l = std::get_if<Loop>(&s.node)) {
        rewrite_block(l->body, inserts, new_deps);
      } else if (auto* i = std::get_if<If>(&s.node)) {
        rewrite_block(i->then_body, inserts, new_deps);
        rewrite_block(i->else_body, inserts, new_deps);
      } else if (auto* sc = std::get_if<Scope>(&s.node)) {
        rewrite_block(sc->body, inserts, new_deps);
      }
      out.push_back(std::move(s));
    }
    b = std::move(out);
  }

  const Function& fn_;
  int next_ = 0;
  std::map<std::string, ValueInfo> values_;
  AliasClasses classes_;
  std::vector<std::pair<int, std::optional<std::int64_t>>> creations_; // (node, literal length)
  std::vector<std::pair<int, std::string>> updates_;                 // (innermost loop, updated array)
  std::vector<LoopInfo> loops_;
  std::map<int, std::size_t> loop_index_;
  std::map<int, std::int64_t> class_length_;
  std::vector<Consumer> consumers_;
};

void collect_names(const Block& b, std::set<std::string>& names) {
  for (const Stmt& s : b) {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, Loop>) {
            names.insert(n.var);
            for (const auto& a : n.iter_args) names.insert(a.name);
            names.insert(n.results.begin(), n.results.end());
            collect_names(n.body, names);
          } else if constexpr (std::is_same_v<T, If>) {
            names.insert(n.results.begin(), n.results.end());
            collect_names(n.then_body, names);
            collect_names(n.else_body, names);
          } else if constexpr (std::is_same_v<T, Scope>) {
            collect_names(n.body, names);
          } else {
            if (!n.result.empty()) names.insert(n.result);
          }
        },
        s.node);
  }
}

} // namespace

orch::Program expand_manual_phase_fence(const orch::Program& program, PhaseFenceSummary* summary) {
  orch::validate(program);
  std::set<std::string> used;
  for (const Function& f : program.functions) {
    used.insert(f.params.begin(), f.params.end());
    collect_names(f.body, used);
  }
  std::size_t next_k = 0;
  auto fresh_name = [&] {
    for (;; ++next_k) {
      std::string name = "phase_fence_barrier_" + std::to_string(next_k);
      if (!used.count(name)) {
        ++next_k;
        used.insert(name);
        return name;
      }
    }
  };

  orch::Program out = program;
  PhaseFenceSummary sum;
  for (std::size_t fi = 0; fi < out.functions.size(); ++fi) {
    Function& fn = out.functions[fi];
    FunctionPass pass(program.functions[fi]);
    pass.analyse();

    // Group accepted consumers by (hoisting loop, array), in program order of
    // the loop, then of the group's first consumer.
    struct Group {
      int loop;
      std::string array;
      std::uint64_t m = 0;
      std::vector<std::size_t> members;
    };
    std::vector<Group> groups;
    std::map<std::pair<int, std::string>, std::size_t> group_of;
    std::vector<Consumer>& consumers = pass.consumers();
    for (std::size_t c = 0; c < consumers.size(); ++c) {
      if (consumers[c].reason) continue;
      auto key = std::make_pair(consumers[c].hoist, consumers[c].array);
      auto [it, fresh] = group_of.emplace(key, groups.size());
      if (fresh) groups.push_back(Group{key.first, key.second, 0, {}});
      Group& g = groups[it->second];
      g.m = sat_add(g.m, consumers[c].multiplier);
      g.members.push_back(c);
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.loop < b.loop; });

    std::map<int, std::vector<Stmt>> inserts;
    std::map<int, std::string> new_deps;
    for (const Group& g : groups) {
      std::uint64_t n = static_cast<std::uint64_t>(*pass.length_of(g.array));
      if (!profitable(n, g.m)) {
        for (std::size_t c : g.members) consumers[c].reason = FenceFallback::Unprofitable;
        continue;
      }
      FenceBarrier b;
      b.function = fn.name;
      b.name = fresh_name();
      b.array = g.array;
      b.loop_var = pass.loop(g.loop).var;
      b.n = n;
      b.m = g.m;
      b.sites = g.members.size();
      TaskDummy dummy;
      dummy.result = b.name;
      dummy.attrs = {Attr{kAttrDummyTask, AttrValue::of_bool(true)},
                     Attr{kAttrManualDepEdges, AttrValue::of_names({g.array})}};
      inserts[g.loop].push_back(Stmt{std::move(dummy)});
      for (std::size_t c : g.members) new_deps[consumers[c].stmt] = b.name;
      sum.barriers.push_back(std::move(b));
    }
    for (const Consumer& c : consumers)
      if (c.reason) sum.kept.push_back(FenceKept{fn.name, c.label, *c.reason});
    if (!inserts.empty()) pass.rewrite(fn.body, inserts, new_deps);
  }
  if (summary) *summary = std::move(sum);
  return out;
}

namespace {

void check_block(const Block& b, const std::set<std::string>& barriers, std::string& problem) {
  for (const Stmt& s : b) {
    if (!problem.empty()) return;
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, Submit>) {
            if (find_attr(n.attrs, kAttrManualDepEdges))
              problem = "submit '" + n.result + "' carries manual_dep_edges";
            for (const std::string& d : n.deps)
              if (barriers.count(d) && n.deps.size() != 1)
                problem = "submit '" + n.result + "' uses barrier '" + d + "' with other deps";
          } else if constexpr (std::is_same_v<T, TaskDummy>) {
            if (n.result.rfind("phase_fence_barrier_", 0) == 0) {
              const AttrValue* dt = find_attr(n.attrs, kAttrDummyTask);
              const AttrValue* edges = find_attr(n.attrs, kAttrManualDepEdges);
              if (!dt || dt->kind != AttrValue::Kind::Bool || !dt->boolean)
                problem = "barrier '" + n.result + "' is not marked dummy_task = true";
              else if (!edges || edges->kind != AttrValue::Kind::Names || edges->names.size() != 1)
                problem = "barrier '" + n.result + "' does not keep exactly one array in manual_dep_edges";
            }
          } else if constexpr (std::is_same_v<T, Loop>) {
            check_block(n.body, barriers, problem);
          } else if constexpr (std::is_same_v<T, If>) {
            check_block(n.then_body, barriers, problem);
            check_block(n.else_body, barriers, problem);
          } else if constexpr (std::is_same_v<T, Scope>) {
            check_block(n.body, barriers, problem);
          }
        },
        s.node);
  }
}

} // namespace

std::string check_phase_fence_invariants(const orch::Program& program) {
  std::string problem;
  for (const Function& f : program.functions) {
    std::set<std::string> names;
    collect_names(f.body, names);
    std::set<std::string> barriers;
    for (const std::string& n : names)
      if (n.rfind("phase_fence_barrier_", 0) == 0) barriers.insert(n);
    check_block(f.body, barriers, problem);
    if (!problem.empty()) return "function '" + f.name + "': " + problem;
  }
  return problem;
}

} // namespace depreduce
