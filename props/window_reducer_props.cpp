//===- window_reducer_props.cpp - Properties of the bounded window --------===//
///
/// \file
/// RapidCheck properties of SPEC §6 on random streams (testing/task_streams.hpp:
/// random rings, slot reuse with generations, stale generations, distances
/// around 64/128/256, WAIT/RETAIN flags, duplicates, random candidate order),
/// for BL = 64, 128, 256 and both modes:
///  - the optimized reducer, and every reducer registered with
///    testing::register_window_impl, equals the Boost.Graph oracle;
///  - none reduces an edge the exact reduction (SPEC §4) of the stream's
///    complete WAIT graph keeps;
///  - the order of candidates never matters to any of them;
///  - BL = 256 removes a superset of BL = 128, which removes a superset of BL = 64;
///  - the oracle's own option check and canonical order agree with the
///    optimized ones (same accept/reject and message; same order).
/// A case is a seed plus small generator knobs; RapidCheck shrinks the knobs
/// (fewer tasks, fewer candidates) and prints them with the failing stream.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "depreduce/error.hpp"
#include "depreduce/reference/window_reducer.hpp"
#include "depreduce/testing/implementations.hpp"
#include "depreduce/testing/task_streams.hpp"

namespace {

using namespace depreduce;
using namespace depreduce::testing;

const WindowMode kModes[] = {WindowMode::Global, WindowMode::SameRing};

/// Draws a random case: up to 400 tasks (enough for distances past 256).
WindowCase gen_case() {
  StreamParams p;
  // Short streams shrink well; long ones reach distances past 256.
  p.tasks = *rc::gen::oneOf(rc::gen::inRange<std::size_t>(1, 60), rc::gen::inRange<std::size_t>(60, 401),
                            rc::gen::inRange<std::size_t>(260, 401));
  p.rings = *rc::gen::inRange<std::uint32_t>(1, 5);
  // Few slots: heavy reuse, many stale producers; many slots: long live windows.
  p.slots_per_ring = *rc::gen::element(4u, 64u, 300u, 1024u, 1024u);
  p.max_candidates = *rc::gen::element(1u, 3u, 4u, 6u, 8u);
  p.seq_width = *rc::gen::element(32u, 64u);
  if (*rc::gen::element(false, true))
    p.initial_seq = (p.seq_width == 32 ? 0xffffffffu : ~std::uint64_t{0}) - *rc::gen::inRange<std::uint64_t>(0, 300);
  p.ring_switch_percent = *rc::gen::inRange(0u, 101u);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  return random_stream(seed, p);
}

/// (task position, producer position) of every WAIT the run removed. A
/// removed edge is valid, so its producer sits `distance` submits earlier.
std::set<std::pair<std::size_t, std::size_t>> removed_pairs(const WindowRun& run) {
  std::set<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < run.edges.size(); ++i)
    for (const WindowEdge& e : run.edges[i])
      if (e.wait_removed()) out.emplace(i, i - static_cast<std::size_t>(e.distance));
  return out;
}

RC_GTEST_PROP(WindowReducerProps, OptimizedMatchesReferenceForEveryWindowAndMode, ()) {
  RC_LOG() << "implementation: " << optimized_window().name << " against " << reference_window().name << "\n";
  WindowCase c = gen_case();
  for (WindowMode mode : kModes) {
    c.options.mode = mode;
    for (unsigned bl : kWindowSizes) {
      const WindowRun online = optimized_window().run(bl, c.stream, c.options);
      const WindowRun oracle = reference_window().run(bl, c.stream, c.options);
      // Third-party reducers (testing::register_window_impl) too.
      for (const WindowImpl& impl : window_impls()) {
        if (&impl == &reference_window() || &impl == &optimized_window() || !impl.supports(bl)) continue;
        const WindowRun other = impl.run(bl, c.stream, c.options);
        if (!(other == oracle))
          RC_FAIL(impl.name + " BL=" + std::to_string(bl) + " mode=" + to_string(mode) + "\n" +
                  first_difference(other, oracle) + "\n" + describe(c.stream, c.options));
      }
      if (mode == WindowMode::Global && bl == 256) {
        std::uint64_t far = 0;
        for (const auto& list : online.edges)
          for (const WindowEdge& e : list)
            if (e.wait_removed()) far = std::max(far, e.distance);
        RC_TAG(far == 0 ? "removes nothing" : far <= 64 ? "removes at d <= 64" : far <= 128 ? "removes at d <= 128"
                                                                                : "removes at d > 128");
        RC_TAG(online.counters.stale > 0 ? "has stale" : "no stale");
      }
      if (!(online == oracle))
        RC_FAIL("BL=" + std::to_string(bl) + " mode=" + to_string(mode) + "\n" + first_difference(online, oracle) +
                "\n" + describe(c.stream, c.options));
    }
  }
}

