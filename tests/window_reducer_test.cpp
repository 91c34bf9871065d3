//===- window_reducer_test.cpp - Named tests of the bounded window --------===//
///
/// \file
/// The cases SPEC §6 names, each run on every implementation
/// (optimized and reference, testing/task_streams.hpp) and, where the window size
/// matters, for BL = 64, 128 and 256. Every expected value is derived by hand
/// in the comment above it.
//===----------------------------------------------------------------------===//
#include <bitset>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "depreduce/error.hpp"
#include "depreduce/testing/task_streams.hpp"
#include "depreduce/window_reducer.hpp"

namespace {

using namespace depreduce;
using depreduce::testing::kWindowSizes;
using depreduce::testing::window_impls;

const FlagSet kWait = FlagSet::wait();
const FlagSet kRetain = FlagSet::retain();
const FlagSet kWaitRetain = FlagSet::wait() | FlagSet::retain();

/// Builds a stream task by task; tasks are referred to by stream position.
struct StreamBuilder {
  TaskStream stream;
  /// Appends a task on (ring, slot, generation) and returns its position.
  std::size_t add(std::uint32_t ring, std::uint32_t slot, Generation gen = 0, std::vector<Candidate> cands = {}) {
    stream.push_back({make_task_id(ring, slot), gen, std::move(cands)});
    return stream.size() - 1;
  }
  /// A candidate naming the task at \p pos (its id and generation).
  Candidate on(std::size_t pos, FlagSet flags = FlagSet::wait(), DepSource src = DepSource::Explicit) const {
    return {stream[pos].id, stream[pos].generation, flags, src};
  }
  /// Appends \p count tasks without candidates on \p ring, slots from \p first_slot.
  void fill(std::uint32_t ring, std::uint32_t first_slot, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) add(ring, first_slot + static_cast<std::uint32_t>(k));
  }
};

/// Runs every implementation, checks they agree, returns the first's result.
WindowRun run_all(unsigned bl, const TaskStream& stream, const WindowOptions& options) {
  const WindowRun expected = window_impls().front().run(bl, stream, options);
  for (const auto& impl : window_impls()) {
    const WindowRun got = impl.run(bl, stream, options);
    EXPECT_EQ(got, expected) << impl.name << " BL=" << bl << "\n"
                             << depreduce::testing::first_difference(got, expected);
  }
  return expected;
}

/// The verdict on \p producer among task \p task's edges (fails the test if absent).
WindowEdge edge_to(const WindowRun& run, std::size_t task, const TaskRecord& producer) {
  for (const WindowEdge& e : run.edges.at(task))
    if (e.producer == producer.id && e.producer_generation == producer.generation) return e;
  ADD_FAILURE() << "task " << task << " has no edge from producer " << producer.id;
  return {};
}

WindowOptions one_ring(std::uint32_t slots = 1024) {
  WindowOptions o;
  o.rings = 1;
  o.slots_per_ring = slots;
  return o;
}

// A -> B -> C plus A -> C, all WAIT. d(C, A) = 2, d(C, B) = 1; R[B] = {bit 0 = A};
// via(C) = R[B] << 1 = {bit 1}; A's bit is d - 1 = 1, so A -> C loses WAIT and,
// carrying nothing else, disappears. B -> C stays.
TEST(WindowReducer, DiamondPureWaitShortcutIsRemoved) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0, {s.on(a), s.on(b)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    const WindowEdge ac = edge_to(run, c, s.stream[a]);
    EXPECT_TRUE(ac.flags.empty());
    EXPECT_TRUE(ac.wait_removed());
    EXPECT_FALSE(ac.materialized());
    EXPECT_EQ(ac.distance, 2u);
    EXPECT_EQ(edge_to(run, c, s.stream[b]).flags, kWait);
    EXPECT_EQ(run.counters.pure_wait_removals, 1u);
    EXPECT_EQ(run.counters.retain_conversions, 0u);
  }
}

// Same diamond, A -> C is WAIT|RETAIN: WAIT goes, RETAIN stays (a RETAIN-only edge).
TEST(WindowReducer, DiamondWaitRetainShortcutBecomesRetainOnly) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0, {s.on(a, kWaitRetain), s.on(b)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    const WindowEdge ac = edge_to(run, c, s.stream[a]);
    EXPECT_EQ(ac.input_flags, kWaitRetain);
    EXPECT_EQ(ac.flags, kRetain);
    EXPECT_TRUE(ac.materialized());
    EXPECT_EQ(run.counters.retain_conversions, 1u);
    EXPECT_EQ(run.counters.pure_wait_removals, 0u);
  }
}

// A -> B -> C -> D plus A -> D. R[B] = {0}; R[C] = {0 (B)} | R[B] << 1 = {0, 1 (A)};
// via(D) = R[C] << 1 = {1 (B), 2 (A)}; A is at d = 3, bit 2: removed although
// no direct predecessor of D has A as its own direct predecessor.
TEST(WindowReducer, ChainOfDepthThreeReducesBeyondOneHop) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0, {s.on(b)});
  const auto d = s.add(0, 3, 0, {s.on(a), s.on(c)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    EXPECT_TRUE(edge_to(run, d, s.stream[a]).wait_removed());
    EXPECT_EQ(edge_to(run, d, s.stream[a]).distance, 3u);
    EXPECT_EQ(edge_to(run, d, s.stream[c]).flags, kWait);
  }
}

// A and B share no path; C <- A, B: R[A] = R[B] = {}, via(C) = {}: both stay.
TEST(WindowReducer, IndependentProducersAreKept) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1);
  const auto c = s.add(0, 2, 0, {s.on(a), s.on(b)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    EXPECT_EQ(edge_to(run, c, s.stream[a]).flags, kWait);
    EXPECT_EQ(edge_to(run, c, s.stream[b]).flags, kWait);
    EXPECT_EQ(run.counters.wait_removed, 0u);
  }
}

// The covering path A -> B -> C is made of WAIT-only edges (no RETAIN): WAIT
// alone orders, so it proves A reaches C and the WAIT|RETAIN shortcut A -> C
// becomes RETAIN. The covering edges themselves keep their WAIT.
TEST(WindowReducer, WaitOnlyCoveringEdgeProvesReachability) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a, kWait)});
  const auto c = s.add(0, 2, 0, {s.on(b, kWait), s.on(a, kWaitRetain)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    EXPECT_EQ(edge_to(run, c, s.stream[a]).flags, kRetain);
    EXPECT_EQ(edge_to(run, c, s.stream[b]).flags, kWait);
    EXPECT_EQ(edge_to(run, b, s.stream[a]).flags, kWait);
  }
}

