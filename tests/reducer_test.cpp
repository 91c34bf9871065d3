//===- reducer_test.cpp - GraphBuilder and Reducer, named cases -----------===//
///
/// Every error of the by-id entrance (GraphBuilder::finish(),
/// finish_renumbered(), Reducer::reduce_edges()) by name, the equality of a
/// built Graph with make_program_order() of the same input, and Reducer's
/// results against depreduce::reduce() on both sides of its dense threshold.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "depreduce/graph_builder.hpp"
#include "depreduce/reducer.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/generators.hpp"

namespace depreduce {
namespace {

/// The InputGraph a reader would give for \p b: nodes named by their name or
/// id, edges as added.
InputGraph input_of(const GraphBuilder& b) {
  InputGraph in;
  in.num_engines = b.num_engines();
  for (NodeId v = 0; v < b.num_nodes(); ++v) {
    Node& node = in.nodes.emplace_back();
    node.name = b.name(v).empty() ? std::to_string(v) : std::string(b.name(v));
    node.engine = b.nodes()[v].engine;
    node.async_window = b.nodes()[v].async_window;
    node.barrier = b.nodes()[v].barrier;
  }
  for (const BuilderEdge& be : b.edges()) {
    Edge& e = in.edges.emplace_back();
    e.src = be.src;
    e.dst = be.dst;
    e.kinds = be.kinds;
    e.flags = be.flags;
  }
  return in;
}

/// A builder holding \p g's nodes and its edges spelled as parts.
void fill(GraphBuilder& b, const Graph& g) {
  b.clear(g.num_engines);
  for (const Node& node : g.nodes) b.add_node({node.engine, node.async_window, node.barrier});
  for (const Edge& e : g.edges)
    for (const EdgePart& p : parts_to_write(e)) b.add_edge(e.src, e.dst, p.kinds, p.flags);
}

GraphBuilder three_instructions_two_engines() {
  GraphBuilder b;
  b.clear(2);
  const NodeId load = b.add_node({.engine = 0});
  const NodeId mul = b.add_node({.engine = 1});
  const NodeId store = b.add_node({.engine = 0});
  b.add_edge(load, mul, Kind::Flow);
  b.add_edge(mul, store, Kind::Flow);
  b.add_edge(load, store, Kind::Output);
  return b;
}

TEST(GraphBuilder, VendoringExampleReducesTheEdgeTheEngineImplies) {
  GraphBuilder b = three_instructions_two_engines();
  Graph g;
  ASSERT_TRUE(b.finish(g).ok());
  EXPECT_EQ(g, make_program_order(input_of(b)));
  Reducer r;
  Reduction red;
  ASSERT_TRUE(r.reduce(b, red).ok());
  ASSERT_EQ(red.removed.size(), 1u);
  EXPECT_EQ(red.removed[0].src, 0u);
  EXPECT_EQ(red.removed[0].dst, 2u);
  EXPECT_EQ(red, reduce(g));
}

TEST(GraphBuilder, ParallelPartsMergeAsMakeProgramOrder) {
  GraphBuilder b;
  b.clear();
  for (int i = 0; i < 4; ++i) b.add_node();
  b.add_edge(0, 3);                                      // unlabelled WAIT ...
  b.add_edge(0, 3, Kind::Ordered);                       // ... + ORDERED: still a C edge
  b.add_edge(1, 3, Kind::Ordered);                       // ORDERED WAIT ...
  b.add_edge(1, 3, Kind::Flow, FlagSet::retain());       // ... + FLOW RETAIN: still an S edge
  b.add_edge(2, 2, Kind::Flow);                          // a self-loop
  b.add_edge(0, 1, Kind::Flow);
  b.add_edge(1, 2, Kind::Flow);
  b.add_edge(2, 3, Kind::Anti, FlagSet::wait() | Flag::Retain);
  Graph g;
  ASSERT_TRUE(b.finish(g).ok());
  EXPECT_EQ(g, make_program_order(input_of(b)));
  ASSERT_EQ(g.self_loops.size(), 1u);
  Reducer r;
  Reduction red;
  ASSERT_TRUE(r.reduce(b, red).ok());
  EXPECT_EQ(red, reduce(g));
  EXPECT_EQ(red, reference::reduce(input_of(b)));
}

TEST(GraphBuilder, LabelledPartBeforeUnlabelledPartStillDemandsCompletion) {
  // 0 -> 2 as ORDERED then unlabelled: a C edge (SPEC §2), not implied by
  // the S path 0 -S-> 1 -> 2, so it stays; as ORDERED alone it would go.
  GraphBuilder b;
  b.clear();
  for (int i = 0; i < 3; ++i) b.add_node();
  b.add_edge(0, 1, Kind::Ordered);
  b.add_edge(1, 2);
  b.add_edge(0, 2, Kind::Ordered);
  Reducer r;
  Reduction red;
  ASSERT_TRUE(r.reduce(b, red).ok());
  ASSERT_EQ(red.removed.size(), 1u);
  b.add_edge(0, 2);
  ASSERT_TRUE(r.reduce(b, red).ok());
  EXPECT_TRUE(red.removed.empty());
  Graph g;
  ASSERT_TRUE(b.finish(g).ok());
  EXPECT_TRUE(g.edges[1].unlabelled_wait_part);
  EXPECT_EQ(red, reference::reduce(input_of(b)));
}

TEST(GraphBuilder, NamesAreKeptAndUsedInMessages) {
  GraphBuilder b;
  b.clear();
  b.add_node({}, "load");
  b.add_node();
  b.add_node({}, "store");
  b.add_edge(2, 0);
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::NotProgramOrder);
  EXPECT_EQ(s.index(), 0u);
  EXPECT_NE(s.message().find("'store' -> 'load'"), std::string::npos) << s.message();
  b.clear();
  b.add_node({}, "load");
  b.add_node();
  b.add_edge(0, 1);
  ASSERT_TRUE(b.finish(g).ok());
  EXPECT_EQ(g.nodes[0].name, "load");
  EXPECT_EQ(g.nodes[1].name, "1");
}

TEST(GraphBuilderErrors, TooManyEnginesIsBadArgument) {
  GraphBuilder b;
  b.clear(kMaxEngines + 1);
  b.add_node();
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::BadArgument);
  EXPECT_EQ(s.index(), 0u);
}

