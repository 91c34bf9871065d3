//===- scheduling_units_test.cpp - expand_scheduling_units, named cases ----===//
///
/// DOT clusters are scheduling units. Expected names and orders are worked
/// out by hand from the DOT text: program order = order of first mention
/// (no edge contradicts it unless the test says so).
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/scheduling_units.hpp"
#include "depreduce/testing/access_programs.hpp"

namespace depreduce {
namespace {

using testing::BuilderImpl;

Graph read(const std::string& text) { return make_program_order(formats::read_dot(text, "test.dot")); }

std::vector<std::string> names(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& v : g.nodes) out.push_back(v.name);
  return out;
}

using NamedEdge = std::tuple<std::string, std::string, std::string>;
std::set<NamedEdge> edges(const Graph& g) {
  std::set<NamedEdge> out;
  for (const Edge& e : g.edges) out.emplace(g.nodes[e.src].name, g.nodes[e.dst].name, to_string(e.kinds));
  return out;
}

class Units : public ::testing::TestWithParam<BuilderImpl> {
protected:
  Graph expand(const Graph& g, std::vector<std::string>* warnings = nullptr) const {
    return GetParam().expand_scheduling_units(g, warnings);
  }
};

TEST_P(Units, NestedThreeDeepExpandInOrder) {
  Graph g = read(R"dot(digraph {
    subgraph cluster_outer {
      a;
      subgraph cluster_mid {
        b;
        subgraph cluster_inner { c; d }
        e;
      }
      f;
    }
    g;
    a -> b [kind=flow]; d -> e [kind=anti]; e -> f; f -> g [kind=output] })dot");
  std::vector<std::string> warnings;
  Graph out = expand(g, &warnings);
  EXPECT_EQ(names(out), (std::vector<std::string>{"outer/a", "outer/mid/b", "outer/mid/inner/c", "outer/mid/inner/d",
                                                  "outer/mid/e", "outer/f", "g"}));
  EXPECT_EQ(edges(out), (std::set<NamedEdge>{{"outer/a", "outer/mid/b", "flow"},
                                             {"outer/mid/inner/d", "outer/mid/e", "anti"},
                                             {"outer/mid/e", "outer/f", ""},
                                             {"outer/f", "g", "output"}}));
  EXPECT_TRUE(out.subgraphs.empty());
  EXPECT_TRUE(warnings.empty());
  for (NodeId v = 0; v < out.nodes.size(); ++v) EXPECT_EQ(out.nodes[v].input_index, v);
}

TEST_P(Units, EdgesKeepEveryField) {
  Graph g = read(R"dot(digraph { subgraph cluster_u { a; b } c;
    a -> b [kind="flow|anti", flags="wait|retain", color=red, label=RAW]; b -> c [flags=retain]; c -> c })dot");
  Graph out = expand(g);
  ASSERT_EQ(out.edges.size(), g.edges.size());
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    Edge expected = g.edges[i]; // program order is unchanged here, so are the ids
    EXPECT_EQ(out.edges[i], expected);
  }
  EXPECT_EQ(out.self_loops, g.self_loops);
  EXPECT_EQ(names(out), (std::vector<std::string>{"u/a", "u/b", "c"}));
}

TEST_P(Units, NodeFieldsKept) {
  Graph g = read(R"dot(digraph { subgraph cluster_u { a [engine=1, async=2, reads="sbuf:[0,4)", color=blue] } })dot");
  Graph out = expand(g);
  Node expected = g.nodes[0];
  expected.name = "u/a";
  EXPECT_EQ(out.nodes[0], expected);
}

TEST_P(Units, UnitNames) {
  Graph g = read(R"dot(digraph {
    subgraph clusterA { a } subgraph cluster_ { b } subgraph cluster { c } subgraph cluster__x { d } })dot");
  EXPECT_EQ(names(expand(g)), (std::vector<std::string>{"A/a", "cluster_/b", "cluster/c", "_x/d"}));
}

TEST_P(Units, SameUnitNameUnderDifferentParents) {
  Graph g = read(R"dot(digraph {
    subgraph cluster_p { subgraph cluster_a { x } } subgraph cluster_q { subgraph cluster_a { y } } })dot");
  EXPECT_EQ(names(expand(g)), (std::vector<std::string>{"p/a/x", "q/a/y"}));
}

TEST_P(Units, GeneratedNamesStayUnique) {
  // A top-level node already called "a/x" keeps its name; the leaf x of unit
  // a gets "a/x#2". Unit "a" with leaf "b/y" and unit "a/b" with leaf "y"
  // both generate "a/b/y": the later one in depth-first order gets "#2".
  Graph g = read(R"dot(digraph {
    "a/x";
    subgraph cluster_a { x; "b/y" }
    subgraph "cluster_a/b" { y } })dot");
  EXPECT_EQ(names(expand(g)), (std::vector<std::string>{"a/x", "a/x#2", "a/b/y", "a/b/y#2"}));
}

TEST_P(Units, InterleavedUnitIsSplicedAtItsFirstLeaf) {
  // Program order x, y, z with x and z in unit u: u sits where x is, so the
  // depth-first order is u/x, u/z, y.
  Graph g = read(R"dot(digraph { x; y; z; subgraph cluster_u { x; z } })dot");
  std::vector<std::string> warnings;
  Graph out = expand(g, &warnings);
  EXPECT_EQ(names(out), (std::vector<std::string>{"u/x", "u/z", "y"}));
  EXPECT_EQ(out.nodes[2].input_index, 2u);
  EXPECT_TRUE(warnings.empty());
}