// X -> A (WAIT), A -> B (RETAIN only), B -> C (WAIT), X -> C (WAIT), A -> C
// (RETAIN only). The only WAIT route out of A is gone, so X does not reach C
// through WAIT edges other than X -> C itself. RETAIN sets no bit: R[B] = {}
// although B "depends" on A; and R[A] = {X} never propagates into R[B].
// via(C) = R[B] << 1 | R[X] << 3 = {}: X -> C keeps WAIT; the RETAIN-only
// edges are untouched (RETAIN-only, not "reduced").
// R[C] = direct bits of its WAIT candidates only: B (d = 1, bit 0), X (d = 3,
// bit 2); A (d = 2, RETAIN) sets no bit 1.
TEST(WindowReducer, RetainOnlyEdgeNeitherSetsNorPropagatesBits) {
  StreamBuilder s;
  const auto x = s.add(0, 0);
  const auto a = s.add(0, 1, 0, {s.on(x)});
  const auto b = s.add(0, 2, 0, {s.on(a, kRetain)});
  const auto c = s.add(0, 3, 0, {s.on(b), s.on(x), s.on(a, kRetain)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    EXPECT_EQ(edge_to(run, b, s.stream[a]).flags, kRetain);
    EXPECT_FALSE(edge_to(run, b, s.stream[a]).wait_removed());
    EXPECT_EQ(edge_to(run, c, s.stream[x]).flags, kWait);
    EXPECT_EQ(edge_to(run, c, s.stream[a]).flags, kRetain);
    EXPECT_EQ(run.counters.wait_removed, 0u);
    EXPECT_EQ(run.counters.wait_candidates, 3u); // A <- X, C <- B, C <- X
  }
  window_reducer<64> r(one_ring());
  for (const TaskRecord& t : s.stream) r.submit(t.id, t.generation, t.candidates);
  ASSERT_TRUE(r.published(s.stream[b].id, 0).has_value());
  EXPECT_TRUE(r.published(s.stream[b].id, 0)->none());
  const auto rc = r.published(s.stream[c].id, 0);
  ASSERT_TRUE(rc.has_value());
  EXPECT_TRUE(rc->test(0) && rc->test(2));
  EXPECT_EQ(rc->count(), 2u);
}

/// P, then Q <- P, then fillers, then T <- {P, Q} with d(T, P) = dist.
/// Returns positions (p, q, t).
struct FarCase {
  StreamBuilder s;
  std::size_t p, q, t;
  FarCase(std::uint64_t dist, bool with_q) {
    p = s.add(0, 0);
    q = s.add(0, 1, 0, {s.on(p)});
    s.fill(0, 2, dist - 2); // T is the (dist)-th task after P
    std::vector<Candidate> c{s.on(p)};
    if (with_q) c.push_back(s.on(q));
    t = s.add(0, static_cast<std::uint32_t>(dist), 0, c);
  }
};

// d(T, P) = BL - 1: tracked; Q is at d = BL - 2 and R[Q] = {0 (P)} shifted by
// BL - 2 gives bit BL - 2 = d(P) - 1, so P -> T loses WAIT.
TEST(WindowReducer, DistanceBLMinusOneIsTrackedAndReduced) {
  for (unsigned bl : kWindowSizes) {
    FarCase f(bl - 1, true);
    const WindowRun run = run_all(bl, f.s.stream, one_ring());
    const WindowEdge pt = edge_to(run, f.t, f.s.stream[f.p]);
    EXPECT_EQ(pt.distance, bl - 1);
    EXPECT_EQ(pt.status, WindowStatus::Tracked);
    EXPECT_TRUE(pt.wait_removed()) << "BL=" << bl;
  }
}

// Root, P <- Root, fillers F_1..F_k, T <- {P, F_k} with d(T, P) = BL and
// d(T, F_k) = 1. P is tracked and sets the last bit (BL - 1) of R[T]; its own
// bitmap R[P] = {0 (Root)} must not be merged (that would need a shift by BL:
// a 64-bit shift by 64 is undefined and on x86 acts as a shift by 0, which
// would put Root's bit on bit 0 and wrongly remove F_k -> T).
// Expected: R[T] = {0, BL - 1}; both edges keep WAIT.
TEST(WindowReducer, DistanceBLIsTrackedAndNeverMergesTheProducerBitmap) {
  auto check = [](auto reducer, unsigned bl) {
    StreamBuilder s;
    const auto root = s.add(0, 0);
    const auto p = s.add(0, 1, 0, {s.on(root)});
    s.fill(0, 2, bl - 1);
    const auto f = s.stream.size() - 1;
    const auto t = s.add(0, static_cast<std::uint32_t>(s.stream.size()), 0, {s.on(p), s.on(f)});
    for (const TaskRecord& task : s.stream) reducer.submit(task.id, task.generation, task.candidates);
    const auto r = reducer.published(s.stream[t].id, 0);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->test(0));
    EXPECT_TRUE(r->test(bl - 1));
    EXPECT_EQ(r->count(), 2u);
    const WindowRun run = run_all(bl, s.stream, one_ring());
    const WindowEdge pt = edge_to(run, t, s.stream[p]);
    EXPECT_EQ(pt.status, WindowStatus::Tracked);
    EXPECT_EQ(pt.distance, bl);
    EXPECT_EQ(pt.flags, kWait);
    EXPECT_EQ(edge_to(run, t, s.stream[f]).flags, kWait);
  };
  check(window_reducer<64>(one_ring()), 64);
  check(window_reducer<128>(one_ring()), 128);
  check(window_reducer<256>(one_ring()), 256);
}

// d(T, P) = BL + 1: outside the window. P -> T is redundant (P -> Q -> T) but
// the reducer cannot see it: it keeps WAIT and is counted as untracked.
TEST(WindowReducer, DistanceBLPlusOneIsUntrackedAndKept) {
  for (unsigned bl : kWindowSizes) {
    FarCase f(bl + 1, true);
    const WindowRun run = run_all(bl, f.s.stream, one_ring());
    const WindowEdge pt = edge_to(run, f.t, f.s.stream[f.p]);
    EXPECT_EQ(pt.distance, bl + 1);
    EXPECT_EQ(pt.status, WindowStatus::Untracked);
    EXPECT_EQ(pt.flags, FlagSet::wait());
    EXPECT_EQ(run.counters.untracked, 1u);
  }
}

// d(T, P) = BL with Q <- P at d(T, Q) = BL - 1 < BL: R[Q] = {0} shifted by
// BL - 1 lands on bit BL - 1 = d(P) - 1. The reduction happens at the very
// edge of the window through the closer producer.
TEST(WindowReducer, ReductionAtDistanceBLThroughACloserProducer) {
  for (unsigned bl : kWindowSizes) {
    FarCase f(bl, true);
    const WindowRun run = run_all(bl, f.s.stream, one_ring());
    const WindowEdge pt = edge_to(run, f.t, f.s.stream[f.p]);
    EXPECT_EQ(pt.distance, bl);
    EXPECT_TRUE(pt.wait_removed()) << "BL=" << bl;
    EXPECT_EQ(edge_to(run, f.t, f.s.stream[f.q]).distance, bl - 1);
    EXPECT_EQ(edge_to(run, f.t, f.s.stream[f.q]).flags, kWait);
  }
}

// A on ring 0, B <- A and C <- {A, B} on ring 1. Global: d(C, A) = 2 and
// R[B] << 1 = {1}: A -> C removed. Same-ring: A -> B and A -> C are cross-ring
// (kept, contribute nothing), B -> C is the only same-ring edge: nothing removed.
TEST(WindowReducer, CrossRingCandidateInBothModes) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(1, 0, 0, {s.on(a)});
  const auto c = s.add(1, 1, 0, {s.on(a), s.on(b)});
  WindowOptions o = one_ring();
  o.rings = 2;
  for (unsigned bl : kWindowSizes) {
    o.mode = WindowMode::Global;
    WindowRun run = run_all(bl, s.stream, o);
    EXPECT_TRUE(edge_to(run, c, s.stream[a]).wait_removed());
    EXPECT_EQ(edge_to(run, c, s.stream[a]).status, WindowStatus::Tracked);
    o.mode = WindowMode::SameRing;
    run = run_all(bl, s.stream, o);
    EXPECT_EQ(edge_to(run, c, s.stream[a]).status, WindowStatus::CrossRing);
    EXPECT_EQ(edge_to(run, c, s.stream[a]).flags, kWait);
    EXPECT_EQ(edge_to(run, b, s.stream[a]).status, WindowStatus::CrossRing);
    EXPECT_EQ(edge_to(run, c, s.stream[b]).status, WindowStatus::Tracked);
    EXPECT_EQ(run.counters.cross_ring, 2u);
    EXPECT_EQ(run.counters.wait_removed, 0u);
  }
}

