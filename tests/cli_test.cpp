//===- cli_test.cpp - The depreduce tool as a user runs it ---------------===//
///
/// Runs the built `depreduce` binary (DEPREDUCE_CLI) on files in a temporary
/// folder and checks exit codes, messages and that nothing is half written.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "depreduce/testing/cli_runner.hpp"

namespace {

using depreduce::testing::CliRun;
using depreduce::testing::slurp;

CliRun run(const std::string& args) { return depreduce::testing::run_cli(args); }

class Cli : public depreduce::testing::TempDirTest {
protected:
  /// Runs `reduce` on \p text with -o over an existing file: exit 2, the
  /// message names "<file>:<line>: ", the output file is untouched.
  void expect_rejected_at(const std::string& name, const std::string& text, int line) {
    SCOPED_TRACE(text);
    std::string in = write(name, text);
    std::string out = write("keep-" + name, "previous content\n");
    CliRun r = run("reduce " + in + " -o " + out);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(in + ":" + std::to_string(line) + ": "), std::string::npos) << r.out;
    EXPECT_EQ(slurp(out), "previous content\n");
  }
};

TEST_F(Cli, ReduceWritesReducedDotAndStats) {
  std::string in = write("g.dot", "digraph g { a -> b; b -> c; a -> c; d }");
  std::string out = (dir_ / "out.dot").string();
  CliRun r = run("reduce " + in + " -o " + out + " --stats");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("removed: 1"), std::string::npos) << r.out;
  std::string dot = slurp(out);
  EXPECT_EQ(dot.find("\"a\" -> \"c\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("d"), std::string::npos);
}

TEST_F(Cli, CycleIsExitTwoNamingTheNodes) {
  std::string in = write("cyc.dot", "digraph { x -> y; y -> z; z -> x; z -> w }");
  CliRun r = run("reduce " + in);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cycle"), std::string::npos) << r.out;
  for (const char* n : {"'x'", "'y'", "'z'"}) EXPECT_NE(r.out.find(n), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("'w'"), std::string::npos) << r.out;
}

/// A node name holding a newline, a tab or another control byte (quoted DOT
/// allows them) is escaped in the message: the error stays one line.
TEST_F(Cli, ANameWithANewlineKeepsTheErrorOnOneLine) {
  std::string in = write("nl.dot", "digraph {\n \"a\nb\" -> \"c\td\" -> \"e\x01\" -> \"a\nb\"\n}\n");
  CliRun r = run("reduce " + in);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("nl.dot:4: cycle: "), std::string::npos) << r.out;
  for (const char* n : {"'a\\nb'", "'c\\td'", "'e\\x01'"}) EXPECT_NE(r.out.find(n), std::string::npos) << n << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(r.out.find('\t'), std::string::npos) << r.out;
}

TEST_F(Cli, MalformedInputNamesFileAndLineAndLeavesOutputUntouched) {
  std::string in = write("bad.dot", "digraph {\n a -> b;\n c -> ;\n}\n");
  std::string out = write("keep.dot", "previous content\n");
  CliRun r = run("reduce " + in + " -o " + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("bad.dot:3"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(out), "previous content\n");
}

TEST_F(Cli, GraphAttributeErrorNamesItsLine) {
  expect_rejected_at("ga.dot", "digraph {\n  graph [engines=abc]\n  node [shape=box]\n  a -> b\n}\n", 2);
  expect_rejected_at("gb.dot", "digraph {\n  graph [engines=100]\n  a [shape=box]\n}\n", 2);
}

TEST_F(Cli, LinesAfterMultiLineQuotedStringAreExact) {
  expect_rejected_at("ml.dot", "digraph {\n  a [label=\"x\ny\nz\"]\n  b -> -> c\n}\n", 5);
  expect_rejected_at("mm.dot", "digraph {\n  a [label=\"x\ny\nz\"]\n}\n\nx\n", 7);
}

TEST_F(Cli, SecondGraphNamesTheLineWhereItStarts) {
  expect_rejected_at("two.dot", "digraph a {\n  x -> y\n}\n\n\ndigraph b {\n  z\n}\n", 6);
}

TEST_F(Cli, TruncatedStgNamesTheLine) {
  std::string in = write("t.stg", "3\n0 0 0\n1 5 1 0\n");
  CliRun r = run("reduce " + in);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("t.stg"), std::string::npos) << r.out;
}

