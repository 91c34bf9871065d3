//===- dependence_builder_test.cpp - Named cases of SPEC §5's builder ------===//
///
/// Every expected edge below is worked out by hand from the accesses written
/// in the test; both twins (optimized, reference) must produce it.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>
#include <tuple>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/access_programs.hpp"
#include "depreduce/workloads/workloads.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {
namespace {

using testing::BuilderImpl;

Graph read(const std::string& text) { return make_program_order(formats::read_dot(text, "test.dot")); }

/// (src name, dst name, kinds text)
using Named = std::tuple<std::string, std::string, std::string>;

std::set<Named> named(const Graph& g, const std::vector<Dependence>& deps) {
  std::set<Named> out;
  for (const Dependence& d : deps) out.emplace(g.nodes[d.src].name, g.nodes[d.dst].name, to_string(d.kinds));
  return out;
}

std::set<Named> named_edges(const Graph& g) {
  std::set<Named> out;
  for (const Edge& e : g.edges) out.emplace(g.nodes[e.src].name, g.nodes[e.dst].name, to_string(e.kinds));
  return out;
}

const Dependence* find(const Graph& g, const std::vector<Dependence>& deps, const std::string& p, const std::string& c) {
  for (const Dependence& d : deps)
    if (g.nodes[d.src].name == p && g.nodes[d.dst].name == c) return &d;
  return nullptr;
}

class Builder : public ::testing::TestWithParam<BuilderImpl> {
protected:
  std::vector<Dependence> kinds(const Graph& g, bool bytes = false) const {
    return GetParam().computed_kinds(g, DependenceOptions{bytes});
  }
  Graph build(const Graph& g) const { return GetParam().build_dependences(g); }
};

TEST_P(Builder, OneBufferWriteReadWriteRead) {
  // w0: write B; r0: read B; w1: write B; r1: read B.
  // w0 -> r0 FLOW (r0 reads what w0 wrote), r0 -> w1 ANTI (w1 overwrites what
  // r0 read), w0 -> w1 OUTPUT, w1 -> r1 FLOW. Not w0 -> r1 (w1 writes in
  // between), not r0 -> r1 (two reads).
  Graph g = read(R"dot(digraph {
    w0 [writes="B:[0,64)"]; r0 [reads="B:[0,64)"]; w1 [writes="B:[0,64)"]; r1 [reads="B:[0,64)"] })dot");
  Graph built = build(g);
  const std::set<Named> expected = {
      {"w0", "r0", "flow"}, {"w0", "w1", "output"}, {"r0", "w1", "anti"}, {"w1", "r1", "flow"}};
  EXPECT_EQ(named_edges(built), expected);
  for (const Edge& e : built.edges) EXPECT_EQ(e.flags, FlagSet::wait());

  // The reduction removes w0 -> w1: implied by w0 -> r0 -> w1 (C;C = C).
  for (auto* reducer : {&depreduce::reduce, &depreduce::reference::reduce}) {
    Reduction r = reducer(built, {}, nullptr);
    ASSERT_EQ(r.removed.size(), 1u);
    EXPECT_EQ(built.nodes[r.removed[0].src].name, "w0");
    EXPECT_EQ(built.nodes[r.removed[0].dst].name, "w1");
    EXPECT_EQ(r.removed[0].kinds, KindSet(Kind::Output));
    // The anti/output reduction alone (walrus applyAntiDependenceReduction) removes it too.
    EXPECT_EQ(reducer(built, {KindFilter::anti_dependence()}, nullptr).removed.size(), 1u);
  }
}

TEST_P(Builder, PartiallyOverlappingRangesConflict) {
  // [0,64) and [63,65) share byte 63.
  Graph g = read(R"dot(digraph { a [writes="sbuf:[0,64)"]; b [reads="sbuf:[63,65)"] })dot");
  auto deps = kinds(g, true);
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(named(g, deps), (std::set<Named>{{"a", "b", "flow"}}));
  EXPECT_EQ(deps[0].bytes, (std::vector<ByteRange>{{"sbuf", 63, 64}}));
}

TEST_P(Builder, TouchingRangesDoNotConflict) {
  // [0,64) and [64,128) touch at 64, which only the second contains.
  Graph g = read(R"dot(digraph {
    a [writes="sbuf:[0,64)"]; b [writes="sbuf:[64,128)"]; c [reads="sbuf:[64,128)"]; d [writes="sbuf:[0,64)"] })dot");
  // c reads b's bytes only; d overwrites a's bytes, which nobody read.
  EXPECT_EQ(named(g, kinds(g)), (std::set<Named>{{"b", "c", "flow"}, {"a", "d", "output"}}));
}