// The trace: t0 on ring 0 slot 0; t1..t4 on ring 1 slots 0..3; edges
// t0->t1, t0->t2, t1->t3, t2->t3, t0->t4, t3->t4.
// Global: R[t1] = R[t2]... R[t1] = {0 (t0)}; R[t2] = {1 (t0)}; R[t3] = {0 (t2),
// 1 (t1)} | R[t1] << 2 = {2} | R[t2] << 1 = {2} -> {0, 1, 2}; via(t4) = R[t3] << 1
// = {1, 2, 3}; t0 is at d = 4, bit 3: t0 -> t4 removed, t3 -> t4 kept; t1->t3,
// t2->t3 kept (independent). Same-ring: t0's edges are all cross-ring and
// contribute nothing; R[t3] = {0, 1}, via(t4) = {1, 2}; only t0 -> t4 could go
// and it is cross-ring: kept.
TEST(WindowReducer, CrossRingTraceT0ToT4GlobalRemovesSameRingKeeps) {
  StreamBuilder s;
  const auto t0 = s.add(0, 0);
  const auto t1 = s.add(1, 0, 0, {s.on(t0)});
  const auto t2 = s.add(1, 1, 0, {s.on(t0)});
  const auto t3 = s.add(1, 2, 0, {s.on(t1), s.on(t2)});
  const auto t4 = s.add(1, 3, 0, {s.on(t0), s.on(t3)});
  WindowOptions o;
  o.rings = 2;
  o.slots_per_ring = 4;
  for (unsigned bl : kWindowSizes) {
    o.mode = WindowMode::Global;
    WindowRun run = run_all(bl, s.stream, o);
    EXPECT_EQ(edge_to(run, t4, s.stream[t0]).distance, 4u);
    EXPECT_TRUE(edge_to(run, t4, s.stream[t0]).wait_removed());
    EXPECT_EQ(edge_to(run, t4, s.stream[t3]).flags, kWait);
    EXPECT_EQ(edge_to(run, t3, s.stream[t1]).flags, kWait);
    EXPECT_EQ(edge_to(run, t3, s.stream[t2]).flags, kWait);
    EXPECT_EQ(run.counters.wait_removed, 1u);
    o.mode = WindowMode::SameRing;
    run = run_all(bl, s.stream, o);
    EXPECT_EQ(edge_to(run, t4, s.stream[t0]).flags, kWait);
    EXPECT_EQ(edge_to(run, t4, s.stream[t0]).status, WindowStatus::CrossRing);
    EXPECT_EQ(run.counters.wait_removed, 0u);
    EXPECT_EQ(run.counters.cross_ring, 3u);
  }
  window_reducer<64> r(o); // same-ring
  for (const TaskRecord& t : s.stream) r.submit(t.id, t.generation, t.candidates);
  const auto r3 = r.published(s.stream[t3].id, 0);
  ASSERT_TRUE(r3.has_value());
  EXPECT_TRUE(r3->test(0) && r3->test(1));
  EXPECT_EQ(r3->count(), 2u);
}

// Four slots on one ring. Y (slot 0, gen 0); A (slot 1); B reuses slot 0 as
// gen 1 with B <- {A, Y} (Y still valid while B is being submitted), so
// R[B] = {0 (A), 1 (Y)}; C (slot 2) <- {A, (slot 0, gen 0)}. The second names
// Y's generation, but slot 0 now holds B: stale. Had B's bitmap been merged
// (B is at d = 1), via would hold A at bit 1 and A -> C would be wrongly
// removed. Expected: both keep WAIT, R[C] = {1 (A)} only.
TEST(WindowReducer, SlotReuseWithStaleGenerationNeverReducesNorMergesTheStaleBitmap) {
  StreamBuilder s;
  const auto y = s.add(0, 0, 0);
  const auto a = s.add(0, 1, 0);
  const auto b = s.add(0, 0, 1, {s.on(a), s.on(y)});
  const Candidate stale_y{make_task_id(0, 0), 0, kWait, DepSource::TensorMap};
  const auto c = s.add(0, 2, 0, {s.on(a), stale_y});
  const WindowOptions o = one_ring(4);
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, o);
    EXPECT_EQ(edge_to(run, b, s.stream[y]).status, WindowStatus::Tracked); // read before B published
    const WindowEdge cy = edge_to(run, c, s.stream[y]);
    EXPECT_EQ(cy.status, WindowStatus::Stale);
    EXPECT_EQ(cy.flags, kWait);
    EXPECT_EQ(cy.distance, 0u);
    EXPECT_EQ(edge_to(run, c, s.stream[a]).flags, kWait);
    EXPECT_EQ(run.counters.wait_removed, 0u);
    EXPECT_EQ(run.counters.stale, 1u);
    // Stale edges come last in canonical order.
    EXPECT_EQ(run.edges[c].back().status, WindowStatus::Stale);
  }
  window_reducer<128> r(o);
  for (const TaskRecord& t : s.stream) r.submit(t.id, t.generation, t.candidates);
  EXPECT_FALSE(r.published(make_task_id(0, 0), 0).has_value()); // Y's bitmap is gone
  const auto rb = r.published(make_task_id(0, 0), 1);
  ASSERT_TRUE(rb.has_value());
  EXPECT_TRUE(rb->test(0) && rb->test(1));
  const auto rc = r.published(s.stream[c].id, 0);
  ASSERT_TRUE(rc.has_value());
  EXPECT_TRUE(rc->test(1));
  EXPECT_EQ(rc->count(), 1u);
}

// A candidate naming a generation the slot never had (a future one) is stale too.
TEST(WindowReducer, FutureGenerationIsStale) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0, {s.on(b), Candidate{s.stream[a].id, 7, kWait, DepSource::Explicit}});
  const WindowRun run = run_all(64, s.stream, one_ring());
  ASSERT_EQ(run.edges[c].size(), 2u);
  EXPECT_EQ(run.edges[c][1].producer_generation, 7u);
  EXPECT_EQ(run.edges[c][1].status, WindowStatus::Stale);
  EXPECT_EQ(run.edges[c][1].flags, kWait);
  (void)b;
}

// C sees A three times and B twice, from different discoverers. Duplicates
// merge by producer: A = WAIT|RETAIN from creator|tensormap|explicit, B = WAIT
// from tensormap|explicit. B <- A makes A redundant: A becomes RETAIN-only.
// Two edges come out, oldest producer first.
TEST(WindowReducer, DuplicateCandidatesFromSeveralSourcesMerge) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0,
                       {s.on(a, kWait, DepSource::Creator), s.on(b, kWait, DepSource::TensorMap),
                        s.on(a, kRetain, DepSource::TensorMap), s.on(b, kWait, DepSource::Explicit),
                        s.on(a, kWait, DepSource::Explicit)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, one_ring());
    ASSERT_EQ(run.edges[c].size(), 2u);
    const WindowEdge& ea = run.edges[c][0];
    EXPECT_EQ(ea.producer, s.stream[a].id);
    EXPECT_EQ(ea.input_flags, kWaitRetain);
    EXPECT_EQ(ea.flags, kRetain);
    EXPECT_EQ(ea.sources, SourceSet(DepSource::Creator) | DepSource::TensorMap | DepSource::Explicit);
    const WindowEdge& eb = run.edges[c][1];
    EXPECT_EQ(eb.producer, s.stream[b].id);
    EXPECT_EQ(eb.flags, kWait);
    EXPECT_EQ(eb.sources, SourceSet(DepSource::TensorMap) | DepSource::Explicit);
    EXPECT_EQ(run.counters.candidates, 3u); // A -> B, A -> C, B -> C
  }
}

