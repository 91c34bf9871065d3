//===- race_check_test.cpp - Conflicting pairs must be completed-before ----===//
///
/// Named graphs whose verdict is worked out by hand from the accesses and the
/// happens-before of SPEC §3 (explicit C edges, implicit engine order, async
/// windows, barriers).
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/race_check.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/access_programs.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {
namespace {

using testing::BuilderImpl;

Graph read(const std::string& text) { return make_program_order(formats::read_dot(text, "test.dot")); }

const char* const kBuffer = R"dot(
  w0 [writes="B:[0,64)"]; r0 [reads="B:[0,64)"]; w1 [writes="B:[0,64)"]; r1 [reads="B:[0,64)"];)dot";

Graph without_edge(const Graph& g, const std::string& src, const std::string& dst) {
  Graph out = g;
  std::erase_if(out.edges, [&](const Edge& e) { return g.nodes[e.src].name == src && g.nodes[e.dst].name == dst; });
  EXPECT_EQ(out.edges.size() + 1, g.edges.size());
  return out;
}

class Races : public ::testing::TestWithParam<BuilderImpl> {
protected:
  std::vector<std::string> lines(const Graph& g) const {
    std::vector<std::string> out;
    for (const Race& r : GetParam().find_races(g)) out.push_back(format_race(g, r));
    EXPECT_EQ(out.empty(), reference::race_free_by_all_conflicts(g)) << testing::describe(g);
    return out;
  }
  std::vector<std::string> lines(const std::string& text) const { return lines(read(text)); }
};

TEST_P(Races, BuiltGraphIsRaceFree) {
  Graph built = GetParam().build_dependences(read(std::string("digraph {") + kBuffer + "}"));
  EXPECT_TRUE(lines(built).empty());
}

TEST_P(Races, OneEdgeDeletedIsRacy) {
  // The built graph is w0->r0 FLOW, w0->w1 OUTPUT, r0->w1 ANTI, w1->r1 FLOW.
  Graph built = GetParam().build_dependences(read(std::string("digraph {") + kBuffer + "}"));
  EXPECT_EQ(lines(without_edge(built, "w1", "r1")),
            (std::vector<std::string>{"Race on: w1 -> r1 computed: flow bytes: B:[0,64)"}));
  EXPECT_EQ(lines(without_edge(built, "r0", "w1")),
            (std::vector<std::string>{"Race on: r0 -> w1 computed: anti bytes: B:[0,64)"}));
  EXPECT_EQ(lines(without_edge(built, "w0", "r0")),
            (std::vector<std::string>{"Race on: w0 -> r0 computed: flow bytes: B:[0,64)"}));
  // w0 -> w1 is implied by w0 -> r0 -> w1: deleting it leaves no race.
  EXPECT_TRUE(lines(without_edge(built, "w0", "w1")).empty());
}

TEST_P(Races, RacyBytesAreOnlyTheConflictingOnes) {
  // a writes [0,64) and psum [0,8); b reads [32,96) and psum [4,5): no edge.
  EXPECT_EQ(lines(R"dot(digraph { a [writes="sbuf:[0,64),psum:[0,8)"]; b [reads="sbuf:[32,96),psum:[4,5)"] })dot"),
            (std::vector<std::string>{"Race on: a -> b computed: flow bytes: psum:[4,5),sbuf:[32,64)"}));
}

TEST_P(Races, PartialOverlapRacesTouchingDoesNot) {
  EXPECT_EQ(lines(R"dot(digraph { a [writes="sbuf:[0,64)"]; b [reads="sbuf:[63,65)"] })dot").size(), 1u);
  EXPECT_TRUE(lines(R"dot(digraph { a [writes="sbuf:[0,64)"]; b [writes="sbuf:[64,128)"] })dot").empty());
}

TEST_P(Races, ReadersNeverRaceWithEachOther) {
  EXPECT_TRUE(lines(R"dot(digraph { a [reads="sbuf:[0,64)"]; b [reads="sbuf:[0,64)"] })dot").empty());
}

TEST_P(Races, TransitivePathOrders) {
  // a -> m -> b orders a before b; m touches nothing.
  EXPECT_TRUE(lines(R"dot(digraph { a [writes="B:[0,4)"]; m; b [reads="B:[0,4)"]; a -> m; m -> b })dot").empty());
}

TEST_P(Races, ImplicitEngineOrder) {
  // Same engine, synchronous: a C b through the engine order, no edge needed.
  EXPECT_TRUE(lines(R"dot(digraph { a [engine=0, writes="B:[0,4)"]; b [engine=0, reads="B:[0,4)"] })dot").empty());
  // a asynchronous with window 2: its slot is reused two positions later, so
  // b (next) is only issued after a, not completed after it: a race.
  EXPECT_EQ(lines(R"dot(digraph { a [engine=0, async=2, writes="B:[0,4)"]; b [engine=0, reads="B:[0,4)"] })dot"),
            (std::vector<std::string>{"Race on: a -> b computed: flow bytes: B:[0,4)"}));
  // ...two positions later it is completed: no race with c.
  EXPECT_EQ(lines(R"dot(digraph { a [engine=0, async=2, writes="B:[0,4)"]; x [engine=0]; c [engine=0, reads="B:[0,4)"] })dot")
                .size(),
            0u);
  // A barrier waits for everything earlier on its engine.
  EXPECT_TRUE(
      lines(R"dot(digraph { a [engine=0, async=inf, writes="B:[0,4)"]; b [engine=0, barrier=true, reads="B:[0,4)"] })dot")
          .empty());
  // Different engines, no edge: a race.
  EXPECT_EQ(lines(R"dot(digraph { a [engine=0, writes="B:[0,4)"]; b [engine=1, reads="B:[0,4)"] })dot").size(), 1u);
}

TEST_P(Races, IssueOrderIsNotEnough) {
  // An ORDERED-only edge is an S edge (start -> start): b may start before a ends.
  EXPECT_EQ(lines(R"dot(digraph { a [writes="B:[0,4)"]; b [reads="B:[0,4)"]; a -> b [kind=ordered] })dot").size(), 1u);
  // A RETAIN-only edge orders nothing.
  EXPECT_EQ(lines(R"dot(digraph { a [writes="B:[0,4)"]; b [reads="B:[0,4)"]; a -> b [kind=flow, flags=retain] })dot").size(),
            1u);
  // An unlabelled WAIT edge is a C edge.
  EXPECT_TRUE(lines(R"dot(digraph { a [writes="B:[0,4)"]; b [reads="B:[0,4)"]; a -> b })dot").empty());
}

TEST_P(Races, ReductionOfARaceFreeGraphIsRaceFree) {
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    Graph built = GetParam().build_dependences(
        testing::random_access_program({.nodes = 30, .spaces = 2, .engines = 3}, seed));
    for (KindFilter f : {KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence()}) {
      Graph reduced = apply(built, depreduce::reduce(built, {f}, nullptr));
      EXPECT_TRUE(GetParam().find_races(reduced).empty()) << testing::describe(reduced);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Twins, Races, ::testing::ValuesIn(testing::builder_impls()),
                         [](const auto& info) { return info.param.name; });

} // namespace
} // namespace depreduce