TEST_P(Builder, SpacesAreSeparate) {
  Graph g = read(R"dot(digraph { a [writes="sbuf:[0,64)"]; b [reads="psum:[0,64)", writes="dram:[0,64)"] })dot");
  EXPECT_TRUE(kinds(g).empty());
}

TEST_P(Builder, EmptyRangesTouchNothing) {
  Graph g = read(R"dot(digraph { a [writes="sbuf:[5,5)"]; b [reads="sbuf:[0,64)", writes="sbuf:[5,5)"] })dot");
  EXPECT_TRUE(kinds(g).empty());
}

TEST_P(Builder, ReadModifyWriteIsAReaderSinceItsOwnWrite) {
  // m0 writes P; m1 and m2 accumulate into P (read and write it).
  // m0 -> m1: FLOW (m1 reads m0's P) | OUTPUT. m1 -> m2: FLOW | OUTPUT and
  // ANTI (m1 read P, m2 writes it, nobody wrote P strictly between).
  // m0 -> m2: nothing (m1 wrote P in between).
  Graph g = read(R"dot(digraph {
    m0 [writes="psum:[0,2048)"];
    m1 [reads="psum:[0,2048)", writes="psum:[0,2048)"];
    m2 [reads="psum:[0,2048)", writes="psum:[0,2048)"] })dot");
  EXPECT_EQ(named(g, kinds(g)), (std::set<Named>{{"m0", "m1", "flow|output"}, {"m1", "m2", "flow|anti|output"}}));
}

TEST_P(Builder, EveryReaderSinceTheLastWriteGetsAnti) {
  // w writes [0,16); r1 reads [0,8); r2 reads [8,16); w2 writes [0,16).
  Graph g = read(R"dot(digraph {
    w [writes="sbuf:[0,16)"]; r1 [reads="sbuf:[0,8)"]; r2 [reads="sbuf:[8,16)"]; w2 [writes="sbuf:[0,16)"] })dot");
  auto deps = kinds(g, true);
  EXPECT_EQ(named(g, deps), (std::set<Named>{{"w", "r1", "flow"},
                                             {"w", "r2", "flow"},
                                             {"w", "w2", "output"},
                                             {"r1", "w2", "anti"},
                                             {"r2", "w2", "anti"}}));
  EXPECT_EQ(find(g, deps, "r1", "w2")->bytes, (std::vector<ByteRange>{{"sbuf", 0, 8}}));
  EXPECT_EQ(find(g, deps, "r2", "w2")->bytes, (std::vector<ByteRange>{{"sbuf", 8, 16}}));
  EXPECT_EQ(find(g, deps, "w", "w2")->bytes, (std::vector<ByteRange>{{"sbuf", 0, 16}}));
}

TEST_P(Builder, PartialOverwriteShadowsOnlyItsBytes) {
  // w0 writes [0,64); w1 writes [16,32); r reads [0,64): r sees w0 on
  // [0,16) and [32,64), w1 on [16,32).
  Graph g = read(R"dot(digraph { w0 [writes="sbuf:[0,64)"]; w1 [writes="sbuf:[16,32)"]; r [reads="sbuf:[0,64)"] })dot");
  auto deps = kinds(g, true);
  EXPECT_EQ(named(g, deps), (std::set<Named>{{"w0", "w1", "output"}, {"w0", "r", "flow"}, {"w1", "r", "flow"}}));
  EXPECT_EQ(find(g, deps, "w0", "r")->bytes, (std::vector<ByteRange>{{"sbuf", 0, 16}, {"sbuf", 32, 64}}));
  EXPECT_EQ(find(g, deps, "w1", "r")->bytes, (std::vector<ByteRange>{{"sbuf", 16, 32}}));
  EXPECT_EQ(find(g, deps, "w0", "w1")->bytes, (std::vector<ByteRange>{{"sbuf", 16, 32}}));
}

TEST_P(Builder, KindsOfOnePairAreOred) {
  // p writes sbuf, reads psum; c reads sbuf, writes psum: FLOW | ANTI.
  // The bytes: one range per space, sorted by space name.
  Graph g = read(R"dot(digraph {
    p [writes="sbuf:[0,8)", reads="psum:[0,8)"]; c [reads="sbuf:[4,12)", writes="psum:[0,8)"] })dot");
  auto deps = kinds(g, true);
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0].kinds, KindSet(Kind::Flow) | Kind::Anti);
  EXPECT_EQ(deps[0].bytes, (std::vector<ByteRange>{{"psum", 0, 8}, {"sbuf", 4, 8}}));
}