// 32-bit sequences starting at 2^32 - 2: A = 0xfffffffe, B = 0xffffffff, C = 0.
// d(C, A) = (0 - 0xfffffffe) mod 2^32 = 2, d(C, B) = 1: the diamond reduces
// across the wrap exactly as it does without one.
TEST(WindowReducer, SequenceWrapAcross32BitBoundary) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0, {s.on(a), s.on(b)});
  WindowOptions o = one_ring();
  o.seq_width = 32;
  o.initial_seq = 0xfffffffeu;
  for (unsigned bl : kWindowSizes) {
    const WindowRun run = run_all(bl, s.stream, o);
    EXPECT_EQ(edge_to(run, c, s.stream[a]).distance, 2u);
    EXPECT_EQ(edge_to(run, c, s.stream[b]).distance, 1u);
    EXPECT_TRUE(edge_to(run, c, s.stream[a]).wait_removed());
  }
  window_reducer<64> r(o);
  EXPECT_EQ(r.next_seq(), 0xfffffffeu);
  for (const TaskRecord& t : s.stream) r.submit(t.id, t.generation, t.candidates);
  EXPECT_EQ(r.next_seq(), 1u); // wrapped to 0 for C, then 1
  // The same stream with 64-bit sequences near 2^64 wraps the same way.
  o.seq_width = 64;
  o.initial_seq = ~std::uint64_t{0} - 1;
  EXPECT_TRUE(edge_to(run_all(64, s.stream, o), c, s.stream[a]).wait_removed());
}

// Creator A (the older candidate) listed before modifier B, and the reverse:
// the two-pass form gives the same edges either way (a one-pass loop that
// tested A before merging R[B] would keep A).
TEST(WindowReducer, CreatorBeforeModifierOrderGivesTheSameResultAsReverse) {
  StreamBuilder fwd, rev;
  for (StreamBuilder* s : {&fwd, &rev}) {
    const auto a = s->add(0, 0);
    s->add(0, 1, 0, {s->on(a)});
  }
  fwd.add(0, 2, 0, {fwd.on(0, kWait, DepSource::Creator), fwd.on(1, kWait, DepSource::TensorMap)});
  rev.add(0, 2, 0, {rev.on(1, kWait, DepSource::TensorMap), rev.on(0, kWait, DepSource::Creator)});
  for (unsigned bl : kWindowSizes) {
    const WindowRun f = run_all(bl, fwd.stream, one_ring());
    const WindowRun r = run_all(bl, rev.stream, one_ring());
    EXPECT_EQ(f, r);
    EXPECT_TRUE(edge_to(f, 2, fwd.stream[0]).wait_removed());
  }
}

// A task with no candidates publishes an all-zero bitmap (and a (slot,
// generation) that later candidates can validate).
TEST(WindowReducer, TaskWithNoCandidatesPublishesAnEmptyBitmap) {
  window_reducer<256> r(one_ring(8));
  EXPECT_FALSE(r.published(make_task_id(0, 3), 5).has_value());
  EXPECT_TRUE(r.submit(make_task_id(0, 3), 5, {}).empty());
  const auto bits = r.published(make_task_id(0, 3), 5);
  ASSERT_TRUE(bits.has_value());
  EXPECT_TRUE(bits->none());
  EXPECT_EQ(r.next_seq(), 1u);
  const auto out = r.submit(make_task_id(0, 4), 0, std::vector<Candidate>{{make_task_id(0, 3), 5}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].status, WindowStatus::Tracked);
  EXPECT_EQ(out[0].distance, 1u);
}

/// Bitmap with the given bits set.
template <unsigned BL>
WindowBitmap<BL> bits_of(std::initializer_list<unsigned> bits) {
  WindowBitmap<BL> b;
  for (unsigned i : bits) b.set(i);
  return b;
}

// The usage example of window_reducer's class comment, verbatim: A; B <- A;
// C <- {A, B}: A -> C is removed, B -> C kept.
TEST(WindowReducer, HeaderExampleWorksAsDocumented) {
  depreduce::window_reducer<64> r({.rings = 1, .slots_per_ring = 8});
  r.submit(depreduce::make_task_id(0, 0), 0, {});                      // A
  r.submit(depreduce::make_task_id(0, 1), 0, std::vector{Candidate{0, 0}}); // B <- A
  auto c = r.submit(depreduce::make_task_id(0, 2), 0,                  // C <- A, B
                    std::vector{Candidate{0, 0}, Candidate{1, 0}});
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].producer, make_task_id(0, 0));
  EXPECT_TRUE(c[0].flags.empty());
  EXPECT_EQ(c[1].producer, make_task_id(0, 1));
  EXPECT_EQ(c[1].flags, FlagSet::wait());
  depreduce::FlagSet eff[2];
  r.submit_flags(depreduce::make_task_id(0, 3), 0, std::vector{Candidate{1, 0}, Candidate{2, 0}}, eff);
  EXPECT_TRUE(eff[0].empty()); // B reaches D through C
  EXPECT_EQ(eff[1], FlagSet::wait());
}

// The hot-path form on the diamond with a duplicate: A; B <- A; C <- {A
// (WAIT), B, A (RETAIN, tensormap)}. A is redundant: its WAIT candidate comes
// back empty, its RETAIN duplicate keeps RETAIN; B keeps WAIT. One WAIT removed.
TEST(WindowReducer, SubmitFlagsRewritesEachCandidate) {
  window_reducer<128> r(one_ring(8));
  FlagSet eff[3];
  EXPECT_EQ(r.submit_flags(make_task_id(0, 0), 0, {}, {}), 0u);
  const std::vector<Candidate> b{{make_task_id(0, 0), 0}};
  EXPECT_EQ(r.submit_flags(make_task_id(0, 1), 0, b, eff), 0u);
  EXPECT_EQ(eff[0], kWait);
  const std::vector<Candidate> c{{make_task_id(0, 0), 0, kWait, DepSource::Creator},
                                 {make_task_id(0, 1), 0, kWait, DepSource::TensorMap},
                                 {make_task_id(0, 0), 0, kRetain, DepSource::TensorMap}};
  EXPECT_THROW(r.submit_flags(make_task_id(0, 2), 0, c, std::span<FlagSet>(eff, 2)), InputError);
  EXPECT_EQ(r.next_seq(), 2u); // the throw changed nothing
  EXPECT_EQ(r.submit_flags(make_task_id(0, 2), 0, c, eff), 1u);
  EXPECT_TRUE(eff[0].empty());
  EXPECT_EQ(eff[1], kWait);
  EXPECT_EQ(eff[2], kRetain);
  // R[C] = {0 (B), 1 (A)}: A stays reachable although its edge went.
  const auto rc = r.published(make_task_id(0, 2), 0);
  ASSERT_TRUE(rc.has_value());
  EXPECT_TRUE(rc->test(0) && rc->test(1));
  EXPECT_EQ(rc->count(), 2u);
}

