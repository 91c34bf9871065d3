//===- reduce_dot_test.cpp - Named DOT inputs seen failing in other tools ===//
#include <gtest/gtest.h>

#include <set>

#include "depreduce/formats/formats.hpp"
#include "depreduce/testing/implementations.hpp"

namespace depreduce {
namespace {

using Pair = std::pair<std::string, std::string>;

Graph read(const std::string& text) { return make_program_order(formats::read_dot(text, "test.dot")); }

std::set<Pair> edges_of(const Graph& g, const std::vector<Edge>& edges) {
  std::set<Pair> out;
  for (const Edge& e : edges) out.emplace(g.nodes[e.src].name, g.nodes[e.dst].name);
  return out;
}

class ReduceDot : public ::testing::TestWithParam<testing::ReductionImpl> {
protected:
  Reduction run(const Graph& g) const { return GetParam().reduce(g, {}, nullptr); }
};

TEST_P(ReduceDot, IsolatedNodesStay) {
  // p; q; r; p -> q: nothing to remove, and all three nodes stay in the output.
  Graph g = read("digraph { p; q; r; p -> q }");
  Graph out = apply(g, run(g));
  Graph again = read(formats::write_dot(out));
  ASSERT_EQ(again.nodes.size(), 3u);
  EXPECT_EQ(again.nodes[0].name, "p");
  EXPECT_EQ(again.nodes[1].name, "q");
  EXPECT_EQ(again.nodes[2].name, "r");
  EXPECT_EQ(edges_of(again, again.edges), (std::set<Pair>{{"p", "q"}}));
}

TEST_P(ReduceDot, ParallelLabelledEdgesMergeAndShortcutGoes) {
  // a -> b twice (labels RAW and WAR) merge into one edge labelled "RAW|WAR"
  // (docs/formats.md); b -> c; a -> c is implied by a -> b -> c.
  Graph g = read("digraph { a -> b [label=RAW]; a -> b [label=WAR]; b -> c; a -> c }");
  ASSERT_EQ(g.edges.size(), 3u);
  const std::vector<Edge> kept = kept_edges(g, run(g));
  EXPECT_EQ(edges_of(g, kept), (std::set<Pair>{{"a", "b"}, {"b", "c"}}));
  ASSERT_NE(find_attr(kept[0].attrs, "label"), nullptr);
  EXPECT_EQ(*find_attr(kept[0].attrs, "label"), "RAW|WAR");
}

TEST_P(ReduceDot, NodeAndEdgeAttributesKept) {
  Graph g = read("digraph { a [kind=load]; b [kind=store]; a -> b [label=RAW]; b -> c [label=WAR]; a -> c }");
  Graph out = read(formats::write_dot(apply(g, run(g))));
  ASSERT_EQ(out.nodes.size(), 3u);
  ASSERT_NE(find_attr(out.nodes[0].attrs, "kind"), nullptr);
  EXPECT_EQ(*find_attr(out.nodes[0].attrs, "kind"), "load");
  EXPECT_EQ(*find_attr(out.nodes[1].attrs, "kind"), "store");
  EXPECT_EQ(edges_of(out, out.edges), (std::set<Pair>{{"a", "b"}, {"b", "c"}}));
  EXPECT_EQ(*find_attr(out.edges[0].attrs, "label"), "RAW");
  EXPECT_EQ(*find_attr(out.edges[1].attrs, "label"), "WAR");
}

TEST_P(ReduceDot, BraceEndpointsAndChains) {
  Graph g = read("digraph { a -> b -> { c; d }; { e f } -> g }");
  EXPECT_EQ(edges_of(g, g.edges), (std::set<Pair>{{"a", "b"}, {"b", "c"}, {"b", "d"}, {"e", "g"}, {"f", "g"}}));
  EXPECT_TRUE(run(g).removed.empty());
}

TEST_P(ReduceDot, SelfLoopKeptAndIgnored) {
  Graph g = read("digraph { a -> a; a -> b; b -> c; a -> c }");
  ASSERT_EQ(g.self_loops.size(), 1u);
  Reduction r = run(g);
  EXPECT_EQ(edges_of(g, kept_edges(g, r)), (std::set<Pair>{{"a", "b"}, {"b", "c"}}));
  Graph out = read(formats::write_dot(apply(g, r)));
  EXPECT_EQ(out.self_loops.size(), 1u);
}

TEST_P(ReduceDot, EngineAttributesDriveTheReduction) {
  // Two synchronous instructions on engine 0: the explicit flow edge is implied.
  Graph g = read("digraph { engines=2; a [engine=0]; b [engine=0]; c [engine=1, async=inf];"
                 " a -> b [kind=flow]; a -> c [kind=flow] }");
  EXPECT_EQ(g.num_engines, 2u);
  EXPECT_EQ(g.nodes[2].async_window, kAsyncInfinite);
  EXPECT_EQ(edges_of(g, kept_edges(g, run(g))), (std::set<Pair>{{"a", "c"}}));
}

INSTANTIATE_TEST_SUITE_P(BothTwins, ReduceDot, ::testing::ValuesIn(testing::reduction_impls()),
                         [](const auto& info) { return info.param.name; });

} // namespace
} // namespace depreduce