TEST_P(Units, EdgesWinOverTheDepthFirstOrder) {
  // As above with y -> z: z cannot precede y. Program order follows the edge
  // (u/x, y, u/z), input_index keeps the depth-first position, one warning.
  Graph g = read(R"dot(digraph { x; y; z; subgraph cluster_u { x; z } y -> z })dot");
  std::vector<std::string> warnings;
  Graph out = expand(g, &warnings);
  EXPECT_EQ(names(out), (std::vector<std::string>{"u/x", "y", "u/z"}));
  EXPECT_EQ(out.nodes[1].input_index, 2u);
  EXPECT_EQ(out.nodes[2].input_index, 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'z' before 'y'"), std::string::npos) << warnings[0];
  EXPECT_EQ(edges(out), (std::set<NamedEdge>{{"y", "u/z", ""}}));
}

TEST_P(Units, EnginePositionsFollowTheNewOrder) {
  Graph g = read(R"dot(digraph { x [engine=0]; y [engine=0]; z [engine=0]; subgraph cluster_u { x; z } })dot");
  Graph out = expand(g);
  ASSERT_EQ(names(out), (std::vector<std::string>{"u/x", "u/z", "y"}));
  EXPECT_EQ(out.nodes[0].engine_position, 0u);
  EXPECT_EQ(out.nodes[1].engine_position, 1u);
  EXPECT_EQ(out.nodes[2].engine_position, 2u);
}

TEST_P(Units, LayoutSubgraphsSurvive) {
  // {rank=same; a; c} is layout, not a unit: it stays, with a renamed. The
  // cluster inside subgraph s is dissolved into s.
  Graph g = read(R"dot(digraph {
    subgraph cluster_u { a; b }
    { rank=same; a; c }
    subgraph s { subgraph cluster_v { d } e } })dot");
  Graph out = expand(g);
  EXPECT_EQ(names(out), (std::vector<std::string>{"u/a", "u/b", "c", "v/d", "e"}));
  ASSERT_EQ(out.subgraphs.size(), 2u);
  EXPECT_EQ(out.subgraphs[0].name, "");
  EXPECT_EQ(out.subgraphs[0].nodes, (std::vector<NodeId>{0, 2}));
  EXPECT_EQ(out.subgraphs[1].name, "s");
  EXPECT_EQ(out.subgraphs[1].nodes, (std::vector<NodeId>{3, 4}));
  EXPECT_TRUE(out.subgraphs[1].children.empty());
  // And write_dot/read_dot keep all of it.
  Graph again = read(formats::write_dot(out));
  EXPECT_EQ(names(again), names(out));
  EXPECT_EQ(again.subgraphs, out.subgraphs);
}

TEST_P(Units, LayoutSubgraphInsideAUnitIsHoisted) {
  Graph g = read(R"dot(digraph { subgraph cluster_u { a; subgraph { rank=same; b; c } } })dot");
  Graph out = expand(g);
  EXPECT_EQ(names(out), (std::vector<std::string>{"u/a", "u/b", "u/c"}));
  ASSERT_EQ(out.subgraphs.size(), 1u);
  EXPECT_EQ(out.subgraphs[0].nodes, (std::vector<NodeId>{1, 2}));
}

TEST_P(Units, EmptyUnitsDisappear) {
  Graph g = read(R"dot(digraph { a; subgraph cluster_e { } subgraph cluster_f { subgraph cluster_g { } } })dot");
  Graph out = expand(g);
  EXPECT_EQ(names(out), (std::vector<std::string>{"a"}));
  EXPECT_TRUE(out.subgraphs.empty());
}

TEST_P(Units, NoUnitsChangesNothingButInputIndex) {
  Graph g = read(R"dot(digraph { a -> b; c; b -> c [kind=flow] })dot");
  Graph out = expand(g);
  EXPECT_EQ(out, g);
}

TEST_P(Units, NodeInTwoUnitsIsAnError) {
  Graph g = read("digraph {\n subgraph cluster_a { x }\n subgraph cluster_b { x }\n}");
  try {
    expand(g);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "test.dot");
    EXPECT_EQ(e.line(), 2u);
    EXPECT_NE(e.problem().find("node 'x' is in two scheduling units"), std::string::npos) << e.what();
  }
}

TEST_P(Units, NodeInAUnitAndInAnEnclosingOneIsFine) {
  // cgraph lists x under cluster_b only (it is in the child); the extra
  // mention in a layout block at top level names no unit.
  Graph g = read(R"dot(digraph { subgraph cluster_a { subgraph cluster_b { x } } { rank=same; x } })dot");
  EXPECT_EQ(names(expand(g)), (std::vector<std::string>{"a/b/x"}));
}

INSTANTIATE_TEST_SUITE_P(Twins, Units, ::testing::ValuesIn(testing::builder_impls()),
                         [](const auto& info) { return info.param.name; });

TEST(UnitHelpers, IsSchedulingUnit) {
  Subgraph s;
  s.name = "cluster_x";
  EXPECT_TRUE(is_scheduling_unit(s));
  s.name = "Cluster_x";
  EXPECT_FALSE(is_scheduling_unit(s));
  s.name = "";
  EXPECT_FALSE(is_scheduling_unit(s));
}

} // namespace
} // namespace depreduce