TEST_F(Cli, MissingFileAndFolderAreBadInput) {
  CliRun missing = run("reduce " + path("nope.dot"));
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find("nope.dot"), std::string::npos) << missing.out;
  CliRun folder = run("reduce " + dir_.string());
  EXPECT_EQ(folder.code, 2) << folder.out;
  EXPECT_NE(folder.out.find("folder"), std::string::npos) << folder.out;
  CliRun nodir = run("reduce " + write("g.dot", "digraph { a -> b }") + " -o " + path("no/such/dir/out.dot"));
  EXPECT_EQ(nodir.code, 2) << nodir.out;
  EXPECT_NE(nodir.out.find("does not exist"), std::string::npos) << nodir.out;
  CliRun empty = run("reduce " + path("g.dot") + " -o ''");
  EXPECT_EQ(empty.code, 2) << empty.out;
  EXPECT_NE(empty.out.find("output path is empty"), std::string::npos) << empty.out;
}

TEST_F(Cli, OutputToDeviceFifoOrSymlinkKeepsItsKind) {
  // -o must never replace /dev/null, a FIFO or a symbolic link by a regular file.
  std::string in = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  ASSERT_EQ(run("reduce " + in + " -o /dev/null").code, 0);
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  std::string real = write("real.dot", "old\n");
  std::filesystem::permissions(real, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                         std::filesystem::perms::owner_exec);
  std::filesystem::create_symlink(real, dir_ / "link.dot");
  ASSERT_EQ(run("reduce " + in + " -o " + path("link.dot")).code, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "link.dot"));
  EXPECT_NE(slurp(real).find("digraph"), std::string::npos);
  // Replacing a file keeps its permissions.
  EXPECT_TRUE((std::filesystem::status(real).permissions() & std::filesystem::perms::owner_exec) !=
              std::filesystem::perms::none);
  // A dangling link (relative target) gets its target created; it stays a link.
  std::filesystem::create_symlink("made.dot", dir_ / "dangling.dot");
  ASSERT_EQ(run("reduce " + in + " -o " + path("dangling.dot")).code, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "dangling.dot"));
  EXPECT_NE(slurp(path("made.dot")).find("digraph"), std::string::npos);
}

TEST_F(Cli, OutputToDevStdoutReachesThePipe) {
  // /dev/stdout is a link to /proc/self/fd/1, whose own link text for a pipe
  // ("pipe:[...]") is no path: the output goes through the path as given,
  // here into run()'s pipe (it once said "cannot create a temporary file").
  std::string in = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  CliRun r = run("reduce " + in + " -o /dev/stdout");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"a\" -> \"b\";"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"a\" -> \"c\";"), std::string::npos) << r.out;
}

