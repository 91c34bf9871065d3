//===- tests/phase_fence_test.cpp - ExpandManualPhaseFence, named shapes -===//
///
/// \file
/// One test per compressed shape and per fallback shape of SPEC §7,
/// each written in the text form. Every expected number (N, M, dynamic edges
/// before and after) is derived by hand in the comment next to it; the
/// interpreter oracle (reference/) must also find happens-before among the
/// real tasks unchanged. Then the oracle itself, the parser's file:line:col
/// errors and print/parse round trips.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "depreduce/error.hpp"
#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/orchestration_ir.hpp"
#include "depreduce/reference/phase_fence.hpp"

namespace {

using depreduce::FenceFallback;
using depreduce::PhaseFenceSummary;
using depreduce::formats::OrchestrationSyntaxError;
using depreduce::formats::parse_orchestration;
using depreduce::reference::TripCounts;
namespace orch = depreduce::orch;

/// A producer loop: `name` = an array of `n` slots, slot i = task produce_<name>(i).
std::string producer(const std::string& name, int n) {
  std::string s = std::to_string(n);
  return "    " + name + "_0 = array(" + s + ")\n" +                               //
         "    " + name + " = for i_" + name + " in parallel(" + s + ") iter(acc_" + name + " = " + name + "_0) {\n" +
         "      t_" + name + " = submit(produce_" + name + ", [i_" + name + "])\n" +                        //
         "      acc1_" + name + " = update(acc_" + name + ", i_" + name + ", t_" + name + ")\n" +          //
         "      yield acc1_" + name + "\n" +                                                               //
         "    }\n";
}

/// main() { manual { <body> } }
std::string manual_main(const std::string& body, const std::string& params = "") {
  return "orchestration func main(" + params + ") {\n  manual {\n" + body + "  }\n}\n";
}

struct FenceRun {
  orch::Program before, after;
  PhaseFenceSummary summary;
  depreduce::reference::FenceComparison cmp;
};

FenceRun run(const std::string& text, const TripCounts& trips = {}) {
  FenceRun r;
  r.before = parse_orchestration(text, "test.orch");
  r.after = depreduce::expand_manual_phase_fence(r.before, &r.summary);
  r.cmp = depreduce::reference::compare_fence(r.before, r.after, trips);
  EXPECT_TRUE(r.cmp.equivalent) << r.cmp.mismatch << "\n" << orch::print(r.after);
  EXPECT_EQ(depreduce::check_phase_fence_invariants(r.after), "");
  // Idempotent: a second run changes nothing and inserts nothing.
  PhaseFenceSummary again;
  EXPECT_EQ(depreduce::expand_manual_phase_fence(r.after, &again), r.after);
  EXPECT_TRUE(again.barriers.empty());
  return r;
}

/// Expects no barrier and every submit with deps kept for \p reason.
void expect_fallback(const FenceRun& r, FenceFallback reason, std::size_t kept_submits) {
  EXPECT_TRUE(r.summary.barriers.empty());
  EXPECT_EQ(r.after, r.before);
  ASSERT_EQ(r.summary.kept.size(), kept_submits);
  for (const auto& k : r.summary.kept)
    EXPECT_EQ(k.reason, reason) << k.submit << ": " << depreduce::fence_fallback_name(k.reason);
  EXPECT_EQ(r.cmp.edges_after, r.cmp.edges_before);
  EXPECT_EQ(r.cmp.dummies_after, 0u);
}

/// An orchestration text the reader must refuse, where and why.
struct ParseErrorCase {
  const char* text;
  std::uint32_t line, col;
  const char* message;
};

//===----------------------------------------------------------------------===//
// Compressed shapes
//===----------------------------------------------------------------------===//

TEST(PhaseFenceCompress, ParallelLoopFourIterationsTwoSubmitsOnFourElementArray) {
  FenceRun r = run(manual_main(producer("tids", 4) +
                          "    for j in parallel(4) {\n"
                          "      c0 = submit(consume, [j, 0], deps=[tids])\n"
                          "      c1 = submit(consume, [j, 1], deps=[tids])\n"
                          "    }\n"));
  // N = 4, M = 4 iterations * 2 submits = 8: 4*8 = 32 direct edges become 4 + 8 = 12.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  const auto& b = r.summary.barriers[0];
  EXPECT_EQ(b.name, "phase_fence_barrier_0");
  EXPECT_EQ(b.array, "tids");
  EXPECT_EQ(b.loop_var, "j");
  EXPECT_EQ(b.n, 4u);
  EXPECT_EQ(b.m, 8u);
  EXPECT_EQ(b.sites, 2u);
  EXPECT_EQ(b.saved(), 20u);
  EXPECT_TRUE(r.summary.kept.empty());
  EXPECT_EQ(r.cmp.edges_before, 32u);
  EXPECT_EQ(r.cmp.edges_after, 12u);
  EXPECT_EQ(r.cmp.dummies_after, 1u);
  // The barrier is inserted right before the loop, marked, and the consumers
  // now depend on it alone.
  EXPECT_EQ(orch::print(r.after), manual_main(producer("tids", 4) +
                                              "    phase_fence_barrier_0 = system.task_dummy() {dummy_task = true, "
                                              "manual_dep_edges = [tids]}\n"
                                              "    for j in parallel(4) {\n"
                                              "      c0 = submit(consume, [j, 0], deps=[phase_fence_barrier_0])\n"
                                              "      c1 = submit(consume, [j, 1], deps=[phase_fence_barrier_0])\n"
                                              "    }\n"));
}

TEST(PhaseFenceCompress, ThreeByThreeSmallestProfitableSquare) {
  FenceRun r = run(manual_main(producer("tids", 3) +
                          "    for j in parallel(3) {\n"
                          "      c = submit(consume, [j], deps=[tids])\n"
                          "    }\n"));
  // 3*3 = 9 edges become 3 + 3 = 6 (2x2 would be 4 -> 4, see Unprofitable).
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].n, 3u);
  EXPECT_EQ(r.summary.barriers[0].m, 3u);
  EXPECT_EQ(r.cmp.edges_before, 9u);
  EXPECT_EQ(r.cmp.edges_after, 6u);
}

TEST(PhaseFenceCompress, TwoByThreeSavesExactlyOneEdge) {
  // The threshold N*M - (N+M) >= 1: 2*3 = 6 edges become 2 + 3 = 5.
  FenceRun r = run(manual_main(producer("tids", 2) +
                          "    for j in parallel(3) {\n"
                          "      c = submit(consume, [j], deps=[tids])\n"
                          "    }\n"));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].saved(), 1u);
  EXPECT_EQ(r.cmp.edges_before, 6u);
  EXPECT_EQ(r.cmp.edges_after, 5u);
}

