//===- batch_cli_test.cpp - Batch mode (--out-dir) as a user runs it -----===//
///
/// Runs the built `depreduce` binary on several inputs at once: every good
/// input's output is the single-file run's byte for byte, a bad input in the
/// middle reports its error and leaves nothing in DIR while the others
/// complete, the status lines (text and --json) say so, exit 2 at the end.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "depreduce/testing/cli_runner.hpp"

namespace {

using depreduce::testing::CliRun;
using depreduce::testing::slurp;

CliRun run(const std::string& args, const std::string& stderr_file = "") {
  return depreduce::testing::run_cli(args, stderr_file);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class Batch : public depreduce::testing::TempDirTest {
protected:
  void SetUp() override {
    TempDirTest::SetUp();
    a_ = write("a.dot", "digraph a { x -> y; y -> z; x -> z; }\n");
    bad_ = write("b.dot", "digraph b {\n p -> q;\n r -> ;\n}\n");
    c_ = write("c.gv", "digraph c { s -> s; s -> t; t -> u; s -> u [kind=flow]; }\n");
    out_ = path("out");
  }
  /// The files in the output folder, by name.
  std::set<std::string> listing() const {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(out_)) names.insert(e.path().filename().string());
    return names;
  }
  /// What `CMD INPUT ARGS` prints on stdout alone.
  std::string single(const std::string& cmd, const std::string& input, const std::string& args = "") {
    CliRun r = run(cmd + " " + input + " " + args, path("single.err"));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  }
  std::string a_, bad_, c_, out_;
};

TEST_F(Batch, ABadFileInTheMiddleLeavesNothingAndTheOthersComplete) {
  std::filesystem::create_directories(out_);
  write("out/b.dot", "an earlier run's output\n"); // must not pass for this run's
  CliRun r = run("reduce " + a_ + " " + bad_ + " " + c_ + " --out-dir " + out_, path("err"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(listing(), (std::set<std::string>{"a.dot", "c.dot"})); // nothing of b.dot, no temporaries
  EXPECT_EQ(slurp(out_ + "/a.dot"), single("reduce", a_));
  EXPECT_EQ(slurp(out_ + "/c.dot"), single("reduce", c_));
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 4u) << r.err; // a's status, b's error, c's self-loop warning then status
  EXPECT_EQ(lines[0], "depreduce: ok: " + a_ + " -> " + out_ + "/a.dot");
  EXPECT_EQ(lines[1].rfind("depreduce: error: " + bad_ + ":3: ", 0), 0u) << lines[1];
  EXPECT_NE(lines[2].find("self-loop"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[3], "depreduce: ok: " + c_ + " -> " + out_ + "/c.dot");
}

TEST_F(Batch, JsonStatusLinesParse) {
  // c first: its warning must not reach the inputs after it.
  CliRun r = run("reduce " + c_ + " " + bad_ + " " + a_ + " --out-dir " + out_ + " --json --to edges", path("err"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(listing(), (std::set<std::string>{"a.tsv", "c.tsv"}));
  EXPECT_EQ(slurp(out_ + "/c.tsv"), single("reduce", c_, "--to edges"));
  EXPECT_EQ(slurp(out_ + "/a.tsv"), single("reduce", a_, "--to edges"));
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 3u) << r.err;
  std::vector<nlohmann::json> j;
  for (const std::string& line : lines) j.push_back(nlohmann::json::parse(line)); // throws if not JSON
  EXPECT_EQ(j[0]["file"], c_);
  EXPECT_EQ(j[0]["status"], "ok");
  EXPECT_EQ(j[0]["output"], out_ + "/c.tsv");
  EXPECT_TRUE(j[0]["error"].is_null());
  ASSERT_EQ(j[0]["warnings"].size(), 1u) << j[0];
  EXPECT_NE(j[0]["warnings"][0].get<std::string>().find("self-loop"), std::string::npos);
  EXPECT_EQ(j[1]["file"], bad_);
  EXPECT_EQ(j[1]["status"], "error");
  EXPECT_TRUE(j[1]["output"].is_null());
  EXPECT_EQ(j[1]["error"].get<std::string>().rfind(bad_ + ":3: ", 0), 0u) << j[1];
  EXPECT_EQ(j[1]["warnings"].size(), 0u) << j[1];
  EXPECT_EQ(j[2]["file"], a_);
  EXPECT_EQ(j[2]["status"], "ok");
  EXPECT_EQ(j[2]["warnings"].size(), 0u) << j[2];
}

TEST_F(Batch, FilesFromStandardInputConvertsAsSingleRunsDo) {
  write("list", a_ + "\n\n" + c_ + "\n"); // an empty line is skipped
  CliRun r = run("convert --to json --files-from - --out-dir " + out_ + " < " + path("list"), path("err"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(listing(), (std::set<std::string>{"a.json", "c.json"}));
  EXPECT_EQ(slurp(out_ + "/a.json"), single("convert", a_, "--to json"));
  EXPECT_EQ(slurp(out_ + "/c.json"), single("convert", c_, "--to json"));
  EXPECT_EQ(lines_of(r.err).size(), 3u) << r.err; // a's status, c's warning and status
}

TEST_F(Batch, WindowReportWritesEachReport) {
  CliRun r = run("window-report " + a_ + " " + bad_ + " " + c_ + " --time-budget-ms 0 --json --out-dir " + out_,
                 path("err"));
  EXPECT_EQ(r.code, 2) << r.err;
  // .report.json: a report of x.deps.json is x.deps.report.json, not a second x.deps.json.
  EXPECT_EQ(listing(), (std::set<std::string>{"a.report.json", "c.report.json"}));
  EXPECT_EQ(slurp(out_ + "/a.report.json"), single("window-report", a_, "--time-budget-ms 0 --json"));
  for (const std::string& line : lines_of(r.err)) EXPECT_TRUE(nlohmann::json::accept(line)) << line;
}

TEST_F(Batch, StatusLinesEscapeControlCharacters) {
  // A name with a newline, one with a tab: each status line stays on one
  // line (\n, \t); a plain name is printed as it is.
  const std::string nl = write("n\nl.dot", "digraph n { x -> y; }\n");
  const std::string tab = write("t\tb.dot", "digraph t { x -> y; }\n");
  CliRun r = run("reduce '" + nl + "' '" + tab + "' " + a_ + " --out-dir " + out_, path("err"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(listing(), (std::set<std::string>{"n\nl.dot", "t\tb.dot", "a.dot"}));
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 3u) << r.err;
  EXPECT_EQ(lines[0], "depreduce: ok: " + path("n\\nl.dot") + " -> " + out_ + "/n\\nl.dot");
  EXPECT_EQ(lines[1], "depreduce: ok: " + path("t\\tb.dot") + " -> " + out_ + "/t\\tb.dot");
  EXPECT_EQ(lines[2], "depreduce: ok: " + a_ + " -> " + out_ + "/a.dot");
}

TEST_F(Batch, UsageErrorsWriteNothing) {
  // Several inputs need --out-dir.
  EXPECT_EQ(run("reduce " + a_ + " " + c_).code, 64);
  // --files-from needs --out-dir.
  EXPECT_EQ(run("reduce --files-from " + path("none")).code, 64);
  // -o names one file.
  EXPECT_EQ(run("reduce " + a_ + " -o " + path("x.dot") + " --out-dir " + out_).code, 64);
  // Two inputs of one name would write one output: refused, naming both.
  const std::string other = (std::filesystem::create_directories(dir_ / "sub"), write("sub/a.dot", "digraph { m }"));
  CliRun r = run("reduce " + a_ + " " + other + " --out-dir " + out_);
  EXPECT_EQ(r.code, 64) << r.out;
  EXPECT_NE(r.out.find(a_), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(other), std::string::npos) << r.out;
  // An output that would overwrite its input.
  EXPECT_EQ(run("reduce " + a_ + " --out-dir " + dir_.string()).code, 64);
  EXPECT_EQ(slurp(a_), "digraph a { x -> y; y -> z; x -> z; }\n");
  EXPECT_FALSE(std::filesystem::exists(out_));
}

} // namespace

// -q: no warning and no ok line, only the failed input's error line; the
// outputs are those of a run without -q.
TEST_F(Batch, QuietLeavesOnlyTheErrorLines) {
  CliRun r = run("reduce -q " + a_ + " " + bad_ + " " + c_ + " --out-dir " + out_, path("err"));
  EXPECT_EQ(r.code, 2) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("depreduce: error: " + bad_ + ":3: ", 0), 0u) << lines[0];
  EXPECT_EQ(listing(), (std::set<std::string>{"a.dot", "c.dot"}));
  EXPECT_EQ(slurp(out_ + "/c.dot"), single("reduce", c_));
}

// convert --json is the input's JSON summary (as --to json), in a single run
// and in batch mode, where the status lines are JSON too.
TEST_F(Batch, ConvertJsonIsTheSummaryAsToJson) {
  EXPECT_EQ(single("convert", a_, "--json"), single("convert", a_, "--to json"));
  CliRun r = run("convert --json " + a_ + " " + c_ + " --out-dir " + out_, path("err"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(listing(), (std::set<std::string>{"a.json", "c.json"}));
  EXPECT_EQ(slurp(out_ + "/a.json"), single("convert", a_, "--to json"));
  for (const std::string& line : lines_of(r.err)) EXPECT_EQ(nlohmann::json::parse(line)["status"], "ok") << line;
  EXPECT_EQ(run("convert --json --to dot " + a_, path("err2")).code, 64); // a contradiction in a single run
}
