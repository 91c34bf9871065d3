//===- equiv_cli_test.cpp - equiv, --cycles, --json, stdin ---------------===//
///
/// Runs the built `depreduce` binary: `equiv` exit codes and messages,
/// `reduce --cycles condense`, the `reduce --json` removed list with witnesses
/// of kept edges, `explain` preferring kept edges, `-` as stdin everywhere.
//===----------------------------------------------------------------------===//
#include <nlohmann/json.hpp>

#include <string>

#include "depreduce/testing/cli_runner.hpp"

namespace {

using depreduce::testing::CliRun;
using depreduce::testing::slurp;

CliRun run(const std::string& args) { return depreduce::testing::run_cli(args); }

class EquivCli : public depreduce::testing::TempDirTest {};

TEST_F(EquivCli, EquivSameRelationsExitsZero) {
  std::string a = write("a.dot", "digraph { a -> b; b -> c; a -> c }");
  std::string b = write("b.dot", "digraph { a -> b; b -> c }");
  CliRun r = run("equiv " + a + " " + b);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("same completed-before and issued-before relations"), std::string::npos) << r.out;
}

// Different node names are bad input (exit 2) with --cycles condense too,
// not a difference in the cycles.
TEST_F(EquivCli, DifferentNodeNamesAreBadInputWhenCondensingToo) {
  std::string a = write("a.dot", "digraph { a -> b; b -> c; a -> c }");
  std::string z = write("z.dot", "digraph { a -> b; b -> a; a -> z }");
  CliRun r = run("equiv " + a + " " + z + " --cycles condense");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no node named 'c'"), std::string::npos) << r.out;
}

TEST_F(EquivCli, EquivDifferenceNamesRelationDirectionAndPath) {
  std::string a = write("a.dot", "digraph { a -> b; b -> c }");
  std::string b = write("b.dot", "digraph { a -> b; b -> c [kind=ordered] }");
  CliRun r = run("equiv " + a + " " + b);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("b -> c: completed-before in " + a + ", not in " + b), std::string::npos) << r.out;
  // Hops are separated by "; ", with none after the last.
  EXPECT_NE(r.out.find("path in " + a + ": b -> c [edge, completed-before]\n"), std::string::npos) << r.out;
  // The other way round: b has nothing a lacks for that pair (S is in a too).
  CliRun back = run("equiv " + b + " " + a);
  EXPECT_EQ(back.code, 1);
  EXPECT_NE(back.out.find("b -> c: completed-before in " + a), std::string::npos) << back.out;
}

TEST_F(EquivCli, EquivImplicitEngineOrderCounts) {
  // Same explicit edges; the engine makes a C b implicit in one graph only.
  std::string a = write("a.dot", "digraph { a [engine=0]; b [engine=0]; c; a -> c }");
  std::string b = write("b.dot", "digraph { a [engine=0]; b [engine=1]; c; a -> c }");
  CliRun r = run("equiv " + a + " " + b);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("a -> b: completed-before in " + a), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[engine order, completed-before]"), std::string::npos) << r.out;
}

TEST_F(EquivCli, EquivShowsFirstFewAndCountsTheRest) {
  std::string a = write("a.dot", "digraph { a1 -> b1; a2 -> b2; a3 -> b3; a4 -> b4 }");
  std::string b = write("b.dot", "digraph { a1; b1; a2; b2; a3; b3; a4; b4 }");
  CliRun r = run("equiv " + a + " " + b + " --show 2");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("differ: 4 pair(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("... and 2 more"), std::string::npos) << r.out;
  CliRun ref = run("equiv " + a + " " + b + " --impl reference");
  EXPECT_EQ(ref.code, 1) << ref.out;
}

// --kinds means for equiv what it means for reduce (SPEC §4): the
// edges outside K always count as paths. So dropping the anti edge b -> c is
// a difference under --kinds flow too (leaving it out would exit 0).
TEST_F(EquivCli, EquivKindsCountsEdgesOutsideKAsPaths) {
  std::string a = write("a.dot", "digraph { a -> b [kind=flow]; b -> c [kind=anti] }");
  std::string b = write("b.dot", "digraph { a -> b [kind=flow]; b; c }");
  EXPECT_EQ(run("equiv " + a + " " + b).code, 1);
  CliRun r = run("equiv " + a + " " + b + " --kinds flow");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("b -> c: completed-before in " + a + ", not in " + b), std::string::npos) << r.out;
}

