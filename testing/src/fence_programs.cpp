//===- fence_programs.cpp - Random orchestration programs, known answers -===//
#include "depreduce/testing/fence_programs.hpp"

#include <algorithm>

namespace depreduce::testing {

std::uint32_t ChoiceStream::pick(std::uint32_t n) {
  if (n <= 1) return 0;
  std::uint32_t v = 0;
  const int bytes = n > 256 ? 2 : 1;
  for (int b = 0; b < bytes; ++b) v = (v << 8) | (pos_ < size_ ? data_[pos_++] : 0u);
  return v % n;
}

const char* fence_shape_name(FenceShape s) noexcept {
  switch (s) {
  case FenceShape::Fanout: return "fanout";
  case FenceShape::NestedHoist: return "nested-hoist";
  case FenceShape::TwoArrays: return "two-arrays";
  case FenceShape::DoubleBuffered: return "double-buffered";
  case FenceShape::PhaseChain: return "phase-chain";
  case FenceShape::PingPong: return "ping-pong";
  case FenceShape::ChainWritesT: return "chain-writes-t";
  case FenceShape::ChainCarrierIsT: return "chain-carrier-is-t";
  case FenceShape::ChainReturnVar: return "chain-return-var";
  case FenceShape::PingPongUnsafe: return "ping-pong-unsafe";
  case FenceShape::ScalarDep: return "scalar-dep";
  case FenceShape::MixedDeps: return "mixed-deps";
  case FenceShape::MultipleArrays: return "multiple-arrays";
  case FenceShape::PartialSlot: return "partial-slot";
  case FenceShape::LoopIterArg: return "loop-iter-arg";
  case FenceShape::DefinedInBody: return "defined-in-body";
  case FenceShape::UpdatedInBody: return "updated-in-body";
  case FenceShape::UpdatedThroughAlias: return "updated-through-alias";
  case FenceShape::NestedLoopReturn: return "nested-loop-return";
  case FenceShape::IfReturn: return "if-return";
  case FenceShape::ZeroTrip: return "zero-trip";
  case FenceShape::DynamicParallel: return "dynamic-parallel";
  case FenceShape::Unprofitable: return "unprofitable";
  case FenceShape::AutomaticScope: return "automatic-scope";
  case FenceShape::KernelFunction: return "kernel-function";
  case FenceShape::InsideIf: return "inside-if";
  case FenceShape::NotInLoop: return "not-in-loop";
  }
  return "?";
}

bool is_fallback_shape(FenceShape s) noexcept { return static_cast<int>(s) >= static_cast<int>(FenceShape::ScalarDep); }

std::uint64_t GeneratedFenceProgram::expected_edge_drop() const {
  std::uint64_t drop = 0;
  for (const ExpectedBarrier& b : expected) drop += b.times * (b.n * b.m - (b.n + b.m));
  return drop;
}

namespace {

using namespace depreduce::orch;

Stmt create(const std::string& r, IntAtom len) { return Stmt{ArrayCreate{r, std::move(len)}}; }
Stmt update(const std::string& r, const std::string& a, IntAtom i, const std::string& t) {
  return Stmt{ArrayUpdate{r, a, std::move(i), t}};
}
Stmt get(const std::string& r, const std::string& a, IntAtom i) { return Stmt{ArrayGet{r, a, std::move(i)}}; }
Stmt copy(const std::string& r, const std::string& source) { return Stmt{Copy{r, source}}; }
IterArg fresh_arg(const std::string& name, std::int64_t n) { return IterArg{name, "", IntAtom(n)}; }
Stmt submit(const std::string& r, const std::string& kernel, std::vector<Arg> args, std::vector<std::string> deps) {
  return Stmt{Submit{r, kernel, std::move(args), std::move(deps), {}}};
}
Stmt loop(std::vector<std::string> results, const std::string& var, LoopKind kind, IntAtom trip,
          std::vector<IterArg> iters, Block body, std::vector<std::string> yields) {
  Loop l;
  l.results = std::move(results);
  l.var = var;
  l.kind = kind;
  l.trip = std::move(trip);
  l.iter_args = std::move(iters);
  l.body = std::move(body);
  l.yields = std::move(yields);
  return Stmt{std::move(l)};
}
Stmt if_stmt(std::vector<std::string> results, Cond cond, Block then_body, std::vector<std::string> then_yields,
             Block else_body, std::vector<std::string> else_yields, bool has_else) {
  If s;
  s.results = std::move(results);
  s.cond = std::move(cond);
  s.then_body = std::move(then_body);
  s.then_yields = std::move(then_yields);
  s.has_else = has_else;
  s.else_body = std::move(else_body);
  s.else_yields = std::move(else_yields);
  return Stmt{std::move(s)};
}

bool profitable(std::uint64_t n, std::uint64_t m) { return n >= 2 && m >= 2 && (n - 1) * (m - 1) >= 2; }

const char* const kParams[] = {"n0", "n1"};

/// One snippet before wrapping: setup statements (producers), the statements
/// that use them, and the expected answer.
struct Snippet {
  Block setup, use;
  struct Expect {
    ExpectedBarrier barrier;
    bool array_in_setup = true; ///< false: defined in `use` (stays inside a wrapper)
  };
  std::vector<Expect> expect;
  std::vector<std::string> consumers; ///< fallback consumers (expected_kept)
  FenceFallback reason = FenceFallback::ScalarDep;
  bool manual = true;
  bool kernel = false;
  enum class Wrap { Any, NoConsumerWrap, None } wrap = Wrap::Any;
};

class Generator {
public:
  Generator(ChoiceStream& c, const FenceGenOptions& o, GeneratedFenceProgram& out) : c_(c), o_(o), out_(out) {}