TEST_F(Cli, OutputToDevStdoutRedirectedForAppendKeepsEarlierContent) {
  // `echo hello > a.txt; depreduce reduce x.dot -o /dev/stdout >> a.txt`
  // must keep a.txt (its inode and "hello"): /dev/stdout's link chain ends
  // at a.txt, a regular file, and renaming a temporary file over it would
  // replace it. /dev/stdout, /dev/fd/N and /proc/self/fd/N are written through the
  // descriptor, so the shell's append holds.
  std::string in = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  const std::string reduced = run("reduce " + in).out;
  ASSERT_NE(reduced.find("digraph"), std::string::npos) << reduced;
  for (const std::string out : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    SCOPED_TRACE(out);
    std::string a = write("a.txt", "hello\n");
    struct stat before {};
    ASSERT_EQ(::stat(a.c_str(), &before), 0);
    CliRun r = depreduce::testing::run_cli("reduce " + in + " -o " + out + " >> " + a, path("err.txt"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(a), "hello\n" + reduced);
    struct stat after {};
    ASSERT_EQ(::stat(a.c_str(), &after), 0);
    EXPECT_EQ(before.st_ino, after.st_ino) << "a.txt was replaced";
  }
  // Another descriptor, opened by the shell for append (3>>): the same.
  std::string b = write("b.txt", "earlier\n");
  CliRun r3 = depreduce::testing::run_cli("reduce " + in + " -o /dev/fd/3 3>> " + b, path("err.txt"));
  EXPECT_EQ(r3.code, 0) << r3.err;
  EXPECT_EQ(slurp(b), "earlier\n" + reduced);
  // Truncated by the shell (>): the output alone, still the same file.
  std::string c = write("c.txt", "old content that is longer than nothing\n");
  CliRun rt = depreduce::testing::run_cli("reduce " + in + " -o /dev/stdout > " + c, path("err.txt"));
  EXPECT_EQ(rt.code, 0) << rt.err;
  EXPECT_EQ(slurp(c), reduced);
  // A descriptor that is not open, or open for reading only, is bad output (exit 2), nothing written.
  CliRun closed = depreduce::testing::run_cli("reduce " + in + " -o /dev/fd/7", path("err.txt"));
  EXPECT_EQ(closed.code, 2);
  EXPECT_NE(closed.err.find("descriptor 7 is not open"), std::string::npos) << closed.err;
  CliRun ro = depreduce::testing::run_cli("reduce " + in + " -o /dev/fd/3 3< " + in, path("err.txt"));
  EXPECT_EQ(ro.code, 2);
  EXPECT_NE(ro.err.find("open for reading only"), std::string::npos) << ro.err;
  EXPECT_EQ(slurp(in), "digraph { a -> b; b -> c; a -> c }");
}

TEST_F(Cli, OutputToAFifoIsWrittenThroughToItsReader) {
  // -o FIFO: a background reader gets the whole text; the FIFO stays a FIFO
  // (never renamed over, never a temporary beside it).
  std::string in = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  const std::string reduced = run("reduce " + in).out;
  const std::string fifo = path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream f(fifo, std::ios::binary); // blocks until the writer opens it
    std::stringstream ss;
    ss << f.rdbuf();
    got = ss.str();
  });
  CliRun r = run("reduce " + in + " -o " + fifo);
  // Had the tool never opened the FIFO, the reader would wait forever: open
  // it once for writing (fails with no reader left) to let it see the end.
  if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
  reader.join();
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(got, reduced);
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) files += e.path().filename().string()[0] == '.';
  EXPECT_EQ(files, 0u) << "a temporary was left beside the FIFO";
  // A character device: /dev/null takes the text and stays a device.
  ASSERT_EQ(run("reduce " + in + " -o /dev/null").code, 0);
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