// Hand-computed shifts across word boundaries: bit i moves to i + d, bits
// reaching BL are lost.
TEST(WindowBitmap, ShiftAmountsAcrossWordBoundaries) {
  const auto b256 = bits_of<256>({0, 1, 63, 64, 127, 200});
  EXPECT_EQ(b256.shifted_left(63), bits_of<256>({63, 64, 126, 127, 190}));
  EXPECT_EQ(b256.shifted_left(64), bits_of<256>({64, 65, 127, 128, 191}));
  EXPECT_EQ(b256.shifted_left(65), bits_of<256>({65, 66, 128, 129, 192}));
  EXPECT_EQ(b256.shifted_left(127), bits_of<256>({127, 128, 190, 191, 254}));
  EXPECT_EQ(b256.shifted_left(128), bits_of<256>({128, 129, 191, 192, 255}));
  EXPECT_EQ(b256.shifted_left(129), bits_of<256>({129, 130, 192, 193}));
  EXPECT_EQ(b256.shifted_left(255), bits_of<256>({255}));
  EXPECT_TRUE(b256.shifted_left(256).none());

  const auto b128 = bits_of<128>({0, 1, 63, 64, 127});
  EXPECT_EQ(b128.shifted_left(63), bits_of<128>({63, 64, 126, 127}));
  EXPECT_EQ(b128.shifted_left(64), bits_of<128>({64, 65, 127}));
  EXPECT_EQ(b128.shifted_left(65), bits_of<128>({65, 66}));
  EXPECT_EQ(b128.shifted_left(127), bits_of<128>({127}));
  EXPECT_TRUE(b128.shifted_left(128).none());
  EXPECT_TRUE(b128.shifted_left(129).none());

  const auto b64 = bits_of<64>({0, 1, 63});
  EXPECT_EQ(b64.shifted_left(63), bits_of<64>({63}));
  EXPECT_EQ(b64.shifted_left(1), bits_of<64>({1, 2}));
  EXPECT_TRUE(b64.shifted_left(64).none());
  EXPECT_TRUE(b64.shifted_left(65).none());
  EXPECT_EQ(b64.shifted_left(0), b64);
}

/// Every single-bit and a dense pattern, every shift, against std::bitset.
template <unsigned BL>
void check_against_bitset() {
  std::bitset<BL> ref;
  WindowBitmap<BL> b;
  for (unsigned i = 0; i < BL; i += 3) { ref.set(i); b.set(i); }
  for (unsigned d = 0; d <= BL + 1; ++d) {
    const std::bitset<BL> want = d >= BL ? std::bitset<BL>() : ref << d;
    const WindowBitmap<BL> got = b.shifted_left(d);
    for (unsigned i = 0; i < BL; ++i) ASSERT_EQ(got.test(i), want.test(i)) << "BL=" << BL << " d=" << d << " bit " << i;
  }
  for (unsigned i = 0; i < BL; ++i)
    for (unsigned d : {1u, 63u, 64u, 65u, 127u, 128u, 129u, 255u}) {
      WindowBitmap<BL> one;
      one.set(i);
      const WindowBitmap<BL> got = one.shifted_left(d);
      if (i + d < BL) ASSERT_TRUE(got.test(i + d) && got.count() == 1) << BL << " " << i << " " << d;
      else ASSERT_TRUE(got.none()) << BL << " " << i << " " << d;
    }
}

TEST(WindowBitmap, ShiftsMatchStdBitsetForEveryAmount) {
  check_against_bitset<64>();
  check_against_bitset<128>();
  check_against_bitset<256>();
}

// Outputs are in canonical order: resolved producers by ascending submit
// sequence (A, B, D), stale ones after, by (producer, generation).
TEST(WindowReducer, EdgesComeInCanonicalOrder) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1);
  s.add(0, 2);
  const auto d = s.add(0, 3);
  const auto t = s.add(0, 4, 0,
                       {Candidate{make_task_id(0, 9), 3}, s.on(d), Candidate{make_task_id(0, 9), 1}, s.on(a),
                        s.on(b, kRetain)});
  const WindowRun run = run_all(64, s.stream, one_ring(16));
  const auto& e = run.edges[t];
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[0].producer, s.stream[a].id);
  EXPECT_EQ(e[1].producer, s.stream[b].id);
  EXPECT_EQ(e[2].producer, s.stream[d].id);
  EXPECT_EQ(e[3].producer_generation, 1u);
  EXPECT_EQ(e[4].producer_generation, 3u);
}

// A; B <- A; C <- {A, B, (slot 5, gen 2) never published}; D <- B (RETAIN).
// Unique candidates: B<-A, C<-A, C<-B, C<-stale, D<-B = 5; with WAIT: 4;
// tracked: B<-A, C<-A, C<-B = 3; stale: 1; removed: C<-A (pure WAIT) = 1.
TEST(WindowReducer, CountersSummarizeTheVerdicts) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  s.add(0, 2, 0, {s.on(a), s.on(b), Candidate{make_task_id(0, 5), 2}});
  s.add(0, 3, 0, {s.on(b, kRetain)});
  const WindowRun run = run_all(64, s.stream, one_ring(8));
  WindowCounters want;
  want.tasks = 4;
  want.candidates = 5;
  want.wait_candidates = 4;
  want.tracked = 3;
  want.stale = 1;
  want.wait_removed = 1;
  want.pure_wait_removals = 1;
  EXPECT_EQ(run.counters, want);
}

TEST(WindowReducer, BadConfigurationThrowsInputError) {
  WindowOptions o;
  o.rings = 0;
  EXPECT_THROW(window_reducer<64>{o}, InputError);
  o = {};
  o.slots_per_ring = 0;
  EXPECT_THROW(window_reducer<128>{o}, InputError);
  o = {};
  o.seq_width = 48;
  EXPECT_THROW(window_reducer<256>{o}, InputError);
  o = {};
  o.rings = 1u << 16;
  o.slots_per_ring = 1u << 16; // 2^32 slots > kMaxWindowSlots
  EXPECT_THROW(window_reducer<64>{o}, InputError);
  o = {};
  o.seq_width = 32;
  o.initial_seq = std::uint64_t{1} << 32;
  EXPECT_THROW(window_reducer<64>{o}, InputError);
  for (const auto& impl : window_impls()) EXPECT_THROW(impl.run(64, {}, o), InputError) << impl.name;
}

TEST(WindowReducer, OutOfRangeRingOrSlotThrowsAndChangesNothing) {
  WindowOptions o;
  o.rings = 2;
  o.slots_per_ring = 4;
  window_reducer<64> r(o);
  EXPECT_THROW(r.submit(make_task_id(2, 0), 0, {}), InputError);
  EXPECT_THROW(r.submit(make_task_id(0, 4), 0, {}), InputError);
  r.submit(make_task_id(0, 0), 0, {});
  EXPECT_EQ(r.next_seq(), 1u);
  try {
    r.submit(make_task_id(0, 1), 0, std::vector<Candidate>{{make_task_id(0, 0), 0}, {make_task_id(5, 1), 0}});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ring 5"), std::string::npos) << e.what();
  }
  EXPECT_EQ(r.next_seq(), 1u);
  EXPECT_FALSE(r.published(make_task_id(0, 1), 0).has_value());
  EXPECT_FALSE(r.published(make_task_id(9, 1), 0).has_value()); // out of range: no value, no crash
  StreamBuilder s;
  s.add(0, 0);
  s.add(0, 1, 0, {Candidate{make_task_id(0, 4), 0}});
  for (const auto& impl : window_impls()) {
    try {
      impl.run(64, s.stream, o);
      ADD_FAILURE() << impl.name << ": expected InputError";
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), 2u) << impl.name; // the second task of the stream
    }
  }
}