TEST(PhaseFenceCompress, StableDepHoistedOnceOutOfSequentialLoop) {
  FenceRun r = run(manual_main(producer("tids", 4) +
                          "    for s in seq(3) {\n"
                          "      a = submit(stage_a, [s], deps=[tids])\n"
                          "      b = submit(stage_b, [s], deps=[tids])\n"
                          "    }\n"));
  // N = 4, M = 3 * 2 = 6: 24 -> 10, and one dummy task for the whole loop,
  // not one per iteration.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].loop_var, "s");
  EXPECT_EQ(r.summary.barriers[0].m, 6u);
  EXPECT_EQ(r.cmp.edges_before, 24u);
  EXPECT_EQ(r.cmp.edges_after, 10u);
  EXPECT_EQ(r.cmp.dummies_after, 1u);
}

TEST(PhaseFenceCompress, StableDepHoistedOutOfNestedLoops) {
  FenceRun r = run(manual_main(producer("tids", 4) +
                          "    for a in seq(2) {\n"
                          "      head = submit(head, [a], deps=[tids])\n"
                          "      for b in seq(3) {\n"
                          "        c = submit(consume, [a, b], deps=[tids])\n"
                          "      }\n"
                          "    }\n"));
  // Both submits hoist to the outer loop: M = 2*1 + 2*3 = 8, N = 4:
  // 32 -> 12, one barrier before `a` serving both sites.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].loop_var, "a");
  EXPECT_EQ(r.summary.barriers[0].m, 8u);
  EXPECT_EQ(r.summary.barriers[0].sites, 2u);
  EXPECT_EQ(r.cmp.edges_before, 32u);
  EXPECT_EQ(r.cmp.edges_after, 12u);
  EXPECT_EQ(r.cmp.dummies_after, 1u);
}

TEST(PhaseFenceCompress, ParallelInsideSequential) {
  FenceRun r = run(manual_main(producer("tids", 2) +
                          "    for s in seq(3) {\n"
                          "      for p in parallel(4) {\n"
                          "        c = submit(consume, [s, p], deps=[tids])\n"
                          "      }\n"
                          "    }\n"));
  // N = 2, M = 3*4 = 12: 24 -> 14, hoisted out of the sequential loop.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].loop_var, "s");
  EXPECT_EQ(r.summary.barriers[0].m, 12u);
  EXPECT_EQ(r.cmp.edges_before, 24u);
  EXPECT_EQ(r.cmp.edges_after, 14u);
}

TEST(PhaseFenceCompress, TwoArraysWithSeparateConsumersGetTwoBarriers) {
  FenceRun r = run(manual_main(producer("tids", 4) + producer("aux", 3) +
                          "    for j in parallel(4) {\n"
                          "      a = submit(use_tids, [j], deps=[tids])\n"
                          "      b = submit(use_aux, [j], deps=[aux])\n"
                          "    }\n"));
  // tids: N=4, M=4 (16 -> 8); aux: N=3, M=4 (12 -> 7). Total 28 -> 15.
  ASSERT_EQ(r.summary.barriers.size(), 2u);
  EXPECT_EQ(r.summary.barriers[0].name, "phase_fence_barrier_0");
  EXPECT_EQ(r.summary.barriers[0].array, "tids");
  EXPECT_EQ(r.summary.barriers[0].n, 4u);
  EXPECT_EQ(r.summary.barriers[1].name, "phase_fence_barrier_1");
  EXPECT_EQ(r.summary.barriers[1].array, "aux");
  EXPECT_EQ(r.summary.barriers[1].n, 3u);
  EXPECT_EQ(r.summary.barriers[1].m, 4u);
  EXPECT_EQ(r.cmp.edges_before, 28u);
  EXPECT_EQ(r.cmp.edges_after, 15u);
  EXPECT_EQ(r.cmp.dummies_after, 2u);
}

TEST(PhaseFenceCompress, DoubleBufferedPhasesReadOneArrayWriteAnother) {
  FenceRun r = run(manual_main(producer("tids", 4) +
                          "    nxt_0 = array(4)\n"
                          "    nxt = for j in parallel(4) iter(buf = nxt_0) {\n"
                          "      c = submit(step, [j], deps=[tids])\n"
                          "      buf1 = update(buf, j, c)\n"
                          "      yield buf1\n"
                          "    }\n"
                          "    for k in parallel(3) {\n"
                          "      d = submit(finish, [k], deps=[nxt])\n"
                          "    }\n"));
  // Phase 1 reads tids (stable) and writes the other carrier nxt: N=4, M=4,
  // 16 -> 8. Phase 2 reads the filled nxt: N=4, M=3, 12 -> 7. 28 -> 15.
  ASSERT_EQ(r.summary.barriers.size(), 2u);
  EXPECT_EQ(r.summary.barriers[0].array, "tids");
  EXPECT_EQ(r.summary.barriers[0].loop_var, "j");
  EXPECT_EQ(r.summary.barriers[1].array, "nxt");
  EXPECT_EQ(r.summary.barriers[1].m, 3u);
  EXPECT_EQ(r.cmp.edges_before, 28u);
  EXPECT_EQ(r.cmp.edges_after, 15u);
}

TEST(PhaseFenceCompress, DynamicSequentialLoopCountsOneIteration) {
  // A sequential loop with a dynamic trip count is costed per iteration
  // (M = 2 submits, N = 4: (N-1)(M-1) = 3 >= 2). With n = 3 at run time:
  // 4*6 = 24 edges become 4 + 6 = 10.
  FenceRun r = run(manual_main(producer("tids", 4) +
                              "    for s in seq(n) {\n"
                              "      a = submit(stage_a, [s], deps=[tids])\n"
                              "      b = submit(stage_b, [s], deps=[tids])\n"
                              "    }\n",
                          "n"),
              {{"n", 3}});
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].m, 2u);
  EXPECT_EQ(r.cmp.edges_before, 24u);
  EXPECT_EQ(r.cmp.edges_after, 10u);
}

TEST(PhaseFenceCompress, StableOuterIterArgCompressesForInnerLoop) {
  // `cur` is the outer loop's own iteration argument (kept there), but for the
  // inner loop it is a stable array defined outside: the barrier goes inside
  // the outer body, before the inner loop, once per outer iteration.
  FenceRun r = run(manual_main(producer("tids", 3) +
                          "    for o in seq(2) iter(cur = tids) {\n"
                          "      for j in parallel(3) {\n"
                          "        c = submit(consume, [o, j], deps=[cur])\n"
                          "      }\n"
                          "      yield cur\n"
                          "    }\n"));
  // Per outer iteration: N=3, M=3, 9 -> 6; two outer iterations: 18 -> 12.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].loop_var, "j");
  EXPECT_EQ(r.cmp.edges_before, 18u);
  EXPECT_EQ(r.cmp.edges_after, 12u);
  EXPECT_EQ(r.cmp.dummies_after, 2u);
}

//===----------------------------------------------------------------------===//
// Fallback shapes: direct deps kept
//===----------------------------------------------------------------------===//

TEST(PhaseFenceFallback, ScalarDep) {
  FenceRun r = run(manual_main("    t0 = submit(init, [])\n"
                          "    for j in parallel(4) {\n"
                          "      c0 = submit(consume, [j], deps=[t0])\n"
                          "      c1 = submit(consume, [j], deps=[t0])\n"
                          "    }\n"));
  expect_fallback(r, FenceFallback::ScalarDep, 2);
  EXPECT_EQ(r.cmp.edges_before, 8u); // 8 consumers, one edge each
}

