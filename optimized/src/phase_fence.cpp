//===- phase_fence.cpp - ExpandManualPhaseFence ---------------------------===//
///
/// \file
/// One analysis walk per function builds a *safety index*: every value's
/// definition site, every loop's place in the tree (pre-order interval,
/// directly enclosing loop, trip count), every update, and for every array
/// handle its *storage roots* (which allocation, iteration-argument value at
/// an iteration start, or loop-made storage it may hold). Each loop is then
/// summarised once: its updates (nested loops included, merged bottom-up),
/// the closure of each iteration argument, and the pairs of iteration
/// arguments proven to be different storages (an inductive invariant, outer
/// loops first). A candidate's stability test compares root sets, memoised.
/// Array lengths still come from flow-insensitive alias classes (union-find
/// over handles). A second walk with the same pre-order numbering rewrites
/// the function.
//===----------------------------------------------------------------------===//
#include "depreduce/phase_fence.hpp"

#include <algorithm>
#include <iterator>
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

enum class Def : std::uint8_t { Param, LoopVar, IterArg, LoopResult, IfResult, Create, Update, Get, Copy, Submit, Dummy };

struct ValueInfo {
  Type type = Type::Int;
  Def def = Def::Param;
  int def_loop = kNone;  ///< stmt index of the innermost loop containing the definition (the loop itself for its var/iter-args)
  int node = kNone;      ///< alias node for arrays
  std::optional<std::int64_t> length; ///< literal length of array(n)
  std::string source;    ///< for a copy: the copied name
};

/// A *storage root*: what an array handle can point to, relative to the
/// iterations running at the point where the handle is visible.
///  - Alloc: the storage one `array(n)` (statement or iteration-argument
///    init) created in the current iteration of the loops around it. Two
///    different allocation sites are two different storages.
///  - IterStart: the storage iteration argument `arg` of `loop` held when
///    the current iteration of that loop started (storage made before it).
///  - Made: some storage allocated during the (last) execution of `loop`,
///    seen after it (a loop result built from arrays made in its body).
enum class RootKind : std::uint8_t { Alloc, IterStart, Made };
struct Root {
  RootKind kind = RootKind::Alloc;
  int loop = kNone; ///< Alloc: innermost loop around the allocation (kNone: none); IterStart, Made: the loop
  std::size_t arg = 0;
};
/// The roots a handle may point to: sorted, unique root ids.
using RootSet = std::vector<int>;

void set_union(RootSet& into, const RootSet& more) {
  RootSet out;
  std::set_union(into.begin(), into.end(), more.begin(), more.end(), std::back_inserter(out));
  into = std::move(out);
}

/// Iteration arguments of one loop beyond which pairwise distinctness is
/// not tried (quadratic in their number; fuzzers write thousands).
constexpr std::size_t kMaxDistinctArgs = 64;

struct LoopInfo {
  int stmt = 0;             ///< pre-order statement index (the loop's id)
  int last = 0;             ///< largest statement index inside it
  int parent = kNone;       ///< innermost enclosing loop (any)
  int chain_parent = kNone; ///< enclosing loop whose body holds this loop directly (no if/scope between)
  LoopKind kind = LoopKind::Sequential;
  std::optional<std::int64_t> trip; ///< literal trip count
  std::string var;
  std::vector<std::size_t> updates;     ///< indices into FunctionPass::updates_ of the updates in it, nested loops included
  // Storage roots (one entry per iteration argument; empty sets for non-arrays).
  std::vector<bool> is_array;
  std::vector<RootSet> init_sets, yield_sets;
  std::vector<RootSet> closure; ///< every root iteration argument k may hold at an iteration start
  int made = kNone;             ///< this loop's Made root
  /// Pairs (j < k) of array iteration arguments proven to hold different
  /// storages at every iteration start (an inductive invariant).
  std::set<std::pair<std::size_t, std::size_t>> distinct_args;
};