TEST_F(Cli, OutputExtensionNamingAnotherFormatIsRefused) {
  // `reduce wf.json -o wf.red.json` must not write DOT into a .json file
  // (`equiv wf.json wf.red.json` would then fail on it). DOT is the only graph
  // writer: an -o extension naming another format is a usage error (64)
  // before anything is read or written (docs/cli.md "Output format").
  const std::string wf = write("wf.json", R"({"name": "w", "schemaVersion": "1.5", "workflow": {"specification":
    {"tasks": [{"name": "a", "id": "a", "parents": [], "children": ["b", "c"]},
               {"name": "b", "id": "b", "parents": ["a"], "children": ["c"]},
               {"name": "c", "id": "c", "parents": ["a", "b"], "children": []}]}, "execution": {"tasks": []}}})");
  CliRun json = run("reduce " + wf + " -o " + path("wf.red.json"));
  EXPECT_EQ(json.code, 64) << json.out;
  EXPECT_NE(json.out.find("names a json file, but the output is DOT"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("no wfjson writer"), std::string::npos) << json.out;
  EXPECT_FALSE(std::filesystem::exists(path("wf.red.json")));
  for (const std::string bad : {"x.stg", "x.xml", "x.DAX"}) {
    CliRun r = run("reduce " + wf + " -o " + path(bad));
    EXPECT_EQ(r.code, 64) << bad << ": " << r.out;
    EXPECT_FALSE(std::filesystem::exists(path(bad)));
  }
  // The DOT it writes, to a .dot file, is what equiv compares with the input.
  ASSERT_EQ(run("reduce " + wf + " -o " + path("wf.red.dot")).code, 0);
  CliRun eq = run("equiv " + wf + " " + path("wf.red.dot"));
  EXPECT_EQ(eq.code, 0) << eq.out;
  EXPECT_EQ(slurp(path("wf.red.dot")).find("\"a\" -> \"c\""), std::string::npos);
  // A JSON summary fills a .json file; an edge list no .dot or .json file.
  EXPECT_EQ(run("reduce " + wf + " --json -o " + path("summary.json")).code, 0);
  EXPECT_NE(slurp(path("summary.json")).find("\"removed\""), std::string::npos);
  EXPECT_EQ(run("convert " + wf + " --to json -o " + path("c.json")).code, 0);
  EXPECT_EQ(run("convert " + wf + " --to edges -o " + path("e.dot")).code, 64);
  EXPECT_EQ(run("convert " + wf + " -o " + path("c.json")).code, 64);
  EXPECT_EQ(run("convert " + wf + " --to edges -o " + path("e.tsv")).code, 0);
  // A .tsv file is an edge list's: a JSON summary or DOT is refused there.
  CliRun tsv = run("convert " + wf + " --to json -o " + path("s.tsv"));
  EXPECT_EQ(tsv.code, 64) << tsv.out;
  EXPECT_NE(tsv.out.find("names an edge-list file"), std::string::npos) << tsv.out;
  EXPECT_EQ(run("reduce " + wf + " -o " + path("r.tsv")).code, 64);
  // The refusal names the writer the extension asks for, and suggests --to
  // only where the command has it.
  CliRun stg = run("reduce " + wf + " -o " + path("wf.red.stg"));
  EXPECT_NE(stg.out.find("there is no stg writer"), std::string::npos) << stg.out;
  CliRun gen = run("generate dag --size 5 -o " + path("d.json"));
  EXPECT_EQ(gen.code, 64) << gen.out;
  EXPECT_EQ(gen.out.find("--to"), std::string::npos) << gen.out;
  // No extension, -, and descriptors are not checked.
  EXPECT_EQ(run("reduce " + wf + " -o " + path("out")).code, 0);
  EXPECT_EQ(run("reduce " + wf + " -o /dev/null").code, 0);
}

TEST_F(Cli, ReduceToChoosesTheOutput) {
  // --to dot|json|edges chooses reduce's output (docs/cli.md "Output format");
  // the -o extension must then agree with it.
  const std::string in = write("t.dot", "digraph { a -> b; b -> c; a -> c }");
  ASSERT_EQ(run("reduce " + in + " --to edges -o " + path("e.tsv")).code, 0);
  EXPECT_EQ(slurp(path("e.tsv")), "a\tb\nb\tc\n");
  ASSERT_EQ(run("reduce " + in + " --to json -o " + path("s.json")).code, 0);
  EXPECT_NE(slurp(path("s.json")).find("\"removed\""), std::string::npos);
  ASSERT_EQ(run("reduce " + in + " --to dot -o " + path("r.dot")).code, 0);
  EXPECT_EQ(slurp(path("r.dot")).find("a -> c"), std::string::npos);
  EXPECT_EQ(run("reduce " + in + " --to edges -o " + path("e.dot")).code, 64);
  EXPECT_FALSE(std::filesystem::exists(path("e.dot")));
  CliRun both = run("reduce " + in + " --json --to dot");
  EXPECT_EQ(both.code, 64) << both.out;
  EXPECT_NE(both.out.find("contradicts --to dot"), std::string::npos) << both.out;
}

TEST_F(Cli, EdgeListSaysSelfLoopsAreLeftOut) {
  std::string in = write("loop.dot", "digraph { a -> a; a -> b }");
  CliRun r = run("convert " + in + " --to edges");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 self-loop(s) left out of the edge list"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("a\ta"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a\tb"), std::string::npos) << r.out;
}

TEST_F(Cli, SelfLoopWarnsOnce) {
  std::string in = write("loop.dot", "digraph { a -> a; b -> b; a -> b }");
  CliRun r = run("reduce " + in);
  EXPECT_EQ(r.code, 0) << r.out;
  std::size_t first = r.out.find("self-loop");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("self-loop", first + 1), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"a\" -> \"a\""), std::string::npos) << r.out;
}