TEST(PhaseFenceFallback, MixedScalarAndArrayDeps) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    t0 = submit(init, [])\n"
                                                 "    for j in parallel(4) {\n"
                                                 "      c0 = submit(consume, [j], deps=[t0, tids])\n"
                                                 "      c1 = submit(consume, [j], deps=[tids, t0])\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::MixedDeps, 2);
  EXPECT_EQ(r.cmp.edges_before, 40u); // 8 consumers * (4 + 1)
}

TEST(PhaseFenceFallback, TwoArraysOnOneSubmit) {
  FenceRun r = run(manual_main(producer("tids", 4) + producer("aux", 3) +
                          "    for j in parallel(4) {\n"
                          "      c = submit(consume, [j], deps=[tids, aux])\n"
                          "    }\n"));
  expect_fallback(r, FenceFallback::MultipleArrays, 1);
  EXPECT_EQ(r.cmp.edges_before, 28u); // 4 consumers * (4 + 3)
}

TEST(PhaseFenceFallback, PartialSlot) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in parallel(4) {\n"
                                                 "      prev = tids[j]\n"
                                                 "      c0 = submit(consume, [j], deps=[prev])\n"
                                                 "      c1 = submit(consume, [j], deps=[prev])\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::PartialSlot, 2);
  EXPECT_EQ(r.cmp.edges_before, 8u);
}

TEST(PhaseFenceFallback, LoopOwnIterationArgumentArray) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in seq(4) iter(cur = tids) {\n"
                                                 "      c0 = submit(consume, [j], deps=[cur])\n"
                                                 "      c1 = submit(consume, [j], deps=[cur])\n"
                                                 "      yield cur\n"
                                                 "    }\n"));
  // The result of this loop is unused; the consumers stay direct: 8*4 = 32.
  expect_fallback(r, FenceFallback::LoopIterArg, 2);
  EXPECT_EQ(r.cmp.edges_before, 32u);
}

TEST(PhaseFenceFallback, ArrayDefinedInBody) {
  FenceRun r = run(manual_main("    for j in seq(3) {\n"
                          "      fresh = array(4)\n"
                          "      t = submit(produce, [j])\n"
                          "      f1 = update(fresh, 0, t)\n"
                          "      c0 = submit(consume, [j], deps=[f1])\n"
                          "      c1 = submit(consume, [j], deps=[fresh])\n"
                          "    }\n"));
  expect_fallback(r, FenceFallback::DefinedInBody, 2);
  EXPECT_EQ(r.cmp.edges_before, 6u); // each consumer sees one filled slot
}

TEST(PhaseFenceFallback, ArrayUpdatedInBody) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in seq(4) {\n"
                                                 "      c = submit(consume, [j], deps=[tids])\n"
                                                 "      d = submit(consume2, [j], deps=[tids])\n"
                                                 "      u = update(tids, j, c)\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::UpdatedInBody, 2);
  EXPECT_EQ(r.cmp.edges_before, 32u); // slots are replaced, never emptied: 8 * 4
}

TEST(PhaseFenceFallback, ParallelLoopUpdatingItsOwnDepArray) {
  // pl.parallel does not weaken explicit deps: reading deps=[tids] while
  // writing tids[branch] keeps the direct deps.
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in parallel(4) iter(a = tids) {\n"
                                                 "      c = submit(consume, [j], deps=[tids])\n"
                                                 "      d = submit(consume2, [j], deps=[tids])\n"
                                                 "      a1 = update(a, j, c)\n"
                                                 "      yield a1\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 2);
}

TEST(PhaseFenceFallback, ArrayUpdatedThroughTransitiveIterArgAlias) {
  // `view` aliases tids through a loop result; the consumer loop updates
  // `view` in a nested loop, which writes tids' storage.
  FenceRun r = run(manual_main(producer("tids", 4) + "    view = for v in seq(1) iter(x = tids) {\n"
                                                 "      yield x\n"
                                                 "    }\n"
                                                 "    for j in seq(2) {\n"
                                                 "      c = submit(consume, [j], deps=[tids])\n"
                                                 "      d = submit(consume2, [j], deps=[tids])\n"
                                                 "      for k in seq(1) iter(y = view) {\n"
                                                 "        y1 = update(y, j, c)\n"
                                                 "        yield y1\n"
                                                 "      }\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 2);
}

TEST(PhaseFenceFallback, NestedLoopReturnValueUsedAsDep) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for o in seq(3) {\n"
                                                 "      r = for i in seq(2) iter(a = tids) {\n"
                                                 "        yield a\n"
                                                 "      }\n"
                                                 "      c0 = submit(consume, [o], deps=[r])\n"
                                                 "      c1 = submit(consume, [o], deps=[r])\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::ReturnValue, 2);
  EXPECT_EQ(r.cmp.edges_before, 24u);
}

TEST(PhaseFenceFallback, IfReturnValueUsedAsDep) {
  FenceRun r = run(manual_main(producer("tids", 4) + producer("aux", 4) +
                          "    for o in seq(3) {\n"
                          "      r = if o < 1 {\n"
                          "        yield tids\n"
                          "      } else {\n"
                          "        yield aux\n"
                          "      }\n"
                          "      c0 = submit(consume, [o], deps=[r])\n"
                          "      c1 = submit(consume, [o], deps=[r])\n"
                          "    }\n"));
  expect_fallback(r, FenceFallback::ReturnValue, 2);
  EXPECT_EQ(r.cmp.edges_before, 24u);
}

TEST(PhaseFenceFallback, IfResultDefinedOutsideLoopIsUnresolved) {
  FenceRun r = run(manual_main(producer("tids", 4) + producer("aux", 4) +
                              "    r = if n > 0 {\n"
                              "      yield tids\n"
                              "    } else {\n"
                              "      yield aux\n"
                              "    }\n"
                              "    for j in parallel(4) {\n"
                              "      c = submit(consume, [j], deps=[r])\n"
                              "    }\n",
                          "n"),
              {{"n", 1}});
  expect_fallback(r, FenceFallback::UnresolvedArray, 1);
}

TEST(PhaseFenceFallback, DynamicArrayLengthIsUnresolved) {
  FenceRun r = run(manual_main("    tids_0 = array(n)\n"
                          "    t = submit(produce, [])\n"
                          "    tids = update(tids_0, 0, t)\n"
                          "    for j in parallel(4) {\n"
                          "      c = submit(consume, [j], deps=[tids])\n"
                          "    }\n",
                          "n"),
              {{"n", 4}});
  expect_fallback(r, FenceFallback::UnresolvedArray, 1);
}

TEST(PhaseFenceFallback, KnownZeroTripLoop) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for s in seq(0) {\n"
                                                 "      c0 = submit(consume, [s], deps=[tids])\n"
                                                 "      c1 = submit(consume, [s], deps=[tids])\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::ZeroTrip, 2);
  EXPECT_EQ(r.cmp.edges_before, 0u);
}

TEST(PhaseFenceFallback, KnownZeroTripOuterLoop) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for s in seq(0) {\n"
                                                 "      for j in parallel(4) {\n"
                                                 "        c = submit(consume, [s, j], deps=[tids])\n"
                                                 "      }\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::ZeroTrip, 1);
}

TEST(PhaseFenceFallback, DynamicTripCountInParallelLoop) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in parallel(n) {\n"
                                                 "      c0 = submit(consume, [j], deps=[tids])\n"
                                                 "      c1 = submit(consume, [j], deps=[tids])\n"
                                                 "    }\n",
                          "n"),
              {{"n", 4}});
  expect_fallback(r, FenceFallback::DynamicParallelTrip, 2);
  EXPECT_EQ(r.cmp.edges_before, 32u);
}

TEST(PhaseFenceFallback, NToOneFanout) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in seq(1) {\n"
                                                 "      c = submit(consume, [j], deps=[tids])\n"
                                                 "    }\n"));
  // N=4, M=1: 4 edges either way plus a dummy would cost 5.
  expect_fallback(r, FenceFallback::Unprofitable, 1);
  EXPECT_EQ(r.cmp.edges_before, 4u);
}