  void run() {
    for (const char* p : kParams) out_.trips[p] = static_cast<std::int64_t>(c_.range(0, o_.max_trip));
    Function main;
    main.name = "main";
    main.params = {kParams[0], kParams[1]};
    std::vector<Function> kernels;
    const std::size_t count = 1 + c_.pick(static_cast<std::uint32_t>(std::max<std::size_t>(o_.max_snippets, 1)));
    Block* open_manual = nullptr; // a manual scope that the next snippet may share
    for (std::size_t s = 0; s < count; ++s) {
      FenceShape shape = choose_shape();
      out_.shapes.push_back(shape);
      Snippet sn = build(shape);
      Block region = wrap(sn);
      for (const auto& e : sn.expect)
        if (profitable(e.barrier.n, e.barrier.m)) out_.expected.push_back(e.barrier);
      if (is_fallback_shape(shape))
        for (const std::string& name : sn.consumers) out_.expected_kept[name] = sn.reason;
      if (sn.kernel) {
        Function k;
        k.name = "tile" + std::to_string(s);
        k.kind = FunctionKind::Kernel;
        k.body.push_back(Stmt{Scope{true, std::move(region)}});
        kernels.push_back(std::move(k));
        continue;
      }
      if (sn.manual && open_manual && c_.coin()) {
        for (Stmt& st : region) open_manual->push_back(std::move(st));
        continue;
      }
      main.body.push_back(Stmt{Scope{sn.manual, std::move(region)}});
      open_manual = sn.manual ? &std::get<Scope>(main.body.back().node).body : nullptr;
    }
    out_.program.functions.push_back(std::move(main));
    for (Function& k : kernels) out_.program.functions.push_back(std::move(k));
  }

private:
  std::string fresh(const char* prefix) { return prefix + std::to_string(uid_++); }

  FenceShape choose_shape() {
    std::vector<FenceShape> allowed;
    for (std::size_t k = 0; k < kFenceShapeCount; ++k) {
      auto s = static_cast<FenceShape>(k);
      if ((o_.fallback_only && !is_fallback_shape(s)) || (s == FenceShape::DynamicParallel && !o_.allow_dynamic))
        continue;
      allowed.push_back(s);
    }
    return allowed[c_.pick(static_cast<std::uint32_t>(allowed.size()))];
  }

  LoopKind kind() { return c_.coin() ? LoopKind::Parallel : LoopKind::Sequential; }
  /// A literal trip in [lo, max_trip], or (sequential loops only, when
  /// allowed) a dynamic one; \p factor receives the pass's static count.
  IntAtom trip(LoopKind k, std::uint32_t lo, std::uint64_t& factor) {
    if (o_.allow_dynamic && k == LoopKind::Sequential && c_.pick(4) == 0) {
      out_.constant_trips = false;
      factor = 1;
      return std::string(kParams[c_.pick(2)]);
    }
    std::uint32_t t = c_.range(lo, std::max(lo, o_.max_trip));
    factor = t;
    return static_cast<std::int64_t>(t);
  }
  std::uint32_t length(std::uint32_t lo = 1) { return c_.range(lo, std::max(lo, o_.max_length)); }