TEST_P(Builder, SeveralRangesOfOneNode) {
  // a writes two ranges that overlap each other; b reads across both.
  Graph g = read(R"dot(digraph { a [writes="sbuf:[0,10),sbuf:[5,20)"]; b [reads="sbuf:[8,30)"] })dot");
  auto deps = kinds(g, true);
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0].kinds, KindSet(Kind::Flow));
  EXPECT_EQ(deps[0].bytes, (std::vector<ByteRange>{{"sbuf", 8, 20}}));
}

TEST_P(Builder, TopOfTheAddressSpace) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  Graph g = read("digraph { a [writes=\"dram:[" + std::to_string(kMax - 16) + "," + std::to_string(kMax) +
                 ")\"]; b [reads=\"dram:[" + std::to_string(kMax - 2) + "," + std::to_string(kMax) +
                 ")\"]; c [reads=\"dram:[0," + std::to_string(kMax - 16) + ")\"] }");
  auto deps = kinds(g, true);
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(named(g, deps), (std::set<Named>{{"a", "b", "flow"}}));
  EXPECT_EQ(deps[0].bytes, (std::vector<ByteRange>{{"dram", kMax - 2, kMax}}));
}

TEST_P(Builder, ExistingEdgesAreReplaced) {
  // The input's edges (an unrelated ordered edge, a wrong label, a self-loop)
  // are thrown away; the input's program order (b before a, from b -> a) stays.
  Graph g = read(R"dot(digraph {
    a [writes="sbuf:[0,8)"]; b [reads="sbuf:[0,8)"]; c;
    b -> a [kind=ordered]; a -> c [kind=anti, color=red]; c -> c })dot");
  ASSERT_EQ(g.nodes[0].name, "b");
  Graph built = build(g);
  // b comes first in program order: a overwrites what b read.
  EXPECT_EQ(named_edges(built), (std::set<Named>{{"b", "a", "anti"}}));
  EXPECT_TRUE(built.self_loops.empty());
  EXPECT_TRUE(built.edges[0].attrs.empty());
  EXPECT_EQ(built.nodes, g.nodes);
  EXPECT_EQ(built.name, g.name);
}

TEST_P(Builder, BuiltGraphRoundTripsThroughDot) {
  Graph g = testing::random_access_program({.nodes = 30, .spaces = 3}, 7);
  Graph built = build(g);
  ASSERT_FALSE(built.edges.empty());
  Graph again = read(formats::write_dot(built));
  EXPECT_EQ(named_edges(again), named_edges(built));
  EXPECT_EQ(named(again, kinds(again)), named_edges(built));
}

TEST_P(Builder, WorkloadRebuildMatchesItsHazardEdges) {
  // generate_workload derives its edges from the same hazards, per whole tile,
  // including read-modify-write accumulations (a matmul that reads and writes
  // its PSUM tile stays a reader of it, so the next accumulation gets
  // OUTPUT|ANTI|FLOW): rebuilding from the accesses gives the same edges.
  for (auto kind : {workloads::Workload::TiledMatmul, workloads::Workload::Attention}) {
    Graph w = workloads::generate_workload(kind, 400, 1);
    Graph built = build(testing::without_edges(w));
    ASSERT_EQ(built.edges.size(), w.edges.size());
    for (std::size_t i = 0; i < w.edges.size(); ++i) {
      ASSERT_EQ(built.edges[i].src, w.edges[i].src);
      ASSERT_EQ(built.edges[i].dst, w.edges[i].dst);
      EXPECT_EQ(built.edges[i].kinds, w.edges[i].kinds)
          << w.nodes[w.edges[i].src].name << " -> " << w.nodes[w.edges[i].dst].name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Twins, Builder, ::testing::ValuesIn(testing::builder_impls()),
                         [](const auto& info) { return info.param.name; });

TEST(BuilderHelpers, CanonicalRanges) {
  EXPECT_EQ(canonical_ranges({{"b", 4, 8}, {"a", 0, 0}, {"b", 0, 4}, {"a", 3, 9}, {"b", 10, 12}}),
            (std::vector<ByteRange>{{"a", 3, 9}, {"b", 0, 8}, {"b", 10, 12}}));
  EXPECT_EQ(to_string(std::vector<ByteRange>{{"sbuf", 0, 64}, {"psum", 1, 2}}), "sbuf:[0,64),psum:[1,2)");
  EXPECT_EQ(to_string(std::vector<ByteRange>{}), "");
}

} // namespace
} // namespace depreduce