// A self-loop is an edge of the input: explain says reduce keeps it (exit 1),
// not that there is no such edge.
TEST_F(Cli, ExplainOfASelfLoopSaysItIsKept) {
  const std::string in = write("loops.dot", "digraph { a -> a; a -> b }");
  CliRun r = run("explain " + in + " a a");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("a -> a is kept: it is a self-loop"), std::string::npos) << r.out;
  EXPECT_EQ(run("explain " + in + " b b").code, 2); // no such self-loop
}

TEST_F(Cli, ExplainPrintsWitnessOrSaysNeeded) {
  std::string in = write("e.dot", "digraph { a -> b; b -> c; a -> c }");
  CliRun r = run("explain " + in + " a c");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("a -> b"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("b -> c"), std::string::npos) << r.out;
  CliRun needed = run("explain " + in + " a b");
  EXPECT_EQ(needed.code, 1) << needed.out;
  CliRun missing = run("explain " + in + " c a");
  EXPECT_EQ(missing.code, 2) << missing.out;
}

TEST_F(Cli, UsageErrorsAreExit64AndHelpWorks) {
  EXPECT_EQ(run("reduce").code, 64);
  EXPECT_EQ(run("reduce --no-such-flag x").code, 64);
  CliRun usage = run("reduce");
  EXPECT_NE(usage.out.find("depreduce: error: "), std::string::npos) << usage.out; // as every other error
  EXPECT_NE(usage.out.find("required"), std::string::npos) << usage.out;
  EXPECT_EQ(run("--help").code, 0);
  EXPECT_EQ(run("reduce --help").code, 0);
  EXPECT_EQ(run("explain --help").code, 0);
}

TEST_F(Cli, UnknownSubCommandIsNamedAndVersionIsPrinted) {
  auto r = run("redcue x.dot"); // stdout and stderr together
  EXPECT_EQ(r.code, 64);
  EXPECT_NE(r.out.find("unknown sub-command 'redcue'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reduce, convert, explain"), std::string::npos) << r.out;
  auto v = run("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("depreduce ", 0), 0u) << v.out;
}

TEST_F(Cli, BothImplementationsGiveTheSameOutput) {
  std::string in = write("g.dot", "digraph { a -> b; b -> c; a -> c; c -> d; a -> d; x }");
  CliRun opt = run("reduce " + in + " --impl optimized");
  CliRun ref = run("reduce " + in + " --impl reference");
  EXPECT_EQ(opt.code, 0);
  EXPECT_EQ(opt.out, ref.out);
}

TEST_F(Cli, GenerateThenReduce) {
  std::string out = (dir_ / "mm.dot").string();
  CliRun g = run("generate matmul --size 300 --seed 2 -o " + out);
  ASSERT_EQ(g.code, 0) << g.out;
  CliRun r = run("reduce " + out + " --stats -o " + (dir_ / "r.dot").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cross-engine removed"), std::string::npos) << r.out;
}

// A report printed to stdout that cannot be written (here: a full disk) is a
// write error, exit 2, for every command - not a silent success.
TEST_F(Cli, StdoutWriteErrorIsExitTwoForReportsToo) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string g = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  for (const std::string& cmd : {"window-report " + g + " --time-budget-ms 0", "explain " + g + " a c", "reduce " + g}) {
    CliRun r = depreduce::testing::run_cli(cmd + " > /dev/full", path("err.txt"));
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_NE(r.err.find("<stdout>: write error"), std::string::npos) << cmd << ": " << r.err;
  }
}

// CLI11 alone would wrap "-1" into an unsigned seed and saturate values past
// 2^64 - 1; both are usage errors that name the option.
TEST_F(Cli, GenerateRejectsASeedThatIsNotAnUnsigned64BitInteger) {
  for (const char* seed : {"-1", "18446744073709551616", "12x"}) {
    CliRun g = run(std::string("generate dag --size 10 --seed ") + seed);
    EXPECT_EQ(g.code, 64) << seed;
    EXPECT_NE(g.out.find("--seed"), std::string::npos) << g.out; // stdout and stderr together
  }
  EXPECT_EQ(run("generate dag --size 10 --seed 18446744073709551615").code, 0);
}

} // namespace

