//===- window_report_test.cpp - `depreduce window-report` as a user runs it ===//
///
/// \file
/// Runs the built `depreduce` binary (DEPREDUCE_CLI) on small traces whose
/// report is derived by hand in the comments, reads `--json`, checks the SVG
/// plot, and the exit codes (64 usage, 2 bad input).
//===----------------------------------------------------------------------===//
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "depreduce/testing/cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using depreduce::testing::CliRun;
using depreduce::testing::slurp;

class WindowReportCli : public depreduce::testing::TempDirTest {
protected:
  CliRun run(const std::string& args) { return depreduce::testing::run_cli(args, path("stderr.txt")); }
  json report(const std::string& args) {
    const CliRun r = run("window-report " + args + " --json --time-budget-ms 0");
    EXPECT_EQ(r.code, 0) << r.err;
    return json::parse(r.out);
  }
  static const json& window(const json& j, unsigned bl) {
    for (const json& w : j["windows"])
      if (w["bl"] == bl) return w;
    ADD_FAILURE() << "no BL=" << bl;
    return j;
  }
};

// The issue's trace; t0 -> t4 carries WAIT|RETAIN. Six WAIT candidates with
// distances t1<-t0 1, t2<-t0 2, t3<-t1 2, t3<-t2 1, t4<-t0 4, t4<-t3 1:
// sorted 1,1,1,2,2,4 -> p50 = 1 (3rd of 6), p90 = 4 (6th), max 4.
// Full graph: t0 -> t4 redundant (t0 -> t1 -> t3 -> t4). Global: removed at
// every BL as a RETAIN conversion. Same-ring: t0's three edges are cross-ring;
// the redundant one is a cross-ring miss; the ring-1 graph has no redundancy.
const char* const kTrace = R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": "0"}, {"task_id": "4294967296"}, {"task_id": "4294967297"},
  {"task_id": "4294967298"}, {"task_id": "4294967299"}],
 "edges": [{"pred": "0", "succ": "4294967296"}, {"pred": "0", "succ": "4294967297"},
  {"pred": "4294967296", "succ": "4294967298"}, {"pred": "4294967297", "succ": "4294967298"},
  {"pred": "0", "succ": "4294967299", "flags": ["wait", "retain"]}, {"pred": "4294967298", "succ": "4294967299"}]})";

TEST_F(WindowReportCli, CrossRingTraceGlobalJson) {
  const json j = report(write("t.json", kTrace));
  EXPECT_EQ(j["tasks"], 5);
  EXPECT_EQ(j["rings"], 2);
  EXPECT_EQ(j["wait_candidates"], 6);
  EXPECT_EQ(j["redundant_full_graph"], 1);
  EXPECT_EQ(j["dep_pool_entries"], 6);
  EXPECT_EQ(j["distance"]["p50"], 1);
  EXPECT_EQ(j["distance"]["p90"], 4);
  EXPECT_EQ(j["distance"]["max"], 4);
  ASSERT_EQ(j["windows"].size(), 3u);
  for (unsigned bl : {64u, 128u, 256u}) {
    const json& w = window(j, bl);
    EXPECT_EQ(w["removed"], 1);
    EXPECT_EQ(w["retain_conversions"], 1);
    EXPECT_EQ(w["pure_wait_removals"], 0);
    EXPECT_EQ(w["fanout_nodes_dropped"], 1);
    EXPECT_EQ(w["dep_pool_entries_dropped"], 0);
    EXPECT_EQ(w["window_misses"], 0);
    EXPECT_EQ(w["false_removals"], 0);
    EXPECT_TRUE(w["ns_per_task"].is_null());
    EXPECT_TRUE(w["flags_ns_per_task"].is_null());
    EXPECT_TRUE(w["kernel"] == "avx512" || w["kernel"] == "portable") << w["kernel"]; // known without timing
  }
}

