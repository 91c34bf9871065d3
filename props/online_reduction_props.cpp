//===- online_reduction_props.cpp - Properties of the online reduction ---===//
///
/// \file
/// RapidCheck properties of SPEC §4's online form (fuzz/online_reduction_diff.hpp
/// states the comparisons): on random walrus-style graphs (engines, async
/// windows, barriers, ORDERED-only and RETAIN edges, parallel parts) and on
/// random DAGs without engines, under each kinds filter, at every prefix the
/// optimized online reducer answers implied() as its Boost.Graph oracle, and
/// add_edges() removes what the oracle removes and what reduce() of the whole
/// graph removes for that node, whatever order the parts are listed in.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "online_reduction_diff.hpp"

#include "depreduce/testing/generators.hpp"

namespace {
using namespace depreduce;

const KindFilter kFilters[] = {KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence()};

RC_GTEST_PROP(OnlineReductionProps, EveryPrefixMatchesReferenceAndReduce, ()) {
  depreduce::testing::EngineGraphParams p;
  p.nodes = *rc::gen::inRange<std::uint32_t>(1, 40);
  p.engines = *rc::gen::inRange<std::uint32_t>(1, 5);
  p.out_degree = *rc::gen::inRange<std::uint32_t>(0, 5);
  p.span = *rc::gen::inRange<std::uint32_t>(1, 12);
  p.allow_no_engine = *rc::gen::arbitrary<bool>();
  p.async = *rc::gen::arbitrary<bool>();
  p.barriers = *rc::gen::arbitrary<bool>();
  p.ordered = *rc::gen::arbitrary<bool>();
  p.retain = *rc::gen::arbitrary<bool>();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Graph g = depreduce::testing::random_engine_graph(p, seed);
  for (const KindFilter& f : kFilters) {
    const std::string d = fuzz::online_difference(g, f, seed ^ f.kinds.bits());
    if (!d.empty()) RC_FAIL(d);
  }
}

RC_GTEST_PROP(OnlineReductionProps, DagsWithoutEnginesMatchReferenceAndReduce, ()) {
  const auto n = *rc::gen::inRange<std::uint32_t>(1, 60);
  const auto degree = *rc::gen::inRange<std::uint32_t>(1, 6);
  const auto span = *rc::gen::inRange<std::uint32_t>(1, 20);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Graph g = depreduce::testing::random_dag(n, degree, span, seed);
  const std::string d = fuzz::online_difference(g, KindFilter{}, seed);
  if (!d.empty()) RC_FAIL(d);
}

// Without engines, bank B is kept apart only from the first ORDERED-only edge
// on (OnlineReducer's lazy copy of bank A): engine graphs with their engines
// taken away have such edges at random points.
RC_GTEST_PROP(OnlineReductionProps, OrderedEdgesWithoutEnginesMatchReferenceAndReduce, ()) {
  depreduce::testing::EngineGraphParams p;
  p.nodes = *rc::gen::inRange<std::uint32_t>(1, 40);
  p.out_degree = *rc::gen::inRange<std::uint32_t>(1, 5);
  p.span = *rc::gen::inRange<std::uint32_t>(1, 12);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Graph g = depreduce::testing::random_engine_graph(p, seed);
  fuzz::strip_engines(g);
  for (const KindFilter& f : kFilters) {
    const std::string d = fuzz::online_difference(g, f, seed);
    if (!d.empty()) RC_FAIL(d);
  }
}

} // namespace