TEST(GraphBuilderErrors, EngineOutOfRangeNamesTheNode) {
  GraphBuilder b;
  b.clear(2);
  b.add_node({.engine = 1});
  b.add_node({.engine = 2});
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::EngineOutOfRange);
  EXPECT_EQ(s.index(), 1u);
}

TEST(GraphBuilderErrors, DuplicateNameNamesTheLaterNode) {
  GraphBuilder b;
  b.clear();
  b.add_node({}, "a");
  b.add_node({}, "b");
  b.add_node({}, "a");
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::DuplicateName);
  EXPECT_EQ(s.index(), 2u);
}

TEST(GraphBuilderErrors, GivenNameEqualToAnUnnamedNodesIdIsDuplicate) {
  GraphBuilder b;
  b.clear();
  b.add_node();          // named "0" in the Graph
  b.add_node({}, "0");
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::DuplicateName);
  EXPECT_EQ(s.index(), 1u);
}

TEST(GraphBuilderErrors, NodeOutOfRangeNamesTheEdge) {
  GraphBuilder b;
  b.clear();
  b.add_node();
  b.add_node();
  b.add_edge(0, 1);
  b.add_edge(1, 2);
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::NodeOutOfRange);
  EXPECT_EQ(s.index(), 1u);
}

TEST(GraphBuilderErrors, BackwardEdgeIsNotProgramOrder) {
  GraphBuilder b;
  b.clear();
  for (int i = 0; i < 3; ++i) b.add_node();
  b.add_edge(0, 1);
  b.add_edge(0, 2);
  b.add_edge(2, 1);
  Graph g;
  const Status s = b.finish(g);
  EXPECT_EQ(s.code(), ErrorCode::NotProgramOrder);
  EXPECT_EQ(s.index(), 2u);
  Reducer r;
  Reduction red;
  EXPECT_EQ(r.reduce(b, red).code(), ErrorCode::NotProgramOrder);
}