// reduce --kinds flow drops a -> c through the anti edge
// a -> b, and equiv --kinds flow of the graph and that result says equivalent.
TEST_F(EquivCli, EquivKindsAgreesWithReduceKinds) {
  std::string g = write("g.dot", "digraph { a -> b [kind=anti]; b -> c [kind=flow]; a -> c [kind=flow] }");
  std::string r = path("r.dot");
  CliRun red = run("reduce " + g + " --kinds flow -o " + r);
  ASSERT_EQ(red.code, 0) << red.out;
  const std::string reduced = slurp(r);
  EXPECT_EQ(reduced.find("\"a\" -> \"c\""), std::string::npos) << reduced; // the reduction did remove it
  EXPECT_NE(reduced.find("\"a\" -> \"b\""), std::string::npos) << reduced;
  for (const char* impl : {"optimized", "reference"}) {
    CliRun eq = run("equiv " + g + " " + r + " --kinds flow --impl " + impl);
    EXPECT_EQ(eq.code, 0) << impl << ": " << eq.out;
    EXPECT_NE(eq.out.find("same completed-before and issued-before relations"), std::string::npos) << eq.out;
  }
}

TEST_F(EquivCli, EquivBadInputExitsTwo) {
  std::string a = write("a.dot", "digraph { a -> b }");
  std::string b = write("b.dot", "digraph { a -> x }");
  CliRun r = run("equiv " + a + " " + b);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no node named 'b'"), std::string::npos) << r.out;
  std::string bad = write("bad.dot", "digraph { a -> }");
  CliRun r2 = run("equiv " + a + " " + bad);
  EXPECT_EQ(r2.code, 2) << r2.out;
  EXPECT_NE(r2.out.find(bad + ":1: "), std::string::npos) << r2.out;
  EXPECT_EQ(run("equiv - -").code, 64);
}

TEST_F(EquivCli, StdinAndStdoutEverywhere) {
  std::string g = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  CliRun r = run("reduce - -o - < " + g);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("\"a\" -> \"c\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"b\" -> \"c\""), std::string::npos) << r.out;
  EXPECT_EQ(run("explain - a c < " + g).code, 0);
  EXPECT_EQ(run("equiv - " + g + " < " + g).code, 0);
  EXPECT_EQ(run("convert - --to edges < " + g).out, "a\tb\na\tc\nb\tc\n");
  // Sniffed: an STG file on stdin.
  std::string stg = write("t.stg", "1\n0 0 0\n1 1 1 0\n2 0 1 1\n");
  CliRun s = run("reduce - --stats < " + stg);
  EXPECT_EQ(s.code, 0) << s.out;
  // --format wins over sniffing; errors name <stdin>.
  CliRun f = run("reduce - --format stg < " + g);
  EXPECT_EQ(f.code, 2) << f.out;
  EXPECT_NE(f.out.find("<stdin>:1: "), std::string::npos) << f.out;
  // The reference pipeline (cgraph's reader) names it the same way.
  CliRun fr = run("reduce - --format stg --impl reference < " + g);
  EXPECT_EQ(fr.code, 2) << fr.out;
  EXPECT_NE(fr.out.find("<stdin>:1: "), std::string::npos) << fr.out;
  CliRun vr = run("verify - --impl reference < " + write("bad.dot", "digraph { a -> b; b -> a }"));
  EXPECT_EQ(vr.code, 2) << vr.out;
  EXPECT_NE(vr.out.find("<stdin>:1: cycle: "), std::string::npos) << vr.out;
}

