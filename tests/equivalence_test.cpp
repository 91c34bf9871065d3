//===- equivalence_test.cpp - equivalent() and reduce_input() by example --===//
#include <gtest/gtest.h>

#include "depreduce/condense.hpp"
#include "depreduce/equivalence.hpp"
#include "depreduce/paths.hpp"
#include "depreduce/reference/equivalence.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/show.hpp"

namespace depreduce {
namespace {

using testing::Sketch;

TEST(EquivalenceTest, OrderedEdgeIsWeakerThanCompletion) {
  Sketch s1, s2;
  s1.edge("a", "b");
  s2.edge("a", "b", "ordered");
  const Graph a = s1.graph(), b = s2.graph();
  const Equivalence e = equivalent(a, b);
  ASSERT_FALSE(e.equivalent);
  ASSERT_EQ(e.differences.size(), 1u);
  EXPECT_EQ(e.differences[0], (RelationDifference{s1.id("a"), s1.id("b"), Relation::CompletedBefore, true}));
  EXPECT_EQ(e, reference::equivalent(a, b)); // one pair: the generator is the only difference
}

TEST(EquivalenceTest, IssueOnlyDifferenceIsReportedAsIssue) {
  // a S b only through the ordered edge; b lacks it entirely.
  Sketch s1, s2;
  s1.edge("a", "b", "ordered");
  s2.node("a").node("b");
  const Equivalence e = equivalent(s1.graph(), s2.graph());
  ASSERT_EQ(e.differences.size(), 1u);
  EXPECT_EQ(e.differences[0].relation, Relation::IssuedBefore);
  EXPECT_TRUE(e.differences[0].in_first);
}

TEST(EquivalenceTest, BarrierGeneratorsAfterThePreviousBarrier) {
  // An async=inf instruction completes only through the barrier; moving the
  // barrier flag changes C relations that no explicit edge carries.
  Sketch s1, s2;
  s1.node("p", 0, kAsyncInfinite).node("q", 0).node("b", 0, 0, true);
  s2.node("p", 0, kAsyncInfinite).node("q", 0).node("b", 0, 0, false);
  const Graph a = s1.graph(1), b = s2.graph(1);
  const Equivalence e = equivalent(a, b);
  ASSERT_FALSE(e.equivalent) << ::testing::PrintToString(e);
  EXPECT_EQ(e.equivalent, reference::equivalent(a, b).equivalent);
  bool p_b = false;
  for (const RelationDifference& d : e.differences)
    p_b |= d.src == s1.id("p") && d.dst == s1.id("b") && d.relation == Relation::CompletedBefore && d.in_first;
  EXPECT_TRUE(p_b);
}

TEST(EquivalenceTest, ProgramOrderMayDiffer) {
  // The same DAG with nodes listed differently: same relations without engines.
  InputGraph x;
  for (const char* name : {"a", "b", "c"}) {
    Node v;
    v.name = name;
    x.nodes.push_back(v);
  }
  Edge e1; e1.src = 0; e1.dst = 2;
  Edge e2; e2.src = 1; e2.dst = 2;
  x.edges = {e1, e2};
  InputGraph y = x;
  std::swap(y.nodes[0], y.nodes[1]);
  std::swap(y.edges[0].src, y.edges[1].src);
  EXPECT_TRUE(equivalent(make_program_order(x), make_program_order(y)).equivalent);
}

// The kinds filter of equivalent() reads as reduce()'s (SPEC §4):
// the anti edge outside `flow` still counts as a path, so dropping a -> c
// (implied through a -> b -> c) loses nothing, under `flow` as under all.
TEST(EquivalenceTest, KindsFilterCountsEdgesOutsideItAsPaths) {
  Sketch s;
  s.edge("a", "b", "anti").edge("b", "c", "flow").edge("a", "c", "flow");
  const Graph g = s.graph();
  ReduceOptions ro;
  ro.filter = KindFilter::reorder();
  const Reduction r = reduce(g, ro);
  ASSERT_EQ(r.removed.size(), 1u); // a -> c, through the anti edge
  EXPECT_EQ(g.nodes[g.edges[r.removed[0].edge].src].name, "a");
  EXPECT_EQ(g.nodes[g.edges[r.removed[0].edge].dst].name, "c");
  const Graph reduced = apply(g, r);
  const EquivalenceOptions flow{KindFilter::reorder()};
  const Equivalence opt = equivalent(g, reduced, flow);
  EXPECT_TRUE(opt.equivalent) << ::testing::PrintToString(opt);
  const Equivalence ref = reference::equivalent(g, reduced, flow);
  EXPECT_TRUE(ref.equivalent) << ::testing::PrintToString(ref);
  // Dropping the anti edge itself is a difference under `flow` too: it counts
  // (leaving it out of both graphs, `flow` would see none).
  Sketch t;
  t.node("a").edge("b", "c", "flow").edge("a", "c", "flow");
  const Graph without_anti = t.graph();
  for (const Equivalence& e : {equivalent(g, without_anti, flow), reference::equivalent(g, without_anti, flow)}) {
    ASSERT_FALSE(e.equivalent);
    ASSERT_EQ(e.differences.size(), 1u) << ::testing::PrintToString(e);
    EXPECT_EQ(e.differences[0], (RelationDifference{s.id("a"), s.id("b"), Relation::CompletedBefore, true}));
  }
}

TEST(PathsTest, PathFinderOnKeptEdgesOnly) {
  Sketch s;
  s.edge("a", "b").edge("b", "c").edge("a", "c").edge("c", "d").edge("a", "d");
  const Graph g = s.graph();
  const Reduction r = reduce(g);
  PathFinder kept(g, r);
  auto w = kept.witness(s.id("a"), s.id("d"));
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->hops.size(), 3u); // a -> b -> c -> d, never the removed a -> c
  EXPECT_TRUE(is_witness(g, s.id("a"), s.id("d"), *w));
  EXPECT_TRUE(is_path(g, s.id("a"), s.id("d"), Relation::CompletedBefore, *w));
  EXPECT_FALSE(kept.find(s.id("d"), s.id("a"), Relation::IssuedBefore).has_value());
}

} // namespace
} // namespace depreduce