TEST_F(WindowReportCli, CrossRingTraceSameRingCountsACrossRingMiss) {
  const json j = report(write("t.json", kTrace) + " --mode same-ring --bl 64");
  EXPECT_EQ(j["redundant_same_ring_graph"], 0);
  ASSERT_EQ(j["windows"].size(), 1u);
  const json& w = window(j, 64);
  EXPECT_EQ(w["removed"], 0);
  EXPECT_EQ(w["cross_ring"], 3);
  EXPECT_EQ(w["cross_ring_misses"], 1);
  EXPECT_EQ(w["unexplained_misses"], 0);
}

// A one-ring chain n0 -> n1 -> ... -> n69 plus n0 -> n69 (d = 69). BL = 64
// cannot see n0 from n69: a window miss; BL = 128 and 256 remove it. The
// chain edges sit at d = 1: 70 WAIT edges, 69 within 64, all within 128.
TEST_F(WindowReportCli, ChainShortcutBeyondSixtyFourIsAWindowMiss) {
  std::string dot = "digraph {\n";
  for (int i = 0; i + 1 < 70; ++i) dot += "  n" + std::to_string(i) + " -> n" + std::to_string(i + 1) + ";\n";
  dot += "  n0 -> n69;\n}\n";
  const json j = report(write("chain.dot", dot));
  EXPECT_EQ(j["wait_candidates"], 70);
  EXPECT_EQ(j["redundant_full_graph"], 1);
  EXPECT_EQ(j["distance"]["max"], 69);
  EXPECT_EQ(window(j, 64)["removed"], 0);
  EXPECT_EQ(window(j, 64)["window_misses"], 1);
  EXPECT_EQ(window(j, 64)["untracked"], 1);
  EXPECT_NEAR(window(j, 64)["within_window"].get<double>(), 69.0 / 70.0, 1e-6);
  EXPECT_EQ(window(j, 128)["removed"], 1);
  EXPECT_EQ(window(j, 128)["window_misses"], 0);
  EXPECT_EQ(window(j, 256)["pure_wait_removals"], 1);
}

// Two slots per ring: local ids 0,1,2,3 -> (slot 0, gen 0), (1, 0), (0, 1),
// (1, 1). When local 3 is submitted, slot 0 holds local 2, so its candidate
// local 0 is stale: 0 -> 3 is redundant (0 -> 1 -> 3) but kept, a stale miss.
TEST_F(WindowReportCli, ReusedSlotMakesAStaleMiss) {
  const char* trace = R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": 0}, {"task_id": 1}, {"task_id": 2}, {"task_id": 3}],
    "edges": [{"pred": 0, "succ": 1}, {"pred": 1, "succ": 3}, {"pred": 0, "succ": 3}]})";
  const json j = report(write("s.json", trace) + " --slots-per-ring 2 --bl 64");
  EXPECT_EQ(j["redundant_full_graph"], 1);
  const json& w = window(j, 64);
  EXPECT_EQ(w["stale"], 1);
  EXPECT_EQ(w["stale_misses"], 1);
  EXPECT_EQ(w["removed"], 0);
  // With the default 16,384 slots nothing is reused and the edge goes.
  EXPECT_EQ(window(report(write("s2.json", trace) + " --bl 64"), 64)["removed"], 1);
}