TEST_F(EquivCli, ReduceJsonListsEveryRemovedEdgeWithAKeptWitness) {
  // a -> d is redundant (a -> b -> d); the witness of a -> e must not use it.
  std::string g = write("g.dot",
                        "digraph { a -> b; b -> d; a -> d [kind=flow, flags=\"wait|retain\"]; d -> e; a -> e }");
  std::string out = path("r.json");
  CliRun r = run("reduce " + g + " --json -o " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j["counts"]["edges_in"], 5);
  EXPECT_EQ(j["counts"]["removed"], 2);
  EXPECT_EQ(j["counts"]["demoted_to_retain"], 1);
  EXPECT_EQ(j["removed_per_kind"]["flow"], 1);
  EXPECT_TRUE(j.contains("time_s"));
  ASSERT_EQ(j["removed"].size(), 2u);
  const auto& ad = j["removed"][0];
  EXPECT_EQ(ad["src"], "a");
  EXPECT_EQ(ad["dst"], "d");
  EXPECT_EQ(ad["kinds"], nlohmann::json::array({"flow"}));
  EXPECT_EQ(ad["flags"], nlohmann::json::array({"wait", "retain"}));
  EXPECT_EQ(ad["demoted_to_retain"], true);
  EXPECT_EQ(ad["witness"], nlohmann::json::array({"a", "b", "d"}));
  EXPECT_EQ(j["removed"][1]["witness"], nlohmann::json::array({"a", "b", "d", "e"}));
  // explain says the same.
  CliRun e = run("explain " + g + " a e");
  EXPECT_EQ(e.code, 0) << e.out;
  EXPECT_NE(e.out.find("witness (3 hops)"), std::string::npos) << e.out;
}

TEST_F(EquivCli, CyclesErrorByDefaultCondenseOnRequest) {
  std::string g = write("c.dot", "digraph { a -> b; b -> a; a -> c; b -> c; x -> a; x -> b }");
  std::string out = write("keep.dot", "previous\n");
  CliRun r = run("reduce " + g + " -o " + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cycle: 'b' -> 'a' -> 'b'"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(out), "previous\n");
  CliRun c = run("reduce " + g + " --cycles condense -o " + out);
  EXPECT_EQ(c.code, 0) << c.out;
  const std::string dot = slurp(out);
  EXPECT_NE(dot.find("\"a\" -> \"b\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"b\" -> \"a\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"a\" -> \"c\""), std::string::npos) << dot; // smallest names of the pair
  EXPECT_EQ(dot.find("\"b\" -> \"c\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"x\" -> \"a\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("\"x\" -> \"b\""), std::string::npos) << dot;
  // The oracle agrees.
  std::string ref_out = path("ref.dot");
  CliRun ref = run("reduce " + g + " --cycles condense --impl reference -o " + ref_out);
  EXPECT_EQ(ref.code, 0) << ref.out;
  EXPECT_EQ(slurp(ref_out), dot);
  // Engines in a cycle: an error even when condensing.
  std::string e = write("e.dot", "digraph { a [engine=0]; a -> b; b -> a }");
  CliRun bad = run("reduce " + e + " --cycles condense");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("cycle among engine nodes"), std::string::npos) << bad.out;
}

} // namespace

namespace {

// Fresh-user trial: a negative --show was wrapped into a huge count.
TEST_F(EquivCli, EquivShowRejectsANegativeCount) {
  std::string a = write("a.dot", "digraph { a -> b; b -> c }");
  std::string b = write("b.dot", "digraph { a -> b; c }");
  EXPECT_EQ(run("equiv " + a + " " + b + " --show -5").code, 64);
  EXPECT_EQ(run("equiv " + a + " " + b + " --show 0").code, 1);
}

} // namespace