  /// Appends a producer of an array of \p n slots, each a distinct new task;
  /// returns the name holding the filled array.
  std::string producer(Block& b, std::uint32_t n) {
    std::string a0 = fresh("arr");
    const std::uint32_t how = c_.pick(3); // 0: updates in a row; 1: a loop; 2: a loop with iter(acc = array(n))
    if (how != 2) b.push_back(create(a0, static_cast<std::int64_t>(n)));
    if (how != 0) {
      std::string i = fresh("i"), acc = fresh("acc"), t = fresh("t"), acc1 = fresh("acc"), res = fresh("arr");
      Block body;
      body.push_back(submit(t, "produce", {i}, {}));
      body.push_back(update(acc1, acc, i, t));
      IterArg arg = how == 2 ? fresh_arg(acc, n) : IterArg{acc, a0, {}};
      b.push_back(loop({res}, i, kind(), static_cast<std::int64_t>(n), {arg}, std::move(body), {acc1}));
      return res;
    }
    std::string cur = a0;
    for (std::uint32_t k = 0; k < n; ++k) {
      std::string t = fresh("t"), next = fresh("arr");
      b.push_back(submit(t, "produce", {static_cast<std::int64_t>(k)}, {}));
      b.push_back(update(next, cur, static_cast<std::int64_t>(k), t));
      cur = next;
    }
    return cur;
  }
  /// k consumer submits of \p deps appended to \p b; names recorded in \p sn.
  void consumers(Block& b, Snippet& sn, std::uint32_t k, const std::string& var, std::vector<std::string> deps,
                 const char* kernel = "use") {
    for (std::uint32_t i = 0; i < k; ++i) {
      if (c_.pick(4) == 0) b.push_back(submit(fresh("noise"), "noise", {var}, {}));
      std::string name = fresh("c");
      b.push_back(submit(name, kernel, {var, static_cast<std::int64_t>(i)}, deps));
      sn.consumers.push_back(name);
    }
  }
  /// A candidate group; whether it pays off is decided after wrapping (a
  /// wrapping loop can multiply M).
  void expect(Snippet& sn, const std::string& array, std::uint64_t n, std::uint64_t m, bool in_setup) {
    sn.expect.push_back({ExpectedBarrier{array, n, m, 1}, in_setup});
  }

  /// A single loop of k consumers of \p deps in `use` (a fallback skeleton).
  void simple_loop(Snippet& sn, std::vector<std::string> deps, LoopKind k, IntAtom t) {
    std::string j = fresh("j");
    Block body;
    consumers(body, sn, c_.range(1, 2), j, std::move(deps));
    sn.use.push_back(loop({}, j, k, std::move(t), {}, std::move(body), {}));
  }
  IntAtom literal_trip(std::uint32_t lo, std::uint32_t hi) { return static_cast<std::int64_t>(c_.range(lo, hi)); }

