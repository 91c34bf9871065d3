//===- props/phase_fence_props.cpp - ExpandManualPhaseFence properties ---===//
///
/// \file
/// Random orchestration programs (testing/fence_programs.hpp: every compressed
/// and every fallback shape, phase chains, ping-pong and their unsafe
/// look-alikes included, with copies `x = a` and `iter(acc = array(n))`
/// inits; random sizes, trip counts and wrapping loops)
/// through the pass, checked against the interpreter oracle (reference/):
///  - happens-before among the real tasks is identical before and after;
///  - the barriers are exactly the ones the generator built for (N, M), every
///    fallback consumer keeps its deps for its shape's reason, and with
///    constant trip counts the dynamic edge count drops by exactly
///    sum(times * (N*M - (N+M)));
///  - the pass is idempotent; fallback-only programs get no barrier, and in
///    mixed programs no consumer of a fallback snippet is rewritten;
///  - print -> parse -> print is stable, before and after the pass;
///  - the interpreter's own program check finds the problem orch::find_problem()
///    finds, on generated programs and mutations of them.
/// Every property runs over every registered pass (testing::fence_pass_impls:
/// ours, plus any a team registers), judged by the oracle, not by our pass.
/// Each property runs in well under a second at 100 cases.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/orchestration_ir.hpp"
#include "depreduce/reference/phase_fence.hpp"
#include "depreduce/testing/fence_programs.hpp"

namespace {

using depreduce::testing::ChoiceStream;
using depreduce::testing::FenceGenOptions;
using depreduce::testing::FencePassImpl;
using depreduce::testing::GeneratedFenceProgram;
namespace orch = depreduce::orch;

GeneratedFenceProgram generate(const FenceGenOptions& options = {}) {
  const auto bytes = *rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>());
  ChoiceStream choices(bytes);
  GeneratedFenceProgram g = depreduce::testing::random_fence_program(choices, options);
  for (auto shape : g.shapes) RC_CLASSIFY(true, depreduce::testing::fence_shape_name(shape));
  return g;
}

} // namespace

RC_GTEST_PROP(PhaseFenceProps, RealHappensBeforeIsUnchanged, ()) {
  GeneratedFenceProgram g = generate();
  for (const FencePassImpl& impl : depreduce::testing::fence_pass_impls()) {
    orch::Program after = impl.run(g.program, nullptr);
    auto cmp = depreduce::reference::compare_fence(g.program, after, g.trips);
    RC_LOG() << impl.name << ": " << cmp.mismatch << "\n";
    RC_ASSERT(cmp.equivalent);
    RC_ASSERT(depreduce::check_phase_fence_invariants(after) == std::string());
  }
}

RC_GTEST_PROP(PhaseFenceProps, BarriersAndFallbacksAreTheGeneratedOnes, ()) {
  GeneratedFenceProgram g = generate();
  RC_TAG(g.constant_trips ? "constant trips" : "dynamic trips");
  for (const FencePassImpl& impl : depreduce::testing::fence_pass_impls()) {
    depreduce::PhaseFenceSummary s;
    orch::Program after = impl.run(g.program, &s);
    RC_LOG() << impl.name << ":\n" << orch::print(after);
    for (const auto& b : s.barriers) RC_LOG() << "barrier " << b.name << " on " << b.array << " N=" << b.n << " M=" << b.m << "\n";
    for (const auto& e : g.expected) RC_LOG() << "expected on " << e.array << " N=" << e.n << " M=" << e.m << " x" << e.times << "\n";
    RC_ASSERT(s.barriers.size() == g.expected.size());
    for (std::size_t i = 0; i < g.expected.size(); ++i) {
      RC_ASSERT(s.barriers[i].array == g.expected[i].array);
      RC_ASSERT(s.barriers[i].n == g.expected[i].n);
      RC_ASSERT(s.barriers[i].m == g.expected[i].m);
    }
    for (const auto& [name, reason] : g.expected_kept) {
      bool found = false;
      for (const auto& k : s.kept)
        if (k.submit == name) {
          RC_ASSERT(std::string(depreduce::fence_fallback_name(k.reason)) == depreduce::fence_fallback_name(reason));
          found = true;
        }
      RC_ASSERT(found);
    }
    if (g.constant_trips) {
      auto cmp = depreduce::reference::compare_fence(g.program, after, g.trips);
      RC_ASSERT(cmp.edges_before >= cmp.edges_after);
      RC_ASSERT(cmp.edges_before - cmp.edges_after == g.expected_edge_drop());
      std::uint64_t runs = 0;
      for (const auto& e : g.expected) runs += e.times;
      RC_ASSERT(cmp.dummies_after - cmp.dummies_before == runs);
    }
  }
}