// submit_into (caller buffer) gives exactly submit's verdicts and publishes the
// same bitmaps, on random streams with stale producers, duplicates and window
// edges, for every BL and both modes; it writes only out[0, n) and, like the
// vector form, leaves the reducer and the buffer untouched when it throws.
template <unsigned BL>
void check_submit_into(WindowMode mode) {
  depreduce::testing::StreamParams p;
  p.tasks = 600;
  p.slots_per_ring = 40; // slot reuse: stale producers
  p.max_candidates = 12;
  p.max_distance = 3 * BL;
  p.stale_percent = 10;
  p.duplicate_percent = 20;
  const auto c = depreduce::testing::random_stream(5 + BL, p);
  WindowOptions o = c.options;
  o.mode = mode;
  window_reducer<BL> by_vector(o), by_span(o);
  std::vector<WindowEdge> want;
  const WindowEdge sentinel{~TaskId{0}, 77, kRetain, kRetain, DepSource::Creator, WindowStatus::Untracked, 99};
  for (std::size_t i = 0; i < c.stream.size(); ++i) {
    const TaskRecord& t = c.stream[i];
    by_vector.submit(t.id, t.generation, t.candidates, want);
    std::vector<WindowEdge> buf(t.candidates.size() + 2, sentinel);
    const std::size_t n = by_span.submit_into(t.id, t.generation, t.candidates, buf);
    ASSERT_EQ(n, want.size()) << "BL=" << BL << " task " << i;
    for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(buf[j], want[j]) << "BL=" << BL << " task " << i << " edge " << j;
    for (std::size_t j = n; j < buf.size(); ++j) ASSERT_EQ(buf[j], sentinel) << "BL=" << BL << " task " << i;
    ASSERT_EQ(by_span.published(t.id, t.generation), by_vector.published(t.id, t.generation)) << "task " << i;
    ASSERT_EQ(by_span.next_seq(), by_vector.next_seq());
  }
}

TEST(WindowReducer, SubmitIntoAgreesWithSubmit) {
  for (WindowMode mode : {WindowMode::Global, WindowMode::SameRing}) {
    check_submit_into<64>(mode);
    check_submit_into<128>(mode);
    check_submit_into<256>(mode);
  }
}

// A buffer shorter than the candidate list, an out-of-range producer or a
// republished task: InputError, nothing consumed, nothing written (the
// vector form keeps its previous contents too). A = slot 0, B <- A twice.
TEST(WindowReducer, SubmitIntoThrowsWithoutWritingAnything) {
  window_reducer<128> r(one_ring(8));
  r.submit(make_task_id(0, 0), 0, {});
  const std::vector<Candidate> b{{make_task_id(0, 0), 0}, {make_task_id(0, 0), 0, kRetain}};
  const WindowEdge sentinel{1, 2, kWait, kWait, DepSource::Explicit, WindowStatus::Tracked, 3};
  std::vector<WindowEdge> buf(1, sentinel);
  EXPECT_THROW(r.submit_into(make_task_id(0, 1), 0, b, buf), InputError); // room for 1 of 2
  const std::vector<Candidate> bad{{make_task_id(0, 0), 0}, {make_task_id(0, 8), 0}};
  buf.assign(4, sentinel);
  EXPECT_THROW(r.submit_into(make_task_id(0, 1), 0, bad, buf), InputError); // slot 8 of 8
  EXPECT_THROW(r.submit_into(make_task_id(0, 0), 0, b, buf), InputError);  // republished
  EXPECT_EQ(buf, std::vector<WindowEdge>(4, sentinel));
  std::vector<WindowEdge> kept(1, sentinel);
  EXPECT_THROW(r.submit(make_task_id(0, 1), 0, bad, kept), InputError);
  EXPECT_EQ(kept, std::vector<WindowEdge>(1, sentinel));
  EXPECT_EQ(r.next_seq(), 1u);
  EXPECT_FALSE(r.published(make_task_id(0, 1), 0).has_value());
  // And then it works: one verdict (the duplicates merge), A -> B keeps WAIT.
  ASSERT_EQ(r.submit_into(make_task_id(0, 1), 0, b, buf), 1u);
  EXPECT_EQ(buf[0].producer, make_task_id(0, 0));
  EXPECT_EQ(buf[0].input_flags, kWaitRetain);
  EXPECT_EQ(buf[0].flags, kWaitRetain);
  EXPECT_EQ(buf[0].distance, 1u);
  EXPECT_EQ(buf[1], sentinel);
  EXPECT_EQ(r.next_seq(), 2u);
}

// A (slot, generation) is published once: submitting it again is an error;
// the next generation of the same slot is fine.
TEST(WindowReducer, RepublishingASlotGenerationThrows) {
  window_reducer<64> r(one_ring(4));
  r.submit(make_task_id(0, 2), 3, {});
  EXPECT_THROW(r.submit(make_task_id(0, 2), 3, {}), InputError);
  EXPECT_NO_THROW(r.submit(make_task_id(0, 2), 4, {}));
  EXPECT_EQ(r.next_seq(), 2u);
  StreamBuilder s;
  s.add(0, 1, 0);
  s.add(0, 1, 0);
  for (const auto& impl : window_impls()) EXPECT_THROW(impl.run(128, s.stream, one_ring(4)), InputError) << impl.name;
}

TEST(WindowReducer, SideStorageIsSizedPerSlot) {
  WindowOptions o; // 4 rings x 16384 slots
  window_reducer<64> r64(o);
  window_reducer<256> r256(o);
  EXPECT_EQ(r64.storage_bytes(), 65536u * window_reducer<64>::bytes_per_slot());
  // Bitmap (8 / 16 / 32 bytes) + sequence (8) + check word (8: generation and
  // the sequence's low 32 bits).
  EXPECT_EQ(window_reducer<64>::bytes_per_slot(), 8u + 16u);
  EXPECT_EQ(window_reducer<128>::bytes_per_slot(), 16u + 16u);
  EXPECT_EQ(window_reducer<256>::bytes_per_slot(), 32u + 16u);
  EXPECT_EQ(r256.storage_bytes(), 65536u * 48u);
}

