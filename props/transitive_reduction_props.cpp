//===- transitive_reduction_props.cpp - Properties of the reduction ------===//
///
/// optimized == reference, plus the laws of SPEC §4: both happens-before
/// relations preserved, minimal, idempotent, independent of edge order; the
/// shipped one-pass loop never drops an edge the exact form keeps. Every DAG
/// with up to 5 nodes is checked exhaustively.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/implementations.hpp"
#include "depreduce/testing/show.hpp"
#include "depreduce/testing/raw_input.hpp"

namespace depreduce {
namespace {

using testing::reference_reduction;

/// A DAG without engines on up to 40 nodes, edges i -> j with i < j.
rc::Gen<Graph> gen_dag() {
  return rc::gen::mapcat(rc::gen::inRange<std::uint32_t>(1, 41), [](std::uint32_t n) {
    auto node = rc::gen::inRange<std::uint32_t>(0, n);
    return rc::gen::map(rc::gen::container<std::vector<std::pair<std::uint32_t, std::uint32_t>>>(
                            rc::gen::pair(node, node)),
                        [n](std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs) {
                          std::vector<std::pair<NodeId, NodeId>> edges;
                          for (auto [a, b] : pairs)
                            if (a != b) edges.emplace_back(std::min(a, b), std::max(a, b));
                          return graph_from_edges(n, edges);
                        });
  });
}

/// A walrus-style graph: engines, async windows, barriers, ORDERED, RETAIN.
rc::Gen<Graph> gen_engine_graph() {
  return rc::gen::apply(
      [](std::uint32_t nodes, std::uint32_t engines, std::uint32_t degree, std::uint32_t span,
         std::uint64_t seed) {
        testing::EngineGraphParams p;
        p.nodes = nodes;
        p.engines = engines;
        p.out_degree = degree;
        p.span = span;
        return testing::random_engine_graph(p, seed);
      },
      rc::gen::inRange<std::uint32_t>(1, 36), rc::gen::inRange<std::uint32_t>(1, 9),
      rc::gen::inRange<std::uint32_t>(0, 4), rc::gen::inRange<std::uint32_t>(1, 12),
      rc::gen::arbitrary<std::uint64_t>());
}

rc::Gen<KindFilter> gen_filter() {
  return rc::gen::element(KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence(),
                          KindFilter{KindSet(Kind::Ordered) | Kind::Flow, true});
}

/// The same graph with its input edges in another order.
Graph shuffled(const Graph& g, std::uint64_t seed) {
  InputGraph in;
  static_cast<GraphHeader&>(in) = g;
  in.nodes = g.nodes;
  in.edges = g.edges;
  std::shuffle(in.edges.begin(), in.edges.end(), std::mt19937_64(seed));
  return make_program_order(std::move(in));
}

/// What a reduction decided, without provenance (input positions, lines).
std::vector<std::tuple<NodeId, NodeId, std::uint8_t, std::uint8_t>> decided(const Graph& g, const Reduction& r) {
  std::vector<std::tuple<NodeId, NodeId, std::uint8_t, std::uint8_t>> out;
  for (const Edge& e : kept_edges(g, r)) out.emplace_back(e.src, e.dst, e.kinds.bits(), e.flags.bits());
  return out;
}

void check_laws(const Graph& g, const ReduceOptions& o) {
  Reduction ref = reference_reduction().reduce(g, o, nullptr);
  // Every implementation (optimized, and any registered one) equals the oracle.
  RC_LOG() << rc::toString(o) << "\nreference: " << rc::toString(ref);
  for (const auto& impl : testing::reduction_impls()) {
    if (&impl == &reference_reduction()) continue;
    RC_LOG() << "implementation: " << impl.name << " (against reference)\n";
    const Reduction got = impl.reduce(g, o, nullptr);
    RC_LOG() << impl.name << ": " << rc::toString(got);
    RC_ASSERT(got == ref);
  }
  RC_LOG() << "implementation: reference (laws of its result; minimality checked with optimized)\n";
  const Reduction& opt = ref;
  Graph reduced = apply(g, opt);
  // Both relations preserved for every pair.
  RC_ASSERT(reference::happens_before(reduced) == reference::happens_before(g));
  // Minimal and idempotent: nothing left to remove.
  Reduction again = testing::optimized_reduction().reduce(reduced, o, nullptr);
  RC_ASSERT(again.removed.empty());
  RC_ASSERT(kept_edges(reduced, again) == kept_edges(g, opt));
  // Every removed edge has a valid witness from both twins.
  for (const RemovedEdge& r : opt.removed)
    for (const auto& impl : testing::reduction_impls()) {
      RC_LOG() << "implementation: " << impl.name << " (witness of " << rc::toString(r) << ")\n";
      auto w = impl.find_witness(g, r.src, r.dst);
      RC_ASSERT(w.has_value());
      RC_ASSERT(is_witness(g, r.src, r.dst, *w));
    }
}

/// A walrus-style graph as a reader produces it: nodes in an input order that
/// is not program order, pairs written as up to three parallel parts of every
/// kind and flag combination, self-loops, edges in random order.
rc::Gen<InputGraph> gen_input_graph() {
  return rc::gen::apply(
      [](std::uint32_t nodes, std::uint32_t engines, std::uint32_t degree, std::uint32_t span,
         std::uint64_t seed) {
        testing::EngineGraphParams p;
        p.nodes = nodes;
        p.engines = engines;
        p.out_degree = degree;
        p.span = span;
        return testing::random_input_graph(p, seed);
      },
      rc::gen::inRange<std::uint32_t>(1, 30), rc::gen::inRange<std::uint32_t>(0, 5),
      rc::gen::inRange<std::uint32_t>(0, 4), rc::gen::inRange<std::uint32_t>(1, 10),
      rc::gen::arbitrary<std::uint64_t>());
}

/// Any kinds filter: any subset of the four kinds, unlabelled edges or not.
rc::Gen<KindFilter> gen_any_filter() {
  return rc::gen::elementOf(testing::every_kind_filter());
}

// The production path (make_program_order, then each implementation on the
// merged Graph) against the oracle on the input as read (SPEC §1), for two
// filters drawn from all 32: program order, reduce, both happens-before
// relations, and that the reduced graph keeps both relations for every pair.
RC_GTEST_PROP(TransitiveReduction, PipelineEqualsReferenceOnRawInput, ()) {
  RC_LOG() << "implementation: every registered one against the reference (the difference names it)\n";
  const InputGraph in = *gen_input_graph();
  const std::vector<KindFilter> filters{*gen_any_filter(), *gen_any_filter()};
  const std::string difference = testing::raw_input_difference(in, filters);
  RC_ASSERT(difference == "");
}

// Bad input (SPEC §2's rules for an input: distinct names, engines in
// range, edges between known nodes, no cycle) is rejected by the production
// path iff the oracle rejects it, with the same message: the same first
// problem on the same line. The oracle states each rule itself
// (reference::program_order), so a rule dropped or changed on either side
// shows here. Faults that every correct reader must reject are checked to be.
RC_GTEST_PROP(TransitiveReduction, PipelineRejectsBadRawInputAsReferenceDoes, ()) {
  RC_LOG() << "implementation: make_program_order against reference::program_order\n";
  InputGraph in = *gen_input_graph();
  const auto fault = static_cast<testing::InputFault>(*rc::gen::inRange<std::uint8_t>(0, testing::kInputFaults));
  const auto a = *rc::gen::arbitrary<std::uint32_t>();
  const auto b = *rc::gen::arbitrary<std::uint32_t>();
  const bool must_reject = testing::inject_fault(in, fault, a, b);
  RC_LOG() << "fault " << static_cast<int>(fault) << (must_reject ? " (must be rejected)" : "") << "\n";
  const std::string difference = testing::raw_input_difference(in, {KindFilter{}});
  RC_ASSERT(difference == "");
  if (must_reject) RC_ASSERT_THROWS_AS(make_program_order(in), InputError);
}

// What is written reads back to the same relations (SPEC §2), and
// `reduce` then `reduce` again gives the same file: the reduced graph, as
// DOT, read back by read_dot and merged, has the input's C and S relations
// for every pair, nothing left to remove, and writes the same text again.
RC_GTEST_PROP(TransitiveReduction, WrittenOutputReadsBackToTheSameRelations, ()) {
  RC_LOG() << "implementation: optimized\n";
  const InputGraph in = *gen_input_graph();
  const KindFilter filter = *gen_any_filter();
  const Graph g = make_program_order(in);
  const Graph reduced = apply(g, reduce(g, {filter, ReductionMode::Exact}));
  const std::string text = formats::write_dot(reduced);
  const InputGraph back = formats::read_dot(text, "<written>");
  RC_ASSERT(reference::happens_before(back) == reference::happens_before(in));
  const Graph again = make_program_order(back);
  const Reduction second = reduce(again, {filter, ReductionMode::Exact});
  RC_ASSERT(second.removed.empty());
  RC_ASSERT(formats::write_dot(apply(again, second)) == text);
}

RC_GTEST_PROP(TransitiveReduction, OptimizedEqualsReferenceOnDags, ()) {
  Graph g = *gen_dag();
  check_laws(g, {});
}

RC_GTEST_PROP(TransitiveReduction, EdgeOrderDoesNotMatterOnDags, (std::uint64_t seed)) {
  RC_LOG() << "implementation: optimized\n";
  Graph g = *gen_dag();
  const Graph mixed = shuffled(g, seed);
  RC_ASSERT(decided(mixed, reduce(mixed)) == decided(g, reduce(g)));
  RC_ASSERT(reduce(mixed).removed == reduce(g).removed);
}

RC_GTEST_PROP(TransitiveReduction, OptimizedEqualsReferenceOnEngineGraphs, ()) {
  Graph g = *gen_engine_graph();
  ReduceOptions o;
  o.filter = *gen_filter();
  check_laws(g, o);
}

RC_GTEST_PROP(TransitiveReduction, EdgeOrderDoesNotMatterOnEngineGraphs, (std::uint64_t seed)) {
  RC_LOG() << "implementation: optimized\n";
  Graph g = *gen_engine_graph();
  const Graph mixed = shuffled(g, seed);
  RC_ASSERT(decided(mixed, reduce(mixed)) == decided(g, reduce(g)));
  RC_ASSERT(reduce(mixed).removed == reduce(g).removed);
}

RC_GTEST_PROP(TransitiveReduction, ShippedNeverDropsWhatExactKeeps, ()) {
  RC_LOG() << "implementation: optimized\n";
  Graph g = *gen_engine_graph();
  ReduceOptions o;
  o.filter = *gen_filter();
  Reduction exact = reduce(g, o);
  o.mode = ReductionMode::Shipped;
  Reduction shipped = reduce(g, o);
  for (const RemovedEdge& r : shipped.removed)
    RC_ASSERT(std::find(exact.removed.begin(), exact.removed.end(), r) != exact.removed.end());
  RC_ASSERT(reference::happens_before(apply(g, shipped)) == reference::happens_before(g));
}

TEST(TransitiveReductionExhaustive, EveryDagUpToFiveNodes) {
  // Every DAG on n <= 5 nodes is, up to relabelling, a set of edges i -> j
  // with i < j: all 2^(n(n-1)/2) of them, 1100 graphs in all.
  std::size_t graphs = 0;
  for (std::uint32_t n = 0; n <= 5; ++n) {
    std::vector<std::pair<NodeId, NodeId>> all;
    for (NodeId i = 0; i < n; ++i)
      for (NodeId j = i + 1; j < n; ++j) all.emplace_back(i, j);
    for (std::uint32_t mask = 0; mask < (1u << all.size()); ++mask) {
      std::vector<std::pair<NodeId, NodeId>> edges;
      for (std::size_t k = 0; k < all.size(); ++k)
        if (mask & (1u << k)) edges.emplace_back(all[k]);
      Graph g = graph_from_edges(n, edges);
      Reduction opt = reduce(g);
      ASSERT_EQ(opt, reference::reduce(g)) << "n=" << n << " mask=" << mask;
      Graph reduced = apply(g, opt);
      ASSERT_EQ(reference::happens_before(reduced), reference::happens_before(g));
      ASSERT_TRUE(reduce(reduced).removed.empty());
      ++graphs;
    }
  }
  EXPECT_EQ(graphs, 1100u);
}

} // namespace
} // namespace depreduce

namespace depreduce {
namespace {

RC_GTEST_PROP(HappensBefore, OptimizedEqualsReferenceForEveryPair, ()) {
  RC_LOG() << "implementation: optimized (against reference)\n";
  Graph g = *gen_engine_graph();
  std::vector<HappensBeforeQuery> all;
  for (NodeId p = 0; p < g.nodes.size(); ++p)
    for (NodeId c = 0; c < g.nodes.size(); ++c)
      for (Relation r : {Relation::CompletedBefore, Relation::IssuedBefore}) all.push_back({p, c, r});
  RC_ASSERT(happens_before(g, all) == reference::happens_before(g, all));
}

} // namespace
} // namespace depreduce
