//===- tests/fence_cli_test.cpp - `depreduce fence` as a user runs it -----===//
///
/// The fence command: the program written atomically, the summary, trips,
/// bad input with file:line:col and exit 2.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "depreduce/error.hpp"
#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/orchestration_ir.hpp"
#include "depreduce/reference/phase_fence.hpp"

namespace {

using depreduce::PhaseFenceSummary;
using depreduce::formats::OrchestrationSyntaxError;
using depreduce::formats::parse_orchestration;
using depreduce::reference::TripCounts;
namespace orch = depreduce::orch;

//===----------------------------------------------------------------------===//
// CLI: depreduce fence
//===----------------------------------------------------------------------===//

struct CliResult {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream b;
  b << in.rdbuf();
  return b.str();
}

/// Runs `depreduce <args>` from the source folder; stdout and stderr captured.
CliResult cli(const std::string& args) {
  namespace fs = std::filesystem;
  const char* exe = std::getenv("DEPREDUCE_CLI");
  if (!exe || !fs::exists(exe)) return {};
  fs::path dir = fs::temp_directory_path() / ("fence_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string cmd = std::string(exe) + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  int status = std::system(cmd.c_str());
  CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
  fs::remove_all(dir);
  return r;
}

class FenceCli : public ::testing::Test {
protected:
  void SetUp() override {
    const char* exe = std::getenv("DEPREDUCE_CLI");
    if (!exe || !std::filesystem::exists(exe)) GTEST_SKIP() << "DEPREDUCE_CLI not built";
    const char* root = std::getenv("DEPREDUCE_SOURCE_DIR");
    corpus_ = std::string(root ? root : ".") + "/corpus/orchestration/";
    tmp_ = std::filesystem::temp_directory_path() / ("fence_cli_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(tmp_);
  }
  void TearDown() override { std::filesystem::remove_all(tmp_); }
  std::string corpus_;
  std::filesystem::path tmp_;
};

TEST_F(FenceCli, WritesProgramAtomicallyAndPrintsSummary) {
  std::string out = (tmp_ / "fenced.orch").string();
  CliResult r = cli("fence " + corpus_ + "parallel_fanout.orch -o " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  // Summary on stdout when the program goes to a file; the numbers are the
  // ParallelLoopFourIterationsTwoSubmitsOnFourElementArray ones.
  EXPECT_NE(r.out.find("phase fence: 1 barrier(s) inserted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(N=4), serves 2 submit(s) (M=8), saves 20 edge(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dynamic edges: 32 before, 12 after (0 dummy task(s) before, 1 after)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("happens-before among 12 real task(s): unchanged"), std::string::npos) << r.out;
  orch::Program written = depreduce::formats::read_orchestration(out);
  PhaseFenceSummary again;
  depreduce::expand_manual_phase_fence(written, &again);
  EXPECT_TRUE(again.barriers.empty()); // already fenced
  EXPECT_NE(slurp(out).find("c0 = submit(consume, [j, 0], deps=[phase_fence_barrier_0])"), std::string::npos);
  // Nothing but the output file is left in its folder (the temporary was renamed).
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp_)) ++files;
  EXPECT_EQ(files, 1u);
}

TEST_F(FenceCli, ProgramToStdoutSummaryToStderrWithTrips) {
  CliResult r = cli("fence " + corpus_ + "dynamic_trips.orch --trip n=3");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(parse_orchestration(r.out).functions.size(), 1u);
  // seq(n): 4*6 = 24 -> 4+6 = 10; parallel(n) kept: 24. Total 48 -> 34.
  EXPECT_NE(r.err.find("dynamic edges (n=3): 48 before, 34 after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("main/c: dynamic-parallel-trip"), std::string::npos) << r.err;
  CliResult no_trip = cli("fence " + corpus_ + "dynamic_trips.orch");
  EXPECT_EQ(no_trip.code, 0);
  EXPECT_NE(no_trip.err.find("dynamic edges: not computed; give --trip NAME=VALUE for: n"), std::string::npos);
}

TEST_F(FenceCli, BadInputExitsTwoWithFileLineColumn) {
  std::string bad = (tmp_ / "bad.orch").string();
  std::ofstream(bad) << "orchestration func main() {\n  x = array(4\n}\n";
  std::string out = (tmp_ / "never.orch").string();
  CliResult r = cli("fence " + bad + " -o " + out);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(bad + ":3:1: expected ')', found '}'"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(cli("fence " + tmp_.string() + "/missing.orch").code, 2);
  EXPECT_EQ(cli("fence " + corpus_ + "dynamic_trips.orch --trip m=3").code, 64);
  EXPECT_EQ(cli("fence " + corpus_ + "dynamic_trips.orch --trip n=three").code, 64);
  EXPECT_EQ(cli("fence " + corpus_ + "parallel_fanout.orch -o " + tmp_.string() + "/no/such/dir/x.orch").code, 2);
}

} // namespace

TEST_F(FenceCli, JsonSummaryOfThePhaseChain) {
  const std::string out = (tmp_ / "chain.orch").string();
  CliResult r = cli("fence --json " + corpus_ + "phase_chain.orch -o " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out); // stdout is the JSON alone
  ASSERT_EQ(j["barriers"].size(), 1u);
  const auto& b = j["barriers"][0];
  EXPECT_EQ(b["function"], "main");
  EXPECT_EQ(b["name"], "phase_fence_barrier_0");
  EXPECT_EQ(b["array"], "T");
  EXPECT_EQ(b["N"], 3);
  EXPECT_EQ(b["M"], 3);
  EXPECT_EQ(b["sites"], 1);
  EXPECT_EQ(b["saved_per_run"], 3);
  EXPECT_EQ(b["location"]["before_loop"], "b");
  // The barrier's line in the written program.
  std::ifstream in(out);
  std::string line;
  for (int k = 0; k < b["location"]["output_line"].get<int>(); ++k) std::getline(in, line);
  EXPECT_EQ(line, "      phase_fence_barrier_0 = system.task_dummy() {dummy_task = true, manual_dep_edges = [T]}");
  EXPECT_TRUE(j["kept"].empty());
  EXPECT_EQ(j["edges_before"], 36);
  EXPECT_EQ(j["edges_after"], 24);
  EXPECT_EQ(j["dummies_after"], 4);
  EXPECT_EQ(j["happens_before"], "unchanged");
}

TEST_F(FenceCli, JsonSummaryListsKeptSubmitsAndMissingTrips) {
  CliResult r = cli("fence --json " + corpus_ + "dynamic_trips.orch");
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kept"].size(), 2u);
  EXPECT_EQ(j["kept"][0]["submit"], "c");
  EXPECT_EQ(j["kept"][0]["reason"], "dynamic-parallel-trip");
  EXPECT_EQ(j["missing_trips"], nlohmann::json::array({"n"}));
  EXPECT_TRUE(j["edges_before"].is_null());
  EXPECT_EQ(j["happens_before"], "not-checked");
  CliResult t = cli("fence --json " + corpus_ + "dynamic_trips.orch --trip n=3");
  nlohmann::json k = nlohmann::json::parse(t.out);
  EXPECT_EQ(k["trips"]["n"], 3);
  EXPECT_EQ(k["edges_before"], 48); // as the text summary: 48 -> 34
  EXPECT_EQ(k["edges_after"], 34);
}

TEST_F(FenceCli, TripTakesOneValueSoTheFileMayFollowIt) {
  // `--trip` used to take every value after it, FILE included ("FILE is required").
  CliResult r = cli("fence --trip n=3 " + corpus_ + "dynamic_trips.orch --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["edges_before"], 48);
  CliResult two = cli("fence " + corpus_ + "all_constructs.orch --trip n=2 --trip m=3 --json");
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(nlohmann::json::parse(two.out)["trips"], (nlohmann::json{{"m", 3}, {"n", 2}}));
}

// Fresh-user trial: an error the interpreter finds only when it
// runs the program with the given trip counts names the file and says so.
TEST_F(FenceCli, InterpreterErrorsNameTheFileAndTheTripValues) {
  std::string bad = (tmp_ / "index.orch").string();
  std::ofstream(bad) << "orchestration func main(n) {\n  manual {\n    a = array(3)\n"
                        "    for i in parallel(n) { t = submit(k, [i]) b = update(a, 5, t) }\n  }\n}\n";
  CliResult r = cli("fence " + bad + " --trip n=2 -o " + (tmp_ / "never.orch").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(bad + ": while running the program with the given --trip values: "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("index 5 out of range for 'a' of length 3"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp_ / "never.orch"));
}