TEST(PhaseFenceFallback, TwoByTwoFanout) {
  FenceRun r = run(manual_main(producer("tids", 2) + "    for j in parallel(2) {\n"
                                                 "      c = submit(consume, [j], deps=[tids])\n"
                                                 "    }\n"));
  // 2*2 = 4 = 2+2: no saving.
  expect_fallback(r, FenceFallback::Unprofitable, 1);
  EXPECT_EQ(r.cmp.edges_before, 4u);
}

TEST(PhaseFenceFallback, AutomaticScope) {
  FenceRun r = run("orchestration func main() {\n  auto {\n" + producer("tids", 4) +
              "    for j in parallel(4) {\n"
              "      c0 = submit(consume, [j], deps=[tids])\n"
              "      c1 = submit(consume, [j], deps=[tids])\n"
              "    }\n  }\n}\n");
  expect_fallback(r, FenceFallback::NotManualScope, 2);
}

TEST(PhaseFenceFallback, AutomaticScopeInsideManualScope) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    auto {\n"
                                                 "      for j in parallel(4) {\n"
                                                 "        c0 = submit(consume, [j], deps=[tids])\n"
                                                 "        c1 = submit(consume, [j], deps=[tids])\n"
                                                 "      }\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::NotManualScope, 2);
}

TEST(PhaseFenceFallback, NonOrchestrationFunction) {
  FenceRun r = run("kernel func tile() {\n  manual {\n" + producer("tids", 4) +
              "    for j in parallel(4) {\n"
              "      c0 = submit(consume, [j], deps=[tids])\n"
              "      c1 = submit(consume, [j], deps=[tids])\n"
              "    }\n  }\n}\n");
  expect_fallback(r, FenceFallback::NotOrchestration, 2);
  EXPECT_EQ(r.cmp.edges_before, 32u); // the interpreter runs kernel bodies too
}

TEST(PhaseFenceFallback, ConsumerUnderIfInsideLoop) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    for j in parallel(4) {\n"
                                                 "      if j < 2 {\n"
                                                 "        c0 = submit(consume, [j], deps=[tids])\n"
                                                 "        c1 = submit(consume, [j], deps=[tids])\n"
                                                 "      }\n"
                                                 "    }\n"));
  expect_fallback(r, FenceFallback::InsideIf, 2);
  EXPECT_EQ(r.cmp.edges_before, 16u); // j = 0, 1 only
}

TEST(PhaseFenceFallback, StraightLineConsumersOutsideLoops) {
  FenceRun r = run(manual_main(producer("tids", 4) + "    c0 = submit(consume, [0], deps=[tids])\n"
                                                 "    c1 = submit(consume, [1], deps=[tids])\n"
                                                 "    c2 = submit(consume, [2], deps=[tids])\n"));
  expect_fallback(r, FenceFallback::NotInLoop, 3);
}

TEST(PhaseFence, MixOfShapesKeepsEachDecisionAndNumbersBarriersInOrder) {
  // The second function already uses phase_fence_barrier_0; numbering skips it.
  FenceRun r = run("orchestration func first() {\n  manual {\n" + producer("tids", 3) +
              "    for j in parallel(3) {\n"
              "      c = submit(consume, [j], deps=[tids])\n"
              "      p = tids[j]\n"
              "      d = submit(consume, [j], deps=[p])\n"
              "    }\n  }\n}\n\n"
              "orchestration func second() {\n  manual {\n" +
              producer("xs", 3) +
              "    phase_fence_barrier_0 = system.task_dummy() {dummy_task = true, manual_dep_edges = [xs]}\n"
              "    for j in parallel(3) {\n"
              "      e = submit(consume, [j], deps=[xs])\n"
              "    }\n  }\n}\n");
  ASSERT_EQ(r.summary.barriers.size(), 2u);
  EXPECT_EQ(r.summary.barriers[0].function, "first");
  EXPECT_EQ(r.summary.barriers[0].name, "phase_fence_barrier_1");
  EXPECT_EQ(r.summary.barriers[1].function, "second");
  EXPECT_EQ(r.summary.barriers[1].name, "phase_fence_barrier_2");
  ASSERT_EQ(r.summary.kept.size(), 1u);
  EXPECT_EQ(r.summary.kept[0].submit, "d");
  EXPECT_EQ(r.summary.kept[0].reason, FenceFallback::PartialSlot);
  // first: 9 -> 6 for c, plus 3 partial-slot edges; second: user dummy 3 edges,
  // 9 -> 6 for e. Before 9+3+3+9 = 24, after 6+3+3+6 = 18.
  EXPECT_EQ(r.cmp.edges_before, 24u);
  EXPECT_EQ(r.cmp.edges_after, 18u);
}

//===----------------------------------------------------------------------===//
// The oracle: it must reject unsafe rewrites, or the tests above prove nothing
//===----------------------------------------------------------------------===//

TEST(PhaseFenceOracle, RejectsBarrierHoistedOverAnUpdatedArray) {
  const std::string body_tail = "      u = update(tids, j, c)\n"
                                "    }\n";
  orch::Program direct = parse_orchestration(manual_main(producer("tids", 3) + "    for j in seq(3) {\n"
                                                                                "      c = submit(consume, [j], deps=[tids])\n" +
                                                         body_tail));
  orch::Program unsafe = parse_orchestration(
      manual_main(producer("tids", 3) +
                  "    b = system.task_dummy() {dummy_task = true, manual_dep_edges = [tids]}\n"
                  "    for j in seq(3) {\n"
                  "      c = submit(consume, [j], deps=[b])\n" +
                  body_tail));
  auto cmp = depreduce::reference::compare_fence(direct, unsafe);
  // Directly, consume(1) waits for consume(0) (written into slot 0); through
  // the early barrier it does not.
  EXPECT_FALSE(cmp.equivalent);
  EXPECT_NE(cmp.mismatch.find("lost"), std::string::npos) << cmp.mismatch;
}