TEST_F(WindowReportCli, TextReportAndPlot) {
  const std::string svg = (dir_ / "cdf.svg").string();
  const CliRun r = run("window-report " + write("t.json", kTrace) + " --bl 64,256 --plot " + svg + " --time-budget-ms 1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("WAIT candidates:                        6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BL=64"), std::string::npos);
  EXPECT_NE(r.out.find("BL=256"), std::string::npos);
  EXPECT_EQ(r.out.find("BL=128"), std::string::npos);
  EXPECT_NE(r.out.find("WAIT|RETAIN -> RETAIN"), std::string::npos);
  EXPECT_NE(r.out.find("reducer time per task (ns), submit_into"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hot path submit_flags (ns)"), std::string::npos);
  EXPECT_TRUE(r.out.find("avx512") != std::string::npos || r.out.find("portable") != std::string::npos) << r.out;
  const std::string plot = slurp(svg);
  EXPECT_EQ(plot.rfind("<svg", 0), 0u) << plot.substr(0, 80);
  EXPECT_NE(plot.find("<polyline"), std::string::npos);
  EXPECT_NE(plot.find(">BL=64<"), std::string::npos);
  EXPECT_NE(plot.find(">BL=256<"), std::string::npos);
  EXPECT_NE(plot.find("</svg>"), std::string::npos);
}

TEST_F(WindowReportCli, UsageErrorsExit64) {
  const std::string f = write("t.json", kTrace);
  EXPECT_EQ(run("window-report " + f + " --bl 64,100").code, 64);
  EXPECT_EQ(run("window-report " + f + " --mode sideways").code, 64);
  EXPECT_EQ(run("window-report " + f + " --seq-width 48").code, 64);
  EXPECT_EQ(run("window-report " + f + " --slots-per-ring 0").code, 64);
  EXPECT_EQ(run("window-report").code, 64);
  // A missing file is bad input (exit 2, the file named), not a usage error.
  const CliRun missing = run("window-report " + path("missing.json"));
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("missing.json"), std::string::npos) << missing.err;
}

// Regression (fresh-user trial): `--bl ""` ran BL = 256 alone, `--bl 128,`
// and `--bl 64,,128` ran without complaint and `--bl ,,` said "--bl:
// --time-budget-ms". Every malformed list is now a usage error naming the item.
TEST_F(WindowReportCli, MalformedWindowListIsAUsageErrorNamingTheItem) {
  const std::string f = write("t.json", kTrace);
  for (const char* bad : {"''", "','", "',,'", "128,", "64,,128", "abc", "64,abc", "63"}) {
    const CliRun r = run("window-report " + f + " --bl " + bad + " --time-budget-ms 0");
    EXPECT_EQ(r.code, 64) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--bl: "), std::string::npos) << bad << ": " << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
  EXPECT_NE(run("window-report " + f + " --bl 64,abc").err.find("'abc' is not a window size"), std::string::npos);
  // Repeated and unordered lists are fine.
  const json j = report(f + " --bl 256,64 --bl 64");
  ASSERT_EQ(j["windows"].size(), 2u);
  EXPECT_EQ(j["windows"][0]["bl"], 64);
  EXPECT_EQ(j["windows"][1]["bl"], 256);
}

// Regression (fresh-user trial): a --plot path in a missing folder failed
// only after the whole replay and its timing. It is refused before the trace
// is read, with the same message, and nothing is written.
TEST_F(WindowReportCli, PlotIntoAMissingFolderFailsBeforeTheReplay) {
  const std::string f = write("t.json", kTrace);
  const std::string svg = (dir_ / "no-such-folder" / "cdf.svg").string();
  const CliRun r = run("window-report " + f + " --plot " + svg + " --time-budget-ms 60000");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot write: folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "no-such-folder"));
}

// The kernel row says how many tasks the AVX-512 kernel actually takes (1..64
// candidates); the others run the portable loop.
TEST_F(WindowReportCli, KernelRowSaysWhichShareOfTasksItRuns) {
  const json j = report(write("t.json", kTrace) + " --bl 64");
  const json& w = j["windows"][0];
  ASSERT_TRUE(w.contains("kernel_task_share"));
  const double share = w["kernel_task_share"];
  // t0 has no candidate (portable loop), t1..t4 have one or two.
  EXPECT_DOUBLE_EQ(share, w["kernel"] == "portable" ? 1.0 : 0.8) << w["kernel"];
}

TEST_F(WindowReportCli, BadTraceExits2WithFileAndLine) {
  const std::string f = write("dup.json", "{\"runtime\": \"tensormap_and_ringbuffer\", \"tasks\": [\n{\"task_id\": 1},\n{\"task_id\": 1}\n], \"edges\": []}\n");
  const CliRun r = run("window-report " + f);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("dup.json:3: duplicate task_id 1"), std::string::npos) << r.err;
  const std::string cyc = write("cycle.dot", "digraph { a -> b; b -> a; }\n");
  EXPECT_EQ(run("window-report " + cyc).code, 2);
}