// submit_flags has two kernels (WindowKernel): the AVX-512 one, eight
// candidates per step, where the CPU has it, and the portable loop. Tasks of
// 0..100 candidates (partial steps, exactly 8 and 64, and > 64, which falls
// back to the portable loop) over a stream that reuses slots and crosses the
// 32- or 64-bit sequence wrap: both kernels give the same effective flags,
// removal counts and published bitmaps.
template <unsigned BL>
void kernels_agree(WindowMode mode, unsigned width) {
  // Start 700 submits before the sequence wraps, so distances cross it.
  const std::uint64_t top = width == 32 ? 0xffff'ffffu : ~std::uint64_t{0};
  WindowOptions o{.rings = 3, .slots_per_ring = 97, .seq_width = width, .initial_seq = top - 700, .mode = mode};
  WindowOptions portable = o;
  portable.kernel = WindowKernel::Portable;
  window_reducer<BL> fast(o), plain(portable);
  EXPECT_STREQ(plain.kernel_name(), "portable");
  std::uint64_t state = 12345;
  auto next = [&state](std::uint64_t bound) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (state >> 33) % bound;
  };
  std::vector<std::pair<TaskId, Generation>> done; // submit order
  const std::size_t counts[] = {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100};
  for (std::size_t i = 0; i < 1500; ++i) {
    const std::uint32_t ring = static_cast<std::uint32_t>(next(3)), local = static_cast<std::uint32_t>(i);
    const TaskId id = make_task_id(ring, local % 97);
    const Generation gen = local / 97;
    std::vector<Candidate> cand(done.empty() ? 0 : counts[i % std::size(counts)]);
    for (Candidate& c : cand) {
      const std::size_t back = 1 + (next(2) ? next(8) : next(BL + 40));
      const auto& [p, g] = done[done.size() - std::min(back, done.size())];
      c = {p, static_cast<Generation>(g + (next(20) == 0)), FlagSet::from_bits(static_cast<std::uint8_t>(1 + next(3))),
           DepSource::TensorMap};
    }
    std::vector<FlagSet> a(cand.size()), b(cand.size());
    const std::size_t ra = fast.submit_flags(id, gen, cand, a), rb = plain.submit_flags(id, gen, cand, b);
    ASSERT_EQ(a, b) << "BL=" << BL << " task " << i << " (" << cand.size() << " candidates)";
    ASSERT_EQ(ra, rb) << "task " << i;
    ASSERT_EQ(fast.published(id, gen), plain.published(id, gen)) << "task " << i;
    done.emplace_back(id, gen);
  }
  EXPECT_EQ(fast.audit(), std::nullopt);
  EXPECT_EQ(plain.audit(), std::nullopt);
}

TEST(WindowReducer, SubmitFlagsKernelsAgreeOnEveryCandidateCount) {
  for (WindowMode mode : {WindowMode::Global, WindowMode::SameRing})
    for (unsigned width : {32u, 64u}) {
      kernels_agree<64>(mode, width);
      kernels_agree<128>(mode, width);
      kernels_agree<256>(mode, width);
    }
  RecordProperty("kernel", window_reducer<64>().kernel_name());
}

// Regression (found while writing the AVX-512 kernel, whose first draft
// folded "WAIT set" into the tag comparison): a RETAIN-only candidate of
// generation 0 naming a slot that was never published, at a distance inside
// the window, must not count as tracked - R[t] stays empty, nothing is removed.
TEST(WindowReducer, RetainOnlyCandidateOfAnUnpublishedSlotSetsNoBit) {
  for (WindowKernel kernel : {WindowKernel::Auto, WindowKernel::Portable}) {
    window_reducer<64> r({.rings = 1, .slots_per_ring = 16, .initial_seq = 5, .kernel = kernel});
    const std::vector<Candidate> c{{make_task_id(0, 3), 0, kRetain, DepSource::TensorMap},
                                   {make_task_id(0, 4), 0, kWait, DepSource::TensorMap}};
    FlagSet eff[2];
    EXPECT_EQ(r.submit_flags(make_task_id(0, 0), 0, c, eff), 0u);
    EXPECT_EQ(eff[0], kRetain);
    EXPECT_EQ(eff[1], kWait);
    const auto reach = r.published(make_task_id(0, 0), 0);
    ASSERT_TRUE(reach.has_value());
    EXPECT_TRUE(reach->none()) << to_string(kernel) << " kernel set bits for unpublished producers";
  }
}

// An out-of-range producer in the third step of eight throws, naming it,
// before anything is written or published.
TEST(WindowReducer, SubmitFlagsOutOfRangeProducerLateInTheListThrowsFirst) {
  for (WindowKernel kernel : {WindowKernel::Auto, WindowKernel::Portable}) {
    window_reducer<256> r({.rings = 2, .slots_per_ring = 8, .kernel = kernel});
    r.submit_flags(make_task_id(0, 0), 0, {}, {});
    std::vector<Candidate> c(20, Candidate{make_task_id(0, 0), 0});
    c[17].producer = make_task_id(1, 9); // slot 9 of 8
    c[19].producer = make_task_id(2, 0); // ring 2 of 2: later, not reported
    std::vector<FlagSet> eff(20, FlagSet::retain());
    try {
      r.submit_flags(make_task_id(0, 1), 0, c, eff);
      ADD_FAILURE() << "no throw";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ring 1, slot 9"), std::string::npos) << e.what();
    }
    EXPECT_EQ(eff, std::vector<FlagSet>(20, FlagSet::retain()));
    EXPECT_EQ(r.next_seq(), 1u);
    EXPECT_FALSE(r.published(make_task_id(0, 1), 0).has_value());
  }
}