TEST(GraphBuilder, FinishRenumberedPutsNodesInProgramOrder) {
  GraphBuilder b;
  b.clear(1);
  b.add_node({.engine = 0});
  b.add_node({.engine = 0, .async_window = 1});
  b.add_node();
  b.add_edge(0, 1);
  b.add_edge(2, 1, Kind::Flow);
  b.add_edge(0, 2);
  Graph g;
  std::vector<NodeId> order;
  ASSERT_TRUE(b.finish_renumbered(g, &order).ok());
  EXPECT_EQ(g, make_program_order(input_of(b)));
  EXPECT_EQ(order, (std::vector<NodeId>{0, 2, 1}));
}

TEST(GraphBuilderErrors, CycleNamesItsNodesAndAnEdgeOnIt) {
  GraphBuilder b;
  b.clear();
  for (int i = 0; i < 4; ++i) b.add_node();
  b.add_edge(0, 1);
  b.add_edge(1, 2);
  b.add_edge(2, 3);
  b.add_edge(3, 1);
  Graph g;
  const Status s = b.finish_renumbered(g);
  EXPECT_EQ(s.code(), ErrorCode::Cycle);
  EXPECT_GE(s.index(), 1u);
  const BuilderEdge& e = b.edges()[s.index()];
  EXPECT_TRUE(e.dst == 1 || e.dst == 2 || e.dst == 3);
  for (const char* hop : {"1 -> 2", "2 -> 3", "3 -> 1"})
    EXPECT_NE(s.message().find(hop), std::string::npos) << s.message();
}

TEST(Reducer, EqualsReduceOnEngineGraphsBothSidesOfTheDenseThreshold) {
  Reducer r;
  GraphBuilder b;
  Reduction red;
  for (std::uint32_t n : {1u, 7u, 64u, 65u, 200u, 300u, Reducer::kDenseMaxNodes + 50}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      testing::EngineGraphParams p;
      p.nodes = n;
      p.engines = 1 + seed % 5;
      p.out_degree = 3;
      p.span = 20;
      const Graph g = testing::random_engine_graph(p, seed);
      const Reduction want = reduce(g);
      ASSERT_TRUE(r.reduce(g, red).ok());
      EXPECT_EQ(red, want) << "n=" << n << " seed=" << seed;
      fill(b, g);
      ASSERT_TRUE(r.reduce(b, red).ok());
      EXPECT_EQ(red, want) << "builder n=" << n << " seed=" << seed;
      for (KindFilter f : {KindFilter::reorder(), KindFilter::anti_dependence()}) {
        ASSERT_TRUE(r.reduce(g, red, {f}).ok());
        EXPECT_EQ(red, reduce(g, {f})) << "filtered n=" << n << " seed=" << seed;
      }
    }
  }
}

TEST(ReducerErrors, ReduceOfAGraphBreakingItsInvariantsIsBadArgument) {
  Graph g = graph_from_edges(3, {{0, 1}, {1, 2}});
  g.edges[1].src = 2;
  g.edges[1].dst = 1;
  Reducer r;
  Reduction red;
  const Status s = r.reduce(g, red);
  EXPECT_EQ(s.code(), ErrorCode::BadArgument);
  EXPECT_EQ(s.index(), 1u);
}

std::vector<std::uint8_t> keep_of(Reducer& r, std::uint32_t n, const std::vector<std::uint32_t>& src,
                                  const std::vector<std::uint32_t>& dst) {
  std::vector<std::uint8_t> keep(src.size(), 7);
  const Status s = r.reduce_edges(n, src, dst, keep);
  EXPECT_TRUE(s.ok()) << s.message();
  return keep;
}

TEST(ReduceEdges, TriangleDropsTheShortcut) {
  Reducer r;
  EXPECT_EQ(keep_of(r, 3, {0, 1, 0}, {1, 2, 2}), (std::vector<std::uint8_t>{1, 1, 0}));
}

TEST(ReduceEdges, FirstDuplicateCarriesTheVerdictLaterOnesGo) {
  Reducer r;
  EXPECT_EQ(keep_of(r, 3, {0, 0, 1, 0}, {1, 1, 2, 2}), (std::vector<std::uint8_t>{1, 0, 1, 0}));
  EXPECT_EQ(keep_of(r, 2, {0, 0}, {1, 1}), (std::vector<std::uint8_t>{1, 0}));
}