RC_GTEST_PROP(PhaseFenceProps, Idempotent, ()) {
  GeneratedFenceProgram g = generate();
  for (const FencePassImpl& impl : depreduce::testing::fence_pass_impls()) {
    orch::Program once = impl.run(g.program, nullptr);
    depreduce::PhaseFenceSummary s;
    orch::Program twice = impl.run(once, &s);
    RC_ASSERT(twice == once);
    RC_ASSERT(s.barriers.empty());
  }
}

RC_GTEST_PROP(PhaseFenceProps, NoBarrierForFallbackShapes, ()) {
  FenceGenOptions o;
  o.fallback_only = true;
  GeneratedFenceProgram g = generate(o);
  for (const FencePassImpl& impl : depreduce::testing::fence_pass_impls()) {
    depreduce::PhaseFenceSummary s;
    orch::Program after = impl.run(g.program, &s);
    RC_ASSERT(s.barriers.empty());
    RC_ASSERT(after == g.program);
  }
}

RC_GTEST_PROP(PhaseFenceProps, PrintParsePrintIsStable, ()) {
  GeneratedFenceProgram g = generate();
  std::vector<orch::Program> programs{g.program};
  for (const FencePassImpl& impl : depreduce::testing::fence_pass_impls()) programs.push_back(impl.run(g.program, nullptr));
  for (const orch::Program& p : programs) {
    const std::string text = orch::print(p);
    orch::Program back = depreduce::formats::parse_orchestration(text, "generated.orch");
    RC_ASSERT(back == p);
    RC_ASSERT(orch::print(back) == text);
  }
}

namespace {

/// Every place of a program a mutation can change: name fields, integer
/// operands, name lists (results, yields, deps) and blocks.
struct Places {
  std::vector<std::string*> names;
  std::vector<orch::IntAtom*> ints;
  std::vector<std::vector<std::string>*> lists;
  std::vector<orch::Block*> blocks;
  std::vector<orch::AttrList*> attrs;
  std::vector<bool*> else_flags;
  std::vector<std::optional<orch::IntAtom>*> inits;