// ---------------------------------------------------------------------------
// Captures as the runtime writes them, and the reduced capture.
// ---------------------------------------------------------------------------

fs::path source_dir() {
  const char* d = std::getenv("DEPREDUCE_SOURCE_DIR");
  return d != nullptr ? fs::path(d) : fs::path(".");
}

// The docs' sample captures (corpus/captures/, docs/window.md). By hand:
// tensormap_and_ringbuffer - alloc task 0 (uncaptured) creates the tensor of
// 1, 2, 3; 0 -> 2 and 0 -> 3 are wait|retain and redundant (via 1), 1 -> 3
// (wait, via 2) and 2 -> 4294967296 (wait, via 3) too: 4 removals, 2 of them
// RETAIN conversions. host_build_graph - no flags: explicit records are
// wait|retain, tensormap ones wait; 0 -> 4611686018427387905 (explicit),
// 0 -> ...906 and ...904 -> 1 (tensormap) are redundant: 1 conversion, 2 drops.
TEST_F(WindowReportCli, SampleCapturesOfBothRuntimes) {
  const fs::path dir = source_dir() / "corpus" / "captures";
  const json tmr = report((dir / "tensormap_and_ringbuffer.deps.json").string() + " --bl 64");
  EXPECT_EQ(tmr["runtime"], "tensormap_and_ringbuffer");
  EXPECT_EQ(tmr["tasks"], 5);
  EXPECT_EQ(tmr["rings"], 2);
  EXPECT_EQ(tmr["redundant_full_graph"], 4);
  EXPECT_EQ(window(tmr, 64)["retain_conversions"], 2);
  EXPECT_EQ(window(tmr, 64)["pure_wait_removals"], 2);
  const json hbg = report((dir / "host_build_graph.deps.json").string() + " --bl 64");
  EXPECT_EQ(hbg["runtime"], "host_build_graph");
  EXPECT_EQ(hbg["tasks"], 5);
  EXPECT_EQ(hbg["rings"], 1);
  EXPECT_EQ(hbg["redundant_full_graph"], 3);
  EXPECT_EQ(window(hbg, 64)["retain_conversions"], 1);
  EXPECT_EQ(window(hbg, 64)["pure_wait_removals"], 2);
}

/// One ring: a chain 0 -> 1 -> ... -> 69 (tensormap, wait) plus the shortcut
/// 0 -> 69 (creator, wait|retain) at distance 69.
std::string chain_capture() {
  std::string t = "{\"runtime\": \"tensormap_and_ringbuffer\",\n \"tasks\": [";
  for (int i = 0; i < 70; ++i) t += std::string(i ? ", " : "") + "{\"task_id\": \"" + std::to_string(i) + "\"}";
  t += "],\n \"edges\": [\n";
  for (int i = 0; i + 1 < 70; ++i)
    t += "  {\"pred\": \"" + std::to_string(i) + "\", \"succ\": \"" + std::to_string(i + 1) +
         "\", \"source\": \"tensormap\", \"flags\": [\"wait\"]},\n";
  t += "  {\"pred\": \"0\", \"succ\": \"69\", \"source\": \"creator\", \"flags\": [\"wait\", \"retain\"]}\n ]}\n";
  return t;
}