TEST(PhaseFenceOracle, DynamicGraphOfASmallProgram) {
  orch::Program p = parse_orchestration(manual_main("    a = array(3)\n"
                                                    "    t0 = submit(k, [7])\n"
                                                    "    a1 = update(a, 1, t0)\n"
                                                    "    b = system.task_dummy() {dummy_task = true, manual_dep_edges = [a1]}\n"
                                                    "    for i in seq(2) {\n"
                                                    "      c = submit(k, [i], deps=[b])\n"
                                                    "    }\n"
                                                    "    e = a[0]\n"
                                                    "    f = submit(k, [], deps=[e])\n"));
  auto g = depreduce::reference::interpret(p);
  // Tasks: 0 k(7); 1 dummy (waits for 0; slots 0 and 2 are empty); 2 k(0) and
  // 3 k(1) wait for 1; 4 k() depends on an empty slot, so on nothing.
  ASSERT_EQ(g.tasks.size(), 5u);
  EXPECT_EQ(g.tasks[0].label, "k(7)");
  EXPECT_TRUE(g.tasks[1].dummy);
  EXPECT_EQ(g.tasks[1].deps, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(g.tasks[3].label, "k(1)");
  EXPECT_EQ(g.tasks[3].deps, (std::vector<std::uint32_t>{1}));
  EXPECT_TRUE(g.tasks[4].deps.empty());
  EXPECT_EQ(g.edge_count(), 3u);
  EXPECT_EQ(g.real_task_count(), 4u);
  // Real ordinals: k(7)=0, k(0)=1, k(1)=2, k()=3; HB goes through the dummy.
  using HB = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(depreduce::reference::real_happens_before(g), (HB{{0, 1}, {0, 2}}));
}

TEST(PhaseFenceOracle, BadRunsAreInputErrors) {
  orch::Program needs_n = parse_orchestration(manual_main("    for i in seq(n) {\n"
                                                          "      c = submit(k, [i])\n"
                                                          "    }\n",
                                                          "n"));
  EXPECT_THROW(depreduce::reference::interpret(needs_n), depreduce::InputError);
  EXPECT_THROW(depreduce::reference::interpret(needs_n, {{"n", -1}}), depreduce::InputError);
  depreduce::reference::InterpretLimits small;
  small.max_tasks = 5;
  EXPECT_THROW(depreduce::reference::interpret(needs_n, {{"n", 6}}, small), depreduce::InputError);
  EXPECT_EQ(depreduce::reference::interpret(needs_n, {{"n", 5}}, small).tasks.size(), 5u);
  orch::Program out_of_range = parse_orchestration(manual_main("    a = array(2)\n"
                                                               "    t = submit(k, [])\n"
                                                               "    a1 = update(a, 2, t)\n"));
  try {
    depreduce::reference::interpret(out_of_range);
    FAIL() << "expected an InputError";
  } catch (const depreduce::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("index 2 out of range"), std::string::npos) << e.what();
  }
}

TEST(PhaseFence, RejectsInvalidProgramBuiltInCode) {
  orch::Program p;
  orch::Function f;
  f.name = "main";
  orch::Submit s;
  s.kernel = "k";
  s.deps = {"nowhere"};
  f.body.push_back(orch::Stmt{s});
  p.functions.push_back(f);
  try {
    depreduce::expand_manual_phase_fence(p);
    FAIL() << "expected an InputError";
  } catch (const depreduce::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "<program>: function 'main', statement 0: use of undefined name 'nowhere'");
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Phase chain: alias safety per storage instance
//===----------------------------------------------------------------------===//

/// The issue's example, with the sizes as parameters: `phases` sequential
/// phases; the iteration argument T (first: `f`, n slots, filled) is the dep of
/// `per` consumers in each of n parallel iterations; each phase writes a fresh
/// `array(n)` (\p fresh: a statement, or "expr" for an `iter(acc = array(n))`
/// init) and yields it as the next T.
std::string chain(int n, int phases, int per, bool expr_init = false) {
  std::string ns = std::to_string(n);
  std::string body = producer("f", n) + "    out = for ph in seq(" + std::to_string(phases) + ") iter(T = f) {\n";
  if (!expr_init) body += "      nxt = array(" + ns + ")\n";
  body += "      n2 = for b in parallel(" + ns + ") iter(acc = " + (expr_init ? "array(" + ns + ")" : std::string("nxt")) +
          ") {\n";
  for (int c = 1; c < per; ++c) body += "        x" + std::to_string(c) + " = submit(k, [ph, b], deps=[T])\n";
  body += "        s = submit(k, [ph, b], deps=[T])\n"
          "        acc1 = update(acc, b, s)\n"
          "        yield acc1\n"
          "      }\n"
          "      yield n2\n"
          "    }\n";
  return manual_main(body);
}

TEST(PhaseChain, IssueExampleOneBarrierPerPhaseBeforeTheParallelLoop) {
  FenceRun r = run(chain(3, 4, 1));
  // Each phase: 3 consumers x all 3 slots of T = 9 edges; 4 phases = 36.
  // After: per phase T -> barrier (3) + barrier -> 3 consumers = 6; 4 x 6 = 24.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  const auto& b = r.summary.barriers[0];
  EXPECT_EQ(b.array, "T");
  EXPECT_EQ(b.loop_var, "b"); // inside the seq body, before the parallel loop
  EXPECT_EQ(b.n, 3u);
  EXPECT_EQ(b.m, 3u);
  EXPECT_TRUE(r.summary.kept.empty());
  EXPECT_EQ(r.cmp.edges_before, 36u);
  EXPECT_EQ(r.cmp.edges_after, 24u);
  EXPECT_EQ(r.cmp.dummies_after, 4u); // one barrier per phase
  const std::string printed = orch::print(r.after);
  EXPECT_NE(printed.find("      nxt = array(3)\n"
                         "      phase_fence_barrier_0 = system.task_dummy() {dummy_task = true, manual_dep_edges = [T]}\n"
                         "      n2 = for b in parallel(3) iter(acc = nxt) {\n"
                         "        s = submit(k, [ph, b], deps=[phase_fence_barrier_0])\n"),
            std::string::npos)
      << printed;
}

TEST(PhaseChain, OtherSizesTwoConsumersPerIteration) {
  FenceRun r = run(chain(4, 3, 2));
  // N = 4, M = 4 iterations x 2 = 8: per phase 32 -> 12; 3 phases: 96 -> 36.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].n, 4u);
  EXPECT_EQ(r.summary.barriers[0].m, 8u);
  EXPECT_EQ(r.summary.barriers[0].sites, 2u);
  EXPECT_EQ(r.cmp.edges_before, 96u);
  EXPECT_EQ(r.cmp.edges_after, 36u);
  EXPECT_EQ(r.cmp.dummies_after, 3u);
}

TEST(PhaseChain, FreshCarrierAsExpressionInit) {
  // iter(acc = array(3)): new storage each time the parallel loop starts, so
  // once per phase, exactly like `nxt = array(3)` before it.
  FenceRun r = run(chain(3, 4, 1, true));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].array, "T");
  EXPECT_EQ(r.cmp.edges_before, 36u);
  EXPECT_EQ(r.cmp.edges_after, 24u);
}