RC_GTEST_PROP(WindowReducerProps, NeverReducesWhatTheExactReductionKeeps, ()) {
  RC_LOG() << "implementation: " << optimized_window().name << " against the exact reduction (" << reference_reduction().name << ")" << "\n";
  WindowCase c = gen_case();
  const Graph full = full_wait_graph(c.stream);
  const Reduction exact = reference_reduction().reduce(full, ReduceOptions{}, nullptr);
  std::set<std::pair<std::size_t, std::size_t>> redundant; // (consumer, producer) positions
  for (const RemovedEdge& r : exact.removed)
    redundant.emplace(std::stoul(full.nodes[r.dst].name), std::stoul(full.nodes[r.src].name));
  for (WindowMode mode : kModes) {
    c.options.mode = mode;
    for (unsigned bl : kWindowSizes)
      for (const WindowImpl& impl : window_impls()) {
        if (&impl == &reference_window() || !impl.supports(bl)) continue;
        for (const auto& [task, producer] : removed_pairs(impl.run(bl, c.stream, c.options)))
          if (!redundant.count({task, producer}))
            RC_FAIL(impl.name + " BL=" + std::to_string(bl) + " mode=" + to_string(mode) + " removed " +
                    std::to_string(producer) + " -> " + std::to_string(task) + " which the exact reduction keeps\n" +
                    describe(c.stream, c.options));
      }
  }
}

RC_GTEST_PROP(WindowReducerProps, CandidateOrderNeverMatters, ()) {
  RC_LOG() << "implementation: " << optimized_window().name << "\n";
  WindowCase c = gen_case();
  const TaskStream shuffled = shuffled_candidates(c.stream, *rc::gen::arbitrary<std::uint64_t>());
  for (WindowMode mode : kModes) {
    c.options.mode = mode;
    for (unsigned bl : kWindowSizes)
      for (const WindowImpl& impl : window_impls()) {
        if (&impl == &reference_window() || !impl.supports(bl)) continue;
        const WindowRun a = impl.run(bl, c.stream, c.options);
        const WindowRun b = impl.run(bl, shuffled, c.options);
        if (!(a == b))
          RC_FAIL(impl.name + " BL=" + std::to_string(bl) + " mode=" + to_string(mode) + "\n" +
                  first_difference(a, b) + "\n" + describe(c.stream, c.options));
      }
  }
}

RC_GTEST_PROP(WindowReducerProps, SubmitFlagsAgreesWithSubmit, ()) {
  RC_LOG() << "implementation: " << optimized_window().name << "\n";
  WindowCase c = gen_case();
  for (WindowMode mode : kModes) {
    c.options.mode = mode;
    for (unsigned bl : kWindowSizes) {
      const std::string diff = submit_flags_difference(bl, c);
      if (!diff.empty()) RC_FAIL("mode=" + to_string(mode) + " " + diff + "\n" + describe(c.stream, c.options));
    }
  }
}

