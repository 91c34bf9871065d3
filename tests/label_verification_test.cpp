//===- label_verification_test.cpp - verifyAntiDependence, named cases -----===//
///
/// Each test writes an edge label by hand and the exact line the verifier
/// must print for it, worked out from the two nodes' accesses.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/testing/access_programs.hpp"

namespace depreduce {
namespace {

using testing::BuilderImpl;

Graph read(const std::string& text) { return make_program_order(formats::read_dot(text, "test.dot")); }

/// p writes sbuf and reads psum; c reads sbuf and writes psum: computed FLOW|ANTI.
const char* const kNodes = R"dot(
  p [writes="sbuf:[0,64)", reads="psum:[0,8)"];
  c [reads="sbuf:[0,64)", writes="psum:[0,8)"];
  q [reads="dram:[0,8)"];)dot";

class Labels : public ::testing::TestWithParam<BuilderImpl> {
protected:
  std::vector<std::string> lines(const std::string& edges) const {
    Graph g = read(std::string("digraph {") + kNodes + edges + "}");
    std::vector<std::string> out;
    for (const LabelMismatch& m : GetParam().verify_labels(g)) out.push_back(format_label_mismatch(g, m));
    return out;
  }
};

TEST_P(Labels, CorrectLabelIsClean) {
  EXPECT_TRUE(lines("p -> c [kind=\"flow|anti\"]").empty());
  EXPECT_TRUE(lines("p -> c [kind=\"anti|flow\"]").empty()); // order of the text does not matter
}

TEST_P(Labels, MissingKind) {
  EXPECT_EQ(lines("p -> c [kind=flow]"),
            (std::vector<std::string>{"Inconsistent dependence labeling on: p -> c computed: flow|anti labeled: flow"}));
}

TEST_P(Labels, ExtraKind) {
  EXPECT_EQ(lines("p -> c [kind=\"flow|anti|output\"]"),
            (std::vector<std::string>{
                "Inconsistent dependence labeling on: p -> c computed: flow|anti labeled: flow|anti|output"}));
}

TEST_P(Labels, SwappedKinds) {
  // FLOW written where the accesses give OUTPUT, and the other way round.
  Graph g = read(R"dot(digraph { a [writes="B:[0,4)"]; b [writes="B:[0,4)"]; c [reads="B:[0,4)"];
                             a -> b [kind=flow]; b -> c [kind=output] })dot");
  std::vector<std::string> out;
  for (const LabelMismatch& m : GetParam().verify_labels(g)) out.push_back(format_label_mismatch(g, m));
  EXPECT_EQ(out, (std::vector<std::string>{
                     "Inconsistent dependence labeling on: a -> b computed: output labeled: flow",
                     "Inconsistent dependence labeling on: b -> c computed: flow labeled: output"}));
}

TEST_P(Labels, LabelOnAPairThatDoesNotConflict) {
  EXPECT_EQ(lines("p -> q [kind=anti]"),
            (std::vector<std::string>{"Inconsistent dependence labeling on: p -> q computed: none labeled: anti"}));
}

TEST_P(Labels, OrderedIsIgnoredButAnOrderedOnlyEdgeIsChecked) {
  EXPECT_TRUE(lines("p -> c [kind=\"flow|anti|ordered\"]").empty());
  EXPECT_TRUE(lines("p -> q [kind=ordered]").empty()); // computed none, labelled none
  EXPECT_EQ(lines("p -> c [kind=ordered]"),
            (std::vector<std::string>{"Inconsistent dependence labeling on: p -> c computed: flow|anti labeled: none"}));
}

TEST_P(Labels, UnlabelledEdgesAreNotChecked) {
  EXPECT_TRUE(lines("p -> c; p -> q; c -> q").empty());
}

TEST_P(Labels, RetainOnlyEdgesAreCheckedToo) {
  EXPECT_EQ(lines("p -> c [kind=anti, flags=retain]"),
            (std::vector<std::string>{"Inconsistent dependence labeling on: p -> c computed: flow|anti labeled: anti"}));
}

TEST_P(Labels, SeveralMismatchesInEdgeOrder) {
  // Program order p, c, q. Reported by (src, dst): p->c, p->q, c->q.
  EXPECT_EQ(lines("c -> q [kind=output]; p -> q [kind=flow]; p -> c [kind=flow]"),
            (std::vector<std::string>{
                "Inconsistent dependence labeling on: p -> c computed: flow|anti labeled: flow",
                "Inconsistent dependence labeling on: p -> q computed: none labeled: flow",
                "Inconsistent dependence labeling on: c -> q computed: none labeled: output"}));
}

TEST_P(Labels, MismatchCarriesBothSets) {
  Graph g = read(std::string("digraph {") + kNodes + "p -> c [kind=output] }");
  auto found = GetParam().verify_labels(g);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].src, 0u);
  EXPECT_EQ(found[0].dst, 1u);
  EXPECT_EQ(found[0].computed, KindSet(Kind::Flow) | Kind::Anti);
  EXPECT_EQ(found[0].labeled, KindSet(Kind::Output));
}

TEST_P(Labels, BuiltGraphsVerifyClean) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Graph g = testing::random_access_program({.nodes = 25, .spaces = 2, .max_accesses = 3}, seed);
    Graph built = GetParam().build_dependences(g);
    EXPECT_TRUE(GetParam().verify_labels(built).empty()) << testing::describe(built);
  }
}

TEST(LabelFormat, IdsOutsideTheGraphDoNotThrow) {
  Graph g = read("digraph { a; b }");
  EXPECT_EQ(format_label_mismatch(g, {0, 99, KindSet(Kind::Flow), KindSet{}}),
            "Inconsistent dependence labeling on: a -> #99 computed: flow labeled: none");
}

INSTANTIATE_TEST_SUITE_P(Twins, Labels, ::testing::ValuesIn(testing::builder_impls()),
                         [](const auto& info) { return info.param.name; });

} // namespace
} // namespace depreduce