namespace {

// The written output has the input's ordering, parallel parts and
// all, and `reduce` then `reduce` again gives the same file.
TEST_F(Cli, ReduceKeepsWhatParallelPartsDemandAndIsAFixpoint) {
  const std::string in = write("parts.dot", R"(digraph {
  a [engine=0]; x [engine=1]; c [engine=1]; p [engine=0, async=2]; q [engine=0];
  a -> x [kind=ordered]; a -> x [kind=flow, flags=retain]; x -> c; a -> c;
  p -> q; p -> q [kind=ordered];
})");
  const std::string once = (dir_ / "once.dot").string(), twice = (dir_ / "twice.dot").string();
  CliRun r = run("reduce " + in + " -o " + once + " --stats");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string dot = slurp(once);
  // a -> c and p -> q are needed; a -> x is written as its two parts.
  EXPECT_NE(dot.find("\"a\" -> \"c\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"a\" -> \"x\" [\"kind\"=\"ordered\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"a\" -> \"x\" [\"kind\"=\"flow\", \"flags\"=\"retain\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"p\" -> \"q\";"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"p\" -> \"q\" [\"kind\"=\"ordered\"]"), std::string::npos) << dot;
  CliRun again = run("reduce " + once + " -o " + twice + " --stats");
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("removed: 0"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(twice), dot);
}

} // namespace
// `--impl reference` is the whole reference pipeline (cgraph reader, the
// oracle's own program order, merging and reduction, from the input as
// read); it must write and print exactly what the default path does.
TEST_F(Cli, ImplReferenceIsByteIdenticalOnTheRealCorpus) {
  const char* src = std::getenv("DEPREDUCE_SOURCE_DIR");
  const std::filesystem::path real = std::filesystem::path(src ? src : ".") / "corpus" / "real";
  std::size_t compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(real)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".dot" && ext != ".gv" && ext != ".stg" && ext != ".json" && ext != ".xml" && ext != ".dax") continue;
    if (std::filesystem::file_size(entry.path()) > 400000) continue; // the oracle is O(n (n + m))
    if (entry.path().generic_string().find("/gcc-sched/") != std::string::npos)
      continue; // 414 small regions, through both twins in corpus_real_test (SOURCES.md section 7)
    const std::string in = entry.path().string();
    SCOPED_TRACE(in);
    const std::string a = path("fast.dot"), b = path("ref.dot");
    CliRun fast = run("reduce " + in + " -o " + a + " --stats");
    CliRun ref = run("reduce --impl reference " + in + " -o " + b + " --stats");
    EXPECT_EQ(fast.code, ref.code);
    if (fast.code != 0) continue; // a cycle (fsm.gv): both reject
    EXPECT_EQ(slurp(a), slurp(b));
    // --stats: the same counts; the time and the optimized reducer's own
    // "peak live closures" are not the oracle's to match.
    auto without_time = [](std::string s) {
      s = s.substr(0, s.find("time: "));
      if (auto p = s.find("peak live closures: "); p != std::string::npos) s.erase(p, s.find('\n', p) + 1 - p);
      return s;
    };
    EXPECT_EQ(without_time(fast.out), without_time(ref.out));
    ++compared;
  }
  EXPECT_GE(compared, 20u);
}

namespace {

// Fresh-user trial: an engine graph listed out of program order
// inside a cluster. The nodes are written in program order, and so must the
// cluster's members be (cgraph lists members in node order), or a second
// reduce writes another file.
TEST_F(Cli, ReduceTwiceIsTheSameFileWithAClusterOutOfProgramOrder) {
  const std::string in = write("s.dot", "digraph g {\n  subgraph cluster_s { b [engine=0]; a [engine=0]; }\n  a -> b [kind=flow];\n}\n");
  const std::string once = (dir_ / "1.dot").string(), twice = (dir_ / "2.dot").string();
  ASSERT_EQ(run("reduce " + in + " -o " + once).code, 0);
  ASSERT_EQ(run("reduce " + once + " -o " + twice).code, 0);
  EXPECT_EQ(slurp(twice), slurp(once));
  ASSERT_EQ(run("convert " + once + " -o " + twice).code, 0);
  EXPECT_EQ(slurp(twice), slurp(once));
}

} // namespace