RC_GTEST_PROP(WindowReducerProps, LargerWindowRemovesASuperset, ()) {
  RC_LOG() << "implementation: " << optimized_window().name << "\n";
  WindowCase c = gen_case();
  bool more128 = false, more256 = false; // classified once per case, not per mode
  for (WindowMode mode : kModes) {
    c.options.mode = mode;
    const auto r64 = removed_pairs(optimized_window().run(64, c.stream, c.options));
    const auto r128 = removed_pairs(optimized_window().run(128, c.stream, c.options));
    const auto r256 = removed_pairs(optimized_window().run(256, c.stream, c.options));
    more128 |= r128.size() > r64.size();
    more256 |= r256.size() > r128.size();
    for (const auto& e : r64) RC_ASSERT(r128.count(e) == 1u);
    for (const auto& e : r128) RC_ASSERT(r256.count(e) == 1u);
  }
  RC_CLASSIFY(more128, "128 removes more than 64");
  RC_CLASSIFY(more256, "256 removes more than 128");
}

/// What a check of options does: "" if it accepts, else the InputError's
/// file, line and message.
template <class Check> std::string verdict(Check check, const WindowOptions& o) {
  try {
    check(o);
    return "";
  } catch (const InputError& e) {
    return e.file() + ":" + std::to_string(e.line()) + ": " + e.problem();
  }
}

/// Options around every bound of the rules: 0 and 1 rings and slots,
/// products just under, at and over kMaxWindowSlots, widths 0/31/32/33/64/65,
/// first sequence numbers around 2^32.
RC_GTEST_PROP(WindowReducerProps, OracleOptionCheckAgreesWithTheOptimized, ()) {
  WindowOptions o;
  o.rings = *rc::gen::oneOf(rc::gen::element(0u, 1u, 2u, 4u, 16u, 256u, 4096u, 16777216u, 16777217u, 4294967295u),
                            rc::gen::arbitrary<std::uint32_t>());
  // Often exactly at, or one slot over, kMaxWindowSlots in all.
  const std::uint32_t at_limit = o.rings == 0 ? 1u : static_cast<std::uint32_t>(kMaxWindowSlots / o.rings);
  o.slots_per_ring = *rc::gen::oneOf(rc::gen::element(0u, 1u, 2u, 4096u, 4097u, 16384u, 16777216u, 4294967295u),
                                     rc::gen::element(at_limit, at_limit + 1u), rc::gen::arbitrary<std::uint32_t>());
  o.seq_width = *rc::gen::element(0u, 31u, 32u, 33u, 64u, 65u);
  o.initial_seq = *rc::gen::oneOf(
      rc::gen::element<std::uint64_t>(0, 4294967295ull, 4294967296ull, ~std::uint64_t{0}),
      rc::gen::arbitrary<std::uint64_t>());
  const std::string optimized = verdict([](const WindowOptions& x) { validate_window_options(x); }, o);
  const std::string oracle = verdict([](const WindowOptions& x) { reference::check_window_options(x); }, o);
  RC_CLASSIFY(optimized.empty(), "accepted");
  RC_ASSERT(optimized == oracle);
}

/// Edges as run_window() makes them (distance 0 exactly when stale), from
/// small domains so that ties and equal fields are common.
WindowEdge gen_window_edge() {
  WindowEdge e;
  e.producer = *rc::gen::inRange<TaskId>(0, 2);
  e.producer_generation = *rc::gen::inRange<Generation>(0, 3);
  e.status = *rc::gen::element(WindowStatus::Stale, WindowStatus::Stale, WindowStatus::Stale, WindowStatus::CrossRing,
                               WindowStatus::Untracked, WindowStatus::Tracked);
  e.distance = e.status == WindowStatus::Stale ? 0 : *rc::gen::inRange<std::uint64_t>(1, 3);
  return e;
}

RC_GTEST_PROP(WindowReducerProps, OracleCanonicalOrderAgreesWithTheOptimized, ()) {
  const WindowEdge a = gen_window_edge(), b = gen_window_edge();
  RC_ASSERT(reference::in_canonical_order(a, b) == canonical_before(a, b));
  RC_ASSERT(reference::in_canonical_order(b, a) == canonical_before(b, a));
}

} // namespace