struct UpdateSite {
  int loop = kNone;  ///< innermost loop around it
  std::string array; ///< the updated handle
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
    for (const std::string& p : fn_.params) values_[p] = ValueInfo{Type::Int, Def::Param, kNone, kNone, {}, {}};
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
    ValueInfo v{type, def, def_loop, kNone, {}, {}};
    if (type == Type::TaskIdArray) v.node = classes_.add();
    values_[name] = v;
  }
  int node_of(const std::string& name) const { return values_.at(name).node; }
  int new_root(RootKind kind, int loop, std::size_t arg = 0) {
    roots_.push_back(Root{kind, loop, arg});
    return static_cast<int>(roots_.size() - 1);
  }
  const RootSet& roots_of(const std::string& name) const {
    static const RootSet kEmpty;
    auto it = sets_.find(name);
    return it == sets_.end() ? kEmpty : it->second;
  }
  /// Follows copies back to the value they copy.
  const std::string& resolve(const std::string& name) const {
    const std::string* n = &name;
    for (;;) {
      const ValueInfo& v = values_.at(*n);
      if (v.def != Def::Copy) return *n;
      n = &v.source;
    }
  }

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
    sets_[n.result] = {new_root(RootKind::Alloc, ctx.loop_any)};
  }
  void visit(const ArrayUpdate& n, int, const Ctx& ctx) {
    define(n.result, Type::TaskIdArray, Def::Update, ctx.loop_any);
    classes_.unite(node_of(n.result), node_of(n.array));
    updates_.push_back({ctx.loop_any, n.array});
    sets_[n.result] = roots_of(n.array);
  }
  void visit(const Copy& n, int, const Ctx& ctx) {
    const ValueInfo src = values_.at(n.source);
    define(n.result, src.type, Def::Copy, ctx.loop_any);
    values_[n.result].source = n.source;
    if (src.type == Type::TaskIdArray) {
      classes_.unite(node_of(n.result), src.node);
      sets_[n.result] = roots_of(n.source);
    }
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
      bool slot = scalars == 1 && values_.at(resolve(n.deps[0])).def == Def::Get;
      c.reason = slot ? FenceFallback::PartialSlot : FenceFallback::ScalarDep;
    } else if (scalars > 0) {
      c.reason = FenceFallback::MixedDeps;
    } else if (arrays > 1) {
      c.reason = FenceFallback::MultipleArrays;
    } else {
      c.array = resolve(n.deps[0]); // a copy is the array it copies
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
    for (std::size_t k = 0; k < n.iter_args.size(); ++k) {
      const IterArg& a = n.iter_args[k];
      LoopInfo& me = loops_[loop_index_[idx]];
      if (a.init_length) { // `a = array(n)`: new storage made when the loop starts (outside its iterations)
        define(a.name, Type::TaskIdArray, Def::IterArg, idx);
        std::optional<std::int64_t> len;
        if (const auto* l = std::get_if<std::int64_t>(&*a.init_length)) len = *l;
        creations_.push_back({node_of(a.name), len});
        me.is_array.push_back(true);
        me.init_sets.push_back({new_root(RootKind::Alloc, ctx.loop_any)});
      } else {
        const ValueInfo init = values_.at(a.init);
        define(a.name, init.type, Def::IterArg, idx);
        if (init.type == Type::TaskIdArray) classes_.unite(node_of(a.name), init.node);
        me.is_array.push_back(init.type == Type::TaskIdArray);
        me.init_sets.push_back(roots_of(a.init));
      }
      if (me.is_array.back()) sets_[a.name] = {new_root(RootKind::IterStart, idx, k)};
    }
    Ctx inner = ctx;
    inner.loop_any = idx;
    inner.loop_in_scope = idx;
    inner.direct_loop = idx;
    inner.in_if = false;
    walk(n.body, inner);
    loops_[loop_index_[idx]].last = next_ - 1;
    LoopInfo& me = loops_[loop_index_[idx]];
    for (const std::string& y : n.yields) me.yield_sets.push_back(roots_of(y));
    close_loop(me);
    for (std::size_t k = 0; k < n.iter_args.size(); ++k) {
      const ValueInfo arg = values_.at(n.iter_args[k].name);
      if (arg.type == Type::TaskIdArray) classes_.unite(arg.node, node_of(n.yields[k]));
      if (k >= n.results.size()) continue;
      define(n.results[k], arg.type, Def::LoopResult, ctx.loop_any);
      if (arg.type == Type::TaskIdArray) {
        classes_.unite(arg.node, node_of(n.results[k]));
        sets_[n.results[k]] = me.closure[k]; // the init, or the last iteration's yield
      }
    }
  }

  /// Computes the closure of each iteration argument of \p l (least fixpoint):
  /// its init's roots, plus its yield's roots seen from outside the body:
  /// IterStart(l, j) becomes closure j, storage allocated inside l becomes Made(l).
  void close_loop(LoopInfo& l) {
    l.closure = l.init_sets;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t k = 0; k < l.closure.size(); ++k) {
        if (!l.is_array[k]) continue;
        RootSet add;
        for (int r : l.yield_sets[k]) {
          const Root root = roots_[r]; // a copy: new_root() below may reallocate
          if (root.kind == RootKind::IterStart && root.loop == l.stmt) {
            set_union(add, l.closure[root.arg]);
          } else if (root.kind != RootKind::IterStart && allocated_in(root, l)) {
            if (l.made == kNone) l.made = new_root(RootKind::Made, l.stmt);
            set_union(add, {l.made});
          } else {
            set_union(add, {r});
          }
        }
        const std::size_t before = l.closure[k].size();
        set_union(l.closure[k], add);
        changed = changed || l.closure[k].size() != before;
      }
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
        RootSet both = roots_of(n.then_yields[k]);
        set_union(both, roots_of(n.else_yields[k]));
        sets_[n.results[k]] = std::move(both);
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
    for (std::size_t u = 0; u < updates_.size(); ++u)
      if (updates_[u].loop != kNone) loops_[loop_index_.at(updates_[u].loop)].updates.push_back(u);
    // Pre-order ids: children come after parents, so a reverse sweep sees
    // every nested loop complete before its parent.
    for (std::size_t k = loops_.size(); k-- > 0;) {
      LoopInfo& l = loops_[k];
      std::sort(l.updates.begin(), l.updates.end());
      if (l.parent == kNone) continue;
      LoopInfo& p = loops_[loop_index_.at(l.parent)];
      p.updates.insert(p.updates.end(), l.updates.begin(), l.updates.end());
    }
    // Lengths: an alias class whose creations all have the same literal length.
    std::map<int, std::vector<std::optional<std::int64_t>>> by_class;
    for (const auto& [node, len] : creations_) by_class[classes_.find(node)].push_back(len);
    for (const auto& [root, lens] : by_class)
      if (std::all_of(lens.begin(), lens.end(), [&](const auto& l) { return l && *l == *lens[0]; }))
        class_length_[root] = *lens[0];
    // Distinct iteration arguments, outer loops first (an inner loop's inits
    // are judged with its enclosing loops' invariants).
    for (LoopInfo& l : loops_) prove_distinct_args(l);
    memo_.clear();
  }

  /// The greatest set of pairs of \p l's array iteration arguments that hold
  /// different storages at every iteration start: their inits are distinct,
  /// and, assuming the set at an iteration start, so are their yields.
  void prove_distinct_args(LoopInfo& l) {
    std::vector<std::size_t> arrays;
    for (std::size_t k = 0; k < l.is_array.size(); ++k)
      if (l.is_array[k]) arrays.push_back(k);
    if (arrays.size() < 2 || arrays.size() > kMaxDistinctArgs) return;
    for (std::size_t a = 0; a < arrays.size(); ++a)
      for (std::size_t b = a + 1; b < arrays.size(); ++b) l.distinct_args.insert({arrays[a], arrays[b]});
    for (bool removed = true; removed;) {
      removed = false;
      memo_.clear(); // answers may rest on the hypothesis being refined
      for (auto it = l.distinct_args.begin(); it != l.distinct_args.end();) {
        const auto [j, k] = *it;
        if (sets_distinct(l.init_sets[j], l.init_sets[k]) && sets_distinct(l.yield_sets[j], l.yield_sets[k])) {
          ++it;
        } else {
          it = l.distinct_args.erase(it);
          removed = true;
        }
      }
    }
  }

  bool encloses(int outer, int loop) const {
    if (outer == kNone || loop == kNone) return false;
    const LoopInfo& o = this->loop(outer);
    return loop >= o.stmt && loop <= o.last;
  }
  /// An Alloc or Made root allocated during the current iteration of \p l.
  bool allocated_in(const Root& r, const LoopInfo& l) const { return encloses(l.stmt, r.loop); }

  /// True if roots \p a and \p b are different storages wherever both are
  /// visible (the iterations they refer to are the ones running there).
  bool distinct(int a, int b) {
    if (a == b) return false;
    const Root& ra = roots_[a];
    const Root& rb = roots_[b];
    if (ra.kind != RootKind::IterStart && rb.kind != RootKind::IterStart) return true; // two allocations
    if (ra.kind == RootKind::IterStart && rb.kind == RootKind::IterStart && ra.loop == rb.loop) {
      const LoopInfo& l = loop(ra.loop);
      return l.distinct_args.count({std::min(ra.arg, rb.arg), std::max(ra.arg, rb.arg)}) != 0;
    }
    // y: the IterStart of the innermost loop (loops on one nest: larger id = inner).
    int y = a, r = b;
    if (ra.kind != RootKind::IterStart || (rb.kind == RootKind::IterStart && rb.loop > ra.loop)) std::swap(y, r);
    const Root& ry = roots_[y];
    const Root& rr = roots_[r];
    const LoopInfo& l = loop(ry.loop);
    // Allocated in the current iteration: after the iteration argument was bound.
    if (rr.kind != RootKind::IterStart && allocated_in(rr, l)) return true;
    auto key = std::make_pair(std::min(a, b), std::max(a, b));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool out = true;
    for (int c : l.closure[ry.arg])
      if (!distinct(c, r)) {
        out = false;
        break;
      }
    memo_[key] = out;
    return out;
  }
  bool sets_distinct(const RootSet& a, const RootSet& b) {
    for (int x : a)
      for (int y : b)
        if (!distinct(x, y)) return false;
    return true;
  }

  /// Why \p array (defined outside \p l) is not stable for \p l: some
  /// update in \p l (any depth) may write its storage. Cached per (loop, array).
  std::optional<FenceFallback> unstable_in(const std::string& array, const LoopInfo& l) {
    auto key = std::make_pair(l.stmt, array);
    if (auto it = stability_.find(key); it != stability_.end()) return it->second;
    std::optional<FenceFallback> out;
    const RootSet& mine = roots_of(array);
    for (std::size_t u : l.updates) {
      const std::string& written = updates_[u].array;
      if (sets_distinct(roots_of(written), mine)) continue;
      if (resolve(written) == array) {
        out = FenceFallback::UpdatedInBody;
        break;
      }
      out = FenceFallback::UpdatedThroughAlias;
    }
    stability_[key] = out;
    return out;
  }

  bool defined_in(const ValueInfo& v, const LoopInfo& l) const {
    return v.def_loop != kNone && v.def_loop >= l.stmt && v.def_loop <= l.last;
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
    } else if (auto why = unstable_in(c.array, *l0)) {
      c.reason = *why;
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
      if (defined_in(v, p) || unstable_in(c.array, p) || !countable(p)) break;
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
  std::vector<UpdateSite> updates_;
  std::map<std::string, RootSet> sets_;  // array handle -> the storage roots it may hold
  std::vector<Root> roots_;
  std::map<std::pair<int, int>, bool> memo_;  // distinct(), per root pair
  std::map<std::pair<int, std::string>, std::optional<FenceFallback>> stability_;
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
      b.loop_stmt = static_cast<std::size_t>(g.loop);
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
      if (c.reason) sum.kept.push_back(FenceKept{fn.name, c.label, *c.reason, static_cast<std::size_t>(c.stmt)});
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