// submit_flags validates by the check word: the generation and the low 32
// bits of the sequence. With 64-bit sequences that half wraps every 2^32
// submits while the sequence does not: a chain across 2^32 - 1 -> 2^32
// reduces as anywhere else (B at 2^32 - 1, C at 2^32), in every entry point
// and both kernels.
TEST(WindowReducer, CheckWordCrossesTheLow32BitWrapOf64BitSequences) {
  StreamBuilder s;
  const auto a = s.add(0, 0);
  const auto b = s.add(0, 1, 0, {s.on(a)});
  const auto c = s.add(0, 2, 0, {s.on(a), s.on(b)});
  for (std::uint64_t start : {std::uint64_t{0xffff'fffe}, std::uint64_t{0x7'ffff'fffe}}) {
    WindowOptions o = one_ring();
    o.initial_seq = start;
    for (unsigned bl : kWindowSizes) {
      const WindowRun run = run_all(bl, s.stream, o);
      EXPECT_EQ(edge_to(run, c, s.stream[a]).distance, 2u);
      EXPECT_TRUE(edge_to(run, c, s.stream[a]).wait_removed()) << "BL=" << bl << " start " << start;
      EXPECT_EQ(depreduce::testing::submit_flags_difference(bl, {s.stream, o}), "") << "start " << start;
    }
  }
}

// A never-published slot's check word holds generation 0; a generation-0
// candidate naming it must stay stale at any sequence (the word is parked,
// not 0, which would look like "published at sequence 0"): sequences around
// 0, BL, 2^31, 2^32 and 2^64, both widths, both kernels, every entry point.
TEST(WindowReducer, NeverPublishedSlotIsStaleWhateverTheSequence) {
  StreamBuilder s;
  const auto t0 = s.add(0, 0, 0, {{make_task_id(0, 1), 0, kWait, DepSource::Creator},
                                  {make_task_id(0, 2), 0, kWaitRetain, DepSource::TensorMap}});
  const auto t1 = s.add(0, 3, 0, {s.on(t0), {make_task_id(0, 1), 0, kWait, DepSource::Explicit}});
  const std::uint64_t starts[] = {0, 1, 63, 64, 255, 256, 0x8000'0000, 0xffff'ffff, 0x1'0000'0000,
                                  0x1'0000'0040, ~std::uint64_t{0}};
  for (unsigned width : {32u, 64u})
    for (std::uint64_t start : starts) {
      if (width == 32 && start > 0xffff'ffffu) continue;
      WindowOptions o = one_ring(8);
      o.seq_width = width;
      o.initial_seq = start;
      for (unsigned bl : kWindowSizes) {
        const WindowRun run = run_all(bl, s.stream, o);
        for (const WindowEdge& e : run.edges[t0]) EXPECT_EQ(e.status, WindowStatus::Stale) << "start " << start;
        EXPECT_EQ(run.edges[t1].back().status, WindowStatus::Stale) << "start " << start;
        EXPECT_EQ(edge_to(run, t1, s.stream[t0]).status, WindowStatus::Tracked);
        EXPECT_EQ(depreduce::testing::submit_flags_difference(bl, {s.stream, o}), "") << "start " << start;
      }
      window_reducer<64> r(o);
      EXPECT_EQ(r.audit(), std::nullopt) << "start " << start;
    }
}

// Parking: a slot left alone for more than kParkDistance submits plus a
// visit period gets its check word parked; submit() still reports its exact
// distance, and no path counts it as tracked (the audit holds throughout).
// Needs about 2 * kParkDistance submits, so it runs in the build with
// -DDEPREDUCE_WINDOW_PARK_LOG2=9 (ci/sanitize), where streams park all
// the time; the default build (2^30) skips it.
TEST(WindowReducer, ParkedSlotKeepsItsExactDistanceAndIsNeverTracked) {
  if (window_detail::kParkDistance > 4096) GTEST_SKIP() << "kParkDistance is " << window_detail::kParkDistance;
  const std::size_t filler = 2 * window_detail::kParkDistance + 300;
  for (unsigned width : {32u, 64u}) {
    StreamBuilder s;
    const auto a = s.add(0, 0);
    s.fill(0, 1, filler);
    const auto b = s.add(0, static_cast<std::uint32_t>(filler + 1), 0, {s.on(a), s.on(a, kRetain)});
    WindowOptions o = one_ring(static_cast<std::uint32_t>(filler + 8));
    o.seq_width = width;
    o.initial_seq = width == 32 ? 0xffff'ff00u : ~std::uint64_t{0} - 0x100;
    for (unsigned bl : kWindowSizes) {
      const WindowRun run = run_all(bl, s.stream, o);
      const WindowEdge e = edge_to(run, b, s.stream[a]);
      EXPECT_EQ(e.distance, filler + 1);
      EXPECT_EQ(e.status, WindowStatus::Untracked);
      EXPECT_EQ(e.flags, kWaitRetain);
      EXPECT_EQ(depreduce::testing::submit_flags_difference(bl, {s.stream, o}), "") << "width " << width;
    }
  }
}

// Parking inside ci/test. In the default build a slot
// must be parked within kParkDistance (2^30) plus one visit period of its
// last publish; audit() says whether every check word is exact or parked.
// The test replays 2^30 + 2^27 submits without candidates (the cheapest
// submit, ~5 ns: about six seconds) after publishing slot 0 once and leaving
// slot 1 unpublished, auditing every 2^24 submits, so a parking threshold
// moved past 2^30 (say to 2^32) fails here, in the default build, long before
// the 2^32 submits that make a stale slot alias (the long test below). Skipped
// under sanitizers at the default distance (the default build runs it; the
// sanitizer build, with kParkDistance 512, runs it in milliseconds).
TEST(WindowReducer, AuditHoldsWellPastTheParkingDistance) {
  constexpr bool kParkDistanceIsDefault = window_detail::kParkDistance == std::uint64_t{1} << 30;
  bool under_asan = false;
#if defined(__SANITIZE_ADDRESS__)
  under_asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  under_asan = true;
#endif
#endif
  if (under_asan && kParkDistanceIsDefault) {
    GTEST_SKIP() << "2^30 submits under ASan take minutes; the default build runs this";
  }
  const std::uint64_t total = window_detail::kParkDistance + window_detail::kParkDistance / 8 + 3 * window_detail::kParkEvery;
  const std::uint64_t every = std::max<std::uint64_t>(window_detail::kParkDistance / 64, 1);
  window_reducer<64> r({.rings = 1, .slots_per_ring = 8, .seq_width = 64});
  const TaskId a = make_task_id(0, 0), b = make_task_id(0, 1);
  r.submit_flags(a, 0, {}, {});
  std::uint32_t slot = 2;
  Generation gen = 0;
  for (std::uint64_t i = 0; i < total; ++i) {
    r.submit_flags(make_task_id(0, slot), gen, {}, {});
    if (++slot == 8) slot = 2, ++gen;
    if (i % every == 0) {
      ASSERT_EQ(r.audit(), std::nullopt) << "after " << i << " submits";
    }
  }
  ASSERT_EQ(r.audit(), std::nullopt);
  // B names A, published total + 1 submits ago: untracked, keeps WAIT.
  const std::vector<Candidate> for_b{{a, 0}};
  FlagSet eff[1];
  EXPECT_EQ(r.submit_flags(b, 0, for_b, eff), 0u);
  EXPECT_EQ(eff[0], kWait);
  EXPECT_TRUE(r.published(b, 0)->none());
  EXPECT_EQ(r.audit(), std::nullopt);
}

// The aliasing parking prevents, in the default build (kParkDistance 2^30):
// with 64-bit sequences, A published at sequence 0 and never again has the
// low 32 bits of a task 1 submit before B (at 2^32 + 1) and 2 before C (at
// 2^32 + 2). B and C name A (WAIT), C names B. Were A's check word not
// parked, B would count A as tracked and publish its bit, and C would lose A.
// Exact: A is untracked at both (d = 2^32 + 1, 2^32 + 2) and nothing is
// removed. The 2^32 submits in between take ~20 s per kernel, so the test
// runs only with DEPREDUCE_LONG_TESTS=1 (ci/long-tests, part of .ci/run).
TEST(WindowReducer, StaleSlotDoesNotAliasAfter2To32Submits) {
  if (std::getenv("DEPREDUCE_LONG_TESTS") == nullptr) GTEST_SKIP() << "set DEPREDUCE_LONG_TESTS=1 (about a minute)";
  const TaskId a = make_task_id(0, 0), b = make_task_id(0, 1), c = make_task_id(0, 2);
  for (WindowKernel kernel : {WindowKernel::Auto, WindowKernel::Portable}) {
    window_reducer<64> r({.rings = 1, .slots_per_ring = 8, .kernel = kernel});
    r.submit_flags(a, 0, {}, {});
    // 2^32 fillers without candidates on slots 3..7, a new generation each round.
    std::uint32_t slot = 3;
    Generation gen = 0;
    for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); ++i) {
      r.submit_flags(make_task_id(0, slot), gen, {}, {});
      if (++slot == 8) slot = 3, ++gen;
    }
    ASSERT_EQ(r.next_seq(), (std::uint64_t{1} << 32) + 1);
    window_reducer<64> exact = r; // the same state, for submit()
    const std::vector<Candidate> for_b{{a, 0}}, for_c{{a, 0}, {b, 0}};
    FlagSet eff_b[1], eff_c[2];
    EXPECT_EQ(r.submit_flags(b, 0, for_b, eff_b), 0u) << to_string(kernel);
    EXPECT_EQ(r.submit_flags(c, 0, for_c, eff_c), 0u) << to_string(kernel);
    EXPECT_EQ(eff_c[0], kWait) << to_string(kernel) << " kernel: A aliased to d = 2";
    EXPECT_EQ(eff_c[1], kWait);
    EXPECT_TRUE(r.published(b, 0)->none()) << to_string(kernel) << " kernel: B counted A as tracked";
    EXPECT_EQ(r.audit(), std::nullopt);
    exact.submit(b, 0, for_b);
    const std::vector<WindowEdge> v = exact.submit(c, 0, for_c);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].producer, a);
    EXPECT_EQ(v[0].status, WindowStatus::Untracked);
    EXPECT_EQ(v[0].distance, (std::uint64_t{1} << 32) + 2);
    EXPECT_EQ(v[0].flags, kWait);
  }
}

} // namespace