  /// The phase chain and its unsafe look-alikes: T (the seq
  /// loop's iteration argument, first a filled array of n slots) is the dep of
  /// the consumers of a parallel loop of n iterations, which fills a fresh
  /// carrier (a statement or an `iter(acc = array(n))` init) yielded as the next T.
  void phase_chain(Snippet& sn, FenceShape shape) {
    const bool safe = shape == FenceShape::PhaseChain;
    std::uint32_t n = length(2);
    std::string f0 = producer(sn.setup, n);
    std::uint64_t times = 1;
    IntAtom phases = trip(LoopKind::Sequential, 1, times);
    std::string ph = fresh("ph"), T = fresh("T"), b = fresh("b"), acc = fresh("acc"), acc1 = fresh("acc"),
                s = fresh("c"), n2 = fresh("nxt");
    Block phase, body;
    // The carrier: fresh storage (safe), or T's storage (ChainCarrierIsT).
    IterArg carrier{acc, "", {}};
    if (shape == FenceShape::ChainCarrierIsT) {
      carrier.init = T;
      if (c_.coin()) {
        carrier.init = fresh("cp");
        phase.push_back(copy(carrier.init, T));
      }
    } else if (c_.coin()) {
      carrier.init_length = IntAtom(static_cast<std::int64_t>(n));
    } else {
      carrier.init = fresh("nxt");
      phase.push_back(create(carrier.init, static_cast<std::int64_t>(n)));
    }
    // What the consumers name: T, a copy of T, or a nested loop's result over T.
    std::string dep = T;
    if (shape == FenceShape::ChainReturnVar) {
      std::string x = fresh("x");
      dep = fresh("rv");
      body.push_back(loop({dep}, fresh("q"), LoopKind::Sequential, static_cast<std::int64_t>(1), {{x, T, {}}}, {}, {x}));
    } else if (c_.coin()) {
      dep = fresh("view");
      body.push_back(copy(dep, T));
    }
    std::uint32_t per = c_.range(0, 2);
    consumers(body, sn, per, b, {dep});
    std::uint64_t inner_m = 0;
    if (safe && c_.coin()) { // a third level: consumers in a loop nested in the parallel body
      std::uint32_t q_trip = c_.range(1, 3), q_per = c_.range(1, 2);
      std::string q = fresh("q");
      Block inner;
      consumers(inner, sn, q_per, q, {dep});
      body.push_back(loop({}, q, kind(), static_cast<std::int64_t>(q_trip), {}, std::move(inner), {}));
      inner_m = static_cast<std::uint64_t>(q_trip) * q_per;
    }
    body.push_back(submit(s, "step", {ph, b}, {dep}));
    sn.consumers.push_back(s);
    if (shape == FenceShape::ChainWritesT) { // write T's storage (or a copy's) in the parallel body
      std::string target = T;
      if (c_.coin()) {
        target = fresh("cp");
        body.push_back(copy(target, T));
      }
      body.push_back(update(fresh("w"), target, b, s));
    }
    body.push_back(update(acc1, acc, b, s));
    phase.push_back(loop({n2}, b, LoopKind::Parallel, static_cast<std::int64_t>(n), {carrier}, std::move(body), {acc1}));
    const bool yield_t = shape == FenceShape::ChainCarrierIsT && c_.coin(); // the phase yields T itself after writing it
    std::vector<std::string> results;
    if (c_.coin()) results.push_back(fresh("out"));
    sn.use.push_back(loop(results, ph, LoopKind::Sequential, phases, {{T, f0, {}}}, std::move(phase),
                          {yield_t ? T : n2}));
    switch (shape) {
    case FenceShape::PhaseChain:
      sn.expect.push_back({ExpectedBarrier{T, n, static_cast<std::uint64_t>(n) * (per + 1 + inner_m), times}, false});
      break;
    case FenceShape::ChainWritesT: sn.reason = FenceFallback::UpdatedInBody; break;
    case FenceShape::ChainCarrierIsT: sn.reason = FenceFallback::UpdatedThroughAlias; break;
    default: sn.reason = FenceFallback::ReturnValue; break;
    }
  }

