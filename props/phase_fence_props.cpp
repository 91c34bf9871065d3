//===- props/phase_fence_props.cpp - ExpandManualPhaseFence properties ---===//
///
/// \file
/// Random orchestration programs (testing/phase_fence.hpp: every compressed
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
///  - print -> parse -> print is stable, before and after the pass.
/// Every property runs over every registered pass (testing::fence_pass_impls:
/// ours, plus any a team registers), judged by the oracle, not by our pass.
/// Each property runs in well under a second at 100 cases.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/phase_fence.hpp"
#include "depreduce/testing/phase_fence.hpp"

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
