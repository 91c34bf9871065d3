//===- equivalence_props.cpp - Properties of equivalent() ----------------===//
///
/// optimized equivalent() == reference (all pairs) on pairs of graphs over
/// the same nodes (testing::mutated: same relations by construction, or one
/// change); every difference the optimized form reports is one the reference
/// finds, with a path in the graph that has it; a graph is equivalent to its
/// reduction. The implementation is named in every failure (RC_LOG).
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "depreduce/equivalence.hpp"
#include "depreduce/error.hpp"
#include "depreduce/paths.hpp"
#include "depreduce/reference/equivalence.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/graph_pairs.hpp"
#include "depreduce/testing/show.hpp"

namespace depreduce {
namespace {

rc::Gen<InputGraph> gen_input() {
  return rc::gen::apply(
      [](std::uint32_t nodes, std::uint32_t engines, std::uint32_t degree, std::uint32_t span, std::uint64_t seed) {
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

rc::Gen<EquivalenceOptions> gen_options() {
  return rc::gen::element(EquivalenceOptions{}, EquivalenceOptions{KindFilter::reorder()},
                          EquivalenceOptions{KindFilter{KindSet(Kind::Ordered) | Kind::Flow, true}});
}

/// optimized vs reference on one pair; both from the inputs as read.
void check_pair(const InputGraph& a_in, const InputGraph& b_in, const EquivalenceOptions& o) {
  const Graph a = make_program_order(a_in), b = make_program_order(b_in);
  const Equivalence ref = reference::equivalent(a_in, b_in, o);
  const Equivalence opt = equivalent(a, b, o);
  RC_LOG() << "implementation: optimized (depreduce::equivalent) against reference::equivalent\n";
  RC_LOG() << "optimized: " << rc::toString(opt) << "reference: " << rc::toString(ref);
  RC_TAG(ref.equivalent ? "equivalent" : "different");
  RC_ASSERT(opt.equivalent == ref.equivalent);
  RC_ASSERT(opt.differences.empty() == ref.equivalent);
  PathFinder in_a(a), in_b(b);
  for (const RelationDifference& d : opt.differences) {
    RC_LOG() << "difference: " << rc::toString(d) << "\n";
    // A true difference, with the relation and direction the oracle gives the pair.
    RC_ASSERT(std::find(ref.differences.begin(), ref.differences.end(), d) != ref.differences.end());
    const Graph& has = d.in_first ? a : b;
    auto w = (d.in_first ? in_a : in_b).find(d.src, d.dst, d.relation);
    RC_ASSERT(w.has_value());
    RC_ASSERT(is_path(has, d.src, d.dst, d.relation, *w));
  }
  // Symmetric: swapping the graphs swaps the directions.
  const Equivalence back = equivalent(b, a, o);
  RC_ASSERT(back.equivalent == opt.equivalent);
  RC_ASSERT(back.differences.size() == opt.differences.size());
}

RC_GTEST_PROP(Equivalence, OptimizedAgreesWithReferenceOnMutatedPairs, (std::uint64_t seed)) {
  const InputGraph a = *gen_input();
  const auto m = static_cast<testing::Mutation>(seed % testing::kMutations); // uniform, unlike a sized generator
  RC_TAG(testing::to_string(m));
  const InputGraph b = testing::mutated(a, m, seed / testing::kMutations);
  check_pair(a, b, *gen_options());
}

RC_GTEST_PROP(Equivalence, SameRelationsByConstructionAreEquivalent, (std::uint64_t seed)) {
  const InputGraph a = *gen_input();
  for (testing::Mutation m : {testing::Mutation::Shuffled, testing::Mutation::Reduced}) {
    RC_LOG() << "mutation: " << testing::to_string(m) << "\n";
    const Equivalence e = equivalent(make_program_order(a), make_program_order(testing::mutated(a, m, seed)));
    RC_ASSERT(e.equivalent);
  }
  // A reduction under any filter keeps both relations too.
  const Graph g = make_program_order(a);
  ReduceOptions o;
  o.filter = KindFilter::anti_dependence();
  RC_ASSERT(equivalent(g, apply(g, reduce(g, o))).equivalent);
}

/// Every kinds filter: the 16 sets of kinds, with and without unlabelled edges.
std::vector<ReduceOptions> every_filter() {
  std::vector<ReduceOptions> out;
  for (std::uint8_t bits = 0; bits < 16; ++bits)
    for (bool unlabelled : {false, true}) {
      ReduceOptions o;
      o.filter = KindFilter{KindSet::from_bits(bits), unlabelled};
      out.push_back(o);
    }
  return out;
}

// `equiv G R --kinds K` with R = `reduce G --kinds K` says
// equivalent, for every K: the filter selects what the reduction may remove,
// and the edges outside it count as paths in both commands (SPEC §4). Each
// twin compares its own reduction, reduced and compared under the same K.
RC_GTEST_PROP(Equivalence, ReductionUnderAKindsFilterIsEquivalentUnderThatFilter, ()) {
  const InputGraph in = *gen_input();
  const Graph g = make_program_order(in);
  const std::vector<ReduceOptions> filters = every_filter();
  const std::vector<Reduction> ref_reductions = reference::reduce_each(in, filters);
  for (std::size_t k = 0; k < filters.size(); ++k) {
    const EquivalenceOptions eo{filters[k].filter};
    RC_LOG() << "filter: " << rc::toString(eo) << "\n";
    const Reduction r = reduce(g, filters[k]);
    const Equivalence opt = equivalent(g, apply(g, r), eo);
    RC_LOG() << "optimized: " << rc::toString(opt);
    RC_ASSERT(opt.equivalent);
    const Equivalence ref = reference::equivalent(in, reference::as_input(reference::apply(in, ref_reductions[k])), eo);
    RC_LOG() << "reference: " << rc::toString(ref);
    RC_ASSERT(ref.equivalent);
  }
}

TEST(Equivalence, NamesMustMatch) {
  Graph a = testing::Sketch().edge("x", "y").graph();
  Graph b = testing::Sketch().edge("x", "z").graph();
  EXPECT_THROW((void)equivalent(a, b), InputError);
  EXPECT_THROW((void)reference::equivalent(a, b), InputError);
}

} // namespace
} // namespace depreduce