  Snippet build(FenceShape shape) {
    Snippet sn;
    switch (shape) {
    case FenceShape::Fanout: {
      std::uint32_t n = length();
      std::string a = producer(sn.setup, n);
      LoopKind k = kind();
      std::uint64_t f = 1;
      IntAtom t = trip(k, 1, f);
      std::uint32_t per = c_.range(1, 3);
      std::string j = fresh("j");
      Block body;
      std::string dep = a;
      switch (c_.pick(3)) { // a copy of the array, before the loop or in its body: the pass follows it
      case 1: dep = fresh("view"); sn.setup.push_back(copy(dep, a)); break;
      case 2: dep = fresh("view"); body.push_back(copy(dep, a)); break;
      default: break;
      }
      consumers(body, sn, per, j, {dep});
      sn.use.push_back(loop({}, j, k, t, {}, std::move(body), {}));
      expect(sn, a, n, per * f, true);
      break;
    }
    case FenceShape::PhaseChain:
    case FenceShape::ChainWritesT:
    case FenceShape::ChainCarrierIsT:
    case FenceShape::ChainReturnVar: {
      phase_chain(sn, shape);
      break;
    }
    case FenceShape::PingPong:
    case FenceShape::PingPongUnsafe: {
      const bool safe = shape == FenceShape::PingPong;
      // Unsafe: both start as one storage, or the phase yields the written
      // array for both (from the second phase on they are one storage).
      const bool same_start = !safe && c_.coin();
      std::uint32_t n = length(2);
      std::string a = producer(sn.setup, n), other0 = fresh("buf");
      sn.setup.push_back(create(other0, static_cast<std::int64_t>(n)));
      std::uint64_t f = 1;
      IntAtom phases = trip(LoopKind::Sequential, 1, f);
      std::string ph = fresh("ph"), cur = fresh("cur"), other = fresh("other"), b = fresh("b"), acc = fresh("acc"),
                  acc1 = fresh("acc"), s = fresh("c"), n2 = fresh("buf");
      Block body;
      std::uint32_t per = c_.range(0, 2);
      consumers(body, sn, per, b, {cur});
      body.push_back(submit(s, "step", {ph, b}, {cur}));
      body.push_back(update(acc1, acc, b, s));
      Block phase;
      phase.push_back(loop({n2}, b, LoopKind::Parallel, static_cast<std::int64_t>(n), {{acc, other, {}}}, std::move(body),
                           {acc1}));
      sn.consumers.push_back(s);
      sn.use.push_back(loop({fresh("buf"), fresh("buf")}, ph, LoopKind::Sequential, phases,
                            {{cur, a, {}}, {other, same_start ? a : other0, {}}}, std::move(phase),
                            {n2, safe || same_start ? cur : n2}));
      if (safe) sn.expect.push_back({ExpectedBarrier{cur, n, static_cast<std::uint64_t>(n) * (per + 1), f}, false});
      sn.reason = FenceFallback::UpdatedThroughAlias;
      break;
    }
    case FenceShape::NestedHoist: {
      std::uint32_t n = length();
      std::string a = producer(sn.setup, n);
      LoopKind k1 = kind(), k2 = kind();
      std::uint64_t f1 = 1, f2 = 1;
      IntAtom t1 = trip(k1, 1, f1), t2 = trip(k2, 1, f2);
      std::uint32_t outer = c_.range(0, 2), inner = c_.range(1, 2);
      std::string o = fresh("o"), i = fresh("j");
      Block ibody, obody;
      consumers(obody, sn, outer, o, {a}, "head");
      consumers(ibody, sn, inner, i, {a});
      obody.push_back(loop({}, i, k2, t2, {}, std::move(ibody), {}));
      sn.use.push_back(loop({}, o, k1, t1, {}, std::move(obody), {}));
      expect(sn, a, n, outer * f1 + inner * f1 * f2, true);
      break;
    }
    case FenceShape::TwoArrays: {
      std::uint32_t na = length(), nb = length();
      std::string a = producer(sn.setup, na), b = producer(sn.setup, nb);
      LoopKind k = kind();
      std::uint64_t f = 1;
      IntAtom t = trip(k, 1, f);
      std::uint32_t ka = c_.range(1, 2), kb = c_.range(1, 2);
      std::string j = fresh("j");
      Block body;
      consumers(body, sn, ka, j, {a}, "use_a");
      consumers(body, sn, kb, j, {b}, "use_b");
      sn.use.push_back(loop({}, j, k, t, {}, std::move(body), {}));
      expect(sn, a, na, ka * f, true);
      expect(sn, b, nb, kb * f, true);
      break;
    }
    case FenceShape::DoubleBuffered: {
      std::uint32_t n = length();
      std::string a = producer(sn.setup, n);
      std::uint32_t t = c_.range(1, std::max(1u, o_.max_trip));
      std::string b0 = fresh("buf"), b = fresh("buf"), b1 = fresh("buf"), res = fresh("buf"), j = fresh("j");
      sn.use.push_back(create(b0, static_cast<std::int64_t>(t)));
      Block body;
      std::string c = fresh("c");
      body.push_back(submit(c, "step", {j}, {a}));
      body.push_back(update(b1, b, j, c));
      sn.use.push_back(loop({res}, j, kind(), static_cast<std::int64_t>(t), {{b, b0, {}}}, std::move(body), {b1}));
      expect(sn, a, n, t, true);
      if (c_.coin()) {
        LoopKind k2 = kind();
        std::uint64_t f2 = 1;
        IntAtom t2 = trip(k2, 1, f2);
        std::uint32_t per = c_.range(1, 2);
        std::string k = fresh("k");
        Block body2;
        consumers(body2, sn, per, k, {res}, "finish");
        sn.use.push_back(loop({}, k, k2, t2, {}, std::move(body2), {}));
        expect(sn, res, t, per * f2, false);
      }
      break;
    }
    case FenceShape::ScalarDep: {
      std::string s = fresh("s");
      sn.setup.push_back(submit(s, "init", {}, {}));
      if (c_.coin()) { // a copy of a scalar is a scalar
        std::string s2 = fresh("s");
        sn.setup.push_back(copy(s2, s));
        s = s2;
      }
      simple_loop(sn, {s}, kind(), literal_trip(1, 4));
      sn.reason = FenceFallback::ScalarDep;
      break;
    }
    case FenceShape::MixedDeps: {
      std::string a = producer(sn.setup, length(2)), s = fresh("s");
      sn.setup.push_back(submit(s, "init", {}, {}));
      simple_loop(sn, c_.coin() ? std::vector<std::string>{s, a} : std::vector<std::string>{a, s}, kind(),
                  literal_trip(1, 4));
      sn.reason = FenceFallback::MixedDeps;
      break;
    }
    case FenceShape::MultipleArrays: {
      std::string a = producer(sn.setup, length(2)), b = producer(sn.setup, length(2));
      simple_loop(sn, {a, b}, kind(), literal_trip(1, 4));
      sn.reason = FenceFallback::MultipleArrays;
      break;
    }
    case FenceShape::PartialSlot: {
      std::uint32_t n = length(2);
      std::string a = producer(sn.setup, n), j = fresh("j"), p = fresh("slot");
      Block body;
      body.push_back(get(p, a, j));
      consumers(body, sn, c_.range(1, 2), j, {p});
      sn.use.push_back(loop({}, j, kind(), literal_trip(1, n), {}, std::move(body), {}));
      sn.reason = FenceFallback::PartialSlot;
      break;
    }
    case FenceShape::LoopIterArg: {
      std::uint32_t n = length(2);
      std::string a = producer(sn.setup, n), j = fresh("j"), cur = fresh("cur");
      Block body;
      consumers(body, sn, c_.range(1, 2), j, {cur});
      std::vector<std::string> results;
      if (c_.coin()) results.push_back(fresh("arr"));
      IterArg arg = c_.coin() ? fresh_arg(cur, n) : IterArg{cur, a, {}};
      sn.use.push_back(loop(results, j, kind(), literal_trip(1, 4), {arg}, std::move(body), {cur}));
      sn.reason = FenceFallback::LoopIterArg;
      break;
    }
    case FenceShape::DefinedInBody: {
      std::uint32_t n = length(2);
      std::string j = fresh("j"), f = fresh("fresh"), f1 = fresh("fresh"), t = fresh("t");
      Block body;
      body.push_back(create(f, static_cast<std::int64_t>(n)));
      body.push_back(submit(t, "produce", {j}, {}));
      body.push_back(update(f1, f, 0, t));
      consumers(body, sn, c_.range(1, 2), j, {c_.coin() ? f : f1});
      sn.use.push_back(loop({}, j, kind(), literal_trip(1, 4), {}, std::move(body), {}));
      sn.reason = FenceFallback::DefinedInBody;
      break;
    }
    case FenceShape::UpdatedInBody: {
      std::uint32_t n = length(2);
      std::string a = producer(sn.setup, n), j = fresh("j");
      Block body;
      consumers(body, sn, c_.range(1, 2), j, {a});
      body.push_back(update(fresh("u"), a, j, sn.consumers.back()));
      sn.use.push_back(loop({}, j, kind(), literal_trip(1, n), {}, std::move(body), {}));
      sn.reason = FenceFallback::UpdatedInBody;
      break;
    }
    case FenceShape::UpdatedThroughAlias: {
      std::uint32_t n = length(2);
      std::string a = producer(sn.setup, n), j = fresh("j");
      Block body;
      consumers(body, sn, c_.range(1, 2), j, {a});
      if (c_.coin()) { // the loop's own iteration argument aliases the array
        std::string w = fresh("w"), w1 = fresh("w");
        body.push_back(update(w1, w, j, sn.consumers.back()));
        sn.use.push_back(loop({}, j, kind(), literal_trip(1, n), {{w, a, {}}}, std::move(body), {w1}));
      } else { // an alias made by an earlier loop's result, updated in a nested loop
        std::string view = fresh("view"), x = fresh("x"), v = fresh("v");
        sn.setup.push_back(loop({view}, v, LoopKind::Sequential, 1, {{x, a, {}}}, {}, {x}));
        std::string y = fresh("y"), y1 = fresh("y"), k = fresh("k");
        Block inner;
        inner.push_back(update(y1, y, j, sn.consumers.back()));
        body.push_back(loop({}, k, LoopKind::Sequential, 1, {{y, view, {}}}, std::move(inner), {y1}));
        sn.use.push_back(loop({}, j, kind(), literal_trip(1, n), {}, std::move(body), {}));
      }
      sn.reason = FenceFallback::UpdatedThroughAlias;
      break;
    }
    case FenceShape::NestedLoopReturn: {
      std::string a = producer(sn.setup, length(2)), o = fresh("o"), r = fresh("ret"), i = fresh("i"),
                  x = fresh("x");
      Block body;
      body.push_back(loop({r}, i, kind(), literal_trip(0, 2), {{x, a, {}}}, {}, {x}));
      consumers(body, sn, c_.range(1, 2), o, {r});
      sn.use.push_back(loop({}, o, kind(), literal_trip(1, 4), {}, std::move(body), {}));
      sn.reason = FenceFallback::ReturnValue;
      break;
    }
    case FenceShape::IfReturn: {
      std::string a = producer(sn.setup, length(2)), b = producer(sn.setup, length(2)), r = fresh("pick");
      const bool inside = c_.coin();
      std::string o = fresh("o");
      Cond cond{inside ? IntAtom(o) : IntAtom(std::string(kParams[0])), CmpOp::Lt,
                static_cast<std::int64_t>(c_.range(0, 3))};
      Stmt choose = if_stmt({r}, cond, {}, {a}, {}, {b}, true);
      Block body;
      if (inside) body.push_back(std::move(choose));
      else sn.setup.push_back(std::move(choose));
      consumers(body, sn, c_.range(1, 2), o, {r});
      sn.use.push_back(loop({}, o, kind(), literal_trip(1, 4), {}, std::move(body), {}));
      sn.reason = inside ? FenceFallback::ReturnValue : FenceFallback::UnresolvedArray;
      break;
    }
    case FenceShape::ZeroTrip: {
      std::string a = producer(sn.setup, length(2));
      if (c_.coin()) {
        simple_loop(sn, {a}, kind(), static_cast<std::int64_t>(0));
      } else {
        std::string o = fresh("o"), j = fresh("j");
        Block inner;
        consumers(inner, sn, c_.range(1, 2), j, {a});
        Block outer;
        outer.push_back(loop({}, j, kind(), literal_trip(1, 4), {}, std::move(inner), {}));
        sn.use.push_back(loop({}, o, kind(), static_cast<std::int64_t>(0), {}, std::move(outer), {}));
      }
      sn.reason = FenceFallback::ZeroTrip;
      break;
    }
    case FenceShape::DynamicParallel: {
      std::string a = producer(sn.setup, length(2));
      out_.constant_trips = false;
      simple_loop(sn, {a}, LoopKind::Parallel, std::string(kParams[c_.pick(2)]));
      sn.reason = FenceFallback::DynamicParallelTrip;
      break;
    }
    case FenceShape::Unprofitable: {
      // N -> 1 (any M), 2x2, or M = 1.
      switch (c_.pick(3)) {
      case 0: simple_loop(sn, {producer(sn.setup, 1)}, kind(), literal_trip(1, 3)); break;
      case 1: {
        std::string a = producer(sn.setup, 2), j = fresh("j");
        Block body;
        consumers(body, sn, 1, j, {a});
        sn.use.push_back(loop({}, j, kind(), static_cast<std::int64_t>(2), {}, std::move(body), {}));
        break;
      }
      default: {
        std::string a = producer(sn.setup, length(2)), j = fresh("j");
        Block body;
        consumers(body, sn, 1, j, {a});
        sn.use.push_back(loop({}, j, kind(), static_cast<std::int64_t>(1), {}, std::move(body), {}));
      }
      }
      sn.reason = FenceFallback::Unprofitable;
      sn.wrap = Snippet::Wrap::NoConsumerWrap; // a wrapping loop would multiply M
      break;
    }
    case FenceShape::AutomaticScope:
    case FenceShape::KernelFunction: {
      std::uint32_t n = length(3);
      std::string a = producer(sn.setup, n);
      simple_loop(sn, {a}, kind(), literal_trip(3, 4));
      if (shape == FenceShape::AutomaticScope) {
        sn.manual = false;
        sn.reason = FenceFallback::NotManualScope;
      } else {
        sn.kernel = true;
        sn.reason = FenceFallback::NotOrchestration;
      }
      break;
    }
    case FenceShape::InsideIf: {
      std::string a = producer(sn.setup, length(2)), j = fresh("j");
      Block then_body;
      consumers(then_body, sn, c_.range(1, 2), j, {a});
      Block body;
      body.push_back(if_stmt({}, Cond{j, CmpOp::Lt, static_cast<std::int64_t>(c_.range(0, 3))}, std::move(then_body),
                             {}, {}, {}, false));
      sn.use.push_back(loop({}, j, kind(), literal_trip(1, 4), {}, std::move(body), {}));
      sn.reason = FenceFallback::InsideIf;
      break;
    }
    case FenceShape::NotInLoop: {
      std::string a = producer(sn.setup, length(2));
      consumers(sn.use, sn, c_.range(1, 3), kParams[0], {a});
      sn.reason = FenceFallback::NotInLoop;
      sn.wrap = Snippet::Wrap::None; // inside a loop they would be real consumers
      break;
    }
    }
    return sn;
  }