  void block(orch::Block& b) {
    blocks.push_back(&b);
    for (orch::Stmt& s : b) std::visit([&](auto& n) { node(n); }, s.node);
  }
  void node(orch::ArrayCreate& n) { names.push_back(&n.result); ints.push_back(&n.length); }
  void node(orch::ArrayUpdate& n) {
    names.insert(names.end(), {&n.result, &n.array, &n.task});
    ints.push_back(&n.index);
  }
  void node(orch::ArrayGet& n) { names.insert(names.end(), {&n.result, &n.array}); ints.push_back(&n.index); }
  void node(orch::Copy& n) { names.insert(names.end(), {&n.result, &n.source}); }
  void node(orch::Submit& n) {
    names.insert(names.end(), {&n.result, &n.kernel});
    for (orch::Arg& a : n.args) ints.push_back(&a);
    lists.push_back(&n.deps);
    attrs.push_back(&n.attrs);
  }
  void node(orch::TaskDummy& n) { names.push_back(&n.result); attrs.push_back(&n.attrs); }
  void node(orch::Loop& n) {
    names.push_back(&n.var);
    ints.push_back(&n.trip);
    for (orch::IterArg& a : n.iter_args) {
      names.insert(names.end(), {&a.name, &a.init});
      inits.push_back(&a.init_length);
    }
    lists.insert(lists.end(), {&n.results, &n.yields});
    block(n.body);
  }
  void node(orch::If& n) {
    ints.insert(ints.end(), {&n.cond.lhs, &n.cond.rhs});
    lists.insert(lists.end(), {&n.results, &n.then_yields, &n.else_yields});
    else_flags.push_back(&n.has_else);
    block(n.then_body);
    block(n.else_body);
  }
  void node(orch::Scope& n) { block(n.body); }
};

/// A well-formed generated program with up to three random mutations, each
/// breaking (or not) one rule of the IR: a name replaced by another name of
/// the program, a keyword or a malformed one; an integer operand made
/// negative or a name; a name list grown or shrunk; a statement dropped,
/// repeated or moved; an attribute added; an else branch toggled.
orch::Program mutated_program() {
  const auto bytes = *rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>());
  ChoiceStream choices(bytes);
  orch::Program p = depreduce::testing::random_fence_program(choices).program;
  const int mutations = *rc::gen::inRange(0, 4);
  for (int m = 0; m < mutations; ++m) {
    Places at;
    for (orch::Function& f : p.functions) {
      at.names.push_back(&f.name);
      for (std::string& param : f.params) at.names.push_back(&param);
      at.block(f.body);
    }
    std::vector<std::string> pool{"", "for", "x.", "1a", "fresh", "system.task_dummy"};
    for (std::string* n : at.names)
      if (!n->empty()) pool.push_back(*n);
    auto any_name = [&] { return *rc::gen::elementOf(pool); };
    switch (*rc::gen::inRange(0, 7)) {
    case 0:
      if (!at.names.empty()) *(*rc::gen::elementOf(at.names)) = any_name();
      break;
    case 1:
      if (!at.ints.empty()) {
        orch::IntAtom& a = **rc::gen::elementOf(at.ints);
        if (*rc::gen::arbitrary<bool>()) a = std::int64_t{-1};
        else a = any_name();
      }
      break;
    case 2:
      if (!at.lists.empty()) {
        std::vector<std::string>& l = **rc::gen::elementOf(at.lists);
        if (!l.empty() && *rc::gen::arbitrary<bool>()) l.pop_back();
        else l.push_back(any_name());
      }
      break;
    case 3:
      if (!at.blocks.empty()) {
        orch::Block& b = **rc::gen::elementOf(at.blocks);
        if (b.empty()) break;
        const std::size_t i = *rc::gen::inRange<std::size_t>(0, b.size());
        const int how = *rc::gen::inRange(0, 3);
        if (how == 0) b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
        else if (how == 1) b.insert(b.begin() + static_cast<std::ptrdiff_t>(i), b[i]);
        else std::swap(b[i], b[*rc::gen::inRange<std::size_t>(0, b.size())]);
      }
      break;
    case 4:
      if (!at.attrs.empty()) {
        orch::AttrList& l = **rc::gen::elementOf(at.attrs);
        orch::Attr a;
        a.key = *rc::gen::element<std::string>(orch::kAttrManualDepEdges, orch::kAttrDummyTask, "note");
        const int kind = *rc::gen::inRange(0, 3);
        if (kind == 0) a.value = orch::AttrValue::of_bool(true);
        else if (kind == 1) a.value = orch::AttrValue::of_int(3);
        else a.value = orch::AttrValue::of_names({any_name()});
        l.push_back(a);
      }
      break;
    case 5:
      if (!at.else_flags.empty()) {
        bool& b = **rc::gen::elementOf(at.else_flags);
        b = !b;
      }
      break;
    case 6:
      if (!at.inits.empty()) {
        std::optional<orch::IntAtom>& i = **rc::gen::elementOf(at.inits);
        if (i) i.reset();
        else i = std::int64_t{2};
      }
      break;
    }
  }
  return p;
}

} // namespace

/// The interpreter's own well-formedness check (reference/orchestration_ir.hpp)
/// and orch::find_problem() find the same first problem (function, statement,
/// message) on generated programs and on mutations of them.
RC_GTEST_PROP(PhaseFenceProps, OracleProgramCheckAgreesWithTheOptimized, ()) {
  const orch::Program p = mutated_program();
  const std::optional<orch::Problem> optimized = orch::find_problem(p);
  const std::optional<orch::Problem> oracle = depreduce::reference::first_program_problem(p);
  RC_CLASSIFY(!optimized, "well-formed");
  auto show = [](const std::optional<orch::Problem>& x) {
    return x ? std::to_string(x->function) + "/" + (x->stmt == orch::Problem::npos ? std::string("header")
                                                                                      : std::to_string(x->stmt)) +
                   ": " + x->message
             : std::string("no problem");
  };
  RC_LOG() << orch::print(p) << "optimized: " << show(optimized) << "\noracle:    " << show(oracle) << "\n";
  RC_ASSERT(show(optimized) == show(oracle));
}
