//===- fuzz/fuzz_label_verification_diff.cpp - Label verification and race check, twins ----===//
///
/// bytes -> access program with random edges (testing::access_program_from_bytes)
/// -> every registered label verification and race check
/// (testing::builder_impls) -> compare with the reference; then the
/// same on the program's built graph with the random edges applied as
/// mutations (relabel an existing edge, or add one; an edge with no kinds
/// deletes), which gives mostly consistent graphs with a few findings. Also
/// checks that the race verdict equals the all-conflicting-pairs verdict.
/// Aborts with the graph and both results printed on any difference.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>

#include "depreduce/reference/race_check.hpp"
#include "depreduce/testing/access_programs.hpp"

namespace {

using namespace depreduce;

[[noreturn]] void report(const Graph& g, bool verdict, const testing::BuilderImpl& a,
                         const std::vector<LabelMismatch>& la, const std::vector<Race>& ra,
                         const testing::BuilderImpl& b, const std::vector<LabelMismatch>& lb,
                         const std::vector<Race>& rb) {
  std::fprintf(stderr, "MISMATCH (all-conflicts verdict: %s)\n%s", verdict ? "race-free" : "racy",
               testing::describe(g).c_str());
  for (int i = 0; i < 2; ++i) {
    std::fprintf(stderr, "%s:\n", (i ? b : a).name.c_str());
    for (const LabelMismatch& m : i ? lb : la) std::fprintf(stderr, "  %s\n", format_label_mismatch(g, m).c_str());
    for (const Race& r : i ? rb : ra) std::fprintf(stderr, "  %s\n", format_race(g, r).c_str());
  }
  std::abort();
}

void compare(const Graph& g) {
  // Every registered verifier and race check (optimized first, then any third
  // party's) against the reference.
  const testing::BuilderImpl& ref = testing::reference_builder();
  const auto lr = ref.verify_labels(g);
  const auto rr = ref.find_races(g);
  const bool verdict = reference::race_free_by_all_conflicts(g);
  if (rr.empty() != verdict) report(g, verdict, ref, lr, rr, ref, lr, rr);
  for (const testing::BuilderImpl& impl : testing::builder_impls()) {
    if (&impl == &ref) continue;
    const auto l = impl.verify_labels ? impl.verify_labels(g) : lr;
    const auto r = impl.find_races ? impl.find_races(g) : rr;
    if (l != lr || r != rr) report(g, verdict, impl, l, r, ref, lr, rr);
  }
}

} // namespace

/// Programs of up to this many nodes (the decoder allows 32): the reference
/// verifier and race check cost ~n^3 byte pieces, as in fuzz_dependence_builder_diff
/// (docs/fuzzing.md, "Throughput").
constexpr std::uint32_t kMaxNodes = 6;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Graph g = testing::access_program_from_bytes(data, size, kMaxNodes);
  compare(g);

  Graph mixed = build_dependences(g);
  for (const Edge& m : g.edges) {
    auto at = std::lower_bound(mixed.edges.begin(), mixed.edges.end(), m, [](const Edge& a, const Edge& b) {
      return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
    });
    const bool present = at != mixed.edges.end() && at->src == m.src && at->dst == m.dst;
    if (present && m.kinds.empty()) mixed.edges.erase(at);
    else if (present) { at->kinds = m.kinds; at->flags = m.flags; }
    else mixed.edges.insert(at, m);
  }
  compare(mixed);
  return 0;
}