// --reduced-by exact clears the shortcut's WAIT; the window at BL = 64 cannot
// see it (d = 69) and writes the capture back unchanged; BL = 128 clears it.
TEST_F(WindowReportCli, WriteReducedByExactOrByTheWindowAtOneBl) {
  const std::string in = write("chain.deps.json", chain_capture());
  const std::string shortcut = R"({"pred": "0", "succ": "69", "source": "creator", "flags": ["wait", "retain"]})";
  const std::string cleared = R"({"pred": "0", "succ": "69", "source": "creator", "flags": ["retain"]})";
  std::string expected = chain_capture();
  expected.replace(expected.find(shortcut), shortcut.size(), cleared);
  for (const auto& [by, want] : {std::pair<std::string, std::string>{"exact", expected}, {"64", chain_capture()},
                                 {"128", expected}, {"256", expected}}) {
    const std::string out = path("out_" + by + ".deps.json");
    const json j = report(in + " --bl 64 --write-reduced " + out + " --reduced-by " + by);
    EXPECT_EQ(slurp(out), want) << by;
    EXPECT_EQ(j["reduced_capture"]["by"], by);
    EXPECT_EQ(j["reduced_capture"]["pairs"], want == expected ? 1 : 0) << by;
    // Read back, the reduced capture has nothing left to remove.
    EXPECT_EQ(report(out + " --bl 64")["redundant_full_graph"], want == expected ? 0 : 1) << by;
  }
  const CliRun text = run("window-report " + in + " --bl 64 --time-budget-ms 0 --write-reduced " + path("t.deps.json"));
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("reduced capture (exact): " + path("t.deps.json") + ", WAIT cleared on 1 pair(s)"),
            std::string::npos)
      << text.out;
}

// Same rules as -o: refused before the replay (a missing folder, an
// extension of another format), and a DAG file has no capture to write back.
TEST_F(WindowReportCli, WriteReducedRefusals) {
  const std::string in = write("c.deps.json", chain_capture());
  const CliRun dot = run("window-report " + in + " --write-reduced " + path("r.dot"));
  EXPECT_EQ(dot.code, 64) << dot.err;
  EXPECT_NE(dot.err.find("names another format"), std::string::npos) << dot.err;
  const CliRun folder = run("window-report " + in + " --write-reduced " + (dir_ / "nope" / "r.json").string());
  EXPECT_EQ(folder.code, 2);
  EXPECT_EQ(folder.out, "");
  const CliRun dag = run("window-report " + write("g.dot", "digraph { a -> b; }\n") + " --write-reduced " +
                         path("g.reduced.json"));
  EXPECT_EQ(dag.code, 2);
  EXPECT_NE(dag.err.find("DAG file"), std::string::npos) << dag.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.reduced.json"));
  EXPECT_EQ(run("window-report " + in + " --write-reduced " + path("x.json") + " --reduced-by 100").code, 64);
  // The plot is SVG: a graph format's extension is refused before the replay.
  const CliRun plot = run("window-report " + in + " --plot " + path("p.dot"));
  EXPECT_EQ(plot.code, 64) << plot.err;
  EXPECT_FALSE(fs::exists(dir_ / "p.dot"));
  // The report is on stdout: the capture may not go there too.
  const CliRun to_stdout = run("window-report " + in + " --write-reduced -");
  EXPECT_EQ(to_stdout.code, 64) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, "");
  EXPECT_NE(to_stdout.err.find("standard output"), std::string::npos) << to_stdout.err;
}

// A capture without "runtime" is refused naming --runtime; --runtime decodes it.
TEST_F(WindowReportCli, RuntimeOverride) {
  const std::string f = write("old.json", R"({"tasks": [{"task_id": "0"}, {"task_id": "4611686018427387905"}],
    "edges": [{"pred": "0", "succ": "4611686018427387905", "source": "explicit"}]})");
  const CliRun r = run("window-report " + f + " --time-budget-ms 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--runtime"), std::string::npos) << r.err;
  const json j = report(f + " --runtime host_build_graph --bl 64");
  EXPECT_EQ(j["runtime"], "host_build_graph");
  EXPECT_EQ(j["wait_candidates"], 1);
  EXPECT_EQ(run("window-report " + f + " --runtime cuda").code, 64);
  const CliRun ring = run("window-report " + f + " --runtime tensormap_and_ringbuffer --time-budget-ms 0");
  EXPECT_EQ(ring.code, 2);
  EXPECT_NE(ring.err.find("old.json:1: task_id 4611686018427387905 has bits 63:40 set"), std::string::npos)
      << ring.err;
}

} // namespace
