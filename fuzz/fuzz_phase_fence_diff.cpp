//===- fuzz/fuzz_phase_fence_diff.cpp - Phase fence pass vs interpreter oracle -===//
///
/// \file
/// bytes -> random orchestration program (testing::random_fence_program:
/// every compressed and fallback shape, phase chains, copies and array(n)
/// inits included) -> every registered pass
/// (testing::fence_pass_impls: ExpandManualPhaseFence first) -> the
/// interpreter (reference/) runs both -> compare. Aborts, printing the program
/// before and after, when happens-before among the real tasks differs, when
/// the barriers are not the ones the generator built for, when a fallback
/// consumer is rewritten, when the edge count does not drop by exactly
/// sum(times * (N*M - (N+M))) with constant trip counts, when the pass is not
/// idempotent, or when print -> parse of the pass's output does not give it back.
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/phase_fence.hpp"
#include "depreduce/testing/fence_programs.hpp"

namespace {

using namespace depreduce;

[[noreturn]] void fail(const testing::FencePassImpl& impl, const char* what, const orch::Program& before,
                       const orch::Program& after, const std::string& detail = "") {
  std::fprintf(stderr, "MISMATCH (%s): %s %s\n--- before ---\n%s--- after ---\n%s", impl.name.c_str(), what,
               detail.c_str(), orch::print(before).c_str(), orch::print(after).c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The generator reads at most a few hundred bytes (6 snippets); longer
  // inputs only add zeros' worth of nothing, so cap them to keep runs fast.
  if (size > 2048) return 0;
  testing::ChoiceStream choices(data, size);
  testing::FenceGenOptions options;
  options.max_snippets = 6; // <= ~600 tasks: the O(T*(T+E)) oracle stays fast
  testing::GeneratedFenceProgram g = testing::random_fence_program(choices, options);
  const orch::Program& before = g.program;

  for (const testing::FencePassImpl& impl : testing::fence_pass_impls()) {
    PhaseFenceSummary s;
    orch::Program after = impl.run(before, &s);
    std::string bad = check_phase_fence_invariants(after);
    if (!bad.empty()) fail(impl, "invariant", before, after, bad);

    auto cmp = reference::compare_fence(before, after, g.trips);
    if (!cmp.equivalent) fail(impl, "happens-before", before, after, cmp.mismatch);

    if (s.barriers.size() != g.expected.size())
      fail(impl, "barrier count", before, after,
           std::to_string(s.barriers.size()) + " vs " + std::to_string(g.expected.size()));
    for (std::size_t i = 0; i < s.barriers.size(); ++i)
      if (s.barriers[i].array != g.expected[i].array || s.barriers[i].n != g.expected[i].n ||
          s.barriers[i].m != g.expected[i].m)
        fail(impl, "barrier", before, after, s.barriers[i].name);
    for (const auto& [name, reason] : g.expected_kept) {
      bool ok = false;
      for (const FenceKept& k : s.kept) ok = ok || (k.submit == name && k.reason == reason);
      if (!ok) fail(impl, "fallback", before, after, name + " should be kept for " + fence_fallback_name(reason));
    }
    if (g.constant_trips && cmp.edges_before - cmp.edges_after != g.expected_edge_drop())
      fail(impl, "edge drop", before, after,
           std::to_string(cmp.edges_before) + " -> " + std::to_string(cmp.edges_after) + ", expected drop " +
               std::to_string(g.expected_edge_drop()));

    PhaseFenceSummary again;
    if (impl.run(after, &again) != after || !again.barriers.empty())
      fail(impl, "idempotence", before, after);

    // print -> parse gives the same program back (then print of it gives the
    // same text: print is a function of the program). Only the pass's output:
    // it holds every statement of `before` but the rewritten deps, plus the
    // barriers; the printer and parser are fuzz_orchestration_text_reader_roundtrip's subject.
    if (formats::parse_orchestration(orch::print(after), "fuzz.orch") != after)
      fail(impl, "round trip", before, after);
  }
  return 0;
}