TEST(PhaseChain, ThreeLevelsCarrierPassedDownToAnInnerLoop) {
  // seq ph -> parallel b (carrier acc) -> parallel q (carrier acc2 = acc,
  // written there). The consumers in q hoist to b (T is stable for b) but not
  // to ph (T is ph's iteration argument): N = 4, M = 2 x 4 = 8.
  // Per phase 4*8 = 32 -> 4 + 8 = 12; 3 phases: 96 -> 36.
  FenceRun r = run(manual_main(producer("f", 4) +
                               "    out = for ph in seq(3) iter(T = f) {\n"
                               "      nxt = array(4)\n"
                               "      n2 = for b in parallel(2) iter(acc = nxt) {\n"
                               "        r = for q in parallel(4) iter(acc2 = acc) {\n"
                               "          s = submit(k, [ph, b, q], deps=[T])\n"
                               "          acc3 = update(acc2, q, s)\n"
                               "          yield acc3\n"
                               "        }\n"
                               "        yield r\n"
                               "      }\n"
                               "      yield n2\n"
                               "    }\n"));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].loop_var, "b");
  EXPECT_EQ(r.summary.barriers[0].n, 4u);
  EXPECT_EQ(r.summary.barriers[0].m, 8u);
  EXPECT_EQ(r.cmp.edges_before, 96u);
  EXPECT_EQ(r.cmp.edges_after, 36u);
  EXPECT_EQ(r.cmp.dummies_after, 3u);
}

TEST(PhaseChain, ThreeLevelsChainInsideAnOuterSequentialLoop) {
  // The issue's chain repeated twice by an outer loop: the barrier stays in the
  // phase body and runs 2 x 4 = 8 times; 2 x 36 = 72 -> 2 x 24 = 48.
  FenceRun r = run(manual_main(producer("f", 3) +
                               "    for rep in seq(2) {\n"
                               "      out = for ph in seq(4) iter(T = f) {\n"
                               "        nxt = array(3)\n"
                               "        n2 = for b in parallel(3) iter(acc = nxt) {\n"
                               "          s = submit(k, [rep, ph, b], deps=[T])\n"
                               "          acc1 = update(acc, b, s)\n"
                               "          yield acc1\n"
                               "        }\n"
                               "        yield n2\n"
                               "      }\n"
                               "    }\n"));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].loop_var, "b");
  EXPECT_EQ(r.cmp.edges_before, 72u);
  EXPECT_EQ(r.cmp.edges_after, 48u);
  EXPECT_EQ(r.cmp.dummies_after, 8u);
}

/// Ping-pong: phases alternate between two preallocated arrays; `cur` is read,
/// `other` written, then they swap. \p init_other and \p yields vary the shape.
std::string ping_pong(const std::string& init_other, const std::string& yields) {
  return manual_main(producer("bufA", 3) + "    bufB = array(3)\n" +
                     "    outA, outB = for ph in seq(4) iter(cur = bufA, other = " + init_other + ") {\n" +
                     "      n2 = for b in parallel(3) iter(acc = other) {\n"
                     "        s = submit(k, [ph, b], deps=[cur])\n"
                     "        acc1 = update(acc, b, s)\n"
                     "        yield acc1\n"
                     "      }\n"
                     "      yield " + yields + "\n"
                     "    }\n");
}

TEST(PhaseChain, PingPongBetweenTwoPreallocatedArrays) {
  // cur and other are different storages at every phase start (distinct
  // inits; the yields n2 = other's storage and cur swap them), so writing
  // `other` never touches `cur`: 4 x 9 = 36 -> 4 x 6 = 24.
  FenceRun r = run(ping_pong("bufB", "n2, cur"));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].array, "cur");
  EXPECT_EQ(r.summary.barriers[0].n, 3u);
  EXPECT_EQ(r.summary.barriers[0].m, 3u);
  EXPECT_EQ(r.cmp.edges_before, 36u);
  EXPECT_EQ(r.cmp.edges_after, 24u);
}

TEST(PhaseChain, TwoChainedArraysGetTwoBarriersPerPhase) {
  // Two chains advanced by one phase loop: consumers of T and of U in the
  // same parallel loop, each writing its own fresh carrier.
  // Per phase 2 x (3*3) = 18 -> 2 x 6 = 12; 2 phases: 36 -> 24.
  FenceRun r = run(manual_main(producer("f", 3) + producer("g", 3) +
                               "    o1, o2 = for ph in seq(2) iter(T = f, U = g) {\n"
                               "      nt = array(3)\n"
                               "      nu = array(3)\n"
                               "      r1, r2 = for b in parallel(3) iter(at = nt, au = nu) {\n"
                               "        s = submit(k, [ph, b], deps=[T])\n"
                               "        u = submit(k, [ph, b], deps=[U])\n"
                               "        at1 = update(at, b, s)\n"
                               "        au1 = update(au, b, u)\n"
                               "        yield at1, au1\n"
                               "      }\n"
                               "      yield r1, r2\n"
                               "    }\n"));
  ASSERT_EQ(r.summary.barriers.size(), 2u);
  EXPECT_EQ(r.summary.barriers[0].array, "T");
  EXPECT_EQ(r.summary.barriers[1].array, "U");
  EXPECT_EQ(r.cmp.edges_before, 36u);
  EXPECT_EQ(r.cmp.edges_after, 24u);
}

TEST(PhaseChain, CopiesAreFollowedToTheArrayTheyName) {
  // `view = T` in the consumer loop and `alias = f` before the phases: the
  // consumers depend on T through the copy; the barrier names T itself.
  FenceRun r = run(manual_main(producer("f", 3) +
                               "    alias = f\n"
                               "    out = for ph in seq(4) iter(T = alias) {\n"
                               "      nxt = array(3)\n"
                               "      n2 = for b in parallel(3) iter(acc = nxt) {\n"
                               "        view = T\n"
                               "        s = submit(k, [ph, b], deps=[view])\n"
                               "        acc1 = update(acc, b, s)\n"
                               "        yield acc1\n"
                               "      }\n"
                               "      yield n2\n"
                               "    }\n"));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].array, "T");
  EXPECT_EQ(r.cmp.edges_before, 36u);
  EXPECT_EQ(r.cmp.edges_after, 24u);
}

TEST(PhaseChain, CopyOfAStableArrayBeforeTheLoopCompresses) {
  FenceRun r = run(manual_main(producer("tids", 4) +
                               "    for j in parallel(4) {\n"
                               "      v = tids\n"
                               "      c = submit(consume, [j], deps=[v])\n"
                               "    }\n"));
  // N = 4, M = 4: 16 -> 8; the barrier (before the loop) names tids.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].array, "tids");
  EXPECT_EQ(r.cmp.edges_before, 16u);
  EXPECT_EQ(r.cmp.edges_after, 8u);
}

