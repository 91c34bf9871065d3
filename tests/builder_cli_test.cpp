//===- builder_cli_test.cpp - depreduce build / verify / expand -----------===//
///
/// Runs the built `depreduce` binary (DEPREDUCE_CLI) and checks exit codes
/// (0 clean, 1 findings, 2 bad input), the exact report lines and that
/// outputs are complete or untouched; `--impl reference` (cgraph's reader,
/// the oracle's program order and merge) against the default on the real
/// corpus, equiv included.
//===----------------------------------------------------------------------===//
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "depreduce/testing/cli_runner.hpp"

namespace {

using depreduce::testing::CliRun;
using depreduce::testing::slurp;

CliRun run(const std::string& args) { return depreduce::testing::run_cli(args); }

class BuilderCli : public depreduce::testing::TempDirTest {};

const char* const kBuffer = R"dot(digraph {
  w0 [writes="B:[0,64)"]; r0 [reads="B:[0,64)"]; w1 [writes="B:[0,64)"]; r1 [reads="B:[0,64)"]
})dot";

TEST_F(BuilderCli, BuildThenVerifyIsClean) {
  std::string in = write("g.dot", kBuffer);
  std::string out = (dir_ / "built.dot").string();
  for (const char* impl : {"optimized", "reference"}) {
    CliRun b = run("build " + in + " -o " + out + " --stats --impl " + impl);
    ASSERT_EQ(b.code, 0) << b.out;
    EXPECT_NE(b.out.find("edges out: 4"), std::string::npos) << b.out;
    std::string dot = slurp(out);
    EXPECT_NE(dot.find("\"w0\" -> \"r0\" [\"kind\"=\"flow\"]"), std::string::npos) << dot;
    EXPECT_NE(dot.find("\"r0\" -> \"w1\" [\"kind\"=\"anti\"]"), std::string::npos) << dot;
    EXPECT_NE(dot.find("\"w0\" -> \"w1\" [\"kind\"=\"output\"]"), std::string::npos) << dot;
    EXPECT_NE(dot.find("\"w1\" -> \"r1\" [\"kind\"=\"flow\"]"), std::string::npos) << dot;
    CliRun v = run("verify " + out + " --impl " + impl);
    EXPECT_EQ(v.code, 0) << v.out;
    EXPECT_NE(v.out.find("labels: 0"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("races: 0"), std::string::npos) << v.out;
  }
}

TEST_F(BuilderCli, VerifyFindsLabelsAndRaces) {
  // w0 -> r0 mislabelled; w1 -> r1 missing (race); r0 -> w1 and w0 -> w1 right.
  std::string in = write("bad.dot", std::string(kBuffer).replace(std::string(kBuffer).rfind('}'), 1,
                                                                  "w0 -> r0 [kind=anti]; r0 -> w1 [kind=anti]; "
                                                                  "w0 -> w1 [kind=output] }"));
  for (const char* impl : {"optimized", "reference"}) {
    CliRun labels = run("verify " + in + " --labels --impl " + impl);
    EXPECT_EQ(labels.code, 1) << labels.out;
    EXPECT_NE(labels.out.find("Inconsistent dependence labeling on: w0 -> r0 computed: flow labeled: anti\n"),
              std::string::npos)
        << labels.out;
    EXPECT_EQ(labels.out.find("Race on:"), std::string::npos) << labels.out;
    CliRun races = run("verify " + in + " --races --impl " + impl);
    EXPECT_EQ(races.code, 1) << races.out;
    EXPECT_NE(races.out.find("Race on: w1 -> r1 computed: flow bytes: B:[0,64)\n"), std::string::npos) << races.out;
    EXPECT_EQ(races.out.find("Inconsistent"), std::string::npos) << races.out;
    CliRun both = run("verify " + in + " --impl " + impl);
    EXPECT_EQ(both.code, 1) << both.out;
    EXPECT_NE(both.out.find("labels: 1 inconsistent"), std::string::npos) << both.out;
    EXPECT_NE(both.out.find("races: 1 racing"), std::string::npos) << both.out;
  }
}

TEST_F(BuilderCli, BadRangeIsExitTwoWithFileAndLine) {
  // lo > hi, unknown syntax, a number that does not fit in 64 bits: exit 2,
  // file:line of the node, and an output file left untouched.
  for (const char* bad : {"B:[9,3)", "B[0,4)", "B:[0,18446744073709551616)"}) {
    std::string in = write("range.dot", std::string("digraph {\n a [writes=\"B:[0,64)\"];\n b [reads=\"") + bad +
                                            "\"];\n}\n");
    std::string out = write("keep.dot", "previous content\n");
    for (const std::string& cmd : {"build " + in + " -o " + out, "verify " + in, "expand " + in + " -o " + out}) {
      CliRun r = run(cmd);
      EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out;
      EXPECT_NE(r.out.find("range.dot:3:"), std::string::npos) << bad << "\n" << r.out;
    }
    EXPECT_EQ(slurp(out), "previous content\n");
  }
}

TEST_F(BuilderCli, ExpandWritesFlatGraph) {
  std::string in = write("units.dot", R"dot(digraph {
  subgraph cluster_outer { a; subgraph cluster_inner { b } }
  c; a -> b [kind=flow]; b -> c
})dot");
  std::string out = (dir_ / "flat.dot").string();
  CliRun r = run("expand " + in + " -o " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  std::string dot = slurp(out);
  EXPECT_NE(dot.find("\"outer/a\" -> \"outer/inner/b\" [\"kind\"=\"flow\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"outer/inner/b\" -> \"c\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("subgraph"), std::string::npos) << dot;
}

TEST_F(BuilderCli, ExpandNodeInTwoUnitsIsExitTwo) {
  std::string in = write("two.dot", "digraph {\n subgraph cluster_a { x }\n subgraph cluster_b { x }\n}\n");
  CliRun r = run("expand " + in);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("two.dot:2: node 'x' is in two scheduling units"), std::string::npos) << r.out;
}

// `--impl reference` runs the whole reference pipeline for build, verify,
// expand and equiv as it does for reduce: cgraph's reader, the oracle's own
// program order and merge (reference::apply), and the oracle's functions on
// the input as read. On every real graph the oracle can take, each command
// must print, exit and write exactly what the default pipeline does.
TEST_F(BuilderCli, ImplReferenceAgreesWithTheDefaultOnTheRealCorpus) {
  const char* src = std::getenv("DEPREDUCE_SOURCE_DIR");
  const std::filesystem::path real = std::filesystem::path(src ? src : ".") / "corpus" / "real";
  const std::string out = path("out.dot"), reduced = path("reduced.dot");
  std::size_t compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(real)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".dot" && ext != ".gv" && ext != ".stg" && ext != ".json" && ext != ".xml" && ext != ".dax") continue;
    if (std::filesystem::file_size(entry.path()) > 400000) continue; // the oracle is O(n (n + m))
    if (entry.path().generic_string().find("/gcc-sched/") != std::string::npos)
      continue; // 414 small regions, through both twins in corpus_real_test (SOURCES.md section 7)
    const std::string in = entry.path().string();
    SCOPED_TRACE(in);
    const bool has_reduced = run("reduce " + in + " -o " + reduced).code == 0;
    std::vector<std::string> commands{"verify " + in, "build " + in + " -o " + out, "expand " + in + " -o " + out,
                                      "equiv " + in + " " + in};
    if (has_reduced) commands.push_back("equiv " + in + " " + reduced + " --show 3");
    for (const std::string& cmd : commands) {
      SCOPED_TRACE(cmd);
      std::filesystem::remove(out);
      const CliRun fast = run(cmd + " --impl optimized");
      const std::string fast_out = slurp(out);
      std::filesystem::remove(out);
      const CliRun ref = run(cmd + " --impl reference");
      EXPECT_EQ(fast.code, ref.code);
      EXPECT_EQ(fast.out, ref.out);
      EXPECT_EQ(fast_out, slurp(out));
      ++compared;
    }
  }
  EXPECT_GE(compared, 100u);
}

} // namespace