  /// Places the snippet, maybe inside a wrapping loop (whole snippet, or only
  /// its uses), and fixes the expected M and times accordingly.
  Block wrap(Snippet& sn) {
    Block out;
    std::uint32_t mode = sn.wrap == Snippet::Wrap::None ? 0 : c_.pick(sn.wrap == Snippet::Wrap::Any ? 3 : 2);
    if (mode == 0) {
      for (Stmt& s : sn.setup) out.push_back(std::move(s));
      for (Stmt& s : sn.use) out.push_back(std::move(s));
      return out;
    }
    std::string w = fresh("w");
    LoopKind k = kind();
    if (mode == 1) { // whole snippet: each run of the wrapper runs every barrier once
      std::uint32_t times = c_.range(0, 3);
      Block body;
      for (Stmt& s : sn.setup) body.push_back(std::move(s));
      for (Stmt& s : sn.use) body.push_back(std::move(s));
      out.push_back(loop({}, w, k, static_cast<std::int64_t>(times), {}, std::move(body), {}));
      for (auto& e : sn.expect) e.barrier.times *= times;
      return out;
    }
    // uses only: arrays from the setup are stable in the wrapper, so their
    // barriers hoist out of it (M grows); arrays made in the uses do not.
    std::uint32_t times = c_.range(1, 3);
    for (Stmt& s : sn.setup) out.push_back(std::move(s));
    Block body;
    for (Stmt& s : sn.use) body.push_back(std::move(s));
    out.push_back(loop({}, w, k, static_cast<std::int64_t>(times), {}, std::move(body), {}));
    for (auto& e : sn.expect) {
      if (e.array_in_setup) e.barrier.m *= times;
      else e.barrier.times *= times;
    }
    return out;
  }

  ChoiceStream& c_;
  const FenceGenOptions& o_;
  GeneratedFenceProgram& out_;
  std::size_t uid_ = 0;
};

} // namespace

namespace {
std::vector<FencePassImpl>& fence_registry() {
  static std::vector<FencePassImpl> impls = {{"optimized", &depreduce::expand_manual_phase_fence}};
  return impls;
}
} // namespace

const std::vector<FencePassImpl>& fence_pass_impls() { return fence_registry(); }

bool register_fence_pass_impl(FencePassImpl impl) {
  fence_registry().push_back(std::move(impl));
  return true;
}

GeneratedFenceProgram random_fence_program(ChoiceStream& choices, const FenceGenOptions& options) {
  GeneratedFenceProgram out;
  Generator(choices, options, out).run();
  return out;
}

} // namespace depreduce::testing