TEST(PhaseChain, NestedLoopResultOverTOutsideTheConsumerLoopCompresses) {
  // rv (a result of a loop over T) is defined in the phase body, outside the
  // parallel loop, so it is stable there: it is T's storage, and the parallel
  // loop writes only its fresh carrier. 36 -> 24. (Inside the parallel loop it
  // is return-value: PhaseChainUnsafe.NestedLoopReturnVarAsTheDepArray.)
  FenceRun r = run(manual_main(producer("f", 3) +
                               "    out = for ph in seq(4) iter(T = f) {\n"
                               "      rv = for q in seq(1) iter(x = T) {\n"
                               "        yield x\n"
                               "      }\n"
                               "      n2 = for b in parallel(3) iter(acc = array(3)) {\n"
                               "        s = submit(k, [ph, b], deps=[rv])\n"
                               "        acc1 = update(acc, b, s)\n"
                               "        yield acc1\n"
                               "      }\n"
                               "      yield n2\n"
                               "    }\n"));
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  EXPECT_EQ(r.summary.barriers[0].array, "rv");
  EXPECT_EQ(r.cmp.edges_before, 36u);
  EXPECT_EQ(r.cmp.edges_after, 24u);
}

//===--- looks like a chain, but is unsafe ----------------------------------===//

/// The chain with \p consumer_body as the parallel loop's body (after the
/// consumer `s`) and \p carrier_init as its carrier.
std::string chain_with(const std::string& carrier_init, const std::string& consumer_body,
                       const std::string& seq_yield = "n2", const std::string& before_loop = "") {
  return manual_main(producer("f", 3) + "    out = for ph in seq(4) iter(T = f) {\n" + "      nxt = array(3)\n" +
                     before_loop + "      n2 = for b in parallel(3) iter(acc = " + carrier_init + ") {\n" +
                     "        s = submit(k, [ph, b], deps=[T])\n" + consumer_body + "      }\n" +
                     "      yield " + seq_yield + "\n" + "    }\n");
}

TEST(PhaseChainUnsafe, BodyWritesTsOwnStorage) {
  FenceRun r = run(chain_with("nxt", "        w = update(T, b, s)\n"
                                     "        acc1 = update(acc, b, s)\n"
                                     "        yield acc1\n"));
  expect_fallback(r, FenceFallback::UpdatedInBody, 1);
}

TEST(PhaseChainUnsafe, BodyWritesThroughACopyOfT) {
  // A copy is the array it copies (the pass follows copies): updated-in-body.
  FenceRun r = run(chain_with("nxt", "        x = T\n"
                                     "        x1 = update(x, b, s)\n"
                                     "        acc1 = update(acc, b, s)\n"
                                     "        yield acc1\n"));
  expect_fallback(r, FenceFallback::UpdatedInBody, 1);
}

TEST(PhaseChainUnsafe, TsStorageEscapesIntoTheCarrier) {
  // The carrier starts fresh, but its first yield is update(T, ...): from the
  // second iteration on, acc is T's storage and is written.
  FenceRun r = run(chain_with("nxt", "        acc1 = update(T, b, s)\n"
                                     "        acc2 = update(acc, b, s)\n"
                                     "        yield acc1\n"));
  ASSERT_TRUE(r.summary.barriers.empty());
  ASSERT_EQ(r.summary.kept.size(), 1u);
  EXPECT_EQ(r.summary.kept[0].reason, FenceFallback::UpdatedInBody);
}