TEST(ReduceEdges, SelfLoopsAreKeptAndNoPath) {
  Reducer r;
  EXPECT_EQ(keep_of(r, 2, {1, 0, 0}, {1, 1, 0}), (std::vector<std::uint8_t>{1, 1, 1}));
}

TEST(ReduceEdges, BackwardIdsAreRenumberedAndAnswerInTheCallersIds) {
  Reducer r;
  // 3 -> 2 -> 1 -> 0 and the shortcut 3 -> 0.
  EXPECT_EQ(keep_of(r, 4, {3, 2, 1, 3}, {2, 1, 0, 0}), (std::vector<std::uint8_t>{1, 1, 1, 0}));
}

TEST(ReduceEdges, LargeGraphsTakeTheSweepAndAgree) {
  Reducer r;
  const std::uint32_t n = Reducer::kDenseMaxNodes + 100;
  const Graph g = testing::random_dag(n, 3, 30, 5);
  std::vector<std::uint32_t> src, dst;
  for (const Edge& e : g.edges) src.push_back(e.src), dst.push_back(e.dst);
  src.push_back(g.edges[0].src), dst.push_back(g.edges[0].dst); // a duplicate
  std::vector<std::uint8_t> keep(src.size());
  ASSERT_TRUE(r.reduce_edges(n, src, dst, keep).ok());
  const Reduction want = reduce(g);
  std::vector<std::uint8_t> expect(g.edges.size() + 1, 1);
  for (const RemovedEdge& e : want.removed) expect[e.edge] = 0;
  expect.back() = 0;
  EXPECT_EQ(keep, expect);
  EXPECT_FALSE(want.removed.empty());
}

TEST(ReduceEdgesErrors, LengthsDifferIsBadArgument) {
  Reducer r;
  std::vector<std::uint32_t> src{0}, dst{1};
  std::vector<std::uint8_t> keep(2);
  EXPECT_EQ(r.reduce_edges(2, src, dst, keep).code(), ErrorCode::BadArgument);
}

TEST(ReduceEdgesErrors, IdOutOfRangeNamesTheEdge) {
  Reducer r;
  std::vector<std::uint32_t> src{0, 1, 0}, dst{1, 5, 9};
  std::vector<std::uint8_t> keep(3);
  const Status s = r.reduce_edges(3, src, dst, keep);
  EXPECT_EQ(s.code(), ErrorCode::NodeOutOfRange);
  EXPECT_EQ(s.index(), 1u);
}

TEST(ReduceEdgesErrors, CycleNamesItsNodes) {
  Reducer r;
  std::vector<std::uint32_t> src{0, 2, 1}, dst{1, 1, 2};
  std::vector<std::uint8_t> keep(3);
  const Status s = r.reduce_edges(3, src, dst, keep);
  EXPECT_EQ(s.code(), ErrorCode::Cycle);
  EXPECT_TRUE(s.index() == 1 || s.index() == 2);
  for (const char* hop : {"1 -> 2", "2 -> 1"})
    EXPECT_NE(s.message().find(hop), std::string::npos) << s.message();
}

TEST(Reducer, SeparateReducersRunOnSeparateThreads) {
  auto work = [](std::uint64_t seed, bool* ok) {
    Reducer r;
    Reduction red;
    *ok = true;
    for (std::uint64_t k = 0; k < 50; ++k) {
      testing::EngineGraphParams p;
      p.nodes = 20 + static_cast<std::uint32_t>((seed * 31 + k) % 150);
      const Graph g = testing::random_engine_graph(p, seed * 1000 + k);
      *ok = *ok && r.reduce(g, red).ok() && red == reduce(g);
    }
  };
  bool ok1 = false, ok2 = false;
  std::thread t1(work, 1, &ok1), t2(work, 2, &ok2);
  t1.join();
  t2.join();
  EXPECT_TRUE(ok1);
  EXPECT_TRUE(ok2);
}

} // namespace
} // namespace depreduce