TEST(PhaseChainUnsafe, CarrierIsTItselfAndTheSeqLoopYieldsT) {
  // iter(acc = T) writes T's storage; the phase yields T itself after writing it.
  FenceRun r = run(chain_with("T", "        acc1 = update(acc, b, s)\n"
                                   "        yield acc1\n",
                              "T"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 1);
}

TEST(PhaseChainUnsafe, CarrierIsACopyOfT) {
  FenceRun r = run(chain_with("cp", "        acc1 = update(acc, b, s)\n"
                                    "        yield acc1\n",
                              "n2", "      cp = T\n"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 1);
}

TEST(PhaseChainUnsafe, NestedLoopReturnVarAsTheDepArray) {
  FenceRun r = run(manual_main(producer("f", 3) +
                               "    out = for ph in seq(4) iter(T = f) {\n"
                               "      nxt = array(3)\n"
                               "      n2 = for b in parallel(3) iter(acc = nxt) {\n"
                               "        rv = for q in seq(1) iter(x = T) {\n"
                               "          yield x\n"
                               "        }\n"
                               "        s = submit(k, [ph, b], deps=[rv])\n"
                               "        acc1 = update(acc, b, s)\n"
                               "        yield acc1\n"
                               "      }\n"
                               "      yield n2\n"
                               "    }\n"));
  expect_fallback(r, FenceFallback::ReturnValue, 1);
}

TEST(PhaseChainUnsafe, ConsumersReadTheCarrierThemselves) {
  FenceRun r = run(chain_with("nxt", "        c = submit(k, [ph, b], deps=[acc])\n"
                                     "        acc1 = update(acc, b, s)\n"
                                     "        yield acc1\n"));
  // s (on T) still compresses; c reads the loop's own iteration argument.
  ASSERT_EQ(r.summary.barriers.size(), 1u);
  ASSERT_EQ(r.summary.kept.size(), 1u);
  EXPECT_EQ(r.summary.kept[0].submit, "c");
  EXPECT_EQ(r.summary.kept[0].reason, FenceFallback::LoopIterArg);
}

TEST(PhaseChainUnsafe, PingPongStartingFromOneArrayTwice) {
  // cur and other start as the same storage: writing other writes cur.
  FenceRun r = run(ping_pong("bufA", "n2, cur"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 1);
}

TEST(PhaseChainUnsafe, PingPongThatDoesNotSwap) {
  // Yielding n2 for both: from the second phase on cur and other are one storage.
  FenceRun r = run(ping_pong("bufB", "n2, n2"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 1);
}

TEST(PhaseChainUnsafe, FreshArrayOfTheOuterLoopIsNotFreshForTheInnerOne) {
  // The consumers read nxt (made in the phase body, outside the parallel loop)
  // while the parallel loop writes nxt through its carrier: unsafe, although
  // nxt is "fresh" per phase.
  FenceRun r = run(manual_main(producer("f", 3) +
                               "    out = for ph in seq(4) iter(T = f) {\n"
                               "      nxt = array(3)\n"
                               "      n2 = for b in parallel(3) iter(acc = nxt) {\n"
                               "        s = submit(k, [ph, b], deps=[nxt])\n"
                               "        acc1 = update(acc, b, s)\n"
                               "        yield acc1\n"
                               "      }\n"
                               "      yield n2\n"
                               "    }\n"));
  expect_fallback(r, FenceFallback::UpdatedThroughAlias, 1);
}

//===--- the IR's copies and expression inits -------------------------------===//

TEST(OrchestrationText, CopiesAndExpressionInitsParseAndPrint) {
  const char* text = "orchestration func main(n) {\n"
                     "  manual {\n"
                     "    a = array(2)\n"
                     "    b = a\n"
                     "    m = n\n"
                     "    r, r2, r3 = for i in seq(m) iter(t = array(4), u = b, v = array(n)) {\n"
                     "      yield t, u, v\n"
                     "    }\n"
                     "  }\n"
                     "}\n";
  orch::Program p = parse_orchestration(text);
  EXPECT_EQ(orch::print(p), text);
  const auto& scope = std::get<orch::Scope>(p.functions[0].body[0].node);
  const auto& copy = std::get<orch::Copy>(scope.body[1].node);
  EXPECT_EQ(copy.result, "b");
  EXPECT_EQ(copy.source, "a");
  const auto& loop = std::get<orch::Loop>(scope.body[3].node);
  ASSERT_TRUE(loop.iter_args[0].init_length.has_value());
  EXPECT_EQ(std::get<std::int64_t>(*loop.iter_args[0].init_length), 4);
  EXPECT_TRUE(loop.iter_args[0].init.empty());
  EXPECT_EQ(loop.iter_args[1].init, "b");
  EXPECT_EQ(std::get<std::string>(*loop.iter_args[2].init_length), "n");
}

TEST(OrchestrationText, CopyAndExpressionInitErrors) {
  const ParseErrorCase cases[] = {
      {"orchestration func main() {\n  b = nope\n}\n", 2, 3, "use of undefined name 'nope'"},
      {"orchestration func main() {\n  a = array(1)\n  b, c = a\n}\n", 3, 3, "a copy has exactly one result"},
      {"orchestration func main() {\n  a = array(1)\n  b = frob(a)\n}\n", 3, 7,
       "unknown operation 'frob' (expected array, update, submit or system.task_dummy)"},
      {"orchestration func main() {\n  for i in seq(1) iter(t = array(-2)) {\n    yield t\n  }\n}\n", 2, 3,
       "array length must be >= 0"},
      {"orchestration func main() {\n  for i in seq(1) iter(t = array(k)) {\n    yield t\n  }\n}\n", 2, 3,
       "use of undefined name 'k'"},
      {"orchestration func main() {\n  t = submit(k, [])\n  for i in seq(1) iter(a = array(2)) {\n    yield t\n  }\n}\n",
       3, 3, "yielded 't' is TaskId but iteration argument 'a' is Array[TASK_ID]"},
      {"orchestration func main() {\n  for i in seq(1) iter(a = array) {\n    yield a\n  }\n}\n", 2, 28,
       "expected an initial value (a name or array(n)), found keyword 'array'"},
  };
  for (const ParseErrorCase& c : cases) {
    try {
      parse_orchestration(c.text, "bad.orch");
      ADD_FAILURE() << "no error for:\n" << c.text;
    } catch (const OrchestrationSyntaxError& e) {
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.column(), c.col) << e.what();
      EXPECT_EQ(e.problem(), c.message);
    }
  }
}

TEST(PhaseFence, IterArgWithBothANameAndArrayInitIsRejected) {
  orch::Program p = parse_orchestration("orchestration func main() {\n  a = array(1)\n"
                                        "  for i in seq(1) iter(t = a) {\n    yield t\n  }\n}\n");
  auto& loop = std::get<orch::Loop>(p.functions[0].body[1].node);
  loop.iter_args[0].init_length = orch::IntAtom(std::int64_t{2});
  auto problem = orch::find_problem(p);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->message, "iteration argument 't' has both a name and array(n) as init");
  EXPECT_THROW(depreduce::expand_manual_phase_fence(p), depreduce::InputError);
}

/// A yield names a value of its loop's or if's body, so a bad yield is a
/// problem of that loop or if statement, not of the last statement of the
/// body (found by PhaseFenceProps.OracleProgramCheckAgreesWithTheOptimized:
/// orch::find_problem() reported the body's last statement). Both checks,
/// the optimized one and the interpreter's own, must say so.
TEST(PhaseFence, UndefinedYieldIsAProblemOfItsLoopOrIf) {
  // Well-formed as written (the text reader checks names itself); each yield
  // is then renamed to a name defined nowhere.
  orch::Program loop = parse_orchestration("orchestration func main() {\n"
                                           "  a = array(2)\n"                        // statement 0
                                           "  r = for i in seq(2) iter(acc = a) {\n" // 1
                                           "    t = submit(p, [i])\n"                // 2
                                           "    c = update(acc, i, t)\n"             // 3
                                           "    yield c\n"
                                           "  }\n}\n");
  std::get<orch::Loop>(loop.functions[0].body[1].node).yields[0] = "nowhere";
  orch::Program branch = parse_orchestration("orchestration func main(n) {\n"
                                             "  a = array(2)\n"                      // 0
                                             "  r = if n > 0 {\n"                    // 1
                                             "    t = submit(p, [])\n"               // 2
                                             "    yield a\n"
                                             "  } else {\n"
                                             "    u = submit(q, [])\n"               // 3
                                             "    yield a\n"
                                             "  }\n}\n");
  std::get<orch::If>(branch.functions[0].body[1].node).else_yields[0] = "nowhere";
  for (const orch::Program* p : {&loop, &branch}) {
    const auto optimized = orch::find_problem(*p);
    const auto oracle = depreduce::reference::first_program_problem(*p);
    ASSERT_TRUE(optimized.has_value());
    ASSERT_TRUE(oracle.has_value());
    EXPECT_EQ(optimized->stmt, 1u) << optimized->message;
    EXPECT_EQ(oracle->stmt, 1u) << oracle->message;
    EXPECT_EQ(optimized->message, "use of undefined name 'nowhere'");
    EXPECT_EQ(oracle->message, optimized->message);
  }
}

TEST(PhaseFenceOracle, CopiesShareStorageAndExpressionInitsAreNewEachTime) {
  // x = a is a's storage: the update through x is seen by a dep on a.
  // iter(t = array(1)) is new storage each time the inner loop starts, so the
  // second run of the inner loop does not see the first run's task.
  orch::Program p = parse_orchestration("orchestration func main() {\n"
                                        "  a = array(1)\n"
                                        "  x = a\n"
                                        "  t0 = submit(p, [])\n"
                                        "  x1 = update(x, 0, t0)\n"
                                        "  c = submit(c, [], deps=[a])\n"
                                        "  for o in seq(2) {\n"
                                        "    r = for i in seq(1) iter(t = array(1)) {\n"
                                        "      w = submit(w, [o], deps=[t])\n"
                                        "      t1 = update(t, 0, w)\n"
                                        "      yield t1\n"
                                        "    }\n"
                                        "  }\n"
                                        "}\n");
  auto g = depreduce::reference::interpret(p);
  ASSERT_EQ(g.tasks.size(), 4u);
  EXPECT_EQ(g.tasks[1].deps, (std::vector<std::uint32_t>{0})); // c waits for t0 through the copy
  EXPECT_TRUE(g.tasks[2].deps.empty());                        // w(0): fresh array
  EXPECT_TRUE(g.tasks[3].deps.empty());                        // w(1): fresh again, not w(0)'s
}
